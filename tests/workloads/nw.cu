// nw.cu - Needleman-Wunsch global alignment in the spirit of Rodinia's nw: two sequences of
// N symbols (0..3), score +5 for a match, -3 for a mismatch, gap penalty PEN. One CTA fills
// the (N+1) x (N+1) score matrix by anti-diagonals (a barrier between diagonals), each thread
// taking every blockDim.x-th cell of a diagonal; row 0 and column 0 hold -PEN * index.
extern "C" __global__ void nw(const int *sa, const int *sb, int *score, int n, int pen)
{
	int w = n + 1;

	for (int i = threadIdx.x; i <= n; i += blockDim.x) {
		score[i] = -pen * i;
		score[i * w] = -pen * i;
	}
	__syncthreads();
	for (int d = 2; d <= 2 * n; d++) {
		int lo = d - n > 1 ? d - n : 1, hi = d - 1 < n ? d - 1 : n;
		for (int i = lo + threadIdx.x; i <= hi; i += blockDim.x) {
			int j = d - i;
			int m = score[(i - 1) * w + j - 1] + (sa[i - 1] == sb[j - 1] ? 5 : -3);
			int up = score[(i - 1) * w + j] - pen, left = score[i * w + j - 1] - pen;
			int best = m > up ? m : up;
			score[i * w + j] = best > left ? best : left;
		}
		__syncthreads();
	}
}
