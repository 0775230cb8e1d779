/* leaf.c - straight-line statements of generated programs: instruction templates over the
 * register pools, edge values (0, -1, INT_MIN, NaN, infinities, denormals, shifts and bit
 * positions >= 32), memory statements (own-slot stores, reductions, shared exchanges behind
 * barriers), warp collectives and calls. Every statement only reads registers that the
 * prologue wrote and only writes pool registers or scratch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/gen/gen.h"

static const char *const imm32[] = {
	"0", "1", "0xFFFFFFFF", "0x80000000", "0x7FFFFFFF", "31", "32", "33", "0x0000FFFF",
	"0xFFFF0000", "0x00000080", "7", "0xFFFFFFFE",
};
static const char *const imm64[] = {
	"0", "1", "0xFFFFFFFFFFFFFFFF", "0x8000000000000000", "0x7FFFFFFFFFFFFFFF", "0xFFFFFFFF",
	"0x100000000", "63", "64", "0x80000000",
};
static const char *const immf32[] = {
	"0f00000000", "0f80000000", "0f3F800000", "0fBF800000", "0f7F800000", "0fFF800000",
	"0f7FC00000", "0fFFC00001", "0f7F800001", "0f00000001", "0f807FFFFF", "0f7F7FFFFF",
	"0f4F000000", "0fCF000000", "0f5F000000", "0f3EFFFFFF", "0f3F000000", "0f3FC00000",
	"0f40200000", "0fC0200000", "0f00800000",
};
static const char *const immf64[] = {
	"0d0000000000000000", "0d8000000000000000", "0d3FF0000000000000", "0dBFF0000000000000",
	"0d7FF0000000000000", "0dFFF0000000000000", "0d7FF8000000000000", "0d0000000000000001",
	"0d000FFFFFFFFFFFFF", "0d7FEFFFFFFFFFFFFF", "0d41E0000000000000", "0dC1E0000000000000",
	"0d3FE0000000000000", "0d4004000000000000", "0d43E0000000000000", "0d0010000000000000",
};
static const char *const shamt[] = {
	"0", "1", "7", "31", "32", "33", "63", "64", "65", "255", "0xFFFFFFFF",
};
static const char *const bitpos[] = {
	"0", "1", "8", "16", "24", "31", "32", "33", "63", "64", "200", "255",
};
#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* one string from a rotating pool, so several operands can be formatted at once */
static char *scratch(void)
{
	static char ring[16][32];
	static int next;
	next = (next + 1) % 16;
	return ring[next];
}

const char *gen_reg(GenRng *r, char cls)
{
	char *s = scratch();
	switch (cls) {
	case 'r': snprintf(s, 32, "%%r%d", gen_below(r, GEN_NR)); break;
	case 'd': snprintf(s, 32, "%%rd%d", gen_below(r, GEN_ND)); break;
	case 'f': snprintf(s, 32, "%%f%d", gen_below(r, GEN_NF)); break;
	case 'g': snprintf(s, 32, "%%fd%d", gen_below(r, GEN_NG)); break;
	case 'p': snprintf(s, 32, "%%p%d", gen_below(r, GEN_NP)); break;
	default: fprintf(stderr, "%s:%d: bad register class %c\n", __FILE__, __LINE__, cls); exit(3);
	}
	return s;
}

const char *gen_imm(GenRng *r, char cls)
{
	char *s = scratch();
	int rnd = gen_chance(r, 20);
	uint64_t x = gen_rand(r);
	switch (cls) {
	case 'r':
		if (rnd)
			snprintf(s, 32, "0x%08X", (unsigned)x);
		else
			return imm32[gen_below(r, N(imm32))];
		break;
	case 'd':
		if (rnd)
			snprintf(s, 32, "0x%016llX", (unsigned long long)x);
		else
			return imm64[gen_below(r, N(imm64))];
		break;
	case 'f':
		if (rnd)
			snprintf(s, 32, "0f%08X", (unsigned)x);
		else
			return immf32[gen_below(r, N(immf32))];
		break;
	case 'g':
		if (rnd)
			snprintf(s, 32, "0d%016llX", (unsigned long long)x);
		else
			return immf64[gen_below(r, N(immf64))];
		break;
	case 'S': return shamt[gen_below(r, N(shamt))];
	case 'N': return bitpos[gen_below(r, N(bitpos))];
	default: fprintf(stderr, "%s:%d: bad immediate class %c\n", __FILE__, __LINE__, cls); exit(3);
	}
	return s;
}

/* operand of signature letter c (lower case: register; upper case: register or immediate) */
static const char *operand(GenRng *r, char c)
{
	char *s;
	switch (c) {
	case 'r': case 'd': case 'f': case 'g': case 'p':
		return gen_reg(r, c);
	case 'R': case 'D': case 'F': case 'G':
		return gen_chance(r, 25) ? gen_imm(r, (char)(c - 'A' + 'a')) : gen_reg(r, (char)(c - 'A' + 'a'));
	case 'P':
		s = scratch();
		snprintf(s, 32, "%s%s", gen_chance(r, 40) ? "!" : "", gen_reg(r, 'p'));
		return s;
	case 'S': case 'N':
		return gen_chance(r, 50) ? gen_imm(r, c) : gen_reg(r, 'r');
	case 'H':
		s = scratch();
		snprintf(s, 32, "0x%04X", (unsigned)(gen_rand(r) & 0xffff));
		return s;
	case 'L':
		s = scratch();
		snprintf(s, 32, "0x%02X", (unsigned)(gen_rand(r) & 0xff));
		return s;
	default:
		fprintf(stderr, "%s:%d: bad operand letter %c\n", __FILE__, __LINE__, c);
		exit(3);
	}
}

/* templates: opcode with {rnd} {ftz} {sat} {frnd} placeholders, operand signature (first
 * letter the destination), weight */
typedef struct { const char *op; const char *sig; int w; } Tmpl;
static const Tmpl tmpls[] = {
	/* 32-bit integer */
	{"add.u32", "rRR", 4}, {"add.s32", "rRR", 2}, {"sub.u32", "rRR", 3}, {"sub.s32", "rRR", 1},
	{"add.sat.s32", "rRR", 1}, {"sub.sat.s32", "rRR", 1},
	{"mul.lo.u32", "rRR", 2}, {"mul.lo.s32", "rRR", 1}, {"mul.hi.u32", "rRR", 1},
	{"mul.hi.s32", "rRR", 1}, {"mad.lo.u32", "rRRR", 2}, {"mad.hi.s32", "rRRR", 1},
	{"mad.lo.s32", "rRRR", 1}, {"mul24.lo.u32", "rRR", 1}, {"sad.u32", "rRRR", 1},
	{"min.u32", "rRR", 1}, {"min.s32", "rRR", 1}, {"max.u32", "rRR", 1}, {"max.s32", "rRR", 1},
	{"abs.s32", "rr", 1}, {"neg.s32", "rr", 1},
	{"and.b32", "rRR", 2}, {"or.b32", "rRR", 2}, {"xor.b32", "rRR", 2}, {"not.b32", "rr", 1},
	{"cnot.b32", "rr", 1}, {"lop3.b32", "rrrrL", 1},
	{"shl.b32", "rrS", 2}, {"shr.u32", "rrS", 2}, {"shr.s32", "rrS", 2},
	{"shf.l.wrap.b32", "rrrS", 1}, {"shf.r.clamp.b32", "rrrS", 1}, {"shf.r.wrap.b32", "rrrS", 1},
	{"shf.l.clamp.b32", "rrrS", 1},
	{"bfe.u32", "rrNN", 2}, {"bfe.s32", "rrNN", 2}, {"bfi.b32", "rrrNN", 2},
	{"brev.b32", "rr", 1}, {"popc.b32", "rr", 1}, {"clz.b32", "rr", 1}, {"bfind.u32", "rr", 1},
	{"bfind.s32", "rr", 1}, {"bfind.shiftamt.u32", "rr", 1}, {"prmt.b32", "rrrH", 2},
	{"selp.b32", "rRRP", 3}, {"selp.u32", "rRRP", 1}, {"slct.u32.s32", "rRRr", 1},
	{"mov.b32", "rR", 1},
	/* 64-bit integer */
	{"add.s64", "dDD", 2}, {"sub.s64", "dDD", 1}, {"add.u64", "dDD", 1},
	{"mul.lo.u64", "dDD", 1}, {"mul.hi.u64", "dDD", 1}, {"mul.hi.s64", "dDD", 1},
	{"mad.lo.u64", "dDDD", 1}, {"mul.wide.u32", "drR", 2}, {"mul.wide.s32", "drR", 2},
	{"mad.wide.u32", "drRD", 1}, {"min.s64", "dDD", 1}, {"max.u64", "dDD", 1},
	{"and.b64", "dDD", 1}, {"or.b64", "dDD", 1}, {"xor.b64", "dDD", 1}, {"not.b64", "dd", 1},
	{"neg.s64", "dd", 1}, {"abs.s64", "dd", 1},
	{"shl.b64", "ddS", 2}, {"shr.u64", "ddS", 2}, {"shr.s64", "ddS", 2},
	{"bfe.u64", "ddNN", 1}, {"bfe.s64", "ddNN", 1}, {"brev.b64", "dd", 1},
	{"popc.b64", "rd", 1}, {"clz.b64", "rd", 1}, {"bfind.u64", "rd", 1}, {"bfind.s64", "rd", 1},
	{"selp.b64", "dDDP", 2},
	{"cvt.u64.u32", "dr", 1}, {"cvt.s64.s32", "dr", 1}, {"cvt.u32.u64", "rd", 1},
	{"cvt.sat.u32.s32", "rr", 1}, {"cvt.sat.s32.u32", "rr", 1}, {"cvt.sat.s32.s64", "rd", 1},
	{"cvt.sat.u32.s64", "rd", 1},
	/* f32 */
	{"add{rnd}{ftz}{sat}.f32", "fFF", 3}, {"sub{rnd}{ftz}{sat}.f32", "fFF", 2},
	{"mul{rnd}{ftz}{sat}.f32", "fFF", 3}, {"fma{rnd}{ftz}{sat}.f32", "fFFF", 3},
	{"div.rn{ftz}.f32", "fFF", 1}, {"sqrt.rn{ftz}.f32", "fF", 1}, {"rcp.rn{ftz}.f32", "fF", 1},
	{"min{ftz}.f32", "fFF", 1}, {"max{ftz}.f32", "fFF", 1}, {"abs{ftz}.f32", "ff", 1},
	{"neg{ftz}.f32", "ff", 1}, {"copysign.f32", "fff", 1}, {"selp.f32", "fFFP", 1},
	{"ex2.approx.ftz.f32", "ff", 1}, {"lg2.approx.f32", "ff", 1}, {"sin.approx.f32", "ff", 1},
	{"cos.approx.f32", "ff", 1}, {"rsqrt.approx.f32", "ff", 1}, {"rcp.approx.ftz.f32", "ff", 1},
	{"mov.b32", "fr", 1}, {"mov.b32", "rf", 2}, {"mov.f32", "fF", 1},
	{"cvt.rn.f32.s32", "fr", 1}, {"cvt.rn.f32.u32", "fr", 1}, {"cvt.rz.f32.s32", "fr", 1},
	{"cvt.rzi.s32.f32", "rf", 1}, {"cvt.rni.u32.f32", "rf", 1}, {"cvt.rmi.s32.f32", "rf", 1},
	{"cvt.rpi.s32.f32", "rf", 1}, {"cvt{frnd}{ftz}.f32.f32", "ff", 1},
	{"cvt.rzi.s64.f32", "df", 1}, {"cvt.rn.f32.s64", "fd", 1}, {"cvt.rzi.u64.f32", "df", 1},
	{"testp.finite.f32", "pf", 1}, {"testp.notanumber.f32", "pf", 1}, {"testp.subnormal.f32", "pf", 1},
	/* f64 */
	{"add{rnd}.f64", "gGG", 2}, {"sub{rnd}.f64", "gGG", 1}, {"mul{rnd}.f64", "gGG", 2},
	{"fma{rnd}.f64", "gGGG", 2}, {"div.rn.f64", "gGG", 1}, {"sqrt.rn.f64", "gG", 1},
	{"rcp.rn.f64", "gG", 1}, {"min.f64", "gGG", 1}, {"max.f64", "gGG", 1}, {"abs.f64", "gg", 1},
	{"neg.f64", "gg", 1}, {"selp.f64", "gGGP", 1}, {"mov.b64", "gd", 1}, {"mov.b64", "dg", 2},
	{"cvt.f64.f32", "gf", 1}, {"cvt.rn.f32.f64", "fg", 1}, {"cvt.rz{ftz}.f32.f64", "fg", 1},
	{"cvt.rzi.s32.f64", "rg", 1}, {"cvt.rn.f64.s32", "gr", 1}, {"cvt.rn.f64.u64", "gd", 1},
	{"cvt.rni.s64.f64", "dg", 1}, {"cvt{frnd}.f64.f64", "gg", 1}, {"testp.infinite.f64", "pg", 1},
	{"testp.normal.f64", "pg", 1},
};
enum { NTMPL = N(tmpls) };

static const char *const rnds[] = {".rn", ".rz", ".rm", ".rp"};
static const char *const frnds[] = {".rni", ".rzi", ".rmi", ".rpi"};

/* the opcode text with its placeholders filled */
static void opcode(GenRng *r, const char *op, char *out, size_t size)
{
	size_t n = 0;
	while (*op && n + 8 < size) {
		const char *sub = NULL;
		size_t skip = 0;
		if (!strncmp(op, "{rnd}", 5))
			sub = rnds[gen_below(r, 4)], skip = 5;
		else if (!strncmp(op, "{frnd}", 6))
			sub = frnds[gen_below(r, 4)], skip = 6;
		else if (!strncmp(op, "{ftz}", 5))
			sub = gen_chance(r, 30) ? ".ftz" : "", skip = 5;
		else if (!strncmp(op, "{sat}", 5))
			sub = gen_chance(r, 15) ? ".sat" : "", skip = 5;
		if (sub) {
			n += (size_t)snprintf(out + n, size - n, "%s", sub);
			op += skip;
		} else
			out[n++] = *op++;
	}
	out[n] = 0;
}

/* a template instruction (with a random guard sometimes) */
static void tmpl_ins(GenRng *r, GenBuf *b)
{
	static int total;
	const Tmpl *t = NULL;
	char op[64];
	int x;

	if (!total)
		for (int i = 0; i < NTMPL; i++)
			total += tmpls[i].w;
	x = gen_below(r, total);
	for (int i = 0; i < NTMPL; i++)
		if ((x -= tmpls[i].w) < 0) {
			t = &tmpls[i];
			break;
		}
	opcode(r, t->op, op, sizeof op);
	gen_printf(b, "\t");
	if (gen_chance(r, 8))
		gen_printf(b, "@%s ", operand(r, 'P'));
	gen_printf(b, "%s %s", op, operand(r, t->sig[0]));
	for (const char *s = t->sig + 1; *s; s++)
		gen_printf(b, ", %s", operand(r, *s));
	gen_printf(b, ";\n");
}

/* setp over a random type into pred, with a combining predicate sometimes */
static void setp_ins(GenRng *r, GenBuf *b, const char *pred)
{
	static const char *const icmp[] = {".eq", ".ne", ".lt", ".le", ".gt", ".ge"};
	static const char *const ucmp[] = {".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs"};
	static const char *const fcmp[] = {".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".equ", ".neu",
	                                   ".ltu", ".leu", ".gtu", ".geu", ".num", ".nan"};
	static const char *const bops[] = {".and", ".or", ".xor"};
	const char *cmp, *ty, *a, *c;
	char cls;

	switch (gen_below(r, 8)) {
	case 0: case 1: cls = 'R'; ty = ".u32"; cmp = ucmp[gen_below(r, N(ucmp))]; break;
	case 2: case 3: cls = 'R'; ty = ".s32"; cmp = icmp[gen_below(r, N(icmp))]; break;
	case 4: cls = 'D'; ty = gen_chance(r, 50) ? ".s64" : ".u64";
		cmp = ty[1] == 'u' ? ucmp[gen_below(r, N(ucmp))] : icmp[gen_below(r, N(icmp))]; break;
	case 5: case 6: cls = 'F'; ty = ".f32"; cmp = fcmp[gen_below(r, N(fcmp))]; break;
	default: cls = 'G'; ty = ".f64"; cmp = fcmp[gen_below(r, N(fcmp))]; break;
	}
	a = gen_reg(r, (char)(cls - 'A' + 'a'));
	c = operand(r, cls);
	if (gen_chance(r, 20))
		gen_printf(b, "\tsetp%s%s%s%s %s, %s, %s, %s;\n", cmp, bops[gen_below(r, 3)],
		           cls == 'F' && gen_chance(r, 30) ? ".ftz" : "", ty, pred, a, c, operand(r, 'P'));
	else
		gen_printf(b, "\tsetp%s%s%s %s, %s, %s;\n", cmp,
		           cls == 'F' && gen_chance(r, 30) ? ".ftz" : "", ty, pred, a, c);
}

char *gen_cond(GenProg *g, const char *pred, int uniform)
{
	GenBuf b = {0};
	GenRng *r = &g->rng;

	if (uniform == 1)      /* CTA-uniform: parameter k and %ctaid */
		gen_printf(&b, "\tsetp%s.u32 %s, %%u%d, %u;\n", gen_chance(r, 50) ? ".lt" : ".ne", pred,
		           gen_below(r, 4), (unsigned)gen_below(r, 200));
	else if (uniform == 2) /* warp-uniform: the warp number */
		gen_printf(&b, "\tshr.u32 %%t0, %%s0, 5;\n\tand.b32 %%t0, %%t0, %u;\n"
		           "\tsetp.eq.u32 %s, %%t0, 0;\n", 1u + (unsigned)gen_below(r, 3), pred);
	else if (!g->infunc && gen_chance(r, 25))   /* a pattern of the thread index */
		gen_printf(&b, "\tand.b32 %%t0, %%s0, %u;\n\tsetp.%s.u32 %s, %%t0, %u;\n",
		           (unsigned)gen_below(r, 16), gen_chance(r, 50) ? "eq" : "ne", pred,
		           (unsigned)gen_below(r, 4));
	else
		setp_ins(r, &b, pred);
	return b.p;
}

/* a loaded word at a data-dependent index of the whole input */
static void load_any(GenRng *r, GenBuf *b)
{
	gen_printf(b, "\tand.b32 %%t1, %s, %d;\n\tmul.wide.u32 %%ta0, %%t1, 4;\n"
	           "\tadd.s64 %%ta0, %%ain, %%ta0;\n", gen_reg(r, 'r'), GEN_INTOTAL - 1);
	if (gen_chance(r, 30))
		gen_printf(b, "\tld.global.f32 %s, [%%ta0];\n", gen_reg(r, 'f'));
	else
		gen_printf(b, "\tld.global.u32 %s, [%%ta0];\n", gen_reg(r, 'r'));
}

/* a store into a fresh output slot of this thread */
static void store(GenProg *g, GenBuf *b)
{
	GenRng *r = &g->rng;
	const char *guard = "";
	char gbuf[16];

	if (gen_chance(r, 20)) {
		snprintf(gbuf, sizeof gbuf, "@%s ", operand(r, 'P'));
		guard = gbuf;
	}
	switch (gen_below(r, 6)) {
	case 0: case 1:
		gen_printf(b, "\t%sst.global.u32 [%%ao+%d], %s;\n", guard, g->outbytes, gen_reg(r, 'r'));
		g->outbytes += 4;
		break;
	case 2:
		gen_printf(b, "\t%sst.global.f32 [%%ao+%d], %s;\n", guard, g->outbytes, gen_reg(r, 'f'));
		g->outbytes += 4;
		break;
	case 3:
		g->outbytes = (g->outbytes + 7) & ~7;
		gen_printf(b, "\t%sst.global.u64 [%%ao+%d], %s;\n", guard, g->outbytes, gen_reg(r, 'd'));
		g->outbytes += 8;
		break;
	case 4:
		g->outbytes = (g->outbytes + 7) & ~7;
		gen_printf(b, "\t%sst.global.f64 [%%ao+%d], %s;\n", guard, g->outbytes, gen_reg(r, 'g'));
		g->outbytes += 8;
		break;
	default:
		g->outbytes = (g->outbytes + 7) & ~7;
		gen_printf(b, "\t%sst.global.v2.u32 [%%ao+%d], {%s, %s};\n", guard, g->outbytes,
		           gen_reg(r, 'r'), gen_reg(r, 'r'));
		g->outbytes += 8;
		break;
	}
}

char *gen_store(GenProg *g)
{
	GenBuf b = {0};
	store(g, &b);
	return b.p;
}

/* a commutative reduction into the accumulator buffer */
static void reduce(GenRng *r, GenBuf *b)
{
	/* one operation per slot: different operations on one word would not commute */
	static const char *const ops32[8] = {"add.u32", "or.b32", "xor.b32", "and.b32", "min.u32",
	                                     "max.u32", "min.s32", "max.s32"};
	if (gen_chance(r, 25))
		gen_printf(b, "\t%sred.global.add.u64 [%%aa+%d], %s;\n", gen_chance(r, 20) ? "@%p0 " : "",
		           32 + 8 * gen_below(r, 4), gen_reg(r, 'd'));
	else {
		int slot = gen_below(r, 8);
		gen_printf(b, "\t%sred.global.%s [%%aa+%d], %s;\n", gen_chance(r, 20) ? "@!%p1 " : "",
		           ops32[slot], 4 * slot, gen_reg(r, 'r'));
	}
}

/* a per-thread local array access at a data-dependent index */
static void local_access(GenRng *r, GenBuf *b)
{
	gen_printf(b, "\tand.b32 %%t1, %s, 15;\n\tmul.wide.u32 %%ta0, %%t1, 4;\n"
	           "\tmov.u64 %%ta1, loc;\n\tadd.s64 %%ta0, %%ta1, %%ta0;\n", gen_reg(r, 'r'));
	if (gen_chance(r, 50))
		gen_printf(b, "\tst.local.u32 [%%ta0], %s;\n", gen_reg(r, 'r'));
	else
		gen_printf(b, "\tld.local.u32 %s, [%%ta0];\n", gen_reg(r, 'r'));
}

/* threads exchange values through shared memory between barriers (CTA-uniform points) */
static void shared_exchange(GenProg *g, GenBuf *b)
{
	GenRng *r = &g->rng;
	gen_printf(b, "\tmul.wide.u32 %%ta0, %%s0, 4;\n\tmov.u64 %%ta1, sh;\n"
	           "\tadd.s64 %%ta1, %%ta1, %%ta0;\n\tst.shared.u32 [%%ta1], %s;\n\tbar.sync 0;\n",
	           gen_reg(r, 'r'));
	gen_printf(b, "\tadd.u32 %%t1, %%s0, %u;\n\trem.u32 %%t1, %%t1, %%s1;\n"
	           "\tmul.wide.u32 %%ta0, %%t1, 4;\n\tmov.u64 %%ta1, sh;\n\tadd.s64 %%ta1, %%ta1, %%ta0;\n"
	           "\tld.shared.u32 %s, [%%ta1];\n\tbar.sync 0;\n",
	           1u + (unsigned)gen_below(r, (int)g->block), gen_reg(r, 'r'));
}

/* a shared-memory reduction (the lock loop of the microcode), fenced by barriers */
static void shared_reduce(GenRng *r, GenBuf *b)
{
	static const char *const ops[] = {"add", "or", "xor", "and", "min", "max"};
	int op = gen_below(r, N(ops));
	const char *init = op == 3 || op == 4 ? "0xFFFFFFFF" : "0";
	gen_printf(b, "\tsetp.eq.u32 %%qs, %%s0, 0;\n\t@%%qs st.shared.u32 [shacc], %s;\n\tbar.sync 0;\n",
	           init);
	gen_printf(b, "\t%sred.shared.%s.u32 [shacc], %s;\n\tbar.sync 0;\n",
	           gen_chance(r, 40) ? (gen_chance(r, 50) ? "@%p2 " : "@!%p3 ") : "", ops[op], gen_reg(r, 'r'));
	gen_printf(b, "\tld.shared.u32 %s, [shacc];\n\tbar.sync 0;\n", gen_reg(r, 'r'));
}

/* a warp collective over the full warp */
static void collective(GenRng *r, GenBuf *b)
{
	static const char *const modes[] = {"up", "down", "bfly", "idx"};
	static const int widths[] = {32, 32, 16, 8, 4};
	switch (gen_below(r, 6)) {
	case 0:
		gen_printf(b, "\tvote.sync.ballot.b32 %s, %s, 0xffffffff;\n", gen_reg(r, 'r'), operand(r, 'P'));
		return;
	case 1: {
		static const char *const v[] = {"all", "any", "uni"};
		gen_printf(b, "\tvote.sync.%s.pred %s, %s, 0xffffffff;\n", v[gen_below(r, 3)],
		           gen_reg(r, 'p'), operand(r, 'P'));
		return;
	}
	default: {
		int m = gen_below(r, 4), w = widths[gen_below(r, N(widths))];
		unsigned c = (unsigned)(32 - w) << 8 | (m == 0 ? 0u : 0x1fu);
		char lane[32];
		if (gen_chance(r, 50))
			snprintf(lane, sizeof lane, "%d", gen_below(r, 32));
		else {
			gen_printf(b, "\tand.b32 %%t2, %s, 31;\n", gen_reg(r, 'r'));
			snprintf(lane, sizeof lane, "%%t2");
		}
		if (gen_chance(r, 40))
			gen_printf(b, "\tshfl.sync.%s.b32 %s|%s, %s, %s, 0x%x, 0xffffffff;\n", modes[m],
			           gen_reg(r, 'r'), gen_reg(r, 'p'), gen_reg(r, 'r'), lane, c);
		else
			gen_printf(b, "\tshfl.sync.%s.b32 %s, %s, %s, 0x%x, 0xffffffff;\n", modes[m],
			           gen_reg(r, 'r'), gen_reg(r, 'r'), lane, c);
	}
	}
}

/* integer division with a divisor that is never 0 (nor -1 for the signed forms) */
static void divide(GenRng *r, GenBuf *b)
{
	const char *d = gen_reg(r, 'r'), *a = gen_reg(r, 'r'), *s = gen_reg(r, 'r');
	const char *op = gen_chance(r, 50) ? "div" : "rem";
	if (gen_chance(r, 50))
		gen_printf(b, "\tmax.u32 %%t1, %s, 1;\n\t%s.u32 %s, %s, %%t1;\n", s, op, d, a);
	else
		gen_printf(b, "\tand.b32 %%t1, %s, 0x7FFFFFFF;\n\tmax.s32 %%t1, %%t1, 1;\n"
		           "\t%s.s32 %s, %s, %%t1;\n", s, op, d, a);
}

/* a carry chain or a pack/unpack */
static void wide(GenRng *r, GenBuf *b)
{
	switch (gen_below(r, 4)) {
	case 0:
		gen_printf(b, "\tadd.cc.u32 %s, %s, %s;\n", gen_reg(r, 'r'), gen_reg(r, 'r'), operand(r, 'R'));
		gen_printf(b, "\taddc.u32 %s, %s, %s;\n", gen_reg(r, 'r'), gen_reg(r, 'r'), operand(r, 'R'));
		break;
	case 1:
		gen_printf(b, "\tsub.cc.u32 %s, %s, %s;\n", gen_reg(r, 'r'), gen_reg(r, 'r'), operand(r, 'R'));
		gen_printf(b, "\tsubc.u32 %s, %s, %s;\n", gen_reg(r, 'r'), gen_reg(r, 'r'), operand(r, 'R'));
		break;
	case 2:
		gen_printf(b, "\tmov.b64 %s, {%s, %s};\n", gen_reg(r, 'd'), gen_reg(r, 'r'), gen_reg(r, 'r'));
		break;
	default: {
		int x = gen_below(r, GEN_NR), y = (x + 1 + gen_below(r, GEN_NR - 1)) % GEN_NR;
		gen_printf(b, "\tmov.b64 {%%r%d, %%r%d}, %s;\n", x, y, gen_reg(r, 'd'));
	}
	}
}

/* a direct call of a plain helper, a recursive call or an indirect call */
static void call(GenProg *g, GenBuf *b, int *callee)
{
	GenRng *r = &g->rng;
	int which = gen_below(r, 3);

	if (which == 1 && g->rec < 0)
		which = 0;
	if (which == 2 && g->itgt < 0)
		which = 0;
	if (which == 0 && !g->nplain)
		which = g->rec >= 0 ? 1 : 2;
	gen_printf(b, "\t{\n\t.param .b32 pa;\n\t.param .b32 pb;\n\t.param .b32 pr;\n");
	if (which == 0) {
		*callee = gen_below(r, g->nplain);
		gen_printf(b, "\tst.param.b32 [pa], %s;\n\tst.param.b32 [pb], %s;\n"
		           "\tcall (pr), %s, (pa, pb);\n", gen_reg(r, 'r'), operand(r, 'R'), g->fn[*callee].name);
	} else if (which == 1) {
		*callee = g->rec;
		gen_printf(b, "\tand.b32 %%t1, %s, %d;\n\tst.param.b32 [pa], %%t1;\n\tst.param.b32 [pb], %s;\n"
		           "\tcall (pr), rec, (pa, pb);\n", gen_reg(r, 'r'), gen_chance(r, 50) ? 3 : 7,
		           gen_reg(r, 'r'));
	} else {
		*callee = g->itgt;
		gen_printf(b, "\tmov.u64 %%ta2, %s;\n", g->fn[g->itgt].name);
		for (int i = 1; i < g->nitgt; i++) {
			char *c = gen_cond(g, "%qs", 0);
			gen_printf(b, "%s\t@%%qs mov.u64 %%ta2, %s;\n", c, g->fn[g->itgt + i].name);
			free(c);
		}
		gen_printf(b, "\tst.param.b32 [pa], %s;\n\tFt%d: .calltargets ", gen_reg(r, 'r'), g->uniq);
		for (int i = 0; i < g->nitgt; i++)
			gen_printf(b, "%s%s", i ? ", " : "", g->fn[g->itgt + i].name);
		gen_printf(b, ";\n\tcall (pr), %%ta2, (pa), Ft%d;\n", g->uniq++);
	}
	gen_printf(b, "\tld.param.b32 %s, [pr];\n\t}\n", gen_reg(r, 'r'));
}

/* one straight-line statement; simple: a single template instruction */
char *gen_leaf(GenProg *g, const GenCtx *c, int simple, int *callee)
{
	GenBuf b = {0};
	GenRng *r = &g->rng;
	int x = simple ? 0 : gen_below(r, 100);

	*callee = -1;
	if (x < 55)
		tmpl_ins(r, &b);
	else if (x < 62)
		setp_ins(r, &b, gen_reg(r, 'p'));
	else if (x < 66)
		divide(r, &b);
	else if (x < 70)
		wide(r, &b);
	else if (x < 77 && c->kernel)
		store(g, &b);
	else if (x < 80 && c->kernel)
		reduce(r, &b);
	else if (x < 83 && c->kernel)
		load_any(r, &b);
	else if (x < 85 && c->kernel && g->uselocal)
		local_access(r, &b);
	else if (x < 89 && c->kernel && g->nfn)
		call(g, &b, callee);
	else if (x < 93 && c->warp_uni && g->collectives && !g->exited)
		collective(r, &b);
	else if (x < 95 && c->cta_uni && g->useshared && !g->exited)
		shared_exchange(g, &b);
	else if (x < 97 && c->cta_uni && g->useshared && !g->exited)
		shared_reduce(r, &b);
	else
		tmpl_ins(r, &b);
	return b.p;
}
