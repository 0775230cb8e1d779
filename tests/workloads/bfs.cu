// bfs.cu - breadth-first search in the spirit of Rodinia's bfs: a random graph of N nodes,
// each with DEG out-edges (node i's edges are edges[i*DEG .. i*DEG+DEG)), levels from SRC.
// Rodinia runs two kernels per level from the host; one CTA runs the whole search here,
// level by level, the CTA's threads striding over the nodes, a barrier between levels and a
// shared flag saying whether the frontier grew. cost[i] = level of node i, -1 if unreached.
// Every thread that reaches a node writes the same level into it, so the result is unique.
extern "C" __global__ void bfs(const unsigned *edges, int *cost, int n, int deg, int src)
{
	__shared__ int grew;
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		cost[i] = i == src ? 0 : -1;
	__syncthreads();
	for (int level = 0;; level++) {
		if (threadIdx.x == 0)
			grew = 0;
		__syncthreads();
		for (int i = threadIdx.x; i < n; i += blockDim.x) {
			if (cost[i] != level)
				continue;
			for (int e = i * deg; e < (i + 1) * deg; e++) {
				unsigned d = edges[e];
				if (cost[d] == -1) {
					cost[d] = level + 1;
					grew = 1;
				}
			}
		}
		__syncthreads();
		if (!grew)
			break;
		__syncthreads();
	}
}
