/* sweep_svg.c - --sweep-svg: the sweep's plot, cycles (left axis) and SIMD efficiency
 * (right axis, 0..100%) against the swept values, evenly spaced in the order given. The cycle
 * axis spans the data in round steps, not from zero (a break mark on the axis and its title
 * say so), so that a few percent show at a glance; the fastest setting is ringed and named
 * with its value and cycles, a dashed line carries its cycles across, and every other point
 * says how many % slower it is. Deterministic: the same points give the same bytes (run-shard
 * compares a merged plot with one process's). Calls nothing above report.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "report/report.h"

enum { W = 760, H = 440, L = 90, R = 80, T = 58, B = 80 };
#define PW ((double)(W - L - R))
#define PH ((double)(H - T - B))

/* a round axis step: 1, 2, 2.5 or 5 times a power of ten, at least v */
static double nicemax(double v)
{
	double p = 1;

	if (v <= 0)
		return 1;
	while (p * 10 < v)
		p *= 10;
	while (p > v)
		p /= 10;
	return v <= p ? p : v <= 2 * p ? 2 * p : v <= 2.5 * p ? 2.5 * p : v <= 5 * p ? 5 * p : 10 * p;
}

/* the cycle axis: from lo to hi in 5 round steps around the data, so that a difference of a
 * few percent is visible; it starts at zero only when the data come near it */
static void cycle_axis(double min, double max, double *lo, double *hi)
{
	double span = max - min, step;

	if (span < max * 0.002)      /* (nearly) flat: a band of about 1% around it */
		span = max * 0.01 > 5 ? max * 0.01 : 5;
	step = nicemax(span / 5);
	*lo = floor(min / step) * step;
	*hi = ceil(max / step) * step;
	while ((*hi - *lo) / step < 5)
		*hi += step;
	if (*lo < 0 || *lo < (*hi - *lo) / 2)
		*lo = 0;
}

static double xpos(int i, int n)
{
	return L + PW * (n > 1 ? (double)i / (n - 1) : 0.5);
}

/* the text anchor that keeps a label beside point i inside the picture */
static const char *anchor(int i, int n)
{
	return n > 1 && i == 0 ? "start" : n > 1 && i == n - 1 ? "end" : "middle";
}

/* the grid, the axes and their titles; a break mark on the cycle axis when it does not
 * start at zero */
static void axes(FILE *f, const SweepSpec *sp, const SweepPoint *pts, double lo, double hi)
{
	double step = nicemax((hi - lo) / 7 > 0 ? (hi - lo) / 7 : 1);
	int nt, dec, n = sp->nvals, bot = T + (int)PH;

	while ((hi - lo) / step > 7.5)
		step = nicemax(step * 1.01);
	nt = (int)((hi - lo) / step + 0.5);
	dec = step < 10 && step != floor(step);
	for (int k = 0; k <= nt; k++) {
		double y = T + PH - PH * k / (double)nt;
		fprintf(f, "<line class=\"gr\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
		        "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.*f</text>\n", L, y, W - R, y,
		        L - 6, y + 4, dec, lo + step * k);
	}
	for (int k = 0; k <= 5; k++) {
		double y = T + PH - PH * k / 5.0;
		fprintf(f, "<line class=\"ax\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
		        "<text x=\"%d\" y=\"%.1f\">%d%%</text>\n", W - R, y, W - R + 4, y, W - R + 7, y + 4, 20 * k);
	}
	fprintf(f, "<line class=\"ax\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
	        "<line class=\"ax\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
	        "<line class=\"ax\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
	        L, T, L, bot, W - R, T, W - R, bot, L, bot, W - R, bot);
	if (lo > 0)      /* the axis is broken between 0 and lo */
		fprintf(f, "<g class=\"brk\"><rect x=\"%d\" y=\"%d\" width=\"14\" height=\"7\" fill=\"#fff\"/>"
		        "<path d=\"M%d %d l14 -6 M%d %d l14 -6\"/></g>\n",
		        L - 7, bot - 16, L - 7, bot - 8, L - 7, bot - 14);
	fprintf(f, "<text transform=\"translate(20 %d) rotate(-90)\" text-anchor=\"middle\" "
	        "style=\"fill:#1f77b4\">", T + (int)PH / 2);
	if (lo > 0)
		fprintf(f, "cycles (the axis starts at %.*f, not 0)", dec, lo);
	else
		fprintf(f, "cycles");
	fprintf(f, "</text>\n<text transform=\"translate(%d %d) rotate(90)\" text-anchor=\"middle\" "
	        "style=\"fill:#ff7f0e\">SIMD efficiency</text>\n", W - 22, T + (int)PH / 2);
	for (int i = 0; i < n; i++) {
		double x = xpos(i, n);
		fprintf(f, "<line class=\"ax\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
		        "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", x, bot, x, bot + 5, x, bot + 20);
		rp_html_esc(f, sp->vals[i]);
		fprintf(f, "%s</text>\n", pts[i].ok ? "" : " (failed)");
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">--", L + (int)PW / 2, bot + 42);
	rp_html_esc(f, sp->key);
	fprintf(f, "</text>\n");
}

/* one series: a line through the points that ran (broken at a failed one) and its marks;
 * cycles (s 0) on [lo, hi], SIMD efficiency (s 1) on 0..100% */
static void series(FILE *f, int s, const SweepSpec *sp, const SweepPoint *pts, double lo, double hi)
{
	int any = 0, n = sp->nvals;

	fprintf(f, "<path class=\"%s\" d=\"", s ? "e" : "c");
	for (int i = 0; i < n; i++) {
		double v = s ? rp_sweep_simd(&pts[i]) / 100.0 : ((double)pts[i].cycles - lo) / (hi - lo);
		if (!pts[i].ok) {
			any = 0;
			continue;
		}
		fprintf(f, "%s%.1f %.1f", any ? " L" : "M", xpos(i, n), T + PH - PH * v);
		any = 1;
	}
	fprintf(f, "\"/>\n");
	for (int i = 0; i < n; i++) {
		double x = xpos(i, n), v;
		if (!pts[i].ok)
			continue;
		if (s) {
			v = rp_sweep_simd(&pts[i]) / 100.0;
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"7\" fill=\"#ff7f0e\"><title>%.1f%%"
			        "</title></rect>\n", x - 3.5, T + PH - PH * v - 3.5, 100 * v);
		} else {
			v = ((double)pts[i].cycles - lo) / (hi - lo);
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#1f77b4\"><title>%" PRIu64
			        " cycles</title></circle>\n", x, T + PH - PH * v, pts[i].cycles);
		}
	}
}

/* the fastest point(s) ringed, the first named with its value and cycles, a dashed line at
 * its cycles; every other point's % above it */
static void mark_best(FILE *f, const SweepSpec *sp, const SweepPoint *pts, int best, double lo, double hi)
{
	int n = sp->nvals;
	double by = T + PH - PH * ((double)pts[best].cycles - lo) / (hi - lo);

	fprintf(f, "<line class=\"bl\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", L, by, W - R, by);
	for (int i = 0; i < n; i++) {
		double x = xpos(i, n), y = T + PH - PH * ((double)pts[i].cycles - lo) / (hi - lo);
		if (!pts[i].ok)
			continue;
		if (pts[i].cycles == pts[best].cycles) {
			fprintf(f, "<circle class=\"best\" cx=\"%.1f\" cy=\"%.1f\" r=\"9\"/>\n", x, y);
			continue;
		}
		fprintf(f, "<text class=\"pct\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">+%.1f%%</text>\n", x,
		        y - 10 < T + 4 ? y + 20 : y - 10, anchor(i, n),
		        100.0 * (double)(pts[i].cycles - pts[best].cycles) / (double)pts[best].cycles);
	}
	/* its name below the ring when there is room (the other points are above it), else above */
	fprintf(f, "<text class=\"bt\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">best: ", xpos(best, n),
	        by + 27 < T + PH - 4 ? by + 27 : by - 15, anchor(best, n));
	rp_html_esc(f, sp->vals[best]);
	fprintf(f, ", %" PRIu64 " cycles</text>\n", pts[best].cycles);
}

int rp_sweep_svg(const char *path, const SweepSpec *sp, const SweepPoint *pts, FILE *err)
{
	FILE *f = fopen(path, "w");
	double lo, hi;
	int n = sp->nvals, best = -1, worst = -1;

	if (!f) {
		fprintf(err, "warpsim: --sweep-svg: cannot write '%s': %s\n", path, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (pts[i].ok) {
			if (best < 0 || pts[i].cycles < pts[best].cycles)
				best = i;
			if (worst < 0 || pts[i].cycles > pts[worst].cycles)
				worst = i;
		}
	if (best >= 0)
		cycle_axis((double)pts[best].cycles, (double)pts[worst].cycles, &lo, &hi);
	else
		cycle_axis(0, 0, &lo, &hi);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
	        "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n<style>text{font-family:sans-serif;"
	        "font-size:12px;fill:#222}.ax{stroke:#444}.gr{stroke:#000;stroke-opacity:0.1}"
	        ".c{stroke:#1f77b4;stroke-width:2;fill:none}.e{stroke:#ff7f0e;stroke-width:2;fill:none;"
	        "stroke-dasharray:6 4}.brk path{stroke:#444;fill:none}.bl{stroke:#2ca02c;stroke-dasharray:3 3}"
	        ".best{fill:none;stroke:#2ca02c;stroke-width:2.5}.bt{fill:#2ca02c;font-weight:bold}"
	        ".pct{fill:#555;font-size:11px}</style>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
	        W, H, W, H);
	fprintf(f, "<text x=\"%d\" y=\"24\" text-anchor=\"middle\" style=\"font-size:15px;font-weight:bold\">"
	        "cycles and SIMD efficiency against --", W / 2);
	rp_html_esc(f, sp->key);
	fprintf(f, "</text>\n");
	if (best >= 0 && pts[worst].cycles > pts[best].cycles) {
		fprintf(f, "<text x=\"%d\" y=\"42\" text-anchor=\"middle\" style=\"fill:#2ca02c\">best: --", W / 2);
		rp_html_esc(f, sp->key);
		fputc(' ', f);
		rp_html_esc(f, sp->vals[best]);
		fprintf(f, ", %" PRIu64 " cycles, %.1f%% fewer than the worst (", pts[best].cycles,
		        100.0 * (double)(pts[worst].cycles - pts[best].cycles) / (double)pts[worst].cycles);
		rp_html_esc(f, sp->vals[worst]);
		fprintf(f, ")</text>\n");
	} else if (best >= 0)
		fprintf(f, "<text x=\"%d\" y=\"42\" text-anchor=\"middle\">every setting took %" PRIu64
		        " cycles</text>\n", W / 2, pts[best].cycles);
	axes(f, sp, pts, lo, hi);
	series(f, 1, sp, pts, lo, hi);
	series(f, 0, sp, pts, lo, hi);
	if (best >= 0 && pts[worst].cycles > pts[best].cycles)
		mark_best(f, sp, pts, best, lo, hi);
	fprintf(f, "<line class=\"c\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><text x=\"%d\" y=\"%d\">cycles (left axis)</text>\n"
	        "<line class=\"e\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><text x=\"%d\" y=\"%d\">SIMD efficiency (right axis)</text>\n"
	        "<line class=\"bl\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><text x=\"%d\" y=\"%d\">the best setting;"
	        " +N%%: slower than it</text>\n</svg>\n",
	        L, H - 12, L + 30, H - 12, L + 36, H - 8, L + 170, H - 12, L + 200, H - 12, L + 206, H - 8,
	        L + 380, H - 12, L + 410, H - 12, L + 416, H - 8);
	if (ferror(f) | (fclose(f) != 0)) {
		fprintf(err, "warpsim: --sweep-svg: error writing '%s'\n", path);
		return -1;
	}
	return 0;
}
