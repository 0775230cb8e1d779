// coop_reduce: a grid-wide reduction with cooperative groups' grid.sync() (cooperative
// launch: warpsim --cooperative). Phase 1: each block sums a grid-stride slice (warp
// shuffles, then a shared atomic per warp) and writes its partial sum. grid.sync().
// Phase 2: block 0 adds the partials into total[0]. grid.sync() again (the workspace's
// barrier word is reused). Phase 3: every thread reads the total and writes total + its
// global rank, so that a block that ran past the second sync too early would read a wrong
// total.
// launch: 6 blocks of 128 threads over 5000 elements.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void coop_reduce(const int *in, int *part, int *total, int *seen, int n)
{
	__shared__ int blocksum;
	cg::grid_group g = cg::this_grid();
	int t = threadIdx.x, acc = 0;
	if (t == 0)
		blocksum = 0;
	for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
		acc += in[i];
	for (int d = 16; d > 0; d /= 2)          // each warp's sum in its lane 0
		acc += __shfl_down_sync(0xffffffffu, acc, d);
	__syncthreads();
	if ((t & 31) == 0)
		atomicAdd(&blocksum, acc);
	__syncthreads();
	if (t == 0)
		part[blockIdx.x] = blocksum;
	g.sync();
	if (blockIdx.x == 0 && t == 0) {
		int sum = 0;
		for (unsigned b = 0; b < gridDim.x; b++)
			sum += part[b];
		total[0] = sum;
	}
	g.sync();
	seen[g.thread_rank()] = total[0] + (int)g.thread_rank();
}
