// bitonic: bitonic sort of 256 keys per block in shared memory (divergent compare-exchange).
extern "C" __global__ void bitonic(int *keys)
{
	__shared__ int s[256];
	int t = threadIdx.x, base = blockIdx.x * 256;
	s[t] = keys[base + t];
	__syncthreads();
	for (int k = 2; k <= 256; k <<= 1) {
		for (int j = k >> 1; j > 0; j >>= 1) {
			int p = t ^ j;
			if (p > t) {
				int a = s[t], b = s[p];
				bool up = (t & k) == 0;
				if ((a > b) == up) {
					s[t] = b;
					s[p] = a;
				}
			}
			__syncthreads();
		}
	}
	keys[base + t] = s[t];
}
