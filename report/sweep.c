/* sweep.c - warpsim --sweep KEY=V1,V2,...: the same launch once per value of one translator
 * or simulator option, each a full run of warpsim itself in a child process (-j N at once)
 * writing its statistics and output buffers into a private temporary directory; then a
 * comparison table, a CSV file and a two-axis SVG plot (sweep_svg.c). Every point's output buffers must be
 * identical byte for byte: a setting that changes results is a bug, reported loudly. With
 * --sweep-ptxas, one more point runs NVIDIA's own listing of the kernel (tests/ptxas-ref), so
 * its cycles, instructions and SIMD efficiency stand beside ours, and its results too must be
 * the same. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "report/report.h"

/* options of the translator (the rest belong to the simulator) */
static int translator_key(const char *k)
{
	return !strncmp(k, "predicate-", 10) || !strncmp(k, "decide", 6) || !strncmp(k, "loop-sync", 9) ||
	       !strncmp(k, "early-return", 12);
}

/* how point i is named in messages: "--KEY V"; a point of argument lists (key "", as
 * --explore's) by its arguments, the empty list as "the program as compiled" */
const char *rp_sweep_point_name(const SweepSpec *sp, int i, char *buf, size_t n)
{
	if (sp->key[0])
		snprintf(buf, n, "--%s %s", sp->key, sp->vals[i]);
	else if (!sp->vals[i][0])
		return "the program as compiled";
	else
		snprintf(buf, n, "%s", sp->vals[i]);
	return buf;
}

/* point i differs from the others by a translator option (its list's first, for key "") */
static int translator_point(const SweepSpec *sp, int i)
{
	return sp->key[0] ? translator_key(sp->key) :
	       !strncmp(sp->vals[i], "--", 2) && translator_key(sp->vals[i] + 2);
}

int rp_sweep_parse(const char *s, SweepSpec *sp, char *why, size_t n)
{
	const char *eq = strchr(s, '='), *p;

	memset(sp, 0, sizeof *sp);
	sp->jobs = 1;
	if (!eq || eq == s || !eq[1]) {
		snprintf(why, n, "KEY=V1,V2,... (an option name without '--', then its values)");
		return -1;
	}
	if (s[0] == '-')
		s += s[1] == '-' ? 2 : 1;
	if (!(sp->key = strndup(s, (size_t)(eq - s))))
		goto oom;
	for (p = eq + 1;;) {
		size_t len = strcspn(p, ",");
		char **v;
		if (!len) {
			snprintf(why, n, "KEY=V1,V2,... with no empty value");
			rp_sweep_free(sp);
			return -1;
		}
		if (!(v = realloc(sp->vals, (size_t)(sp->nvals + 1) * sizeof *v)))
			goto oom;
		sp->vals = v;
		if (!(sp->vals[sp->nvals] = strndup(p, len)))
			goto oom;
		sp->nvals++;
		if (!p[len])
			break;
		p += len + 1;
	}
	return 0;
oom:
	snprintf(why, n, "memory (out of memory)");
	rp_sweep_free(sp);
	return -1;
}

int rp_sweep_add_ptxas(SweepSpec *sp, const char *listing)
{
	char **v = realloc(sp->vals, (size_t)(sp->nvals + 1) * sizeof *v);

	if (!v)
		return -1;
	sp->vals = v;
	if (!(sp->vals[sp->nvals] = strdup("ptxas")) || !(sp->ptxas = strdup(listing)))
		return -1;
	sp->nvals++;
	return 0;
}

void rp_sweep_free(SweepSpec *sp)
{
	free(sp->key);
	free(sp->ptxas);
	for (int i = 0; i < sp->nvals; i++)
		free(sp->vals[i]);
	free(sp->vals);
	free(sp->csv);
	free(sp->svg);
	memset(sp, 0, sizeof *sp);
}

/* ---- the point file: flat JSON, the names of rp_tstats_json */
const SweepStat rp_sweep_stats[] = {
	{"gpu_sim_cycle", offsetof(SweepPoint, cycles)},
	{"gpu_sim_insn", offsetof(SweepPoint, thread_insts)},
	{"gpgpu_n_tot_w_icount", offsetof(SweepPoint, warp_insts)},
	{"divergent_branches", offsetof(SweepPoint, div_branches)},
	{"predicated_off_lanes", offsetof(SweepPoint, pred_off)},
	{"crs_high_water", offsetof(SweepPoint, crs_hwm)},
};
const int rp_nsweep_stats = (int)(sizeof rp_sweep_stats / sizeof rp_sweep_stats[0]);
const char *const rp_stall_names[RP_NSTALL] = {
	"stall_raw_alu", "stall_raw_mem", "stall_pipe_busy", "stall_control", "stall_barrier",
	"stall_idle",
};

int rp_sweep_point_write(const char *path, const SweepPoint *p)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "{\n");
	for (int i = 0; i < rp_nsweep_stats; i++)
		fprintf(f, "  \"%s\": %" PRIu64 "%s\n", rp_sweep_stats[i].name,
		        *(const uint64_t *)((const char *)p + rp_sweep_stats[i].off),
		        i + 1 < rp_nsweep_stats || p->stalls ? "," : "");
	for (int k = 0; p->stalls && k < RP_NSTALL; k++)
		fprintf(f, "  \"%s\": %" PRIu64 "%s\n", rp_stall_names[k], p->stall[k],
		        k + 1 < RP_NSTALL ? "," : "");
	fprintf(f, "}\n");
	return (ferror(f) | (fclose(f) != 0)) ? -1 : 0;
}

int rp_sweep_point_read(const char *path, SweepPoint *p)
{
	FILE *f = fopen(path, "r");
	char line[512];
	long seen = 0, stalls = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		char name[128];
		unsigned long long v;
		if (sscanf(line, " \"%127[^\"]\" : %llu", name, &v) != 2)
			continue;
		for (int i = 0; i < rp_nsweep_stats; i++)
			if (!strcmp(name, rp_sweep_stats[i].name)) {
				*(uint64_t *)((char *)p + rp_sweep_stats[i].off) = v;
				seen |= 1L << i;
			}
		for (int k = 0; k < RP_NSTALL; k++)
			if (!strcmp(name, rp_stall_names[k])) {
				p->stall[k] = v;
				stalls |= 1L << k;
			}
	}
	fclose(f);
	p->stalls = stalls == (1L << RP_NSTALL) - 1;    /* (none under --functional) */
	return seen == (1L << rp_nsweep_stats) - 1 ? 0 : -1;
}

int rp_sweep_in_shard(const SweepSpec *sp, int p)
{
	return !sp->nshards || p % sp->nshards == sp->shard - 1;
}

void rp_sweep_point_clear(SweepPoint *p)
{
	free(p->extra);
	p->extra = NULL;
	for (int b = 0; b < p->nbufs; b++)
		free(p->bufs[b].name);
	free(p->bufs);
	p->bufs = NULL;
	p->nbufs = 0;
}

void rp_sweep_points_free(SweepPoint *pts, int n)
{
	for (int i = 0; pts && i < n; i++)
		rp_sweep_point_clear(&pts[i]);
	free(pts);
}

/* ---- running the points */
typedef struct {
	char dir[512];          /* private temporary directory */
	pid_t pid;              /* child, 0 when not running */
	int status;             /* its wait status */
	int started;            /* launched */
} Run;

static pid_t spawn(const char *self, char *const *args, int nargs, const SweepSpec *sp, int i,
                   const char *dir)
{
	size_t words = 1;
	char **av, opt[256], path[600], *copy = NULL;
	pid_t pid;
	int n = 0;

	for (const char *c = sp->vals[i]; *c; c++)
		words += *c == ' ';
	if (!(av = calloc((size_t)nargs + 6 + words, sizeof *av)))
		return -1;
	snprintf(opt, sizeof opt, "--%s", sp->key);
	av[n++] = (char *)self;
	for (int k = 0; k < nargs; k++)
		av[n++] = args[k];
	if (sp->ptxas && i == sp->nvals - 1) {
		av[n++] = "--sweep-program";     /* ptxas's listing instead of the program */
		av[n++] = sp->ptxas;
	} else if (!sp->key[0]) {           /* the value is a list of arguments (--explore) */
		if (!(copy = strdup(sp->vals[i]))) {
			free(av);
			return -1;
		}
		for (char *w = strtok(copy, " "); w; w = strtok(NULL, " "))
			av[n++] = w;
	} else {
		av[n++] = opt;
		av[n++] = sp->vals[i];
	}
	av[n++] = "--sweep-point";
	av[n++] = (char *)dir;
	av[n] = NULL;
	fflush(NULL);
	if ((pid = fork()) == 0) {
		int fd;
		snprintf(path, sizeof path, "%s/stdout", dir);
		if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) >= 0)
			dup2(fd, 1), close(fd);
		snprintf(path, sizeof path, "%s/stderr", dir);
		if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) >= 0)
			dup2(fd, 2), close(fd);
		if (strchr(self, '/'))
			execv(self, av);
		else
			execvp(self, av);
		fprintf(stderr, "warpsim: --sweep: cannot run '%s': %s\n", self, strerror(errno));
		_exit(127);
	}
	free(av);
	free(copy);
	return pid;
}

static int namecmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* the output files of a point (out*), sorted; returns their count */
static int outs(const char *dir, char names[][256], int max)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max)
		if (!strncmp(e->d_name, "out", 3) && strcmp(e->d_name, "stdout"))
			snprintf(names[n++], 256, "%s", e->d_name);
	closedir(d);
	qsort(names, (size_t)n, 256, namecmp);
	return n;
}

/* -1 when identical, else the offset of the first difference */
static long long cmpfiles(const char *a, const char *b)
{
	FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
	long long off = 0, r = -1;

	if (!f || !g)
		r = 0;
	while (r < 0) {
		int x = getc(f), y = getc(g);
		if (x != y)
			r = off;
		else if (x == EOF)
			break;
		off++;
	}
	if (f)
		fclose(f);
	if (g)
		fclose(g);
	return r;
}

static void show_file(FILE *err, const char *path, const char *indent)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int n = 0;

	if (!f)
		return;
	while (fgets(line, sizeof line, f) && n++ < 40)
		fprintf(err, "%s%s%s", indent, line, strchr(line, '\n') ? "" : "\n");
	fclose(f);
}

static void rmtree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[1024];

	if (d) {
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
				snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
				unlink(path);
			}
		closedir(d);
	}
	rmdir(dir);
}

enum { MAXOUTS = 64 };

/* the sizes and FNV-1a hashes of a point's output buffers, into p->bufs; 0, or -1 */
static int hash_outs(const char *dir, SweepPoint *p)
{
	static char names[MAXOUTS][256];
	int n = outs(dir, names, MAXOUTS);

	if (n && !(p->bufs = calloc((size_t)n, sizeof *p->bufs)))
		return -1;
	for (int k = 0; k < n; k++) {
		char path[900];
		SweepBuf *b = &p->bufs[p->nbufs];
		FILE *f;
		int c;

		snprintf(path, sizeof path, "%.511s/%.255s", dir, names[k]);
		if (!(b->name = strdup(names[k])) || !(f = fopen(path, "rb"))) {
			free(b->name);
			return -1;
		}
		p->nbufs++;
		b->fnv = 0xcbf29ce484222325u;
		while ((c = getc(f)) != EOF) {
			b->fnv = (b->fnv ^ (uint64_t)c) * 0x100000001b3u;
			b->bytes++;
		}
		c = ferror(f);
		fclose(f);
		if (c)
			return -1;
	}
	return 0;
}

/* --out PATH of a sweep: point i's buffer saved as PATH with ".KEY-VALUE" before its
 * extension (out.txt -> out.predicate-max-4.txt; the ptxas point: out.ptxas.txt). 0, or -1
 * after a message */
static int keep_outs(const SweepSpec *sp, int i, const char *dir, FILE *err)
{
	for (int k = 0; k < sp->nouts; k++) {
		const char *path = sp->outs[k], *base = strrchr(path, '/'), *dot;
		char src[1200], dst[1200], buf[65536];
		FILE *f, *g;
		size_t n;
		int bad = 0;

		base = base ? base + 1 : path;
		dot = strrchr(base, '.');
		if (!dot || dot == base)
			dot = base + strlen(base);
		snprintf(src, sizeof src, "%s/out%d-%s", dir, k, base);
		if (sp->ptxas && i == sp->nvals - 1)
			snprintf(dst, sizeof dst, "%.*s.ptxas%s", (int)(dot - path), path, dot);
		else
			snprintf(dst, sizeof dst, "%.*s.%s-%s%s", (int)(dot - path), path, sp->key, sp->vals[i], dot);
		if (!(f = fopen(src, "rb")))
			continue;               /* the point wrote no such buffer (a failed run) */
		if (!(g = fopen(dst, "wb"))) {
			fprintf(err, "warpsim: --sweep: cannot write '%s': %s\n", dst, strerror(errno));
			fclose(f);
			return -1;
		}
		while ((n = fread(buf, 1, sizeof buf, f)) > 0)
			bad |= fwrite(buf, 1, n, g) != n;
		fclose(f);
		if (fclose(g) || bad) {
			fprintf(err, "warpsim: --sweep: error writing '%s'\n", dst);
			return -1;
		}
	}
	return 0;
}

void rp_sweep_differ(FILE *err, const SweepSpec *sp, int ref, int i, const char *buf,
                     const char *how)
{
	char a[300], b[300];

	fprintf(err, "\nwarpsim: --sweep: ERROR: the output buffers differ between %s and %s\n"
	        "    buffer '%s' (saved by --out), %s\n"
	        "    %s must never change a kernel's results: %s\n\n", rp_sweep_point_name(sp, ref, a, sizeof a),
	        rp_sweep_point_name(sp, i, b, sizeof b), buf, how,
	        translator_point(sp, i) ? "a translator setting" : "a simulator setting",
	        translator_point(sp, i) ? "this is a TRANSLATOR BUG; please report it with this "
	        "kernel and launch" : "this is a simulator bug, or the kernel has a data race "
	        "or reads the clock (e.g. results depending on the order of atomics)");
}

int rp_sweep_run(const char *self, char *const *args, int nargs, const SweepSpec *sp,
                  SweepPoint *pts, FILE *err)
{
	Run *r = calloc((size_t)sp->nvals, sizeof *r);
	const char *tmp = getenv("TMPDIR");
	int running = 0, next = 0, rc = 0, ref = -1;
	static char na[MAXOUTS][256], nb[MAXOUTS][256];

	if (!r) {
		fprintf(err, "warpsim: --sweep: out of memory\n");
		return 1;
	}
	memset(pts, 0, (size_t)sp->nvals * sizeof *pts);
	while (next < sp->nvals || running) {
		while (next < sp->nvals && running < sp->jobs) {
			Run *x = &r[next];
			if (!rp_sweep_in_shard(sp, next)) {
				pts[next++].skipped = 1;
				continue;
			}
			snprintf(x->dir, sizeof x->dir, "%s/warpsim-sweep-XXXXXX", tmp && *tmp ? tmp : "/tmp");
			if (!mkdtemp(x->dir)) {
				fprintf(err, "warpsim: --sweep: cannot create a temporary directory: %s\n", strerror(errno));
				x->dir[0] = 0;
				rc = 1;
			} else if ((x->pid = spawn(self, args, nargs, sp, next, x->dir)) < 0) {
				fprintf(err, "warpsim: --sweep: cannot start a process: %s\n", strerror(errno));
				x->pid = 0;
				rc = 1;
			} else {
				x->started = 1;
				running++;
			}
			next++;
		}
		if (running) {
			int st;
			pid_t pid = wait(&st);
			if (pid < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			for (int i = 0; i < sp->nvals; i++)
				if (r[i].started && r[i].pid == pid) {
					r[i].status = st;
					r[i].pid = 0;
					running--;
				}
		}
	}
	for (int i = 0; i < sp->nvals; i++) {
		char path[600];
		Run *x = &r[i];
		if (!x->started)
			continue;
		snprintf(path, sizeof path, "%s/stats.json", x->dir);
		if (WIFEXITED(x->status) && WEXITSTATUS(x->status) == 0 && !rp_sweep_point_read(path, &pts[i])) {
			pts[i].ok = 1;
			if (sp->extra) {       /* a file the point wrote for the caller (--explore) */
				snprintf(path, sizeof path, "%s/%s", x->dir, sp->extra);
				pts[i].extra = opt_read_file(path, NULL);
			}
			if (hash_outs(x->dir, &pts[i])) {
				fprintf(err, "warpsim: --sweep: cannot read the buffers of %s\n",
				        rp_sweep_point_name(sp, i, path, sizeof path));
				rc = 1;
			}
			continue;
		}
		rc = 1;
		if (WIFEXITED(x->status))
			fprintf(err, "warpsim: --sweep: the run with %s failed (exit status %d):\n",
			        rp_sweep_point_name(sp, i, path, sizeof path), WEXITSTATUS(x->status));
		else
			fprintf(err, "warpsim: --sweep: the run with %s was killed by signal %d:\n",
			        rp_sweep_point_name(sp, i, path, sizeof path), WIFSIGNALED(x->status) ? WTERMSIG(x->status) : 0);
		snprintf(path, sizeof path, "%s/stderr", x->dir);
		show_file(err, path, "    ");
	}
	/* every point's output buffers against the first good point's */
	for (int i = 0; i < sp->nvals; i++) {
		int n, m;
		if (!pts[i].ok)
			continue;
		if (ref < 0) {
			ref = i;
			continue;
		}
		n = outs(r[ref].dir, na, MAXOUTS);
		m = outs(r[i].dir, nb, MAXOUTS);
		for (int k = 0; k < n || k < m; k++) {
			char pa[900], pb[900];
			long long off;
			const char *name = k < n ? na[k] : nb[k];
			if (k >= n || k >= m || strcmp(na[k], nb[k])) {
				off = 0;
			} else {
				snprintf(pa, sizeof pa, "%.511s/%.255s", r[ref].dir, na[k]);
				snprintf(pb, sizeof pb, "%.511s/%.255s", r[i].dir, nb[k]);
				if ((off = cmpfiles(pa, pb)) < 0)
					continue;
			}
			pts[i].outs_differ = 1;
			if (rc != 1)
				rc = 3;
			snprintf(pa, sizeof pa, "first difference at byte %lld", off);
			rp_sweep_differ(err, sp, ref, i, strchr(name, '-') ? strchr(name, '-') + 1 : name, pa);
			break;
		}
	}
	for (int i = 0; i < sp->nvals; i++)
		if (r[i].started) {
			if (pts[i].ok && keep_outs(sp, i, r[i].dir, err))
				rc = rc ? rc : 1;
			rmtree(r[i].dir);
		}
	free(r);
	return rc;
}

/* ---- reporting */
static double ipc(const SweepPoint *p)
{
	return p->cycles ? (double)p->thread_insts / (double)p->cycles : 0.0;
}

double rp_sweep_simd(const SweepPoint *p)
{
	return p->warp_insts ? 100.0 * (double)p->thread_insts / (32.0 * (double)p->warp_insts) : 0.0;
}

const char *rp_stall_col(int k)
{
	return rp_stall_names[k] + strlen("stall_");
}

void rp_where_widths(int w[RP_NSTALL + 1])
{
	for (int c = 0; c <= RP_NSTALL; c++)
		w[c] = (int)strlen(c ? rp_stall_col(c - 1) : "issued");
}

void rp_where_head(FILE *f, const int w[RP_NSTALL + 1])
{
	for (int c = 0; c <= RP_NSTALL; c++)
		fprintf(f, " %*s", w[c], c ? rp_stall_col(c - 1) : "issued");
	fputc('\n', f);
}

void rp_where_cells(FILE *f, int w[RP_NSTALL + 1], const int64_t d[RP_NSTALL + 1], int sign)
{
	char v[32];

	for (int c = 0; c <= RP_NSTALL; c++) {
		int n = snprintf(v, sizeof v, sign ? "%+" PRId64 : "%" PRId64, d[c]);
		if (!f && n > w[c])
			w[c] = n;
		else if (f)
			fprintf(f, " %*s", w[c], v);
	}
	if (f)
		fputc('\n', f);
}

/* the point's warp instructions and stall counts (RP_NSTALL + 1 values), less base's unless
 * base is NULL */
static void where_row(const SweepPoint *p, const SweepPoint *base, int64_t d[RP_NSTALL + 1])
{
	d[0] = (int64_t)p->warp_insts - (base ? (int64_t)base->warp_insts : 0);
	for (int k = 0; k < RP_NSTALL; k++)
		d[k + 1] = (int64_t)p->stall[k] - (base ? (int64_t)base->stall[k] : 0);
}

/* the table's second part: where each point's cycles went, in scheduler-cycles, the first
 * point that has the counts (one the timing model ran) whole and every other one as the
 * difference from it, so that what a value changes reads as in --explore's table; indented,
 * so that a row of the first part is still one that begins with a value */
static void where_table(FILE *f, const SweepSpec *sp, const SweepPoint *pts, int kw)
{
	const SweepPoint *base = NULL;
	int w[RP_NSTALL + 1], rows = 0;
	int64_t d[RP_NSTALL + 1];

	rp_where_widths(w);
	for (int pass = 0; pass < 2; pass++) {
		base = NULL;
		for (int i = 0; i < sp->nvals; i++) {
			const SweepPoint *p = &pts[i];
			if (p->skipped || !p->ok || !p->stalls)
				continue;
			where_row(p, base, d);
			if (pass)
				fprintf(f, "    %-*s", kw, sp->vals[i]);
			rp_where_cells(pass ? f : NULL, w, d, base != NULL);
			if (!base)
				base = p;
			rows++;
		}
		if (!rows)
			return;
		if (!pass) {
			fprintf(f, "where the cycles went, in scheduler-cycles: the warp instructions "
			        "issued, then the cycles a scheduler\nissued none, by what its first warp "
			        "waited on (--stats-json's stall_* counts); the first point's\ncounts, then "
			        "each other point's less the first's\n    %-*s", kw, sp->key);
			rp_where_head(f, w);
		}
	}
}

void rp_sweep_table(FILE *f, const SweepSpec *sp, const SweepPoint *pts)
{
	const SweepPoint *base = sp->nvals && pts[0].ok ? &pts[0] : NULL;
	int w = (int)strlen(sp->key);

	for (int i = 0; i < sp->nvals; i++)
		if ((int)strlen(sp->vals[i]) > w)
			w = (int)strlen(sp->vals[i]);
	fprintf(f, "%-*s %10s %11s %13s %8s %9s %8s %8s %9s %8s\n", w, sp->key, "cycles", "warp_insts",
	        "thread_insts", "IPC", "SIMD_eff", "div_br", "CRS_hwm", "pred_off", "speedup");
	for (int i = 0; i < sp->nvals; i++) {
		const SweepPoint *p = &pts[i];
		if (p->skipped)
			continue;
		if (!p->ok) {
			fprintf(f, "%-*s %10s\n", w, sp->vals[i], "failed");
			continue;
		}
		fprintf(f, "%-*s %10" PRIu64 " %11" PRIu64 " %13" PRIu64 " %8.3f %8.1f%% %8" PRIu64 " %8" PRIu64
		        " %9" PRIu64, w, sp->vals[i], p->cycles, p->warp_insts, p->thread_insts, ipc(p),
		        rp_sweep_simd(p), p->div_branches, p->crs_hwm, p->pred_off);
		if (base && p->cycles)
			fprintf(f, " %7.3fx", (double)base->cycles / (double)p->cycles);
		else
			fprintf(f, " %8s", "-");
		fprintf(f, "%s\n", p->outs_differ ? "  OUTPUTS DIFFER" : "");
	}
	where_table(f, sp, pts, w);
}

int rp_sweep_csv(const char *path, const SweepSpec *sp, const SweepPoint *pts, FILE *err)
{
	FILE *f = fopen(path, "w");
	const SweepPoint *base = sp->nvals && pts[0].ok ? &pts[0] : NULL;

	if (!f) {
		fprintf(err, "warpsim: --sweep-csv: cannot write '%s': %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "%s,cycles,warp_insts,thread_insts,ipc,simd_efficiency,divergent_branches,"
	        "crs_high_water,predicated_off_lanes,speedup,outputs_identical", sp->key);
	for (int k = 0; k < RP_NSTALL; k++)
		fprintf(f, ",%s", rp_stall_names[k]);
	fputc('\n', f);
	for (int i = 0; i < sp->nvals; i++) {
		const SweepPoint *p = &pts[i];
		fprintf(f, "%s", sp->vals[i]);
		if (!p->ok) {
			fprintf(f, ",,,,,,,,,,%.*s\n", RP_NSTALL, ",,,,,,,,");
			continue;
		}
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.4f,%.4f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",",
		        p->cycles, p->warp_insts, p->thread_insts, ipc(p), rp_sweep_simd(p) / 100.0, p->div_branches,
		        p->crs_hwm, p->pred_off);
		if (base && p->cycles)
			fprintf(f, "%.4f", (double)base->cycles / (double)p->cycles);
		fprintf(f, ",%s", p->outs_differ ? "no" : "yes");
		for (int k = 0; k < RP_NSTALL; k++)    /* empty under --functional */
			if (p->stalls)
				fprintf(f, ",%" PRIu64, p->stall[k]);
			else
				fputc(',', f);
		fputc('\n', f);
	}
	if (ferror(f) | (fclose(f) != 0)) {
		fprintf(err, "warpsim: --sweep-csv: error writing '%s'\n", path);
		return -1;
	}
	return 0;
}
