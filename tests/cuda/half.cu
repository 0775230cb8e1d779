// half: f16 arithmetic and conversions through cuda_fp16.h.
#include <cuda_fp16.h>
extern "C" __global__ void half_math(const float *in, float *out)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	__half a = __float2half(in[t]), b = __float2half(in[t ^ 1] + 0.5f);
	__half c = __hfma(a, b, __hadd(a, b));
	__half2 v = __halves2half2(a, b);
	v = __hmul2(v, v);
	out[2 * t] = __half2float(c);
	out[2 * t + 1] = __low2float(v) + __high2float(v) + (__hlt(a, b) ? 1.0f : 0.0f);
}
