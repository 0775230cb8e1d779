// Dynamic parallelism (tests/ptx/cdp_rec.ptx, nvcc 11.8: -rdc=true -arch=sm_35 -ptx): a
// recursive launch. Grid `depth` (1 block of 2 threads) adds to out[depth] from both threads
// and thread 1 launches the next level until depth reaches max; levels write separate words
// except the total in out[63], which the grids update one after another (atomically).
extern "C" __global__ void cdp_rec(int *out, int depth, int max)
{
	atomicAdd(&out[depth], depth * 10 + threadIdx.x + 1);
	atomicAdd(&out[63], 1);
	if (threadIdx.x == 1 && depth < max)
		cdp_rec<<<1, 2>>>(out, depth + 1, max);
}
