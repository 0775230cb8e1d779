// mathlib: CUDA's libdevice paths of sinf/cosf/expf/logf/powf/erff/tanhf on float and
// sin/exp/log1p on double. Arguments up to 3e5 in magnitude take sinf's and cosf's
// Payne-Hanek range reduction (mad.wide.u32 results stored through st.local.u32 from
// .b64 registers: wider operands than the instruction type, PTX ISA 9.4.1). No C reference:
// libm does not round like libdevice, so run-diff compares the SM model with the oracle only.
extern "C" __global__ void mathlib(const float *x, const double *y, float *of, double *od)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	float a = x[t], b = x[t ^ 1] * 1e-5f;
	double c = y[t];

	of[8 * t + 0] = sinf(a);
	of[8 * t + 1] = cosf(a);
	of[8 * t + 2] = expf(b);
	of[8 * t + 3] = logf(fabsf(a) + 1e-3f);
	of[8 * t + 4] = powf(fabsf(b), 0.37f + b);
	of[8 * t + 5] = erff(b);
	of[8 * t + 6] = tanhf(b);
	of[8 * t + 7] = sinf(b) * cosf(a * 1e-3f);
	od[3 * t + 0] = sin(c);
	od[3 * t + 1] = exp(c * 1e-4);
	od[3 * t + 2] = log1p(fabs(c) * 1e-3);
}
