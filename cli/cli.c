/* cli.c - warpsim's and warpc's command lines (cli.h): each program's own rows, and the
 * groups of the components it drives in the order --help shows them (what users need most
 * first: the launch, the run, traces and sweeps; the translator; the architecture last). */
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

/* ------------------------------------------------------------------ both programs */
/* the files named on the command line (a positional argument): appends a copy of arg to
 * files[0..*n); 0, or -1 after a message */
static int add_file(const OptSet *s, char ***files, int *n, const char *arg, FILE *err)
{
	char **v = realloc(*files, ((size_t)*n + 1) * sizeof *v);

	if (v)
		*files = v;
	if (!v || !(v[*n] = strdup(arg))) {
		fprintf(err, "%s: out of memory\n", s->prog);
		return -1;
	}
	(*n)++;
	return 0;
}

static void free_files(char ***files, int *n)
{
	for (int i = 0; i < *n; i++)
		free((*files)[i]);
	free(*files);
	*files = NULL;
	*n = 0;
}

/* what the translator takes from the machine: its register limit and architecture, the
 * cost model's issue interval and branch latency (backend/cost.c), and the kernel chosen */
static void be_machine(BeOptions *be, const TimingConfig *tc, const char *kernel)
{
	be->max_regs = tc->max_regs;
	be->arch = tc->arch;
	be->cost_issue = tc->unit[UNIT_ALU].interval;
	be->cost_ctrl = tc->lat[LAT_CTRL];
	be->kernel = kernel;
}

/* ------------------------------------------------------------------ warpsim */
enum { WS_TRACE = 4, WS_SWEEP = 5 };   /* the groups a sweep point leaves out */
#define W(x) offsetof(WsOpts, x)
static const char *const order_names[] = {"forward", "reverse", NULL};
static const OptRow ws_rows[] = {
	{.name = "oracle", .kind = OPT_FLAG, .off = W(oracle),
	 .help = "run the PTX reference interpreter instead of the SM model"},
	{.name = "oracle-order", .kind = OPT_CHOICE, .metavar = "forward|reverse",
	 .off = W(oracle_order), .def = 0, .min = 0, .max = 1, .choices = order_names,
	 .help = "the oracle's threads of a CTA and CTAs of a grid in ascending or descending "
	         "order: a result that changes with it depends on the order of threads (a race, "
	         "or warp lock-step assumed)"},
	{.name = "help", .kind = OPT_FLAG, .off = W(help), .flags = OPT_CMDLINE,
	 .help = "show this help and exit"},
	{.name = "version", .kind = OPT_FLAG, .off = W(version), .flags = OPT_CMDLINE,
	 .help = "show the version and exit"},
};
#undef W

/* the program, or with --merge one of the slices' files (cli_warpsim_argv checks which) */
static int ws_program(OptSet *s, const char *arg, FILE *err)
{
	WsOpts *o = s->user;

	return add_file(s, &o->files, &o->nfiles, arg, err);
}

/* --merge takes the slices' files and the sweep's output options only; a program is one
 * file, or several PTX files linked into one (separate compilation) */
static int check_files(const WsOpts *o, char **argv, FILE *err)
{
	if (!o->rp.merge) {
		for (int i = 0; o->nfiles > 1 && i < o->nfiles; i++)
			if (!opt_endswith(o->files[i], ".ptx")) {
				fprintf(err, "warpsim: more than one program given ('%s' and '%s'): only PTX "
				        "files (.ptx) are linked into one program, not listings\n",
				        o->files[0], o->files[1]);
				return -1;
			}
		return 0;
	}
	for (int i = 1; i < o->set.nargsrc; i++)
		if (o->set.argsrc[i] >= 0 && o->set.argsrc[i] != WS_SWEEP) {
			fprintf(err, "warpsim: --merge runs nothing: it takes no '%s'\n", argv[i]);
			return -1;
		}
	if (!o->nfiles) {
		fprintf(err, "warpsim: --merge: no --sweep-json files given\n");
		return -1;
	}
	return 0;
}

void cli_warpsim_init(WsOpts *o)
{
	memset(o, 0, sizeof *o);
	sim_opts_init(&o->sim);
	be_options_default(&o->be);
	opt_defaults(ws_rows, (int)(sizeof ws_rows / sizeof ws_rows[0]), o);
	opt_defaults(rp_trace_rows, rp_ntrace_rows, &o->rp);
	opt_defaults(rp_sweep_rows, rp_nsweep_rows, &o->rp);
	opt_init(&o->set, "warpsim");
	o->set.positional = ws_program;
	o->set.user = o;
	opt_add(&o->set, "Launch (also the lines of a --launch file)", sim_launch_rows,
	        sim_nlaunch_rows, &o->sim);
	opt_add(&o->set, "Option files", opt_file_rows, opt_nfile_rows, o);
	opt_add(&o->set, "Engine", ws_rows, (int)(sizeof ws_rows / sizeof ws_rows[0]), o);
	opt_add(&o->set, "Run and statistics", sim_run_rows, sim_nrun_rows, &o->sim);
	opt_add(&o->set, "Traces and line statistics (docs/traces.md)", rp_trace_rows,
	        rp_ntrace_rows, &o->rp);
	opt_add(&o->set, "Sweeps (docs/traces.md)", rp_sweep_rows, rp_nsweep_rows, &o->rp);
	opt_add(&o->set, "Translator, for PTX input (docs/predication.md)", be_opt_rows,
	        be_nopt_rows, &o->be);
	opt_add(&o->set, "Architecture (also the lines of a --config file; sim/configs/*.cfg)",
	        sim_topts, sim_ntopts, &o->sim.tc);
}

void cli_warpsim_free(WsOpts *o)
{
	sim_opts_free(&o->sim);
	rp_opts_free(&o->rp);
	be_options_free(&o->be);
	free_files(&o->files, &o->nfiles);
	o->input = NULL;
	opt_free(&o->set);
}

/* every point of a sweep checked before the first run: the key is an option a point can
 * set, and each value is one it accepts (the 'ptxas' point runs a listing instead) */
static int check_sweep(WsOpts *o, FILE *err)
{
	const SweepSpec *sp = &o->rp.spec;
	char msg[700];
	int g;
	const OptRow *r = opt_find(&o->set, sp->key, &g);

	if (!r || (r->flags & OPT_CMDLINE) || g == WS_TRACE || g == WS_SWEEP ||
	    r->kind == OPT_FLAG) {
		fprintf(err, "warpsim: --sweep: %s'--%s'%s\n", r ? "" : "unknown option ", sp->key,
		        !r ? " (see --help)" : " cannot be swept: it takes no value or is not a "
		        "setting of one run");
		return -1;
	}
	for (int i = 0; i < sp->nvals - (sp->ptxas != NULL); i++)
		if (opt_check(&o->set, sp->key, sp->vals[i], msg, sizeof msg)) {
			fprintf(err, "warpsim: --sweep: %s\n", msg);
			return -1;
		}
	return 0;
}

int cli_warpsim_argv(WsOpts *o, int argc, char **argv, FILE *err)
{
	if (opt_argv(&o->set, argc, argv, err))
		return -1;
	o->input = o->nfiles ? o->files[0] : NULL;
	if (o->help || o->version)
		return 0;
	if (check_files(o, argv, err))
		return -1;
	be_machine(&o->be, &o->sim.tc, o->sim.launch.kernel);
	if (rp_opts_check(&o->rp, err))
		return -1;
	return o->rp.spec.key ? check_sweep(o, err) : 0;
}

void cli_warpsim_help(const WsOpts *o, FILE *f)
{
	fprintf(f, "Usage: warpsim [OPTION]... PROGRAM\n"
	        "  or:  warpsim --merge [--sweep-csv FILE] [--sweep-svg FILE] SLICE.json...\n"
	        "Run a kernel of PROGRAM (a microcode listing, .sass, or PTX, .ptx) on the SM model.\n"
	        "Every option can also be a line of a --launch or --config file.\n");
	opt_help(&o->set, f);
	fprintf(f, "\nSPEC of --arg: TYPE:VALUE, or buf:TYPE:COUNT[:INIT] with INIT zero | iota | const:V |\n"
	        "  random:SEED[:LO:HI] | file:PATH; TYPE: u8 s8 u16 s16 u32 s32 u64 s64 f32 f64;\n"
	        "  or tex:NAME, the handle of the texture object --tex NAME binds\n"
	        "Exit status: 0 done, 1 a fault or a malformed program, 2 bad options.\n");
}

char **cli_warpsim_point_args(const WsOpts *o, int argc, char **argv, int *n)
{
	char **v = malloc(((size_t)argc + 1) * sizeof *v);

	*n = 0;
	if (!v)
		return NULL;
	for (int i = 1; i < argc; i++) {
		int g = i < o->set.nargsrc ? o->set.argsrc[i] : -1;
		if (g != WS_TRACE && g != WS_SWEEP)
			v[(*n)++] = argv[i];
	}
	v[*n] = NULL;
	return v;
}

/* ------------------------------------------------------------------ warpc */
static int fn_mode(void *field, const char *val, const OptCtx *cx, char *why, size_t n)
{
	int v = !*val || !strcmp(val, "text") ? 1 : !strcmp(val, "json") ? 2 : 0;

	if (!v) {
		snprintf(why, n, "nothing, =text or =json");
		return -1;
	}
	if (!cx->check_only)
		*(int *)field = v;
	return 0;
}

#define C(x) offsetof(WcOpts, x)
static const OptRow wc_modes[] = {
	{.name = "asm", .kind = OPT_STR, .metavar = "FILE.sass", .off = C(asmfile),
	 .help = "parse and check a microcode listing; print it in canonical form"},
	{.name = "parse-only", .kind = OPT_STR, .metavar = "FILE.ptx", .off = C(parsefile),
	 .help = "parse and check PTX only (unsupported instructions are warnings)"},
	{.name = "explain", .kind = OPT_FN, .metavar = "[=json]", .off = C(explain), .fn = fn_mode,
	 .flags = OPT_OPTVAL, .help = "print the decision taken for every conditional branch"},
	{.name = "compare", .kind = OPT_FN, .metavar = "[=json]", .off = C(compare), .fn = fn_mode,
	 .flags = OPT_OPTVAL,
	 .help = "FILE.ptx REF.sass: hold every conditional branch of each kernel against "
	         "ptxas's listing of the same PTX (tests/ptxas-ref)"},
	{.name = "compare-lines", .kind = OPT_STR, .metavar = "FILE", .off = C(lines),
	 .help = "with --compare: pair the constructs by the PTX branch they come from, ptxas's "
	         "by its line table FILE (docs/isa.md, \"Line maps\"), not by their comparisons"},
};

static const OptRow wc_trans[] = {
	{.name = "kernel", .kind = OPT_STR, .metavar = "NAME", .off = C(kernel),
	 .help = "translate only kernel NAME"},
	{.name = "config", .kind = OPT_FN, .metavar = "FILE", .fn = opt_fn_file,
	 .help = "an architecture file (sim/configs/*.cfg): the translator takes its --max-regs "
	         "and --arch"},
	{.name = "verbose", .shortc = 'v', .kind = OPT_FLAG, .off = C(verbose),
	 .help = "print registers, shared, local and spill bytes per kernel"},
	{.name = "dump", .shortc = 'd', .kind = OPT_STR, .metavar = "LETTERS", .off = C(dump),
	 .help = "print the backend IR after passes on stderr: G cfg, I isel, U uniform, F ifconv, "
	         "R regalloc, S sync, E the emitted listing; -dP FILE.ptx prints the parsed PTX back"},
	{.name = "output", .shortc = 'o', .kind = OPT_STR, .metavar = "FILE", .off = C(out),
	 .help = "write the output to FILE instead of standard output"},
	{.name = "help", .kind = OPT_FLAG, .off = C(help), .flags = OPT_CMDLINE,
	 .help = "display this help and exit"},
	{.name = "version", .kind = OPT_FLAG, .off = C(version), .flags = OPT_CMDLINE,
	 .help = "output version information and exit"},
};
#undef C

/* a FILE.ptx (several are linked), or --compare's REF.sass after them */
static int wc_file(OptSet *s, const char *arg, FILE *err)
{
	WcOpts *o = s->user;

	return add_file(s, &o->files, &o->nfiles, arg, err);
}

void cli_warpc_init(WcOpts *o)
{
	memset(o, 0, sizeof *o);
	be_options_default(&o->be);
	sim_tconfig_defaults(&o->tc);
	opt_init(&o->set, "warpc");
	o->set.positional = wc_file;
	o->set.user = o;
	opt_add(&o->set, "Modes (the default: translate FILE.ptx and print the listings)", wc_modes,
	        (int)(sizeof wc_modes / sizeof wc_modes[0]), o);
	opt_add(&o->set, "Translation", wc_trans, (int)(sizeof wc_trans / sizeof wc_trans[0]), o);
	opt_add(&o->set, "If-conversion (docs/predication.md)", be_opt_rows, be_nopt_rows, &o->be);
	opt_add(&o->set, "Architecture", sim_topts, sim_ntopts, &o->tc);
	o->set.g[o->set.ng - 1].note = "  every architecture option of warpsim (warpsim --help), as in a --config file;\n"
	                               "  the translator reads --max-regs N (63 Fermi-class, up to 255) and --arch sm_XX";
	o->set.g[o->set.ng - 1].brief = 1;
}

void cli_warpc_free(WcOpts *o)
{
	opt_free_strs(wc_modes, (int)(sizeof wc_modes / sizeof wc_modes[0]), o);
	opt_free_strs(wc_trans, (int)(sizeof wc_trans / sizeof wc_trans[0]), o);
	be_options_free(&o->be);
	free_files(&o->files, &o->nfiles);
	free(o->ref);
	o->input = o->ref = NULL;
	opt_free(&o->set);
}

int cli_warpc_argv(WcOpts *o, int argc, char **argv, FILE *err)
{
	if (opt_argv(&o->set, argc, argv, err))
		return -1;
	if (o->compare && o->nfiles >= 2)      /* the last file is ptxas's listing */
		o->ref = o->files[--o->nfiles];
	o->input = o->nfiles ? o->files[0] : NULL;
	be_machine(&o->be, &o->tc, o->kernel);
	o->be.dump = o->dump;
	return 0;
}

void cli_warpc_help(const WcOpts *o, FILE *f)
{
	fprintf(f, "Usage: warpc [OPTION]... FILE...\n"
	        "Translate PTX into SASS-style microcode for the warpsim SM model; several PTX files\n"
	        "(separate compilation: nvcc -rdc=true) are linked into one program first.\n");
	opt_help(&o->set, f);
	fprintf(f, "\nListing format and microcode semantics: docs/isa.md.\n"
	        "Exit status: 0 done, 1 the input is wrong (located errors), 2 bad options or I/O.\n");
}
