/* warpc.c - main() of the translator: argument parsing and wiring only.
 *
 *   warpc --asm FILE.sass [-o OUT]   parse and check a microcode listing, print it canonically
 *
 * Each mode lives in one clearly marked function below; modes are added by their modules'
 * engineers (PTX parsing, translation).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "frontend/ptx.h"
#include "backend/backend.h"
#include "sim/timing.h"

#ifndef WARPSIM_VERSION
#define WARPSIM_VERSION "0.0.0"
#endif

static const char usage[] =
	"Usage: warpc [OPTION]... FILE\n"
	"Translate PTX into SASS-style microcode for the warpsim SM model.\n"
	"\n"
	"Modes:\n"
	"      --asm FILE.sass    parse and check a microcode listing; print it in canonical\n"
	"                         form (exit 1 with located errors when it is wrong)\n"
	"      --parse-only FILE.ptx  parse and check PTX only (exit 1 with located errors;\n"
	"                             unsupported instructions are warnings)\n"
	"  -dP FILE.ptx           print the parsed PTX back (the frontend's IR as PTX)\n"
	"  FILE.ptx               translate every kernel; print the listings (cuobjdump style)\n"
	"\n"
	"Translation options:\n"
	"      --kernel NAME      translate only kernel NAME\n"
	"      --config FILE      architecture file (sim/configs/*.cfg): takes its --max-regs\n"
	"                         and --arch\n"
	"      --max-regs N       registers per thread (63 Fermi-class, up to 255)\n"
	"      --arch sm_XX       architecture written in the listing (default sm_20)\n"
	"      --predicate-max N  if-conversion threshold of divergent branches (inf allowed)\n"
	"      --predicate-max-uniform N  the same for uniform branches\n"
	"      --explain[=json]   print the decision taken for every conditional branch\n"
	"      --compare[=json] FILE.ptx REF.sass  hold every conditional branch of each kernel\n"
	"                         against ptxas's listing of the same PTX (tests/ptxas-ref)\n"
	"  -v                     print registers, shared, local and spill bytes per kernel\n"
	"  -dLETTERS              print the backend IR after passes: G cfg, I isel, U uniform,\n"
	"                         F ifconv, R regalloc, S sync, E the emitted listing (stderr)\n"
	"\n"
	"Options:\n"
	"  -o FILE                write the output to FILE instead of standard output\n"
	"      --help             display this help and exit\n"
	"      --version          output version information and exit\n"
	"\n"
	"Listing format and microcode semantics: docs/isa.md.\n";

/* reads a whole file (or stdin for "-"); NULL with a message on failure */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f) {
		fprintf(stderr, "warpc: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t r;
		if (cap - n < 65536) {
			char *nb;
			cap = cap ? 2 * cap : 65536;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				fprintf(stderr, "warpc: %s: out of memory\n", path);
				free(buf);
				if (f != stdin)
					fclose(f);
				return NULL;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "warpc: %s: read error\n", path);
		free(buf);
		buf = NULL;
	} else {
		buf[n] = 0;
		*len = n;
	}
	if (f != stdin)
		fclose(f);
	return buf;
}

/* opens the output (stdout when out is NULL) */
static FILE *open_out(const char *out)
{
	FILE *f = out ? fopen(out, "w") : stdout;

	if (!f)
		fprintf(stderr, "warpc: %s: %s\n", out, strerror(errno));
	return f;
}

/* flushes and closes what open_out opened: 0, or 2 after a message on a write error */
static int close_out(FILE *f, const char *out)
{
	int bad = fflush(f) != 0 || ferror(f);

	if (f != stdout && fclose(f) != 0)
		bad = 1;
	if (bad)
		fprintf(stderr, "warpc: %s: write error\n", out ? out : "<stdout>");
	return bad ? 2 : 0;
}

/* ------------------------------------------------------------------ --asm (isa module) */
/* warpc --asm FILE.sass: parse, check, print the canonical listing. 0 ok, 1 input errors,
 * 2 I/O trouble. */
static int warpc_asm(const char *path, const char *out)
{
	size_t len = 0;
	char *text = read_file(path, &len);
	Prog *p;
	FILE *f;
	int rc = 0;

	if (!text)
		return 2;
	p = isa_asm(strcmp(path, "-") ? path : "<stdin>", text, len, stderr);
	free(text);
	if (!p)
		return 1;
	f = open_out(out);
	if (!f) {
		isa_prog_free(p);
		return 2;
	}
	isa_print_prog(f, p);
	rc = close_out(f, out);
	isa_prog_free(p);
	return rc;
}
/* ------------------------------------------------------------------ end of --asm */

/* ------------------------------------------------------------------ PTX frontend */
/* warpc --parse-only FILE / -dP FILE: parse and check PTX; with print, print the IR back as
 * PTX. 0 ok, 1 input errors (located diagnostics on stderr), 2 I/O trouble. */
static int warpc_parse(const char *path, const char *out, int print)
{
	size_t len = 0;
	char *text = read_file(path, &len);
	Module *m;
	FILE *f;
	int rc = 0;

	if (!text)
		return 2;
	m = ptx_parse(strcmp(path, "-") ? path : "<stdin>", text, len, stderr, NULL);
	free(text);
	if (!m)
		return 1;
	for (int i = 0; i < m->nfuncs; i++)   /* valid PTX: kernels that reach it cannot run */
		ptx_unsup_report(stderr, m, &m->funcs[i], "warning", print ?
		                 "left out of the printed function" : "kernels that reach this function "
		                 "cannot be translated or run");
	if (print) {
		f = open_out(out);
		if (!f) {
			ptx_free(m);
			return 2;
		}
		ptx_print(f, m);
		rc = close_out(f, out);
	}
	ptx_free(m);
	return rc;
}
/* ------------------------------------------------------------------ end of PTX frontend */

/* ------------------------------------------------------------------ translator (backend) */
typedef struct {
	BeOptions be;          /* translator options */
	int verbose;           /* -v */
	int explain;           /* 1 text, 2 json */
	int compare;           /* --compare: 1 text, 2 json */
	const char *ptx;       /* --compare: the PTX file */
	const char *ref;       /* --compare: ptxas's listing of it */
} TrOpts;

/* an architecture file (a sim/configs file: the simulator's format and parser); the
 * translator takes its register limit, --max-regs */
static int read_config(const char *path, TrOpts *o)
{
	TimingConfig tc;

	sim_tconfig_defaults(&tc);
	if (sim_tconfig_load(&tc, path, stderr) != 0)   /* returns its error count */
		return -1;
	o->be.max_regs = tc.max_regs;
	o->be.arch = tc.arch;
	return 0;
}

/* N or inf (-1); -2 when malformed */
static int parse_count(const char *s)
{
	char *e;
	long v;

	if (!strcmp(s, "inf"))
		return -1;
	v = strtol(s, &e, 10);
	if (*s == 0 || *e || v < 0 || v > 1000000)
		return -2;
	return (int)v;
}

/* the translator's options; returns 1 when argv[*i] was one of them, -1 on a bad value */
static int tr_option(TrOpts *o, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	const char *val = NULL;
	static const char *const withval[] = {
		"--kernel", "--config", "--max-regs", "--arch", "--predicate-max",
		"--predicate-max-uniform",
	};

	if (!strcmp(a, "-v")) {
		o->verbose = 1;
		return 1;
	}
	if (!strcmp(a, "--explain") || !strcmp(a, "--explain=text")) {
		o->explain = 1;
		return 1;
	}
	if (!strcmp(a, "--explain=json")) {
		o->explain = 2;
		return 1;
	}
	if (!strcmp(a, "--compare") || !strcmp(a, "--compare=text") || !strcmp(a, "--compare=json")) {
		o->compare = a[9] == '=' && a[10] == 'j' ? 2 : 1;
		return 1;
	}
	if (!strncmp(a, "-d", 2) && a[2] && strcmp(a, "-dP")) {
		o->be.dump = a + 2;
		return 1;
	}
	for (size_t k = 0; k < sizeof withval / sizeof *withval; k++) {
		size_t n = strlen(withval[k]);
		if (strncmp(a, withval[k], n) || (a[n] && a[n] != '='))
			continue;
		if (a[n] == '=')
			val = a + n + 1;
		else if (*i + 1 < argc)
			val = argv[++*i];
		else {
			fprintf(stderr, "warpc: %s: expected a value\n", withval[k]);
			return -1;
		}
		switch (k) {
		case 0: o->be.kernel = val; return 1;
		case 1: return read_config(val, o) < 0 ? -1 : 1;
		case 2: o->be.max_regs = atoi(val); break;
		case 3: o->be.arch = atoi(val + (strncmp(val, "sm_", 3) ? 0 : 3)); break;
		case 4: o->be.predicate_max = parse_count(val); break;
		case 5: o->be.predicate_max_uniform = parse_count(val); break;
		}
		if (o->be.max_regs < 4 || o->be.max_regs > 255) {
			fprintf(stderr, "warpc: --max-regs: %s is not in 4..255\n", val);
			return -1;
		}
		if (o->be.predicate_max < -1 || o->be.predicate_max_uniform < -1 || o->be.arch <= 0) {
			fprintf(stderr, "warpc: %s: bad value '%s'\n", withval[k], val);
			return -1;
		}
		return 1;
	}
	return 0;
}

/* --compare: every kernel of p against the kernel of the same name in o->ref (ptxas's
 * listing); 0, 1 when the reference does not parse or lacks a kernel, 2 on I/O trouble */
static int compare(FILE *f, const Prog *p, const BeLog *log, const TrOpts *o)
{
	size_t len = 0;
	char *text = read_file(o->ref, &len);
	BeCompareSum sum = {0};
	Prog *r;
	int rc = 0, first = 1;

	if (!text)
		return 2;
	r = isa_asm(o->ref, text, len, stderr);
	free(text);
	if (!r)
		return 1;
	if (o->compare == 2)
		fprintf(f, "{\"ptx\": \"%s\", \"reference\": \"%s\", \"kernels\": [\n", o->ptx, o->ref);
	for (int i = 0; i < p->nk; i++) {
		const Kernel *k = &p->k[i], *rk = isa_prog_find(r, k->name);
		if (!rk) {
			fprintf(stderr, "warpc: --compare: %s has no kernel '%s'\n", o->ref, k->name);
			rc = 1;
			continue;
		}
		if (o->compare == 2 && !first)
			fprintf(f, ",\n");
		first = 0;
		be_compare(f, k, rk, log, o->compare == 2, &sum);
	}
	if (o->compare == 2)
		fprintf(f, "], \"constructs\": %d, \"ptxas_constructs\": %d, \"matched\": %d, "
		        "\"agree\": %d}\n", sum.ours, sum.theirs, sum.matched, sum.agree);
	else if (p->nk > 1)
		fprintf(f, "all kernels: %d of %d matched, %d agree (%.1f%%)\n", sum.matched, sum.ours,
		        sum.agree, sum.matched ? 100.0 * sum.agree / sum.matched : 0.0);
	isa_prog_free(r);
	return rc;
}

/* warpc FILE.ptx: translate, print the listing (or the decision log). 0 ok, 1 input
 * errors, 2 I/O trouble. */
static int warpc_translate(const char *path, const char *out, TrOpts *o)
{
	size_t len = 0;
	char *text = read_file(path, &len);
	Module *m;
	Prog *p;
	BeLog log = {0};
	FILE *f;
	int rc = 0;

	if (!text)
		return 2;
	m = ptx_parse(strcmp(path, "-") ? path : "<stdin>", text, len, stderr, NULL);
	free(text);
	if (!m)
		return 1;
	o->be.dumpf = stderr;
	p = be_translate_log(m, &o->be, stderr, (o->explain || o->compare) ? &log : NULL);
	if (!p) {
		ptx_free(m);
		be_log_free(&log);
		return 1;
	}
	if (o->verbose)
		for (int i = 0; i < p->nk; i++) {
			const Kernel *k = &p->k[i];
			fprintf(stderr, "warpc: info: Function properties for %s: %d registers, %u bytes "
			        "smem, %u bytes lmem, %u bytes spill\n", k->name, k->regs, k->shared,
			        k->local, k->spill);
		}
	f = open_out(out);
	if (!f) {
		rc = 2;
	} else if (o->compare) {
		rc = compare(f, p, &log, o);
		if (close_out(f, out))
			rc = 2;
	} else {
		if (o->explain == 1)
			be_log_print(f, &log);
		else if (o->explain == 2)
			be_log_print_json(f, &log);
		else
			isa_print_prog(f, p);
		rc = close_out(f, out);
	}
	be_log_free(&log);
	isa_prog_free(p);
	ptx_free(m);
	return rc;
}
/* ------------------------------------------------------------------ end of translator */

int main(int argc, char **argv)
{
	const char *asmfile = NULL, *out = NULL, *ptxfile = NULL, *trfile = NULL;
	int ptxprint = 0, trr;
	TrOpts tr;

	memset(&tr, 0, sizeof tr);
	be_options_default(&tr.be);

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help")) {
			fputs(usage, stdout);
			return 0;
		} else if (!strcmp(a, "--version")) {
			printf("warpc (warpsim) %s\n", WARPSIM_VERSION);
			return 0;
		} else if (!strcmp(a, "--asm") || !strncmp(a, "--asm=", 6)) {
			if (a[5] == '=')
				asmfile = a + 6;
			else if (i + 1 < argc)
				asmfile = argv[++i];
			else {
				fprintf(stderr, "warpc: --asm: expected a listing file\n");
				return 2;
			}
		} else if (!strcmp(a, "--parse-only") || !strcmp(a, "-dP")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "warpc: %s: expected a PTX file\n", a);
				return 2;
			}
			ptxprint = a[1] == 'd';
			ptxfile = argv[++i];
		} else if (a[0] != '-' || !strcmp(a, "-")) {
			if (trfile)
				tr.ref = a;     /* --compare FILE.ptx REF.sass */
			else
				trfile = a;
		} else if ((trr = tr_option(&tr, argc, argv, &i)) != 0) {
			if (trr < 0)
				return 2;
		} else if (!strcmp(a, "-o")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "warpc: -o: expected an output file\n");
				return 2;
			}
			out = argv[++i];
		} else {
			fprintf(stderr, "warpc: unknown option '%s'\nTry 'warpc --help' for more "
			        "information.\n", a);
			return 2;
		}
	}
	if (asmfile)
		return warpc_asm(asmfile, out);
	if (ptxfile)
		return warpc_parse(ptxfile, out, ptxprint);
	if (tr.compare && (!trfile || !tr.ref)) {
		fprintf(stderr, "warpc: --compare: expected FILE.ptx and ptxas's listing REF.sass\n");
		return 2;
	}
	if (tr.ref && !tr.compare) {
		fprintf(stderr, "warpc: one input file at a time ('%s' and '%s')\n", trfile, tr.ref);
		return 2;
	}
	tr.ptx = trfile;
	if (trfile)
		return warpc_translate(trfile, out, &tr);
	fprintf(stderr, "warpc: no input (try --asm FILE.sass)\nTry 'warpc --help' for more "
	        "information.\n");
	return 2;
}
