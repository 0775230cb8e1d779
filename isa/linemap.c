/* linemap.c - a line map: for each instruction of a listing's kernels, the PTX line it was
 * compiled from (warpc --compare-lines: ptxas's own line table, which pairs our conditional
 * constructs with ptxas's by the PTX branch they come from; docs/isa.md, "Line maps").
 * The text, one item a line ('#' starts a comment to the end of the line):
 *
 *   map   := { '.kernel' NAME | ADDR LINE }
 *   ADDR  := hex digits, with or without 0x (the instruction's address in the listing)
 *   LINE  := a decimal PTX line, 1 or more
 *
 * Each ADDR belongs to the .kernel above it; a kernel's addresses rise and each comes once,
 * and a kernel is named once. tests/ptxas-ref/listing.sh (ptxas_linemap) writes it from
 * the cubin of `ptxas -lineinfo`, whose table `cuobjdump -elf` prints decoded (linemap.awk
 * reads it). Errors are "name:line:col: error: ..." with the
 * source line and a caret; the first one ends the parse.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"

typedef struct {
	const char *name, *text;
	size_t len;
	size_t ls, le;      /* the current line's start and end (before its newline) */
	int line;           /* its number */
	FILE *err;
} LmLex;

static void lm_error(const LmLex *x, size_t at, const char *fmt, ...)
{
	va_list ap;
	int col = (int)(at - x->ls) + 1;

	if (!x->err)
		return;
	fprintf(x->err, "%s:%d:%d: error: ", x->name, x->line, col);
	va_start(ap, fmt);
	vfprintf(x->err, fmt, ap);
	va_end(ap);
	fprintf(x->err, "\n  %.*s\n  %*s^\n", (int)(x->le - x->ls), x->text + x->ls, col - 1, "");
}

/* 1 when an array of *cap elements holding n is full, *cap then doubled (16 the first) */
static int lm_full(int *cap, int n)
{
	if (n < *cap)
		return 0;
	*cap = *cap ? 2 * *cap : 16;
	return 1;
}

static int lm_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* the end of the word of line x that starts at p (up to a blank or a comment) */
static size_t lm_word(const LmLex *x, size_t p)
{
	while (p < x->le && !lm_space((unsigned char)x->text[p]) && x->text[p] != '#')
		p++;
	return p;
}

static size_t lm_skip(const LmLex *x, size_t p)
{
	while (p < x->le && lm_space((unsigned char)x->text[p]))
		p++;
	return p;
}

/* the number in [p, e) in base 16 or 10 into *v; 0 when it is not one or exceeds max */
static int lm_number(const char *s, size_t p, size_t e, int hex, uint64_t max, uint64_t *v)
{
	uint64_t n = 0;

	if (hex && e - p > 2 && s[p] == '0' && (s[p + 1] == 'x' || s[p + 1] == 'X'))
		p += 2;
	if (p == e)
		return 0;
	for (; p < e; p++) {
		int c = (unsigned char)s[p], d;
		if (isdigit(c))
			d = c - '0';
		else if (hex && isxdigit(c))
			d = tolower(c) - 'a' + 10;
		else
			return 0;
		n = n * (hex ? 16 : 10) + (uint64_t)d;
		if (n > max)
			return 0;
	}
	*v = n;
	return 1;
}

IsaLineMap *isa_linemap_parse(const char *name, const char *text, size_t len, FILE *err)
{
	IsaLineMap *m = memset(isa_xrealloc(NULL, sizeof(IsaLineMap)), 0, sizeof(IsaLineMap));
	LmLex x = {name, text, len, 0, 0, 0, err};
	int cap = 0;

	for (size_t p = 0; p < len;) {
		size_t w, we;
		x.ls = p;
		x.line++;
		while (p < len && text[p] != '\n')
			p++;
		x.le = p;
		p += p < len;
		w = lm_skip(&x, x.ls);
		if (w == x.le || text[w] == '#')
			continue;
		for (size_t q = w; q < x.le && text[q] != '#'; q++)
			if (text[q] == '\0' || ((unsigned char)text[q] < 0x20 && !lm_space(text[q]))) {
				lm_error(&x, q, "a control character (0x%02x) in a line map", (unsigned char)text[q]);
				goto fail;
			}
		we = lm_word(&x, w);
		if (we - w == 7 && !memcmp(text + w, ".kernel", 7)) {
			size_t n = lm_skip(&x, we), ne = lm_word(&x, n);
			IsaLineFn *f;
			if (n == ne) {
				lm_error(&x, n, "expected the kernel's name after .kernel");
				goto fail;
			}
			if (lm_skip(&x, ne) < x.le && text[lm_skip(&x, ne)] != '#') {
				lm_error(&x, lm_skip(&x, ne), "one name after .kernel, then the end of the line");
				goto fail;
			}
			for (int i = 0; i < m->n; i++)
				if (strlen(m->f[i].kernel) == ne - n && !memcmp(m->f[i].kernel, text + n, ne - n)) {
					lm_error(&x, n, "kernel '%.*s' is named twice",
					         (int)(ne - n < 60 ? ne - n : 60), text + n);
					goto fail;
				}
			if (lm_full(&cap, m->n))
				m->f = isa_xrealloc(m->f, (size_t)cap * sizeof *m->f);
			f = &m->f[m->n++];
			memset(f, 0, sizeof *f);
			f->kernel = isa_xrealloc(NULL, ne - n + 1);
			memcpy(f->kernel, text + n, ne - n);
			f->kernel[ne - n] = '\0';
		} else {
			size_t l = lm_skip(&x, we), le = lm_word(&x, l), end = lm_skip(&x, le);
			uint64_t a, v;
			IsaLineFn *f = m->n ? &m->f[m->n - 1] : NULL;
			if (!lm_number(text, w, we, 1, 0xffffffffu, &a)) {
				lm_error(&x, w, "expected an address (hex) or .kernel, got '%.*s'",
				         (int)(we - w < 40 ? we - w : 40), text + w);
				goto fail;
			}
			if (!f) {
				lm_error(&x, w, "an address before any .kernel");
				goto fail;
			}
			if (l == le || !lm_number(text, l, le, 0, 0x7fffffff, &v) || v == 0) {
				lm_error(&x, l, "expected the PTX line of address 0x%04llx (decimal, 1 or more)",
				         (unsigned long long)a);
				goto fail;
			}
			if (end < x.le && text[end] != '#') {
				lm_error(&x, end, "an address and a line, then the end of the line");
				goto fail;
			}
			if (f->n && a <= f->addr[f->n - 1]) {
				lm_error(&x, w, "address 0x%04llx after 0x%04x: a kernel's addresses rise",
				         (unsigned long long)a, (unsigned)f->addr[f->n - 1]);
				goto fail;
			}
			if (lm_full(&f->cap, f->n)) {
				f->addr = isa_xrealloc(f->addr, (size_t)f->cap * sizeof *f->addr);
				f->line = isa_xrealloc(f->line, (size_t)f->cap * sizeof *f->line);
			}
			f->addr[f->n] = (uint32_t)a;
			f->line[f->n++] = (int32_t)v;
		}
	}
	return m;
fail:
	isa_linemap_free(m);
	return NULL;
}

void isa_linemap_free(IsaLineMap *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->n; i++) {
		free(m->f[i].kernel);
		free(m->f[i].addr);
		free(m->f[i].line);
	}
	free(m->f);
	free(m);
}

const IsaLineFn *isa_linemap_find(const IsaLineMap *m, const char *kernel)
{
	for (int i = 0; m && i < m->n; i++)
		if (!strcmp(m->f[i].kernel, kernel))
			return &m->f[i];
	return NULL;
}

int isa_linemap_line(const IsaLineFn *f, uint32_t addr)
{
	int lo = 0, hi = f ? f->n - 1 : -1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (f->addr[mid] == addr)
			return f->line[mid];
		if (f->addr[mid] < addr)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return 0;
}

void isa_linemap_print(FILE *out, const IsaLineMap *m)
{
	for (int i = 0; i < m->n; i++) {
		fprintf(out, ".kernel %s\n", m->f[i].kernel);
		for (int j = 0; j < m->f[i].n; j++)
			fprintf(out, "%04x %d\n", (unsigned)m->f[i].addr[j], (int)m->f[i].line[j]);
	}
}
