/* isel_cdp.c - dynamic parallelism's device runtime calls, as nvcc emits them for sm_35
 * (docs/warpsim.md, "Dynamic parallelism"; device/cdp.c has the buffers and the order):
 *   cudaGetParameterBuffer(align, size)                 CDPBUF d, size, align
 *   cudaGetParameterBufferV2(func, grid, block, shmem)  CDPBUF d, 4096, 64; the launch header
 *                                                       stored below the buffer
 *   cudaLaunchDevice(func, buf, grid, block, shmem, s)  the header stored; CDPLAUNCH buf
 *   cudaLaunchDeviceV2(buf, s)                          CDPLAUNCH buf
 *   cudaGetLastError(), cudaPeekAtLastError()           0 (cudaSuccess)
 *   cudaStreamCreateWithFlags(ps, flags)                flags != 1: BPT.TRAP 0x3; *ps = a
 *                                                       handle; 0
 *   cudaStreamDestroy(s)                                0
 * with no CAL and no reconvergence point. A launch either succeeds or stops the run with a
 * located error, so the error a thread can read afterwards is always cudaSuccess, and so is
 * cudaLaunchDevice's result. The stream does not change the order (every child grid runs
 * after its parent's grid, one at a time), so it is not read. The dim3 arguments are the
 * .param aggregates of 12 bytes nvcc builds, read word by word from their frame places. */
#include <string.h>
#include "backend/be.h"

enum { GETBUF = PTX_DEVRT_GETBUF, GETBUF2 = PTX_DEVRT_GETBUF2, LAUNCH = PTX_DEVRT_LAUNCH,
       LAUNCH2 = PTX_DEVRT_LAUNCH2, LASTERR = PTX_DEVRT_LASTERR, STREAM = PTX_DEVRT_STREAM,
       STREAMDEL = PTX_DEVRT_STREAMDEL };

static void st_global(Fn *f, Blk *b, int buf, int64_t off, MOpd v, int wide)
{
	MIns *x = be_emit(f, b, OP_ST);

	x->nopd = 2;
	x->m.flags |= MF_E;
	x->m.dtype = wide ? TY_B64 : TY_NONE;
	x->o[0] = be_mem(buf, off);
	x->o[1] = v;
}

/* the launch header below buffer buf (pair temporary): the kernel (argument fa), the grid and
 * block dimensions (the 12-byte aggregates ga, ba) and the dynamic shared bytes (sa) */
static int header(Fn *f, Blk *b, const PIns *in, int buf, int fa, int ga, int ba, int sa)
{
	MOpd v;

	if (be_call_arg(f, b, in, fa, PT_B64, &v))
		return -1;
	st_global(f, b, buf, -(int64_t)ISA_CDP_HDR + ISA_CDP_H_FUNC, be_inreg(f, b, v, TC_R2), 1);
	for (int d = 0; d < 2; d++) {
		const POpd *e = &in->o[2].elems[d ? ba : ga];
		if (e->kind != POK_SYM || e->symkind != PSYM_LOCAL)
			return be_unsup(f, in, "dim3 argument of the launch"), -1;
		for (int k = 0; k < 3; k++) {
			MOpd m = be_call_arg_mem(f, in, d ? ba : ga);
			int t = be_newtmp(f, TC_R);
			MIns *x = be_emit(f, b, OP_LDL);
			m.imm += 4 * k;
			x->nopd = 2;
			x->o[0] = be_r(t);
			x->o[1] = m;
			st_global(f, b, buf, -(int64_t)ISA_CDP_HDR + (d ? ISA_CDP_H_BLOCK : ISA_CDP_H_GRID) + 4 * k, be_r(t), 0);
		}
	}
	if (be_call_arg(f, b, in, sa, PT_B32, &v))
		return -1;
	st_global(f, b, buf, -(int64_t)ISA_CDP_HDR + ISA_CDP_H_SHMEM, be_inreg(f, b, v, TC_R), 0);
	return 0;
}

/* the call's result: v (class cls) to its register or its .param */
static int result(Fn *f, Blk *b, const PIns *in, MOpd v, int cls)
{
	const POpd *r;
	MIns *x;

	if (in->o[0].nelems == 0)
		return 0;
	r = &in->o[0].elems[0];
	if (r->kind == POK_REG && f->tmp[f->regtmp[r->reg]].cls == cls) {
		be_mov(f, b, f->regtmp[r->reg], v, cls);
		return 0;
	}
	if (r->kind == POK_SYM && r->symkind == PSYM_LOCAL) {
		v = be_inreg(f, b, v, cls);   /* (before the store) */
		x = be_emit(f, b, OP_STL);
		x->nopd = 2;
		x->m.dtype = cls == TC_R2 ? TY_B64 : TY_NONE;
		x->o[0] = be_call_ret_mem(f, in, 0);
		x->o[1] = v;
		return 0;
	}
	return be_unsup(f, in, "result of the device runtime call"), -1;
}

/* cudaStreamCreateWithFlags(pstream, flags): flags other than cudaStreamNonBlocking (1)
 * stop the run (BPT.TRAP ISA_TRAP_STREAM: CUDA requires it of a stream created in a kernel);
 * *pstream = ISA_CDP_STREAM */
static int stream(Fn *f, Blk *b, const PIns *in)
{
	MOpd a, fl;
	MIns *x;
	int p = be_newtmp(f, TC_P);

	if (in->guard >= 0)
		return be_unsup(f, in, "guarded call of cudaStreamCreateWithFlags"), -1;
	if (be_call_arg(f, b, in, 0, PT_B64, &a) || be_call_arg(f, b, in, 1, PT_B32, &fl))
		return -1;
	a = be_inreg(f, b, a, TC_R2);
	be_setp_ins(f, b, OP_ISETP, CMP_NE, TY_U32, p, T_PT, be_inreg(f, b, fl, TC_R), be_imm(1),
	            be_p(T_PT), BOP_AND);
	x = be_emit(f, b, OP_BPT);
	x->nopd = 1;
	x->o[0] = be_imm(ISA_TRAP_STREAM);
	x->guard = p;
	st_global(f, b, a.t, 0, be_inreg(f, b, be_imm((int64_t)ISA_CDP_STREAM), TC_R2), 1);
	return 0;
}

/* (isel.c) 1 when the call is a direct one of a device runtime function above; then *rc is
 * 0, or -1 after an error */
int be_sel_cdp(Fn *f, Blk *b, const PIns *in, int *rc)
{
	const PFunc *g;
	int kind;
	MOpd a[2];
	MIns *x;

	if (in->o[1].kind != POK_SYM || in->o[1].symkind != PSYM_FUNC)
		return 0;
	g = &f->m->funcs[in->o[1].sym];
	if ((kind = ptx_devrt_kind(g, in)) == -1)
		return 0;
	*rc = -1;
	if (kind < 0) {
		be_errorf(f, in->loc, "unsupported: a call of %s with %d arguments and %d results, "
		          "unlike CUDA's declaration", g->name, in->o[2].nelems, in->o[0].nelems);
		return 1;
	}
	if (kind == STREAM && stream(f, b, in))
		return 1;
	if (kind == LASTERR || kind == STREAM || kind == STREAMDEL) {
		*rc = result(f, b, in, be_imm(0), TC_R);
		return 1;
	}
	if (kind == GETBUF || kind == GETBUF2) {
		int d = be_newtmp(f, TC_R2);
		if (kind == GETBUF && (be_call_arg(f, b, in, 1, PT_B64, &a[0]) ||
		                       be_call_arg(f, b, in, 0, PT_B64, &a[1])))
			return 1;
		MOpd size = be_inreg(f, b, kind == GETBUF ? a[0] : be_imm(ISA_CDP_BUFMAX), TC_R2);
		x = be_emit(f, b, OP_CDPBUF);
		x->nopd = 3;
		x->o[0] = be_r(d);
		x->o[1] = size;
		x->o[2] = kind == GETBUF ? a[1] : be_imm(ISA_CDP_HDR);
		if (kind == GETBUF2 && header(f, b, in, d, 0, 1, 2, 3))
			return 1;
		*rc = result(f, b, in, be_r(d), TC_R2);
		return 1;
	}
	if (be_call_arg(f, b, in, kind == LAUNCH ? 1 : 0, PT_B64, &a[0]))
		return 1;
	a[0] = be_inreg(f, b, a[0], TC_R2);
	if (kind == LAUNCH && header(f, b, in, a[0].t, 0, 2, 3, 4))
		return 1;
	x = be_emit(f, b, OP_CDPLAUNCH);
	x->nopd = 1;
	x->o[0] = a[0];
	*rc = result(f, b, in, be_imm(0), TC_R);
	return 1;
}
