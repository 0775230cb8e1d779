// Dynamic parallelism (tests/ptx/cdp_args.ptx, nvcc 11.8: -rdc=true -arch=sm_35 -ptx): each
// odd thread of the parent (a divergent branch) launches a child grid of 2 blocks of 4
// threads with its own arguments; every child writes its own slice of out, and the parent
// records what cudaGetLastError gave it (0, cudaSuccess).
extern "C" __global__ void cdp_child(int *out, int base, int k)
{
	int i = base + blockIdx.x * blockDim.x + threadIdx.x;
	out[i] = k * 1000 + blockIdx.x * 10 + threadIdx.x;
}

extern "C" __global__ void cdp_args(int *out)
{
	int t = threadIdx.x + blockIdx.x * blockDim.x;
	if (t % 2) {
		cdp_child<<<2, 4>>>(out, t * 8, t + 1);
		out[256 + t] = (int)cudaGetLastError() + 7;
	} else {
		out[256 + t] = -t;
	}
}
