// pipeline: cuda_pipeline.h's asynchronous copies into shared memory (sm_80: cp.async of 16, 8
// and 4 bytes with zero fill, commit_group, wait_group; sm_75: the synchronous fallback), two
// stages waited for separately, each read back by another thread after a barrier.
#include <cuda_pipeline.h>

extern "C" __global__ void pipeline(const float *in, float *out)
{
	__shared__ float4 a[64];
	__shared__ float2 b[64];
	__shared__ float c[64];
	int t = threadIdx.x, base = blockIdx.x * 64;
	const float4 *in4 = (const float4 *)in;
	const float2 *in2 = (const float2 *)in;

	__pipeline_memcpy_async(&a[t], &in4[base + t], sizeof(float4));
	if (t % 3 == 0)
		__pipeline_memcpy_async(&b[t], &in2[base + t], sizeof(float2), 4);
	else
		__pipeline_memcpy_async(&b[t], &in2[base + t], sizeof(float2));
	__pipeline_commit();
	__pipeline_memcpy_async(&c[t], &in[base + t], sizeof(float), t & 1 ? 4 : 0);
	__pipeline_commit();
	__pipeline_wait_prior(1);
	__syncthreads();
	float4 x = a[63 - t];
	float2 y = b[t ^ 1];
	out[2 * (base + t)] = x.x + 2.0f * x.w + y.x - y.y;
	__pipeline_wait_prior(0);
	__syncthreads();
	out[2 * (base + t) + 1] = c[63 - t] + x.z;
}
