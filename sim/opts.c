/* opts.c - the SM model's rows of the option table (opt/opt.h): the launch (--kernel, --grid,
 * --block, --arg, --shared-bytes, --out) and the run (--max-warp-insts, --stats,
 * --stats-json, --quiet, --print-config), over SimOpts. The architecture's rows are
 * tconfig.c's; the programs gather them with the other components' (cli/). */
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include "sim/sim.h"

static int fn_dim3(void *field, const char *val, const OptCtx *cx, char *why, size_t n)
{
	uint32_t d[3];
	char w[256];

	if (dev_parse_dim3(val, d, w)) {
		snprintf(why, n, "%s", w);
		return -1;
	}
	if (!cx->check_only)
		memcpy(field, d, sizeof d);
	return 0;
}

/* The array ARR of *COUNT items of SIZE bytes with ITEM appended (and *COUNT one more), or NULL
 * when memory runs out (ARR is then untouched). */
static void *append(void *arr, int *count, const void *item, size_t size)
{
	char *na = realloc(arr, (size_t)(*count + 1) * size);

	if (na)
		memcpy(na + (size_t)(*count)++ * size, item, size);
	return na;
}

/* A parsed item that is not kept: on a check only (success), or when memory ran out. */
static int drop(void *item, void (*release)(void *), const char *what, const OptCtx *cx,
                char *why, size_t n)
{
	release(item);
	if (cx->check_only)
		return 0;
	snprintf(why, n, "%s that fits in memory", what);
	return -1;
}

static void release_arg(void *p) { dev_arg_free(p); }
static void release_out(void *p) { dev_out_free(p); }
static void release_const(void *p) { dev_const_free(p); }
static void release_tex(void *p) { dev_tex_free(p); }
static void release_surf(void *p) { dev_surf_free(p); }

static int fn_arg(void *field, const char *val, const OptCtx *cx, char *why, size_t n)
{
	Launch *l = field;
	LaunchArg a;
	void *na;
	char w[256];

	if (dev_parse_arg(val, *cx->dir ? cx->dir : NULL, &a, w)) {
		snprintf(why, n, "%s", w);
		return -1;
	}
	if (cx->check_only || !(na = append(l->args, &l->nargs, &a, sizeof a)))
		return drop(&a, release_arg, "an argument", cx, why, n);
	l->args = na;
	return 0;
}

static int fn_out(void *field, const char *val, const OptCtx *cx, char *why, size_t n)
{
	Launch *l = field;
	LaunchOut o;
	void *na;
	char w[256];

	if (dev_parse_out(val, &o, w)) {
		snprintf(why, n, "%s", w);
		return -1;
	}
	if (cx->check_only || !(na = append(l->outs, &l->nouts, &o, sizeof o)))
		return drop(&o, release_out, "an output", cx, why, n);
	l->outs = na;
	return 0;
}

static int fn_const(void *field, const char *val, const OptCtx *cx, char *why, size_t n)
{
	Launch *l = field;
	LaunchConst c;
	void *na;
	char w[256];

	if (dev_parse_const(val, *cx->dir ? cx->dir : NULL, &c, w)) {
		snprintf(why, n, "%s", w);
		return -1;
	}
	for (int i = 0; i < l->nconsts; i++)
		if (!strcmp(l->consts[i].name, c.name)) {
			snprintf(why, n, "a variable no other --const sets ('%s' is set already)", c.name);
			dev_const_free(&c);
			return -1;
		}
	if (cx->check_only || !(na = append(l->consts, &l->nconsts, &c, sizeof c)))
		return drop(&c, release_const, "a constant", cx, why, n);
	l->consts = na;
	return 0;
}

static int fn_tex(void *field, const char *val, const OptCtx *cx, char *why, size_t n)
{
	Launch *l = field;
	LaunchTex t;
	void *na;
	char w[256];

	if (dev_parse_tex(val, *cx->dir ? cx->dir : NULL, &t, w)) {
		snprintf(why, n, "%s", w);
		return -1;
	}
	if (cx->check_only || !(na = append(l->texs, &l->ntexs, &t, sizeof t)))
		return drop(&t, release_tex, "a texture", cx, why, n);
	l->texs = na;
	return 0;
}

static int fn_surf(void *field, const char *val, const OptCtx *cx, char *why, size_t n)
{
	Launch *l = field;
	LaunchSurf u;
	void *na;
	char w[256];

	if (dev_parse_surf(val, &u, w)) {
		snprintf(why, n, "%s", w);
		return -1;
	}
	if (cx->check_only || !(na = append(l->surfs, &l->nsurfs, &u, sizeof u)))
		return drop(&u, release_surf, "a surface", cx, why, n);
	l->surfs = na;
	return 0;
}

/* --kernel NAME: the kernel of the launch; a --kernel after the first starts the next launch
 * of the run (what follows it, up to the next --kernel, is that launch's) */
static int fn_kernel(void *field, const char *val, const OptCtx *cx, char *why, size_t n)
{
	SimOpts *o = field;
	char *name, *where = NULL;
	Launch *np;

	if (!*val) {
		snprintf(why, n, "a kernel name");
		return -1;
	}
	if (cx->check_only)
		return 0;
	if (!(name = strdup(val)))
		goto oom;
	if (cx->file) {
		size_t len = strlen(cx->file) + 24;
		if (!(where = malloc(len))) {
			free(name);
			goto oom;
		}
		snprintf(where, len, "%s:%d", cx->file, cx->line);
	}
	if (o->launch.kernel) {
		if (!(np = realloc(o->prev, (size_t)(o->nprev + 1) * sizeof *np))) {
			free(name);
			free(where);
			goto oom;
		}
		o->prev = np;
		np[o->nprev++] = o->launch;
		dev_launch_next(&o->launch, &np[o->nprev - 1]);
	}
	o->launch.kernel = name;
	o->launch.where = where;
	return 0;
oom:
	snprintf(why, n, "a kernel name that fits in memory");
	return -1;
}

static void release_buf(void *p) { dev_buf_free(p); }

static int fn_buf(void *field, const char *val, const OptCtx *cx, char *why, size_t n)
{
	Launch *l = field;
	LaunchBuf b;
	void *na;
	char w[256];

	if (dev_parse_buf(val, *cx->dir ? cx->dir : NULL, &b, w)) {
		snprintf(why, n, "%s", w);
		return -1;
	}
	for (int i = 0; i < l->nbufs; i++)
		if (!strcmp(l->bufs[i].name, b.name)) {
			snprintf(why, n, "a buffer no other --buf names ('%s' is named already)", b.name);
			dev_buf_free(&b);
			return -1;
		}
	if (cx->check_only || !(na = append(l->bufs, &l->nbufs, &b, sizeof b)))
		return drop(&b, release_buf, "a buffer", cx, why, n);
	l->bufs = na;
	return 0;
}

#define F(x) offsetof(SimOpts, x)
const OptRow sim_launch_rows[] = {
	{.name = "kernel", .kind = OPT_FN, .metavar = "NAME", .off = 0, .fn = fn_kernel,
	 .help = "the kernel to launch (default: the only one); another --kernel starts the next "
	         "launch of the run, with the options after it"},
	{.name = "buf", .kind = OPT_FN, .metavar = "NAME=TYPE:COUNT[:INIT]", .off = F(launch),
	 .fn = fn_buf,
	 .help = "a buffer of the run that this launch and every later one pass as --arg buf:NAME "
	         "and --out NAME:FILE saves"},
	{.name = "grid", .kind = OPT_FN, .metavar = "X[,Y,Z]", .off = F(launch.grid), .fn = fn_dim3,
	 .help = "CTAs in the grid (default 1)"},
	{.name = "block", .kind = OPT_FN, .metavar = "X[,Y,Z]", .off = F(launch.block), .fn = fn_dim3,
	 .help = "threads per CTA (default 1)"},
	{.name = "arg", .kind = OPT_FN, .metavar = "SPEC", .off = F(launch), .fn = fn_arg,
	 .help = "the next kernel parameter: TYPE:VALUE, buf:TYPE:COUNT[:INIT], tex:NAME, surf:NAME "
	         "or struct:FIELD[,FIELD...] (a struct by value)"},
	{.name = "const", .kind = OPT_FN, .metavar = "NAME=VALUE", .off = F(launch), .fn = fn_const,
	 .help = "set the __constant__ variable NAME: FIELD[,FIELD...] as --arg struct: takes, or "
	         "@FILE (raw bytes)"},
	{.name = "tex", .kind = OPT_FN, .metavar = "SPEC", .off = F(launch), .fn = fn_tex,
	 .help = "bind a texture reference: NAME:TYPE[xN]:W[xH[xD]][:MODES][:INIT] (docs/warpsim.md)"},
	{.name = "surf", .kind = OPT_FN, .metavar = "SPEC", .off = F(launch), .fn = fn_surf,
	 .help = "bind a surface reference to a buffer argument: NAME:N:TYPE[xN]:W[xH[xD]] (docs/warpsim.md)"},
	{.name = "out", .kind = OPT_FN, .metavar = "N[.F]:FILE", .off = F(launch), .fn = fn_out,
	 .help = "save parameter N's buffer after the run (.bin raw, else text); N.F: field F of a "
	         "struct; NAME[.F]: a --const's; NAME: a module variable's bytes (.bin)"},
	{.name = "shared-bytes", .kind = OPT_BYTES, .metavar = "N", .off = F(launch.shared_bytes),
	 .help = "dynamic shared memory per CTA"},
	{.name = "crs-bytes", .kind = OPT_BYTES, .metavar = "N", .off = F(launch.crs_bytes),
	 .help = "local memory per warp for CallReturnStack tokens beyond --crs-depth (8 bytes each; "
	         "default 2048, the driver's)"},
	{.name = "stack-bytes", .kind = OPT_BYTES, .metavar = "N", .off = F(launch.stack_bytes),
	 .help = "local memory per thread for call frames, at least (cudaLimitStackSize; default: "
	         "the translator's size, 1 KiB more with recursion)"},
	{.name = "heap-bytes", .kind = OPT_BYTES, .metavar = "N", .off = F(launch.heap_bytes),
	 .help = "the device heap of in-kernel malloc and free (cudaLimitMallocHeapSize; default "
	         "8388608, CUDA's 8 MB)"},
	{.name = "cooperative", .kind = OPT_FLAG, .off = F(launch.cooperative),
	 .help = "a cooperative launch (cudaLaunchCooperativeKernel): every CTA co-resident, "
	         "cooperative groups' grid workspace in %envreg1:%envreg2 (grid.sync())"},
	{.name = "cdp-pending", .kind = OPT_BYTES, .metavar = "N", .off = F(launch.cdp_pending),
	 .def = DEV_CDP_PENDING, .max = 65536,
	 .help = "child grids (dynamic parallelism) launched and not yet run, "
	         "at most (cudaLimitDevRuntimePendingLaunchCount; default 2048, CUDA's)"},
};
const int sim_nlaunch_rows = (int)(sizeof sim_launch_rows / sizeof sim_launch_rows[0]);

const OptRow sim_run_rows[] = {
	{.name = "stats", .kind = OPT_FLAG, .off = F(stats),
	 .help = "print the statistics table on stderr even with --quiet (it is printed by default)"},
	{.name = "stats-json", .kind = OPT_STR, .metavar = "FILE", .off = F(stats_json),
	 .help = "also write the statistics as one JSON object to FILE"},
	{.name = "quiet", .kind = OPT_FLAG, .off = F(quiet),
	 .help = "print nothing but errors"},
	{.name = "max-warp-insts", .kind = OPT_COUNT, .metavar = "N", .off = F(max_warp_insts),
	 .help = "stop a runaway after N warp instructions (0: no limit)"},
	{.name = "printf-out", .kind = OPT_STR, .metavar = "FILE", .off = F(printf_out),
	 .help = "write the kernel's printf lines to FILE (default: standard output)"},
	{.name = "printf-tag", .kind = OPT_FLAG, .off = F(printf_tag),
	 .help = "start each printf line with its block and thread: [block (x,y,z) thread (x,y,z)]"},
	{.name = "functional", .kind = OPT_FLAG, .off = F(functional),
	 .help = "run the SM model without its timing model: the same instructions and memory, "
	         "rounds for cycles, no memory or stall statistics (about 10x faster)"},
	{.name = "threads", .kind = OPT_INT, .metavar = "N", .off = F(threads),
	 .def = 1, .min = 1, .max = 256,
	 .help = "simulate the SMs on N host threads (default 1); the results are the same for "
	         "every N"},
	{.name = "progress-after", .kind = OPT_INT, .metavar = "SECONDS", .off = F(progress_after),
	 .def = 2, .min = 0, .max = 86400,
	 .help = "show the progress line on a terminal after SECONDS of running (default 2)"},
	{.name = "print-config", .kind = OPT_FLAG, .off = F(print_config),
	 .help = "print the effective architecture options (a valid --config file) and exit"},
};
const int sim_nrun_rows = (int)(sizeof sim_run_rows / sizeof sim_run_rows[0]);
#undef F

void sim_opts_init(SimOpts *o)
{
	memset(o, 0, sizeof *o);
	dev_launch_init(&o->launch);
	sim_tconfig_defaults(&o->tc);
	opt_defaults(sim_run_rows, sim_nrun_rows, o);
}

void sim_opts_free(SimOpts *o)
{
	for (int i = 0; i < o->nprev; i++)
		dev_launch_free(&o->prev[i]);
	free(o->prev);
	o->prev = NULL;
	o->nprev = 0;
	dev_launch_free(&o->launch);
	opt_free_strs(sim_run_rows, sim_nrun_rows, o);
}

Launch *sim_opts_launch(SimOpts *o, int i)
{
	return i < o->nprev ? &o->prev[i] : &o->launch;
}

static int skip_program(OptSet *s, const char *arg, FILE *err)
{
	return 0;
}

int sim_opts_argv(SimOpts *o, int argc, char **argv, FILE *err)
{
	OptSet s;
	int rc;

	opt_init(&s, "warpsim");
	s.positional = skip_program;
	opt_add(&s, "Launch", sim_launch_rows, sim_nlaunch_rows, o);
	opt_add(&s, "Option files", opt_file_rows, opt_nfile_rows, o);
	opt_add(&s, "Run", sim_run_rows, sim_nrun_rows, o);
	opt_add(&s, "Architecture", sim_topts, sim_ntopts, &o->tc);
	rc = opt_argv(&s, argc, argv, err);
	opt_free(&s);
	return rc;
}
