// carry96: the inline-PTX 96-bit mod-p reduction (p = 2^64 - 2^32 + 1) carry chain.
extern "C" __global__ void carry96(unsigned *x, int n)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= n)
		return;
	unsigned *w = x + 3 * t;
	asm("{\n\t"
	    ".reg .s32 b;\n\t"
	    ".reg .pred p;\n\t"
	    "add.cc.u32 %1, %1, %2;\n\t"
	    "addc.s32 b, 0, 0;\n\t"
	    "sub.cc.u32 %0, %0, %2;\n\t"
	    "subc.cc.u32 %1, %1, 0;\n\t"
	    "subc.s32 b, b, 0;\n\t"
	    "setp.eq.s32 p, b, 1;\n\t"
	    "@p add.cc.u32 %0, %0, 0xffffffff;\n\t"
	    "@p addc.u32 %1, %1, 0;\n\t"
	    "}"
	    : "+r"(w[0]), "+r"(w[1])
	    : "r"(w[2]));
}
