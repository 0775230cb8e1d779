/* diag.c - located diagnostics in the compiler style:
 *     file.ptx:12:9: error: undefined label '$L__BB0_7'
 *         @%p1 bra $L__BB0_7;
 *                  ^
 * The source line is printed as written; the caret line copies its tabs so the caret lands
 * under the column in any tab setting. After PTX_MAXERR errors the rest are counted only. */
#include <stdarg.h>
#include <string.h>
#include "frontend/build.h"

#define PTX_MAXERR 50

void
ptx_vdiag(FILE *err, const char *name, const char *src, size_t len, PLoc loc,
          const char *kind, const char *fmt, va_list ap)
{
	const char *p, *e, *end;
	int line = 1;

	if (!err)
		return;
	if (loc.line <= 0) {
		fprintf(err, "%s: %s: ", name, kind);
		vfprintf(err, fmt, ap);
		fputc('\n', err);
		return;
	}
	fprintf(err, "%s:%d:%d: %s: ", name, loc.line, loc.col, kind);
	vfprintf(err, fmt, ap);
	fputc('\n', err);
	if (!src)
		return;
	end = src + len;
	for (p = src; p < end && line < loc.line; p++)
		if (*p == '\n')
			line++;
	if (line != loc.line)
		return;
	for (e = p; e < end && *e != '\n'; e++)
		;
	if (e > p && e[-1] == '\r')
		e--;
	fprintf(err, "%.*s\n", (int)(e - p), p);
	for (int i = 1; i < loc.col && p + i - 1 < e; i++)
		fputc(p[i - 1] == '\t' ? '\t' : ' ', err);
	fputs("^\n", err);
}

const char *
ptx_loc_name(const Module *m, PLoc l)
{
	return m->nunits && l.file >= 0 && l.file < m->nunits ? m->units[l.file].name : m->name;
}

const char *
ptx_loc_src(const Module *m, PLoc l, size_t *len)
{
	if (m->nunits && l.file >= 0 && l.file < m->nunits) {
		*len = m->units[l.file].srclen;
		return m->units[l.file].src;
	}
	*len = m->srclen;
	return m->src;
}

/* a located diagnostic outside parsing, in the file loc is in */
void
ptx_loc_diag(FILE *err, const Module *m, PLoc loc, const char *kind, const char *fmt, ...)
{
	va_list ap;
	size_t len;
	const char *src = ptx_loc_src(m, loc, &len);

	va_start(ap, fmt);
	ptx_vdiag(err, ptx_loc_name(m, loc), src, len, loc, kind, fmt, ap);
	va_end(ap);
}

void
ptx_diag(PCtx *c, PLoc loc, const char *fmt, ...)
{
	va_list ap;

	if (c->quiet)
		return;
	c->nerr++;
	if (c->nerr > PTX_MAXERR) {
		if (c->nerr == PTX_MAXERR + 1 && c->err)
			fprintf(c->err, "%s: error: too many errors, the rest are not shown\n", c->m->name);
		return;
	}
	va_start(ap, fmt);
	ptx_vdiag(c->err, c->m->name, c->m->src, c->m->srclen, loc, "error", fmt, ap);
	va_end(ap);
}

void
ptx_unsup_report(FILE *err, const Module *m, const PFunc *f, const char *kind, const char *note)
{
	if (!f->unsup_op)
		return;
	ptx_loc_diag(err, m, f->unsup_loc, kind, "unsupported: instruction '%s'%s is valid PTX but warpsim "
	        "does not support it yet%s%s", ptx_ops[f->unsup_op - 1].name,
	        f->unsup_form ? f->unsup_form : "", note ? "; " : "", note ? note : "");
}
