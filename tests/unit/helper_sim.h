/* helper_sim.h - the simulator tests' harness (helper_sim.c). */
#ifndef WARPSIM_HELPER_SIM_H
#define WARPSIM_HELPER_SIM_H

#include "backend/backend.h"
#include "isa/isa.h"
#include "sim/sim.h"

#define SIMT_MAXTR 65536

typedef struct {
	uint32_t pc;       /* byte address issued */
	uint32_t active;   /* active mask at issue */
	uint32_t exec;     /* guard-true lanes */
	int warp;          /* warp index in its CTA */
	int op;            /* Op */
} SimTr;

typedef struct {
	Prog *p;           /* the assembled listing */
	Mem mem;           /* device memory */
	Launch l;          /* the launch */
	Placed pl;         /* its buffers */
	Gpu *g;            /* the machine */
	int rc;            /* sim_run's result, or < 0 for a setup failure */
	SimStats st;       /* statistics after the run */
	FILE *err;         /* messages (memstream) */
	char *errbuf;      /* their text */
	size_t errlen;
	SimTr tr[SIMT_MAXTR]; /* issued instructions in order */
	int ntr;
	char runs[4096];   /* simt_runs result */
} SimT;

/* cfg: NULL or pairs of architecture option name, value, NULL-terminated */
int simt_run(SimT *t, const char *listing, unsigned grid, unsigned block, const char **args,
             const char **cfg);
/* the same without the trace (tr stays empty): the issue stage runs the lean instructions
 * itself, as warpsim does without --trace */
int simt_run_untraced(SimT *t, const char *listing, unsigned grid, unsigned block,
                      const char **args, const char **cfg);
/* the same on a grid and block of three dimensions, traced or not */
int simt_run_dims(SimT *t, const char *listing, const unsigned grid[3], const unsigned block[3],
                  const char **args, int trace);
uint64_t simt_get(SimT *t, int param, int idx);
const char *simt_runs(SimT *t, int warp);
int simt_count(SimT *t, int warp, uint32_t pc);
int simt_find(SimT *t, int warp, uint32_t pc, int from);
void simt_free(SimT *t);

/* reads a --config file as warpsim and warpc do: its architecture options into c, its
 * translator options (kepler.cfg's if-conversion rule) into be when be is not NULL
 * (otherwise into a scratch copy); 0 or the opt_file result */
int helper_load_config(TimingConfig *c, BeOptions *be, const char *path, FILE *err);

/* teaching.cfg's architecture (as sim_tconfig_load reads it), which the cycle model's tests
 * work their expectations out for */
TimingConfig helper_teaching(void);
/* the greatest common divisor: a stride's bank conflict degree is gcd(stride, banks) */
int helper_gcd(int a, int b);

#endif
