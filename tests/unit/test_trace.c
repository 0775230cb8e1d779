/* test_trace.c - the trace writers (report/trace_*.c) fed synthetic record streams, as trace.h
 * defines them, with hand-derived expectations: the text format byte for byte and its zlib
 * twin, --trace-window parsing and clipping, the Chrome trace-event JSON parsed with jansson
 * (slices, dual issue sharing a cycle, stall and barrier slices, instants, counters, tracks),
 * and the SVG timeline's exact aggregation over a long run, its size and its rows; a trace of
 * two launches (rp_trace_launch) in text and JSON; the JSON strings of every writer (opt/json.c:
 * quotes and backslashes take a backslash, control characters are \u00XX, DEL and UTF-8 pass). */
#include <check.h>
#include <math.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "report/report.h"
#include "tests/unit/helper_check.h"

static const char *src =
	".kernel k\n.arch sm_20\n.registers 8\n.param 0x20 8 out\n"
	"S2R R0, SR_TID.X;\n"                       /* 0x00 */
	"ISETP.LT.AND P0, PT, R0, 0x10, PT;\n"      /* 0x08 */
	"@P0 BRA 0x20;\n"                           /* 0x10 */
	"IADD R1, R0, 0x1;\n"                       /* 0x18 */
	"BAR.SYNC 0x0;\n"                           /* 0x20 */
	"EXIT;\n";                                  /* 0x28 */

static Prog *prog;
static char dir[64];

enum { DIV = 1, RCV = 2, BARW = 4, DONE = 8 };

static void setup(void)
{
	prog = isa_asm("t.sass", src, strlen(src), stderr);
	ck_assert_ptr_nonnull(prog);
	ck_tmpdir(dir, sizeof dir, "test_trace");
}

static void teardown(void)
{
	ck_rmtree(dir);
	isa_prog_free(prog);
}

static const char *path(const char *name)
{
	static char buf[4][128];
	static int i;
	i = (i + 1) % 4;
	snprintf(buf[i], sizeof buf[i], "%s/%s", dir, name);
	return buf[i];
}

/* one issue record */
static void issue(const TraceSink *s, uint64_t cycle, int sm, int cta, int warp, int gwarp,
                  uint32_t pc, uint32_t active, uint32_t exec, uint32_t stall, int why, int flags)
{
	ExecInfo e;
	TraceIssue t;

	memset(&e, 0, sizeof e);
	e.in = &prog->k[0].ins[pc / 8];
	e.pc = pc;
	e.sm = sm;
	e.warp = warp;
	e.active = active;
	e.exec = exec;
	e.next_active = flags & DIV ? active & exec : active;
	e.diverged = (flags & DIV) != 0;
	e.reconverged = (flags & RCV) != 0;
	e.event = flags & BARW ? EV_BAR_WAIT : flags & DONE ? EV_WARP_DONE : EV_NONE;
	t = (TraceIssue){&e, cycle, cta, gwarp, stall, (uint8_t)why};
	s->issue(s->ctx, &t);
}

static void event(const TraceSink *s, int kind, uint64_t cycle, int sm, int cta, int warp, int gwarp)
{
	TraceEvent ev = {(uint8_t)kind, cycle, sm, cta, gwarp, warp, 0};
	if (s->event)
		s->event(s->ctx, &ev);
}

static TraceWriter *open_trace(const char *name, uint64_t lo, uint64_t hi, TraceSink *s)
{
	TraceInfo ti = {&prog->k[0], "t.sass", 2, lo, hi, NULL, NULL, NULL, 0};
	char err[256];
	TraceWriter *w = rp_trace_open(path(name), &ti, err, sizeof err);
	ck_assert_msg(w != NULL, "%s", err);
	rp_trace_sink(w, s);
	return w;
}

static void close_trace(TraceWriter *w)
{
	char err[256];
	ck_assert_int_eq(rp_trace_close(w, err, sizeof err), 0);
}

/* the stream most tests use: warp 0 of CTA 0 on SM 0 diverges, waits at a barrier, exits;
 * warp 1 of CTA 1 runs on SM 1 */
static void stream(const TraceSink *s)
{
	event(s, TEV_WARP_START, 0, 0, 0, 0, 0);
	event(s, TEV_WARP_START, 0, 1, 1, 1, 1);
	issue(s, 0, 0, 0, 0, 0, 0x00, ~0u, ~0u, 0, STALL_NONE, 0);
	issue(s, 0, 1, 1, 1, 1, 0x00, 0xff, 0xff, 0, STALL_NONE, 0);
	issue(s, 5, 0, 0, 0, 0, 0x08, ~0u, ~0u, 4, STALL_RAW_ALU, 0);
	issue(s, 6, 0, 0, 0, 0, 0x10, ~0u, 0xffff, 0, STALL_NONE, DIV);      /* dual issue: */
	issue(s, 6, 0, 0, 0, 0, 0x20, 0xffff, 0xffff, 0, STALL_NONE, BARW);  /* same cycle */
	event(s, TEV_BAR_WAIT, 6, 0, 0, 0, 0);
	event(s, TEV_BAR_RELEASE, 20, 0, 0, 0, 0);
	issue(s, 22, 0, 0, 0, 0, 0x28, ~0u, ~0u, 15, STALL_BARRIER, RCV | DONE);
	event(s, TEV_WARP_DONE, 22, 0, 0, 0, 0);
	issue(s, 30, 1, 1, 1, 1, 0x28, 0xff, 0xff, 29, STALL_NONE, DONE);
	event(s, TEV_WARP_DONE, 30, 1, 1, 1, 1);
	if (s->end)
		s->end(s->ctx, 31);
}

START_TEST(test_window_parse)
{
	uint64_t lo, hi;
	char why[128];

	ck_assert_int_eq(rp_trace_parse_window("100:200", &lo, &hi, why, sizeof why), 0);
	ck_assert_uint_eq(lo, 100);
	ck_assert_uint_eq(hi, 200);
	ck_assert_int_eq(rp_trace_parse_window("5:", &lo, &hi, why, sizeof why), 0);
	ck_assert_uint_eq(lo, 5);
	ck_assert(hi == UINT64_MAX);
	ck_assert_int_eq(rp_trace_parse_window(":9", &lo, &hi, why, sizeof why), 0);
	ck_assert_uint_eq(lo, 0);
	ck_assert_uint_eq(hi, 9);
	ck_assert_int_eq(rp_trace_parse_window("7:7", &lo, &hi, why, sizeof why), 0);
	ck_assert_int_eq(rp_trace_parse_window("9:3", &lo, &hi, why, sizeof why), -1);
	ck_assert_str_eq(why, "a cycle range A:B with A <= B");
	ck_assert_int_eq(rp_trace_parse_window("12", &lo, &hi, why, sizeof why), -1);
	ck_assert_int_eq(rp_trace_parse_window(":", &lo, &hi, why, sizeof why), -1);
	ck_assert_int_eq(rp_trace_parse_window("1x:4", &lo, &hi, why, sizeof why), -1);
	ck_assert_int_eq(rp_trace_parse_window("-1:4", &lo, &hi, why, sizeof why), -1);
	ck_assert_int_eq(rp_trace_parse_window("99999999999999999999:", &lo, &hi, why, sizeof why), -1);
	ck_assert_int_eq(rp_trace_format("a.txt"), TF_TXT);
	ck_assert_int_eq(rp_trace_format("a.txt.gz"), TF_TXTGZ);
	ck_assert_int_eq(rp_trace_format("dir/a.json"), TF_JSON);
	ck_assert_int_eq(rp_trace_format("a.svg"), TF_SVG);
	ck_assert_int_eq(rp_trace_format("a.gz"), -1);
	ck_assert_int_eq(rp_trace_format("svg"), -1);
}
END_TEST

static const char *txt_expect =
	"# warpsim trace of kernel 'k' (t.sass): one line per issued warp instruction\n"
	"# columns are described in traces/README.md; ev: D diverged, R reconverged, B waits at a barrier, b released it, E lanes exited, X warp done\n"
	"#    cycle  sm    cta warp     pc   active     exec  stall reason    ev  instruction\n"
	"         0   0      0    0 0x0000 ffffffff ffffffff      0 -         -   S2R R0, SR_TID.X;\n"
	"         0   1      1    1 0x0000 000000ff 000000ff      0 -         -   S2R R0, SR_TID.X;\n"
	"         5   0      0    0 0x0008 ffffffff ffffffff      4 raw_alu   -   ISETP.LT.AND P0, PT, R0, 0x10, PT;\n"
	"         6   0      0    0 0x0010 ffffffff 0000ffff      0 -         D   @P0 BRA 0x20;\n"
	"         6   0      0    0 0x0020 0000ffff 0000ffff      0 -         B   BAR.SYNC 0x0;\n"
	"        22   0      0    0 0x0028 ffffffff ffffffff     15 barrier   RX  EXIT;\n"
	"        30   1      1    1 0x0028 000000ff 000000ff     29 ready     X   EXIT;\n"
	"# end: the run took 31 cycles; 7 instruction lines above\n";

START_TEST(test_txt_exact_and_gz)
{
	TraceSink s;
	TraceWriter *w = open_trace("t.txt", 0, UINT64_MAX, &s);
	char *got, buf[8192];
	gzFile gz;
	int n;

	stream(&s);
	close_trace(w);
	got = ck_slurp(path("t.txt"));
	ck_assert_str_eq(got, txt_expect);
	free(got);
	w = open_trace("t.txt.gz", 0, UINT64_MAX, &s);
	stream(&s);
	close_trace(w);
	got = ck_slurp(path("t.txt.gz"));
	ck_assert_uint_eq((unsigned char)got[0], 0x1f);   /* a gzip member */
	ck_assert_uint_eq((unsigned char)got[1], 0x8b);
	free(got);
	gz = gzopen(path("t.txt.gz"), "rb");
	ck_assert_ptr_nonnull(gz);
	n = gzread(gz, buf, sizeof buf - 1);
	gzclose(gz);
	ck_assert_int_gt(n, 0);
	buf[n] = 0;
	ck_assert_str_eq(buf, txt_expect);
}
END_TEST

START_TEST(test_txt_window)
{
	TraceSink s;
	TraceWriter *w = open_trace("w.txt", 5, 6, &s);
	char *got;

	stream(&s);
	close_trace(w);
	got = ck_slurp(path("w.txt"));
	ck_assert_ptr_nonnull(strstr(got, "# window: cycles 5 to 6\n"));
	ck_assert_ptr_nonnull(strstr(got, "ISETP"));
	ck_assert_ptr_nonnull(strstr(got, "BAR.SYNC"));
	ck_assert_ptr_null(strstr(got, "S2R"));
	ck_assert_ptr_null(strstr(got, "EXIT;"));
	ck_assert_ptr_nonnull(strstr(got, "; 3 instruction lines above\n"));
	free(got);
}
END_TEST

/* the complete events of track (pid, tid) in file order: "ts+dur:name;" each */
/* a trace time (microseconds, one SM cycle per nanosecond) in cycles */
static double cyc(const json_t *v)
{
	return round(json_number_value(v) * 1e6) / 1e3;
}

static void slices(json_t *evs, int pid, int tid, char *out, size_t n)
{
	size_t i, m = 0;
	json_t *e;

	out[0] = 0;
	json_array_foreach(evs, i, e) {
		if (strcmp(json_string_value(json_object_get(e, "ph")), "X") ||
		    json_integer_value(json_object_get(e, "pid")) != pid ||
		    json_integer_value(json_object_get(e, "tid")) != tid)
			continue;
		m += (size_t)snprintf(out + m, n - m, "%g+%g:%s;", cyc(json_object_get(e, "ts")),
		                      cyc(json_object_get(e, "dur")),
		                      json_string_value(json_object_get(e, "name")));
	}
}

/* the events of phase ph, pid: "ts:name{args}" each */
static void others(json_t *evs, const char *ph, int pid, char *out, size_t n)
{
	size_t i, m = 0;
	json_t *e;

	out[0] = 0;
	json_array_foreach(evs, i, e) {
		char *a;
		if (strcmp(json_string_value(json_object_get(e, "ph")), ph) ||
		    json_integer_value(json_object_get(e, "pid")) != pid)
			continue;
		a = json_dumps(json_object_get(e, "args"), JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
		m += (size_t)snprintf(out + m, n - m, "%g:%s%s;", cyc(json_object_get(e, "ts")),
		                      json_string_value(json_object_get(e, "name")), a ? a : "");
		free(a);
	}
}

static json_t *load_json(const char *name)
{
	json_error_t je;
	json_t *r = json_load_file(path(name), 0, &je);
	ck_assert_msg(r != NULL, "line %d: %s", je.line, je.text);
	ck_assert(json_is_string(json_object_get(r, "displayTimeUnit")));
	ck_assert(json_is_array(json_object_get(r, "traceEvents")));
	return r;
}

START_TEST(test_json_slices)
{
	TraceSink s;
	TraceWriter *w = open_trace("t.json", 0, UINT64_MAX, &s);
	json_t *r, *evs, *e;
	char got[4096];
	size_t i;
	int names = 0;

	stream(&s);
	close_trace(w);
	r = load_json("t.json");
	evs = json_object_get(r, "traceEvents");
	/* warp 0 of CTA 0 is track 0 of SM 0: stall [1,5), dual issue halves of cycle 6, the
	 * barrier wait [7,20), then the stall after the release [20,22) */
	slices(evs, 0, 0, got, sizeof got);
	ck_assert_str_eq(got, "0+1:S2R @0x0000;1+4:stall: raw_alu;5+1:ISETP.LT.AND @0x0008;"
	                 "6+0.5:BRA @0x0010;6.5+0.5:BAR.SYNC @0x0020;7+13:barrier;20+2:stall: barrier;"
	                 "22+1:EXIT @0x0028;");
	/* warp 1 of CTA 1 is track 1 * 2 + 1 = 3 of SM 1; 29 cycles ready but not selected */
	slices(evs, 1, 3, got, sizeof got);
	ck_assert_str_eq(got, "0+1:S2R @0x0000;1+29:ready (not selected);30+1:EXIT @0x0028;");
	others(evs, "i", 0, got, sizeof got);
	ck_assert_str_eq(got, "0:warp start;6:diverge @0x0010{\"active\":\"0xffffffff\",\"first_path\":\"0x0000ffff\"};"
	                 "23:reconverge @0x0028{\"active\":\"0xffffffff\"};23:warp done;");
	/* lanes issued per SM cycle, back to zero after an idle cycle follows */
	others(evs, "C", 0, got, sizeof got);
	ck_assert_str_eq(got, "0:lanes{\"active\":32,\"exec\":32};1:lanes{\"active\":0,\"exec\":0};"
	                 "5:lanes{\"active\":32,\"exec\":32};6:lanes{\"active\":48,\"exec\":32};"
	                 "7:lanes{\"active\":0,\"exec\":0};22:lanes{\"active\":32,\"exec\":32};"
	                 "23:lanes{\"active\":0,\"exec\":0};");
	json_array_foreach(evs, i, e) {
		const char *nm = json_string_value(json_object_get(e, "name"));
		if (!strcmp(nm, "thread_name")) {
			const char *tn = json_string_value(json_object_get(json_object_get(e, "args"), "name"));
			names++;
			ck_assert(!strcmp(tn, "cta 0 warp 0") || !strcmp(tn, "cta 1 warp 1"));
		}
		if (!strcmp(json_string_value(json_object_get(e, "ph")), "X")) {
			json_t *a = json_object_get(e, "args");
			ck_assert(json_number_value(json_object_get(e, "dur")) >= 0);
			if (!strcmp(json_string_value(json_object_get(e, "cat")), "issue"))
				ck_assert(json_is_integer(json_object_get(a, "lanes")) &&
				          json_is_integer(json_object_get(a, "listing_line")));
		}
	}
	ck_assert_int_eq(names, 2);
	ck_assert(json_is_true(json_object_get(json_object_get(r, "metadata"), "complete")));
	json_decref(r);
}
END_TEST

START_TEST(test_json_window)
{
	TraceSink s;
	TraceWriter *w = open_trace("w.json", 3, 10, &s);
	json_t *r;
	char got[4096];

	stream(&s);
	close_trace(w);
	r = load_json("w.json");
	/* cycles 3..10 are [3, 11): the stall and the barrier slice are clipped */
	slices(json_object_get(r, "traceEvents"), 0, 0, got, sizeof got);
	ck_assert_str_eq(got, "3+2:stall: raw_alu;5+1:ISETP.LT.AND @0x0008;6+0.5:BRA @0x0010;"
	                 "6.5+0.5:BAR.SYNC @0x0020;7+4:barrier;");
	slices(json_object_get(r, "traceEvents"), 1, 3, got, sizeof got);
	ck_assert_str_eq(got, "3+8:ready (not selected);");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(r, "otherData"), "window")), "3:10");
	json_decref(r);
}
END_TEST

/* an aborted run (no end record) still gives valid JSON saying so */
START_TEST(test_json_incomplete)
{
	TraceSink s;
	TraceWriter *w = open_trace("i.json", 0, UINT64_MAX, &s);
	json_t *r;

	issue(&s, 0, 0, 0, 0, 0, 0x00, ~0u, ~0u, 0, STALL_NONE, 0);
	issue(&s, 0, 0, 0, 0, 0, 0x08, ~0u, ~0u, 0, STALL_NONE, 0);
	close_trace(w);
	r = load_json("i.json");
	ck_assert(json_is_false(json_object_get(json_object_get(r, "metadata"), "complete")));
	json_decref(r);
}
END_TEST

/* 64 warps over 2 million cycles: every warp issues every 1000 cycles after 999 cycles of
 * raw_mem stall, waits at a barrier from cycle 1,500,000 to 1,600,000, and is done at
 * 1,800,000 (the run ends at 2,000,000). The totals in each row's title are exact whatever
 * the bucket width, and the file stays small. */
START_TEST(test_svg_long_run)
{
	TraceSink s;
	TraceWriter *w = open_trace("long.svg", 0, UINT64_MAX, &s);
	char *got, *p;
	int rows = 0;

	for (int k = 0; k < 64; k++)
		event(&s, TEV_WARP_START, 0, k / 32, k / 2, k % 2, k);
	for (uint64_t c = 999; c < 1800000; c += 1000)
		for (int k = 0; k < 64; k++) {
			if (c > 1500000 && c < 1600000)
				continue;
			if (c == 1600999)
				event(&s, TEV_BAR_RELEASE, 1600000, k / 32, k / 2, k % 2, k);
			issue(&s, c, k / 32, k / 2, k % 2, k, 0x18, ~0u, ~0u, 999, STALL_RAW_MEM, 0);
			if (c == 1499999)
				event(&s, TEV_BAR_WAIT, c, k / 32, k / 2, k % 2, k);
		}
	for (int k = 0; k < 64; k++)
		event(&s, TEV_WARP_DONE, 1800000, k / 32, k / 2, k % 2, k);
	s.end(s.ctx, 2000000);
	close_trace(w);
	got = ck_slurp(path("long.svg"));
	ck_assert_msg(strlen(got) < 150000, "%zu bytes", strlen(got));
	ck_assert(!strncmp(got, "<?xml", 5));
	ck_assert_str_eq(got + strlen(got) - 7, "</svg>\n");
	for (p = got; (p = strstr(p, "<title>")); p++)
		rows++;
	ck_assert_int_eq(rows, 64);
	/* 1800 rounds less the 100 at the barrier issue, each after 999 stalled cycles; the
	 * cycles add up to the run's 2,000,000 */
	ck_assert_ptr_nonnull(strstr(got, "<title>sm1 cta31 w1&#10;issuing: 1700 cycles&#10;"
	                             "stall: raw_mem: 1698300 cycles&#10;at barrier: 100000 cycles&#10;"
	                             "done: 200000 cycles</title>"));
	/* buckets of 2048 cycles (976 of them), merged by 4 for 64 rows */
	ck_assert_ptr_nonnull(strstr(got, "cycles 0..1999999, one column = 8192 cycles"));
	/* 64 rows are grouped: the SM heads its rows, which are labelled by CTA and warp */
	ck_assert_ptr_nonnull(strstr(got, ">SM 0</text>"));
	ck_assert_ptr_nonnull(strstr(got, ">cta0 w0</text>"));
	free(got);
}
END_TEST

/* a short run is drawn cycle by cycle; divergence and reconvergence are marked */
START_TEST(test_svg_short)
{
	TraceSink s;
	TraceWriter *w = open_trace("short.svg", 0, UINT64_MAX, &s);
	char *got;

	stream(&s);
	close_trace(w);
	got = ck_slurp(path("short.svg"));
	ck_assert_ptr_nonnull(strstr(got, "2 warp slots, cycles 0..30, one column = 1 cycle<"));
	ck_assert_ptr_nonnull(strstr(got, "<title>sm0 cta0 w0&#10;issuing: 4 cycles&#10;"
	                             "stall: raw_alu: 4 cycles&#10;at barrier: 15 cycles&#10;done: 8 cycles</title>"));
	ck_assert_ptr_nonnull(strstr(got, "<title>sm1 cta1 w1&#10;issuing: 2 cycles&#10;"
	                             "ready, not selected: 29 cycles</title>"));
	ck_assert_ptr_nonnull(strstr(got, "<path class=\"dv\" d=\"M"));
	ck_assert_ptr_nonnull(strstr(got, "<path class=\"rc\" d=\"M"));
	free(got);
}
END_TEST

static int hits[2];
static void count_issue(void *ctx, const TraceIssue *t) { (void)t; hits[(intptr_t)ctx]++; }

START_TEST(test_tee)
{
	SinkTee tee;
	TraceSink a = {count_issue, NULL, NULL, (void *)0}, b = {count_issue, NULL, NULL, (void *)1}, s;

	rp_tee_init(&tee);
	rp_tee_add(&tee, &a);
	rp_tee_add(&tee, &b);
	rp_tee_sink(&tee, &s);
	hits[0] = hits[1] = 0;
	stream(&s);
	ck_assert_int_eq(hits[0], 7);
	ck_assert_int_eq(hits[1], 7);
}
END_TEST

START_TEST(test_open_errors)
{
	TraceInfo ti = {&prog->k[0], "t.sass", 2, 0, UINT64_MAX, NULL, NULL, NULL, 0};
	char err[256];

	ck_assert_ptr_null(rp_trace_open(path("x.png"), &ti, err, sizeof err));
	ck_assert_ptr_nonnull(strstr(err, "must end in .txt, .txt.gz, .json or .svg"));
	ck_assert_ptr_null(rp_trace_open("/nonexistent-dir/x.json", &ti, err, sizeof err));
	ck_assert_ptr_nonnull(strstr(err, "cannot write '/nonexistent-dir/x.json'"));
}
END_TEST

/* two launches in one trace (TraceInfo.nlaunches): each marked, the second's records shifted
 * by the first's 31 cycles, the trace ended by the second's end record */
static TraceWriter *two_launches(const char *name)
{
	TraceInfo ti = {&prog->k[0], "t.sass", 2, 0, UINT64_MAX, NULL, NULL, NULL, 2};
	Launch l = {0};
	char err[256];
	TraceSink s;
	TraceWriter *w = rp_trace_open(path(name), &ti, err, sizeof err);

	ck_assert_msg(w != NULL, "%s", err);
	l.kernel = "k";
	l.grid[0] = l.grid[1] = l.grid[2] = l.block[1] = l.block[2] = 1;
	l.block[0] = 64;
	for (int i = 0; i < 2; i++) {
		rp_trace_launch(w, &ti, &l, i);
		rp_trace_sink(w, &s);
		stream(&s);
	}
	return w;
}

START_TEST(test_txt_launches)
{
	char *got, *p, want[8192], line[256];
	size_t n = 0;
	int pass;

	close_trace(two_launches("l.txt"));
	got = ck_slurp(path("l.txt"));
	/* the one-launch text's instruction lines, then the same 31 cycles later */
	n += (size_t)snprintf(want + n, sizeof want - n, "# warpsim trace of 2 launches (t.sass): one line "
	                      "per issued warp instruction; cycles continue from launch to launch\n");
	for (pass = 0; pass < 2; pass++) {
		int head = 1;
		for (const char *q = txt_expect; *q; q += strlen(line) + 1) {
			unsigned long long c;
			int at;
			snprintf(line, sizeof line, "%.*s", (int)strcspn(q, "\n"), q);
			if (line[0] == '#') {
				if (head && pass == 0 && strncmp(line, "# warpsim trace", 15) && strncmp(line, "# end", 5))
					n += (size_t)snprintf(want + n, sizeof want - n, "%s\n", line);
				continue;
			}
			if (head)
				n += (size_t)snprintf(want + n, sizeof want - n, "# launch %d of 2: kernel 'k' (grid "
				                      "1,1,1, block 64,1,1) from cycle %d\n", pass + 1, 31 * pass);
			head = 0;
			ck_assert_int_eq(sscanf(line, "%llu%n", &c, &at), 1);
			n += (size_t)snprintf(want + n, sizeof want - n, "%10llu%s\n", c + 31ull * (unsigned)pass,
			                      line + at);
		}
	}
	snprintf(want + n, sizeof want - n, "# end: the run took 62 cycles (every launch); 14 "
	         "instruction lines above\n");
	ck_assert_str_eq(got, want);
	p = strstr(got, "# launch 2 of 2");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(strstr(p, "        53   0      0    0 0x0028"));   /* 22 + 31 */
	free(got);
}
END_TEST

START_TEST(test_json_launches)
{
	json_error_t e;
	json_t *root, *ev;
	size_t i;
	int names = 0, launches = 0;
	double ts[2] = {-1, -1}, dur[2] = {-1, -1};

	close_trace(two_launches("l.json"));
	root = json_load_file(path("l.json"), 0, &e);
	ck_assert_msg(root != NULL, "%s", e.text);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(root, "otherData"), "launches")), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(root, "metadata"), "cycles")), 62);
	json_array_foreach(json_object_get(root, "traceEvents"), i, ev) {
		const char *nm = json_string_value(json_object_get(ev, "name"));
		const char *ph = json_string_value(json_object_get(ev, "ph"));
		json_t *a = json_object_get(ev, "args");
		if (!strcmp(nm, "thread_name") && json_integer_value(json_object_get(ev, "pid")) < TM_MAXSMS) {
			const char *tn = json_string_value(json_object_get(a, "name"));
			names++;
			ck_assert_msg(!strncmp(tn, "launch 1 cta ", 13) || !strncmp(tn, "launch 2 cta ", 13), "%s", tn);
		}
		if (!strcmp(ph, "X") && !strcmp(json_string_value(json_object_get(ev, "cat")), "launch")) {
			int l = (int)json_integer_value(json_object_get(a, "launch"));
			ck_assert(l == 1 || l == 2);
			ts[l - 1] = json_real_value(json_object_get(ev, "ts"));
			dur[l - 1] = json_real_value(json_object_get(ev, "dur"));
			launches++;
		}
		if (!strcmp(ph, "X") && !strcmp(json_string_value(json_object_get(ev, "cat")), "issue") &&
		    !strcmp(nm, "EXIT @0x0028") && json_integer_value(json_object_get(ev, "pid")) == 0)
			ck_assert(fabs(json_real_value(json_object_get(ev, "ts")) - 0.022) < 1e-9 ||
			          fabs(json_real_value(json_object_get(ev, "ts")) - 0.053) < 1e-9);
	}
	ck_assert_int_eq(names, 4);        /* two warps a launch, each its own track */
	ck_assert_int_eq(launches, 2);
	ck_assert(fabs(ts[0]) < 1e-9 && fabs(dur[0] - 0.031) < 1e-9);
	ck_assert(fabs(ts[1] - 0.031) < 1e-9 && fabs(dur[1] - 0.031) < 1e-9);
	json_decref(root);
}
END_TEST

START_TEST(test_json_strings)
{
	char e[7], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_str_eq(opt_json_esc('a', e), "a");
	ck_assert_str_eq(opt_json_esc('"', e), "\\\"");
	ck_assert_str_eq(opt_json_esc('\\', e), "\\\\");
	ck_assert_str_eq(opt_json_esc('\n', e), "\\u000a");
	ck_assert_str_eq(opt_json_esc(0x1f, e), "\\u001f");
	ck_assert_str_eq(opt_json_esc(0x7f, e), "\x7f");
	opt_json_str(f, "a \"b\"\\c\td\xc3\xa9");
	opt_json_str(f, "");
	fclose(f);
	ck_assert_str_eq(buf, "\"a \\\"b\\\"\\\\c\\u0009d\xc3\xa9\"\"\"");
	free(buf);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("writers");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_window_parse);
	tcase_add_test(tc, test_txt_exact_and_gz);
	tcase_add_test(tc, test_txt_window);
	tcase_add_test(tc, test_json_slices);
	tcase_add_test(tc, test_json_window);
	tcase_add_test(tc, test_json_incomplete);
	tcase_add_test(tc, test_svg_long_run);
	tcase_add_test(tc, test_svg_short);
	tcase_add_test(tc, test_tee);
	tcase_add_test(tc, test_open_errors);
	tcase_add_test(tc, test_txt_launches);
	tcase_add_test(tc, test_json_launches);
	tcase_add_test(tc, test_json_strings);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{

	return ck_run(suite());
}
