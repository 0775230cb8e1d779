// histogram: 64 bins, shared-memory integer atomics merged into global (order-independent).
extern "C" __global__ void histogram(const unsigned char *data, unsigned *bins, int n)
{
	__shared__ unsigned h[64];
	int t = threadIdx.x;
	if (t < 64)
		h[t] = 0;
	__syncthreads();
	for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x)
		atomicAdd(&h[data[i] & 63], 1u);
	__syncthreads();
	if (t < 64 && h[t])
		atomicAdd(&bins[t], h[t]);
}
