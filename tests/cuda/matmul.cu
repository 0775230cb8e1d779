// matmul: C = A * B for n x n floats with 16x16 shared-memory tiles (n a multiple of 16).
#define TS 16
extern "C" __global__ void matmul(const float *A, const float *B, float *C, int n)
{
	__shared__ float a[TS][TS], b[TS][TS];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
	float acc = 0.0f;
	for (int t = 0; t < n; t += TS) {
		a[ty][tx] = A[row * n + t + tx];
		b[ty][tx] = B[(t + ty) * n + col];
		__syncthreads();
		for (int k = 0; k < TS; k++)
			acc = fmaf(a[ty][k], b[k][tx], acc);
		__syncthreads();
	}
	C[row * n + col] = acc;
}
