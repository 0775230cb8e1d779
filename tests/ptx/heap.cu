// heap.cu: in-kernel malloc and free (issue 15 part 3), compiled with nvcc 11.8 for sm_35
// (tests/ptx/heap.ptx). Addresses malloc returns are unspecified (each engine calls it in
// its own order), so only data read back through them is stored.
struct Node {
	int v;
	Node *next;
};

// heap_list: each thread builds a list of t % 5 + 1 nodes (odd threads only a second
// array of t % 7 + 1 ints, in a divergent branch), sums them through the pointers, frees
// them in another order than it allocated; free(NULL) does nothing
extern "C" __global__ void heap_list(int *out)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	Node *head = 0;
	int k = t % 5 + 1, s = 0;

	for (int i = 0; i < k; i++) {
		Node *p = (Node *)malloc(sizeof(Node));
		if (!p) {
			out[t] = -1;
			return;
		}
		p->v = t * 10 + i;
		p->next = head;
		head = p;
	}
	if (t & 1) {
		int m = t % 7 + 1;
		int *a = (int *)malloc(m * sizeof(int));
		if (!a) {
			out[t] = -2;
			return;
		}
		for (int i = 0; i < m; i++)
			a[i] = i * t;
		for (int i = 0; i < m; i++)
			s += a[m - 1 - i] * (i + 1);
		free(a);
	}
	while (head) {
		Node *p = head;
		s += p->v;
		head = p->next;
		free(p);
	}
	free(0);
	out[t] = s;
}

// heap_exhaust: every thread asks for per blocks of size bytes and keeps them; how many
// malloc granted in all (and that each granted block is 16-byte aligned and writable) does
// not depend on the order: with a heap of H bytes, min(threads * per, H / round16(size))
extern "C" __global__ void heap_exhaust(int *out, int per, int size)
{
	int got = 0, aligned = 0;

	for (int i = 0; i < per; i++) {
		char *p = (char *)malloc(size);
		if (p) {
			got++;
			aligned += ((unsigned long long)p & 15) == 0;
			p[size - 1] = 1;
		}
	}
	atomicAdd(&out[0], got);
	atomicAdd(&out[1], aligned);
}

// heap_badfree: thread 3 frees an address inside its block, which malloc did not return
extern "C" __global__ void heap_badfree(int *out)
{
	int t = threadIdx.x;
	int *p = (int *)malloc(64);

	p[0] = t;
	out[t] = p[0];
	free(t == 3 ? p + 4 : p);
}

// heap_twice: thread 5 frees its block twice
extern "C" __global__ void heap_twice(int *out)
{
	int t = threadIdx.x;
	int *p = (int *)malloc(32);

	p[1] = t;
	out[t] = p[1];
	free(p);
	if (t == 5)
		free(p);
}

// heap_aligned: __nv_aligned_device_malloc (nvcc calls __cuda_syscall_aligned_malloc) at the
// alignment asked for, NULL for an alignment that is not a power of two; free(NULL) when keep
extern "C" __global__ void heap_aligned(int *out, int align, int bad, int keep)
{
	int t = threadIdx.x;
	char *p = (char *)__nv_aligned_device_malloc(24 + t, align);
	char *q = (char *)__nv_aligned_device_malloc(8, bad);
	int ok = p && ((unsigned long long)p & (align - 1)) == 0 && !q;

	if (p)
		p[23 + t] = (char)t;
	out[t] = ok ? p[23 + t] : -1;
	free(keep ? 0 : p);
}
