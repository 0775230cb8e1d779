// rdc_shape.cu - the other half of rdc_vec.cu (tests/run-link.sh)
__device__ float gain = 1.5f;
extern __device__ int hits;
__device__ float shape(float x, int i)
{
	if (i & 1)
		return x * x;
	float s = 0.f;
	for (int k = 0; k < (i & 7); k++)
		s += x + k;
	return s;
}
