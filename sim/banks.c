/* banks.c - shared-memory bank conflicts: how many passes a warp's access needs when each
 * bank delivers one bank-wide word per pass and lanes on the same word share it.
 */
#include <assert.h>
#include <string.h>
#include "sim/timing.h"

/* word v in bank v & bm: whether its bank had no other word yet (seen, first: the banks
 * seen and the word of each) */
static inline int one_word(uint32_t v, uint32_t bm, uint64_t *seen, uint32_t *first)
{
	uint32_t b = v & bm;

	if (!(*seen >> b & 1)) {
		*seen |= 1ull << b;
		first[b] = v;
		return 1;
	}
	return first[b] == v;
}

/* word v of bank b into the chain of b's distinct words (w, next, head), unless a lane
 * before took it (the same pass); count: the words of each bank, best: the most */
static inline void add_word(uint32_t v, uint32_t b, uint32_t *w, uint8_t *next, uint8_t *head,
                            uint8_t *count, int *n, int *best)
{
	int i = head[b];

	while (i != 0xff && w[i] != v)
		i = next[i];
	if (i != 0xff)
		return;
	w[*n] = v;
	next[*n] = head[b];
	head[b] = (uint8_t)*n;
	(*n)++;
	if (++count[b] > *best)
		*best = count[b];
}

/* the most distinct bank-wide words of the access that fall in one bank. Each bank keeps a
 * chain of the distinct words seen in it (head, next), so a lane compares its word only with
 * its bank's earlier ones, instead of the insertion into one sorted list of every word
 * (about 500 steps a full warp); an access of at most a bank's width without conflicts
 * (one word a bank) is found first, with a bit a bank */
int
sim_bank_degree(const uint32_t *addr, uint32_t mask, int size, int banks, int bank_bytes)
{
	uint32_t w[TM_WARP * 4];
	uint8_t next[TM_WARP * 4], head[64], count[64];
	int n = 0, per = size > bank_bytes ? size / bank_bytes : 1, best = 0;
	/* the common geometry (powers of two) by shift and mask, the rest by division */
	int pow2 = !(banks & (banks - 1)) && !(bank_bytes & (bank_bytes - 1));
	int sh = __builtin_ctz((unsigned)bank_bytes);
	uint32_t bm = (uint32_t)banks - 1;

	assert(banks >= 1 && banks <= 64 && per <= 4);
	if (mask == ~0u && per == 1 && banks >= TM_WARP && addr[1] - addr[0] == (uint32_t)bank_bytes &&
	    addr[31] - addr[0] == 31u * (uint32_t)bank_bytes) {
		/* a full warp's consecutive bank-wide words (a straight loop): as many banks */
		uint32_t gap = 0;
		for (int l = 0; l < TM_WARP; l++)
			gap |= addr[l] - addr[0] - (uint32_t)l * (uint32_t)bank_bytes;
		if (!gap)
			return 1;
	}
	if (pow2 && per == 1) {
		/* the common access without conflicts: each bank one word (first[b], set where
		 * seen has bit b) however many lanes share it; a second word in a bank goes on to
		 * the count below */
		uint64_t seen = 0;
		uint32_t first[64];
		uint32_t m = mask;
		for (; m; m &= m - 1)
			if (!one_word(addr[__builtin_ctz(m)] >> sh, bm, &seen, first))
				break;
		if (!m)
			return seen != 0;
	}
	memset(head, 0xff, (size_t)banks);
	memset(count, 0, (size_t)banks);
	if (pow2 && per == 1)       /* (the common geometry without the loop over a lane's words) */
		for (; mask; mask &= mask - 1) {
			uint32_t v = addr[__builtin_ctz(mask)] >> sh;
			add_word(v, v & bm, w, next, head, count, &n, &best);
		}
	else
		for (; mask; mask &= mask - 1) {
			uint32_t a = addr[__builtin_ctz(mask)];
			uint32_t v0 = pow2 ? a >> sh : a / (uint32_t)bank_bytes;
			for (int k = 0; k < per; k++) {
				uint32_t v = v0 + (uint32_t)k;
				add_word(v, pow2 ? v & bm : v % (uint32_t)banks, w, next, head, count, &n, &best);
			}
		}
	return best;
}
