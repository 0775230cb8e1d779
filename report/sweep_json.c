/* sweep_json.c - a sweep past one process: --sweep-json FILE writes what a sweep (or one
 * slice of it, --shard I/N) ran and found, and warpsim --merge A.json B.json ... rebuilds the
 * whole sweep's table, CSV and plot from its slices' files, as if one process had run every
 * point. Each point carries its statistics (the names of rp_sweep_stats) and, for each
 * --out buffer, its size and 64-bit FNV-1a hash, so that the merge compares the points'
 * results across processes and machines the way one sweep compares them byte for byte.
 * docs/sharding.md describes the format and the two ways to run slices (GNU parallel,
 * a Slurm job array). Reading uses jansson. */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"

enum { FORMAT = 1 };        /* "warpsim_sweep": the version of this file format */

int rp_sweep_report(FILE *f, const SweepSpec *sp, const SweepPoint *pts, const SweepWhat *w,
                    const char *json, int rc, FILE *err)
{
	rp_sweep_table(f, sp, pts);
	if (sp->csv && rp_sweep_csv(sp->csv, sp, pts, err))
		rc = rc ? rc : 1;
	if (sp->svg && rp_sweep_svg(sp->svg, sp, pts, err))
		rc = rc ? rc : 1;
	if (json && rp_sweep_json(json, sp, pts, w, err))
		rc = rc ? rc : 1;
	return rc;
}

/* ---- writing */
static json_t *strings(char *const *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; a && i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *point(const SweepSpec *sp, const SweepPoint *p, int i)
{
	json_t *o = json_pack("{s:i, s:s, s:b}", "point", i, "value", sp->vals[i], "ok", p->ok), *bufs;
	char hex[17];

	if (!o || !p->ok)
		return o;
	for (int s = 0; s < rp_nsweep_stats; s++)
		json_object_set_new(o, rp_sweep_stats[s].name, json_integer((json_int_t)
		                    *(const uint64_t *)((const char *)p + rp_sweep_stats[s].off)));
	for (int k = 0; p->stalls && k < RP_NSTALL; k++)
		json_object_set_new(o, rp_stall_names[k], json_integer((json_int_t)p->stall[k]));
	json_object_set_new(o, "buffers", bufs = json_array());
	for (int b = 0; bufs && b < p->nbufs; b++) {
		snprintf(hex, sizeof hex, "%016" PRIx64, p->bufs[b].fnv);
		json_array_append_new(bufs, json_pack("{s:s, s:I, s:s}", "name", p->bufs[b].name,
		                      "bytes", (json_int_t)p->bufs[b].bytes, "fnv1a64", hex));
	}
	if (p->extra)           /* --explore's branch counts */
		json_object_set_new(o, "extra", json_string(p->extra));
	return o;
}

int rp_sweep_json(const char *path, const SweepSpec *sp, const SweepPoint *pts,
                  const SweepWhat *w, FILE *err)
{
	json_t *root = json_pack("{s:i, s:s, s:o, s:s, s:o, s:s?, s:i, s:i, s:[]}", "warpsim_sweep",
	                         FORMAT, "program", w->program, "args", strings(w->args, w->nargs),
	                         "key", sp->key, "values", strings(sp->vals, sp->nvals),
	                         "sweep_ptxas", sp->ptxas, "shard", sp->nshards ? sp->shard : 1,
	                         "shards", sp->nshards ? sp->nshards : 1, "points");
	json_t *a = root ? json_object_get(root, "points") : NULL;
	int rc = -1;

	for (int i = 0; a && i < sp->nvals; i++)
		if (!pts[i].skipped)
			json_array_append_new(a, point(sp, &pts[i], i));
	if (!root)
		fprintf(err, "warpsim: --sweep-json: out of memory\n");
	else if (json_dump_file(root, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER))
		fprintf(err, "warpsim: --sweep-json: cannot write '%s'\n", path);
	else
		rc = 0;
	json_decref(root);
	return rc;
}

/* ---- merging */
typedef struct {
	char *const *files;
	const char *opt;        /* the option that reads them, for the messages: "--merge" */
	json_t *first;          /* the first slice: what the others must agree with */
	SweepSpec *sp;
	SweepPoint *pts;
	const char **from;      /* per point, the file that held it */
	FILE *err;
} Merge;

/* what tells one sweep from another: every slice must have the same */
static const char *const same[] = {"program", "args", "key", "values", "sweep_ptxas", "shards"};

static int bad(Merge *m, const char *file, const char *what)
{
	fprintf(m->err, "warpsim: %s: %s: %s\n", m->opt, file, what);
	return -1;
}

/* "the run with --KEY V", "the run with ARGS", "the program as compiled" */
static const char *named(const SweepSpec *sp, int i, char *buf, size_t n)
{
	char v[400];
	const char *s = rp_sweep_point_name(sp, i, v, sizeof v);

	if (s != v)
		return s;
	snprintf(buf, n, "the run with %s", v);
	return buf;
}

/* the first slice sets the sweep up */
static int setup(Merge *m, json_t *root, const char *file)
{
	json_t *vals = json_object_get(root, "values"), *ptxas = json_object_get(root, "sweep_ptxas");
	size_t n = json_array_size(vals);
	SweepSpec *sp = m->sp;

	if (!json_is_string(json_object_get(root, "key")) || !n ||
	    !json_is_string(json_object_get(root, "program")) ||
	    !json_is_array(json_object_get(root, "args")))
		return bad(m, file, "not a --sweep-json file (no key, values, program or args)");
	sp->key = strdup(json_string_value(json_object_get(root, "key")));
	sp->vals = calloc(n, sizeof *sp->vals);
	m->pts = calloc(n, sizeof *m->pts);
	m->from = calloc(n, sizeof *m->from);
	if (!sp->key || !sp->vals || !m->pts || !m->from)
		return bad(m, file, "out of memory");
	for (sp->nvals = 0; sp->nvals < (int)n; sp->nvals++) {
		const char *v = json_string_value(json_array_get(vals, (size_t)sp->nvals));
		if (!v)
			return bad(m, file, "a value of the sweep is not a string");
		if (!(sp->vals[sp->nvals] = strdup(v)))
			return bad(m, file, "out of memory");
	}
	if (json_is_string(ptxas) && !(sp->ptxas = strdup(json_string_value(ptxas))))
		return bad(m, file, "out of memory");
	return 0;
}

/* one point of a slice into m->pts */
static int take(Merge *m, json_t *o, const char *file)
{
	json_t *bufs = json_object_get(o, "buffers"), *b, *extra = json_object_get(o, "extra");
	json_int_t i = json_integer_value(json_object_get(o, "point"));
	const char *v = json_string_value(json_object_get(o, "value"));
	SweepPoint *p;
	size_t k;
	char msg[600], name[500];

	if (!json_is_integer(json_object_get(o, "point")) || i < 0 || i >= m->sp->nvals || !v ||
	    strcmp(v, m->sp->vals[i]) || !json_is_boolean(json_object_get(o, "ok")))
		return bad(m, file, "a point is not one of the sweep's values");
	if (m->from[i]) {
		snprintf(msg, sizeof msg, "%s is also in %s (the same slice twice?)",
		         named(m->sp, (int)i, name, sizeof name), m->from[i]);
		return bad(m, file, msg);
	}
	m->from[i] = file;
	p = &m->pts[i];
	if (!(p->ok = json_is_true(json_object_get(o, "ok"))))
		return 0;
	for (int s = 0; s < rp_nsweep_stats; s++) {
		json_t *x = json_object_get(o, rp_sweep_stats[s].name);
		if (!json_is_integer(x) || json_integer_value(x) < 0)
			return bad(m, file, "a point lacks a statistic");
		*(uint64_t *)((char *)p + rp_sweep_stats[s].off) = (uint64_t)json_integer_value(x);
	}
	for (int s = 0; s < RP_NSTALL; s++) {
		json_t *x = json_object_get(o, rp_stall_names[s]);
		if (x && (!json_is_integer(x) || json_integer_value(x) < 0))
			return bad(m, file, "a point lacks a statistic");
		if (x)
			p->stall[s] = (uint64_t)json_integer_value(x), p->stalls++;
	}
	if (p->stalls && p->stalls < RP_NSTALL)     /* all of them, or none (--functional) */
		return bad(m, file, "a point lacks a statistic");
	p->stalls = p->stalls == RP_NSTALL;
	if (extra && (!json_is_string(extra) || !(p->extra = strdup(json_string_value(extra)))))
		return bad(m, file, "a point's \"extra\" is not a string");
	if (json_array_size(bufs) && !(p->bufs = calloc(json_array_size(bufs), sizeof *p->bufs)))
		return bad(m, file, "out of memory");
	json_array_foreach(bufs, k, b) {
		const char *bn = json_string_value(json_object_get(b, "name"));
		const char *hex = json_string_value(json_object_get(b, "fnv1a64"));
		SweepBuf *d = &p->bufs[p->nbufs];
		char *end;
		if (!bn || !hex || !json_is_integer(json_object_get(b, "bytes")))
			return bad(m, file, "a buffer lacks its name, size or hash");
		d->bytes = (uint64_t)json_integer_value(json_object_get(b, "bytes"));
		d->fnv = strtoull(hex, &end, 16);
		if (end == hex || *end || !(d->name = strdup(bn)))
			return bad(m, file, "a buffer's hash is not hexadecimal");
		p->nbufs++;
	}
	return 0;
}

static int slice(Merge *m, int f)
{
	const char *file = m->files[f];
	FILE *in = fopen(file, "rb");
	json_error_t je;
	json_t *root = in ? json_loadf(in, 0, &je) : NULL, *pts, *o;
	size_t k;
	int rc = 0;

	if (!in) {
		fprintf(m->err, "warpsim: cannot read '%s': %s\n", file, strerror(errno));
		return -1;
	}
	fclose(in);
	if (!root) {
		fprintf(m->err, "warpsim: %s: %s:%d:%d: %s\n", m->opt, file, je.line, je.column, je.text);
		return -1;
	}
	if (json_integer_value(json_object_get(root, "warpsim_sweep")) != FORMAT)
		rc = bad(m, file, "not a --sweep-json file of this warpsim (\"warpsim_sweep\": 1)");
	else if (!m->first && !(rc = setup(m, root, file)))
		m->first = json_incref(root);
	for (size_t s = 0; !rc && s < sizeof same / sizeof same[0]; s++)
		if (!json_equal(json_object_get(root, same[s]), json_object_get(m->first, same[s]))) {
			char msg[300];
			snprintf(msg, sizeof msg, "a slice of another sweep than %s (its \"%s\" differs)",
			         m->files[0], same[s]);
			rc = bad(m, file, msg);
		}
	pts = json_object_get(root, "points");
	if (!rc && !json_is_array(pts))
		rc = bad(m, file, "not a --sweep-json file (no points)");
	json_array_foreach(pts, k, o)
		if (!rc)
			rc = take(m, o, file);
	json_decref(root);
	return rc;
}

/* every point's buffers against the first good point's, as rp_sweep_run compares files */
static int compare(Merge *m)
{
	int ref = -1, rc = 0;
	char how[64];

	snprintf(how, sizeof how, "their sizes or hashes differ (%s)", m->opt);
	for (int i = 0; i < m->sp->nvals; i++) {
		const SweepPoint *a, *b = &m->pts[i];
		if (!b->ok)
			continue;
		if (ref < 0) {
			ref = i;
			continue;
		}
		a = &m->pts[ref];
		for (int k = 0; k < a->nbufs || k < b->nbufs; k++) {
			const char *name = k < a->nbufs ? a->bufs[k].name : b->bufs[k].name;
			if (k < a->nbufs && k < b->nbufs && !strcmp(a->bufs[k].name, b->bufs[k].name) &&
			    a->bufs[k].bytes == b->bufs[k].bytes && a->bufs[k].fnv == b->bufs[k].fnv)
				continue;
			m->pts[i].outs_differ = 1;
			rc = 3;
			rp_sweep_differ(m->err, m->sp, ref, i, strchr(name, '-') ? strchr(name, '-') + 1 :
			                name, how);
			break;
		}
	}
	return rc;
}

void rp_sweep_what_free(SweepWhat *w)
{
	for (int k = 0; w->args && k < w->nargs; k++)
		free(w->args[k]);
	free((void *)w->args);
	free((char *)w->program);
	memset(w, 0, sizeof *w);
}

int rp_sweep_load(char *const *files, int nfiles, const char *opt, SweepSpec *sp,
                  SweepPoint **pts, SweepWhat *w, FILE *err)
{
	Merge m = {files, opt, NULL, sp, NULL, NULL, err};
	int rc = 0, missing = 0;
	json_t *a;
	char **args = NULL;
	char name[500];

	memset(sp, 0, sizeof *sp);
	memset(w, 0, sizeof *w);
	*pts = NULL;
	for (int f = 0; f < nfiles && !rc; f++)
		rc = slice(&m, f) ? -1 : 0;
	for (int i = 0; !rc && i < sp->nvals; i++) {
		if (!m.from[i]) {
			fprintf(err, "warpsim: %s: no slice holds %s\n", opt, named(sp, i, name, sizeof name));
			missing = 1;
		} else if (!m.pts[i].ok)
			fprintf(err, "warpsim: %s: %s failed; the slice that wrote %s showed why\n", opt,
			        named(sp, i, name, sizeof name), m.from[i]);
	}
	if (!rc && missing)
		rc = -1;
	a = json_object_get(m.first, "args");
	if (!rc && (!(args = calloc(json_array_size(a) + 1, sizeof *args)) ||
	            !(w->program = strdup(json_string_value(json_object_get(m.first, "program"))))))
		rc = bad(&m, files[0], "out of memory");
	for (size_t k = 0; !rc && k < json_array_size(a); k++) {
		const char *s = json_string_value(json_array_get(a, k));
		if (!s || !(args[w->nargs++] = strdup(s)))
			rc = bad(&m, files[0], "an argument is not a string");
	}
	w->args = args;
	if (!rc) {
		for (int i = 0; i < sp->nvals; i++)
			rc |= !m.pts[i].ok;
		rc = compare(&m) ? (rc ? 1 : 3) : rc;
	}
	free(m.from);
	json_decref(m.first);
	if (rc < 0) {
		rp_sweep_points_free(m.pts, sp->nvals);
		rp_sweep_free(sp);
		rp_sweep_what_free(w);
		return -1;
	}
	*pts = m.pts;
	return rc;
}

int rp_sweep_merge(char *const *files, int nfiles, const RpOpts *o, FILE *out, FILE *err)
{
	SweepSpec sp;
	SweepPoint *pts;
	SweepWhat w;
	int rc = rp_sweep_load(files, nfiles, "--merge", &sp, &pts, &w, err);

	if (rc < 0)
		return 1;
	if ((o->sweep_csv && !(sp.csv = strdup(o->sweep_csv))) ||
	    (o->sweep_svg && !(sp.svg = strdup(o->sweep_svg))))
		rc = 1;
	else {
		fprintf(out, "warpsim: sweep of %s%s over %s: %d runs, merged from %d slice%s\n",
		        sp.key[0] ? "--" : "argument lists (--explore's runs)", sp.key, w.program,
		        sp.nvals, nfiles, nfiles == 1 ? "" : "s");
		rc = rp_sweep_report(out, &sp, pts, &w, o->sweep_json, rc, err);
	}
	rp_sweep_points_free(pts, sp.nvals);
	rp_sweep_free(&sp);
	rp_sweep_what_free(&w);
	return rc;
}
