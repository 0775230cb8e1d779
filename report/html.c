/* html.c - warpsim --report FILE.html (issue 18 part 5): one self-contained page (no network,
 * no server, no file beside it) of what a run and its exploration found: the run's figures, a
 * card per conditional branch (its decision as compiled and --explain's reason, what flipping
 * it did, the cost model's prediction against the measurement, the search's best decision),
 * the rules' regret, the PTX source beside the listing with every line shaded by its cycles
 * and its idle lanes (html_src.c), the warp timeline and the sweep chart as images. A small
 * script catches any script error into the page (#status) so that a headless browser's DOM
 * tells whether the page rendered (tests/browser/check.sh). docs/report.md is the manual.
 * Needs: the run's line statistics and statistics; the exploration and the pictures when they
 * ran (each absence is said in the page). Byte-for-byte deterministic.
 */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"

void rp_html_esc(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\t': fputs("    ", f); break;
		default: fputc(*s, f);
		}
}

/* the SVG text as an image that needs nothing beside the page: a data: URL in base64 */
static void svg_img(FILE *f, const char *svg, const char *alt)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *s = (const unsigned char *)svg;
	size_t n = strlen(svg);

	fputs("<img class=\"pic\" alt=\"", f);
	rp_html_esc(f, alt);
	fputs("\" src=\"data:image/svg+xml;base64,", f);
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)s[i] << 16 | (i + 1 < n ? (uint32_t)s[i + 1] << 8 : 0) |
		             (i + 2 < n ? s[i + 2] : 0);
		fputc(b64[v >> 18 & 63], f);
		fputc(b64[v >> 12 & 63], f);
		fputc(i + 1 < n ? b64[v >> 6 & 63] : '=', f);
		fputc(i + 2 < n ? b64[v & 63] : '=', f);
	}
	fputs("\">\n", f);
}

static const char css[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1400px}"
	"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}"
	"code,pre,.mono{font-family:monospace}"
	".note{background:#fff6d6;border-left:4px solid #e0b000;padding:.4em .8em}"
	".figs td{padding:0 1.2em 0 0}.figs td:nth-child(2){text-align:right;font-family:monospace}"
	".cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(380px,1fr));gap:.8em}"
	".card{border:1px solid #bbb;border-radius:6px;padding:.5em .8em;"
	"background:#fafafa}.card h3{margin:.1em 0 .3em;font-size:1em}"
	".card.pays{border-left:6px solid #2a9d3a}.card.holds{border-left:6px solid #4a78c2}"
	".card.idle{border-left:6px solid #aaa;color:#666}.card:target{outline:3px solid #e08000}"
	".card dl{display:grid;grid-template-columns:9.5em 1fr;margin:0;gap:.1em .5em;font-size:.9em}"
	".card dt{color:#555}.card dd{margin:0}"
	".verdict{font-weight:bold}.pays .verdict{color:#1d7a2b}"
	"table.rules,table.sweep{border-collapse:collapse}.rules{font-size:.85em}"
	".rules td,.rules th,.sweep td,.sweep th{border:1px solid #ccc;padding:.1em .35em;"
	"text-align:right}"
	"table.src{border-collapse:collapse;font-family:monospace;font-size:12px;width:100%}"
	".src td{padding:0 .4em;vertical-align:top;white-space:pre}"
	".src th{text-align:left;font-family:sans-serif;background:#eee;position:sticky;top:0}"
	".src td.n{text-align:right;color:#888}.src td.num{text-align:right}"
	".src tr.cuda td{background:#eef3fb;color:#234;font-style:italic}"
	".src tr:target td{outline:2px solid #e08000}"
	".src .asm{color:#333}.src .asm span{display:block}"
	".bar{display:inline-block;height:.8em;background:#4a78c2;vertical-align:middle}"
	".hide-cold tr.cold{display:none}"
	"img.pic{max-width:100%;border:1px solid #ddd}"
	".wide{overflow-x:auto}#status{color:#555;font-size:.85em}"
	".sweep td.wb{text-align:left}.wb span{display:inline-block;height:.9em;vertical-align:middle}"
	".key span{display:inline-block;width:.9em;height:.9em;margin:0 .25em 0 .8em;"
	"vertical-align:middle}"
	/* the warp timeline's colours (trace_svg.c); no warp at all is lighter than its idle */
	".w0{background:#2ca02c}.w1{background:#ff9f40}.w2{background:#d62728}.w3{background:#9467bd}"
	".w4{background:#e7c65a}.w5{background:#1f77b4}.w6{background:#d0d0d0}";

/* the script: errors anywhere in the page end in #status; the toggle hides lines that never
 * ran; when it has run, #status says so and how many cards the page holds */
static const char script_head[] =
	"window.rpErrors=[];window.onerror=function(m,s,l,c){window.rpErrors.push(m+' (line '+l+"
	"':'+c+')');var e=document.getElementById('status');if(e){e.setAttribute('data-errors',"
	"String(window.rpErrors.length));e.textContent='script errors: '+window.rpErrors.join('; ');}"
	"return false;};";
static const char script_tail[] =
	"(function(){var t=document.getElementById('cold-toggle'),s=document.getElementById('src');"
	"if(t&&s)t.addEventListener('change',function(){s.classList.toggle('hide-cold',t.checked);});"
	"var n=document.querySelectorAll('.card').length,st=document.getElementById('status');"
	"st.setAttribute('data-cards-seen',String(n));"
	"if(!window.rpErrors.length){st.setAttribute('data-ready','yes');"
	"st.textContent='page script ran: '+n+' branch card'+(n==1?'':'s')+', no script errors';}"
	"})();";

static double simd(uint64_t thread, uint64_t warp)
{
	return warp ? (double)thread / (32.0 * (double)warp) : 0.0;
}

static void figures(FILE *f, const RpPage *pg)
{
	const TStats *t = pg->ts;

	fputs("<table class=\"figs\">\n", f);
	fprintf(f, "<tr><td>cycles</td><td>%" PRIu64 "</td></tr>\n", t->cycles);
	fprintf(f, "<tr><td>warp instructions</td><td>%" PRIu64 "</td></tr>\n", t->warp_insts);
	fprintf(f, "<tr><td>SIMD efficiency</td><td>%.4f</td></tr>\n", simd(t->thread_insts, t->warp_insts));
	fprintf(f, "<tr><td>divergent branches</td><td>%" PRIu64 "</td></tr>\n", t->div_branches);
	fprintf(f, "<tr><td>predicated-off lanes</td><td>%" PRIu64 "</td></tr>\n", t->pred_off);
	fprintf(f, "<tr><td>CTAs</td><td>%" PRIu64 "</td></tr>\n", t->ctas);
	fputs("</table>\n", f);
}

/* several launches: a row per launch, its kernel, shape and figures */
static void launches(FILE *f, const RpPage *pg)
{
	fprintf(f, "<p>%d launches, one after another on one device memory; the figures above are "
	        "their sums, and every what-if below runs the whole sequence.</p>\n", pg->nlaunches);
	fputs("<table class=\"sweep\" id=\"launches\"><tr><th>launch</th><th>kernel</th><th>grid</th>"
	      "<th>block</th><th>cycles</th><th>warp instructions</th><th>SIMD efficiency</th>"
	      "<th>divergent branches</th><th>where</th></tr>\n", f);
	for (int i = 0; i < pg->nlaunches; i++) {
		const Launch *l = pg->launches[i].l;
		const TStats *t = pg->launches[i].ts;
		fprintf(f, "<tr><td>%d</td><td><code>", i + 1);
		rp_html_esc(f, l->kernel);       /* (each launch of several names its kernel) */
		fprintf(f, "</code></td><td>%" PRIu32 ",%" PRIu32 ",%" PRIu32 "</td><td>%" PRIu32 ",%" PRIu32
		        ",%" PRIu32 "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%.4f</td><td>%" PRIu64
		        "</td><td>", l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2],
		        t->cycles, t->warp_insts, simd(t->thread_insts, t->warp_insts), t->div_branches);
		rp_html_esc(f, l->where ? l->where : "command line");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* the decision the search found best for b: "pred", "branch", or NULL when it was not searched */
static const char *best_of(const Explore *x, const ExploreBranch *b, char *buf, size_t n)
{
	const char *s = x->best;
	char key[24];
	size_t k = (size_t)snprintf(key, sizeof key, "#%d=", b->index);

	for (; s && *s; s += strcspn(s, ","), s += *s == ',')
		if (!strncmp(s, key, k)) {
			snprintf(buf, n, "%.*s", (int)strcspn(s + k, ","), s + k);
			return buf;
		}
	return NULL;
}

static void dd(FILE *f, const char *term, const char *text)
{
	fprintf(f, "<dt>%s</dt><dd>", term);
	rp_html_esc(f, text);
	fputs("</dd>\n", f);
}

static void card(FILE *f, const RpPage *pg, const ExploreBranch *b)
{
	const Explore *x = pg->x;
	int ran = x->pts && x->pts[0].ok, have = 0, pred = 0, prof = 0;
	int64_t dc = 0, dw = 0;
	double ds = 0, pd = 0, pw = 0, pc = 0;
	char buf[256], best[16];
	const char *cls;

	if (ran) {
		have = rp_explore_delta(x, b, &dc, &dw, &ds);
		pred = have && rp_explore_predicted(b, &pd);
		prof = have && rp_explore_profile(x, b, &pw, &pc);
	}
	cls = have && dc < 0 ? "pays" : ran && b->measured && !b->execs ? "idle" : "holds";
	if (pg->nkerns)               /* several launches: the source table of its kernel */
		snprintf(buf, sizeof buf, "k%d-", b->kern);
	else
		buf[0] = 0;
	if (b->ptxfile[0]) {          /* a program linked from several PTX files */
		fprintf(f, "<div class=\"card %s\" id=\"b%d\">\n<h3>#%d &middot; <a href=\"#%sptx%d-%d\">",
		        cls, b->index, b->index, buf, b->ptxunit, b->ptxline);
		rp_html_esc(f, b->ptxfile);
		fprintf(f, " line %d</a>", b->ptxline);
	} else
		fprintf(f, "<div class=\"card %s\" id=\"b%d\">\n<h3>#%d &middot; <a href=\"#%sptx%d\">PTX line %d</a>",
		        cls, b->index, b->index, buf, b->ptxline, b->ptxline);
	if (pg->nkerns) {             /* several launches: its kernel (cli/kernels.c numbers them) */
		assert(b->kern >= 0 && b->kern < pg->nkerns);
		fputs(" &middot; ", f);
		rp_html_esc(f, pg->kerns[b->kern].k->name);
	}
	if (strcmp(b->cuda, "-")) {
		fputs(" &middot; ", f);
		rp_html_esc(f, b->cuda);
	}
	fputs(" &middot; ", f);
	rp_html_esc(f, b->shape);
	fputs("</h3>\n<dl>\n", f);
	dd(f, "as compiled", b->compiled);
	dd(f, "reason", b->rule);
	if (b->uniform[0])
		dd(f, "condition", b->uniform);
	if (b->size_taken >= 0) {
		snprintf(buf, sizeof buf, "%d taken, %d fall-through instructions", b->size_taken, b->size_fall);
		dd(f, "sides", buf);
	}
	if (ran && b->measured && b->execs) {
		snprintf(buf, sizeof buf, "%" PRIu64 " warp executions, %.1f%% diverged, lanes %.1f jump / "
		         "%.1f fall", b->execs, 100.0 * (double)b->diverged / (double)b->execs,
		         (double)b->jump / (double)b->execs, (double)(b->lanes - b->jump) / (double)b->execs);
		dd(f, "measured", buf);
	} else if (ran && b->measured)
		dd(f, "measured", pg->nlaunches ? "never executed in these launches" :
		   "never executed in this launch");
	else if (ran)
		dd(f, "measured", "no counts (its variant's run holds them and did not run)");
	if (!b->flip[0])
		snprintf(buf, sizeof buf, "no variant: %s", b->why);
	else if (have)
		snprintf(buf, sizeof buf, "%s: %+" PRId64 " cycles (%+.2f%%), %+" PRId64 " warp instructions, "
		         "SIMD %+.4f", b->predicated ? "as a branch" : "predicated", dc,
		         100.0 * (double)dc / (double)x->pts[0].cycles, dw, ds);
	else if (ran)
		snprintf(buf, sizeof buf, "%s: the variant did not run", b->predicated ? "as a branch" : "predicated");
	else
		snprintf(buf, sizeof buf, "%s: not run (see the note above)", b->predicated ? "as a branch" : "predicated");
	dd(f, "what if flipped", buf);
	if (have && rp_explore_where(x, b, buf, sizeof buf))
		dd(f, "where the cycles went (scheduler-cycles)", buf);
	if (prof) {
		char acc[160];
		rp_explore_account(x, b, acc, sizeof acc);
		snprintf(buf, sizeof buf, "%+.0f warp instructions (measured %+" PRId64 "): %s; %+.0f "
		         "cycles at %.2f a warp instruction (measured %+" PRId64 ")", pw, dw, acc, pc,
		         rp_explore_cpi(x), dc);
		dd(f, "model", buf);
	}
	if (b->cost_pred >= 0) {
		int n = snprintf(buf, sizeof buf, "%d cycles predicated, %d as a branch, per warp execution",
		                 b->cost_pred, b->cost_branch);
		if (pred)
			snprintf(buf + n, sizeof buf - (size_t)n, "; flip predicted %+.0f, measured %+" PRId64,
			         pd, dc);
		dd(f, "static cost model", buf);
	}
	if (have) {
		snprintf(buf, sizeof buf, "%s", dc < 0 ? "flipping pays" : "the decision as compiled holds");
		fprintf(f, "<dt>verdict</dt><dd class=\"verdict\">%s</dd>\n", buf);
	}
	if (best_of(x, b, best, sizeof best)) {
		snprintf(buf, sizeof buf, "%s (%s)", best, (strcmp(best, "pred") == 0) == b->predicated ?
		         "as compiled" : "flipped");
		dd(f, "best decision", buf);
	}
	fputs("</dl>\n</div>\n", f);
}

static void rules(FILE *f, const Explore *x)
{
	const SweepPoint *base = &x->pts[0];

	if (x->nf)
		fprintf(f, "<p>Best decisions (%s over %d branch%s, %d vector%s translated, %d feasible): "
		        "<code>--decide %s</code>: %" PRIu64 " cycles, %+.2f%% against the program as "
		        "compiled (%" PRIu64 ").</p>\n", x->exhaustive ? "every combination" : "coordinate descent",
		        x->nf, x->nf == 1 ? "" : "es", x->tried, x->tried == 1 ? "" : "s", x->feasible, x->best,
		        x->best_cycles, 100.0 * ((double)x->best_cycles - (double)base->cycles) /
		        (double)base->cycles, base->cycles);
	else
		fputs("<p>No executed branch has a variant: the best is the program as compiled.</p>\n", f);
	for (int profile = 1; profile >= 0; profile--) {
		char score[256];
		if (!rp_explore_score(x, profile, score, sizeof score))
			continue;
		score[0] = (char)toupper((unsigned char)score[0]);
		fputs("<p>", f);
		rp_html_esc(f, score);
		fputs(".</p>\n", f);
	}
	if (!x->nheur)
		return;
	fputs("<div class=\"wide\"><table class=\"rules\"><tr><th>rule</th><th>as compiled</th>", f);
	for (int i = 0; i < x->nheur; i++)
		fprintf(f, "<th>%s</th>", x->heur[i].name);
	fprintf(f, "</tr>\n<tr><th>cycles</th><td>%" PRIu64 "</td>", base->cycles);
	for (int i = 0; i < x->nheur; i++)
		if (x->heur[i].ok)
			fprintf(f, "<td>%" PRIu64 "</td>", x->heur[i].cycles);
		else
			fputs("<td>-</td>", f);
	fprintf(f, "</tr>\n<tr><th>regret</th><td>%+.2f%%</td>",
	        x->best_all ? 100.0 * ((double)base->cycles - (double)x->best_all) / (double)x->best_all : 0);
	for (int i = 0; i < x->nheur; i++)
		if (x->heur[i].ok)
			fprintf(f, "<td>%+.2f%%</td>", x->heur[i].regret);
		else
			fputs("<td>did not run</td>", f);
	fputs("</tr>\n", f);
	fprintf(f, "</table></div>\n<p>The rules: fermi (the Programming Guide's 7/4, SSY loops), kepler "
	        "(ptxas 11.8's sm_35 8/6, PBK loops), and one --predicate-max threshold for both kinds "
	        "of branch (0 .. 16, inf). Regret: %% cycles above the best run of all (%" PRIu64 ").</p>\n",
	        x->best_all);
}

static void branches(FILE *f, const RpPage *pg)
{
	const Explore *x = pg->x;

	fputs("<h2 id=\"branches\">Branches</h2>\n", f);
	if (pg->explore_note) {
		fputs("<p class=\"note\">", f);
		rp_html_esc(f, pg->explore_note);
		fputs("</p>\n", f);
	}
	if (!x || !x->nb) {
		fputs("<p>The program has no conditional branch with a decision to show.</p>\n", f);
		return;
	}
	fprintf(f, "<p>%d conditional branch%s, numbered as <code>warpc --explain</code> numbers them. "
	        "Green: flipping the decision pays on %s; blue: the decision as compiled "
	        "holds; grey: never executed.", x->nb, x->nb == 1 ? "" : "es",
	        pg->nlaunches ? "these launches" : "this launch");
	if (x->pts && x->pts[0].ok && x->rc == 0 && x->pts[0].nbufs)
		fprintf(f, " Every variant left the same memory as the program as compiled (%d buffer%s "
		        "compared).", x->pts[0].nbufs, x->pts[0].nbufs == 1 ? "" : "s");
	else if (x->pts && x->rc == 3)
		fputs(" <b>A variant left different memory: see the messages of the run.</b>", f);
	fputs("</p>\n<div class=\"cards\">\n", f);
	for (int i = 0; i < x->nb; i++)
		card(f, pg, &x->b[i]);
	fputs("</div>\n", f);
	if (x->pts && x->pts[0].ok && x->best)
		rules(f, x);
}

/* a point's scheduler-cycles accounted: v[] its warp instructions, then its stall counts;
 * returns their sum, 0 when it has no counts (it did not run, or ran --functional) */
static uint64_t where_counts(const SweepPoint *p, uint64_t v[RP_NSTALL + 1])
{
	uint64_t sum = v[0] = p->warp_insts;

	for (int k = 0; k < RP_NSTALL; k++)
		sum += v[k + 1] = p->stall[k];
	return p->ok && p->stalls ? sum : 0;
}

/* the largest of the points' where_counts sums, 0 when no point has the counts */
static uint64_t where_max(const RpPage *pg)
{
	uint64_t m = 0, v[RP_NSTALL + 1], t;

	for (int i = 0; i < pg->sp->nvals; i++)
		if ((t = where_counts(&pg->spts[i], v)) > m)
			m = t;
	return m;
}

/* a point's scheduler-cycles as one bar of segments, issued then each stall, its length
 * against the longest point's (max) */
static void where_bar(FILE *f, const SweepPoint *p, uint64_t max)
{
	uint64_t v[RP_NSTALL + 1], sum = where_counts(p, v);

	fputs("<td class=\"wb\">", f);
	for (int c = 0; c <= RP_NSTALL; c++)
		if (v[c])
			fprintf(f, "<span class=\"w%d\" style=\"width:%.2fpx\" title=\"%s %" PRIu64
			        " (%.1f%%)\"></span>", c, 360.0 * (double)v[c] / (double)max,
			        c ? rp_stall_col(c - 1) : "issued", v[c], 100.0 * (double)v[c] / (double)sum);
	fputs("</td>", f);
}

static void sweep(FILE *f, const RpPage *pg)
{
	const SweepSpec *sp = pg->sp;
	uint64_t max;

	fputs("<h2 id=\"sweep\">Sweep</h2>\n", f);
	if (pg->sweep_note) {
		fputs("<p class=\"note\">", f);
		rp_html_esc(f, pg->sweep_note);
		fputs("</p>\n", f);
	}
	if (!sp || !pg->spts)
		return;
	fprintf(f, "<p>The same %s at every value of <code>--%s</code>.</p>\n",
	        pg->nlaunches ? "launches" : "launch", sp->key);
	if (pg->sweep_svg)
		svg_img(f, pg->sweep_svg, "the sweep chart");
	max = where_max(pg);
	if (max) {
		fputs("<p class=\"key\">Where the cycles went, in scheduler-cycles (a bar a point, its "
		      "length their sum, about its cycles times its schedulers): the warp instructions "
		      "issued, then the cycles a scheduler issued none, by what its first warp waited on:",
		      f);
		for (int c = 0; c <= RP_NSTALL; c++)
			fprintf(f, "<span class=\"w%d\"></span>%s", c, c ? rp_stall_col(c - 1) : "issued");
		fputs(".</p>\n", f);
	}
	fprintf(f, "<table class=\"sweep\"><tr><th>--%s</th><th>cycles</th><th>warp instructions</th>"
	        "<th>SIMD efficiency</th><th>same memory</th>%s</tr>\n", sp->key,
	        max ? "<th>where the cycles went</th>" : "");
	for (int i = 0; i < sp->nvals; i++) {
		const SweepPoint *p = &pg->spts[i];
		fputs("<tr><td>", f);
		rp_html_esc(f, sp->vals[i]);
		if (p->ok)
			fprintf(f, "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%.4f</td><td>%s</td>",
			        p->cycles, p->warp_insts, simd(p->thread_insts, p->warp_insts),
			        p->outs_differ ? "NO" : "yes");
		else
			fprintf(f, "</td><td colspan=\"%d\">did not run</td>", max ? 5 : 4);
		if (p->ok && max && p->stalls)
			where_bar(f, p, max);
		else if (p->ok && max)
			fputs("<td></td>", f);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

int rp_html_write(const char *path, const RpPage *pg, char *err, size_t errsz)
{
	FILE *f = fopen(path, "w");
	int ncards = pg->x ? pg->x->nb : 0;

	if (!f) {
		snprintf(err, errsz, "--report: cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>warpsim: ", f);
	for (int i = 0; i < (pg->nlaunches ? pg->nlaunches : 1); i++) {
		if (i)
			fputs(", ", f);
		rp_html_esc(f, pg->nlaunches ? pg->launches[i].l->kernel : pg->k->name);
	}
	fprintf(f, "</title>\n<style>%s</style>\n<script>%s</script>\n</head>\n<body>\n", css, script_head);
	if (pg->nlaunches) {    /* several launches: every launch's kernel */
		fprintf(f, "<h1>warpsim report: %d launches (", pg->nlaunches);
		for (int i = 0; i < pg->nlaunches; i++) {
			fputs(i ? ", <code>" : "<code>", f);
			rp_html_esc(f, pg->launches[i].l->kernel);
			fputs("</code>", f);
		}
		fputs(") of <code>", f);
	} else {
		fputs("<h1>warpsim report: kernel <code>", f);
		rp_html_esc(f, pg->k->name);
		fputs("</code> of <code>", f);
	}
	for (int i = 0; i < pg->p->nptxfiles; i++) {     /* a program linked from several files */
		if (i)
			fputs(" + ", f);
		rp_html_esc(f, pg->p->ptxfiles[i]);
	}
	if (pg->p->nptxfiles < 2)
		rp_html_esc(f, pg->program);
	fputs("</code></h1>\n<p class=\"mono\">", f);
	rp_html_esc(f, pg->command);
	fprintf(f, "</p>\n<p id=\"status\" data-cards=\"%d\" data-ready=\"no\" data-errors=\"0\">"
	        "the page's script has not run</p>\n", ncards);
	fputs("<p><a href=\"#branches\">Branches</a> &middot; <a href=\"#source\">Source and listing"
	      "</a> &middot; <a href=\"#timeline\">Warp timeline</a> &middot; <a href=\"#sweep\">Sweep"
	      "</a></p>\n<h2>The run</h2>\n", f);
	figures(f, pg);
	if (pg->nlaunches)
		launches(f, pg);
	branches(f, pg);
	rp_html_source(f, pg);
	fputs("<h2 id=\"timeline\">Warp timeline</h2>\n", f);
	if (pg->timeline)
		svg_img(f, pg->timeline, "the warp timeline");
	else
		fputs("<p class=\"note\">The warp timeline was not written.</p>\n", f);
	sweep(f, pg);
	fputs("<p>Written by warpsim --report (docs/report.md).</p>\n", f);
	fprintf(f, "<script>%s</script>\n</body>\n</html>\n", script_tail);
	if (ferror(f) | (fclose(f) != 0)) {
		snprintf(err, errsz, "--report: error writing '%s'", path);
		return -1;
	}
	return 0;
}
