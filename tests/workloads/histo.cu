// histo.cu - a histogram with atomics in the spirit of Parboil's histo: every CTA builds a
// private 256-bin histogram in shared memory (atomicAdd on shared), then adds it into the
// global bins (atomicAdd on global). Inputs are bytes; the grid strides over them.
#define BINS 256

extern "C" __global__ void histo(const unsigned char *in, unsigned *bins, int n)
{
	__shared__ unsigned h[BINS];

	for (int b = threadIdx.x; b < BINS; b += blockDim.x)
		h[b] = 0;
	__syncthreads();
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		atomicAdd(&h[in[i]], 1u);
	__syncthreads();
	for (int b = threadIdx.x; b < BINS; b += blockDim.x)
		if (h[b])
			atomicAdd(&bins[b], h[b]);
}
