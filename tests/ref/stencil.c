/* stencil.c - C reference of tests/cuda/stencil.cu: 7-point stencil, weights 1/(1+|k|),
 * zero outside [0, n), accumulated with fmaf from k = -3 up (nvcc contracts to fma.rn). */
#include <math.h>
static void ref_stencil(RefArgs *a)
{
	const float *in = a->p[0];
	float *out = a->p[1];
	int n = (int32_t)a->v[2];

	for (int g = 0; g < n; g++) {
		float v = 0.0f;
		for (int k = -3; k <= 3; k++) {
			float s = g + k >= 0 && g + k < n ? in[g + k] : 0.0f;
			v = fmaf(s, 1.0f / (float)(1 + (k < 0 ? -k : k)), v);
		}
		out[g] = v;
	}
}
