/* trace_svg.c - the warp timeline picture (--trace FILE.svg): x cycles, one row per warp
 * slot of an SM (successive CTAs in the slot share the row), colour by what the warp did:
 * issuing (shaded by how many lanes were active), ready but not selected, stalled by reason,
 * waiting at a barrier, done; marks where the warp diverged or lanes reconverged. Every row
 * keeps its label at any size (the picture grows); with many rows they are grouped under
 * their SM, a band per CTA; --trace-sms and --trace-warps choose the rows drawn.
 *
 * Long runs are aggregated: cycles fall in at most NB buckets per row, the bucket width
 * doubling (adjacent buckets merged, exactly) whenever the run outgrows them; at the end the
 * buckets are merged further so that rows x buckets stays small, and each bucket is drawn in
 * the colour of the state that took most of its cycles. Runs of equal buckets become one
 * rectangle, so the file stays small (tens of KB for 64 warps) whatever the run's length. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"

enum { NB = 1500, CELLS = 16000, PLOTW = 1000, LEFT = 150, TOP = 48 };

typedef enum { S_ISSUE, S_READY, S_RAW_ALU, S_RAW_MEM, S_PIPE, S_CTRL, S_IDLE, S_BAR, S_DONE, S_N } State;

static const struct { const char *name, *colour; } states[S_N] = {
	[S_ISSUE] = {"issuing", "#2ca02c"},
	[S_READY] = {"ready, not selected", "#b5e3a8"},
	[S_RAW_ALU] = {"stall: raw_alu", "#ff9f40"},
	[S_RAW_MEM] = {"stall: raw_mem", "#d62728"},
	[S_PIPE] = {"stall: pipe_busy", "#9467bd"},
	[S_CTRL] = {"stall: control", "#e7c65a"},
	[S_IDLE] = {"stall: idle", "#8c8c8c"},
	[S_BAR] = {"at barrier", "#1f77b4"},
	[S_DONE] = {"done", "#e4e4e4"},
};

typedef struct {
	int sm, slot;           /* SM and warp slot (TraceIssue.gwarp) */
	int ctas;               /* warps seen in the slot */
	int cta, warp;          /* the latest: linear CTA id and warp in the CTA */
	int launch;             /* and its launch (several launches), from 0 */
	int firstcta;           /* the first warp's CTA */
	int firstlaunch;        /* and launch */
	uint64_t end;           /* where the last span drawn ended */
	int atbar;              /* waiting at a barrier since barfrom */
	uint64_t barfrom;
	int done;               /* the warp finished at donefrom */
	uint64_t donefrom;
	uint32_t *cnt;          /* NB x S_N: cycles per bucket and state */
	uint32_t *div, *rcv;    /* NB: divergences and reconvergences per bucket */
	uint32_t *lanes, *nis;  /* NB: active lanes summed over the bucket's issues, and issues */
	uint64_t total[S_N];    /* cycles per state over the window */
} Row;

typedef struct {
	TOut *o;                /* the file */
	TraceInfo ti;           /* the run */
	Row *rows;              /* rows in order of appearance */
	int nrows, caprows;
	int *ix;                /* row index per sm * TM_MAXWARPS + slot, -1 when none */
	int nix;
	uint64_t w;             /* bucket width in cycles (a power of two) */
	uint64_t maxc;          /* one past the last cycle seen */
	int ended;              /* the end record arrived */
	uint64_t cycles;        /* the run's length */
	int oom;                /* out of memory: the picture says so */
	struct { uint64_t from; char name[48]; } *mark;   /* several launches: where each began */
	int nmark;
	int launch;             /* the launch under way */
} Svg;

static int mapstall(int why)
{
	switch ((StallReason)why) {
	case STALL_NONE: return S_READY;
	case STALL_RAW_ALU: return S_RAW_ALU;
	case STALL_RAW_MEM: return S_RAW_MEM;
	case STALL_PIPE: return S_PIPE;
	case STALL_CTRL: return S_CTRL;
	case STALL_BARRIER: return S_BAR;
	case STALL_IDLE: return S_IDLE;
	case STALL_COUNT: break;
	}
	return S_IDLE;
}

/* doubles the bucket width: bucket k takes buckets 2k and 2k+1 */
static void widen(Svg *s)
{
	for (int r = 0; r < s->nrows; r++) {
		Row *w = &s->rows[r];
		for (int k = 0; k < NB / 2; k++) {
			for (int st = 0; st < S_N; st++)
				w->cnt[k * S_N + st] = w->cnt[2 * k * S_N + st] + w->cnt[(2 * k + 1) * S_N + st];
			w->div[k] = w->div[2 * k] + w->div[2 * k + 1];
			w->rcv[k] = w->rcv[2 * k] + w->rcv[2 * k + 1];
			w->lanes[k] = w->lanes[2 * k] + w->lanes[2 * k + 1];
			w->nis[k] = w->nis[2 * k] + w->nis[2 * k + 1];
		}
		memset(w->cnt + NB / 2 * S_N, 0, (size_t)(NB - NB / 2) * S_N * sizeof *w->cnt);
		memset(w->div + NB / 2, 0, (size_t)(NB - NB / 2) * sizeof *w->div);
		memset(w->rcv + NB / 2, 0, (size_t)(NB - NB / 2) * sizeof *w->rcv);
		memset(w->lanes + NB / 2, 0, (size_t)(NB - NB / 2) * sizeof *w->lanes);
		memset(w->nis + NB / 2, 0, (size_t)(NB - NB / 2) * sizeof *w->nis);
	}
	s->w *= 2;
}

/* the bucket of cycle c (inside the window), widening as needed */
static int bucket(Svg *s, uint64_t c)
{
	while ((c - s->ti.lo) / s->w >= NB)
		widen(s);
	if (c + 1 > s->maxc)
		s->maxc = c + 1;
	return (int)((c - s->ti.lo) / s->w);
}

static int inwin(const Svg *s, uint64_t c)
{
	return c >= s->ti.lo && c <= s->ti.hi;
}

/* the cycles a..b-1 in state st */
static void span(Svg *s, Row *r, uint64_t a, uint64_t b, int st)
{
	int k0, k1;

	if (a < s->ti.lo)
		a = s->ti.lo;
	if (s->ti.hi != UINT64_MAX && b > s->ti.hi + 1)
		b = s->ti.hi + 1;
	if (b <= a || s->oom)
		return;
	k1 = bucket(s, b - 1);
	k0 = (int)((a - s->ti.lo) / s->w);
	r->total[st] += b - a;
	for (int k = k0; k <= k1; k++) {
		uint64_t lo = s->ti.lo + (uint64_t)k * s->w, hi = lo + s->w;
		r->cnt[k * S_N + st] += (uint32_t)((b < hi ? b : hi) - (a > lo ? a : lo));
	}
}

static void rowfree(Row *r)
{
	free(r->cnt);
	free(r->div);
	free(r->rcv);
	free(r->lanes);
	free(r->nis);
}

static Row *row(Svg *s, int sm, int slot)
{
	int i;
	Row *r;

	if (s->oom || sm < 0 || slot < 0 || slot >= TM_MAXWARPS || sm >= TM_MAXSMS ||
	    (s->ti.sms && !s->ti.sms[sm]) || (s->ti.warps && !s->ti.warps[slot]))
		return NULL;    /* not drawn (--trace-sms, --trace-warps) */
	i = sm * TM_MAXWARPS + slot;
	if (i >= s->nix) {
		int n = (sm + 8) * TM_MAXWARPS;
		int *p = realloc(s->ix, (size_t)n * sizeof *p);
		if (!p)
			goto oom;
		for (int k = s->nix; k < n; k++)
			p[k] = -1;
		s->ix = p;
		s->nix = n;
	}
	if (s->ix[i] >= 0)
		return &s->rows[s->ix[i]];
	if (s->nrows == s->caprows) {
		int n = s->caprows ? 2 * s->caprows : 16;
		Row *p = realloc(s->rows, (size_t)n * sizeof *p);
		if (!p)
			goto oom;
		s->rows = p;
		s->caprows = n;
	}
	r = &s->rows[s->nrows];
	memset(r, 0, sizeof *r);
	r->sm = sm;
	r->slot = slot;
	r->cta = -1;
	r->cnt = calloc((size_t)NB * S_N, sizeof *r->cnt);
	r->div = calloc(NB, sizeof *r->div);
	r->rcv = calloc(NB, sizeof *r->rcv);
	r->lanes = calloc(NB, sizeof *r->lanes);
	r->nis = calloc(NB, sizeof *r->nis);
	if (!r->cnt || !r->div || !r->rcv || !r->lanes || !r->nis) {
		rowfree(r);
		goto oom;
	}
	s->ix[i] = s->nrows++;
	return r;
oom:
	s->oom = 1;
	return NULL;
}

/* a warp (cta, warp) begins in row r at cycle c: the previous one's done span ends */
static void newwarp(Svg *s, Row *r, int cta, int warp, uint64_t c)
{
	if (r->cta == cta && r->warp == warp && r->launch == s->launch)
		return;
	r->launch = s->launch;
	if (r->done)
		span(s, r, r->donefrom, c, S_DONE);
	if (!r->ctas++) {
		r->firstcta = cta;
		r->firstlaunch = s->launch;
	}
	r->cta = cta;
	r->warp = warp;
	r->done = r->atbar = 0;
	if (r->end < c)
		r->end = c;
}

static void *svg_open(TOut *o, const TraceInfo *ti)
{
	Svg *s = calloc(1, sizeof *s);

	if (!s)
		return NULL;
	s->o = o;
	s->ti = *ti;
	s->w = 1;
	s->maxc = ti->lo;
	return s;
}

static void svg_issue(void *st, const TraceIssue *t)
{
	Svg *s = st;
	const ExecInfo *e = t->e;
	Row *r = row(s, e->sm, t->gwarp);
	uint64_t c = t->cycle, a;

	if (!r)
		return;
	a = c >= t->stall_cycles ? c - t->stall_cycles : 0;
	newwarp(s, r, t->ctaid, e->warp, a);
	if (a < r->end)
		a = r->end;
	span(s, r, a, c, mapstall(t->stall_reason));
	if (c + 1 > r->end)          /* a second issue in the cycle (dual issue) adds no cycle */
		span(s, r, c, c + 1, S_ISSUE);
	if (r->end < c + 1)
		r->end = c + 1;
	if (inwin(s, c) && !s->oom) {
		int k = bucket(s, c);
		r->div[k] += e->diverged != 0;
		r->rcv[k] += e->reconverged != 0;
		r->lanes[k] += (uint32_t)__builtin_popcount(e->active);
		r->nis[k]++;
	}
	if (e->event == EV_WARP_DONE && !r->done) {
		r->done = 1;
		r->donefrom = c + 1;
	}
}

static void svg_event(void *st, const TraceEvent *ev)
{
	Svg *s = st;
	Row *r;

	switch ((TraceEvKind)ev->kind) {
	case TEV_CTA_START:
	case TEV_CTA_DONE:
	case TEV_COUNT:
		return;
	case TEV_WARP_START:
	case TEV_BAR_WAIT:
	case TEV_BAR_RELEASE:
	case TEV_WARP_DONE:
		break;
	}
	if (!(r = row(s, ev->sm, ev->gwarp)))
		return;
	switch ((TraceEvKind)ev->kind) {
	case TEV_WARP_START:
		newwarp(s, r, ev->ctaid, ev->warp, ev->cycle);
		break;
	case TEV_BAR_WAIT:
		r->atbar = 1;
		r->barfrom = ev->cycle > r->end ? ev->cycle : r->end;
		break;
	case TEV_BAR_RELEASE:
		if (!r->atbar)
			break;
		r->atbar = 0;
		span(s, r, r->barfrom > r->end ? r->barfrom : r->end, ev->cycle, S_BAR);
		if (r->end < ev->cycle)
			r->end = ev->cycle;
		break;
	case TEV_WARP_DONE:
		if (!r->done) {
			r->done = 1;
			r->donefrom = ev->cycle > r->end ? ev->cycle : r->end;
		}
		break;
	case TEV_CTA_START:
	case TEV_CTA_DONE:
	case TEV_COUNT:
		break;
	}
}

static void svg_end(void *st, uint64_t cycles)
{
	Svg *s = st;

	s->ended = 1;
	s->cycles = cycles;
}

/* (several launches) launch l begins: a mark on the axis; the slots' next warps are new */
static void svg_launch(void *st, const TraceInfo *ti, const TraceLaunch *l)
{
	Svg *s = st;
	void *p = realloc(s->mark, (size_t)(s->nmark + 1) * sizeof *s->mark);

	if (!p) {
		s->oom = 1;
		return;
	}
	s->mark = p;
	s->mark[s->nmark].from = l->from;
	snprintf(s->mark[s->nmark].name, sizeof s->mark[s->nmark].name, "%d: %.32s", l->i + 1,
	         ti->k->name);
	s->nmark++;
	s->ti.k = ti->k;
	s->launch = l->i;
	for (int i = 0; i < s->nrows; i++)
		s->rows[i].atbar = 0;
}

static int rowcmp(const void *a, const void *b)
{
	const Row *x = a, *y = b;
	return x->sm != y->sm ? (x->sm > y->sm) - (x->sm < y->sm) : (x->slot > y->slot) - (x->slot < y->slot);
}

/* growable text for one path */
typedef struct {
	char *s;
	size_t n, cap;
} Buf;

static void bprintf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bprintf(Buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (b->s && b->n + (size_t)n < b->cap) {
			b->n += (size_t)n;
			return;
		}
		size_t cap = (b->cap + (size_t)n + 1) * 2;
		char *p = realloc(b->s, cap);
		if (!p)
			return;
		b->s = p;
		b->cap = cap;
	}
}

/* a tick step of 1, 2 or 5 times a power of ten giving at most about ten ticks */
static uint64_t tickstep(uint64_t span)
{
	uint64_t p = 1;

	for (;;) {
		if (span / p <= 10)
			return p;
		if (span / (2 * p) <= 10)
			return 2 * p;
		if (span / (5 * p) <= 10)
			return 5 * p;
		p *= 10;
	}
}

/* issuing columns are shaded by the mean active lanes of their issues: 1-8, 9-16, 17-24,
 * 25-32 (codes S_N .. S_N + SHADES - 1 in place of S_ISSUE), and so is a strip along the
 * bottom of every column in which the warp issued, whatever else took most of its cycles */
enum { SHADES = 4, NCODE = S_N + SHADES };
static const char *const shade_colour[SHADES] = {"#c7e9c0", "#74c476", "#31a354", "#00632a"};

/* "0,2,4-7" from a set, for the subtitle */
static void setstr(const unsigned char *in, int max, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = 0;
	for (int i = 0; i < max && len < n; i++) {
		int j = i;
		if (!in[i])
			continue;
		while (j + 1 < max && in[j + 1])
			j++;
		len += (size_t)snprintf(buf + len, n - len, j > i ? "%s%d-%d" : "%s%d", len ? "," : "", i, j);
		i = j;
	}
}

/* XML text: names are identifiers and paths; keep XML special characters out */
static void xtext(TOut *o, const char *p)
{
	for (; *p; p++)
		rp_tout_printf(o, "%s", *p == '<' ? "&lt;" : *p == '&' ? "&amp;" : *p == '>' ? "&gt;" : (char[]){*p, 0});
}

/* the picture's geometry: columns of f buckets (wf cycles each) scaled by sx, rows rh high */
typedef struct {
	uint64_t f, nbf, wf;   /* buckets per column, columns, cycles per column */
	double sx;             /* pixels per column */
	int R, rh, fs, ms;     /* rows, row height, label font size, mark size */
	int grouped;           /* rows grouped by SM, CTAs banded */
	int nleg;              /* legend entries */
} Geo;

static Geo geometry(const Svg *s, uint64_t xend)
{
	uint64_t used = xend > s->ti.lo ? (xend - s->ti.lo + s->w - 1) / s->w : 0;
	Geo g = {.f = 1, .R = s->nrows, .grouped = s->nrows > 16, .nleg = SHADES + (S_N - 1) + 2};
	int budget = g.R ? CELLS / g.R : CELLS;

	if (budget < 100)
		budget = 100;
	while (used / g.f > (uint64_t)budget)
		g.f *= 2;
	g.nbf = used ? (used + g.f - 1) / g.f : 1;
	g.wf = s->w * g.f;
	g.sx = (double)PLOTW / (double)g.nbf;
	/* every row keeps a label at any size: the picture grows instead */
	g.rh = g.R <= 32 ? 18 : g.R <= 64 ? 14 : g.R <= 160 ? 10 : 8;
	g.fs = g.rh >= 14 ? 11 : g.rh >= 10 ? 8 : 7;
	g.ms = g.rh >= 14 ? 5 : g.rh >= 10 ? 3 : 2;
	return g;
}

/* the header: size, style, the kernel and what the picture covers */
static void draw_head(Svg *s, const Geo *g, uint64_t xend)
{
	TOut *o = s->o;
	int R = g->R, W = LEFT + PLOTW + 30, H = TOP + R * g->rh + 40 + 20 * ((g->nleg + 5) / 6) + 10;
	char sel[2][200];

	setstr(s->ti.sms ? s->ti.sms : (const unsigned char *)"", s->ti.sms ? TM_MAXSMS : 0, sel[0], sizeof sel[0]);
	setstr(s->ti.warps ? s->ti.warps : (const unsigned char *)"", s->ti.warps ? TM_MAXWARPS : 0, sel[1], sizeof sel[1]);
	rp_tout_printf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
	                W, H, W, H);
	rp_tout_printf(o, "<style>text{font-family:monospace;font-size:11px;fill:#222}.l{font-size:%dpx}"
	                ".g{font-weight:bold}.sep{stroke:#888;stroke-width:1}.bd{fill:#eef2f7}"
	                ".ax{stroke:#555;stroke-width:1}.gr{stroke:#000;stroke-opacity:0.08}"
	                ".dv{fill:#000}.rc{fill:#fff;stroke:#000;stroke-width:0.6}", g->fs);
	for (int k = 0; k < S_N; k++)
		rp_tout_printf(o, ".s%d{fill:%s}", k, states[k].colour);
	for (int k = 0; k < SHADES; k++)
		rp_tout_printf(o, ".a%d{fill:%s}", k, shade_colour[k]);
	if (s->ti.nlaunches)
		rp_tout_printf(o, ".ln{stroke:#000;stroke-width:1.5;stroke-dasharray:4 2}.lt{font-size:9px}");
	rp_tout_printf(o, "</style>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n");
	rp_tout_printf(o, "<text x=\"10\" y=\"18\" style=\"font-size:13px;font-weight:bold\">warpsim: ");
	if (s->ti.nlaunches) {  /* several launches: each kernel in launch order */
		rp_tout_printf(o, "%d launches:", s->ti.nlaunches);
		for (int i = 0; i < s->nmark && i < 8; i++) {      /* the line holds eight names */
			rp_tout_printf(o, "%s ", i ? "," : "");
			xtext(o, strchr(s->mark[i].name, ' ') + 1);
		}
		if (s->nmark > 8)
			rp_tout_printf(o, " and %d more", s->nmark - 8);
	} else {
		rp_tout_printf(o, "kernel ");
		xtext(o, s->ti.k->name);
	}
	rp_tout_printf(o, "</text>\n<text x=\"10\" y=\"34\">");
	xtext(o, s->ti.program ? s->ti.program : "");
	rp_tout_printf(o, "%s%d warp slot%s%s%s%s%s, cycles %" PRIu64 "..%" PRIu64
	                ", one column = %" PRIu64 " cycle%s%s%s</text>\n", s->ti.program ? ": " : "", R,
	                R == 1 ? "" : "s", sel[0][0] ? " of SMs " : "", sel[0], sel[1][0] ? ", slots " : "",
	                sel[1], s->ti.lo, xend ? xend - 1 : 0, g->wf, g->wf == 1 ? "" : "s",
	                s->ended ? "" : " (the run did not complete)", s->oom ? " (out of memory: incomplete)" : "");
}

/* CTA bands and SM separators behind the rows, then grid and axis */
static void draw_axes(Svg *s, const Geo *g)
{
	TOut *o = s->o;
	int R = g->R, rh = g->rh;
	uint64_t step;

	for (int i = 0, j; g->grouped && i < R; i = j) {
		const Row *r = &s->rows[i];
		for (j = i + 1; j < R && s->rows[j].sm == r->sm && s->rows[j].firstcta == r->firstcta; j++)
			;
		if (r->firstcta & 1)    /* a band for the rows of one CTA (its first) */
			rp_tout_printf(o, "<rect class=\"bd\" x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
			                TOP + i * rh, LEFT + PLOTW, (j - i) * rh);
		if (i > 0 && r->sm != s->rows[i - 1].sm)
			rp_tout_printf(o, "<line class=\"sep\" x1=\"0\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
			                TOP + i * rh, LEFT + PLOTW, TOP + i * rh);
	}
	step = tickstep(g->nbf * g->wf);
	for (uint64_t t = (s->ti.lo + step - 1) / step * step; t <= s->ti.lo + g->nbf * g->wf; t += step) {
		double x = LEFT + (double)(t - s->ti.lo) / (double)g->wf * g->sx;
		rp_tout_printf(o, "<line class=\"gr\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
		                "<line class=\"ax\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
		                "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%" PRIu64 "</text>\n",
		                x, TOP, x, TOP + R * rh, x, TOP + R * rh, x, TOP + R * rh + 5, x,
		                TOP + R * rh + 17, t);
	}
	double lastx = -1e9;  /* where the last label began: labels closer than 120 px are left out */
	for (int i = 0; i < s->nmark; i++) {  /* several launches: a line where each begins */
		uint64_t t = s->mark[i].from;
		double x = LEFT + (double)(t - s->ti.lo) / (double)g->wf * g->sx;
		if (t < s->ti.lo || t > s->ti.lo + g->nbf * g->wf)
			continue;
		rp_tout_printf(o, "<line class=\"ln\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"><title>"
		                "launch ", x, TOP - 12, x, TOP + R * rh);
		xtext(o, s->mark[i].name);
		rp_tout_printf(o, "</title></line>\n");
		if (x - lastx < 120)
			continue;
		lastx = x;
		rp_tout_printf(o, "<text class=\"lt\" x=\"%.1f\" y=\"%d\">launch ", x + 2, TOP - 3);
		xtext(o, s->mark[i].name);
		rp_tout_printf(o, "</text>\n");
	}
	rp_tout_printf(o, "<line class=\"ax\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
	                "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">cycle</text>\n", LEFT, TOP + R * rh,
	                LEFT + PLOTW, TOP + R * rh, LEFT + PLOTW / 2, TOP + R * rh + 31);
}

/* a row's label and its tooltip: the warp (or the slot's warps) and its cycles by state */
static void draw_label(Svg *s, const Geo *g, int i)
{
	TOut *o = s->o;
	const Row *r = &s->rows[i];
	int y = TOP + i * g->rh, grouped = g->grouped;
	char lab[96];

	if (grouped && (i == 0 || r->sm != s->rows[i - 1].sm))
		rp_tout_printf(o, "<text class=\"g\" x=\"8\" y=\"%d\">SM %d</text>\n", y + g->rh / 2 + 5, r->sm);
	if (r->ctas <= 1 && s->ti.nlaunches)    /* several launches: the warp's launch */
		snprintf(lab, sizeof lab, grouped ? "L%d cta%d w%d" : "sm%d L%d cta%d w%d",
		         grouped ? r->launch + 1 : r->sm, grouped ? r->cta : r->launch + 1,
		         grouped ? r->warp : r->cta, r->warp);
	else if (r->ctas <= 1)
		snprintf(lab, sizeof lab, grouped ? "cta%d w%d" : "sm%d cta%d w%d", grouped ? r->cta : r->sm,
		         grouped ? r->warp : r->cta, r->warp);
	else
		snprintf(lab, sizeof lab, grouped ? "slot%d: %d warps" : "sm%d slot%d: %d warps",
		         grouped ? r->slot : r->sm, grouped ? r->ctas : r->slot, r->ctas);
	rp_tout_printf(o, "<g><title>sm%d ", r->sm);
	if (r->ctas <= 1 && s->ti.nlaunches)
		rp_tout_printf(o, "launch %d cta%d w%d", r->launch + 1, r->cta, r->warp);
	else if (r->ctas <= 1)
		rp_tout_printf(o, "cta%d w%d", r->cta, r->warp);
	else
		if (s->ti.nlaunches)
			rp_tout_printf(o, "slot%d: %d warps (launch %d cta %d .. launch %d cta %d)", r->slot,
			                r->ctas, r->firstlaunch + 1, r->firstcta, r->launch + 1, r->cta);
		else
			rp_tout_printf(o, "slot%d: %d warps (ctas %d..%d)", r->slot, r->ctas, r->firstcta, r->cta);
	for (int k = 0; k < S_N; k++)
		if (r->total[k])
			rp_tout_printf(o, "&#10;%s: %" PRIu64 " cycles", states[k].name, r->total[k]);
	rp_tout_printf(o, "</title>\n<text class=\"l\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
	                LEFT - 6, y + g->rh / 2 + g->fs / 2 - 1, lab);
}

/* the paths of one row, emptied and reused from row to row */
typedef struct {
	Buf path[NCODE], lane[SHADES], dvb, rcb;
} Paths;

/* one row: the dominant state per column (issuing shaded by active lanes) with runs of equal
 * columns as one rectangle, a strip under it shaded by the column's active lanes, and the
 * divergence and reconvergence marks */
static void draw_row(Svg *s, const Geo *g, int i, Paths *p)
{
	TOut *o = s->o;
	const Row *r = &s->rows[i];
	int y = TOP + i * g->rh, rh = g->rh, ms = g->ms, hb = rh > 3 ? rh - 2 : rh;
	int run = -1, lrun = -1, sh = hb >= 9 ? hb / 3 : 2;
	uint64_t from = 0, lfrom = 0, f = g->f, nbf = g->nbf;
	double sx = g->sx;

	draw_label(s, g, i);
	for (int k = 0; k < NCODE; k++)
		p->path[k].n = 0;
	for (int k = 0; k < SHADES; k++)
		p->lane[k].n = 0;
	p->dvb.n = p->rcb.n = 0;
	for (uint64_t b = 0; b <= nbf; b++) {
		int best = -1, shade = -1;
		uint64_t bestv = 0, dv = 0, rc = 0, lanes = 0, nis = 0;
		if (b < nbf) {
			uint64_t sum[S_N] = {0};
			for (uint64_t q = b * f; q < (b + 1) * f && q < NB; q++) {
				for (int k = 0; k < S_N; k++)
					sum[k] += r->cnt[q * S_N + k];
				dv += r->div[q];
				rc += r->rcv[q];
				lanes += r->lanes[q];
				nis += r->nis[q];
			}
			for (int k = 0; k < S_N; k++)
				if (sum[k] > bestv)
					bestv = sum[k], best = k;
			if (nis)
				shade = (int)((lanes + nis - 1) / nis - 1) / 8;
			if (best == S_ISSUE)
				best = S_N + (shade >= 0 ? shade : SHADES - 1);
		}
		if (shade != lrun) {
			if (lrun >= 0)
				bprintf(&p->lane[lrun], "M%" PRIu64 " %dh%" PRIu64 "v%dh-%" PRIu64 "z", lfrom, hb - sh,
				        b - lfrom, sh, b - lfrom);
			lrun = shade;
			lfrom = b;
		}
		if (best != run) {
			if (run >= 0)
				bprintf(&p->path[run], "M%" PRIu64 " 0h%" PRIu64 "v%dh-%" PRIu64 "z", from, b - from,
				        hb, b - from);
			run = best;
			from = b;
		}
		if (dv)
			bprintf(&p->dvb, "M%.1f %dl-%d -%dh%dz", LEFT + ((double)b + 0.5) * sx, y + ms + 1, ms / 2 + 1, ms, ms + 2);
		if (rc)
			bprintf(&p->rcb, "M%.1f %dl-%d %dh%dz", LEFT + ((double)b + 0.5) * sx, y + rh - ms - 1, ms / 2 + 1, ms, ms + 2);
	}
	rp_tout_printf(o, "<g transform=\"translate(%d %d) scale(%.6f 1)\">", LEFT, y + (rh - hb) / 2, sx);
	for (int k = 0; k < NCODE; k++)
		if (p->path[k].n)
			rp_tout_printf(o, k < S_N ? "<path class=\"s%d\" d=\"%s\"/>" : "<path class=\"a%d\" d=\"%s\"/>",
			                k < S_N ? k : k - S_N, p->path[k].s);
	for (int k = 0; k < SHADES; k++)
		if (p->lane[k].n)
			rp_tout_printf(o, "<path class=\"a%d\" d=\"%s\"/>", k, p->lane[k].s);
	rp_tout_printf(o, "</g>\n");
	if (p->dvb.n)
		rp_tout_printf(o, "<path class=\"dv\" d=\"%s\"/>\n", p->dvb.s);
	if (p->rcb.n)
		rp_tout_printf(o, "<path class=\"rc\" d=\"%s\"/>\n", p->rcb.s);
	rp_tout_printf(o, "</g>\n");
}

/* legend: issuing by active lanes, the other states, the marks */
static void draw_legend(Svg *s, const Geo *g)
{
	TOut *o = s->o;
	int ly = TOP + g->R * g->rh + 48;

	for (int k = 0; k < g->nleg; k++) {
		int x = 10 + (k % 6) * 190, yy = ly + (k / 6) * 20;
		if (k < SHADES)
			rp_tout_printf(o, "<rect class=\"a%d\" x=\"%d\" y=\"%d\" width=\"14\" height=\"12\"/>"
			                "<text x=\"%d\" y=\"%d\">issuing, %d-%d lanes</text>\n", k, x, yy, x + 20,
			                yy + 10, 8 * k + 1, 8 * k + 8);
		else if (k < SHADES + S_N - 1)
			rp_tout_printf(o, "<rect class=\"s%d\" x=\"%d\" y=\"%d\" width=\"14\" height=\"12\"/>"
			                "<text x=\"%d\" y=\"%d\">%s</text>\n", k - SHADES + 1, x, yy, x + 20, yy + 10,
			                states[k - SHADES + 1].name);
		else if (k == SHADES + S_N - 1)
			rp_tout_printf(o, "<path class=\"dv\" d=\"M%d %dl-4 -7h8z\"/><text x=\"%d\" y=\"%d\">warp diverged</text>\n",
			                x + 7, yy + 10, x + 20, yy + 10);
		else
			rp_tout_printf(o, "<path class=\"rc\" d=\"M%d %dl-4 7h8z\"/><text x=\"%d\" y=\"%d\">lanes reconverged</text>\n",
			                x + 7, yy + 3, x + 20, yy + 10);
	}
}

static void draw(Svg *s, uint64_t xend)
{
	Geo g = geometry(s, xend);
	Paths p = {0};

	qsort(s->rows, (size_t)g.R, sizeof *s->rows, rowcmp);
	draw_head(s, &g, xend);
	draw_axes(s, &g);
	for (int i = 0; i < g.R; i++)
		draw_row(s, &g, i, &p);
	draw_legend(s, &g);
	rp_tout_printf(s->o, "</svg>\n");
	for (int k = 0; k < NCODE; k++)
		free(p.path[k].s);
	for (int k = 0; k < SHADES; k++)
		free(p.lane[k].s);
	free(p.dvb.s);
	free(p.rcb.s);
}

static void svg_finish(void *st)
{
	Svg *s = st;
	uint64_t xend = s->ended && s->cycles > s->maxc ? s->cycles : s->maxc;

	if (s->ti.hi != UINT64_MAX && xend > s->ti.hi + 1)
		xend = s->ti.hi + 1;
	for (int i = 0; i < s->nrows; i++) {
		Row *r = &s->rows[i];
		if (r->done)
			span(s, r, r->donefrom, xend, S_DONE);
		else if (r->atbar)
			span(s, r, r->barfrom > r->end ? r->barfrom : r->end, xend, S_BAR);
	}
	draw(s, xend);
	for (int i = 0; i < s->nrows; i++)
		rowfree(&s->rows[i]);
	free(s->rows);
	free(s->ix);
	free(s->mark);
	free(s);
}

const TraceFmt rp_trace_svg = {svg_open, svg_issue, svg_event, svg_end, svg_finish, svg_launch};
