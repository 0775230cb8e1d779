/* asm_lex.c - the listing lexer and the located diagnostics of the listing parser.
 *
 * The text is read one line at a time; tokens never cross a line. Diagnostics are buffered
 * and printed sorted by position ("name:line:col: error: msg", the source line, a caret),
 * because some (unknown labels, targets) are found only at the end of a kernel.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"

int isa_asm_next_line(Lex *x)
{
	size_t s = x->line ? x->le + 1 : 0;

	if (x->line && x->le >= x->len)
		return 0;
	if (s > x->len)
		return 0;
	x->ls = s;
	{
		const char *nl = memchr(x->text + s, '\n', x->len - s);
		x->le = nl ? (size_t)(nl - x->text) : x->len;
	}
	x->pos = s;
	x->line++;
	return 1;
}

/* the character classes of the lexer, one table built by the compiler */
enum { CC_ID0 = 1, CC_ID = 2, CC_HEX = 4, CC_PUNCT = 8, CC_HBLANK = 16, CC_BLANK = 32 };
#define CC_OF(c) (unsigned char)( \
	(((c) >= 'A' && (c) <= 'Z') || ((c) >= 'a' && (c) <= 'z') || (c) == '_' || (c) == '$' || \
	 (c) == '.' ? CC_ID0 | CC_ID : 0) | \
	((c) >= '0' && (c) <= '9' ? CC_ID | CC_HEX : 0) | \
	(((c) >= 'a' && (c) <= 'f') || ((c) >= 'A' && (c) <= 'F') ? CC_HEX : 0) | \
	((c) == ',' || (c) == ';' || (c) == '[' || (c) == ']' || (c) == '{' || (c) == '}' || \
	 (c) == '+' || (c) == '-' || (c) == '|' || (c) == '~' || (c) == '!' || (c) == '@' || \
	 (c) == ':' || (c) == '=' ? CC_PUNCT : 0) | \
	((c) == ' ' || (c) == '\t' ? CC_HBLANK | CC_BLANK : 0) | \
	((c) == '\r' || (c) == '\f' || (c) == '\v' ? CC_BLANK : 0))
#define CC_4(c) CC_OF(c), CC_OF((c) + 1), CC_OF((c) + 2), CC_OF((c) + 3)
#define CC_16(c) CC_4(c), CC_4((c) + 4), CC_4((c) + 8), CC_4((c) + 12)
#define CC_64(c) CC_16(c), CC_16((c) + 16), CC_16((c) + 32), CC_16((c) + 48)
static const unsigned char cclass[256] = {CC_64(0), CC_64(64), CC_64(128), CC_64(192)};

/* [A-Za-z_$.] */
static int is_id0(int c)
{
	return cclass[c] & CC_ID0;
}

/* [A-Za-z0-9_$.] */
static int is_id(int c)
{
	return cclass[c] & CC_ID;
}

static int is_hex(int c)
{
	return cclass[c] & CC_HEX;
}

/* one of , ; [ ] { } + - | ~ ! @ : = */
static int is_punct(int c)
{
	return cclass[c] & CC_PUNCT;
}

/* the first offset from p on (before le) that is not of class cls (CC_HBLANK: a space or a
 * tab; CC_BLANK: those, \r, \f and \v): listings indent with long runs of spaces, so eight
 * at a time while they last */
static size_t past_blanks(const char *t, size_t p, size_t le, int cls)
{
	uint64_t w;

	while (p + 8 <= le && (memcpy(&w, t + p, 8), w == 0x2020202020202020ull))
		p += 8;
	while (p < le && (cclass[(unsigned char)t[p]] & cls))
		p++;
	return p;
}

/* skips blanks and block comments; returns 0 at the end of the line or a line comment */
static int skip(Lex *x)
{
	const char *t = x->text;

	for (;;) {
		x->pos = past_blanks(t, x->pos, x->le, CC_BLANK);
		if (x->pos >= x->le || t[x->pos] == '#')
			return 0;
		if (t[x->pos] != '/' || x->pos + 1 >= x->le)
			return 1;
		if (t[x->pos + 1] == '/')
			return 0;
		if (t[x->pos + 1] != '*')
			return 1;
		{
			size_t p = x->pos + 2;
			while (p + 1 < x->le && !(t[p] == '*' && t[p + 1] == '/'))
				p++;
			if (p + 1 >= x->le) {
				isa_asm_error_at(x, x->line, x->ls, isa_asm_col(x, x->pos),
				             "unterminated comment (a comment ends on its line)");
				x->pos = x->le;
				return 0;
			}
			x->pos = p + 2;
		}
	}
}

static Tok scan(Lex *x, size_t *endpos)
{
	const char *t = x->text;
	Tok k = {TK_EOL, 0, 0, 0};
	size_t p;

	if (!skip(x)) {
		k.s = k.e = x->pos;
		*endpos = x->pos;
		return k;
	}
	p = x->pos;
	k.s = p;
	if (is_id0((unsigned char)t[p])) {
		while (p < x->le && is_id((unsigned char)t[p]))
			p++;
		k.kind = TK_IDENT;
	} else if (t[p] >= '0' && t[p] <= '9') {
		int hexlike = p + 1 < x->le && t[p] == '0' &&
		              (t[p + 1] == 'x' || t[p + 1] == 'X' || t[p + 1] == 'f' || t[p + 1] == 'd');
		p++;
		while (p < x->le && (is_id((unsigned char)t[p]) && t[p] != '$'))
			if ((t[p++] == 'e' || t[p - 1] == 'E') && !hexlike && p < x->le &&
			    (t[p] == '+' || t[p] == '-'))
				p++;
		k.kind = TK_NUM;
	} else if (is_punct((unsigned char)t[p])) {
		k.kind = TK_PUNCT;
		k.c = t[p++];
	} else {
		k.kind = TK_BAD;
		k.c = t[p++];
	}
	k.e = p;
	*endpos = p;
	return k;
}

/* the token at x->pos, remembered for isa_asm_peek and isa_asm_next (asm.h), which take it
 * from there when they are asked at the same place again: a statement peeks at most tokens
 * before it takes them, and the token at a position of a line is always the same one. A scan
 * that reported an error (an unterminated comment) is not remembered, so scanning there
 * again reports it again, as it always has. x->pos is the caller's to set after it. */
Tok isa_asm_scan(Lex *x, size_t *endpos)
{
	size_t from = x->pos;
	int nd = x->ndiags;
	Tok k = scan(x, endpos);

	x->cvalid = x->ndiags == nd;
	x->cpos = from;
	x->cend = *endpos;
	x->ctok = k;
	return k;
}

/* an address comment /\*hex*\/ is a token only where a statement starts */
Tok isa_asm_addr(Lex *x)
{
	const char *t = x->text;
	size_t p;

	x->pos = past_blanks(t, x->pos, x->le, CC_HBLANK);
	p = x->pos;
	if (p + 4 < x->le && t[p] == '/' && t[p + 1] == '*' && is_hex((unsigned char)t[p + 2])) {
		size_t q = p + 2;
		while (q < x->le && is_hex((unsigned char)t[q]))
			q++;
		if (q + 1 < x->le && t[q] == '*' && t[q + 1] == '/') {
			Tok k = {TK_ADDR, p, q + 2, 0};
			x->pos = q + 2;
			return k;
		}
	}
	return isa_asm_peek(x);
}

int isa_asm_col(const Lex *x, size_t off)
{
	return (int)(off - x->ls) + 1;
}

int isa_asm_is(const Lex *x, Tok t, const char *s)
{
	const char *p = x->text + t.s;
	size_t n = t.e - t.s, i;

	for (i = 0; i < n && s[i] && s[i] == p[i]; i++)
		;
	return i == n && !s[n];
}

char *isa_asm_text(const Lex *x, Tok t, char *buf, size_t size)
{
	size_t n = t.e - t.s;

	if (t.kind == TK_EOL) {
		snprintf(buf, size, "end of line");
		return buf;
	}
	if (n >= size)
		n = size - 1;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)x->text[t.s + i];
		buf[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	buf[n] = 0;
	return buf;
}

static void vdiag(Lex *x, int line, size_t ls, int col, const char *fmt, va_list ap)
{
	char msg[512];
	Diag *d;

	if (x->stopped)
		return;
	vsnprintf(msg, sizeof msg, fmt, ap);
	if (x->ndiags == x->capdiags) {
		x->capdiags = x->capdiags ? 2 * x->capdiags : 16;
		x->diags = isa_xrealloc(x->diags, (size_t)x->capdiags * sizeof *x->diags);
	}
	d = &x->diags[x->ndiags];
	d->line = line;
	d->col = col;
	d->ls = ls;
	d->seq = x->ndiags;
	d->msg = strcpy(isa_xrealloc(NULL, strlen(msg) + 1), msg);
	x->ndiags++;
	if (x->ndiags >= ASM_MAXERRS)
		x->stopped = 1;
}

void isa_asm_error_at(Lex *x, int line, size_t ls, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(x, line, ls, col, fmt, ap);
	va_end(ap);
}

void isa_asm_error(Lex *x, Tok t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(x, x->line, x->ls, isa_asm_col(x, t.s), fmt, ap);
	va_end(ap);
}

static int diag_cmp(const void *a, const void *b)
{
	const Diag *p = a, *q = b;

	if (p->line != q->line)
		return p->line < q->line ? -1 : 1;
	if (p->col != q->col)
		return p->col < q->col ? -1 : 1;
	return p->seq < q->seq ? -1 : p->seq > q->seq;
}

/* the source line, then a caret under the column (tabs kept so it lines up) */
static void show_line(const Lex *x, FILE *f, size_t ls, int col)
{
	size_t e = ls;

	while (e < x->len && x->text[e] != '\n' && x->text[e] != '\r')
		e++;
	for (size_t i = ls; i < e; i++) {
		unsigned char c = (unsigned char)x->text[i];
		fputc(c == '\t' || (c >= 0x20 && c != 0x7f) ? c : '?', f);
	}
	fputc('\n', f);
	for (int i = 1; i < col && ls + (size_t)i - 1 < e; i++)
		fputc(x->text[ls + (size_t)i - 1] == '\t' ? '\t' : ' ', f);
	fputs("^\n", f);
}

void isa_asm_flush(Lex *x, FILE *err)
{
	if (x->ndiags)
		qsort(x->diags, (size_t)x->ndiags, sizeof *x->diags, diag_cmp);
	for (int i = 0; i < x->ndiags; i++) {
		Diag *d = &x->diags[i];
		if (err) {
			fprintf(err, "%s:%d:%d: error: %s\n", x->name, d->line, d->col, d->msg);
			show_line(x, err, d->ls, d->col);
		}
		free(d->msg);
	}
	if (err && x->stopped)
		fprintf(err, "%s: too many errors, stopping\n", x->name);
	free(x->diags);
	x->diags = NULL;
	x->ndiags = x->capdiags = 0;
}
