/* print.c - the listing printer: one instruction in cuobjdump style, a kernel with its
 * header block, a program. The format is the one isa/asm.c reads; docs/isa.md section 11
 * describes it, and print(parse(x)) == x holds for every canonical listing.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"

/* a bounded string builder: n counts what would have been written, like snprintf, and the
 * buffer holds what fits, NUL-terminated. The common fields are appended directly (sb_put,
 * sb_hex, sb_dec); vsnprintf (sbf) only formats the rare ones (floats, NaN bits). */
typedef struct {
	char *p;      /* output buffer */
	size_t size;  /* its size */
	size_t n;     /* characters produced so far */
} Sb;

/* the len bytes of s (what fits of them, as vsnprintf would write at the end) */
static void sb_put(Sb *b, const char *s, size_t len)
{
	if (b->n < b->size) {
		size_t c = b->size - 1 - b->n;
		if (c > len)
			c = len;
		memcpy(b->p + b->n, s, c);
		b->p[b->n + c] = 0;
	}
	b->n += len;
}

static void sb_str(Sb *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

static void sb_ch(Sb *b, char c)
{
	sb_put(b, &c, 1);
}

static const char hexdig[] = "0123456789abcdef";   /* sb_hex's and print_bytes's digits */

/* v in lowercase hex digits, at least min of them (%0*llx) */
static void sb_hex(Sb *b, uint64_t v, int min)
{
	char t[16];
	int i = (int)sizeof t;

	do {
		t[--i] = hexdig[v & 15];
		v >>= 4;
	} while (v || (int)sizeof t - i < min);
	sb_put(b, t + i, sizeof t - (size_t)i);
}

/* v in decimal (%d) */
static void sb_dec(Sb *b, int v)
{
	char t[12];
	int i = (int)sizeof t;
	unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;

	do {
		t[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		t[--i] = '-';
	sb_put(b, t + i, sizeof t - (size_t)i);
}

/* a modifier: '.' and its name */
static void sb_mod(Sb *b, const char *name)
{
	sb_ch(b, '.');
	sb_str(b, name);
}

static void sbf(Sb *b, const char *fmt, ...)
{
	va_list ap;
	size_t room = b->n < b->size ? b->size - b->n : 0;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(room ? b->p + b->n : NULL, room, fmt, ap);
	va_end(ap);
	if (r > 0)
		b->n += (size_t)r;
}

/* the power of ten of the first significant digit of the finite value a "%g" text s shows */
static int text_exp(const char *s)
{
	const char *e = strchr(s, 'e');
	int x = -1;

	if (*s == '-')
		s++;
	if (e)
		return atoi(e + 1);
	if (s[0] == '0') {          /* 0.00ddd (0 itself: 0) */
		if (!s[1])
			return 0;
		for (s += 2; *s == '0'; s++)
			x--;
		return x;
	}
	for (; *s && *s != '.'; s++)
		x++;
	return x;
}

/* the shortest "%.*g" text (precision 1..pmax) of finite v that reads back to v (rt), the first
 * of that length. Each precision costs a vsnprintf and a strtod, so the loop stops once no
 * later text can be shorter. After the first text that reads back (precision p0, exponent x),
 * a later one holds k >= p0 significant digits (if they read back, so does the rounding to k
 * digits, the same number) at exponent x: in exponent notation it is at least sign + p0 (+ 1
 * for the point when p0 > 1) + 4 long; in fixed notation sign + 1 - x + p0 when x < 0
 * (0.0..d...), else sign + max(x + 1, p0), + 1 for the point when p0 > x + 1. A later text
 * sits at x - 1 only when rounding to p0 digits carried up to 10^x, a text that reads back but
 * is not v: then p0 is 1 and 10^x is not representable, so x < 0 (x - 1 only lengthens the
 * fixed text) or x > 10 (F32), x > 22 (F64), where every later text is in exponent notation
 * (fixed would need x - 1 < pmax) */
static void fmt_shortest(Sb *b, double v, int pmax, int (*rt)(const char *s, double v))
{
	char best[40] = "", tmp[40];
	size_t bl = 0;
	int lb = -1;

	for (int p = 1; p <= pmax; p++) {
		size_t l;
		snprintf(tmp, sizeof tmp, "%.*g", p, v);
		if (!rt(tmp, v))
			continue;
		l = strlen(tmp);
		if (!best[0] || l < bl) {
			strcpy(best, tmp);
			bl = l;
		}
		if (lb < 0) {                               /* p is p0 */
			int s = signbit(v) != 0, x = text_exp(tmp), fix, ex = s + p + (p > 1) + 4;
			if (x < 0)
				fix = s + 1 - x + p;
			else
				fix = s + (p > x + 1 ? p + 1 : x + 1);
			lb = fix < ex ? fix : ex;
		}
		if ((int)bl <= lb)
			break;
	}
	sb_str(b, best);
}

static int reads_f32(const char *s, double v)
{
	float g = strtof(s, NULL), f = (float)v;

	return !memcmp(&g, &f, sizeof f);
}

static int reads_f64(const char *s, double v)
{
	double g = strtod(s, NULL);

	return !memcmp(&g, &v, sizeof v);
}

static void fmt_f32(Sb *b, uint32_t bits)
{
	float f;

	memcpy(&f, &bits, sizeof f);
	if (isnan(f))
		sbf(b, "0f%08X", (unsigned)bits);
	else if (isinf(f))
		sbf(b, "%sINF", f < 0 ? "-" : "+");
	else
		fmt_shortest(b, f, 9, reads_f32);
}

static void fmt_f64(Sb *b, uint64_t bits)
{
	double f;

	memcpy(&f, &bits, sizeof f);
	if (isnan(f))
		sbf(b, "0d%016llX", (unsigned long long)bits);
	else if (isinf(f))
		sbf(b, "%sINF", f < 0 ? "-" : "+");
	else
		fmt_shortest(b, f, 17, reads_f64);
}

/* signed hex: 0x1f, -0x4 */
static void fmt_hex(Sb *b, int64_t v)
{
	if (v < 0)
		sb_ch(b, '-');
	sb_put(b, "0x", 2);
	sb_hex(b, v < 0 ? -(uint64_t)v : (uint64_t)v, 1);
}

static void fmt_reg(Sb *b, int r)
{
	if (r == ISA_RZ) {
		sb_put(b, "RZ", 2);
		return;
	}
	sb_ch(b, 'R');
	sb_dec(b, r);
}

/* register + offset inside brackets: R2, R2+0x10, R2-0x4, 0x10 */
static void fmt_regoff(Sb *b, int reg, int64_t off)
{
	if (reg == ISA_RZ) {
		fmt_hex(b, off);
		return;
	}
	fmt_reg(b, reg);
	if (off > 0)
		sb_ch(b, '+');
	if (off)
		fmt_hex(b, off);
}

static void fmt_opd(Sb *b, const Kernel *k, const Ins *in, int slot)
{
	const Opd *o = &in->o[slot];
	int neg = o->flags & OPF_NEG, abs_ = o->flags & OPF_ABS, not_ = o->flags & OPF_NOT;
	int fb;

	if (o->kind == OPD_REG || o->kind == OPD_CONST) {
		if (neg)
			sb_ch(b, '-');
		if (not_)
			sb_ch(b, '~');
		if (abs_)
			sb_ch(b, '|');
	}
	switch ((OpdKind)o->kind) {
	case OPD_REG:
		fmt_reg(b, o->reg);
		if (o->flags & OPF_SEL) {
			int sel = (o->flags & OPF_SEL) >> OPF_SEL_SHIFT;
			sb_put(b, sel >= 5 ? ".H" : ".B", 2);
			sb_dec(b, sel >= 5 ? sel - 5 : sel - 1);
		}
		if (o->flags & OPF_REL) {
			sb_ch(b, ' ');
			fmt_hex(b, o->imm);
		}
		break;
	case OPD_PRED:
		if (not_)
			sb_ch(b, '!');
		if (o->reg == ISA_PT)
			sb_put(b, "PT", 2);
		else if (o->reg == ISA_PR)
			sb_put(b, "PR", 2);
		else {
			sb_ch(b, 'P');
			sb_dec(b, o->reg);
		}
		break;
	case OPD_IMM:
		fb = isa_imm_float_bits(in, slot);
		if (fb == 32)
			fmt_f32(b, (uint32_t)o->imm);
		else if (fb == 64)
			fmt_f64(b, (uint64_t)o->imm);
		else
			fmt_hex(b, o->imm);
		break;
	case OPD_CONST:
		sb_put(b, "c[0x", 4);
		sb_hex(b, o->bank, 1);
		sb_put(b, "][", 2);
		fmt_regoff(b, o->reg, o->imm);
		sb_ch(b, ']');
		break;
	case OPD_MEM:
		sb_ch(b, '[');
		fmt_regoff(b, o->reg, o->imm);
		sb_ch(b, ']');
		break;
	case OPD_SREG:
		sb_str(b, isa_sreg_name((SReg)o->imm));
		break;
	case OPD_TARGET:
		fmt_hex(b, o->imm);
		break;
	case OPD_TLIST:
		sb_ch(b, '{');
		for (int i = 0; i < o->n; i++) {
			int64_t j = o->imm + i;
			if (i)
				sb_put(b, ", ", 2);
			if (k && j >= 0 && j < k->ntl)
				fmt_hex(b, k->tl[j]);
			else
				sb_ch(b, '?');
		}
		sb_ch(b, '}');
		break;
	case OPD_CC:
		sb_put(b, "CC.", 3);
		sb_str(b, isa_cct_name((CCTest)o->imm));
		break;
	case OPD_NONE:
		break;
	}
	if ((o->kind == OPD_REG || o->kind == OPD_CONST) && abs_)
		sb_ch(b, '|');
}

/* modifiers in the canonical order: E, SUB, CMP, dtype, stype, flags, RND, BOP, BOP2, S */
static void fmt_mods(Sb *b, const Ins *in)
{
	const Mods *m = &in->m;

	if (m->flags & MF_E)
		sb_put(b, ".E", 2);
	if (m->sub)
		sb_mod(b, isa_sub_name((Sub)m->sub));
	if (m->cmp)
		sb_mod(b, isa_cmp_name((Cmp)m->cmp));
	/* ptxas's order for the video instructions: VMNMX.UD.U8.U8.MX.SAT.MIN */
	if (m->flags & (MF_UD | MF_SD))
		sb_put(b, m->flags & MF_UD ? ".UD" : ".SD", 3);
	if (m->dtype)
		sb_mod(b, isa_type_name((Type)m->dtype));
	if (m->stype)
		sb_mod(b, isa_type_name((Type)m->stype));
	if (m->flags & MF_MX)
		sb_put(b, ".MX", 3);
	/* the other flags, lowest bit first (those set, not every bit) */
	for (uint32_t fl = m->flags & ((1u << ISA_NFLAGS) - 1) & ~(uint32_t)(MF_E | MF_UD | MF_SD | MF_MX);
	     fl; fl &= fl - 1)
		sb_mod(b, isa_flag_name(__builtin_ctz(fl)));
	if (m->rnd)
		sb_mod(b, isa_rnd_name((Rnd)m->rnd));
	if (m->bop)
		sb_mod(b, isa_bop_name((Bop)m->bop));
	if (m->bop2)
		sb_mod(b, isa_bop_name((Bop)m->bop2));
	if (in->sync)
		sb_put(b, ".S", 2);
}

static void fmt_guard(Sb *b, const Ins *in)
{
	if (in->guard == ISA_PT && !in->gneg)
		return;
	sb_put(b, "@!", in->gneg ? 2 : 1);
	if (in->guard == ISA_PT)
		sb_put(b, "PT ", 3);
	else {
		sb_ch(b, 'P');
		sb_dec(b, in->guard);
		sb_ch(b, ' ');
	}
}

int isa_format_ins(char *buf, size_t size, const Kernel *k, const Ins *in)
{
	Sb b = {buf, size, 0};
	int first = 1;

	if (size)
		buf[0] = 0;
	if (in->op >= OP_COUNT) {
		sb_put(&b, "?;", 2);
		return (int)b.n;
	}
	fmt_guard(&b, in);
	sb_str(&b, isa_ops[in->op].name);
	fmt_mods(&b, in);
	for (int i = 0; i < in->nopd && i < ISA_MAXOPD; i++) {
		if (in->o[i].kind == OPD_NONE)
			continue;
		if (!first)
			sb_ch(&b, ',');
		sb_ch(&b, ' ');
		first = 0;
		fmt_opd(&b, k, in, i);
	}
	sb_ch(&b, ';');
	return (int)b.n;
}

/* a kernel's instruction and label lines, gathered and written a block at a time */
typedef struct {
	FILE *f;          /* where they go */
	size_t n;         /* bytes gathered in buf */
	char buf[16384];
} Out;

static void out_flush(Out *o)
{
	fwrite(o->buf, 1, o->n, o->f);
	o->n = 0;
}

static void out_put(Out *o, const char *s, size_t len)
{
	if (o->n + len > sizeof o->buf)
		out_flush(o);
	if (len > sizeof o->buf) {
		fwrite(s, 1, len, o->f);
		return;
	}
	memcpy(o->buf + o->n, s, len);
	o->n += len;
}

/* the offset of the instruction's text in print_ins's line: room before it for the address
 * field (8 spaces, the comment around at most 8 hex digits: 20 bytes) and the padding (24 at
 * most) */
#define LINE_AT 48

/* one instruction line: guards right-aligned in a 5-column field so opcodes line up; the
 * text is formatted at LINE_AT, the address and the padding put before it, and the line
 * written at once */
static void print_ins(Out *o, const Kernel *k, const Ins *in)
{
	char buf[512], *line = buf, *text, head[24];
	size_t room = sizeof buf - LINE_AT - 1, at;   /* (-1: the newline) */
	int n = isa_format_ins(buf + LINE_AT, room, k, in), glen = 0, pad;
	Sb h = {head, sizeof head, 0};

	if ((size_t)n >= room) {
		line = isa_xrealloc(NULL, LINE_AT + (size_t)n + 2);
		isa_format_ins(line + LINE_AT, (size_t)n + 1, k, in);
	}
	text = line + LINE_AT;
	if (text[0] == '@')
		glen = (int)(strchr(text, ' ') - text) + 1;
	pad = 19 + (glen < 5 ? 5 - glen : 0);
	sb_put(&h, "        /*", 10);
	sb_hex(&h, (unsigned)in->addr, 4);
	sb_put(&h, "*/", 2);
	at = LINE_AT - h.n - (size_t)pad;
	memcpy(line + at, head, h.n);
	memset(line + at + h.n, ' ', (size_t)pad);
	text[n] = '\n';
	out_put(o, line + at, LINE_AT - at + (size_t)n + 1);
	if (line != buf)
		free(line);
}

/* " =" and the n bytes as " %02x" each, written a chunk at a time */
static void print_bytes(FILE *f, const uint8_t *p, uint64_t n)
{
	char buf[3 * 256];
	size_t k = 0;

	fputs(" =", f);
	for (uint64_t i = 0; i < n; i++) {
		buf[k++] = ' ';
		buf[k++] = hexdig[p[i] >> 4];
		buf[k++] = hexdig[p[i] & 15];
		if (k == sizeof buf) {
			fwrite(buf, 1, k, f);
			k = 0;
		}
	}
	fwrite(buf, 1, k, f);
}

static void print_header(FILE *f, const Kernel *k)
{
	fprintf(f, ".kernel %s\n", k->name ? k->name : "?");
	if (k->arch)
		fprintf(f, ".arch sm_%d\n", k->arch);
	if (k->layout)
		fprintf(f, ".layout sm_%d\n", k->layout);
	if (k->regs)
		fprintf(f, ".registers %d\n", k->regs);
	if (k->shared)
		fprintf(f, ".shared 0x%x\n", (unsigned)k->shared);
	if (k->local)
		fprintf(f, ".local 0x%x\n", (unsigned)k->local);
	if (k->spill)
		fprintf(f, ".spill 0x%x\n", (unsigned)k->spill);
	for (int i = 0; i < k->nparams; i++) {
		const Param *p = &k->params[i];
		fprintf(f, ".param 0x%x %u%s%s\n", (unsigned)p->offset, (unsigned)p->size,
		        p->name ? " " : "", p->name ? p->name : "");
	}
	for (int i = 0; i < k->ntex; i++)
		fprintf(f, ".tex %s\n", k->tex[i]);
	for (int i = 0; i < k->nsurf; i++)
		fprintf(f, ".surf %s\n", k->surf[i]);
	for (int i = 0; i < k->nkref; i++)
		fprintf(f, ".kref %s\n", k->kref[i]);
	for (int i = 0; i < k->nglobals; i++) {
		const GlobalVar *g = &k->globals[i];
		fprintf(f, ".global %s %llu %u", g->name, (unsigned long long)g->size, (unsigned)g->align);
		if (g->bank != ISA_NOSLOT)
			fprintf(f, " c[0x%x][0x%x]", g->bank, (unsigned)g->slot);
		if (g->init)
			print_bytes(f, g->init, g->size);
		fprintf(f, "\n");
	}
	for (int i = 0; i < k->nrelocs; i++) {
		const GlobalReloc *r = &k->relocs[i];
		fprintf(f, ".reloc %s 0x%llx %s %lld\n", k->globals[r->var].name, (unsigned long long)r->off,
		        k->globals[r->target].name, (long long)r->addend);
	}
	for (int i = 0; i < k->nabs32; i++)
		fprintf(f, ".abs32 0x%x %s %s\n", (unsigned)k->abs32[i].addr, k->abs32[i].hi ? "hi" : "lo",
		        k->globals[k->abs32[i].var].name);
	for (int i = 0; i < k->ncdata; i++) {
		const ConstData *c = &k->cdata[i];
		fprintf(f, ".constdata c[0x%x][0x%x]", c->bank, (unsigned)c->offset);
		if (c->name)
			fprintf(f, " .align %u %s %s", (unsigned)c->align, c->type ? c->type : ".b8",
			        c->name);
		print_bytes(f, c->bytes, c->size);
		fprintf(f, "\n");
	}
	if (k->maxntid)
		fprintf(f, ".maxntid %u\n", (unsigned)k->maxntid);
	if (k->reqntid[0])
		fprintf(f, ".reqntid %u %u %u\n", (unsigned)k->reqntid[0], (unsigned)k->reqntid[1],
		        (unsigned)k->reqntid[2]);
	if (k->minctas)
		fprintf(f, ".minnctapersm %u\n", (unsigned)k->minctas);
}

static void print_label(Out *o, const Label *l)
{
	size_t n = strlen(l->name);

	if (l->kind == LBL_FUNC) {
		out_put(o, ".func ", 6);
		out_put(o, l->name, n);
		out_put(o, "\n", 1);
	} else {
		out_put(o, l->name, n);
		out_put(o, ":\n", 2);
	}
}

void isa_print_kernel(FILE *f, const Kernel *k)
{
	Out out, *o = &out;
	int li = 0;

	o->f = f;
	o->n = 0;
	print_header(f, k);
	for (int i = 0; i < k->nins; i++) {
		while (li < k->nlabels && k->labels[li].addr <= k->ins[i].addr)
			print_label(o, &k->labels[li++]);
		print_ins(o, k, &k->ins[i]);
	}
	while (li < k->nlabels)
		print_label(o, &k->labels[li++]);
	out_flush(o);
}

void isa_print_prog(FILE *f, const Prog *p)
{
	for (int i = 0; i < p->nk; i++) {
		if (i)
			fprintf(f, "\n");
		isa_print_kernel(f, &p->k[i]);
	}
}
