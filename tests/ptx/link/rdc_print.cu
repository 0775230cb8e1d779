// rdc_print.cu - with rdc_step.cu, a program of two CUDA files (tests/run-link.sh): an
// extern __constant__ array, a call across files, printf in both, a static helper in both.
// nvcc 11.8 -rdc=true -ptx -arch=sm_35 rdc_print.cu rdc_step.cu
#include <cstdio>
extern __constant__ int coef[4];
extern __device__ int lib_step(int x);
static __device__ int helper(int x) { return x + 1; }
__global__ void pk(int *out)
{
	int t = threadIdx.x;
	int v = lib_step(helper(t)) * coef[t & 3];
	if (t == 3)
		printf("p1 t=%d v=%d\n", t, v);
	out[t] = v;
}
