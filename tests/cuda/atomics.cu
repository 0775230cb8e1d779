// atomics: integer atomics on global memory (results independent of order), 32 and 64 bit.
extern "C" __global__ void atomics(int *a, unsigned long long *w, const int *in)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x, v = in[t];
	atomicAdd(&a[0], v);
	atomicSub(&a[1], v);
	atomicMin(&a[2], v);
	atomicMax(&a[3], v);
	atomicAnd(&a[4], ~(1 << (t & 31)));
	atomicOr(&a[5], 1 << (t & 31));
	atomicXor(&a[6], v);
	atomicInc((unsigned *)&a[7], 1000000u);
	atomicCAS(&a[8 + (t & 7)], 0, 1);
	atomicAdd(&w[0], (unsigned long long)v << 20);
	atomicMax(&w[1], (unsigned long long)v * 0x100000001ull);
}
