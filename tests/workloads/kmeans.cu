// kmeans.cu - k-means clustering in the spirit of Rodinia's kmeans, on integer points so the
// result is exact: N points of DIM coordinates (0..1023), K clusters seeded with the first K
// points, ITERS rounds in one CTA. Each round every thread assigns its points to the nearest
// centroid (squared distance, the lowest index on a tie), the sums and counts gather with
// shared-memory atomics, and thread k < K moves centroid k to the floor of the mean (an empty
// cluster keeps its centroid). Outputs: member[N] and cent[K * DIM].
#define K 5
#define DIM 4

extern "C" __global__ void kmeans(const int *pts, int *member, int *cent, int n, int iters)
{
	__shared__ int c[K * DIM], sum[K * DIM], cnt[K];
	int t = threadIdx.x;

	if (t < K * DIM)
		c[t] = pts[t];
	__syncthreads();
	for (int it = 0; it < iters; it++) {
		if (t < K * DIM)
			sum[t] = 0;
		if (t < K)
			cnt[t] = 0;
		__syncthreads();
		for (int i = t; i < n; i += blockDim.x) {
			int best = 0, bestd = 0x7fffffff;
			for (int k = 0; k < K; k++) {
				int d = 0;
				for (int j = 0; j < DIM; j++) {
					int x = pts[i * DIM + j] - c[k * DIM + j];
					d += x * x;
				}
				if (d < bestd) {
					bestd = d;
					best = k;
				}
			}
			member[i] = best;
			atomicAdd(&cnt[best], 1);
			for (int j = 0; j < DIM; j++)
				atomicAdd(&sum[best * DIM + j], pts[i * DIM + j]);
		}
		__syncthreads();
		if (t < K && cnt[t] > 0)
			for (int j = 0; j < DIM; j++)
				c[t * DIM + j] = sum[t * DIM + j] / cnt[t];
		__syncthreads();
	}
	if (t < K * DIM)
		cent[t] = c[t];
}
