// divergence: data-dependent loops with break/continue, nested ifs, early exit.
extern "C" __global__ void divergence(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;                       // early exit of the tail threads
	int x = in[i], acc = 0;
	if (x % 3 == 0) {
		for (int k = 0; k < (x & 15); k++) {
			if (k == 11)
				break;
			if (k & 1)
				continue;
			acc += k * x;
		}
	} else if (x % 3 == 1) {
		while (x > 1) {               // Collatz steps, capped
			x = (x & 1) ? 3 * x + 1 : x >> 1;
			if (++acc > 40)
				break;
		}
	} else {
		if (threadIdx.x & 1)
			acc = -x;
		else
			acc = x * x;
	}
	if (acc < 0 && (threadIdx.x & 4))
		return;                       // exit from inside divergent code
	out[i] = acc;
}
