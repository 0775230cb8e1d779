/* asm.c - the listing parser (assembler): text -> Prog. Reads what print.c writes, plus
 * instructions without the address comment, LABEL: lines, labels as targets, comments.
 *
 *   listing   := line*
 *   line      := directive | {LABEL ':'} {stmt}
 *   stmt      := [/\*hex*\/] [guard] OPCODE{.mod} [operand {',' operand}] ';'
 *   guard     := '@' ['!'] (Pn | PT)
 *
 * Syntax is checked here (directives and the end of a kernel in asm_dir.c, operands in
 * asm_opd.c); everything else (modifier rules, operand classes, registers, pairs, targets)
 * by isa_ins_check() at the end of each kernel, whose "where" becomes a column.
 * Diagnostics are printed sorted by position.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"

/* ------------------------------------------------------------------ name tables */
/* The opcode and modifier tables are hashed once, at the first isa_asm (build_tables, under
 * pthread_once: a program may parse listings on several threads), so that a statement looks
 * each word up once instead of scanning every row with strlen and memcmp: a text maps to the
 * first row that has it, and rows of the same text are chained in table order, so every
 * lookup finds what the scan in table order found. */
#define NH_SLOTS 512      /* a power of two, more than twice the rows of either table */

typedef struct {
	const char *s;    /* the text, NULL for an empty slot */
	size_t n;         /* its length */
	int row;          /* the first row of that text */
} NhSlot;

/* FNV-1a: one byte at a time, so the hash of each prefix of a word comes on the way */
#define NH_SEED 2166136261u
static uint32_t nh_step(uint32_t h, unsigned char c)
{
	return (h ^ c) * 16777619u;
}

static uint32_t nh_hash(const char *s, size_t n)
{
	uint32_t h = NH_SEED;

	for (size_t i = 0; i < n; i++)
		h = nh_step(h, (unsigned char)s[i]);
	return h;
}

/* the first row of text s[0..n) whose hash is h, or -1 */
static int nh_find(const NhSlot *t, uint32_t h, const char *s, size_t n)
{
	for (uint32_t i = h & (NH_SLOTS - 1);; i = (i + 1) & (NH_SLOTS - 1)) {
		if (!t[i].s)
			return -1;
		if (t[i].n == n && !memcmp(t[i].s, s, n))
			return t[i].row;
	}
}

/* adds row (text s) unless an earlier row has the same text; returns the first row of it */
static int nh_add(NhSlot *t, const char *s, int row)
{
	size_t n = strlen(s);
	uint32_t i = nh_hash(s, n) & (NH_SLOTS - 1);

	for (;; i = (i + 1) & (NH_SLOTS - 1)) {
		if (!t[i].s) {
			t[i].s = s;
			t[i].n = n;
			t[i].row = row;
			return row;
		}
		if (t[i].n == n && !memcmp(t[i].s, s, n))
			return t[i].row;
	}
}

/* ------------------------------------------------------------------ modifiers */
/* the mods.def rows: token, field, value */
enum { FLD_SUB, FLD_CMP, FLD_BOP, FLD_TYPE, FLD_RND, FLD_FLAG };
static const struct {
	const char *tok;  /* modifier text */
	int field;        /* FLD_ */
	unsigned val;     /* value in that field (MF_ bit for FLD_FLAG) */
} mods[] = {
#define MOD(tok, field, val) {tok, FLD_##field, val},
#include "isa/mods.def"
};
#define NMODS ((int)(sizeof mods / sizeof mods[0]))
_Static_assert(2 * NMODS < NH_SLOTS, "isa/asm.c: NH_SLOTS too small for mods.def");

static NhSlot mod_hash[NH_SLOTS];
static int mod_next[NMODS];       /* the next row of the same token, or -1 */

static void build_mods(void)
{
	int last[NMODS];

	for (int i = 0; i < NMODS; i++) {
		int first = nh_add(mod_hash, mods[i].tok, i);
		mod_next[i] = -1;
		if (first != i)
			mod_next[last[first]] = i;
		last[first] = i;
	}
}

/* the first mods.def row of token s[0..n), or -1; mod_next[] gives the others in order */
static int mod_first(const char *s, size_t n)
{
	return nh_find(mod_hash, nh_hash(s, n), s, n);
}

/* the modifier's text as messages quote it */
static const char *mod_text(char *buf, size_t size, const char *s, size_t n)
{
	snprintf(buf, size, "%.*s", (int)(n < 40 ? n : 40), s);
	return buf;
}

/* fills one modifier; the first row whose field the op accepts wins (mods.def) */
static void set_mod(Asm *a, Ins *in, InsLoc *l, const char *s, size_t n, int col)
{
	uint32_t acc = isa_ops[in->op].mods;
	int known = 0;
	char buf[48];

	if (n == 1 && s[0] == 'S') {
		if (in->sync)
			goto dup;
		in->sync = 1;
		l->col_sync = col;
		return;
	}
	for (int i = mod_first(s, n); i >= 0; i = mod_next[i]) {
		unsigned v = mods[i].val;
		known = 1;
		switch (mods[i].field) {
		case FLD_SUB:
			if (!(acc & M_SUB))
				continue;
			if (in->m.sub)
				goto dup;
			in->m.sub = (uint8_t)v;
			l->col_sub = col;
			return;
		case FLD_CMP:
			if (!(acc & M_CMP))
				continue;
			if (in->m.cmp)
				goto dup;
			in->m.cmp = (uint8_t)v;
			l->col_cmp = col;
			return;
		case FLD_BOP:
			if (!(acc & M_BOP))
				continue;
			if (!in->m.bop) {
				in->m.bop = (uint8_t)v;
				l->col_bop = col;
			} else if ((acc & M_BOP2) && !in->m.bop2) {
				in->m.bop2 = (uint8_t)v;
				l->col_bop2 = col;
			} else {
				goto dup;
			}
			return;
		case FLD_TYPE:
			if (!(acc & M_TYPE))
				continue;
			if (!in->m.dtype) {
				in->m.dtype = (uint8_t)v;
				l->col_dtype = col;
			} else if (!in->m.stype) {
				in->m.stype = (uint8_t)v;
				l->col_stype = col;
			} else {
				isa_asm_error_at(&a->x, a->x.line, a->x.ls, col, "too many type modifiers");
			}
			return;
		case FLD_RND:
			if (!(acc & M_RND))
				continue;
			if (in->m.rnd)
				goto dup;
			in->m.rnd = (uint8_t)v;
			l->col_rnd = col;
			return;
		case FLD_FLAG: {
			int b = __builtin_ctz(v);
			if (!(acc & ((uint32_t)M_CC << b)))
				continue;
			if (in->m.flags & v)
				goto dup;
			in->m.flags |= v;
			l->col_flag[b] = col;
			return;
		}
		}
	}
	if (known)
		isa_asm_error_at(&a->x, a->x.line, a->x.ls, col, "%s does not take .%s",
		             isa_ops[in->op].name, mod_text(buf, sizeof buf, s, n));
	else
		isa_asm_error_at(&a->x, a->x.line, a->x.ls, col, "unknown modifier '.%s'",
		             mod_text(buf, sizeof buf, s, n));
	return;
dup:
	isa_asm_error_at(&a->x, a->x.line, a->x.ls, col, "modifier '.%s' conflicts with an earlier one",
	             mod_text(buf, sizeof buf, s, n));
}

/* ------------------------------------------------------------------ opcodes */
_Static_assert(2 * OP_COUNT < NH_SLOTS, "isa/asm.c: NH_SLOTS too small for ops.def");
static NhSlot op_hash[NH_SLOTS];
static size_t op_maxlen;          /* the longest mnemonic */

static void build_ops(void)
{
	for (int i = 0; i < OP_COUNT; i++) {
		size_t m = strlen(isa_ops[i].name);
		nh_add(op_hash, isa_ops[i].name, i);
		if (m > op_maxlen)
			op_maxlen = m;
	}
}

static void build_tables(void)
{
	build_mods();
	build_ops();
}

/* the op of the longest mnemonic that is s[0..p) with p = n or s[p] = '.' (the first op of
 * that mnemonic), its length in *len; -1 when none is */
static int op_longest(const char *s, size_t n, size_t *len)
{
	uint32_t h = NH_SEED;
	int op = -1;

	for (size_t p = 0; p < n && p < op_maxlen; ) {
		int i;
		h = nh_step(h, (unsigned char)s[p++]);
		if ((p == n || s[p] == '.') && (i = nh_find(op_hash, h, s, p)) >= 0) {
			op = i;
			*len = p;
		}
	}
	return op;
}

/* OPCODE{.mod}: the longest mnemonic that prefixes the word at a dot boundary, or a Kepler
 * mnemonic of asm_sass.c (*fix says how to read its operands). Under isa_asm_opaque, an
 * opcode it does not know or support sets *skip and returns 0 with no error */
static int parse_opcode(Asm *a, Tok t, Ins *in, InsLoc *l, int *fix, int *skip)
{
	const char *s = a->x.text + t.s;
	size_t n = t.e - t.s, best = 0;
	int op = isa_asm_alias(s, n, &best, fix);
	char buf[48];

	if (op < 0)
		op = op_longest(s, n, &best);
	if (op < 0 && a->opaque) {
		*skip = 1;
		return 0;
	}
	if (op < 0) {
		size_t w = 0;
		while (w < n && s[w] != '.')
			w++;
		isa_asm_error(&a->x, t, "unknown opcode '%.*s'", (int)(w < 40 ? w : 40),
		          isa_asm_text(&a->x, t, buf, sizeof buf));
		return 0;
	}
	in->op = (uint16_t)op;
	l->col_op = isa_asm_col(&a->x, t.s);
	for (size_t p = best; p < n;) {
		size_t q = p + 1;
		while (q < n && s[q] != '.')
			q++;
		if (q == p + 1) {
			isa_asm_error_at(&a->x, a->x.line, a->x.ls, isa_asm_col(&a->x, t.s + p), "empty modifier");
			return 0;
		}
		/* sm_35's TEX/TLD .T and .P (a scheduling bit of the fetch: no effect on what it
		 * returns), .NODEP (run by live lanes only, not by a pixel quad's helpers: every
		 * lane of a kernel is live) and TEX/TLD.LZ (mipmap level zero, the only level a
		 * binding has) */
		if ((op == OP_TEX || op == OP_TLD) && ((q - p - 1 == 1 && (s[p + 1] == 'T' || s[p + 1] == 'P')) ||
		                                       (q - p - 1 == 5 && !memcmp(s + p + 1, "NODEP", 5)))) {
			p = q;
			continue;
		}
		if ((op == OP_TLD || op == OP_TEX) && q - p - 1 == 2 && !memcmp(s + p + 1, "LZ", 2)) {
			l->col_lz = isa_asm_col(&a->x, t.s + p + 1);
			p = q;
			continue;
		}
		/* sm_35's CSETP.test.bop d0, d1, CC, c: the test belongs to the operand CC */
		if (op == OP_CSETP) {
			int i;
			for (i = 0; i < CCT_COUNT; i++)
				if (q - p - 1 == strlen(isa_cct_name((CCTest)i)) &&
				    !memcmp(s + p + 1, isa_cct_name((CCTest)i), q - p - 1))
					break;
			if (i < CCT_COUNT) {
				if (l->cct) {
					isa_asm_error_at(&a->x, a->x.line, a->x.ls, isa_asm_col(&a->x, t.s + p + 1),
					                 "CSETP has two CC tests");
					return 0;
				}
				l->cct = i + 1;
				l->col_cct = isa_asm_col(&a->x, t.s + p + 1);
				p = q;
				continue;
			}
		}
		/* sm_35's TEX.B/TLD.B: a bindless fetch whose 32-bit handle is the register before
		 * the coordinates (the index operand is 0x0), not TLD4's channel .B */
		if ((op == OP_TEX || op == OP_TLD) && q - p - 1 == 1 && s[p + 1] == 'B') {
			if (a->opaque) {
				*skip = 1;
				return 0;
			}
			isa_asm_error_at(&a->x, a->x.line, a->x.ls, isa_asm_col(&a->x, t.s + p + 1),
			                 "%s.B (a fetch through a texture handle in the register before the "
			                 "coordinates) is not supported", op == OP_TEX ? "TEX" : "TLD");
			return 0;
		}
		/* TLD.AOFFI is a flag modifier (integer texel offsets); TEX's offsets would move a
		 * filtered sample's texels, which the sampler does not model */
		if (op == OP_TEX && q - p - 1 == 5 && !memcmp(s + p + 1, "AOFFI", 5)) {
			isa_asm_error_at(&a->x, a->x.line, a->x.ls, isa_asm_col(&a->x, t.s + p + 1),
			             "TEX.AOFFI (texel offsets of a filtered fetch) is not supported");
			return 0;
		}
		set_mod(a, in, l, s + p + 1, q - p - 1, isa_asm_col(&a->x, t.s + p + 1));
		p = q;
	}
	return 1;
}

/* ------------------------------------------------------------------ instructions */
/* sm_35's geometry operand of TEX/TLD as cuobjdump prints it, and the modifiers it stands for:
 * the sub (1D, 2D, 3D, CUBE) and whether it is an array (ARRAY_1D, ARRAY_2D, ARRAY_CUBE) */
static const struct { const char *name, *sub; int array; } sass_geoms[] = {
	{"1D", "1D", 0}, {"2D", "2D", 0}, {"3D", "3D", 0}, {"CUBE", "CUBE", 0},
	{"ARRAY_1D", "1D", 1}, {"ARRAY_2D", "2D", 1}, {"ARRAY_CUBE", "CUBE", 1},
};

/* the sass_geoms row of token t, or -1 */
static int geom_of(const Lex *x, Tok t)
{
	if (t.kind != TK_NUM && t.kind != TK_IDENT)
		return -1;
	for (int i = 0; i < (int)(sizeof sass_geoms / sizeof sass_geoms[0]); i++)
		if (strlen(sass_geoms[i].name) == (size_t)(t.e - t.s) &&
		    !memcmp(sass_geoms[i].name, x->text + t.s, (size_t)(t.e - t.s)))
			return i;
	return -1;
}

static int geom_tok(const Lex *x, Tok t)
{
	return geom_of(x, t) >= 0;
}

/* sm_35's `TEX d, a, IDX, GEOM, MASK` (cuobjdump): after IDX, reads ", GEOM, MASK"; the
 * geometry becomes the modifier, the channel mask (0x1..0xf: the enabled channels, packed
 * into d, d+1, ...) goes to *mask */
static int sass_tex_tail(Asm *a, Ins *in, InsLoc *l, int64_t *mask)
{
	Lex *x = &a->x;
	Tok g = isa_asm_next(x), m;
	int64_t v;
	char buf[48];

	int gi = geom_of(x, g);

	if (gi < 0) {
		isa_asm_error(x, g, "expected the geometry 1D, 2D, 3D, CUBE, ARRAY_1D, ARRAY_2D or ARRAY_CUBE "
		          "after the texture index of %s, got '%s'",
		          isa_ops[in->op].name, isa_asm_text(x, g, buf, sizeof buf));
		return 0;
	}
	if (in->m.sub || (in->m.flags & MF_ARRAY)) {
		isa_asm_error(x, g, "%s has its geometry both as a modifier and as an operand",
		          isa_ops[in->op].name);
		return 0;
	}
	set_mod(a, in, l, sass_geoms[gi].sub, strlen(sass_geoms[gi].sub), isa_asm_col(x, g.s));
	if (sass_geoms[gi].array)
		set_mod(a, in, l, "ARRAY", 5, isa_asm_col(x, g.s));
	if (!isa_asm_expect(a, ','))
		return 0;
	m = isa_asm_next(x);
	if (!isa_asm_int_value(a, m, 0, &v))
		return 0;
	if (v < 1 || v > 0xf) {
		isa_asm_error(x, m, "channel mask 0x%llx of %s: it must be 0x1 to 0xf",
		          (unsigned long long)v, isa_ops[in->op].name);
		return 0;
	}
	*mask = v;
	return 1;
}

/* the sm_35 form's IDX (a word of c[0x0]) to the slot whose `.tex NAME OFF` has OFF = IDX * 4 */
static int sass_tex_slot(Asm *a, Ins *in, const POpd *idx)
{
	Kernel *k = isa_asm_cur(a);
	Opd *o = &in->o[2];

	if (o->kind == OPD_IMM && o->imm >= 0 && o->imm <= 0x3fff)
		for (int i = 0; i < k->ntex && i < a->captexoff; i++)
			if (a->texoff[i] == (int32_t)(o->imm * 4)) {
				o->imm = i;
				return 1;
			}
	if (o->kind != OPD_IMM || o->imm < 0 || o->imm > 0x3fff) {
		isa_asm_error(&a->x, idx->t, "texture index of %s: a word of c[0x0] (0x0 to 0x3fff)",
		          isa_ops[in->op].name);
		return 0;
	}
	/* a 64-bit kernel parameter there: a bindless fetch through the texture object whose
	 * handle the parameter holds (PTX tex on a .u64 handle): TEXB/TLDB d, a, c[0x0][OFF] */
	for (int i = 0; i < k->nparams; i++)
		if (k->params[i].offset == (uint32_t)(o->imm * 4) && k->params[i].size == 8) {
			in->op = in->op == OP_TEX ? OP_TEXB : OP_TLDB;
			o->kind = OPD_CONST;
			o->bank = 0;
			o->reg = ISA_RZ;
			o->imm *= 4;
			return 1;
		}
	isa_asm_error(&a->x, idx->t, "texture index 0x%llx of %s: neither a '.tex NAME 0x%llx' of kernel %s "
	          "nor a 64-bit parameter (a texture object's handle) is at c[0x0][0x%llx]", (unsigned long long)o->imm,
	          isa_ops[in->op].name, (unsigned long long)o->imm * 4, k->name,
	          (unsigned long long)o->imm * 4);
	return 0;
}

/* puts the parsed operands into the shape's slots (optional slots may be skipped) */
static int assign(Asm *a, Ins *in, InsLoc *l, POpd *po, int npo, Tok end)
{
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
	const char *mn = isa_ops[in->op].name;
	int oi = 0;
	char buf[160], buf2[48];

	for (int s = 0; s < si->n; s++) {
		POpd *p;
		int fb;
		const char *words, *art;   /* the slot's classes in words, and their article */

		if (oi >= npo || !(po[oi].cls & si->classes[s])) {
			if (si->optional[s])
				continue;
			words = isa_asm_class_words(si->classes[s], buf, sizeof buf);
			art = words[0] && strchr("aeiou", words[0]) ? "an" : "a";
			if (oi < npo)
				isa_asm_error(&a->x, po[oi].t, "operand %d of %s must be %s %s, got '%s'", s + 1, mn,
				          art, words, isa_asm_text(&a->x, po[oi].t, buf2, sizeof buf2));
			else
				isa_asm_error(&a->x, end, "missing operand %d of %s (%s %s)", s + 1, mn, art, words);
			return 0;
		}
		p = &po[oi++];
		in->o[s] = p->o;
		in->nopd = (uint8_t)(s + 1);
		l->col_opd[s] = isa_asm_col(&a->x, p->t.s);
		if (p->cls == OC_T && p->label.e > p->label.s) {
			isa_asm_add_fixup(a, p->label, s, -1);
		} else if ((p->cls & OC_T) && (si->classes[s] & OC_T)) {
			in->o[s].kind = OPD_TARGET;
			if (!isa_asm_int_value(a, p->num, p->neg, &in->o[s].imm))
				return 0;
		} else if (p->o.kind == OPD_IMM && (fb = isa_imm_float_bits(in, s)) != 0) {
			if (!isa_asm_float_value(a, p, fb, &in->o[s].imm))
				return 0;
		} else if (p->o.kind == OPD_IMM) {
			if (p->inf || p->qnan) {
				isa_asm_error(&a->x, p->t, "%s is a float immediate; operand %d of %s is integer",
				          p->inf ? "INF" : "QNAN", s + 1, mn);
				return 0;
			}
			if (!isa_asm_int_value(a, p->num, p->neg, &in->o[s].imm))
				return 0;
		}
	}
	if (oi < npo) {
		isa_asm_error(&a->x, po[oi].t, "too many operands for %s (it takes %d)", mn, si->n);
		return 0;
	}
	return 1;
}

static void add_ins(Asm *a, Ins *in, const InsLoc *l, uint32_t at)
{
	Kernel *k = isa_asm_cur(a);

	if (k->nins >= a->caplocs) {
		a->caplocs = a->caplocs ? 2 * a->caplocs : 64;
		a->locs = isa_xrealloc(a->locs, (size_t)a->caplocs * sizeof *a->locs);
	}
	a->locs[k->nins] = *l;
	in->line = l->line;
	/* labels given for the next position move with it past a control slot */
	for (int i = 0; i < k->nlabels; i++)
		if (k->labels[i].addr == isa_kernel_next_addr(k) && at != k->labels[i].addr)
			k->labels[i].addr = at;
	isa_kernel_add_at(k, in, at);
}

/* skips the rest of a bad statement: through the next ';' or to the end of the line */
static void recover(Asm *a)
{
	for (;;) {
		Tok t = isa_asm_next(&a->x);
		if (t.kind == TK_EOL || (t.kind == TK_PUNCT && t.c == ';'))
			return;
	}
}

/* sm_35's CSETP.test.bop d0, d1, CC, c: the bare CC operand (read as a label) becomes the
 * test CC.test; a CC.test operand takes no test modifier beside it */
static int csetp_cc(Asm *a, InsLoc *l, POpd *po, int npo)
{
	POpd *c = npo >= 3 ? &po[2] : NULL;

	if (c && c->o.kind == OPD_TARGET && c->label.e - c->label.s == 2 &&
	    !memcmp(a->x.text + c->label.s, "CC", 2)) {
		if (!l->cct) {
			isa_asm_error(&a->x, c->label, "CSETP reads CC without a test (CSETP.NE ..., CC or CC.NE)");
			return 0;
		}
		c->o.kind = OPD_CC;
		c->o.imm = l->cct - 1;
		c->cls = OC_K;
		c->label.s = c->label.e = 0;
	} else if (l->cct) {
		isa_asm_error_at(&a->x, l->line, l->ls, l->col_cct,
		                 "CSETP has its CC test both as a modifier and as an operand");
		return 0;
	}
	return 1;
}

/* stmt := [/\*hex*\/] [guard] OPCODE{.mod} [operand {',' operand}] ';'
 * t: what isa_asm_addr() returned at the statement's start (the lexer is where it left it) */
static void parse_stmt(Asm *a, Tok t)
{
	Lex *x = &a->x;
	Kernel *k;
	Ins in;
	InsLoc l;
	POpd po[ISA_MAXOPD + 1];
	int npo = 0, ok = 0, semi = 0, fix = 0, sasstex = 0, jc, skip = 0;
	int64_t mask = 0xf;   /* sm_35 TEX/TLD channel mask */
	Tok end;
	uint32_t at;
	char buf[48];

	isa_ins_init(&in, OP_NOP);
	memset(&l, 0, sizeof l);
	l.line = x->line;
	l.ls = x->ls;
	l.col_op = l.col_guard = l.col_end = isa_asm_col(x, t.s);
	if (!isa_asm_cur(a) && a->p->nk == 0) {
		isa_asm_begin_anon(a, t);                  /* a bare fragment */
	}
	if (!isa_asm_cur(a)) {
		if (!a->outside)
			isa_asm_error(x, t, "instruction outside a kernel (start one with '.kernel NAME')");
		a->outside = 1;
		recover(a);
		return;
	}
	k = isa_asm_cur(a);
	at = isa_kernel_next_addr(k);
	if (t.kind == TK_ADDR) {
		uint64_t v = 0;
		for (size_t i = t.s + 2; i + 2 < t.e && i < t.s + 20; i++) {
			int c = (unsigned char)x->text[i];
			v = v << 4 | (uint64_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
		}
		isa_asm_place(a, k, t, v, &at);
		t = isa_asm_peek(x);
	}
	t = isa_asm_next(x);
	if (t.kind == TK_PUNCT && t.c == '@') {
		int neg = 0, p;
		l.col_guard = isa_asm_col(x, t.s);
		t = isa_asm_next(x);
		if (t.kind == TK_PUNCT && t.c == '!') {
			neg = 1;
			t = isa_asm_next(x);
		}
		p = t.kind == TK_IDENT ? isa_asm_pred_of(x->text + t.s, t.e - t.s) : -1;
		if (p < 0) {
			isa_asm_error(x, t, p == -2 ? "bad predicate '%s' (P0..P6 and PT)"
			          : "expected a predicate after '@', got '%s'", isa_asm_text(x, t, buf, sizeof buf));
			goto out;
		}
		in.guard = (uint8_t)p;
		in.gneg = (uint8_t)neg;
		t = isa_asm_next(x);
	}
	if (t.kind != TK_IDENT) {
		isa_asm_error(x, t, "expected an opcode, got '%s'", isa_asm_text(x, t, buf, sizeof buf));
		goto out;
	}
	if (!parse_opcode(a, t, &in, &l, &fix, &skip)) {
		if (skip) {        /* isa_asm_opaque: a NOP in its place, its guard kept */
			uint8_t g = in.guard, gn = in.gneg;
			isa_ins_init(&in, OP_NOP);
			in.guard = g;
			in.gneg = gn;
			recover(a);
			a->nopaque++;
			add_ins(a, &in, &l, at);
			return;
		}
		goto out;
	}
	end = isa_asm_peek(x);
	if (!(end.kind == TK_PUNCT && end.c == ';') && end.kind != TK_EOL) {
		for (;;) {
			if (npo == ISA_MAXOPD + 1) {
				isa_asm_error(x, isa_asm_peek(x), "too many operands");
				goto out;
			}
			if (!isa_asm_parse_operand(a, &po[npo++]))
				goto out;
			end = isa_asm_peek(x);
			/* Kepler's relative indirect branch: BRX R2 -0xc0 */
			if (npo == 1 && (in.op == OP_BRX || in.op == OP_JCAL) && po[0].o.kind == OPD_REG &&
			    (end.kind == TK_NUM || (end.kind == TK_PUNCT && end.c == '-'))) {
				int neg = end.kind == TK_PUNCT && (isa_asm_next(x), 1);
				if (!isa_asm_int_value(a, isa_asm_next(x), neg, &po[0].o.imm))
					goto out;
				po[0].o.flags |= OPF_REL;
				end = isa_asm_peek(x);
			}
			if (end.kind != TK_PUNCT || end.c != ',')
				break;
			isa_asm_next(x);
			if (npo == 3 && (in.op == OP_TEX || in.op == OP_TLD) && geom_tok(x, isa_asm_peek(x))) {
				if (!sass_tex_tail(a, &in, &l, &mask))
					goto out;
				sasstex = 1;
				break;
			}
		}
	}
	end = isa_asm_next(x);
	if (end.kind != TK_PUNCT || end.c != ';') {
		isa_asm_error(x, end, "expected ';' after the instruction, got '%s'",
		          isa_asm_text(x, end, buf, sizeof buf));
		goto out;
	}
	semi = 1;
	l.col_end = isa_asm_col(x, end.s);
	if (in.op == OP_CSETP && !csetp_cc(a, &l, po, npo))
		goto out;
	isa_asm_sass_pre(po, npo, &fix);
	jc = isa_asm_sass_jcal(a, &in, &l, po, npo);   /* an external function's call */
	ok = jc > 0 || (!jc && assign(a, &in, &l, po, npo, end) &&
	     isa_asm_sass_fix(a, &in, &l, po, npo, fix) && (!sasstex || sass_tex_slot(a, &in, &po[2])));
	if (ok && sasstex && mask != 0xf) {   /* fewer channels: the canonical fourth operand */
		in.o[3].kind = OPD_IMM;
		in.o[3].imm = mask;
		in.nopd = 4;
		l.col_opd[3] = l.col_opd[2];
	}
	/* sm_35's TLD without .LZ takes a level of detail among its sources, whose place beside
	 * the offsets no listing of ours shows */
	if (ok && sasstex && (in.m.flags & MF_AOFFI) && !l.col_lz) {
		isa_asm_error_at(x, l.line, l.ls, l.col_flag[__builtin_ctz(MF_AOFFI)],
		             "TLD.AOFFI without .LZ (offsets beside a level of detail) is not supported");
		ok = 0;
	}
out:
	if (!ok) {
		isa_ins_init(&in, OP_NOP);
		l.bad = 1;
		a->jcal.line = 0;          /* a bad statement takes a `.jcal` waiting for it */
		if (!semi)
			recover(a);
	}
	add_ins(a, &in, &l, at);
}

/* ------------------------------------------------------------------ lines */
static void parse_line(Asm *a)
{
	Lex *x = &a->x;

	for (;;) {
		Tok t = isa_asm_addr(x), u;
		if (t.kind == TK_EOL || x->stopped)
			return;
		if (isa_asm_sass_line(a, t))
			return;
		if (t.kind == TK_ADDR) {
			parse_stmt(a, t);
			continue;
		}
		if (t.kind == TK_IDENT && x->text[t.s] == '.') {
			size_t save = x->pos;
			isa_asm_next(x);
			u = isa_asm_peek(x);
			if (!(u.kind == TK_PUNCT && u.c == ':')) {
				isa_asm_directive(a, t);
				if (isa_asm_peek(x).kind != TK_EOL)
					recover(a);
				return;
			}
			x->pos = save;
		}
		if (t.kind == TK_IDENT) {
			size_t save = x->pos;
			isa_asm_next(x);
			u = isa_asm_next(x);
			if (u.kind == TK_PUNCT && u.c == ':') {
				Kernel *k = isa_asm_cur(a);
				char buf[64];
				if (!k && a->p->nk == 0) {
					k = isa_asm_begin_anon(a, t);   /* a bare fragment */
				}
				if (!k) {
					isa_asm_error(x, t, "label outside a kernel (start one with '.kernel NAME')");
					return;
				}
				if (isa_asm_reserved(x->text + t.s, t.e - t.s))
					isa_asm_error(x, t, "'%s' is a register or operand name, not a label",
					          isa_asm_text(x, t, buf, sizeof buf));
				else if (isa_kernel_find_label(k, isa_asm_text(x, t, buf, sizeof buf)) &&
				         t.e - t.s < sizeof buf)
					isa_asm_error(x, t, "label '%s' defined twice", buf);
				else {
					char *s = isa_asm_dup(a, t);
					isa_kernel_add_label(k, s, isa_kernel_next_addr(k), LBL_LOCAL);
					free(s);
				}
				continue;
			}
			x->pos = save;
		}
		parse_stmt(a, t);
	}
}

static Prog *assemble(const char *name, const char *text, size_t len, FILE *err, int *nopaque)
{
	static pthread_once_t tables = PTHREAD_ONCE_INIT;
	Asm a;

	pthread_once(&tables, build_tables);
	memset(&a, 0, sizeof a);
	a.opaque = nopaque != NULL;
	a.x.name = name ? name : "<listing>";
	a.x.text = text ? text : "";
	a.x.len = text ? len : 0;
	a.p = isa_prog_new();
	a.ki = -1;
	while (!a.x.stopped && isa_asm_next_line(&a.x))
		parse_line(&a);
	if (!a.x.stopped)
		isa_asm_end_kernel(&a);
	for (int i = 0; i < a.nfix; i++)
		free(a.fix[i].name);
	free(a.fix);
	free(a.locs);
	free(a.abs32at);
	free(a.texoff);
	if (nopaque)
		*nopaque = a.nopaque;
	if (a.x.ndiags) {
		isa_asm_flush(&a.x, err);
		isa_prog_free(a.p);
		return NULL;
	}
	isa_asm_flush(&a.x, err);
	return a.p;
}

Prog *isa_asm(const char *name, const char *text, size_t len, FILE *err)
{
	return assemble(name, text, len, err, NULL);
}

Prog *isa_asm_opaque(const char *name, const char *text, size_t len, FILE *err, int *nopaque)
{
	return assemble(name, text, len, err, nopaque);
}
