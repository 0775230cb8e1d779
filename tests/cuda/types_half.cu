// types_half: the rarer 16-bit float operations through cuda_fp16.h and cuda_bf16.h: half2
// and bfloat162 min/max, comparisons with bool and mask results, fma with relu, bfloat16
// conversions from float.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

static __device__ unsigned bits(__half2 v) { return *reinterpret_cast<unsigned *>(&v); }
static __device__ unsigned bits(__nv_bfloat162 v) { return *reinterpret_cast<unsigned *>(&v); }

extern "C" __global__ void types_half(const float *in, unsigned *out)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	float x = in[t], y = in[t ^ 1] - 4.0f;
	__half2 h = __floats2half2_rn(x, y), g = __floats2half2_rn(y, x * 0.5f);
	__nv_bfloat162 b = __floats2bfloat162_rn(x, y), c = __floats2bfloat162_rn(y * 3.0f, x);
	__nv_bfloat162 n = __hmax2(b, c);
	unsigned *o = out + 8 * t;

	o[0] = bits(__hmin2(h, g));
	o[1] = bits(n);
#if __CUDA_ARCH__ >= 800
	o[2] = bits(__hfma2(b, c, n));
	o[3] = bits(__hfma2_relu(b, c, __hneg2(n)));
#else
	o[2] = bits(__hadd2(__hmul2(b, c), n));
	o[3] = bits(__hmax2(__hsub2(__hmul2(b, c), n), __floats2bfloat162_rn(0.0f, 0.0f)));
#endif
	o[4] = __half_as_ushort(__hfma_relu(__low2half(h), __high2half(g), __low2half(g)));
	o[5] = (__hbgt2(h, g) ? 1u : 0u) | (__hblt2(b, c) ? 2u : 0u) | (__hgt(__high2half(h), __low2half(g)) ? 4u : 0u);
	o[6] = __hgt2_mask(h, g) ^ __hle2_mask(b, c);
	o[7] = __bfloat16_as_ushort(__float2bfloat16(x * y)) | (unsigned)__bfloat16_as_ushort(__hmul(__low2bfloat16(b), __high2bfloat16(c))) << 16;
}
