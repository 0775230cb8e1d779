/* warpc.c - main() of the translator: argument parsing and wiring only.
 *
 *   warpc [OPTION]... FILE.ptx...    translate (several files: linked first, as nvcc -rdc=true
 *                                    compiles them); print the listings (or --explain, --compare)
 *   warpc --asm FILE.sass [-o OUT]   parse and check a microcode listing, print it canonically
 *
 * The options are cli/cli.c's table (the translator's and the architecture's rows plus
 * warpc's own); each mode lives in one function below.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "frontend/ptx.h"
#include "cli/cli.h"

#ifndef WARPSIM_VERSION
#define WARPSIM_VERSION "0.0.0"
#endif

/* reads a whole file (or stdin for "-"); NULL with a message on failure */
static char *read_file(const char *path, size_t *len)
{
	char *buf = strcmp(path, "-") ? opt_read_file(path, len) : opt_read_all(stdin, len);

	if (!buf)
		fprintf(stderr, "warpc: cannot read '%s': %s\n", path, strerror(errno));
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
		return 1;
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
/* warpc --parse-only FILE / -dP FILE...: parse and check PTX (several files: and link
 * them); with print, print the IR back as PTX. 0 ok, 1 input errors (located diagnostics on
 * stderr), 2 I/O trouble. */
static int warpc_parse(char *const *paths, int n, const char *out, int print)
{
	Module *m = cli_load_ptx(paths, n, "warpc", stderr);
	FILE *f;
	int rc = 0;

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
/* --compare-lines: the line map o->lines, each kernel's addresses instructions of ptxas's
 * listing r; NULL after a located error */
static IsaLineMap *compare_lines(const WcOpts *o, const Prog *r)
{
	size_t len = 0;
	char *text = read_file(o->lines, &len);
	IsaLineMap *map;

	if (!text)
		return NULL;
	map = isa_linemap_parse(o->lines, text, len, stderr);
	free(text);
	for (int i = 0; map && i < map->n; i++) {
		const Kernel *rk = isa_prog_find(r, map->f[i].kernel);
		for (int j = 0; rk && j < map->f[i].n; j++)
			if (isa_kernel_index(rk, map->f[i].addr[j]) < 0) {
				fprintf(stderr, "warpc: --compare-lines: %s: kernel %s: 0x%04x is no instruction of "
				        "%s (a map of another listing?)\n", o->lines, rk->name,
				        (unsigned)map->f[i].addr[j], o->ref);
				isa_linemap_free(map);
				return NULL;
			}
	}
	return map;
}

/* --compare: every kernel of p (translated from m) against the kernel of the same name in
 * o->ref (ptxas's listing), paired by o->lines when given; 0, 1 when the reference or the
 * line map does not parse or the reference lacks a kernel, 2 on I/O trouble */
static int compare(FILE *f, const Module *m, const Prog *p, const BeLog *log, const WcOpts *o)
{
	size_t len = 0;
	char *text = read_file(o->ref, &len);
	BeCompareSum sum = {0};
	IsaLineMap *map = NULL;
	BeOrigins org;
	Prog *r;
	int rc = 0, first = 1, nopaque = 0;

	if (!text)
		return 1;
	/* the reference's instructions our reader cannot run (Kepler's surface address
	 * arithmetic, bindless fetches) are kept as NOPs: only its control flow is compared */
	r = isa_asm_opaque(o->ref, text, len, stderr, &nopaque);
	free(text);
	if (!r)
		return 1;
	if (nopaque)
		fprintf(stderr, "warpc: --compare: %s: %d instruction%s not read (kept as NOP: an "
		        "opcode the listing reader does not know, or TEX.B/TLD.B)\n", o->ref, nopaque,
		        nopaque == 1 ? "" : "s");
	if (o->lines && !(map = compare_lines(o, r))) {
		isa_prog_free(r);
		return 1;
	}
	if (map)
		be_origins_init(&org, m);
	if (o->compare == 2)
		fprintf(f, "{\"ptx\": \"%s\", \"reference\": \"%s\", \"kernels\": [\n", o->input, o->ref);
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
		BeLines ln = {map ? isa_linemap_find(map, rk->name) : NULL, &org};
		if (map && !ln.map)
			fprintf(stderr, "warpc: --compare-lines: %s has no kernel '%s': its constructs "
			        "are paired by their comparisons\n", o->lines, k->name);
		be_compare(f, k, rk, log, o->compare == 2, &sum, ln.map ? &ln : NULL);
	}
	if (o->compare == 2)
		fprintf(f, "], \"constructs\": %d, \"ptxas_constructs\": %d, \"matched\": %d, "
		        "\"agree\": %d}\n", sum.ours, sum.theirs, sum.matched, sum.agree);
	else if (p->nk > 1)
		fprintf(f, "all kernels: %d of %d matched, %d agree (%.1f%%)\n", sum.matched, sum.ours,
		        sum.agree, sum.matched ? 100.0 * sum.agree / sum.matched : 0.0);
	if (map) {
		be_origins_free(&org);
		isa_linemap_free(map);
	}
	isa_prog_free(r);
	return rc;
}

/* warpc FILE.ptx...: translate, print the listing (or the decision log). 0 ok, 1 input
 * errors, 2 I/O trouble. */
static int warpc_translate(const char *out, WcOpts *o)
{
	Module *m = cli_load_ptx(o->files, o->nfiles, "warpc", stderr);
	Prog *p;
	BeLog log = {0};
	FILE *f;
	int rc = 0;

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
		rc = compare(f, m, p, &log, o);
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
	WcOpts o;
	int rc = 2;

	cli_warpc_init(&o);
	if (cli_warpc_argv(&o, argc, argv, stderr))
		goto out;
	if (o.help) {
		cli_warpc_help(&o, stdout);
		rc = 0;
	} else if (o.version) {
		printf("warpc (warpsim) %s\n", WARPSIM_VERSION);
		rc = 0;
	} else if (o.asmfile)
		rc = warpc_asm(o.asmfile, o.out);
	else if (o.parsefile)
		rc = warpc_parse(&o.parsefile, 1, o.out, 0);
	else if (o.dump && !strcmp(o.dump, "P")) {
		if (o.input)
			rc = warpc_parse(o.files, o.nfiles, o.out, 1);
		else
			fprintf(stderr, "warpc: -dP: expected a PTX file\n");
	} else if (o.lines && !o.compare)
		fprintf(stderr, "warpc: --compare-lines: only with --compare\n");
	else if (o.compare && (!o.input || !o.ref))
		fprintf(stderr, "warpc: --compare: expected FILE.ptx and ptxas's listing REF.sass\n");
	else if (o.input)
		rc = warpc_translate(o.out, &o);
	else
		fprintf(stderr, "warpc: no input (see --help)\n");
out:
	cli_warpc_free(&o);
	return rc;
}
