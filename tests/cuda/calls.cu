// calls: __noinline__ device functions, recursion and function pointers.
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ int twice(int x) { return 2 * x; }
__device__ __noinline__ int square(int x) { return x * x; }
__device__ __noinline__ int negate(int x) { return -x; }
__device__ __noinline__ void store2(int *p, int a, int b) { p[0] = a; p[1] = b; }
typedef int (*unop)(int);
__device__ unop ops[3] = { twice, square, negate };

extern "C" __global__ void calls(int *out)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	unop f = ops[t % 3];
	int r = f(t) + fib(t & 7);
	store2(out + 2 * t, r, t);
}
