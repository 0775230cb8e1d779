/* asm.h - internal interface of the listing parser: its lexer (asm_lex.c), operands
 * (asm_opd.c), directives and kernel ends (asm_dir.c) and statements (asm.c); each file calls
 * only those listed before it. Not part of the public isa.h API.
 */
#ifndef WARPSIM_ISA_ASM_H
#define WARPSIM_ISA_ASM_H

#include "isa/isa.h"

typedef enum {
	TK_EOL,    /* end of the line (or a // or # comment) */
	TK_IDENT,  /* [A-Za-z_$.][A-Za-z0-9_$.]* */
	TK_NUM,    /* a digit, then [A-Za-z0-9_.] (and a sign after an exponent e/E) */
	TK_PUNCT,  /* one character of , ; [ ] { } + - | ~ ! @ : = */
	TK_ADDR,   /* an address comment / *hex* / at the start of a statement */
	TK_BAD,    /* a character that starts no token */
} TokKind;

typedef struct {
	TokKind kind;  /* what it is */
	size_t s, e;   /* byte range [s, e) in the text */
	char c;        /* the character of a TK_PUNCT */
} Tok;

typedef struct {
	int line;       /* 1-based line */
	int col;        /* 1-based column */
	size_t ls;      /* offset of the line's first byte */
	int seq;        /* order of emission, to keep sorting stable */
	char *msg;      /* the message */
} Diag;

typedef struct {
	const char *name;  /* file name for messages */
	const char *text;  /* the listing */
	size_t len;        /* its length */
	size_t pos;        /* scanning position inside the current line */
	size_t ls, le;     /* current line's start and end (excluding the newline) */
	int line;          /* current line number */
	Diag *diags;       /* buffered diagnostics, printed sorted at the end */
	int ndiags, capdiags;
	int stopped;       /* too many errors: parsing stops */
	/* the last token scanned (isa_asm_scan): from cpos, it is ctok, ending at cend (an
	 * offset of the text is on one line, so cpos also says which); cvalid 0 when there is
	 * none to trust */
	int cvalid;
	size_t cpos, cend;
	Tok ctok;
} Lex;

#define ASM_MAXERRS 50

int isa_asm_next_line(Lex *x);                        /* 0 at end of text */
Tok isa_asm_scan(Lex *x, size_t *endpos);            /* the token at x->pos (remembered) */

/* the token scanned last is the one at x->pos */
static inline int isa_asm_kept(const Lex *x)
{
	return x->cvalid && x->cpos == x->pos;
}

/* the next token, left in place or taken; the one scanned last comes from memory */
static inline Tok isa_asm_peek(Lex *x)
{
	size_t save = x->pos, end;
	Tok k;

	if (isa_asm_kept(x))
		return x->ctok;
	k = isa_asm_scan(x, &end);
	x->pos = save;
	return k;
}

static inline Tok isa_asm_next(Lex *x)
{
	size_t end;
	Tok k;

	if (isa_asm_kept(x)) {
		x->pos = x->cend;
		return x->ctok;
	}
	k = isa_asm_scan(x, &end);
	x->pos = end;
	return k;
}

Tok isa_asm_addr(Lex *x);                             /* TK_ADDR when one starts here, else peek */
int isa_asm_col(const Lex *x, size_t off);            /* 1-based column of an offset on this line */
int isa_asm_is(const Lex *x, Tok t, const char *s);   /* token text equals s */
char *isa_asm_text(const Lex *x, Tok t, char *buf, size_t size); /* token text, truncated */
void isa_asm_error_at(Lex *x, int line, size_t ls, int col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void isa_asm_error(Lex *x, Tok t, const char *fmt, ...) /* at the token's column */
	__attribute__((format(printf, 3, 4)));
void isa_asm_flush(Lex *x, FILE *err);                /* prints and frees the diagnostics */

/* where the parts of one instruction were, for messages found after parsing */
typedef struct {
	int line;                 /* listing line */
	size_t ls;                /* offset of that line */
	int col_op, col_guard, col_sync, col_end;  /* opcode, guard, .S, ';' */
	int col_sub, col_cmp, col_bop, col_bop2, col_dtype, col_stype, col_rnd;
	int col_flag[ISA_NFLAGS];         /* each MF_ flag modifier */
	int col_opd[ISA_MAXOPD];  /* each operand slot */
	int bad;                  /* placeholder for an instruction with a syntax error */
	int col_lz;               /* sm_35's TLD.LZ (dropped: level zero is the only level), or 0 */
	int cct, col_cct;         /* sm_35's CSETP.test: CCTest + 1 (0: none) and its column */
} InsLoc;

/* a label used before it is known */
typedef struct {
	int ins;       /* instruction index */
	int slot;      /* operand slot of an OPD_TARGET, or -1 */
	int tl;        /* index in Kernel.tl of a target-list element, or -1 */
	char *name;    /* the label */
	int line;      /* where it was used */
	size_t ls;     /* that line's offset */
	int col;       /* its column */
} Fixup;

typedef struct {
	Lex x;             /* lexer and diagnostics */
	Prog *p;           /* program being built */
	int ki;            /* current kernel index, -1 before the first .kernel */
	InsLoc *locs;      /* per instruction of the current kernel */
	int caplocs;
	Fixup *fix;        /* pending label references of the current kernel */
	int nfix, capfix;
	unsigned seen;     /* header directives seen in this kernel (bits of dirs[]) */
	int outside;       /* "instruction outside a kernel" already reported */
	int sass_arch;     /* N of the last cuobjdump "code for sm_N" line, 0 before one */
	struct { int line; size_t ls; } *abs32at;  /* where each .abs32 of the kernel was */
	int capabs32;
	int anon;          /* the current kernel is a bare fragment with no header */
	Tok anon_at;       /* its first token, */
	int anon_line;     /* on this line, */
	size_t anon_ls;    /* which starts here */
	int32_t *texoff;   /* per texture slot of the kernel: its `.tex NAME OFF` offset, or -1 */
	int captexoff;
	struct { int line, col; size_t ls, s, e; } jcal;  /* a `.jcal NAME` waiting for its JCAL:
	                      * where it was, NAME at [s, e) of the text; line 0 when none waits */
	int opaque;        /* isa_asm_opaque: an instruction it cannot read becomes a NOP, */
	int nopaque;       /* counted here */
} Asm;

/* a parsed operand before it is put in a slot */
typedef struct {
	Opd o;        /* kind, flags, reg, bank, imm as far as known */
	unsigned cls; /* OC_ classes it can fill */
	Tok t;        /* first token, for the column */
	Tok num;      /* number token of an immediate or target */
	int neg;      /* '-' before that number */
	int inf;      /* +INF / -INF immediate */
	int qnan;     /* cuobjdump's QNAN immediate (its bits come from the encoding comment) */
	int cc;       /* a register written "R2.CC": the op writes the condition code */
	Tok label;    /* label of a target */
} POpd;

int isa_asm_reg_of(const char *s, size_t n);          /* Rn: n, RZ: ISA_RZ, -1 not one, -2 bad */
int isa_asm_pred_of(const char *s, size_t n);         /* Pn: n, PT: ISA_PT, -1, -2 likewise */
int isa_asm_reserved(const char *s, size_t n);        /* a name that cannot be a label */
Kernel *isa_asm_cur(Asm *a);
int isa_asm_int_value(Asm *a, Tok t, int neg, int64_t *out);
int isa_asm_float_value(Asm *a, const POpd *po, int bits, int64_t *out);
int isa_asm_expect(Asm *a, char c);
int isa_asm_parse_const(Asm *a, Opd *o);
int isa_asm_add_fixup(Asm *a, Tok label, int slot, int tl);
int isa_asm_parse_operand(Asm *a, POpd *po);
char *isa_asm_dup(Asm *a, Tok t);                     /* the token's text, allocated */

/* asm_dir.c */
void isa_asm_directive(Asm *a, Tok d);                /* d and the rest of its line */
void isa_asm_end_kernel(Asm *a);                      /* labels, .registers, checks */
void isa_asm_jcal_unused(Asm *a);                     /* error at a `.jcal` no JCAL took */

/* asm_sass.c: what real cuobjdump -sass listings add (docs/isa.md section 11) */
int isa_asm_sass_line(Asm *a, Tok t);                 /* a cuobjdump header line; 1 if consumed */
Kernel *isa_asm_begin_kernel(Asm *a, const char *name, Tok at); /* ends the current one */
Kernel *isa_asm_begin_anon(Asm *a, Tok at);           /* kernel "anonymous" of a bare fragment */
int isa_asm_alias(const char *s, size_t n, size_t *len, int *fix); /* Kepler mnemonic: op or -1 */
void isa_asm_sass_pre(POpd *po, int npo, int *fix);   /* operand order of a Kepler alias */
int isa_asm_sass_fix(Asm *a, Ins *in, InsLoc *l, const POpd *po, int npo, int fix);
int isa_asm_place(Asm *a, Kernel *k, Tok addr, uint64_t v, uint32_t *at); /* /\*addr*\/ check */
int isa_asm_sass_jcal(Asm *a, Ins *in, InsLoc *l, const POpd *po, int npo); /* `.jcal`'s JCAL */

/* check.c */
const char *isa_asm_class_words(unsigned classes, char *buf, size_t size);

#endif
