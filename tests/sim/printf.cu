// printf.cu - device printf (issue 15 part 2): every conversion CUDA's printf takes, with
// flags, widths, precisions and the lengths hh h l ll, from threads that diverge (odd threads
// print a second line, thread 5 a third in a loop). nvcc -ptx -arch=sm_75 printf.cu (from
// tests/sim) makes printf.ptx; tests/run-printf.sh runs it on both engines.
#include <cstdio>

extern "C" __global__ void show(const int *in, int *out)
{
	int t = threadIdx.x + blockIdx.x * blockDim.x;
	int v = in[t];
	long long big = (long long)v * 1000000007LL;
	short s = (short)(v * 300);
	unsigned char uc = (unsigned char)(v * 7);

	out[t] = printf("t=%d i=%i u=%u x=%x X=%X o=%o c=%c|%-6d|%+5i|%05u|%#x|%#o\n", t, -v, v,
	                v * 4099, v * 4099, v, 'A' + t % 26, v, v, v, v, v);
	if (t & 1)
		printf("t=%d f=%f %.2f %10.3f e=%e %.3E g=%g %G s=%s %.3s %8s ld=%ld lld=%lld hd=%hd hhu=%hhu\n",
		       t, v / 8.0, v * 1.5, -v / 3.0, v * 12345.678, v / 1e5, v / 7.0, v * 1e10, "hello",
		       "abcdef", "pad", big, -big, s, uc);
	if (t == 5)
		for (int k = 0; k < 3; k++)
			printf("loop %d: %p %%\n", k, (void *)(in + k));
}
