// switch: a dense switch that nvcc lowers to a brx.idx jump table.
extern "C" __global__ void dense_switch(const int *in, int *out)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	int x = in[t], r;
	switch (x & 15) {
	case 0: r = x + 17; break;
	case 1: r = x * 3; break;
	case 2: r = x ^ 0x5a; break;
	case 3: r = x - 99; break;
	case 4: r = x << 3; break;
	case 5: r = x >> 1; break;
	case 6: r = x * x; break;
	case 7: r = ~x; break;
	case 8: r = x | 0x100; break;
	case 9: r = x & 0xf0; break;
	case 10: r = x + t; break;
	case 11: r = x * t; break;
	case 12: r = t - x; break;
	case 13: r = 77; break;
	case 14: r = x % 7; break;
	default: r = -1; break;
	}
	out[t] = r;
}
