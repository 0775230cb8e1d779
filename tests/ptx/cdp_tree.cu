// Dynamic parallelism (tests/ptx/cdp_tree.ptx, nvcc 11.8: -rdc=true -arch=sm_35 -ptx): a
// binary tree of grids. Grid `id` (1 block of 2 threads) counts its threads at out[depth], records
// its id in the next slot of the list out[64..] (thread 0), and each of its threads launches
// one child until depth reaches max, thread t the child 2 * id + 1 + t. The list is the order
// the grids ran: warpsim runs them first in, first out, each grid's launches sorted by block,
// thread and program order, so it is 0, 1, 2, 3, ... (breadth first) on both engines.
extern "C" __global__ void cdp_tree(int *out, int id, int depth, int max)
{
	if (threadIdx.x == 0) {
		int pos = atomicAdd(&out[62], 1);
		out[64 + pos] = id;
	}
	atomicAdd(&out[depth], 1);
	if (depth < max)
		cdp_tree<<<1, 2>>>(out, 2 * id + 1 + threadIdx.x, depth + 1, max);
}
