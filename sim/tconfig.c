/* tconfig.c - the architecture configuration: ONE table of long options (name, type, field,
 * default, range, help) from which defaults, parsing, checking, --print-config and config
 * files (sim/configs/ *.cfg, one "--name value" per line) all derive. Defaults are GF100
 * (sim/configs/fermi.cfg restates them with their sources).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sim/timing.h"

#define F(fld) offsetof(TimingConfig, fld)
#define BIG 1000000000LL

/* per unit class: pipelines and issue interval; per latency class: cycles */
#define UNITOPT(u, nm, n, iv) \
	{nm "-units", OT_INT, F(unit[UNIT_##u].units), n, 1, TM_MAXPIPES, \
	 "pipelines of the " nm " class per SM"}, \
	{nm "-interval", OT_INT, F(unit[UNIT_##u].interval), iv, 1, 1024, \
	 "cycles a " nm " pipeline is busy per warp instruction"},
#define LATOPT(l, nm, v, what) \
	{nm "-latency", OT_INT, F(lat[LAT_##l]), v, 1, 100000, what},

const TOpt sim_topts[] = {
	{"arch", OT_ARCH, F(arch), 20, 10, 99, "compute capability (sm_XX); the .arch of translated listings"},
	{"sms", OT_INT, F(sms), 15, 1, TM_MAXSMS, "streaming multiprocessors"},
	{"schedulers", OT_INT, F(schedulers), 2, 1, TM_MAXSCHED, "warp schedulers per SM"},
	{"scheduler", OT_POLICY, F(policy), SCHED_GTO, 0, SCHED_COUNT - 1,
	 "warp scheduling policy: lrr, gto or two-level"},
	{"two-level-pool", OT_INT, F(pool), 6, 1, TM_MAXWARPS, "two-level: active warps per scheduler"},
	{"issue-width", OT_INT, F(issue_width), 1, 1, 2,
	 "instructions one scheduler issues per cycle from one warp (2: dual issue)"},
	{"max-warps", OT_INT, F(max_warps), 48, 1, TM_MAXWARPS, "resident warps per SM"},
	{"max-ctas", OT_INT, F(max_ctas), 8, 1, TM_MAXWARPS, "resident CTAs per SM"},
	{"registers", OT_INT, F(regs), 32768, 1, 1 << 24, "32-bit registers per SM"},
	{"max-regs", OT_INT, F(max_regs), 63, 1, ISA_NREGS, "registers per thread at most"},
	{"reg-unit", OT_INT, F(reg_unit), 64, 1, 65536, "registers are allocated per warp in units of this many"},
	{"shared-per-sm", OT_INT, F(shared), 49152, 0, 1 << 24, "shared memory bytes per SM"},
	{"shared-unit", OT_INT, F(shared_unit), 128, 1, 65536, "shared memory is allocated per CTA in units of this many bytes"},
	{"crs-depth", OT_INT, F(crs_depth), 32, 1, 4096, "CallReturnStack tokens per warp"},
	UNITOPT(ALU, "alu", 2, 2)
	UNITOPT(IMUL, "imul", 1, 2)
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
	{"shared-banks", OT_INT, F(banks), 32, 1, 64, "shared-memory banks"},
	{"bank-bytes", OT_INT, F(bank_bytes), 4, 4, 8, "bytes per bank word"},
	{"segment-bytes", OT_INT, F(segment), 128, 4, 4096, "transaction bytes of a global load cached in L1"},
	{"sector-bytes", OT_INT, F(sector), 32, 4, 4096, "transaction bytes of an uncached global access"},
	{"dram-bandwidth", OT_INT, F(dram_bw), 126, 1, 1 << 20, "DRAM bytes per cycle for the whole GPU"},
	{"l1", OT_BOOL, F(l1.enable), 1, 0, 1, "per-SM L1 data cache for global loads (on/off)"},
	{"l1-size", OT_INT, F(l1.size), 16384, 1, 1 << 24, "L1 bytes"},
	{"l1-line", OT_INT, F(l1.line), 128, 4, 4096, "L1 line bytes"},
	{"l1-assoc", OT_INT, F(l1.assoc), 4, 1, 1024, "L1 ways per set"},
	{"l1-latency", OT_INT, F(l1.latency), 70, 1, 100000, "L1 hit latency"},
	{"l2", OT_BOOL, F(l2.enable), 1, 0, 1, "GPU-wide L2 cache (on/off)"},
	{"l2-size", OT_INT, F(l2.size), 786432, 1, 1 << 30, "L2 bytes"},
	{"l2-line", OT_INT, F(l2.line), 128, 4, 4096, "L2 line bytes"},
	{"l2-assoc", OT_INT, F(l2.assoc), 8, 1, 1024, "L2 ways per set"},
	{"l2-latency", OT_INT, F(l2.latency), 240, 1, 100000, "L2 hit latency"},
	{"atom-serial", OT_INT, F(atom_serial), 4, 0, 100000, "cycles per extra lane on the same atomic address"},
	{"div-switch", OT_INT, F(div_switch), 1, 0, 1000, "issue slots a CRS pop that switches paths takes"},
	{"long-latency", OT_INT, F(long_latency), 100, 1, 100000, "two-level: latency at which a warp leaves the active pool"},
	{"max-cycles", OT_LONG, F(max_cycles), 100000000, 1, (long long)1 << 60, "the run stops after this many cycles"},
	{"skip-idle", OT_BOOL, F(skip), 1, 0, 1, "jump the clock over idle stretches (on/off; results identical)"},
};
const int sim_ntopts = (int)(sizeof sim_topts / sizeof sim_topts[0]);

static const char *policy_names[SCHED_COUNT] = {
	[SCHED_LRR] = "lrr", [SCHED_GTO] = "gto", [SCHED_TWOLEVEL] = "two-level",
};

const char *
sim_policy_name(int policy)
{
	return policy >= 0 && policy < SCHED_COUNT ? policy_names[policy] : "?";
}

static int *
ifield(TimingConfig *c, const TOpt *o)
{
	return (int *)((char *)c + o->off);
}

static long long
getval(const TimingConfig *c, const TOpt *o)
{
	const char *p = (const char *)c + o->off;
	if (o->type == OT_LONG)
		return *(const long long *)p;
	return *(const int *)p;
}

static void
putval(TimingConfig *c, const TOpt *o, long long v)
{
	if (o->type == OT_LONG)
		*(long long *)((char *)c + o->off) = v;
	else
		*ifield(c, o) = (int)v;
}

void
sim_tconfig_defaults(TimingConfig *c)
{
	memset(c, 0, sizeof *c);
	for (int i = 0; i < sim_ntopts; i++)
		putval(c, &sim_topts[i], sim_topts[i].def);
}

const TOpt *
sim_tconfig_find(const char *key)
{
	if (key[0] == '-' && key[1] == '-')
		key += 2;
	for (int i = 0; i < sim_ntopts; i++)
		if (strcmp(sim_topts[i].name, key) == 0)
			return &sim_topts[i];
	return NULL;
}

/* a decimal integer with an optional K (x1024) suffix, nothing else */
static int
parse_int(const char *s, long long *out)
{
	char *end;
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno)
		return -1;
	if (*end == 'K' && end[1] == 0) {
		if (v > BIG)
			return -1;
		v *= 1024;
		end++;
	}
	if (*end)
		return -1;
	*out = v;
	return 0;
}

int
sim_tconfig_set(TimingConfig *c, const char *key, const char *val, char *err, size_t errsz)
{
	const TOpt *o = sim_tconfig_find(key);
	const char *k = key[0] == '-' && key[1] == '-' ? key + 2 : key;
	long long v;

	if (!o) {
		snprintf(err, errsz, "unknown option '--%s'", k);
		return -1;
	}
	if (!val) {
		snprintf(err, errsz, "--%s: missing value", o->name);
		return -1;
	}
	switch (o->type) {
	case OT_POLICY:
		for (int p = 0; p < SCHED_COUNT; p++)
			if (strcmp(val, policy_names[p]) == 0) {
				putval(c, o, p);
				return 0;
			}
		snprintf(err, errsz, "--%s: expected lrr, gto or two-level, got '%s'", o->name, val);
		return -1;
	case OT_ARCH:
		if (parse_int(val + (strncmp(val, "sm_", 3) ? 0 : 3), &v) < 0 || v < o->min || v > o->max) {
			snprintf(err, errsz, "--%s: expected sm_XX (sm_10 to sm_99), got '%s'", o->name, val);
			return -1;
		}
		putval(c, o, v);
		return 0;
	case OT_BOOL:
		if (!strcmp(val, "on") || !strcmp(val, "1") || !strcmp(val, "yes") || !strcmp(val, "true"))
			v = 1;
		else if (!strcmp(val, "off") || !strcmp(val, "0") || !strcmp(val, "no") || !strcmp(val, "false"))
			v = 0;
		else {
			snprintf(err, errsz, "--%s: expected on or off, got '%s'", o->name, val);
			return -1;
		}
		putval(c, o, v);
		return 0;
	case OT_INT:
	case OT_LONG:
		if (parse_int(val, &v) < 0 || v < o->min || v > o->max) {
			snprintf(err, errsz, "--%s: expected an integer from %lld to %lld, got '%s'",
			         o->name, o->min, o->max, val);
			return -1;
		}
		putval(c, o, v);
		return 0;
	}
	snprintf(err, errsz, "%s:%d: bad option type", __FILE__, __LINE__);
	return -1;
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
	return 0;
}

void
sim_tconfig_print(FILE *f, const TimingConfig *c)
{
	char val[32];
	for (int i = 0; i < sim_ntopts; i++) {
		const TOpt *o = &sim_topts[i];
		long long v = getval(c, o);
		switch (o->type) {
		case OT_POLICY: snprintf(val, sizeof val, "%s", sim_policy_name((int)v)); break;
		case OT_BOOL: snprintf(val, sizeof val, "%s", v ? "on" : "off"); break;
		case OT_ARCH: snprintf(val, sizeof val, "sm_%lld", v); break;
		case OT_INT:
		case OT_LONG: snprintf(val, sizeof val, "%lld", v); break;
		}
		fprintf(f, "--%-20s %-10s # %s\n", o->name, val, o->help);
	}
}

/* located diagnostic: name:line:col: error: msg, the line, a caret under col (1-based) */
static void
diag(FILE *err, const char *name, int line, const char *lp, size_t len, size_t col, const char *msg)
{
	fprintf(err, "%s:%d:%zu: error: %s\n", name, line, col, msg);
	fprintf(err, "%.*s\n%*s^\n", (int)len, lp, (int)(col - 1), "");
}

int
sim_tconfig_load_text(TimingConfig *c, const char *name, const char *text, FILE *err)
{
	int nerr = 0, line = 0;
	const char *lp = text;

	while (*lp) {
		const char *eol = strchr(lp, '\n');
		size_t len = eol ? (size_t)(eol - lp) : strlen(lp);
		char buf[512], msg[600];
		line++;
		/* the line without its comment and trailing blanks */
		size_t n = 0;
		while (n < len && lp[n] != '#')
			n++;
		while (n > 0 && isspace((unsigned char)lp[n - 1]))
			n--;
		size_t s = 0;
		while (s < n && isspace((unsigned char)lp[s]))
			s++;
		if (s < n) {
			if (n - s >= sizeof buf) {
				diag(err, name, line, lp, len, s + 1, "line too long");
				nerr++;
			} else if (lp[s] != '-' || s + 1 >= n || lp[s + 1] != '-') {
				diag(err, name, line, lp, len, s + 1, "expected a long option '--name value'");
				nerr++;
			} else {
				memcpy(buf, lp + s, n - s);
				buf[n - s] = 0;
				char *key = buf, *val = buf + strcspn(buf, " \t=");
				size_t vcol;
				if (*val) {
					*val++ = 0;
					while (*val == ' ' || *val == '\t' || *val == '=')
						val++;
				}
				vcol = s + 1 + (size_t)(val - buf);
				if (!sim_tconfig_find(key)) {
					snprintf(msg, sizeof msg, "unknown option '%s'", key);
					diag(err, name, line, lp, len, s + 1, msg);
					nerr++;
				} else if (sim_tconfig_set(c, key, *val ? val : NULL, msg, sizeof msg) < 0) {
					diag(err, name, line, lp, len, *val ? vcol : s + 1, msg);
					nerr++;
				}
			}
		}
		if (!eol)
			break;
		lp = eol + 1;
	}
	return nerr;
}

int
sim_tconfig_load(TimingConfig *c, const char *path, FILE *err)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t n = 0, cap = 0;
	int nerr;

	if (!f) {
		fprintf(err, "%s: error: cannot open config file: %s\n", path, strerror(errno));
		return 1;
	}
	for (;;) {
		if (cap - n < 4096) {
			size_t ncap = cap ? cap * 2 : 8192;
			char *t = realloc(text, ncap);
			if (!t) {
				free(text);
				fclose(f);
				fprintf(err, "%s: error: out of memory\n", path);
				return 1;
			}
			text = t;
			cap = ncap;
		}
		size_t r = fread(text + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
	}
	fclose(f);
	text[n] = 0;
	if (strlen(text) != n) {
		fprintf(err, "%s: error: config file holds a NUL byte\n", path);
		free(text);
		return 1;
	}
	nerr = sim_tconfig_load_text(c, path, text, err);
	free(text);
	return nerr;
}
