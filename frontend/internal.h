/* internal.h - what the frontend's files share and nobody else uses: strings in the arena,
 * name tables for the printer, the parser context (see build.c), die(). */
#ifndef WARPSIM_PTX_INTERNAL_H
#define WARPSIM_PTX_INTERNAL_H

#include "frontend/ptx.h"

_Noreturn void ptx_die(const char *file, int line, const char *msg);
#define die(msg) ptx_die(__FILE__, __LINE__, msg)

char *ptx_strndup(PArena *a, const char *s, size_t n);

extern const char *const ptx_cmp_names[PCMP_COUNT];
extern const char *const ptx_bop_names[PBOP_COUNT];
extern const char *const ptx_rnd_names[PRND_COUNT];
extern const char *const ptx_cache_names[PCACHE_COUNT];
extern const char *const ptx_sem_names[PSEM_COUNT];
extern const char *const ptx_scope_names[PSCOPE_COUNT];
extern const char *const ptx_aop_names[PAOP_COUNT];
extern const char *const ptx_shfl_names[PSHFL_COUNT];
extern const char *const ptx_vote_names[PVOTE_COUNT];
extern const char *const ptx_bar_names[PBAR_COUNT];
extern const char *const ptx_prmt_names[PPRMT_COUNT];
extern const char *const ptx_testp_names[PTESTP_COUNT];
extern const char *const ptx_evict_names[PEVICT_COUNT];
extern const char *const ptx_geom_names[PGEOM_COUNT];
extern const char *const ptx_txq_names[PTXQ_COUNT];
extern const char *const ptx_comp_names[PCOMP_COUNT];
extern const char *const ptx_sumode_names[PSUMODE_COUNT];
extern const char *const ptx_mflag_names[PMF_NBITS];

/* mods.c: the PMF_* bits m's .target and .version imply on in (sm_1x: .ftz on single
 * precision; PTX ISA 1.0-1.3: .approx.ftz on div, rcp, sqrt ... of .f32) */
uint32_t ptx_implied_mods(const Module *m, const PIns *in);

#endif
