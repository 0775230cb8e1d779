// coop_cdp: a child grid launched from a cooperative grid is an ordinary launch (CUDA has no
// device-side cooperative launch): the parent reads the grid workspace of its cooperative
// launch (%envreg1:%envreg2) and stores whether it has one; its thread 0 launches a child
// that reads the same registers, which on CUDA give no workspace, so that read stops the run
// with a located error on both engines. With child = 0 no child is launched.
extern "C" __global__ void coop_cdp(unsigned *out, int child)
{
	unsigned hi, lo;
	asm volatile("mov.u32 %0, %%envreg1;" : "=r"(hi));
	asm volatile("mov.u32 %0, %%envreg2;" : "=r"(lo));
	out[blockIdx.x * blockDim.x + threadIdx.x] = (hi | lo) != 0;
	if (child && blockIdx.x == 0 && threadIdx.x == 0)
		coop_cdp<<<1, 1>>>(out + 64, 0);
}
