// memcpy_async: cooperative_groups::memcpy_async of a block's tile (a strided loop of
// cp.async per thread, then cp.async.wait_group 0 and a barrier) and cuda::memcpy_async
// through a cuda::pipeline (producer_commit / consumer_wait); sm_75 builds the synchronous
// fallback. Each thread reads its own copy and another thread's element of the tile.
#include <cuda/pipeline>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

extern "C" __global__ void memcpy_async(const float *in, float *out)
{
	__shared__ float s[256];
	__shared__ float s2[256];
	auto block = cg::this_thread_block();
	auto pipe = cuda::make_pipeline();
	int t = threadIdx.x, base = blockIdx.x * 256;

	cg::memcpy_async(block, s, in + base, sizeof(float) * 256);
	cg::wait(block);
	pipe.producer_acquire();
	cuda::memcpy_async(&s2[t], &in[base + (t * 7) % 256], sizeof(float), pipe);
	pipe.producer_commit();
	pipe.consumer_wait();
	out[base + t] = s[255 - t] * 2.0f + s2[t];
	pipe.consumer_release();
}
