/* tracecheck.c - checks a Chrome trace-event file written by warpsim --trace FILE.json with a
 * real JSON parser (jansson): a JSON object with traceEvents and displayTimeUnit; every event
 * has a phase, a pid and a numeric ts >= 0; complete events have dur >= 0; every track with
 * events has exactly one thread_name, and no two tracks share a name (one track per warp);
 * the complete events of a track never overlap; counters carry numeric values; with
 * --window A:B every timestamp lies in A..B+1. Prints a one-line summary; exit 1 on a
 * violation (each one printed), 2 on bad usage. With --json it checks only that FILE is one
 * well-formed JSON value (the test scripts' check of other JSON outputs, with no python3).
 *
 *   tracecheck FILE.json [--window A:B] [--tracks N]
 *   tracecheck --json FILE.json
 */
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	long long pid, tid;     /* the track */
	double ts, dur;         /* a complete event on it */
} Slice;

typedef struct {
	long long pid, tid;     /* a thread_name record */
	const char *name;
} Name;

/* the trace's microseconds as SM cycles (one cycle is one nanosecond: docs/traces.md),
 * rounded to a millionth of a cycle against the decimal's binary error */
static double cycles(double us)
{
	return round(us * 1e6) / 1e3;
}

static int bad;

static void fail(const char *fmt, long long a, double b)
{
	if (bad++ < 20) {
		fprintf(stderr, "tracecheck: ");
		fprintf(stderr, fmt, a, b);
		fputc('\n', stderr);
	}
}

static int slicecmp(const void *a, const void *b)
{
	const Slice *x = a, *y = b;
	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	if (x->tid != y->tid)
		return (x->tid > y->tid) - (x->tid < y->tid);
	return (x->ts > y->ts) - (x->ts < y->ts);
}

static double num(json_t *o, const char *k, int *ok)
{
	json_t *v = json_object_get(o, k);
	*ok = v && json_is_number(v);
	return *ok ? json_number_value(v) : 0;
}

int main(int argc, char **argv)
{
	json_error_t je;
	json_t *root, *evs;
	double lo = 0, hi = -1;
	long want_tracks = -1;
	size_t n, nslices = 0, nnames = 0, ncount = 0, ninst = 0;
	Slice *sl;
	Name *nm;
	long long ntracks = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: tracecheck FILE.json [--window A:B] [--tracks N] | --json FILE.json\n");
		return 2;
	}
	if (!strcmp(argv[1], "--json")) {
		if (argc != 3)
			return 2;
		if (!(root = json_load_file(argv[2], JSON_DECODE_ANY, &je))) {
			fprintf(stderr, "tracecheck: %s:%d:%d: invalid JSON: %s\n", argv[2], je.line, je.column, je.text);
			return 1;
		}
		json_decref(root);
		return 0;
	}
	for (int i = 2; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--window")) {
			unsigned long long a, b;
			if (sscanf(argv[i + 1], "%llu:%llu", &a, &b) != 2)
				return 2;
			lo = (double)a;
			hi = (double)b + 1;
		} else if (!strcmp(argv[i], "--tracks"))
			want_tracks = atol(argv[i + 1]);
		else
			return 2;
	}
	if (!(root = json_load_file(argv[1], 0, &je))) {
		fprintf(stderr, "tracecheck: %s:%d:%d: invalid JSON: %s\n", argv[1], je.line, je.column, je.text);
		return 1;
	}
	if (!json_is_object(root) || !json_is_array(evs = json_object_get(root, "traceEvents")) ||
	    !json_is_string(json_object_get(root, "displayTimeUnit"))) {
		fprintf(stderr, "tracecheck: not a trace-event object with traceEvents and displayTimeUnit\n");
		return 1;
	}
	n = json_array_size(evs);
	sl = calloc(n + 1, sizeof *sl);
	nm = calloc(n + 1, sizeof *nm);
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_array_get(evs, i), *ph = json_object_get(e, "ph");
		const char *p = json_is_string(ph) ? json_string_value(ph) : "";
		int ok, okt;
		double ts, pid = num(e, "pid", &ok), tid = num(e, "tid", &okt);
		if (!ok)
			fail("event %lld: no numeric pid%.0f", (long long)i, 0);
		if (!strcmp(p, "M")) {
			const char *name = json_string_value(json_object_get(e, "name"));
			if (name && !strcmp(name, "thread_name")) {
				json_t *a = json_object_get(json_object_get(e, "args"), "name");
				if (!okt || !json_is_string(a))
					fail("event %lld: thread_name without tid or name%.0f", (long long)i, 0);
				else
					nm[nnames++] = (Name){(long long)pid, (long long)tid, json_string_value(a)};
			}
			continue;
		}
		ts = cycles(num(e, "ts", &ok));
		if (!ok || ts < 0)
			fail("event %lld: ts missing or negative (%g)", (long long)i, ts);
		if (hi >= 0 && (ts < lo || ts > hi))
			fail("event %lld: ts %g outside the window", (long long)i, ts);
		if (!json_is_string(json_object_get(e, "name")))
			fail("event %lld: no name%.0f", (long long)i, 0);
		if (!strcmp(p, "X")) {
			double dur = cycles(num(e, "dur", &ok));
			if (!ok || dur < 0)
				fail("event %lld: dur missing or negative (%g)", (long long)i, dur);
			if (!okt)
				fail("event %lld: complete event without tid%.0f", (long long)i, 0);
			if (hi >= 0 && ts + dur > hi + 1e-9)
				fail("event %lld: slice ends after the window (%g)", (long long)i, ts + dur);
			sl[nslices++] = (Slice){(long long)pid, (long long)tid, ts, dur};
		} else if (!strcmp(p, "C")) {
			json_t *a = json_object_get(e, "args"), *v;
			const char *k;
			ncount++;
			if (!json_is_object(a) || !json_object_size(a))
				fail("event %lld: counter without values%.0f", (long long)i, 0);
			json_object_foreach(a, k, v)
				if (!json_is_number(v))
					fail("event %lld: counter value not a number%.0f", (long long)i, 0);
		} else if (!strcmp(p, "i")) {
			ninst++;
		} else
			fail("event %lld: unexpected phase%.0f", (long long)i, 0);
	}
	/* tracks: named once, names unique */
	for (size_t i = 0; i < nnames; i++)
		for (size_t j = i + 1; j < nnames; j++) {
			if (nm[i].pid == nm[j].pid && nm[i].tid == nm[j].tid)
				fail("track tid %lld named twice%.0f", nm[i].tid, 0);
			if (!strcmp(nm[i].name, nm[j].name))
				fail("two tracks share a name (tid %lld)%.0f", nm[j].tid, 0);
		}
	qsort(sl, nslices, sizeof *sl, slicecmp);
	for (size_t i = 0; i < nslices; i++) {
		int named = 0;
		if (i == 0 || sl[i].pid != sl[i - 1].pid || sl[i].tid != sl[i - 1].tid) {
			ntracks++;
			for (size_t j = 0; j < nnames && !named; j++)
				named = nm[j].pid == sl[i].pid && nm[j].tid == sl[i].tid;
			if (!named)
				fail("track tid %lld has no thread_name%.0f", sl[i].tid, 0);
		} else if (sl[i - 1].ts + sl[i - 1].dur > sl[i].ts + 1e-9)
			fail("slices overlap on track tid %lld at ts %g", sl[i].tid, sl[i].ts);
	}
	if (want_tracks >= 0 && ntracks != want_tracks)
		fail("%lld tracks, expected %g", ntracks, (double)want_tracks);
	printf("%s: %zu events, %lld tracks, %zu slices, %zu instants, %zu counters%s\n", argv[1], n,
	       ntracks, nslices, ninst, ncount, bad ? ": INVALID" : ", valid");
	free(sl);
	free(nm);
	json_decref(root);
	return bad ? 1 : 0;
}
