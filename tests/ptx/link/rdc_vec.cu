// rdc_vec.cu - with rdc_shape.cu, a program of two CUDA files (tests/run-link.sh):
// nvcc 11.8 -rdc=true -ptx -arch=sm_35 rdc_vec.cu rdc_shape.cu writes rdc_vec.ptx, rdc_shape.ptx
extern __device__ float gain;
extern __device__ float shape(float x, int i);
__device__ int hits;
__global__ void kern(float *out, const float *in, int n)
{
	extern __shared__ float tile[];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	tile[threadIdx.x] = i < n ? in[i] : 0.f;
	__syncthreads();
	if (i < n) {
		float v = shape(tile[threadIdx.x ^ 1], i) * gain;
		if (v > 10.f)
			atomicAdd(&hits, 1);
		out[i] = v;
	}
}
