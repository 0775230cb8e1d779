// warp: shuffles, votes, ballots and match over full warps.
extern "C" __global__ void warp(const int *in, int *out)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
	int v = in[t], s = v;
	for (int off = 16; off > 0; off >>= 1)
		s += __shfl_down_sync(0xffffffffu, s, off);
	int up = __shfl_up_sync(0xffffffffu, v, 1);
	int x = __shfl_xor_sync(0xffffffffu, v, 3);
	int b = __shfl_sync(0xffffffffu, v, (lane * 7) & 31);
	unsigned ballot = __ballot_sync(0xffffffffu, v & 1);
	int any = __any_sync(0xffffffffu, v > 90), all = __all_sync(0xffffffffu, v >= 0);
	unsigned m = __match_any_sync(0xffffffffu, v & 3);
	out[4 * t + 0] = __shfl_sync(0xffffffffu, s, 0);
	out[4 * t + 1] = up + x + b;
	out[4 * t + 2] = (int)ballot ^ (any << 1) ^ all;
	out[4 * t + 3] = (int)m;
}
