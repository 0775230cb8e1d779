/* kmeans.c - C reference of tests/workloads/kmeans.cu: integer k-means, K 5, DIM 4. */
/* squared distance of point p to centroid c */
static int kmeans_d2(const int32_t *p, const int32_t *c, int dim)
{
	int d = 0;

	for (int j = 0; j < dim; j++)
		d += (p[j] - c[j]) * (p[j] - c[j]);
	return d;
}

static void ref_kmeans(RefArgs *a)
{
	enum { K = 5, DIM = 4 };
	const int32_t *pts = a->p[0];
	int32_t *member = a->p[1], *cent = a->p[2];
	int n = (int32_t)a->v[3], iters = (int32_t)a->v[4];
	int32_t c[K * DIM];

	for (int t = 0; t < K * DIM; t++)
		c[t] = pts[t];
	for (int it = 0; it < iters; it++) {
		int32_t sum[K * DIM] = {0}, cnt[K] = {0};
		for (int i = 0; i < n; i++) {
			int best = 0;
			for (int k = 1; k < K; k++)      /* the lowest index wins a tie */
				if (kmeans_d2(&pts[i * DIM], &c[k * DIM], DIM) < kmeans_d2(&pts[i * DIM], &c[best * DIM], DIM))
					best = k;
			member[i] = best;
			cnt[best]++;
			for (int j = 0; j < DIM; j++)
				sum[best * DIM + j] += pts[i * DIM + j];
		}
		for (int k = 0; k < K; k++)
			if (cnt[k] > 0)
				for (int j = 0; j < DIM; j++)
					c[k * DIM + j] = sum[k * DIM + j] / cnt[k];
	}
	for (int t = 0; t < K * DIM; t++)
		cent[t] = c[t];
}
