/* calls.c - C reference of tests/cuda/calls.cu: out[2t] = ops[t % 3](t) + fib(t & 7),
 * out[2t + 1] = t, with ops = {twice, square, negate}. */
static int32_t calls_fib(int32_t n)
{
	int32_t x = 0, y = 1;   /* iterative: fib(0) = 0, fib(1) = 1 */

	while (n-- > 0) {
		int32_t z = x + y;
		x = y;
		y = z;
	}
	return x;
}

static void ref_calls(RefArgs *a)
{
	int32_t *out = a->p[0];
	int32_t nt = (int32_t)(a->grid[0] * a->block[0]);

	for (int32_t t = 0; t < nt; t++) {
		int32_t f = t % 3 == 0 ? 2 * t : t % 3 == 1 ? t * t : -t;
		out[2 * t] = f + calls_fib(t & 7);
		out[2 * t + 1] = t;
	}
}
