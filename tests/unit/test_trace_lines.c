/* test_trace_lines.c - per-line statistics (report/linestats.c) on a synthetic record stream
 * with hand-derived sums per CUDA, PTX and listing line, their text and CSV forms, two runs
 * summed (several launches of one kernel); and the
 * sweep (report/sweep.c): KEY=V parsing, the statistics file, the table, CSV and plot, and
 * rp_sweep_run driving a stand-in program through fork/exec (points in parallel, differing
 * outputs reported, a failing point's messages shown, temporary directories removed). */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "report/report.h"
#include "tests/unit/helper_check.h"

static const char *src =
	".kernel k\n.arch sm_20\n.registers 8\n.param 0x20 8 out\n"
	"S2R R0, SR_TID.X;\n"                       /* 0x00: ptx 10, k.cu:3 */
	"ISETP.LT.AND P0, PT, R0, 0x10, PT;\n"      /* 0x08: ptx 10, k.cu:3 */
	"@P0 BRA 0x18;\n"                           /* 0x10: ptx 11, k.cu:3 */
	"EXIT;\n";                                  /* 0x18: no ptx line, k.cu:4 */

static Prog *prog;
static char dir[64];

static void setup(void)
{
	static const int ptx[] = {10, 10, 11, 0}, cu[] = {3, 3, 3, 4};
	FILE *f;
	char p[128];

	prog = isa_asm("t.sass", src, strlen(src), stderr);
	ck_assert_ptr_nonnull(prog);
	for (int i = 0; i < 4; i++) {
		prog->k[0].ins[i].ptxline = ptx[i];
		prog->k[0].ins[i].srcline = cu[i];
		prog->k[0].ins[i].srcfile = 0;
	}
	prog->files = malloc(sizeof *prog->files);
	prog->files[0] = strdup("k.cu");
	prog->nfiles = 1;
	ck_tmpdir(dir, sizeof dir, "test_lines");
	snprintf(p, sizeof p, "%s/t.ptx", dir);
	f = fopen(p, "w");
	for (int i = 1; i <= 11; i++)
		fprintf(f, "%s\n", i == 10 ? "\tadd.s32 \t%r1, %r2, %r3;" : i == 11 ? "\t@%p1 bra \t$L__BB0_3;" : "//");
	fclose(f);
	snprintf(p, sizeof p, "%s/k.cu", dir);
	f = fopen(p, "w");
	fprintf(f, "// k.cu\n__global__ void k(int *out)\n{\n    if (threadIdx.x < 16) {\n");
	fclose(f);
}

static void teardown(void)
{
	ck_rmtree(dir);
	isa_prog_free(prog);
}

static void issue(const TraceSink *s, int gwarp, uint32_t pc, uint32_t active, uint32_t exec,
                  uint32_t stall, int why, int div, int rcv)
{
	static uint64_t cycle;
	ExecInfo e;
	TraceIssue t;

	memset(&e, 0, sizeof e);
	e.in = &prog->k[0].ins[pc / 8];
	e.pc = pc;
	e.warp = gwarp;
	e.active = active;
	e.exec = exec;
	e.diverged = (uint8_t)div;
	e.reconverged = (uint8_t)rcv;
	t = (TraceIssue){&e, cycle++, 0, gwarp, stall, (uint8_t)why};
	s->issue(s->ctx, &t);
}

static LineStats *run(void)
{
	LineStats *ls = rp_linestats_new(&prog->k[0], prog);
	TraceSink s;

	ck_assert_ptr_nonnull(ls);
	rp_linestats_sink(ls, &s);
	/* warp A is warp slot 0, warp B slot 1 */
	issue(&s, 0, 0x00, ~0u, ~0u, 0, STALL_NONE, 0, 0);
	issue(&s, 1, 0x00, ~0u, ~0u, 0, STALL_NONE, 0, 0);
	issue(&s, 0, 0x08, ~0u, ~0u, 3, STALL_RAW_ALU, 0, 0);
	issue(&s, 0, 0x10, 0xffff, 0xff, 0, STALL_NONE, 1, 0);
	issue(&s, 1, 0x10, ~0u, ~0u, 7, STALL_NONE, 0, 0);
	issue(&s, 0, 0x00, ~0u, ~0u, 2, STALL_CTRL, 0, 0);
	issue(&s, 0, 0x08, ~0u, ~0u, 0, STALL_NONE, 0, 0);
	issue(&s, 0, 0x18, ~0u, ~0u, 5, STALL_BARRIER, 0, 1);
	return ls;
}

static const LineRow *find(const LineRow *r, int n, int line)
{
	for (int i = 0; i < n; i++)
		if (r[i].line == line)
			return &r[i];
	ck_abort_msg("no row for line %d", line);
	return NULL;
}

START_TEST(test_lines_sums)
{
	LineStats *ls = run();
	const LineRow *r, *x;
	int n;
	uint64_t tot;

	/* PTX: line 10 entered by A twice (before and after the line-11 instruction) and by B */
	r = rp_linestats_rows(ls, LS_PTX, &n);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(r[0].line, 0);      /* sorted; line 0 holds the EXIT */
	x = find(r, n, 10);
	ck_assert_uint_eq(x->execs, 3);
	ck_assert_uint_eq(x->warp_insts, 5);
	ck_assert_uint_eq(x->active_lanes, 160);
	ck_assert_uint_eq(x->stall[STALL_RAW_ALU], 3);
	ck_assert_uint_eq(x->stall[STALL_CTRL], 2);
	ck_assert_uint_eq(x->div_branches, 0);
	x = find(r, n, 11);
	ck_assert_uint_eq(x->execs, 2);
	ck_assert_uint_eq(x->warp_insts, 2);
	ck_assert_uint_eq(x->active_lanes, 48);
	ck_assert_uint_eq(x->exec_lanes, 40);
	ck_assert_uint_eq(x->pred_off, 8);
	ck_assert_uint_eq(x->div_branches, 1);
	ck_assert_uint_eq(x->stall[STALL_NONE], 7);
	x = find(r, n, 0);
	ck_assert_uint_eq(x->reconv, 1);
	ck_assert_uint_eq(x->stall[STALL_BARRIER], 5);
	/* CUDA: A runs line 3 once through (its five issues), then line 4; B once */
	r = rp_linestats_rows(ls, LS_CUDA, &n);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(r[0].file, 0);
	ck_assert_int_eq(r[0].line, 3);
	ck_assert_uint_eq(r[0].execs, 2);
	ck_assert_uint_eq(r[0].warp_insts, 7);
	ck_assert_uint_eq(r[1].line, 4);
	ck_assert_uint_eq(r[1].execs, 1);
	/* listing: every issue enters a new line */
	r = rp_linestats_rows(ls, LS_LISTING, &n);
	ck_assert_int_eq(n, 4);
	tot = 0;
	for (int i = 0; i < n; i++)
		tot += r[i].execs;
	ck_assert_uint_eq(tot, 8);
	/* every level adds up to the run */
	for (int lv = 0; lv < LS_COUNT; lv++) {
		uint64_t w = 0, a = 0, st = 0;
		r = rp_linestats_rows(ls, (LineLevel)lv, &n);
		for (int i = 0; i < n; i++) {
			w += r[i].warp_insts;
			a += r[i].active_lanes;
			for (int k = 0; k < STALL_COUNT; k++)
				st += r[i].stall[k];
		}
		ck_assert_uint_eq(w, 8);
		ck_assert_uint_eq(a, 32 * 7 + 16);
		ck_assert_uint_eq(st, 17);
	}
	rp_linestats_free(ls);
}
END_TEST

START_TEST(test_lines_text_and_csv)
{
	LineStats *ls = run();
	char prog_path[128], out[128], err[256], row[512], *got;

	snprintf(prog_path, sizeof prog_path, "%s/t.ptx", dir);
	snprintf(out, sizeof out, "%s/l.txt", dir);
	ck_assert_int_eq(rp_linestats_write(ls, out, prog_path, err, sizeof err), 0);
	got = ck_slurp(out);
	ck_has_all(got, (const char *[]){"\nBy CUDA source line\n", "\nBy PTX line\n", "\nBy listing line\n",
		"k.cu:3                      2          7    29.71      1      0        8        7        3        0        0        2        0        0  {\n",
		"\n10                          3          5    32.00      0      0        0        0        3        0        0        2        0        0  add.s32  %r1, %r2, %r3;\n",
		"\n11                          2          2    24.00      1      0        8        7        0        0        0        0        0        0  @%p1 bra  $L__BB0_3;\n", NULL});
	free(got);
	snprintf(out, sizeof out, "%s/l.csv", dir);
	ck_assert_int_eq(rp_linestats_write(ls, out, prog_path, err, sizeof err), 0);
	got = ck_slurp(out);
	{
		static const char hdr[] = "level,file,line,executions,warp_insts,thread_insts,mean_active_lanes,"
			"exec_lanes,divergent_branches,reconvergences,predicated_off_lanes,stall_ready,stall_raw_alu,"
			"stall_raw_mem,stall_pipe,stall_control,stall_barrier,stall_idle,source\n";
		ck_assert(!strncmp(got, hdr, sizeof hdr - 1));
	}
	snprintf(row, sizeof row, "\nptx,\"%s\",10,3,5,160,32.00,160,0,0,0,0,3,0,0,2,0,0,\"add.s32  %%r1, %%r2, %%r3;\"\n",
	         prog_path);
	ck_assert_ptr_nonnull(strstr(got, row));
	ck_assert_ptr_nonnull(strstr(got, "\ncuda,\"k.cu\",4,1,1,32,32.00,32,0,1,0,0,0,0,0,0,5,0,\"if (threadIdx.x < 16) {\"\n"));
	free(got);
	ck_assert_int_eq(rp_linestats_write(ls, "/nonexistent-dir/l.txt", prog_path, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "cannot write '/nonexistent-dir/l.txt'"));
	rp_linestats_free(ls);
}
END_TEST

/* rp_linestats_write_by's printer: writes a line, then fails as out of memory when arg says so */
static int print_part(void *arg, FILE *f, int csv)
{
	fprintf(f, "a table%s\n", csv ? " (csv)" : "");
	return *(int *)arg ? -1 : 0;
}

/* a printer that ran out of memory (cli/observe.c's sum of a kernel's launches) fails the write
 * with a message, and what it wrote stays in the file */
START_TEST(test_lines_write_oom)
{
	char out[128], err[256], want[256], *got;
	int fail = 0;

	snprintf(out, sizeof out, "%s/parts.csv", dir);
	ck_assert_int_eq(rp_linestats_write_by(out, print_part, &fail, err, sizeof err), 0);
	got = ck_slurp(out);
	ck_assert_str_eq(got, "a table (csv)\n");
	free(got);
	fail = 1;
	err[0] = 0;
	ck_assert_int_eq(rp_linestats_write_by(out, print_part, &fail, err, sizeof err), -1);
	snprintf(want, sizeof want, "--line-stats: out of memory writing '%s': a table is missing", out);
	ck_assert_str_eq(err, want);
	got = ck_slurp(out);
	ck_assert_str_eq(got, "a table (csv)\n");
	free(got);
}
END_TEST

/* two launches of one kernel summed (rp_linestats_add): every count twice, the rows rebuilt
 * after the sum; a part's CSV rows carry its prefix, its text its title */
START_TEST(test_lines_add)
{
	LineStats *a = run(), *b = run(), *sum = rp_linestats_new(&prog->k[0], prog);
	LineStats *other;
	Prog *p2 = isa_asm("u.sass", src, strlen(src), stderr);
	const LineRow *r, *x;
	int n, m;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	RpLsPart part = {"launch 2 of 2: kernel 'k'", 0, "2,\"k\",", "launch,kernel,"};

	ck_assert_ptr_nonnull(p2);
	r = rp_linestats_rows(sum, LS_PTX, &n);   /* built empty: the sum must rebuild them */
	ck_assert_int_eq(rp_linestats_add(sum, a), 0);
	ck_assert_int_eq(rp_linestats_add(sum, b), 0);
	r = rp_linestats_rows(a, LS_PTX, &n);
	x = rp_linestats_rows(sum, LS_PTX, &m);
	ck_assert_int_eq(m, n);
	for (int i = 0; i < n; i++) {
		ck_assert_int_eq(x[i].line, r[i].line);
		ck_assert_uint_eq(x[i].execs, 2 * r[i].execs);
		ck_assert_uint_eq(x[i].warp_insts, 2 * r[i].warp_insts);
		ck_assert_uint_eq(x[i].active_lanes, 2 * r[i].active_lanes);
		ck_assert_uint_eq(x[i].pred_off, 2 * r[i].pred_off);
		ck_assert_uint_eq(x[i].div_branches, 2 * r[i].div_branches);
		ck_assert_uint_eq(x[i].reconv, 2 * r[i].reconv);
		for (int k = 0; k < STALL_COUNT; k++)
			ck_assert_uint_eq(x[i].stall[k], 2 * r[i].stall[k]);
	}
	other = rp_linestats_new(&p2->k[0], p2);    /* another kernel's: refused */
	ck_assert_int_eq(rp_linestats_add(other, a), -1);
	f = open_memstream(&buf, &len);
	rp_linestats_print_part(sum, f, NULL, 1, &part);
	fclose(f);
	ck_assert(!strncmp(buf, "launch,kernel,level,file,line,", 30));
	ck_assert_ptr_nonnull(strstr(buf, "\n2,\"k\",ptx,\"\",10,6,10,320,32.00,320,0,0,0,0,6,0,0,4,0,0,"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	rp_linestats_print_part(sum, f, NULL, 0, &part);
	fclose(f);
	ck_assert(!strncmp(buf, "warpsim line statistics: launch 2 of 2: kernel 'k'\n\nBy CUDA source line\n", 72));
	free(buf);
	rp_linestats_free(other);
	rp_linestats_free(sum);
	rp_linestats_free(a);
	rp_linestats_free(b);
	isa_prog_free(p2);
}
END_TEST

START_TEST(test_sweep_parse)
{
	SweepSpec sp;
	char why[128];

	ck_assert_int_eq(rp_sweep_parse("predicate-max=0,1,inf", &sp, why, sizeof why), 0);
	ck_assert_str_eq(sp.key, "predicate-max");
	ck_assert_int_eq(sp.nvals, 3);
	ck_assert_str_eq(sp.vals[2], "inf");
	rp_sweep_free(&sp);
	ck_assert_int_eq(rp_sweep_parse("--scheduler=lrr", &sp, why, sizeof why), 0);
	ck_assert_str_eq(sp.key, "scheduler");
	ck_assert_int_eq(sp.nvals, 1);
	rp_sweep_free(&sp);
	ck_assert_int_eq(rp_sweep_parse("predicate-max", &sp, why, sizeof why), -1);
	ck_assert_int_eq(rp_sweep_parse("=1,2", &sp, why, sizeof why), -1);
	ck_assert_int_eq(rp_sweep_parse("k=", &sp, why, sizeof why), -1);
	ck_assert_int_eq(rp_sweep_parse("k=1,,2", &sp, why, sizeof why), -1);
	ck_assert_str_eq(why, "KEY=V1,V2,... with no empty value");
	ck_assert_int_eq(rp_sweep_parse("k=1,", &sp, why, sizeof why), -1);
}
END_TEST

static SweepSpec spec(const char *s)
{
	SweepSpec sp;
	char why[128];
	ck_assert_int_eq(rp_sweep_parse(s, &sp, why, sizeof why), 0);
	return sp;
}

START_TEST(test_sweep_reports)
{
	SweepSpec sp = spec("predicate-max=0,7,inf");
	SweepPoint p[3] = {{.ok = 1, .cycles = 200, .warp_insts = 10, .thread_insts = 160, .div_branches = 2,
	                    .crs_hwm = 3, .pred_off = 40},
	                   {.ok = 1, .cycles = 100, .warp_insts = 8, .thread_insts = 256, .crs_hwm = 1,
	                    .pred_off = 8}, {0}};
	char *buf = NULL, path[128], *got;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	SweepPoint q;

	rp_sweep_table(f, &sp, p);
	fclose(f);
	ck_assert_str_eq(buf,
		"predicate-max     cycles  warp_insts  thread_insts      IPC  SIMD_eff   div_br  CRS_hwm  pred_off  speedup\n"
		"0                    200          10           160    0.800     50.0%        2        3        40   1.000x\n"
		"7                    100           8           256    2.560    100.0%        0        1         8   2.000x\n"
		"inf               failed\n");
	free(buf);
	snprintf(path, sizeof path, "%s/s.csv", dir);
	ck_assert_int_eq(rp_sweep_csv(path, &sp, p, stderr), 0);
	got = ck_slurp(path);
	ck_assert_str_eq(got, "predicate-max,cycles,warp_insts,thread_insts,ipc,simd_efficiency,divergent_branches,"
	                 "crs_high_water,predicated_off_lanes,speedup,outputs_identical,stall_raw_alu,"
	                 "stall_raw_mem,stall_pipe_busy,stall_control,stall_barrier,stall_idle\n"
	                 "0,200,10,160,0.8000,0.5000,2,3,40,1.0000,yes,,,,,,\n"   /* no stall counts */
	                 "7,100,8,256,2.5600,1.0000,0,1,8,2.0000,yes,,,,,,\n"
	                 "inf,,,,,,,,,,,,,,,,\n");
	free(got);
	snprintf(path, sizeof path, "%s/s.svg", dir);
	ck_assert_int_eq(rp_sweep_svg(path, &sp, p, stderr), 0);
	got = ck_slurp(path);
	ck_assert(!strncmp(got, "<?xml", 5));
	ck_has_all(got, (const char *[]){"against --predicate-max</text>", ">inf (failed)</text>",
		"<title>200 cycles</title>",
		/* the axis spans the data (100..200, not from 0), the best point is named and ringed,
		 * the other says how much slower it is */
		">cycles (the axis starts at 100, not 0)</text>", "<g class=\"brk\">",
		">best: 7, 100 cycles</text>", "<circle class=\"best\"", ">+100.0%</text>", "</svg>\n", NULL});
	free(got);
	/* the statistics file round trip */
	snprintf(path, sizeof path, "%s/p.json", dir);
	ck_assert_int_eq(rp_sweep_point_write(path, &p[0]), 0);
	memset(&q, 0, sizeof q);
	ck_assert_int_eq(rp_sweep_point_read(path, &q), 0);
	ck_assert_uint_eq(q.cycles, 200);
	ck_assert_uint_eq(q.thread_insts, 160);
	ck_assert_uint_eq(q.pred_off, 40);
	ck_assert_uint_eq(q.crs_hwm, 3);
	ck_assert_int_eq(q.stalls, 0);      /* none written (a --functional run has none) */
	/* the stall counts, when the point has them, go and come back in rp_stall_names' order */
	for (int k = 0; k < RP_NSTALL; k++)
		p[0].stall[k] = 100 + (uint64_t)k;
	p[0].stalls = 1;
	ck_assert_int_eq(rp_sweep_point_write(path, &p[0]), 0);
	got = ck_slurp(path);
	ck_has_all(got, (const char *[]){"\"crs_high_water\": 3,\n", "\"stall_raw_alu\": 100,\n",
		"\"stall_control\": 103,\n", "\"stall_idle\": 105\n}", NULL});
	free(got);
	memset(&q, 0, sizeof q);
	ck_assert_int_eq(rp_sweep_point_read(path, &q), 0);
	ck_assert_int_eq(q.stalls, 1);
	for (int k = 0; k < RP_NSTALL; k++)
		ck_assert_uint_eq(q.stall[k], 100 + (uint64_t)k);
	f = fopen(path, "w");
	fprintf(f, "{\n  \"gpu_sim_cycle\": 5\n}\n");
	fclose(f);
	ck_assert_int_eq(rp_sweep_point_read(path, &q), -1);   /* keys missing */
	/* with the stall counts, the table's second part: the first point's whole, the others'
	 * less the first's, and the CSV's last columns */
	memcpy(p[0].stall, (uint64_t[RP_NSTALL]){100, 20, 0, 30, 0, 240}, sizeof p[0].stall);
	memcpy(p[1].stall, (uint64_t[RP_NSTALL]){50, 10, 0, 12, 0, 1200}, sizeof p[1].stall);
	p[1].stalls = 1;
	f = open_memstream(&buf, &len);
	rp_sweep_table(f, &sp, p);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "inf               failed\n"
		"where the cycles went, in scheduler-cycles: the warp instructions issued, then the "
		"cycles a scheduler\nissued none, by what its first warp waited on (--stats-json's "
		"stall_* counts); the first point's\ncounts, then each other point's less the "
		"first's\n"
		"    predicate-max issued raw_alu raw_mem pipe_busy control barrier idle\n"
		"    0                 10     100      20         0      30       0  240\n"
		"    7                 -2     -50     -10        +0     -18      +0 +960\n"));
	free(buf);
	snprintf(path, sizeof path, "%s/s.csv", dir);
	ck_assert_int_eq(rp_sweep_csv(path, &sp, p, stderr), 0);
	got = ck_slurp(path);
	ck_has_all(got, (const char *[]){
		"\n0,200,10,160,0.8000,0.5000,2,3,40,1.0000,yes,100,20,0,30,0,240\n",
		"\n7,100,8,256,2.5600,1.0000,0,1,8,2.0000,yes,50,10,0,12,0,1200\n", NULL});
	free(got);
	rp_sweep_free(&sp);
}
END_TEST

/* a stand-in for warpsim: "--v N --sweep-point DIR" writes statistics (cycles 100 N) and an
 * output buffer; N = 3 writes a different buffer, N = 4 fails with a message */
static const char *fake =
	"#!/bin/sh\n"
	"v=$2; d=$4\n"
	"printf '{\\n \"gpu_sim_cycle\": %d,\\n \"gpu_sim_insn\": 64,\\n \"gpgpu_n_tot_w_icount\": 2,\\n"
	" \"divergent_branches\": 0,\\n \"predicated_off_lanes\": 0,\\n \"crs_high_water\": 1\\n}\\n' "
	"$((100 * v)) > \"$d/stats.json\"\n"
	"echo same > \"$d/out0-x.txt\"\n"
	"[ \"$v\" = 3 ] && echo different > \"$d/out0-x.txt\"\n"
	"[ \"$v\" = 4 ] && { echo boom >&2; exit 1; }\n"
	"exit 0\n";

/* runs the sweep S into p (whose buffers from an earlier call are freed first) */
static int sweep(const char *s, SweepPoint *p, char **msg)
{
	SweepSpec sp = spec(s);
	char self[128], tmp[128];
	size_t len;
	FILE *f, *err = open_memstream(msg, &len);
	int rc;

	snprintf(self, sizeof self, "%s/fake.sh", dir);
	f = fopen(self, "w");
	fputs(fake, f);
	fclose(f);
	chmod(self, 0755);
	snprintf(tmp, sizeof tmp, "%s/tmp", dir);
	mkdir(tmp, 0700);
	setenv("TMPDIR", tmp, 1);
	sp.jobs = 2;
	for (int i = 0; i < 3; i++)
		rp_sweep_point_clear(&p[i]);
	rc = rp_sweep_run(self, NULL, 0, &sp, p, err);
	fclose(err);
	ck_assert_int_eq(rmdir(tmp), 0);      /* every point's directory was removed */
	rp_sweep_free(&sp);
	return rc;
}

START_TEST(test_sweep_run)
{
	SweepPoint p[3] = {0};
	char *msg;

	ck_assert_int_eq(sweep("v=1,2,5", p, &msg), 0);
	ck_assert_str_eq(msg, "");
	free(msg);
	ck_assert(p[0].ok && p[1].ok && p[2].ok);
	ck_assert_uint_eq(p[0].cycles, 100);
	ck_assert_uint_eq(p[1].cycles, 200);
	ck_assert_uint_eq(p[2].cycles, 500);
	ck_assert_uint_eq(p[2].thread_insts, 64);
	ck_assert_int_eq(sweep("v=1,3", p, &msg), 3);
	ck_assert_ptr_nonnull(strstr(msg, "ERROR: the output buffers differ between --v 1 and --v 3"));
	ck_assert_ptr_nonnull(strstr(msg, "buffer 'x.txt' (saved by --out), first difference at byte 0"));
	ck_assert(!p[0].outs_differ && p[1].outs_differ);
	free(msg);
	ck_assert_int_eq(sweep("predicate-max=1,3", p, &msg), 3);
	ck_assert_ptr_nonnull(strstr(msg, "TRANSLATOR BUG"));
	free(msg);
	ck_assert_int_eq(sweep("v=4,1", p, &msg), 1);
	ck_assert_ptr_nonnull(strstr(msg, "the run with --v 4 failed (exit status 1):\n    boom\n"));
	ck_assert(!p[0].ok && p[1].ok);
	free(msg);
	for (int i = 0; i < 3; i++)
		rp_sweep_point_clear(&p[i]);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("trace_lines");
	TCase *tc = tcase_create("lines");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_lines_sums);
	tcase_add_test(tc, test_lines_text_and_csv);
	tcase_add_test(tc, test_lines_write_oom);
	tcase_add_test(tc, test_lines_add);
	tcase_add_test(tc, test_sweep_parse);
	tcase_add_test(tc, test_sweep_reports);
	tcase_add_test(tc, test_sweep_run);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{

	return ck_run(suite());
}
