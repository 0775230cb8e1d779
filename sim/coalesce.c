/* coalesce.c - global-memory coalescing: the distinct aligned blocks (L1 lines or sectors)
 * a warp's active lanes touch, and the same-address degree that serialises atomics.
 */
#include <assert.h>
#include "sim/timing.h"

/* sorts seg[0..n) ascending and drops its duplicates; returns the count left (an insertion
 * sort that shifts as it compares: the lists are short and mostly in order) */
static int
sort_unique(uint64_t *seg, int n)
{
	int k = 1;

	for (int i = 1; i < n; i++) {
		uint64_t v = seg[i];
		int j = i;
		for (; j > 0 && seg[j - 1] > v; j--)
			seg[j] = seg[j - 1];
		seg[j] = v;
	}
	for (int i = 1; i < n; i++)
		if (seg[i] != seg[k - 1])
			seg[k++] = seg[i];
	return n ? k : 0;
}

int
sim_coalesce(const uint64_t *addr, uint32_t mask, int size, uint32_t gran, uint64_t *seg)
{
	uint64_t m = ~(uint64_t)(gran - 1), last = 1; /* 1 is never an aligned block address */
	int n = 0, sorted = 1;

	assert(gran >= 4 && (gran & (gran - 1)) == 0 && size >= 1 && size <= 16);
	/* each lane's blocks in lane order, but for a block the one before just took (last,
	 * seg[n - 1]); while they ascend the list is the answer as it stands (at most 32 lanes
	 * of up to 5 blocks: TM_MAXSEGS) */
	for (uint32_t left = mask; left; left &= left - 1) {
		int l = __builtin_ctz(left);
		uint64_t b = addr[l] & m, e = (addr[l] + (uint64_t)size - 1) & m;
		if (b == last && e == b)
			continue;       /* (the common lane: inside the block of the one before) */
		for (;;) {
			if (b != last) {
				sorted &= b > last || n == 0;
				seg[n++] = b;
			}
			last = b;
			if (b == e)
				break;
			b += gran;
		}
	}
	return sorted ? n : sort_unique(seg, n);
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
