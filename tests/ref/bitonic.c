/* bitonic.c - C reference of tests/cuda/bitonic.cu: the network sorts each block's 256 keys
 * ascending (every stage's direction is "up" at k = 256), so the reference is a plain sort. */
#include <stdlib.h>

static int bitonic_cmp(const void *x, const void *y)
{
	int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
	return (a > b) - (a < b);
}

static void ref_bitonic(RefArgs *a)
{
	int32_t *keys = a->p[0];

	for (uint32_t b = 0; b < a->grid[0]; b++)
		qsort(keys + 256 * b, 256, sizeof *keys, bitonic_cmp);
}
