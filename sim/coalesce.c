/* coalesce.c - global-memory coalescing: the distinct aligned blocks (L1 lines or sectors)
 * a warp's active lanes touch, and the same-address degree that serialises atomics.
 */
#include <assert.h>
#include "sim/timing.h"

/* inserts b into the ascending, duplicate-free seg[0..*n) */
static void
insert(uint64_t *seg, int *n, uint64_t b)
{
	int i = *n;
	while (i > 0 && seg[i - 1] > b)
		i--;
	if (i > 0 && seg[i - 1] == b)
		return;
	assert(*n < TM_MAXSEGS);
	for (int j = *n; j > i; j--)
		seg[j] = seg[j - 1];
	seg[i] = b;
	(*n)++;
}

int
sim_coalesce(const uint64_t *addr, uint32_t mask, int size, uint32_t gran, uint64_t *seg)
{
	uint64_t m = ~(uint64_t)(gran - 1), last = 1; /* 1 is never an aligned block address */
	int n = 0;

	assert(gran >= 4 && (gran & (gran - 1)) == 0 && size >= 1 && size <= 16);
	for (uint32_t left = mask; left; left &= left - 1) {
		int l = __builtin_ctz(left);
		uint64_t b = addr[l] & m, e = (addr[l] + (uint64_t)size - 1) & m;
		if (b == last && e == b)
			continue;       /* (the common lane: inside the block of the one before) */
		for (;;) {
			if (b != last)
				insert(seg, &n, b);
			last = b;
			if (b == e)
				break;
			b += gran;
		}
	}
	return n;
}

int
sim_same_addr_degree(const uint64_t *addr, uint32_t mask)
{
	int best = 0;
	uint32_t left = mask;
	while (left) {
		int l = __builtin_ctz(left), k = 0;
		for (uint32_t m = left; m; m &= m - 1) {
			int j = __builtin_ctz(m);
			if (addr[j] == addr[l]) {
				k++;
				left &= ~(1u << j);
			}
		}
		if (k > best)
			best = k;
	}
	return best;
}

int
sim_distinct_addrs(const uint64_t *addr, uint32_t mask)
{
	int n = 0;
	for (uint32_t left = mask; left; n++) {
		uint64_t a = addr[__builtin_ctz(left)];
		for (uint32_t m = left; m; m &= m - 1)
			if (addr[__builtin_ctz(m)] == a)
				left &= ~(1u << __builtin_ctz(m));
	}
	return n;
}
