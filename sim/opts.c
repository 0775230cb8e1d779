/* opts.c - warpsim's options: ONE table of long options (name, argument kind, help, target
 * field) read from the command line, from --config files and from --launch files, whose
 * lines are the same long options ("--grid 4,1,1" or "grid 4,1,1" or "--grid=4,1,1"),
 * '#' starting a comment. The timing model adds its rows to the same table. */
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <errno.h>
#include <inttypes.h>
#include "sim/sim.h"

typedef enum {
	OK_FLAG,     /* no value; sets an int to 1 */
	OK_INT,      /* positive int */
	OK_COUNT,    /* non-negative 64-bit count */
	OK_BYTES,    /* non-negative 32-bit byte count */
	OK_STR,      /* string (owned) */
	OK_DIM3,     /* X[,Y,Z] */
	OK_ARG,      /* appends a kernel argument */
	OK_OUT,      /* appends an output */
	OK_LAUNCH,   /* reads a launch file */
	OK_CONFIG,   /* reads a configuration file */
	OK_LIMIT,    /* non-negative int or "inf" (stored as -1) */
} OptKind;

typedef struct {
	const char *name;     /* long option without "--" */
	OptKind kind;         /* argument kind */
	const char *metavar;  /* argument name in --help */
	const char *help;     /* one line of help */
	size_t field;         /* offsetof(SimOpts, target) */
} OptDef;

#define F(x) offsetof(SimOpts, x)
static const OptDef optdefs[] = {
	{"kernel", OK_STR, "NAME", "kernel to launch (default: the only one)", F(launch.kernel)},
	{"grid", OK_DIM3, "X[,Y,Z]", "CTAs in the grid", F(launch.grid)},
	{"block", OK_DIM3, "X[,Y,Z]", "threads per CTA", F(launch.block)},
	{"arg", OK_ARG, "SPEC", "next kernel parameter: TYPE:VALUE or buf:TYPE:COUNT[:INIT]", F(launch)},
	{"shared-bytes", OK_BYTES, "N", "dynamic shared memory per CTA", F(launch.shared_bytes)},
	{"out", OK_OUT, "N:PATH", "save parameter N's buffer (.bin raw, else text)", F(launch)},
	{"launch", OK_LAUNCH, "FILE", "read launch options from FILE, one per line", 0},
	{"config", OK_CONFIG, "FILE", "read architecture options from FILE, one per line", 0},
	{"predicate-max", OK_LIMIT, "N|inf", "translator: if-convert divergent hammocks up to N instructions (PTX input)", F(predicate_max)},
	{"predicate-max-uniform", OK_LIMIT, "N|inf", "translator: the same for uniform branches (PTX input)", F(predicate_max_uniform)},
	{"max-warp-insts", OK_COUNT, "N", "stop a runaway after N warp instructions (0: no limit)", F(max_warp_insts)},
	{"stats", OK_FLAG, NULL, "print the statistics table on stderr", F(stats)},
	{"stats-json", OK_STR, "FILE", "write the statistics as one JSON object to FILE", F(stats_json)},
	{"print-config", OK_FLAG, NULL, "print the effective architecture options and exit", F(print_config)},
	{"quiet", OK_FLAG, NULL, "print nothing but errors", F(quiet)},
	{"oracle", OK_FLAG, NULL, "run the PTX reference interpreter instead of the SM model", F(oracle)},
	{"help", OK_FLAG, NULL, "show this help and exit", F(help)},
	{"version", OK_FLAG, NULL, "show the version and exit", F(version)},
};
#undef F
enum { NOPTS = sizeof optdefs / sizeof optdefs[0] };

void sim_opts_init(SimOpts *o)
{
	memset(o, 0, sizeof *o);
	dev_launch_init(&o->launch);
	sim_tconfig_defaults(&o->tc);
	o->max_warp_insts = 0;
	o->predicate_max = 7;          /* ptxas's thresholds, CUDA C Programming Guide 4.x */
	o->predicate_max_uniform = 4;
}

void sim_opts_free(SimOpts *o)
{
	dev_launch_free(&o->launch);
	free(o->input);
	o->input = NULL;
	free(o->stats_json);
	o->stats_json = NULL;
}

void sim_opts_help(FILE *f)
{
	fprintf(f, "Usage: warpsim [OPTION]... PROGRAM\n"
	        "Run a kernel of PROGRAM (a microcode listing, .sass, or PTX, .ptx) on the SM model.\n\n");
	for (int i = 0; i < NOPTS; i++) {
		char lhs[64];
		snprintf(lhs, sizeof lhs, "--%s%s%s", optdefs[i].name, optdefs[i].metavar ? " " : "",
		         optdefs[i].metavar ? optdefs[i].metavar : "");
		fprintf(f, "  %-24s %s\n", lhs, optdefs[i].help);
	}
	fprintf(f, "\nArchitecture options (also the lines of a --config file):\n");
	for (int i = 0; i < sim_ntopts; i++) {
		char lhs[64];
		snprintf(lhs, sizeof lhs, "--%s N", sim_topts[i].name);
		fprintf(f, "  %-24s %s\n", lhs, sim_topts[i].help);
	}
	fprintf(f, "\nINIT of a buffer: zero | iota | const:V | random:SEED[:LO:HI] | file:PATH\n"
	        "TYPE: u8 s8 u16 s16 u32 s32 u64 s64 f32 f64\n"
	        "Exit status: 0 done, 1 a fault or a malformed program, 2 bad options.\n");
}

/* where an option came from, for messages */
typedef struct {
	const char *file;   /* NULL for the command line */
	int line;           /* line in file */
	const char *text;   /* the whole line */
	int col;            /* 1-based column of the value */
} Where;

static void report(FILE *err, const Where *w, const char *opt, const char *why, const char *val)
{
	if (!w->file) {
		if (val)
			fprintf(err, "warpsim: --%s: expected %s, got '%s'\n", opt, why, val);
		else
			fprintf(err, "warpsim: --%s: expected %s\n", opt, why);
		return;
	}
	if (val)
		fprintf(err, "%s:%d:%d: error: --%s: expected %s, got '%s'\n", w->file, w->line, w->col,
		        opt, why, val);
	else
		fprintf(err, "%s:%d:%d: error: --%s: expected %s\n", w->file, w->line, w->col, opt, why);
	fprintf(err, "    %s\n    %*s^\n", w->text, w->col - 1, "");
}

static int apply(SimOpts *o, const OptDef *d, const char *val, const char *basedir,
                 const Where *w, FILE *err)
{
	char *base = (char *)o + d->field;
	char why[256];
	uint64_t v;
	char *end;
	Launch *l = &o->launch;

	switch (d->kind) {
	case OK_FLAG:
		*(int *)base = 1;
		return 0;
	case OK_INT:
	case OK_COUNT:
	case OK_BYTES:
		errno = 0;
		v = strtoull(val, &end, 10);
		if (!*val || *val == '-' || *val == '+' || *end || errno ||
		    (d->kind == OK_INT && (v == 0 || v > 0x7fffffff)) ||
		    (d->kind == OK_BYTES && v > 0xffffffffu)) {
			report(err, w, d->name, d->kind == OK_INT ? "a positive integer" :
			       "a non-negative integer", val);
			return -1;
		}
		if (d->kind == OK_INT)
			*(int *)base = (int)v;
		else if (d->kind == OK_BYTES)
			*(uint32_t *)base = (uint32_t)v;
		else
			*(uint64_t *)base = v;
		return 0;
	case OK_STR: {
		char *s = strdup(val);
		if (!s)
			return -1;
		free(*(char **)base);
		*(char **)base = s;
		return 0;
	}
	case OK_DIM3:
		if (dev_parse_dim3(val, (uint32_t *)base, why)) {
			report(err, w, d->name, why, val);
			return -1;
		}
		return 0;
	case OK_ARG: {
		LaunchArg a, *na;
		if (dev_parse_arg(val, basedir, &a, why)) {
			report(err, w, d->name, why, val);
			return -1;
		}
		if (!(na = realloc(l->args, (l->nargs + 1) * sizeof *na))) {
			free(a.path);
			free(a.text);
			return -1;
		}
		l->args = na;
		l->args[l->nargs++] = a;
		return 0;
	}
	case OK_OUT: {
		LaunchOut out, *no;
		if (dev_parse_out(val, &out, why)) {
			report(err, w, d->name, why, val);
			return -1;
		}
		if (!(no = realloc(l->outs, (l->nouts + 1) * sizeof *no))) {
			free(out.path);
			return -1;
		}
		l->outs = no;
		l->outs[l->nouts++] = out;
		return 0;
	}
	case OK_LIMIT:
		errno = 0;
		if (!strcmp(val, "inf")) {
			*(int *)base = -1;
			return 0;
		}
		v = strtoull(val, &end, 10);
		if (!*val || *val == '-' || *val == '+' || *end || errno || v > 0x7fffffff) {
			report(err, w, d->name, "a non-negative integer or 'inf'", val);
			return -1;
		}
		*(int *)base = (int)v;
		return 0;
	case OK_LAUNCH:
	case OK_CONFIG:
		return sim_opts_file(o, val, err);
	}
	return -1;
}

static const OptDef *lookup(const char *name, size_t n)
{
	for (int i = 0; i < NOPTS; i++)
		if (strlen(optdefs[i].name) == n && !strncmp(optdefs[i].name, name, n))
			return &optdefs[i];
	return NULL;
}

int sim_opts_argv(SimOpts *o, int argc, char **argv, FILE *err)
{
	Where w = {0};

	for (int i = 1; i < argc; i++) {
		const char *s = argv[i], *eq, *val = NULL;
		const OptDef *d;

		if (s[0] != '-' || !s[1]) {
			if (o->input) {
				fprintf(err, "warpsim: more than one program given ('%s' and '%s')\n", o->input, s);
				return -1;
			}
			if (!(o->input = strdup(s)))
				return -1;
			continue;
		}
		if (s[1] != '-') {
			fprintf(err, "warpsim: unknown option '%s' (options are long: see --help)\n", s);
			return -1;
		}
		s += 2;
		eq = strchr(s, '=');
		if (!(d = lookup(s, eq ? (size_t)(eq - s) : strlen(s)))) {
			char key[64], msg[512];
			size_t n = eq ? (size_t)(eq - s) : strlen(s);
			snprintf(key, sizeof key, "%.*s", (int)(n < 63 ? n : 63), s);
			if (!sim_tconfig_find(key)) {
				fprintf(err, "warpsim: unknown option '--%.*s' (see --help)\n", (int)n, s);
				return -1;
			}
			if (!eq && i + 1 >= argc) {
				fprintf(err, "warpsim: --%s: expected a value\n", key);
				return -1;
			}
			if (sim_tconfig_set(&o->tc, key, eq ? eq + 1 : argv[++i], msg, sizeof msg)) {
				fprintf(err, "warpsim: %s\n", msg);
				return -1;
			}
			continue;
		}
		if (d->kind == OK_FLAG) {
			if (eq) {
				fprintf(err, "warpsim: --%s takes no value\n", d->name);
				return -1;
			}
		} else if (eq)
			val = eq + 1;
		else if (i + 1 < argc)
			val = argv[++i];
		else {
			report(err, &w, d->name, d->metavar, NULL);
			return -1;
		}
		if (apply(o, d, val, NULL, &w, err))
			return -1;
		if (o->help || o->version)
			return 0;
	}
	return 0;
}

int sim_opts_file(SimOpts *o, const char *path, FILE *err)
{
	FILE *f;
	char line[4096], dir[1024];
	const char *slash = strrchr(path, '/');
	int lineno = 0, rc = 0;

	if (o->depth >= 8) {
		fprintf(err, "warpsim: %s: --launch/--config files nested too deeply\n", path);
		return -1;
	}
	if (!(f = fopen(path, "r"))) {
		fprintf(err, "warpsim: cannot read '%s': %s\n", path, strerror(errno));
		return -1;
	}
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 0, path);
	o->depth++;
	while (!rc && fgets(line, sizeof line, f)) {
		char *p = line, *name, *val, *e;
		const OptDef *d;
		Where w = {path, ++lineno, line, 1};
		size_t n = strlen(line);

		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = 0;
		for (char *h = line; *h; h++)      /* '#' at the start or after a blank */
			if (*h == '#' && (h == line || h[-1] == ' ' || h[-1] == '\t')) {
				*h = 0;
				break;
			}
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			continue;
		name = p;
		if (p[0] == '-' && p[1] == '-')
			name = p + 2;
		for (e = name; *e && *e != ' ' && *e != '\t' && *e != '='; e++)
			;
		w.col = (int)(p - line) + 1;
		val = e;
		if (*val == '=')
			val++;
		while (*val == ' ' || *val == '\t')
			val++;
		for (char *t = val + strlen(val); t > val && (t[-1] == ' ' || t[-1] == '\t'); )
			*--t = 0;
		if (!(d = lookup(name, e - name))) {
			char key[64], msg[512];
			int kcol = w.col;
			snprintf(key, sizeof key, "%.*s", (int)(e - name < 63 ? e - name : 63), name);
			w.col = (int)(val - line) + 1;
			if (!sim_tconfig_find(key)) {
				snprintf(msg, sizeof msg, "unknown option '--%s'", key);
				w.col = kcol;
			} else if (!sim_tconfig_set(&o->tc, key, val, msg, sizeof msg))
				continue;
			fprintf(err, "%s:%d:%d: error: %s\n    %s\n    %*s^\n", path, lineno, w.col, msg,
			        line, w.col - 1, "");
			rc = -1;
			break;
		}
		w.col = (int)(val - line) + 1;
		if (d->kind == OK_FLAG && *val) {
			fprintf(err, "%s:%d:%d: error: --%s takes no value\n    %s\n    %*s^\n", path, lineno,
			        w.col, d->name, line, w.col - 1, "");
			rc = -1;
		} else if (d->kind != OK_FLAG && !*val) {
			report(err, &w, d->name, d->metavar, NULL);
			rc = -1;
		} else {
			char *v = val;
			/* nested files are relative to this one */
			char nested[2048];
			int plen = 0;
			if ((d->kind == OK_LAUNCH || d->kind == OK_CONFIG) && v[0] != '/' && *dir) {
				plen = snprintf(nested, sizeof nested, "%s/%s", dir, v);
				v = nested;
			}
			if (plen < 0 || (size_t)plen >= sizeof nested) {
				report(err, &w, d->name, "a file name shorter than 2048 bytes", val);
				rc = -1;
			} else
				rc = apply(o, d, v, dir, &w, err);
		}
	}
	o->depth--;
	fclose(f);
	return rc;
}
