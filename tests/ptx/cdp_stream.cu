// Dynamic parallelism with device-side streams (tests/ptx/cdp_stream.ptx, nvcc 11.8:
// -rdc=true -arch=sm_35 -ptx). cdp_stream (blocks of 4 threads) halves [lo, hi) until 4
// elements are left: threads 0 and 1 each launch one half in a non-blocking stream of their
// own (as the CUDA samples' quicksort does); in a leaf, thread t sets a[i] = 2 a[i] + i at
// i = lo + t. The halves are disjoint, so any order of the grids gives the same array. cdp_stream_blocking asks for a blocking stream, which CUDA
// refuses in a kernel: tests/ptx/cdp_stream.blocking.stop.
extern "C" __global__ void cdp_stream(int *a, int lo, int hi)
{
	int t = threadIdx.x, mid = (lo + hi) / 2;
	if (hi - lo <= 4) {
		if (lo + t < hi)
			a[lo + t] = 2 * a[lo + t] + lo + t;
	} else if (t < 2) {
		cudaStream_t s;
		cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
		cdp_stream<<<1, 4, 0, s>>>(a, t ? mid : lo, t ? hi : mid);
		cudaStreamDestroy(s);
	}
}

extern "C" __global__ void cdp_stream_blocking(int *a)
{
	cudaStream_t s;
	cudaStreamCreateWithFlags(&s, cudaStreamDefault);
	cdp_stream<<<1, 4, 0, s>>>(a, 0, 4);
	cudaStreamDestroy(s);
}
