// spmv.cu - a sparse matrix-vector product in the spirit of Parboil's spmv, in CSR with
// integer entries (exact): row i holds (i % 7) + 1 nonzeros, so its first one is at
// 28 * (i / 7) + r * (r + 1) / 2 with r = i % 7; col[] and val[] give the column and value of
// each nonzero. One thread per row (rows differ in length: the warps diverge on the loop),
// y = A x.
extern "C" __global__ void spmv(const unsigned *col, const int *val, const int *x, int *y, int rows)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= rows)
		return;
	int r = i % 7, start = 28 * (i / 7) + r * (r + 1) / 2, sum = 0;
	for (int e = start; e < start + r + 1; e++)
		sum += val[e] * x[col[e]];
	y[i] = sum;
}
