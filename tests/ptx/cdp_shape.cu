// Dynamic parallelism (tests/ptx/cdp_shape.ptx, nvcc 11.8: -rdc=true -arch=sm_35 -ptx): child
// grids of 2 x 2 blocks of 4 x 2 threads with 32 bytes of dynamic shared memory each (a
// block's threads exchange values through it across a barrier), launched from a __device__
// function that is not inlined (the device runtime's calls in a .func), two per launching
// thread with different arguments.
extern "C" __global__ void cdp_shape_child(int *out, int base, int k)
{
	extern __shared__ int s[];
	int t = threadIdx.y * blockDim.x + threadIdx.x;
	int b = blockIdx.y * gridDim.x + blockIdx.x;
	s[t] = k * 100 + b * 10 + t;
	__syncthreads();
	out[base + b * 8 + t] = s[7 - t];
}

static __device__ __noinline__ void spawn(int *out, int base, int k)
{
	cdp_shape_child<<<dim3(2, 2), dim3(4, 2), 8 * sizeof(int)>>>(out, base, k);
}

extern "C" __global__ void cdp_shape(int *out)
{
	int t = threadIdx.x;
	if (t < 3) {
		spawn(out, t * 64, t + 1);
		spawn(out, t * 64 + 32, t + 5);
	}
}
