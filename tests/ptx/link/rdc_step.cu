// rdc_step.cu - the other half of rdc_print.cu (tests/run-link.sh)
#include <cstdio>
__constant__ int coef[4] = {1, 2, 3, 4};
static __device__ int helper(int x) { return x * 10; }
__device__ int lib_step(int x)
{
	if (x == 5)
		printf("p2 x=%d\n", x);
	return helper(x);
}
