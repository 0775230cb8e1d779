/* matmul.c - C reference of tests/cuda/matmul.cu: C = A * B, each element accumulated with
 * fmaf in k order, as the kernel does. */
#include <math.h>
static void ref_matmul(RefArgs *a)
{
	const float *A = a->p[0], *B = a->p[1];
	float *C = a->p[2];
	int n = (int32_t)a->v[3];

	for (int r = 0; r < n; r++)
		for (int c = 0; c < n; c++) {
			float acc = 0.0f;
			for (int k = 0; k < n; k++)
				acc = fmaf(A[r * n + k], B[k * n + c], acc);
			C[r * n + c] = acc;
		}
}
