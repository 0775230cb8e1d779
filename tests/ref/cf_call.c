/* cf_call.c - C reference of tests/ptx/cf_call.ptx (one block): thread t stores
 *   out[4t]     = t < 32 ? h(t, 7) = 10t + 7 : 0 (the guarded call leaves d = 0),
 *   out[4t + 1] = jmptbl[t % 3](t, 7) with foo = a + b, bar = a * b, baz = a - b,
 *   out[4t + 2] = t odd ? foo(t, 7) : baz(t, 7),
 *   out[4t + 3] = bar(t, 7) through dispatch;
 * and thread 0 stores the global counter after the barrier: init and g(1) added 1 + 1 per
 * thread of the block, into out[256]. */
static uint32_t cf_call_op(int k, uint32_t x, uint32_t y)
{
	return k == 0 ? x + y : k == 1 ? x * y : x - y;
}

static void ref_cf_call(RefArgs *a)
{
	uint32_t *out = a->p[0];
	uint32_t nt = a->block[0], counter = 0;

	for (uint32_t t = 0; t < nt; t++) {
		counter += 1 + 1;
		out[4 * t] = t < 32 ? 10 * t + 7 : 0;
		out[4 * t + 1] = cf_call_op((int)(t % 3), t, 7);
		out[4 * t + 2] = cf_call_op(t & 1 ? 0 : 2, t, 7);
		out[4 * t + 3] = cf_call_op(1, t, 7);
	}
	out[256] = counter;
}
