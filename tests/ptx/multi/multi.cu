// multi.cu: kernels a host program launches one after another on the same device memory
// (tests/run-multi.sh; docs/warpsim.md, "Several launches"). Compiled with CUDA 13's nvcc:
//   nvcc -ptx -arch=sm_75 multi.cu -o multi.ptx
// Every result is an integer a formula gives, so the test knows it without a reference.

// ---- a two-pass reduction: pass 1 sums each block's slice of in[] into part[block],
// pass 2 (one block) sums part[] into out[0]; with in[i] = i, out[0] = n (n - 1) / 2
// the sum of the block's values v (a tree in shared memory; blockDim.x a power of two)
__device__ unsigned block_sum(unsigned v)
{
	__shared__ unsigned s[256];
	unsigned t = threadIdx.x;

	s[t] = v;
	__syncthreads();
	for (unsigned h = blockDim.x / 2; h > 0; h /= 2) {
		if (t < h)
			s[t] += s[t + h];
		__syncthreads();
	}
	return s[0];
}

extern "C" __global__ void reduce_pass1(const unsigned *in, unsigned *part, unsigned n)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x, sum = block_sum(i < n ? in[i] : 0);

	if (threadIdx.x == 0)
		part[blockIdx.x] = sum;
}

extern "C" __global__ void reduce_pass2(const unsigned *part, unsigned *out, unsigned m)
{
	unsigned acc = 0, sum;

	for (unsigned i = threadIdx.x; i < m; i += blockDim.x)   // (divergent: m need not divide)
		acc += part[i];
	sum = block_sum(acc);
	if (threadIdx.x == 0)
		out[0] = sum;
}

// ---- a producer and a consumer over a __device__ variable: produce adds base + t for
// every thread t of its grid; consume reads the sum a later launch sees
__device__ unsigned total;

extern "C" __global__ void produce(unsigned base)
{
	atomicAdd(&total, base + blockIdx.x * blockDim.x + threadIdx.x);
}

extern "C" __global__ void consume(unsigned *out)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
	out[t] = total * (t + 1) + (t & 1 ? 7 : 0);
}

// ---- a device-heap object made with new in one launch, filled and read in the next ones and
// deleted in the last (CUDA's device heap lives as long as the program: the Guide's
// "Dynamic Global Memory Allocation and Operations")
struct Table {
	unsigned n;
	unsigned *v;
};
__device__ Table *table;

extern "C" __global__ void table_new(unsigned n)
{
	if (blockIdx.x == 0 && threadIdx.x == 0) {
		table = new Table;
		table->n = n;
		table->v = new unsigned[n];
	}
}

extern "C" __global__ void table_fill(unsigned mul)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t < table->n)
		table->v[t] = t * mul + (t % 3 == 0 ? 100 : 0);
}

extern "C" __global__ void table_read(unsigned *out)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t < table->n)
		out[t] = table->v[table->n - 1 - t] + table->n;
}

extern "C" __global__ void table_delete(unsigned *out)
{
	if (blockIdx.x == 0 && threadIdx.x == 0) {
		out[0] = table->n;
		delete[] table->v;
		delete table;
		table = 0;
	}
}

// ---- a __constant__ variable set by the host before one launch keeps its value for the
// launches after it, until the host sets it again (cudaMemcpyToSymbol: --const)
__constant__ unsigned scale = 2;

extern "C" __global__ void scaled(unsigned *out)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
	out[t] = scale * t + 1;
}

// ---- objects with virtual functions made in one launch and called in the next: the vtable
// is a module variable of function addresses, which every kernel reads (ops_apply's calls
// split a warp between the two overriders)
struct Op {
	__device__ virtual unsigned apply(unsigned x) const = 0;
	__device__ virtual ~Op() {}
};
struct Add : Op {
	unsigned k;
	__device__ Add(unsigned k_) : k(k_) {}
	__device__ unsigned apply(unsigned x) const { return x + k; }
};
struct Mul : Op {
	unsigned k;
	__device__ Mul(unsigned k_) : k(k_) {}
	__device__ unsigned apply(unsigned x) const { return x * k; }
};
__device__ Op *ops[2];

extern "C" __global__ void ops_new(unsigned a, unsigned m)
{
	if (threadIdx.x == 0) {
		ops[0] = new Add(a);
		ops[1] = new Mul(m);
	}
}

extern "C" __global__ void ops_apply(unsigned *out)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
	out[t] = ops[t & 1]->apply(t);
}

extern "C" __global__ void ops_delete()
{
	if (threadIdx.x == 0) {
		delete ops[0];
		delete ops[1];
		ops[0] = ops[1] = 0;
	}
}

// ---- a texture and a surface bound anew for each launch (--tex, --surf): each launch reads
// and writes its own binding, not an earlier launch's of the same name
extern "C" __global__ void tex_copy(cudaTextureObject_t t, unsigned *out)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	out[i] = (unsigned)tex1Dfetch<int>(t, i) * 3u + i;
}

extern "C" __global__ void surf_fill(cudaSurfaceObject_t s, unsigned *mem, unsigned v)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	surf1Dwrite(v + i, s, i * 4);
}

// ---- a launch that stops at a trap after its stores: the buffers of every launch run so far
// are still saved, as the host still reads them
extern "C" __global__ void stop_here(unsigned *out)
{
	out[threadIdx.x] = 9;
	__syncthreads();
	if (threadIdx.x == 0)
		__trap();
}
