/* html_src.c - --report's source table (html.c has the page; one table per PTX file of a
 * program linked from several, by Ins.ptxfile): every line of the PTX beside the
 * listing instructions translated from it, the CUDA line (.loc) above the PTX lines it became,
 * each PTX line and each instruction shaded by its cycles (issues plus the cycles warps waited
 * before them: line statistics' stall columns) with a bar for its idle lanes (active lanes
 * whose guard was false, and lanes not active, against 32 per issue). Needs the run's line
 * statistics (linestats.c); writes only, in line order.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"

/* warp-cycles of a row: its issues and the cycles warps waited before them */
static uint64_t cost(const LineRow *r)
{
	uint64_t c = r->warp_insts;

	for (int s = 0; s < STALL_COUNT; s++)
		c += r->stall[s];
	return c;
}

/* the shading of a cost against the greatest */
static void heat(FILE *f, uint64_t c, uint64_t max)
{
	if (c && max)
		fprintf(f, " style=\"background:rgba(255,140,0,%.2f)\"", 0.06 + 0.6 * (double)c / (double)max);
}

/* the idle-lanes cell: a bar and the percentage */
static void idle(FILE *f, const LineRow *r)
{
	double p;

	if (!r || !r->warp_insts) {
		fputs("<td></td>", f);
		return;
	}
	p = 100.0 * (1.0 - (double)r->exec_lanes / (32.0 * (double)r->warp_insts));
	fprintf(f, "<td class=\"num\"><span class=\"bar\" style=\"width:%.0fpx\"></span> %.0f%%</td>",
	        p * 0.4, p);
}

typedef struct {
	const RpPage *pg;
	int unit, linked;        /* the PTX file shown (Ins.ptxfile); the program has several */
	const char *path;        /* that file (CUDA files are looked for beside it) */
	int *first, *next;       /* per PTX line its first instruction, per instruction the next */
	LineRow *ins;            /* per instruction its counts */
	uint64_t insmax;         /* the greatest instruction cost */
	RpLines *cuda;           /* the CUDA files, loaded when first shown */
	int lastfile, lastline;  /* the CUDA line last shown */
	char pre[16];            /* several launches: "kN-" before the rows' ids (kernel N's table) */
} Src;

static void cuda_row(FILE *f, Src *s, const Ins *in)
{
	const Prog *p = s->pg->p;
	const char *name, *b;

	if (in->srcline <= 0 || in->srcfile < 0 || in->srcfile >= p->nfiles ||
	    (in->srcfile == s->lastfile && in->srcline == s->lastline))
		return;
	s->lastfile = in->srcfile;
	s->lastline = in->srcline;
	name = p->files[in->srcfile];
	if (s->cuda && !s->cuda[in->srcfile].text && !s->cuda[in->srcfile].line)
		rp_lines_cuda(&s->cuda[in->srcfile], name, s->path);
	b = strrchr(name, '/');
	fputs("<tr class=\"cuda\"><td class=\"n\"></td><td colspan=\"5\">", f);
	rp_html_esc(f, b ? b + 1 : name);
	fprintf(f, ":%d  ", in->srcline);
	if (s->cuda)
		rp_html_esc(f, rp_lines_at(&s->cuda[in->srcfile], in->srcline));
	fputs("</td></tr>\n", f);
}

/* the listing instructions of PTX line l (l = 0: those with none) */
static void listing(FILE *f, const Src *s, int l)
{
	const Kernel *k = s->pg->k;
	char buf[256];

	fputs("<td class=\"asm\">", f);
	for (int i = s->first[l]; i >= 0; i = s->next[i]) {
		isa_format_ins(buf, sizeof buf, k, &k->ins[i]);
		fputs("<span", f);
		heat(f, cost(&s->ins[i]), s->insmax);
		fprintf(f, " title=\"%" PRIu64 " warp instructions, %" PRIu64 " warp-cycles\">/*%04x*/ ",
		        s->ins[i].warp_insts, cost(&s->ins[i]), k->ins[i].addr);
		rp_html_esc(f, buf);
		fputs("</span>", f);
	}
	fputs("</td>", f);
}

static void row(FILE *f, Src *s, int l, const char *text, const LineRow *r, uint64_t max)
{
	const Explore *x = s->pg->x;
	const Kernel *k = s->pg->k;

	if (s->first[l] >= 0)
		cuda_row(f, s, &k->ins[s->first[l]]);
	if (s->linked)              /* a program linked from several PTX files: ptxFILE-LINE */
		fprintf(f, "<tr id=\"%sptx%d-%d\"%s><td class=\"n\">", s->pre, s->unit, l,
		        r && r->warp_insts ? "" : " class=\"cold\"");
	else
		fprintf(f, "<tr id=\"%sptx%d\"%s><td class=\"n\">", s->pre, l,
		        r && r->warp_insts ? "" : " class=\"cold\"");
	for (int b = 0; x && b < x->nb; b++)
		if (x->b[b].ptxline == l && x->b[b].ptxunit == s->unit)
			fprintf(f, "<a href=\"#b%d\">#%d</a> ", x->b[b].index, x->b[b].index);
	fprintf(f, "%d</td><td", l);
	heat(f, r ? cost(r) : 0, max);
	fputs(">", f);
	rp_html_esc(f, text);
	fputs("</td>", f);
	if (r && r->warp_insts)
		fprintf(f, "<td class=\"num\">%" PRIu64 "</td>", cost(r));
	else
		fputs("<td></td>", f);
	idle(f, r);
	if (r && r->div_branches)
		fprintf(f, "<td class=\"num\">%" PRIu64 "</td>", r->div_branches);
	else
		fputs("<td></td>", f);
	listing(f, s, l);
	fputs("</tr>\n", f);
}

/* the table of one PTX file: path's lines, the instructions of file s->unit; 0, or -1 when
 * out of memory */
static int table(FILE *f, Src *s, const char *path)
{
	const RpPage *pg = s->pg;
	const Kernel *k = pg->k;
	RpLines ptx;
	int nrows, n, *at = NULL, rc = -1;
	const LineRow *rows = rp_linestats_rows(pg->ls, LS_PTX, &nrows);
	const LineRow **by = NULL;
	LineRow none = {0};      /* a linked program's instructions without a line in this file */
	uint64_t max = 0;

	s->path = path;
	rp_lines_load(&ptx, path);
	n = ptx.n && !*rp_lines_at(&ptx, ptx.n) ? ptx.n - 1 : ptx.n;   /* not the empty line after the last newline */
	for (int i = 0; i < k->nins; i++)
		if (k->ins[i].ptxfile == s->unit)
			n = k->ins[i].ptxline > n ? k->ins[i].ptxline : n;
	s->first = malloc(((size_t)n + 1) * sizeof *s->first);
	at = malloc(((size_t)n + 1) * sizeof *at);
	by = calloc((size_t)n + 1, sizeof *by);
	if (!s->first || !at || !by)
		goto out;
	for (int l = 0; l <= n; l++)
		s->first[l] = at[l] = -1;
	s->lastfile = -1;
	s->lastline = 0;
	for (int i = 0; i < k->nins; i++) {       /* each line's instructions in address order */
		int l = k->ins[i].ptxline > 0 ? k->ins[i].ptxline : 0;
		if (k->ins[i].ptxfile != s->unit)
			continue;
		s->next[i] = -1;
		if (at[l] < 0)
			s->first[l] = i;
		else
			s->next[at[l]] = i;
		at[l] = i;
		if (s->linked && !l) {
			none.warp_insts += s->ins[i].warp_insts;
			none.exec_lanes += s->ins[i].exec_lanes;
			none.div_branches += s->ins[i].div_branches;
			for (int r = 0; r < STALL_COUNT; r++)
				none.stall[r] += s->ins[i].stall[r];
		}
	}
	for (int i = 0; i < nrows; i++)
		if (rows[i].line >= 0 && rows[i].line <= n && (!s->linked || rows[i].file == s->unit)) {
			by[rows[i].line] = &rows[i];
			if (rows[i].line && cost(&rows[i]) > max)
				max = cost(&rows[i]);
		}
	if (s->linked)
		by[0] = &none;
	fprintf(f, "<table class=\"src\"%s>\n<tr><th>line</th><th>PTX</th><th>warp-cycles</th>"
	        "<th>idle lanes</th><th>div</th><th>listing</th></tr>\n", s->linked || s->pre[0] ? "" :
	        " id=\"src\"");
	for (int l = 1; l <= n; l++)
		row(f, s, l, rp_lines_at(&ptx, l), by[l], max);
	if (s->first[0] >= 0)
		row(f, s, 0, "(no PTX line: added by the translator)", by[0], max);
	fputs("</table>\n", f);
	rc = 0;
out:
	free(s->first);
	s->first = NULL;
	free(at);
	free(by);
	rp_lines_free(&ptx);
	return rc;
}

/* the tables of pg's kernel (pre: "" or several launches' "kN-") */
static void source(FILE *f, const RpPage *pg, const char *pre)
{
	const Kernel *k = pg->k;
	int nfiles = pg->p->nptxfiles > 1 ? pg->p->nptxfiles : 1;
	Src s = {pg, 0, nfiles > 1, pg->program, NULL, NULL, NULL, 0, NULL, -1, 0, ""};

	snprintf(s.pre, sizeof s.pre, "%s", pre);
	s.next = malloc(((size_t)k->nins + 1) * sizeof *s.next);
	s.ins = calloc((size_t)k->nins + 1, sizeof *s.ins);
	s.cuda = pg->p->nfiles ? calloc((size_t)pg->p->nfiles, sizeof *s.cuda) : NULL;
	if (!s.next || !s.ins) {
		fputs("<p class=\"note\">Out of memory: the source table is left out.</p>\n", f);
		goto out;
	}
	for (int i = 0; i < k->nins; i++) {
		rp_linestats_ins(pg->ls, i, &s.ins[i]);
		if (cost(&s.ins[i]) > s.insmax)
			s.insmax = cost(&s.ins[i]);
	}
	if (s.linked) {
		fprintf(f, "<p>The program is linked from %d PTX files: a table for each, in "
		        "command-line order:", nfiles);
		for (int u = 0; u < nfiles; u++) {
			fprintf(f, "%s <a href=\"#%ssrc%d\">", u ? "," : "", pre, u);
			rp_html_esc(f, pg->p->ptxfiles[u]);
			fputs("</a>", f);
		}
		fputs(".</p>\n", f);
		if (!*pre)
			fputs("<div id=\"src\">\n", f);
	}
	for (s.unit = 0; s.unit < nfiles; s.unit++) {
		if (s.linked) {
			fprintf(f, "<h3 id=\"%ssrc%d\">", pre, s.unit);
			rp_html_esc(f, pg->p->ptxfiles[s.unit]);
			fputs("</h3>\n", f);
		}
		if (table(f, &s, s.linked ? pg->p->ptxfiles[s.unit] : pg->program)) {
			fputs("<p class=\"note\">Out of memory: the source table is left out.</p>\n", f);
			break;
		}
	}
	if (s.linked && !*pre)
		fputs("</div>\n", f);
out:
	for (int i = 0; s.cuda && i < pg->p->nfiles; i++)
		rp_lines_free(&s.cuda[i]);
	free(s.cuda);
	free(s.next);
	free(s.ins);
}

void rp_html_source(FILE *f, const RpPage *pg)
{
	fputs("<h2 id=\"source\">Source and listing</h2>\n", f);
	fputs("<p>Every PTX line beside the listing instructions translated from it, and above them "
	      "the CUDA line they came from (<code>.loc</code>). Shading: warp-cycles, the line's "
	      "issues plus the cycles warps waited before them; the bar: idle lanes, the share of "
	      "32 lanes per issue that were inactive or guard-false; div: issues that split a warp. "
	      "<label><input type=\"checkbox\" id=\"cold-toggle\"> hide the lines that never ran"
	      "</label></p>\n", f);
	if (!pg->nkerns) {
		source(f, pg, "");
		return;
	}
	/* several launches: a part per kernel, its launches summed (each its own listing) */
	fprintf(f, "<p>A part for each of the %d kernels launched, its launches' counts summed:", pg->nkerns);
	for (int i = 0; i < pg->nkerns; i++) {
		fprintf(f, "%s <a href=\"#k%d\"><code>", i ? "," : "", i);
		rp_html_esc(f, pg->kerns[i].k->name);
		fputs("</code></a>", f);
	}
	fputs(".</p>\n<div id=\"src\">\n", f);
	for (int i = 0; i < pg->nkerns; i++) {
		RpPage one = *pg;
		char pre[16];
		one.p = pg->kerns[i].p;
		one.k = pg->kerns[i].k;
		one.ls = pg->kerns[i].ls;
		snprintf(pre, sizeof pre, "k%d-", i);
		fprintf(f, "<h3 id=\"k%d\">kernel <code>", i);
		rp_html_esc(f, one.k->name);
		fputs("</code>, launch", f);
		fputs(strchr(pg->kerns[i].launches, ',') ? "es " : " ", f);
		rp_html_esc(f, pg->kerns[i].launches);
		fputs("</h3>\n", f);
		source(f, &one, pre);
	}
	fputs("</div>\n", f);
}
