/* nw.c - C reference of tests/workloads/nw.cu: the Needleman-Wunsch score matrix. */
static void ref_nw(RefArgs *a)
{
	const int32_t *sa = a->p[0], *sb = a->p[1];
	int32_t *score = a->p[2];
	int n = (int32_t)a->v[3], pen = (int32_t)a->v[4], w = n + 1;

	for (int i = 0; i <= n; i++)
		score[i] = score[i * w] = -pen * i;
	for (int i = 1; i <= n; i++)
		for (int j = 1; j <= n; j++) {
			int m = score[(i - 1) * w + j - 1] + (sa[i - 1] == sb[j - 1] ? 5 : -3);
			int up = score[(i - 1) * w + j] - pen, left = score[i * w + j - 1] - pen;
			int best = m > up ? m : up;
			score[i * w + j] = best > left ? best : left;
		}
}
