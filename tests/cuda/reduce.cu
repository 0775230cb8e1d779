// reduce: shared-memory tree reduction of 32-bit integers, one partial sum per block.
// launch: 4 blocks of 256 threads over 1024 elements.
extern "C" __global__ void reduce(const int *in, int *out, int n)
{
	__shared__ int s[256];
	int t = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
	s[t] = i < n ? in[i] : 0;
	__syncthreads();
	for (int k = blockDim.x / 2; k > 0; k >>= 1) {
		if (t < k)
			s[t] += s[t + k];
		__syncthreads();
	}
	if (t == 0)
		out[blockIdx.x] = s[0];
}
