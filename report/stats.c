/* stats.c - the timing statistics, printed as a table for humans and as a JSON object
 * (--stats-json). Names follow GPGPU-Sim where it has one (gpu_sim_cycle, gpu_sim_insn,
 * gpu_ipc, gpgpu_n_shmem_bkconflict, ...); docs/timing.md lists them all. Ratios are
 * computed from integers and printed with a fixed precision, so the output is the same on
 * every host. A run of the functional core alone (--functional) has no clock, pipelines or
 * memory model: its table and JSON leave out what only the timing model measures, and
 * gpu_sim_cycle counts its rounds.
 */
#include "report/report.h"

static const char *stall_names[STALL_COUNT] = {
	[STALL_NONE] = "none", [STALL_RAW_ALU] = "raw_alu", [STALL_RAW_MEM] = "raw_mem",
	[STALL_PIPE] = "pipe_busy", [STALL_CTRL] = "control", [STALL_BARRIER] = "barrier",
	[STALL_IDLE] = "idle",
};

const char *
rp_stall_name(int why)
{
	return why >= 0 && why < STALL_COUNT ? stall_names[why] : "?";
}

static double
ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

typedef struct {
	const char *name;   /* statistic name (GPGPU-Sim's where one exists) */
	int kind;           /* 0: count v, 1: ratio r, 2: the OccLimit v by name; +T: measured
	                       by the timing model only (left out under --functional) */
	uint64_t v;         /* count */
	double r;           /* ratio */
	const char *help;   /* what it counts */
} Row;

enum { T = 4 };

/* the rows in print order; returns their count */
static int
rows(const TStats *s, Row *r)
{
	int n = 0;
#define ROW(nm, k, val, rat, h) do { if (!(s->functional && ((k) & T))) r[n++] = (Row){nm, (k) & 3, (val), (rat), h}; } while (0)
#define CNT(nm, val, h) ROW(nm, 0, val, 0.0, h)
#define RAT(nm, val, h) ROW(nm, 1, 0, val, h)
#define TCNT(nm, val, h) ROW(nm, T, val, 0.0, h)
#define TRAT(nm, val, h) ROW(nm, T | 1, 0, val, h)
	if (s->functional)
		CNT("gpu_sim_cycle", s->cycles, "rounds of the functional core (--functional: no clock)");
	else
		CNT("gpu_sim_cycle", s->cycles, "cycles until the last SM finished");
	CNT("gpu_sim_insn", s->thread_insts, "thread instructions (active lanes at issue)");
	CNT("gpgpu_n_tot_w_icount", s->warp_insts, "warp instructions issued");
	TRAT("gpu_ipc", ratio(s->thread_insts, s->cycles), "thread instructions per cycle");
	TRAT("warp_ipc", ratio(s->warp_insts, s->cycles), "warp instructions per cycle");
	RAT("simd_efficiency", ratio(s->thread_insts, s->warp_insts * TM_WARP), "active lanes / 32 per warp instruction");
	CNT("divergent_branches", s->div_branches, "divergence events: instructions that split a warp");
	CNT("div_bra", s->div[DIV_BRA], "  a guarded BRA or CAL taken by some lanes");
	CNT("div_sync", s->div[DIV_SYNC], "  a guarded .S: some lanes wait at the sync point");
	CNT("div_brk", s->div[DIV_BRK], "  BRK by some lanes");
	CNT("div_cont", s->div[DIV_CONT], "  CONT by some lanes");
	CNT("div_ret", s->div[DIV_RET], "  RET by some lanes");
	CNT("div_exit", s->div[DIV_EXIT], "  EXIT by some lanes");
	CNT("div_brx", s->div[DIV_BRX], "  BRX or JCAL to several targets");
	CNT("reconvergences", s->reconv, "stack pops that merged lanes back");
	CNT("predicated_off_lanes", s->pred_off, "active lanes whose guard was false");
	CNT("crs_high_water", s->crs_hwm, "deepest CallReturnStack of any warp");
	CNT("crs_spills", s->crs_spills, "CallReturnStack tokens stored to local memory");
	CNT("crs_fills", s->crs_fills, "CallReturnStack tokens loaded back from local memory");
	for (int k = STALL_RAW_ALU; k < STALL_COUNT; k++) {
		static const char *nm[STALL_COUNT] = {
			[STALL_RAW_ALU] = "stall_raw_alu", [STALL_RAW_MEM] = "stall_raw_mem",
			[STALL_PIPE] = "stall_pipe_busy", [STALL_CTRL] = "stall_control",
			[STALL_BARRIER] = "stall_barrier", [STALL_IDLE] = "stall_idle",
		};
		TCNT(nm[k], s->stall[k], "scheduler cycles without issue, by reason");
	}
	TCNT("gpgpu_n_shmem_insn", s->shared_insts, "shared-memory instructions");
	TCNT("gpgpu_n_shmem_bkconflict", s->bank_conflicts, "shared-memory replays from bank conflicts");
	TCNT("gpgpu_n_mem_read_global", s->gld_trans, "global/local load transactions");
	TCNT("gpgpu_n_mem_write_global", s->gst_trans, "global/local store transactions");
	TCNT("gpgpu_n_mem_atomic", s->atom_trans, "atomic transactions");
	TCNT("L1D_total_cache_accesses", s->l1_hits + s->l1_misses, "L1 data cache accesses");
	TCNT("L1D_total_cache_misses", s->l1_misses, "L1 data cache misses");
	TCNT("L2_total_cache_accesses", s->l2_hits + s->l2_misses, "L2 accesses");
	TCNT("L2_total_cache_misses", s->l2_misses, "L2 misses");
	TCNT("dram_bytes", s->dram_bytes, "bytes moved by DRAM");
	CNT("ctas", s->ctas, "CTAs run");
	if (s->cdp_grids) {   /* (a run without child grids prints as before) */
		CNT("cdp_child_grids", s->cdp_grids, "child grids run (dynamic parallelism)");
		CNT("cdp_child_ctas", s->cdp_ctas, "  their CTAs (counted in ctas)");
	}
	CNT("occupancy_ctas_per_sm", (uint64_t)s->occ.ctas, "resident CTAs per SM the resources allow");
	ROW("occupancy_limited_by", 2, (uint64_t)s->occ.limit, 0.0, "the resource that bounds them");
	RAT("theoretical_occupancy", ratio((uint64_t)s->occ.ctas * (uint64_t)s->occ.warps_per_cta,
	                                   (uint64_t)s->max_warps), "resident warps / warp slots");
	TRAT("gpu_occupancy", ratio(s->warp_cycles, s->sm_cycles * (uint64_t)s->max_warps),
	    "achieved: resident warps / warp slots, averaged over busy SM-cycles");
#undef ROW
#undef CNT
#undef RAT
#undef TCNT
#undef TRAT
	return n;
}

void
rp_tstats_print(FILE *f, const TStats *s)
{
	Row r[64];
	int n = rows(s, r);
	for (int i = 0; i < n; i++) {
		if (r[i].kind == 1)
			fprintf(f, "%-28s %14.4f  %s\n", r[i].name, r[i].r, r[i].help);
		else if (r[i].kind == 2)
			fprintf(f, "%-28s %14s  %s\n", r[i].name, sim_occ_limit_name((int)r[i].v), r[i].help);
		else
			fprintf(f, "%-28s %14llu  %s\n", r[i].name, (unsigned long long)r[i].v, r[i].help);
	}
}

void
rp_tstats_json_members(FILE *f, const TStats *s, const char *indent)
{
	Row r[64];
	int n = rows(s, r);
	for (int i = 0; i < n; i++) {
		const char *sep = i + 1 < n ? "," : "";
		if (r[i].kind == 1)
			fprintf(f, "%s\"%s\": %.6f%s\n", indent, r[i].name, r[i].r, sep);
		else if (r[i].kind == 2)
			fprintf(f, "%s\"%s\": \"%s\"%s\n", indent, r[i].name, sim_occ_limit_name((int)r[i].v), sep);
		else
			fprintf(f, "%s\"%s\": %llu%s\n", indent, r[i].name, (unsigned long long)r[i].v, sep);
	}
}

void
rp_tstats_json(FILE *f, const TStats *s)
{
	fputs("{\n", f);
	rp_tstats_json_members(f, s, "  ");
	fputs("}\n", f);
}
