// simd: CUDA's SIMD-within-a-word intrinsics (__vadd2 ... __vsads4). nvcc (CUDA 13) writes
// most of them with plain integer PTX; __vabsdiffu4/__vabsdiffs4/__vsads4 and __vsadu2 become
// the SIMD video instructions vabsdiff4 and vabsdiff2.add (inline PTX of its headers).
// test_backend_video recomputes the outputs from the CUDA Math API's definitions.
extern "C" __global__ void simd(const unsigned *a, const unsigned *b, unsigned *o)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned x = a[t], y = b[t];
	unsigned *r = o + 32 * t;

	r[0] = __vadd2(x, y);      r[1] = __vadd4(x, y);      r[2] = __vsub2(x, y);
	r[3] = __vsub4(x, y);      r[4] = __vabsdiffu2(x, y); r[5] = __vabsdiffu4(x, y);
	r[6] = __vabsdiffs2(x, y); r[7] = __vabsdiffs4(x, y); r[8] = __vavgu2(x, y);
	r[9] = __vavgu4(x, y);     r[10] = __vavgs2(x, y);    r[11] = __vavgs4(x, y);
	r[12] = __vminu2(x, y);    r[13] = __vminu4(x, y);    r[14] = __vmins2(x, y);
	r[15] = __vmins4(x, y);    r[16] = __vmaxu2(x, y);    r[17] = __vmaxu4(x, y);
	r[18] = __vmaxs2(x, y);    r[19] = __vmaxs4(x, y);    r[20] = __vcmpeq2(x, y);
	r[21] = __vcmpgeu4(x, y);  r[22] = __vcmplts2(x, y);  r[23] = __vcmpne4(x, y);
	r[24] = __vsetgtu2(x, y);  r[25] = __vsetleu4(x, y);  r[26] = __vsetles2(x, y);
	r[27] = __vseteq4(x, y);   r[28] = __vaddss2(x, y);   r[29] = __vaddus4(x, y);
	r[30] = __vsubss4(x, y);   r[31] = __vsads4(x, y) + __vsadu2(x, y);
}
