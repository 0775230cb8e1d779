// assert.cu - a device-side assert that fails (issue 15 part 4): every thread writes its
// slot, then thread 100 (warp 3, lane 4 of the one CTA) fails assert(t < limit). Both engines
// stop with CUDA's message for that thread and exit 1, and the slots written before it are
// saved. nvcc -ptx -arch=sm_75 assert.cu (from tests/sim) makes assert.ptx.
#include <cassert>

extern "C" __global__ void check(int *out, int limit)
{
	int t = threadIdx.x;

	out[t] = t * 3;
	__syncthreads();
	assert(t < limit);
}
