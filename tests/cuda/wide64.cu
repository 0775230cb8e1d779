// wide64: 64-bit integer arithmetic and double precision.
extern "C" __global__ void wide64(const long long *a, const double *d, long long *oi, double *od)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	long long x = a[t], y = a[t ^ 1] | 1;
	unsigned long long ux = (unsigned long long)x;
	oi[3 * t + 0] = x * y + (x >> 7);
	oi[3 * t + 1] = x / y + x % y;
	oi[3 * t + 2] = (long long)__umul64hi(ux, 0x9e3779b97f4a7c15ull) ^ (long long)__popcll(ux);
	double p = d[t], q = d[t ^ 1] + 1.0;
	od[2 * t + 0] = fma(p, q, -1.5) / q;
	od[2 * t + 1] = sqrt(p * p + q) + (double)(x & 0xffff);
}
