/* divergence.c - C reference of tests/cuda/divergence.cu: per thread, a loop with break and
 * continue (x % 3 == 0), capped Collatz steps (== 1) or a lane-parity choice (== 2); a
 * negative result is dropped on lanes with bit 2 of threadIdx.x set; threads >= n store nothing. */
static void ref_divergence(RefArgs *a)
{
	const int32_t *in = a->p[0];
	int32_t *out = a->p[1];
	int32_t n = (int32_t)a->v[2];
	uint32_t bs = a->block[0];

	for (uint32_t b = 0; b < a->grid[0]; b++)
		for (uint32_t tid = 0; tid < bs; tid++) {
			int32_t i = (int32_t)(b * bs + tid), x, acc = 0;

			if (i >= n)
				continue;
			x = in[i];
			if (x % 3 == 0) {
				for (int32_t k = 0; k < (x & 15) && k != 11; k++)
					if (!(k & 1))
						acc += k * x;
			} else if (x % 3 == 1) {
				while (x > 1 && acc <= 40) {
					x = x & 1 ? 3 * x + 1 : x >> 1;
					acc++;
				}
			} else
				acc = tid & 1 ? -x : x * x;
			if (acc < 0 && (tid & 4))
				continue;
			out[i] = acc;
		}
}
