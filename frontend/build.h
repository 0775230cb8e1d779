/* build.h - the parser context shared by ptx.l, ptx.y and the IR builders (build.c,
 * ins.c, mods.c, diag.c). Not part of the frontend API. */
#ifndef WARPSIM_PTX_BUILD_H
#define WARPSIM_PTX_BUILD_H

#include <stdarg.h>
#include "frontend/ptx.h"
#include "frontend/internal.h"

typedef struct PCtx PCtx;

/* a .reg parameter or return of a function (PTX 1.x style, also written by hand): declared
 * as a .param named NAME$reg, and a register NAME that the body copies it into (parameters,
 * at the start) or out of (returns, before every ret) */
typedef struct {
	char *name;    /* the register's name */
	int len;
	int ret;       /* 1: a return */
	int idx;       /* its index in params or rets */
	int type;      /* PType */
	int vec;       /* .v2/.v4: a vector register, its .param a vector of as many elements */
	PLoc loc;      /* the declaration */
} PRegParm;

/* value of a token: the text span, and what the lexer decoded */
typedef struct {
	const char *s;    /* text in the source buffer (not NUL-terminated at n) */
	int n;            /* bytes */
	uint64_t u;       /* INTLIT value; FLOATLIT bits */
	uint8_t ikind;    /* PImmKind of INTLIT/FLOATLIT */
	uint8_t flags;    /* POF_UNSIGNED */
	int val;          /* SPACE: PSpace; TYPE: PType; VEC: width */
} PTok;

/* the bison location type, spelled out so the lexer and parser agree */
typedef struct PTX_YYLTYPE {
	int first_line, first_column, last_line, last_column;
} PTX_YYLTYPE;
#define PTX_YYLTYPE_IS_DECLARED 1
#define PTX_YYLTYPE_IS_TRIVIAL 1

/* growable array of T: v.a, v.n, v.cap */
#define PVEC(T) struct { T *a; int n, cap; }
#define pvec_push(v, x) do { \
	if ((v).n == (v).cap) pvec_grow_((void **)&(v).a, &(v).cap, sizeof *(v).a); \
	(v).a[(v).n++] = (x); } while (0)
void pvec_grow_(void **a, int *cap, size_t elsize);

/* chained hash table of names -> int payload, entries popped in LIFO order for scopes */
typedef struct {
	const char *name;  /* not NUL-terminated */
	int len;           /* bytes of name */
	uint32_t hash;     /* of name */
	int next;          /* next entry in the bucket chain, -1 */
	int kind;          /* payload kind (caller's) */
	int idx;           /* payload index (caller's) */
} PTabEnt;
typedef struct {
	int *bucket;               /* heads, -1 when empty */
	int nbucket;               /* power of two */
	PVEC(PTabEnt) ent;         /* entries in insertion order */
} PTab;
void ptab_init(PTab *t, int nbucket);
void ptab_free(PTab *t);
void ptab_clear(PTab *t);
PTabEnt *ptab_find(PTab *t, const char *name, int len);
void ptab_add(PTab *t, const char *name, int len, int kind, int idx);
void ptab_pop_to(PTab *t, int n);   /* removes entries added after the first n */
uint32_t ptab_hash(const char *s, int n);  /* FNV-1a of n bytes (mods.c's tables hash so too) */

/* kinds of function-local names */
enum { NK_REG, NK_LOCAL, NK_PARAM, NK_RET, NK_LABEL, NK_TLIST, NK_VAR, NK_FUNC };

/* an operand whose name is resolved later (labels, forward functions) */
typedef struct {
	POpd *o;           /* the operand, in the arena */
	const char *name;  /* its name */
	int len;
	int isbranch;      /* a bra/brx target: must be a label */
	PLoc loc;          /* where the name is written */
} PFix;

/* a name in a target list, resolved at the end of the body */
typedef struct {
	int tl, i;         /* PFunc.tlists[tl].targets[i] */
	PTok name;         /* the name */
	PLoc loc;          /* where it is written */
} PTFix;

/* declaration specifiers being collected ("... .global .align 4 .u32 ...") */
typedef struct {
	int space;         /* PSpace, -1 when not written */
	int type;          /* PType, -1 when not written */
	int vec;           /* 1, 2, 4, 8 */
	int align;         /* 0 when not written */
	int link;          /* PLink */
	int ptr;           /* .ptr seen: following space/align describe the pointee */
	int ptrspace, ptralign;
	PLoc loc;          /* the first specifier */
	int ndim;          /* dims of the declarator being parsed */
	uint64_t dims[PTX_MAXDIM];
	int unsized;       /* dims[0] written "[]" */
} PDSpec;

struct PCtx {
	Module *m;            /* being built */
	int file;             /* PLoc.file of its locations (ptx_parse_unit) */
	PArena *A;            /* m->arena */
	void *scanner;        /* flex state */
	/* lexer */
	int line, col;        /* position of the next character */
	int sdepth;           /* brace depth inside .section */
	PTX_YYLTYPE sloc;     /* where .section started */
	/* diagnostics */
	FILE *err;            /* NULL: quiet */
	int nerr;             /* errors so far */
	/* module */
	PTab gtab;            /* module names: NK_VAR, NK_FUNC */
	PVEC(PVar) vars;
	PVEC(PFunc) funcs;
	PVEC(PFile) files;
	PVEC(PFix) gfix;      /* initializer symbols to resolve at the end (elems unused) */
	PVEC(PReg) mregs;     /* module-scope .reg (PTX 1.x): declared again in every body */
	PVEC(PRegParm) rparms; /* .reg parameters and returns of the function in progress */
	/* declaration in progress */
	PDSpec ds;
	PVEC(PInit) init;     /* initializer elements of the declarator */
	/* function in progress */
	PFunc cur;            /* header and counts; vectors below hold the body */
	int infunc;           /* between .entry/.func and the end of its body or ';' */
	int inbody;           /* inside its body */
	int fidx;             /* its index in funcs, -1 before the name */
	int pdest;            /* params go to: 0 params, 1 rets, 2 prototype params, 3 prototype rets */
	PTab ltab;            /* local names (scoped): NK_REG NK_LOCAL NK_PARAM NK_RET */
	PTab labtab;          /* labels and target lists: NK_LABEL, NK_TLIST */
	PVEC(int) scopes;     /* ltab sizes at each open '{' */
	PVEC(PLoc) braces;    /* where each '{' of the body still open was (an end of file
	                       * inside the body names the innermost) */
	PVEC(PReg) regs;
	PVEC(PIns) ins;
	PVEC(PLabel) labels;
	PVEC(PVar) locals;
	PVEC(PVar) params, rets;
	PVEC(PVar) pparams, prets; /* .callprototype being parsed */
	PVEC(PTList) tlists;
	PVEC(PPragma) pragmas;
	PVEC(PFix) fix;       /* operands to resolve at the end of the body */
	PTab allregs;         /* every register name declared in the function, any scope */
	PVEC(PTFix) tfix;     /* .branchtargets/.calltargets names to resolve */
	int srcfile, srcline, srccol; /* the current .loc */
	/* instruction in progress */
	int guard, gneg;      /* guard register, -1 */
	PLoc gloc;            /* the guard */
	PIns in;              /* opcode and modifiers decoded */
	int inbad;            /* the instruction had an error: dropped at its end */
	int protonoret;       /* .callprototype ... .noreturn */
	int protoabi;         /* .callprototype ... .abi_preserve(_control): PTList.abi_set */
	uint32_t protoabiv[2];/* their N */
	int quiet;            /* operands of an unsupported instruction: no more diagnostics */
	PVEC(POpd) ops;       /* operands */
	PVEC(POpd) elems;     /* elements of the {..} or (..) being parsed */
	int ingroup;          /* inside {..} (1) or (..) (2) */
	PVEC(PTok) pnames;    /* names of POK_PENDING operands (their sym indexes this) */
	PVEC(PTok) names;     /* .branchtargets/.calltargets names */
	PVEC(PLoc) nlocs;     /* and their locations */
	char *target;         /* .target words so far */
};

#define POK_PENDING 100   /* internal: operand naming something not resolved yet; sym
                             indexes ctx->pnames */

static inline PLoc ploc(const PTX_YYLTYPE *l) { PLoc p = { l->first_line, l->first_column, 0 }; return p; }
/* the location of a token of the file being parsed */
static inline PLoc ploc_in(const PCtx *c, const PTX_YYLTYPE *l)
{
	PLoc p = { l->first_line, l->first_column, c->file };
	return p;
}

/* diag.c */
void ptx_diag(PCtx *c, PLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void ptx_vdiag(FILE *err, const char *name, const char *src, size_t len, PLoc loc,
               const char *kind, const char *fmt, va_list ap);

/* lexer support (build.c) */
int ptx_lex_dotword(PCtx *c, const char *s, int n, PTok *t);
int ptx_lex_int(PCtx *c, PTX_YYLTYPE *l, PTok *t, int base, int ikind);
int ptx_lex_float(PCtx *c, PTX_YYLTYPE *l, PTok *t);
void ptx_lex_error(PCtx *c, PTX_YYLTYPE *l, const char *msg);
void ptx_lex_stray(PCtx *c, PTX_YYLTYPE *l, int ch);

/* build.c, decl.c: module, declarations, functions, scopes */
char *ptx_pdup(PCtx *c, const PTok *t);  /* the token's text in the arena */
int ptx_make_var(PCtx *c, PVar *v, const PTok *name, PLoc l); /* from ctx->ds; 0 on error */
void b_version(PCtx *c, const PTok *t, PLoc l);
void b_target(PCtx *c, const PTok *t);
void b_address_size(PCtx *c, const PTok *t, PLoc l);
void b_file(PCtx *c, const PTok *idx, const PTok *name);
void b_pragma(PCtx *c, const PTok *s);
void b_loc(PCtx *c, const PTok *file, const PTok *line, const PTok *col);
void b_ds_space(PCtx *c, int space, PLoc l);
void b_ds_type(PCtx *c, int type, PLoc l);
void b_ds_vec(PCtx *c, int vec);
void b_ds_align(PCtx *c, const PTok *t, PLoc l);
void b_ds_ptr(PCtx *c);
void b_ds_link(PCtx *c, int link, PLoc l);
void b_ds_reset(PCtx *c);
void b_dim(PCtx *c, const PTok *t, PLoc l);   /* t NULL: "[]" */
void b_init_num(PCtx *c, const PTok *t, int neg, PLoc l);
void b_init_sym(PCtx *c, const PTok *name, const PTok *off, int neg, int generic, PLoc l);
void b_init_generic_kw(PCtx *c, const PTok *kw, PLoc l);
void b_declare(PCtx *c, const PTok *name, PLoc l);
void b_declare_range(PCtx *c, const PTok *name, const PTok *n, PLoc l);
/* declares the scalar register name (a frontend temporary) in the current scope */
void b_add_reg(PCtx *c, const char *name, int len, int type, PLoc l);
void b_module_regs(PCtx *c);
void b_reg_params(PCtx *c);
void b_param_copy(PCtx *c, const PRegParm *r, int reg);
void b_label_values(PCtx *c);   /* end of a body: values of address-taken labels */
void b_func_begin(PCtx *c, int entry, PLoc l);
void b_func_name(PCtx *c, const PTok *name, PLoc l);
void b_param(PCtx *c, const PTok *name, PLoc l);  /* name NULL: "_" */
void b_param_unnamed(PCtx *c, PLoc l);
void b_perf(PCtx *c, int which, const PTok *a, const PTok *b, const PTok *d, PLoc l);
void b_func_decl_end(PCtx *c);
void b_body_begin(PCtx *c);
void b_func_end(PCtx *c);
void b_scope_push(PCtx *c);
void b_scope_pop(PCtx *c);
void b_label(PCtx *c, const PTok *name, PLoc l);
void b_name(PCtx *c, const PTok *name, PLoc l);   /* into the target/name list */
void b_tlist(PCtx *c, int kind, const PTok *name, PLoc l);
void b_proto_begin(PCtx *c);
void b_proto_noreturn(PCtx *c);
void b_proto_abi(PCtx *c, int which, const PTok *n, PLoc l);
void b_proto_named(PCtx *c, const PTok *name, PLoc l);
void b_module_end(PCtx *c);
void b_recover(PCtx *c, int top); /* after a syntax error: drop partial state (top: and the function) */

/* ins.c: instructions and operands */
void b_guard(PCtx *c, const PTok *name, int neg, PLoc l);
void b_guard_imm(PCtx *c, PLoc l);   /* @1 ins: refused (ptxas 11.8 and 13 too) */
void b_opd_name(PCtx *c, const PTok *name, const PTok *off, int flags, PLoc l);
void b_opd_pair(PCtx *c, const PTok *a, PLoc la, const PTok *b, PLoc lb);
void b_opd_sink(PCtx *c, PLoc l);
void b_opd_imm(PCtx *c, const PTok *t, int neg, PLoc l);
void b_opd_addr(PCtx *c, const PTok *base, const PTok *off, int neg, PLoc l);
void b_group_begin(PCtx *c, int kind);
void b_group_end(PCtx *c, int kind, PLoc l);
void b_ins_begin(PCtx *c, const PTok *opcode, PLoc l);
void b_ins_end(PCtx *c);
void b_resolve_fixups(PCtx *c);   /* end of a function body */
int b_lookup_reg(PCtx *c, const char *s, int n);

/* mods.c: the opcode word */
int ptx_decode_opword(PCtx *c, const char *s, int n, PLoc l, PIns *in);

#endif
