/* tconfig.c - the architecture configuration: the architecture's rows of the option table
 * (opt/opt.h: name, kind, field, default, range, help), from which defaults, parsing,
 * checking, --print-config and config files (sim/configs/ *.cfg, one "--name value" per
 * line) all derive, in warpsim and in warpc alike. Defaults are GF100 (sim/configs/fermi.cfg
 * restates them with their sources).
 */
#include <stdlib.h>
#include <string.h>
#include "sim/timing.h"

#define F(fld) offsetof(TimingConfig, fld)

/* per unit class: pipelines and issue interval; per latency class: cycles */
#define UNITOPT(u, nm, n, iv) \
	{.name = nm "-units", .kind = OPT_INT, .off = F(unit[UNIT_##u].units), .def = n, .min = 1, \
	 .max = TM_MAXPIPES, .help = "pipelines of the " nm " class per SM"}, \
	{.name = nm "-interval", .kind = OPT_INT, .off = F(unit[UNIT_##u].interval), .def = iv, \
	 .min = 1, .max = 1024, .help = "cycles a " nm " pipeline is busy per warp instruction"},
#define LATOPT(l, nm, v, what) \
	{.name = nm "-latency", .kind = OPT_INT, .off = F(lat[LAT_##l]), .def = v, .min = 1, \
	 .max = 100000, .help = what},

static const char *const policy_names[SCHED_COUNT + 1] = {
	[SCHED_LRR] = "lrr", [SCHED_GTO] = "gto", [SCHED_TWOLEVEL] = "two-level",
};

/* a cache's geometry and hit latency: --NM-size, -line, -assoc, -latency */
#define GEOMOPT(fld, nm, what, sz, maxsz, ln, ways, lat) \
	{.name = nm "-size", .kind = OPT_INT, .off = F(fld.size), .def = sz, .min = 1, \
	 .max = maxsz, .help = what " bytes"}, \
	{.name = nm "-line", .kind = OPT_INT, .off = F(fld.line), .def = ln, .min = 4, .max = 4096, \
	 .help = what " line bytes"}, \
	{.name = nm "-assoc", .kind = OPT_INT, .off = F(fld.assoc), .def = ways, .min = 1, \
	 .max = 1024, .help = what " ways per set"}, \
	{.name = nm "-latency", .kind = OPT_INT, .off = F(fld.latency), .def = lat, .min = 1, \
	 .max = 100000, .help = what " hit latency"},

static const char *const cpath_names[CPATH_COUNT + 1] = {
	[CPATH_L2] = "l2", [CPATH_L1] = "l1", [CPATH_RO] = "ro",
};

/* which cache serves the loads of a cache operator */
#define CACHEOPT(o, nm, v, what) \
	{.name = "cache-" nm, .kind = OPT_CHOICE, .off = F(cpath[COP_##o]), .def = CPATH_##v, \
	 .min = 0, .max = CPATH_COUNT - 1, .choices = cpath_names, .metavar = "l1|ro|l2", \
	 .help = what ": cached in l1, ro (the read-only data cache) or l2 only"},

const OptRow sim_topts[] = {
	{.name = "arch", .kind = OPT_ARCH, .off = F(arch), .def = ISA_DEFAULT_ARCH, .min = 10, .max = 99,
	 .help = "compute capability (sm_XX); the .arch of translated listings"},
	{.name = "sms", .kind = OPT_INT, .off = F(sms), .def = 15, .min = 1, .max = TM_MAXSMS,
	 .help = "streaming multiprocessors"},
	{.name = "schedulers", .kind = OPT_INT, .off = F(schedulers), .def = 2, .min = 1, .max = TM_MAXSCHED,
	 .help = "warp schedulers per SM"},
	{.name = "scheduler", .kind = OPT_CHOICE, .off = F(policy), .def = SCHED_GTO, .min = 0, .max = SCHED_COUNT - 1, .choices = policy_names,
	 .help = "warp scheduling policy: lrr, gto or two-level"},
	{.name = "two-level-pool", .kind = OPT_INT, .off = F(pool), .def = 6, .min = 1, .max = TM_MAXWARPS,
	 .help = "two-level: active warps per scheduler"},
	{.name = "issue-width", .kind = OPT_INT, .off = F(issue_width), .def = 1, .min = 1, .max = 2,
	 .help = "instructions one scheduler issues per cycle from one warp (2: dual issue)"},
	{.name = "max-warps", .kind = OPT_INT, .off = F(max_warps), .def = 48, .min = 1, .max = TM_MAXWARPS,
	 .help = "resident warps per SM"},
	{.name = "max-ctas", .kind = OPT_INT, .off = F(max_ctas), .def = 8, .min = 1, .max = TM_MAXWARPS,
	 .help = "resident CTAs per SM"},
	{.name = "registers", .kind = OPT_INT, .off = F(regs), .def = 32768, .min = 1, .max = 1 << 24,
	 .help = "32-bit registers per SM"},
	{.name = "max-regs", .kind = OPT_INT, .off = F(max_regs), .def = ISA_DEFAULT_MAX_REGS, .min = 4, .max = ISA_NREGS,
	 .help = "registers per thread at most"},
	{.name = "reg-unit", .kind = OPT_INT, .off = F(reg_unit), .def = 64, .min = 1, .max = 65536,
	 .help = "registers are allocated per warp in units of this many"},
	{.name = "shared-per-sm", .kind = OPT_INT, .off = F(shared), .def = 49152, .min = 0, .max = 1 << 24,
	 .help = "shared memory bytes per SM"},
	{.name = "shared-unit", .kind = OPT_INT, .off = F(shared_unit), .def = 128, .min = 1, .max = 65536,
	 .help = "shared memory is allocated per CTA in units of this many bytes"},
	{.name = "crs-depth", .kind = OPT_INT, .off = F(crs_depth), .def = 32, .min = 1, .max = 4096,
	 .help = "CallReturnStack tokens per warp held on chip; more spill to local memory"},
	UNITOPT(ALU, "alu", 2, 2)
	UNITOPT(IMUL, "imul", 1, 2)
	UNITOPT(SHIFT, "shift", 1, 2)
	UNITOPT(FPU, "fpu", 2, 2)
	UNITOPT(DPU, "dpu", 1, 2)
	UNITOPT(SFU, "sfu", 1, 8)
	UNITOPT(LSU_SHARED, "lsu-shared", 1, 2)
	UNITOPT(LSU_GLOBAL, "lsu-global", 1, 2)
	UNITOPT(LSU_LOCAL, "lsu-local", 1, 2)
	UNITOPT(LSU_CONST, "lsu-const", 1, 2)
	UNITOPT(CTRL, "ctrl", 2, 2)
	LATOPT(ALU, "alu", 22, "integer and logic result latency")
	LATOPT(IMUL, "imul", 22, "integer multiply latency")
	LATOPT(POPC, "popc", 22, "POPC/FLO latency")
	LATOPT(S2R, "s2r", 22, "special-register read latency")
	LATOPT(FPU, "fpu", 22, "single-precision latency")
	LATOPT(DPU, "dpu", 44, "double-precision latency")
	LATOPT(SFU, "sfu", 40, "special-function (MUFU) latency")
	LATOPT(SINCOS, "sincos", 40, "MUFU.SIN/MUFU.COS latency (after Kepler's RRO)")
	LATOPT(CONV, "conv", 22, "conversion latency")
	LATOPT(FDIV, "fdiv", 418, "correctly rounded divide (macro) latency")
	LATOPT(FSQRT, "fsqrt", 432, "correctly rounded square root (macro) latency")
	LATOPT(SHARED, "shared", 52, "shared-memory load latency without conflicts")
	LATOPT(GLOBAL, "global", 440, "global access served by DRAM: round trip before bandwidth queueing")
	LATOPT(LOCAL, "local", 440, "local-memory access latency (off chip)")
	LATOPT(CONST, "const", 44, "constant-bank load latency")
	LATOPT(ATOM, "atom", 240, "atomic round trip to the L2 where it is performed")
	LATOPT(SHFL, "shfl", 22, "shuffle/match/redux latency")
	LATOPT(BAR, "bar", 22, "cycles from a barrier's release to its warps' next issue")
	LATOPT(CTRL, "ctrl", 10, "cycles from a control op to its warp's next issue")
	LATOPT(TEX, "tex", 112, "texture fetch (TEX, TLD) served by the texture cache")
	{.name = "shared-banks", .kind = OPT_INT, .off = F(banks), .def = 32, .min = 1, .max = 64,
	 .help = "shared-memory banks"},
	{.name = "bank-bytes", .kind = OPT_INT, .off = F(bank_bytes), .def = 4, .min = 4, .max = 8,
	 .help = "bytes per bank word"},
	{.name = "segment-bytes", .kind = OPT_INT, .off = F(segment), .def = 128, .min = 4, .max = 4096,
	 .help = "transaction bytes of a global load cached in L1"},
	{.name = "sector-bytes", .kind = OPT_INT, .off = F(sector), .def = 32, .min = 4, .max = 4096,
	 .help = "transaction bytes of an uncached global access"},
	{.name = "dram-bandwidth", .kind = OPT_INT, .off = F(dram_bw), .def = 126, .min = 1, .max = 1 << 20,
	 .help = "DRAM bytes per cycle for the whole GPU"},
	{.name = "l1", .kind = OPT_BOOL, .off = F(l1.enable), .def = 1, .min = 0, .max = 1,
	 .help = "per-SM L1 data cache (on/off); --cache-OP says which loads it serves"},
	GEOMOPT(l1, "l1", "L1", 16384, 1 << 24, 128, 4, 70)
	CACHEOPT(CA, "ca", L1, "ld.ca and plain global loads")
	CACHEOPT(CG, "cg", L2, "ld.cg")
	CACHEOPT(CS, "cs", L1, "ld.cs")
	CACHEOPT(LU, "lu", L1, "ld.lu")
	CACHEOPT(CV, "cv", L2, "ld.cv")
	CACHEOPT(NC, "nc", L1, "ld.global.nc (LDG)")
	CACHEOPT(LOCAL, "local", L1, "local-memory loads")
	GEOMOPT(ro, "ro", "read-only data cache", 12288, 1 << 24, 128, 24, 112)
	{.name = "l2", .kind = OPT_BOOL, .off = F(l2.enable), .def = 1, .min = 0, .max = 1,
	 .help = "GPU-wide L2 cache (on/off)"},
	GEOMOPT(l2, "l2", "L2", 786432, 1 << 30, 128, 8, 240)
	{.name = "atom-serial", .kind = OPT_INT, .off = F(atom_serial), .def = 4, .min = 0, .max = 100000,
	 .help = "cycles per extra lane on the same atomic address"},
	{.name = "div-switch", .kind = OPT_INT, .off = F(div_switch), .def = 1, .min = 0, .max = 1000,
	 .help = "issue slots a CRS pop that switches paths takes"},
	{.name = "long-latency", .kind = OPT_INT, .off = F(long_latency), .def = 100, .min = 1, .max = 100000,
	 .help = "two-level: latency at which a warp leaves the active pool"},
	{.name = "max-cycles", .kind = OPT_LONG, .off = F(max_cycles), .def = 100000000, .min = 1, .max = (long long)1 << 60,
	 .help = "the run stops after this many cycles"},
	{.name = "skip-idle", .kind = OPT_BOOL, .off = F(skip), .def = 1, .min = 0, .max = 1,
	 .help = "jump the clock over idle stretches (on/off; results identical)"},
};
const int sim_ntopts = (int)(sizeof sim_topts / sizeof sim_topts[0]);


const char *
sim_policy_name(int policy)
{
	return policy >= 0 && policy < SCHED_COUNT ? policy_names[policy] : "?";
}

/* the architecture table as an option set of its own (config files read by warpc, tests) */
static void tset(OptSet *s, TimingConfig *c)
{
	opt_init(s, "warpsim");
	s->g[0] = (OptGroup){"Architecture", NULL, sim_topts, sim_ntopts, c, 0};
	s->ng = 1;
}

void
sim_tconfig_defaults(TimingConfig *c)
{
	memset(c, 0, sizeof *c);
	opt_defaults(sim_topts, sim_ntopts, c);
}

const OptRow *
sim_tconfig_find(const char *key)
{
	OptSet s;
	TimingConfig c;

	tset(&s, &c);
	return opt_find(&s, key, NULL);
}

int
sim_tconfig_set(TimingConfig *c, const char *key, const char *val, char *err, size_t errsz)
{
	OptSet s;

	tset(&s, c);
	if (!val) {
		snprintf(err, errsz, "--%s: expected a value", key[0] == '-' && key[1] == '-' ? key + 2 : key);
		return -1;
	}
	return opt_set(&s, key, val, err, errsz);
}

static int
ispow2(int v)
{
	return v > 0 && (v & (v - 1)) == 0;
}

static int
check_cache(const char *nm, const CacheCfg *k, char *err, size_t errsz)
{
	if (!k->enable)
		return 0;
	if (!ispow2(k->line)) {
		snprintf(err, errsz, "--%s-line: expected a power of two, got %d", nm, k->line);
		return -1;
	}
	if (k->size % (k->line * k->assoc) != 0) {
		snprintf(err, errsz, "--%s-size: %d is not a multiple of line x assoc (%d x %d)",
		         nm, k->size, k->line, k->assoc);
		return -1;
	}
	return 0;
}

int
sim_tconfig_check(const TimingConfig *c, char *err, size_t errsz)
{
	if (c->max_warps % c->schedulers != 0) {
		snprintf(err, errsz, "--max-warps: %d is not a multiple of --schedulers %d",
		         c->max_warps, c->schedulers);
		return -1;
	}
	if (!ispow2(c->segment) || !ispow2(c->sector)) {
		snprintf(err, errsz, "--segment-bytes and --sector-bytes must be powers of two, got %d and %d",
		         c->segment, c->sector);
		return -1;
	}
	if (c->segment < c->sector) {
		snprintf(err, errsz, "--segment-bytes %d is smaller than --sector-bytes %d",
		         c->segment, c->sector);
		return -1;
	}
	if (c->l1.enable && c->l1.line != c->segment) {
		snprintf(err, errsz, "--l1-line %d differs from --segment-bytes %d", c->l1.line, c->segment);
		return -1;
	}
	if (check_cache("l1", &c->l1, err, errsz) || check_cache("l2", &c->l2, err, errsz))
		return -1;
	for (int op = 0; op < COP_COUNT; op++)
		if (c->cpath[op] == CPATH_RO) {
			CacheCfg ro = c->ro;
			ro.enable = 1;
			if (check_cache("ro", &ro, err, errsz))
				return -1;
			break;
		}
	return 0;
}

void
sim_tconfig_print(FILE *f, const TimingConfig *c)
{
	for (int i = 0; i < sim_ntopts; i++)
		opt_print_value(f, &sim_topts[i], c);
}

int
sim_tconfig_load_text(TimingConfig *c, const char *name, const char *text, FILE *err)
{
	OptSet s;

	tset(&s, c);
	return opt_text(&s, name, text, "", err);
}

int
sim_tconfig_load(TimingConfig *c, const char *path, FILE *err)
{
	OptSet s;

	tset(&s, c);
	return opt_file(&s, path, err);
}
