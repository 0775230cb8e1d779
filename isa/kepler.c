/* kepler.c - code addresses of a kernel. warpc puts instruction i at 8*i; a real sm_3x
 * listing (Kernel.layout ISA_LAYOUT_SM35) leaves every eighth 8-byte slot (0x0, 0x40, ...)
 * to the scheduling-control word the hardware reads with the next seven instructions, so
 * its instructions skip those addresses and a branch or call to one of them (ptxas's jump
 * tables and function addresses sometimes name one) runs the instruction after it. The
 * listing parser, the checker, the simulator's decoder and the reports find instructions
 * by address through isa_kernel_index. Also the code relocations of such listings.
 */
#include "isa/isa.h"

int isa_is_ctl_slot(const Kernel *k, uint32_t addr)
{
	return k->layout == ISA_LAYOUT_SM35 && addr % 0x40 == 0;
}

int isa_kernel_index(const Kernel *k, uint32_t addr)
{
	int lo = 0, hi = k->nins - 1;

	if (addr % 8)
		return -1;
	if (addr / 8 < (uint32_t)k->nins && k->ins[addr / 8].addr == addr)
		return (int)(addr / 8);
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (k->ins[mid].addr == addr)
			return mid;
		if (k->ins[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	/* a control slot: the next instruction, when it directly follows */
	if (addr % 0x40 == 0 && lo < k->nins && k->ins[lo].addr == addr + 8)
		return lo;
	return -1;
}

uint32_t isa_kernel_end(const Kernel *k)
{
	return k->nins ? k->ins[k->nins - 1].addr + 8 : 0;
}

uint32_t isa_kernel_next_addr(const Kernel *k)
{
	uint32_t a = isa_kernel_end(k);

	return isa_is_ctl_slot(k, a) ? a + 8 : a;
}

Ins *isa_kernel_add_at(Kernel *k, const Ins *ins, uint32_t addr)
{
	Ins *in = isa_kernel_add(k, ins);

	in->addr = addr;
	return in;
}

void isa_kernel_add_abs32(Kernel *k, uint32_t addr, int hi, int var)
{
	k->abs32 = isa_xrealloc(k->abs32, (size_t)(k->nabs32 + 1) * sizeof *k->abs32);
	k->abs32[k->nabs32++] = (CodeReloc){addr, (uint8_t)!!hi, var};
}
