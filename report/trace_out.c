/* trace_out.c - the plumbing of --trace: output streams (plain or zlib), the --trace-window
 * parser, instruction text formatted once per instruction, the format dispatcher behind
 * rp_trace_open, and a fan-out sink for several observers of one run. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "report/report.h"

struct TraceWriter {
	TOut out;               /* the file */
	const TraceFmt *fmt;    /* its format */
	void *st;               /* the format's state */
	char *path;             /* for messages */
	char *program;          /* a linked program's files, "a.ptx + b.ptx" (TraceInfo.program) */
	int nlaunches;          /* several launches (TraceInfo.nlaunches), else 0 */
	TraceLaunch cur;        /* the launch under way */
	uint64_t lcycles;       /* its cycles, from its end record */
};

void rp_tout_write(TOut *o, const char *s, size_t n)
{
	if (o->failed || !n)
		return;
	if (o->gz) {
		if (gzwrite((gzFile)o->gz, s, (unsigned)n) != (int)n)
			o->failed = 1;
	} else if (fwrite(s, 1, n, o->f) != n)
		o->failed = 1;
}

void rp_tout_printf(TOut *o, const char *fmt, ...)
{
	char buf[1024], *p = buf;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0) {
		o->failed = 1;
		return;
	}
	if ((size_t)n >= sizeof buf) {
		if (!(p = malloc((size_t)n + 1))) {
			o->failed = 1;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(p, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	rp_tout_write(o, p, (size_t)n);
	if (p != buf)
		free(p);
}

void rp_instext_init(InsText *t, const Kernel *k)
{
	t->k = k;
	t->text = k && k->nins ? calloc((size_t)k->nins, sizeof *t->text) : NULL;
}

const char *rp_instext(InsText *t, uint32_t pc)
{
	uint32_t i = t->k ? (uint32_t)isa_kernel_index(t->k, pc) : 0;   /* -1: none */
	char buf[256];

	if (!t->text || i >= (uint32_t)t->k->nins)
		return "?";
	if (!t->text[i]) {
		isa_format_ins(buf, sizeof buf, t->k, &t->k->ins[i]);
		if (!(t->text[i] = strdup(buf)))
			return "?";
	}
	return t->text[i];
}

const char *rp_instext_opcode(InsText *t, uint32_t pc, char *buf, size_t n)
{
	const char *s = rp_instext(t, pc);
	size_t len;

	if (*s == '@')                       /* guard */
		s += strcspn(s, " ") + (s[strcspn(s, " ")] == ' ');
	len = strcspn(s, " ;");
	snprintf(buf, n, "%.*s", (int)len, s);
	return buf;
}

void rp_instext_free(InsText *t)
{
	for (int i = 0; t->text && i < t->k->nins; i++)
		free(t->text[i]);
	free(t->text);
	t->text = NULL;
}

int rp_trace_format(const char *path)
{
	if (opt_endswith(path, ".txt.gz"))
		return TF_TXTGZ;
	if (opt_endswith(path, ".txt"))
		return TF_TXT;
	if (opt_endswith(path, ".json"))
		return TF_JSON;
	if (opt_endswith(path, ".svg"))
		return TF_SVG;
	return -1;
}

/* a decimal cycle count from s up to end; 0 or -1 */
static int cycles(const char *s, const char *end, uint64_t *v)
{
	uint64_t x = 0;

	if (s == end)
		return -1;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9' || x > (UINT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return 0;
}

int rp_trace_parse_set(const char *s, unsigned char *in, int max, char *why, size_t n)
{
	const char *p = s;

	snprintf(why, n, "a list of numbers and ranges from 0 to %d, such as 0,2,4-7", max - 1);
	memset(in, 0, (size_t)max);
	for (;;) {
		char *e;
		long a, b;
		if (*p < '0' || *p > '9')
			return -1;
		a = b = strtol(p, &e, 10);
		if (*e == '-') {
			if (e[1] < '0' || e[1] > '9')
				return -1;
			b = strtol(e + 1, &e, 10);
		}
		if (a > b || b >= max)
			return -1;
		for (long i = a; i <= b; i++)
			in[i] = 1;
		if (!*e)
			return 0;
		if (*e != ',')
			return -1;
		p = e + 1;
	}
}

int rp_trace_parse_window(const char *s, uint64_t *lo, uint64_t *hi, char *why, size_t n)
{
	const char *colon = strchr(s, ':');
	uint64_t a = 0, b = UINT64_MAX;

	if (!colon || (colon == s && !colon[1]) || (colon > s && cycles(s, colon, &a)) ||
	    (colon[1] && cycles(colon + 1, colon + strlen(colon), &b))) {
		snprintf(why, n, "a cycle range A:B (A or B may be left out)");
		return -1;
	}
	if (a > b) {
		snprintf(why, n, "a cycle range A:B with A <= B");
		return -1;
	}
	*lo = a;
	*hi = b;
	return 0;
}

static const TraceFmt *fmts[TF_COUNT] = {
	[TF_TXT] = &rp_trace_txt, [TF_TXTGZ] = &rp_trace_txt,
	[TF_JSON] = &rp_trace_json, [TF_SVG] = &rp_trace_svg,
};

TraceWriter *rp_trace_open(const char *path, const TraceInfo *ti, char *err, size_t errsz)
{
	int f = rp_trace_format(path);
	TraceWriter *w;
	TraceInfo t = *ti;

	if (f < 0) {
		snprintf(err, errsz, "--trace: '%s': the name must end in .txt, .txt.gz, .json or .svg",
		         path);
		return NULL;
	}
	if (!(w = calloc(1, sizeof *w)) || !(w->path = strdup(path))) {
		free(w);
		snprintf(err, errsz, "out of memory");
		return NULL;
	}
	w->fmt = fmts[f];
	if (f == TF_TXTGZ) {
		gzFile gz = gzopen(path, "wb9");
		w->out.gz = gz;
	} else
		w->out.f = fopen(path, "wb");
	if (!w->out.f && !w->out.gz) {
		snprintf(err, errsz, "--trace: cannot write '%s': %s", path, strerror(errno));
		free(w->path);
		free(w);
		return NULL;
	}
	if (ti->prog && ti->prog->nptxfiles > 1) {   /* a linked program: every file's name */
		size_t n = 1;
		for (int i = 0; i < ti->prog->nptxfiles; i++)
			n += strlen(ti->prog->ptxfiles[i]) + 3;
		if ((w->program = malloc(n))) {
			w->program[0] = 0;
			for (int i = 0; i < ti->prog->nptxfiles; i++)
				strcat(strcat(w->program, i ? " + " : ""), ti->prog->ptxfiles[i]);
			t.program = w->program;
		}
	}
	w->nlaunches = ti->nlaunches;
	w->cur.i = -1;
	if (!(w->st = w->fmt->open(&w->out, &t))) {
		snprintf(err, errsz, "out of memory");
		if (w->out.gz)
			gzclose((gzFile)w->out.gz);
		else
			fclose(w->out.f);
		free(w->program);
		free(w->path);
		free(w);
		return NULL;
	}
	return w;
}

/* ---- several launches: the records of launch i shifted by the cycles before it */
static void multi_issue(void *ctx, const TraceIssue *t)
{
	TraceWriter *w = ctx;
	TraceIssue c = *t;

	c.cycle += w->cur.from;
	w->fmt->issue(w->st, &c);
}

static void multi_event(void *ctx, const TraceEvent *ev)
{
	TraceWriter *w = ctx;
	TraceEvent c = *ev;

	c.cycle += w->cur.from;
	w->fmt->event(w->st, &c);
}

/* a launch ended: the trace ends with the last one */
static void multi_end(void *ctx, uint64_t cycles)
{
	TraceWriter *w = ctx;

	w->lcycles = cycles;
	if (w->cur.i == w->nlaunches - 1)
		w->fmt->end(w->st, w->cur.from + cycles);
}

void rp_launch_title(char *buf, size_t size, const Launch *l, int i, int n)
{
	snprintf(buf, size, "launch %d of %d: kernel '%s' (grid %" PRIu32 ",%" PRIu32 ",%" PRIu32 ", block %"
	         PRIu32 ",%" PRIu32 ",%" PRIu32 "%s%s)", i + 1, n, l->kernel, l->grid[0], l->grid[1], l->grid[2],
	         l->block[0], l->block[1], l->block[2], l->where ? "; " : "", l->where ? l->where : "");
}

void rp_trace_launch(TraceWriter *w, const TraceInfo *ti, const Launch *l, int i)
{
	if (w->cur.i >= 0)
		w->cur.from += w->lcycles;
	w->cur.i = i;
	w->cur.n = w->nlaunches;
	w->cur.l = l;
	w->lcycles = 0;
	TraceInfo t = *ti;
	if (w->program)
		t.program = w->program;
	w->fmt->launch(w->st, &t, &w->cur);
}

void rp_trace_sink(TraceWriter *w, TraceSink *s)
{
	if (w->nlaunches) {
		s->issue = multi_issue;
		s->event = multi_event;
		s->end = multi_end;
		s->ctx = w;
		return;
	}
	s->issue = w->fmt->issue;
	s->event = w->fmt->event;
	s->end = w->fmt->end;
	s->ctx = w->st;
}

int rp_trace_close(TraceWriter *w, char *err, size_t errsz)
{
	int bad;

	if (!w)
		return 0;
	w->fmt->finish(w->st);
	bad = w->out.failed;
	if (w->out.gz)
		bad |= gzclose((gzFile)w->out.gz) != Z_OK;
	else
		bad |= fclose(w->out.f) != 0;
	if (bad)
		snprintf(err, errsz, "--trace: error writing '%s'", w->path);
	free(w->program);
	free(w->path);
	free(w);
	return bad ? -1 : 0;
}

/* ---- fan-out */
static void tee_issue(void *ctx, const TraceIssue *t)
{
	SinkTee *s = ctx;
	for (int i = 0; i < s->n; i++)
		if (s->to[i].issue)
			s->to[i].issue(s->to[i].ctx, t);
}

static void tee_event(void *ctx, const TraceEvent *ev)
{
	SinkTee *s = ctx;
	for (int i = 0; i < s->n; i++)
		if (s->to[i].event)
			s->to[i].event(s->to[i].ctx, ev);
}

static void tee_end(void *ctx, uint64_t cycles)
{
	SinkTee *s = ctx;
	for (int i = 0; i < s->n; i++)
		if (s->to[i].end)
			s->to[i].end(s->to[i].ctx, cycles);
}

void rp_tee_init(SinkTee *t)
{
	memset(t, 0, sizeof *t);
}

void rp_tee_add(SinkTee *t, const TraceSink *s)
{
	if (t->n >= RP_TEE_MAX) {
		fprintf(stderr, "%s:%d: internal error: more than %d trace sinks\n", __FILE__, __LINE__,
		        RP_TEE_MAX);
		abort();
	}
	t->to[t->n++] = *s;
}

void rp_tee_sink(SinkTee *t, TraceSink *out)
{
	out->issue = tee_issue;
	out->event = tee_event;
	out->end = tee_end;
	out->ctx = t;
}
