/* asm_opd.c - the listing parser's operands and numbers (asm.c has the statements).
 *
 *   operand   := [-][~]['|'] (Rn | RZ | c[b][regoff]) ['|'] | ['!'] Pn | [-]number | +INF | -INF
 *              | '[' regoff ']' | SR_x | CC.test | LABEL | '{' target {',' target} '}'
 *              | Rn.CC | PR | [+-]QNAN                 (cuobjdump's spellings: asm_sass.c)
 *   regoff    := Rn [('+'|'-') ['-'] number] | number
 *
 * Float immediates: decimal (strtof/strtod, exact), INF with a sign, or raw bits 0fXXXXXXXX
 * (32-bit) / 0dXXXXXXXXXXXXXXXX (64-bit).
 */
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"

Kernel *isa_asm_cur(Asm *a)
{
	return a->ki < 0 ? NULL : &a->p->k[a->ki];
}

char *isa_asm_dup(Asm *a, Tok t)
{
	char *s = isa_xrealloc(NULL, t.e - t.s + 1);

	memcpy(s, a->x.text + t.s, t.e - t.s);
	s[t.e - t.s] = 0;
	return s;
}

/* ------------------------------------------------------------------ names and numbers */
static int digits_only(const char *s, size_t n)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* value of n decimal digits (n <= 9, checked by callers) */
static long dec(const char *s, size_t n)
{
	long v = 0;

	for (size_t i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

/* register name: returns the number, ISA_RZ, -1 when it is not register-like,
 * -2 when it looks like a register but is out of range */
int isa_asm_reg_of(const char *s, size_t n)
{
	long v;

	if (n == 2 && s[0] == 'R' && s[1] == 'Z')
		return ISA_RZ;
	if (n < 2 || s[0] != 'R' || !digits_only(s + 1, n - 1))
		return -1;
	if (n > 5)
		return -2;
	v = dec(s + 1, n - 1);
	return v < ISA_NREGS ? (int)v : -2;
}

int isa_asm_pred_of(const char *s, size_t n)
{
	if (n == 2 && s[0] == 'P' && s[1] == 'T')
		return ISA_PT;
	if (n < 2 || s[0] != 'P' || !digits_only(s + 1, n - 1))
		return -1;
	if (n > 3)
		return -2;
	return dec(s + 1, n - 1) < ISA_NPREDS ? (int)dec(s + 1, n - 1) : -2;
}

int isa_asm_reserved(const char *s, size_t n)
{
	return isa_asm_reg_of(s, n) != -1 || isa_asm_pred_of(s, n) != -1 || (n >= 3 && !memcmp(s, "SR_", 3)) ||
	       (n >= 3 && !memcmp(s, "CC.", 3)) || (n == 3 && !memcmp(s, "INF", 3)) ||
	       (n == 2 && !memcmp(s, "PR", 2)) || (n == 4 && !memcmp(s, "QNAN", 4));
}

/* integer literal: 0x hex or decimal; *out gets -value when neg */
int isa_asm_int_value(Asm *a, Tok t, int neg, int64_t *out)
{
	const char *s = a->x.text + t.s;
	size_t n = t.e - t.s, i = 0;
	uint64_t v = 0;
	int base = 10;
	char buf[48];

	if (t.kind != TK_NUM) {
		isa_asm_error(&a->x, t, "expected a number, got '%s'", isa_asm_text(&a->x, t, buf, sizeof buf));
		return 0;
	}
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	for (; i < n; i++) {
		int c = (unsigned char)s[i], d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else {
			isa_asm_error(&a->x, t, "bad number '%s'", isa_asm_text(&a->x, t, buf, sizeof buf));
			return 0;
		}
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) {
			isa_asm_error(&a->x, t, "number '%s' is too large", isa_asm_text(&a->x, t, buf, sizeof buf));
			return 0;
		}
		v = v * (uint64_t)base + (uint64_t)d;
	}
	if (neg && v > (uint64_t)INT64_MAX + 1) {
		isa_asm_error(&a->x, t, "number '-%s' is too large", isa_asm_text(&a->x, t, buf, sizeof buf));
		return 0;
	}
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 1;
}

static int hex_bits(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
		        : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return 0;
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	return 1;
}

/* float literal for a float slot of the given width: decimal, INF or 0f/0d bits */
int isa_asm_float_value(Asm *a, const POpd *po, int bits, int64_t *out)
{
	const char *s = a->x.text + po->num.s;
	size_t n = po->num.e - po->num.s;
	uint64_t sign = bits == 32 ? 0x80000000u : 0x8000000000000000ull, v;
	char buf[64], *end;

	if (po->qnan) {
		*out = 0;     /* the bits come from the encoding comment (isa_asm_sass_fix) */
		return 1;
	}
	if (po->inf) {
		v = bits == 32 ? 0x7f800000u : 0x7ff0000000000000ull;
		*out = (int64_t)(po->neg ? v | sign : v);
		return 1;
	}
	if (n > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'd')) {
		if ((s[1] == 'f' ? 32 : 64) != bits || n != (size_t)(bits / 4 + 2) ||
		    !hex_bits(s + 2, n - 2, &v)) {
			isa_asm_error(&a->x, po->num, "bad float bits '%s' (write 0f and 8 hex digits for a "
			          "32-bit float, 0d and 16 for a 64-bit one)",
			          isa_asm_text(&a->x, po->num, buf, sizeof buf));
			return 0;
		}
		*out = (int64_t)(po->neg ? v ^ sign : v);
		return 1;
	}
	if (n > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		isa_asm_error(&a->x, po->num, "hex immediate for a float operand: write a decimal number "
		          "or the bits as 0f%s", bits == 32 ? "XXXXXXXX" : "...");
		return 0;
	}
	if (n >= sizeof buf - 1) {
		isa_asm_error(&a->x, po->num, "number too long");
		return 0;
	}
	buf[0] = '-';
	memcpy(buf + 1, s, n);
	buf[n + 1] = 0;
	for (size_t i = 1; i <= n; i++)
		if (!strchr("0123456789.eE+-", buf[i]))
			goto bad;
	if (bits == 32) {
		float f = strtof(buf + !po->neg, &end);
		uint32_t b;
		if (*end)
			goto bad;
		memcpy(&b, &f, sizeof b);
		*out = b;
	} else {
		double d = strtod(buf + !po->neg, &end);
		uint64_t b;
		if (*end)
			goto bad;
		memcpy(&b, &d, sizeof b);
		*out = (int64_t)b;
	}
	return 1;
bad:
	isa_asm_error(&a->x, po->num, "bad float number '%s'", isa_asm_text(&a->x, po->num, buf, 40));
	return 0;
}

/* ------------------------------------------------------------------ operands */
int isa_asm_expect(Asm *a, char c)
{
	Tok t = isa_asm_next(&a->x);
	char buf[48];

	if (t.kind == TK_PUNCT && t.c == c)
		return 1;
	isa_asm_error(&a->x, t, "expected '%c', got '%s'", c, isa_asm_text(&a->x, t, buf, sizeof buf));
	return 0;
}

/* regoff := Rn [('+'|'-') ['-'] number] | ['-'] number */
static int parse_regoff(Asm *a, int *reg, int64_t *off)
{
	Tok t = isa_asm_next(&a->x), u;
	int neg = 0;
	char buf[48];

	*reg = ISA_RZ;
	*off = 0;
	if (t.kind == TK_IDENT) {
		int r = isa_asm_reg_of(a->x.text + t.s, t.e - t.s);
		if (r < 0) {
			isa_asm_error(&a->x, t, r == -2 ? "bad register '%s' (R0..R254 and RZ)"
			          : "expected a register, got '%s'", isa_asm_text(&a->x, t, buf, sizeof buf));
			return 0;
		}
		*reg = r;
		u = isa_asm_peek(&a->x);
		if (u.kind != TK_PUNCT || (u.c != '+' && u.c != '-'))
			return 1;
		isa_asm_next(&a->x);
		neg = u.c == '-';
		t = isa_asm_next(&a->x);
	}
	if (t.kind == TK_PUNCT && t.c == '-') {
		neg = !neg;
		t = isa_asm_next(&a->x);
	}
	return isa_asm_int_value(a, t, neg, off);
}

/* c[bank][regoff] after the 'c' */
int isa_asm_parse_const(Asm *a, Opd *o)
{
	int64_t bank;
	int reg;
	Tok t;

	if (!isa_asm_expect(a, '['))
		return 0;
	t = isa_asm_next(&a->x);
	if (!isa_asm_int_value(a, t, 0, &bank))
		return 0;
	if (bank < 0 || bank > 255) {
		isa_asm_error(&a->x, t, "constant bank out of range");
		return 0;
	}
	if (!isa_asm_expect(a, ']') || !isa_asm_expect(a, '[') || !parse_regoff(a, &reg, &o->imm) || !isa_asm_expect(a, ']'))
		return 0;
	o->kind = OPD_CONST;
	o->bank = (uint8_t)bank;
	o->reg = (uint8_t)reg;
	return 1;
}

int isa_asm_add_fixup(Asm *a, Tok label, int slot, int tl)
{
	Fixup *f;

	if (a->nfix == a->capfix) {
		a->capfix = a->capfix ? 2 * a->capfix : 16;
		a->fix = isa_xrealloc(a->fix, (size_t)a->capfix * sizeof *a->fix);
	}
	f = &a->fix[a->nfix++];
	f->ins = isa_asm_cur(a)->nins;
	f->slot = slot;
	f->tl = tl;
	f->name = isa_xrealloc(NULL, label.e - label.s + 1);
	memcpy(f->name, a->x.text + label.s, label.e - label.s);
	f->name[label.e - label.s] = 0;
	f->line = a->x.line;
	f->ls = a->x.ls;
	f->col = isa_asm_col(&a->x, label.s);
	return 1;
}

/* '{' target {',' target} '}' after the '{'; labels become fixups */
static int parse_tlist(Asm *a, Opd *o)
{
	Kernel *k = isa_asm_cur(a);
	int n = 0;

	o->kind = OPD_TLIST;
	o->imm = k->ntl;
	for (;;) {
		Tok t = isa_asm_next(&a->x);
		uint32_t v = 0;
		int64_t iv = 0;
		char buf[48];

		if (t.kind == TK_IDENT && !isa_asm_reserved(a->x.text + t.s, t.e - t.s)) {
			isa_asm_add_fixup(a, t, -1, k->ntl);
		} else if (t.kind == TK_NUM) {
			if (!isa_asm_int_value(a, t, 0, &iv))
				return 0;
			if (iv < 0 || iv > 0xffffffffll) {
				isa_asm_error(&a->x, t, "target out of range");
				return 0;
			}
			v = (uint32_t)iv;
		} else {
			isa_asm_error(&a->x, t, "expected a target address or label, got '%s'",
			          isa_asm_text(&a->x, t, buf, sizeof buf));
			return 0;
		}
		isa_kernel_add_tlist(k, &v, 1);
		if (++n > 65535) {
			isa_asm_error(&a->x, t, "target list too long");
			return 0;
		}
		t = isa_asm_next(&a->x);
		if (t.kind == TK_PUNCT && t.c == '}')
			break;
		if (t.kind != TK_PUNCT || t.c != ',') {
			isa_asm_error(&a->x, t, "expected ',' or '}' in a target list, got '%s'",
			          isa_asm_text(&a->x, t, buf, sizeof buf));
			return 0;
		}
	}
	o->n = (uint16_t)n;
	return 1;
}

int isa_asm_parse_operand(Asm *a, POpd *po)
{
	Lex *x = &a->x;
	Tok t = isa_asm_next(x), u;
	int neg = 0, not_ = 0, bar = 0, bang = 0, sel = 0;
	char buf[48];

	memset(po, 0, sizeof *po);
	po->t = t;
	/* prefixes: '-' '~' '|' '!' ('+' only before INF) */
	if (t.kind == TK_PUNCT && t.c == '+') {
		t = isa_asm_next(x);
		if (!isa_asm_is(x, t, "INF") && !isa_asm_is(x, t, "QNAN")) {
			isa_asm_error(x, t, "expected INF after '+'");
			return 0;
		}
		po->inf = isa_asm_is(x, t, "INF");
		po->qnan = !po->inf;
		po->cls = OC_I;
		po->o.kind = OPD_IMM;
		return 1;
	}
	if (t.kind == TK_PUNCT && t.c == '-') {
		neg = 1;
		t = isa_asm_next(x);
	}
	if (t.kind == TK_PUNCT && t.c == '~' && !neg) {
		not_ = 1;
		t = isa_asm_next(x);
	}
	if (t.kind == TK_PUNCT && t.c == '|') {
		bar = 1;
		t = isa_asm_next(x);
	}
	if (t.kind == TK_PUNCT && t.c == '!' && !neg && !not_ && !bar) {
		bang = 1;
		t = isa_asm_next(x);
	}
	if (t.kind == TK_NUM && !not_ && !bar && !bang) {
		po->num = t;
		po->neg = neg;
		po->cls = OC_I | OC_T;
		po->o.kind = OPD_IMM;
		return 1;
	}
	if (t.kind == TK_PUNCT && t.c == '[' && !neg && !not_ && !bar && !bang) {
		int reg;
		if (!parse_regoff(a, &reg, &po->o.imm) || !isa_asm_expect(a, ']'))
			return 0;
		po->o.kind = OPD_MEM;
		po->o.reg = (uint8_t)reg;
		po->cls = OC_M;
		return 1;
	}
	if (t.kind == TK_PUNCT && t.c == '{' && !neg && !not_ && !bar && !bang) {
		po->cls = OC_L;
		return parse_tlist(a, &po->o);
	}
	if (t.kind != TK_IDENT) {
		isa_asm_error(x, t, "expected an operand, got '%s'", isa_asm_text(x, t, buf, sizeof buf));
		return 0;
	}
	{
		const char *s = x->text + t.s;
		size_t n = t.e - t.s;
		int r, p;

		if (n > 3 && !memcmp(s + n - 3, ".CC", 3) && isa_asm_reg_of(s, n - 3) >= 0) {
			po->cc = 1;       /* cuobjdump's "R2.CC": the op writes the condition code */
			n -= 3;
		}
		if (n > 3 && s[n - 3] == '.' && (s[n - 2] == 'B' || s[n - 2] == 'H') &&
		    s[n - 1] >= '0' && s[n - 1] <= (s[n - 2] == 'B' ? '3' : '1') &&
		    isa_asm_reg_of(s, n - 3) >= 0) {
			/* cuobjdump's "R11.B1", "R0.H1": VMAD's byte or half-word selector */
			sel = s[n - 2] == 'B' ? 1 + (s[n - 1] - '0') : 5 + (s[n - 1] - '0');
			n -= 3;
		}
		r = isa_asm_reg_of(s, n);
		p = isa_asm_pred_of(s, n);
		u = isa_asm_peek(x);
		if (n == 1 && s[0] == 'c' && u.kind == TK_PUNCT && u.c == '[') {
			if (!isa_asm_parse_const(a, &po->o))
				return 0;
			po->cls = OC_C;
		} else if (r == -2 || p == -2) {
			isa_asm_error(x, t, r == -2 ? "bad register '%s' (R0..R254 and RZ)"
			          : "bad predicate '%s' (P0..P6 and PT)", isa_asm_text(x, t, buf, sizeof buf));
			return 0;
		} else if (r >= 0) {
			po->o.kind = OPD_REG;
			po->o.reg = (uint8_t)r;
			po->cls = OC_R;
		} else if (p >= 0) {
			if (neg || not_ || bar) {
				isa_asm_error(x, po->t, "a predicate takes only '!'");
				return 0;
			}
			po->o.kind = OPD_PRED;
			po->o.reg = (uint8_t)p;
			po->o.flags = bang ? OPF_NOT : 0;
			po->cls = OC_P;
			return 1;
		} else if (n == 2 && !memcmp(s, "PR", 2) && !neg && !not_ && !bar && !bang) {
			po->o.kind = OPD_PRED;
			po->o.reg = ISA_PR;
			po->cls = OC_Q;
			return 1;
		} else if (((n == 3 && !memcmp(s, "INF", 3)) || (n == 4 && !memcmp(s, "QNAN", 4))) &&
		           !not_ && !bar && !bang) {
			po->inf = n == 3;
			po->qnan = n == 4;     /* cuobjdump's QNAN: bits from the encoding (asm_sass.c) */
			po->neg = neg;
			po->o.kind = OPD_IMM;
			po->cls = OC_I;
			return 1;
		} else if (n > 3 && !memcmp(s, "SR_", 3)) {
			int i;
			for (i = 0; i < SR_COUNT; i++)
				if (isa_asm_is(x, t, isa_sreg_name((SReg)i)))
					break;
			if (i == SR_COUNT) {
				isa_asm_error(x, t, "unknown special register '%s'", isa_asm_text(x, t, buf, sizeof buf));
				return 0;
			}
			po->o.kind = OPD_SREG;
			po->o.imm = i;
			po->cls = OC_S;
		} else if (n > 3 && !memcmp(s, "CC.", 3)) {
			int i;
			for (i = 0; i < CCT_COUNT; i++)
				if (n - 3 == strlen(isa_cct_name((CCTest)i)) &&
				    !memcmp(s + 3, isa_cct_name((CCTest)i), n - 3))
					break;
			if (i == CCT_COUNT) {
				isa_asm_error(x, t, "unknown CC test '%s'", isa_asm_text(x, t, buf, sizeof buf));
				return 0;
			}
			po->o.kind = OPD_CC;
			po->o.imm = i;
			po->cls = OC_K;
		} else {
			po->label = t;
			po->o.kind = OPD_TARGET;
			po->cls = OC_T;
		}
	}
	if (bang) {
		isa_asm_error(x, po->t, "'!' applies only to a predicate");
		return 0;
	}
	if ((neg || not_ || bar) && po->cls != OC_R && po->cls != OC_C) {
		isa_asm_error(x, po->t, "'-', '~' and '|...|' apply only to registers and constants");
		return 0;
	}
	if (bar && !isa_asm_expect(a, '|'))
		return 0;
	po->o.flags = (uint8_t)((neg ? OPF_NEG : 0) | (not_ ? OPF_NOT : 0) | (bar ? OPF_ABS : 0) |
	                        sel << OPF_SEL_SHIFT);
	return 1;
}
