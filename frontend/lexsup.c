/* lexsup.c - what the lexer calls: directive keywords, integer and float literals,
 * lexical errors. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/build.h"
#include "ptx.tab.h"

/* ------------------------------------------------------------------ lexer support */
static const struct { const char *s; int tok; int val; } dotwords[] = {
	/* sorted by name (strcmp) */
	{ ".abi_preserve", ABI_PRESERVE, 0 }, { ".abi_preserve_control", ABI_PRESERVE_CONTROL, 0 },
	{ ".address_size", ADDRESS_SIZE, 0 }, { ".align", ALIGN, 0 },
	{ ".b128", TYPE, PT_B128 }, { ".b16", TYPE, PT_B16 }, { ".b32", TYPE, PT_B32 },
	{ ".b64", TYPE, PT_B64 }, { ".b8", TYPE, PT_B8 }, { ".bf16", TYPE, PT_BF16 },
	{ ".bf16x2", TYPE, PT_BF16X2 }, { ".branchtargets", BRANCHTARGETS, 0 },
	{ ".callprototype", CALLPROTOTYPE, 0 }, { ".calltargets", CALLTARGETS, 0 },
	{ ".common", COMMON, 0 }, { ".const", SPACE, PS_CONST },
	{ ".e4m3", TYPE, PT_E4M3 }, { ".e4m3x2", TYPE, PT_E4M3X2 }, { ".e5m2", TYPE, PT_E5M2 },
	{ ".e5m2x2", TYPE, PT_E5M2X2 }, { ".entry", ENTRY, 0 },
	{ ".explicitcluster", EXPLICITCLUSTER, 0 }, { ".extern", EXTERN, 0 },
	{ ".f16", TYPE, PT_F16 }, { ".f16x2", TYPE, PT_F16X2 }, { ".f32", TYPE, PT_F32 },
	{ ".f64", TYPE, PT_F64 }, { ".file", FILE_, 0 }, { ".func", FUNC, 0 },
	{ ".global", SPACE, PS_GLOBAL }, { ".loc", LOC, 0 }, { ".local", SPACE, PS_LOCAL },
	{ ".maxclusterrank", MAXCLUSTERRANK, 0 }, { ".maxnctapersm", MAXNCTAPERSM, 0 },
	{ ".maxnreg", MAXNREG, 0 }, { ".maxntid", MAXNTID, 0 },
	{ ".minnctapersm", MINNCTAPERSM, 0 }, { ".noreturn", NORETURN, 0 },
	{ ".param", SPACE, PS_PARAM }, { ".param::entry", SPACE, PS_PARAM_ENTRY },
	{ ".param::func", SPACE, PS_PARAM_FUNC }, { ".pragma", PRAGMA, 0 },
	{ ".pred", TYPE, PT_PRED }, { ".ptr", PTR, 0 }, { ".reg", SPACE, PS_REG },
	{ ".reqnctapercluster", REQNCTAPERCLUSTER, 0 }, { ".reqntid", REQNTID, 0 },
	{ ".s16", TYPE, PT_S16 }, { ".s32", TYPE, PT_S32 }, { ".s64", TYPE, PT_S64 },
	{ ".s8", TYPE, PT_S8 }, { ".samplerref", TYPE, PT_SAMPLERREF },
	{ ".shared", SPACE, PS_SHARED }, { ".shared::cluster", SPACE, PS_SHARED_CLUSTER },
	{ ".shared::cta", SPACE, PS_SHARED_CTA }, { ".sreg", SPACE, PS_SREG },
	{ ".surfref", TYPE, PT_SURFREF }, { ".target", TARGET, 0 }, { ".tex", SPACE, PS_TEX },
	{ ".texref", TYPE, PT_TEXREF }, { ".tf32", TYPE, PT_TF32 },
	{ ".u16", TYPE, PT_U16 }, { ".u32", TYPE, PT_U32 }, { ".u64", TYPE, PT_U64 },
	{ ".u8", TYPE, PT_U8 }, { ".v2", VEC, 2 }, { ".v4", VEC, 4 }, { ".v8", VEC, 8 },
	{ ".version", VERSION, 0 }, { ".visible", VISIBLE, 0 }, { ".weak", WEAK, 0 },
};

int
ptx_lex_dotword(PCtx *c, const char *s, int n, PTok *t)
{
	int lo = 0, hi = (int)(sizeof dotwords / sizeof dotwords[0]) - 1;

	(void)c;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		const char *k = dotwords[mid].s;
		int r = strncmp(k, s, (size_t)n);
		if (r == 0 && k[n])
			r = 1;
		if (r == 0) {
			t->val = dotwords[mid].val;
			return dotwords[mid].tok;
		}
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return DOTWORD;
}

int
ptx_lex_int(PCtx *c, PTX_YYLTYPE *l, PTok *t, int base, int ikind)
{
	const char *p = t->s;
	int n = t->n;
	uint64_t v = 0;
	int over = 0;

	t->flags = 0;
	if (n > 0 && p[n - 1] == 'U') {
		t->flags = POF_UNSIGNED;
		n--;
	}
	if (base != 10 && base != 8) {
		p += 2;
		n -= 2;
	}
	for (int i = 0; i < n; i++) {
		int d = p[i] <= '9' ? p[i] - '0' : (p[i] | 0x20) - 'a' + 10;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			over = 1;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	if (over)
		ptx_lex_error(c, l, "integer literal out of range");
	t->u = v;
	t->ikind = (uint8_t)ikind;
	return INTLIT;
}

int
ptx_lex_float(PCtx *c, PTX_YYLTYPE *l, PTok *t)
{
	char buf[64];
	double d;
	int n = t->n < 63 ? t->n : 63;

	memcpy(buf, t->s, (size_t)n);
	buf[n] = 0;
	errno = 0;
	d = strtod(buf, NULL);
	if (errno == ERANGE && (d > 1 || d < -1))
		ptx_lex_error(c, l, "floating-point literal out of range");
	memcpy(&t->u, &d, sizeof d);
	t->ikind = PIMM_FLOAT;
	return FLOATLIT;
}

void
ptx_lex_error(PCtx *c, PTX_YYLTYPE *l, const char *msg)
{
	ptx_diag(c, ploc(l), "%s", msg);
}

void
ptx_lex_stray(PCtx *c, PTX_YYLTYPE *l, int ch)
{
	if (ch >= 0x20 && ch < 0x7f)
		ptx_diag(c, ploc(l), "stray '%c' in program", ch);
	else
		ptx_diag(c, ploc(l), "stray byte 0x%02x in program", ch);
}

