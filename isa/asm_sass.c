/* asm_sass.c - what real `cuobjdump -sass` listings (NVIDIA's ptxas for sm_35; tests/ptxas-ref)
 * add to the listing syntax, so that the parser reads them as they are printed:
 *
 *   header    := 'code for' sm_N | 'Function :' NAME | '.headerflags' ... | '....'
 *   fragment  := stmt ...      instructions with no header: one kernel named "anonymous"
 *
 * A `Function :` kernel under `code for sm_3x` has the sm_35 layout (Kernel.layout): its
 * instruction addresses skip the scheduling-control word of every eighth slot, and c[0x0]
 * is laid out as sm_35's driver does. Kepler mnemonics that have a microcode op of the same
 * meaning are read as that op (IADD32I R0, R1, 0x1 is IADD R0, R1, 0x1; ISUB a, b is
 * IADD a, -b, and ISUB.X a, b is IADD.X a, ~b); a destination written `R2.CC` is the .CC
 * flag; `FCMP` with no comparison is FCMP.GT (cuobjdump 11.8 prints comparison 4, GT, of
 * FCMP as nothing: the encoding and the PTX source agree); a `QNAN` immediate takes its bits
 * from the instruction's encoding comment, because cuobjdump prints every NaN alike; and
 * `JCAL 0x0` after `.jcal NAME` (a call of the external function NAME) is the op our
 * translation makes of that call, on the ABI's registers. Anything else unknown stays an
 * error at its line and column (asm.c).
 */
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"

/* ------------------------------------------------------------------ header lines */
/* the digits of sm_N as a number, or -1 */
static int sm_number(const Lex *x, Tok t)
{
	int v = 0;

	if (t.kind != TK_IDENT || t.e - t.s < 4 || t.e - t.s > 6 || memcmp(x->text + t.s, "sm_", 3))
		return -1;
	for (size_t i = t.s + 3; i < t.e; i++) {
		if (x->text[i] < '0' || x->text[i] > '9')
			return -1;
		v = v * 10 + (x->text[i] - '0');
	}
	return v;
}

static int only_dots(const Lex *x, Tok t)
{
	for (size_t i = t.s; i < t.e; i++)
		if (x->text[i] != '.')
			return 0;
	return t.e - t.s >= 3;
}

int isa_asm_sass_line(Asm *a, Tok t)
{
	Lex *x = &a->x;
	size_t save = x->pos;
	char buf[64];
	Tok u, v;

	if (t.kind != TK_IDENT)
		return 0;
	if (only_dots(x, t) || isa_asm_is(x, t, ".headerflags")) {
		x->pos = x->le;        /* cuobjdump's end-of-function line; the ELF header flags */
		return 1;
	}
	isa_asm_next(x);
	u = isa_asm_next(x);
	if (isa_asm_is(x, t, "code") && isa_asm_is(x, u, "for")) {
		v = isa_asm_next(x);
		if ((a->sass_arch = sm_number(x, v)) <= 0) {
			isa_asm_error(x, v, "expected sm_N after 'code for', got '%s'",
			              isa_asm_text(x, v, buf, sizeof buf));
			a->sass_arch = 0;
		}
		x->pos = x->le;
		return 1;
	}
	if (isa_asm_is(x, t, "Function") && u.kind == TK_PUNCT && u.c == ':') {
		Kernel *k;
		char *s;
		v = isa_asm_next(x);
		if (v.kind != TK_IDENT) {
			isa_asm_error(x, v, "expected a kernel name after 'Function :', got '%s'",
			              isa_asm_text(x, v, buf, sizeof buf));
			x->pos = x->le;
			return 1;
		}
		s = isa_asm_dup(a, v);
		k = isa_asm_begin_kernel(a, s, v);
		free(s);
		k->arch = a->sass_arch;
		if (a->sass_arch >= 30 && a->sass_arch <= 37)
			k->layout = ISA_LAYOUT_SM35;
		if (isa_asm_peek(x).kind != TK_EOL)
			isa_asm_error(x, isa_asm_peek(x), "unexpected '%s' after the kernel name",
			              isa_asm_text(x, isa_asm_peek(x), buf, sizeof buf));
		x->pos = x->le;
		return 1;
	}
	x->pos = save;
	return 0;
}

/* ------------------------------------------------------------------ addresses */
/* Where the instruction with address comment v goes (at), or 0 after an error. Expected: the
 * next address of the kernel's layout; the first instruction may start anywhere (a piece cut
 * out of a larger listing), and a bare fragment is Kepler code (the sm_35 layout) once it
 * skips a control slot (0x40, 0x80, ...). */
int isa_asm_place(Asm *a, Kernel *k, Tok t, uint64_t v, uint32_t *at)
{
	uint32_t want = isa_kernel_next_addr(k);

	*at = want;
	if (t.e - t.s <= 20 && v == want)
		return 1;
	/* cuobjdump prints the padding after a function's code without control words */
	if (t.e - t.s <= 20 && k->layout && v == isa_kernel_end(k) && k->nins) {
		*at = (uint32_t)v;
		return 1;
	}
	if (t.e - t.s <= 20 && v % 8 == 0 && v <= 0xfffffff0u && !k->nins) {
		*at = (uint32_t)v;       /* a piece of a larger listing starts where it was cut */
		return 1;
	}
	if (t.e - t.s <= 20 && v % 8 == 0 && v <= 0xfffffff0u && a->anon) {
		if (!k->layout && want % 0x40 == 0 && v == want + 8) {
			k->layout = ISA_LAYOUT_SM35;
			*at = (uint32_t)v;
			return 1;
		}
	}
	isa_asm_error(&a->x, t, "address /*%.*s*/ does not match the instruction's position 0x%04x",
	              (int)(t.e - t.s > 24 ? 20 : t.e - t.s - 4), a->x.text + t.s + 2, want);
	return 0;
}

/* ------------------------------------------------------------------ Kepler mnemonics */
enum { FIX_NONE, FIX_SUB, FIX_SUB1 };   /* FIX_SUB1: ISUB whose sources were swapped */

static const struct {
	const char *mn;  /* Kepler mnemonic */
	size_t len;      /* its length */
	Op op;           /* the microcode op it is */
	int fix;         /* FIX_SUB: the second source is subtracted */
} aliases[] = {
#define ALIAS(mn, op, fix) {mn, sizeof mn - 1, op, fix}
	ALIAS("IADD32I", OP_IADD, FIX_NONE), ALIAS("ISUB", OP_IADD, FIX_SUB),
	ALIAS("LOP32I", OP_LOP, FIX_NONE), ALIAS("IMUL32I", OP_IMUL, FIX_NONE),
	ALIAS("ISCADD32I", OP_ISCADD, FIX_NONE), ALIAS("FADD32I", OP_FADD, FIX_NONE),
	ALIAS("FMUL32I", OP_FMUL, FIX_NONE),
#undef ALIAS
};

/* no mnemonic holds a dot, so the word up to the first one must be the mnemonic */
int isa_asm_alias(const char *s, size_t n, size_t *len, int *fix)
{
	size_t w = 0;

	while (w < n && s[w] != '.')
		w++;
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
		size_t m = aliases[i].len;
		if (m == w && !memcmp(s, aliases[i].mn, m)) {
			*len = m;
			*fix = aliases[i].fix;
			return (int)aliases[i].op;
		}
	}
	return -1;
}

/* the last encoding comment "/ * 0x<16 hex digits> * /" on the current line */
static int encoding(const Lex *x, uint64_t *w)
{
	int found = 0;

	for (size_t p = x->ls; p + 18 <= x->le; p++) {
		const char *s = x->text + p;
		uint64_t v = 0;
		size_t i;
		if (memcmp(s, "0x", 2) || (p >= x->ls + 1 && s[-1] != ' ' && s[-1] != '*'))
			continue;
		for (i = 2; i < 18; i++) {
			int c = (unsigned char)s[i];
			int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
			if (d < 0)
				break;
			v = v << 4 | (uint64_t)d;
		}
		if (i == 18) {
			*w = v;
			found = 1;
		}
	}
	return found;
}

/* before the operands go to their slots: ISUB d, c[..], R is IADD d, -R, c[..] (the first
 * source of IADD is a register) */
void isa_asm_sass_pre(POpd *po, int npo, int *fix)
{
	if (*fix == FIX_SUB && npo == 3 && po[1].cls != OC_R && po[2].cls == OC_R) {
		POpd t = po[1];
		po[1] = po[2];
		po[2] = t;
		*fix = FIX_SUB1;
	}
}

/* after the operands are in their slots: the fixes the cuobjdump spelling needs */
int isa_asm_sass_fix(Asm *a, Ins *in, InsLoc *l, const POpd *po, int npo, int fix)
{
	Lex *x = &a->x;

	for (int i = 0; i < npo; i++) {
		if (po[i].cc) {
			if (i != 0 || !(isa_ops[in->op].mods & M_CC)) {
				isa_asm_error(x, po[i].t, "%s does not write the condition code here", isa_ops[in->op].name);
				return 0;
			}
			in->m.flags |= MF_CC;
			l->col_flag[0] = l->col_opd[0];
		}
		if (po[i].qnan) {
			uint64_t w;
			int s = -1, fb;
			for (int j = 0; j < in->nopd; j++)
				if (l->col_opd[j] == isa_asm_col(x, po[i].t.s))
					s = j;
			fb = s >= 0 ? isa_imm_float_bits(in, s) : 0;
			if (!fb || !encoding(x, &w)) {
				isa_asm_error(x, po[i].t, fb ? "QNAN without the instruction's encoding comment: "
				              "write its bits (0f...)" : "QNAN is a float immediate");
				return 0;
			}
			/* Kepler's 20-bit float immediate: bits 23..41, its sign at bit 59 */
			in->o[s].imm = (int64_t)(fb == 32 ? ((w >> 59 & 1) << 31 | ((w >> 23) & 0x7ffff) << 12)
			                         : ((w >> 59 & 1) << 63 | ((w >> 23) & 0x7ffff) << 44));
		}
	}
	if ((fix == FIX_SUB || fix == FIX_SUB1) && in->nopd >= 3) {
		Opd *b = &in->o[fix == FIX_SUB1 ? 1 : 2];
		if (b->kind == OPD_IMM)
			b->imm = (in->m.flags & MF_X) ? (int64_t)(uint32_t)~(uint32_t)b->imm
			                              : (int64_t)(uint32_t)(0u - (uint32_t)b->imm);
		else if (in->m.flags & MF_X)
			b->flags ^= OPF_NOT;
		else
			b->flags ^= OPF_NEG;
	}
	if (in->op == OP_FCMP && !in->m.cmp && (a->sass_arch || a->anon))
		in->m.cmp = CMP_GT;
	/* the hardware's single-precision MUFU flushes a subnormal operand and result to zero of
	 * its sign, and cuobjdump prints no .FTZ on it: ptxas's code of an .approx without .ftz
	 * scales a subnormal operand into range first (lg2: by 2^24, then 24 subtracted) and a
	 * result that would be subnormal (ex2: 2^(a/2) squared); with .ftz, or for .target sm_1x,
	 * the operand goes to MUFU as it is (tests/ptx/ftz_sm13's rcp, lg2 and sqrt) */
	if (in->op == OP_MUFU && a->sass_arch && in->m.dtype != TY_F64 && in->m.sub != SUB_RCP64H &&
	    in->m.sub != SUB_RSQ64H)
		in->m.flags |= MF_FTZ;
	return 1;
}

/* ------------------------------------------------------------------ external calls */
/* sm_35's call of an external function: `JCAL 0x0`, whose immediate the driver relocates
 * (R_CUDA_ABS32_23; elfinfo.awk and merge.awk write `.jcal NAME` before it), with the ABI's
 * arguments in R4, R5, ... (a 64-bit one in an aligned pair) and the result in R4 (R4:R5 for
 * a pointer); the callee keeps R16 and above. A function whose call our own translation makes
 * a builtin op is read as that op on those registers (docs/isa.md section 11). */
static const struct {
	const char *name;  /* the external function */
	Op op;             /* the op of our translation */
	int n;             /* its operands: */
	int reg[4];        /* each one's register (the pair's low one), or -1: */
	int imm;           /* this immediate */
} externs[] = {
	{"vprintf", OP_PRINTF, 3, {4, 4, 6}, 0},           /* R4 = (R4:R5 format, R6:R7 args) */
	{"__assertfail", OP_ASSERT, 4, {4, 6, 8, 10}, 0},  /* message, file, line, function */
	{"malloc", OP_MALLOC, 3, {4, 4, -1}, 16},          /* R4:R5 = (R4:R5 size), 16-aligned */
	{"__cuda_syscall_aligned_malloc", OP_MALLOC, 3, {4, 4, 6}, 0},  /* (size, alignment) */
	{"free", OP_FREE, 1, {4}, 0},                      /* (R4:R5 pointer) */
};

/* Before an instruction's operands go to their slots: 1 when it is the JCAL a `.jcal NAME`
 * names, now NAME's op (in and l filled in); 0 for any other instruction; -1 after an error
 * (a JCAL to an address no `.jcal` names, a `.jcal` not followed by one, an unknown NAME) */
int isa_asm_sass_jcal(Asm *a, Ins *in, InsLoc *l, const POpd *po, int npo)
{
	Lex *x = &a->x;
	int direct = in->op == OP_JCAL && npo == 1 && po[0].o.kind == OPD_IMM;
	size_t s = a->jcal.s, n = a->jcal.e - a->jcal.s;
	int line = a->jcal.line, col = a->jcal.col, e = -1;

	if (!line && !direct)
		return 0;
	if (!direct) {
		isa_asm_jcal_unused(a);
		return -1;
	}
	a->jcal.line = 0;
	if (!line) {
		isa_asm_error(x, po[0].t, "JCAL to an absolute address: a call of an external function "
		              "needs '.jcal NAME' before it (elfinfo.awk writes it)");
		return -1;
	}
	for (int i = 0; i < (int)(sizeof externs / sizeof externs[0]); i++)
		if (strlen(externs[i].name) == n && !memcmp(externs[i].name, x->text + s, n))
			e = i;
	if (e < 0) {
		isa_asm_error_at(x, line, a->jcal.ls, col, "a call of the external function '%.*s' is "
		                 "not supported (vprintf, __assertfail, malloc, "
		                 "__cuda_syscall_aligned_malloc and free are)", (int)(n < 60 ? n : 60),
		                 x->text + s);
		return -1;
	}
	in->op = externs[e].op;
	in->nopd = (uint8_t)externs[e].n;
	for (int i = 0; i < externs[e].n; i++) {
		int r = externs[e].reg[i];
		in->o[i] = r < 0 ? (Opd){.kind = OPD_IMM, .imm = externs[e].imm}
		                 : (Opd){.kind = OPD_REG, .reg = (uint8_t)r};
		l->col_opd[i] = isa_asm_col(x, po[0].t.s);
	}
	return 1;
}
