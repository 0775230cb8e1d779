/* banks.c - shared-memory bank conflicts: how many passes a warp's access needs when each
 * bank delivers one bank-wide word per pass and lanes on the same word share it.
 */
#include <assert.h>
#include "sim/timing.h"

int
sim_bank_degree(const uint32_t *addr, uint32_t mask, int size, int banks, int bank_bytes)
{
	uint32_t w[TM_WARP * 4];
	int n = 0, per = size > bank_bytes ? size / bank_bytes : 1, count[64] = {0}, best = 0;

	assert(banks >= 1 && banks <= 64 && per <= 4);
	for (int l = 0; l < TM_WARP; l++) {
		if (!(mask >> l & 1))
			continue;
		for (int k = 0; k < per; k++) {
			/* insertion into the ascending, duplicate-free w[0..n) */
			uint32_t v = addr[l] / (uint32_t)bank_bytes + (uint32_t)k;
			int i = n;
			while (i > 0 && w[i - 1] > v)
				i--;
			if (i > 0 && w[i - 1] == v)
				continue;
			for (int j = n; j > i; j--)
				w[j] = w[j - 1];
			w[i] = v;
			n++;
		}
	}
	for (int i = 0; i < n; i++) {
		int b = (int)(w[i] % (uint32_t)banks);
		if (++count[b] > best)
			best = count[b];
	}
	return best;
}
