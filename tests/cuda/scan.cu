// scan: inclusive Hillis-Steele prefix sum within each block of 128 threads.
extern "C" __global__ void scan(const unsigned *in, unsigned *out)
{
	__shared__ unsigned buf[2][128];
	int t = threadIdx.x, g = blockIdx.x * blockDim.x + t, p = 0;
	buf[0][t] = in[g];
	__syncthreads();
	for (int off = 1; off < 128; off <<= 1) {
		unsigned v = buf[p][t];
		if (t >= off)
			v += buf[p][t - off];
		buf[1 - p][t] = v;
		p = 1 - p;
		__syncthreads();
	}
	out[g] = buf[p][t];
}
