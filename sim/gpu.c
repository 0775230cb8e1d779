/* gpu.c - the functional machine around sim_issue: one GPU of N SMs, CTAs dispatched in
 * linear order onto free CTA slots (occupancy from timing.h), a deterministic round-robin
 * issue loop (one warp instruction per SM per cycle), runaway and deadlock detection, located
 * run-time errors, and the statistics table. Per-slot state is allocated the first time a
 * slot is used, never inside the issue loop. */
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <inttypes.h>
#include "sim/machine.h"

void sim_config_from_opts(SimConfig *c, const SimOpts *o)
{
	c->tc = o->tc;
	c->max_warp_insts = o->max_warp_insts;
}

/* "prog.sass:12: error: msg" then where it happened, into g->err */
static int vfault(Gpu *g, const Warp *w, int lane, int kind, const char *fmt, va_list ap)
{
	const DIns *d = g->cur < (uint32_t)g->ncode ? &g->code[g->cur] : NULL;
	char ins[160] = "", msg[1024];
	size_t n;

	vsnprintf(msg, sizeof msg, fmt, ap);
	if (d)
		isa_format_ins(ins, sizeof ins, g->k, d->in);
	if (g->listing && d && d->in->line)
		n = (size_t)snprintf(g->err, sizeof g->err, "%s:%d: error: %s\n", g->listing, d->in->line, msg);
	else
		n = (size_t)snprintf(g->err, sizeof g->err, "warpsim: error: %s\n", msg);
	if (n < sizeof g->err && w) {
		const Cta *c = w->cta;
		n += (size_t)snprintf(g->err + n, sizeof g->err - n, "    kernel '%s', CTA (%u,%u,%u), warp %d",
		                      g->k->name, c->id[0], c->id[1], c->id[2], w->idx);
		if (n < sizeof g->err && lane >= 0)
			n += (size_t)snprintf(g->err + n, sizeof g->err - n, ", lane %d (thread %d)", lane, w->idx * 32 + lane);
		if (n < sizeof g->err && d)
			snprintf(g->err + n, sizeof g->err - n, ", pc 0x%04x: %s\n", g->cur * 8, ins);
		else if (n < sizeof g->err)
			snprintf(g->err + n, sizeof g->err - n, "\n");
	}
	return kind;
}

int sim_fault(Gpu *g, const Warp *w, int lane, int kind, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfault(g, w, lane, kind, fmt, ap);
	va_end(ap);
	return rc;
}

void sim_warp_done(Gpu *g, Warp *w)
{
	Cta *c = w->cta;

	w->state = W_DONE;
	if (--c->live > 0)
		return;
	c->busy = 0;
	g->st.ctas++;
	g->done_ctas++;
	if (c->keep)
		g->st.kept_ctas++;   /* the slot stays held: EXIT.KEEPREFCOUNT keeps the resources */
	g->sm[c->sm].resident--;
	g->need_dispatch = 1;
}

static int slot_alloc(Gpu *g, Cta *c)
{
	if (c->w)
		return 0;
	c->w = calloc((size_t)g->wpc, sizeof *c->w);
	c->shared = calloc(g->shsize + 4, 1);
	c->locks = calloc(g->shsize / 4 + 1, 1);
	if (!c->w || !c->shared || !c->locks)
		return -1;
	for (int i = 0; i < g->wpc; i++) {
		Warp *w = &c->w[i];
		w->r = calloc((size_t)g->rows * 32, sizeof *w->r);
		w->crs = calloc((size_t)g->cfg.tc.crs_depth, sizeof *w->crs);
		w->local = calloc((size_t)32 * g->locsize + 1, 1);
		if (!w->r || !w->crs || !w->local)
			return -1;
		w->cta = c;
		w->idx = i;
	}
	c->nwarps = g->wpc;
	return 0;
}

static void cta_start(Gpu *g, Cta *c, uint64_t lin)
{
	uint32_t threads = g->block[0] * g->block[1] * g->block[2];

	c->busy = 1;
	c->keep = 0;
	c->id[0] = (uint32_t)(lin % g->grid[0]);
	c->id[1] = (uint32_t)(lin / g->grid[0] % g->grid[1]);
	c->id[2] = (uint32_t)(lin / ((uint64_t)g->grid[0] * g->grid[1]));
	c->nthreads = threads;
	c->nexited = 0;
	c->live = g->wpc;
	memset(c->shared, 0, g->shsize);
	memset(c->locks, 0, g->shsize / 4 + 1);
	memset(c->bar, 0, sizeof c->bar);
	for (int i = 0; i < g->wpc; i++) {
		Warp *w = &c->w[i];
		uint32_t n = threads - 32u * i;
		w->lanes = n >= 32 ? 0xffffffffu : (1u << n) - 1;
		w->active = w->lanes;
		w->exited = w->counted = 0;
		w->pc = 0;
		w->ncrs = 0;
		w->state = W_READY;
		w->bar_dst = NO_ROW;
		w->post = 0;
		memset(w->p, 0, sizeof w->p);
		w->p[ISA_PT] = 0xffffffffu;
		memset(w->cc, 0, sizeof w->cc);
		memset(w->r, 0, (size_t)g->rows * 32 * sizeof *w->r);
		memset(w->local, 0, (size_t)32 * g->locsize);
	}
}

/* fills free slots with the next CTAs, SMs taken round robin */
static int dispatch(Gpu *g)
{
	g->need_dispatch = 0;
	while (g->next_cta < g->nctas) {
		int placed = 0;
		for (int k = 0; k < g->cfg.tc.sms && !placed; k++) {
			SM *s = &g->sm[(g->rr_sm + k) % g->cfg.tc.sms];
			for (int i = 0; i < g->slots; i++) {
				Cta *c = &s->slots[i];
				if (c->busy || c->keep)
					continue;
				if (slot_alloc(g, c)) {
					snprintf(g->err, sizeof g->err, "warpsim: out of memory for a CTA slot\n");
					return SIM_FAULT;
				}
				cta_start(g, c, g->next_cta++);
				s->resident++;
				g->rr_sm = (s->id + 1) % g->cfg.tc.sms;
				placed = 1;
				break;
			}
		}
		if (!placed)
			break;
	}
	return SIM_OK;
}

Gpu *sim_gpu_new(const Kernel *k, Mem *m, const Launch *l, const SimConfig *cfg,
                 const char *listing, FILE *err)
{
	Gpu *g = calloc(1, sizeof *g);
	uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
	Occupancy occ;
	char msg[512];

	if (!g)
		return NULL;
	g->k = k;
	g->mem = m;
	g->cfg = *cfg;
	g->listing = listing;
	g->fault_lane = -1;
	memcpy(g->grid, l->grid, sizeof g->grid);
	memcpy(g->block, l->block, sizeof g->block);
	if (threads > 1024) {
		fprintf(err, "warpsim: --block: a CTA holds at most 1024 threads, got %" PRIu64 "\n", threads);
		goto fail;
	}
	if (k->nins == 0) {
		fprintf(err, "warpsim: kernel '%s' has no instructions\n", k->name);
		goto fail;
	}
	if (sim_decode(g, err))
		goto fail;
	g->shsize = k->shared + l->shared_bytes;
	g->locsize = k->local;
	g->wpc = (int)((threads + 31) / 32);
	g->nctas = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
	if (sim_occupancy(&cfg->tc, (int)threads, k->regs ? k->regs : g->zrow - 3, g->shsize, &occ,
	                  msg, sizeof msg)) {
		fprintf(err, "warpsim: kernel '%s': a CTA does not fit on an SM: %s\n", k->name, msg);
		goto fail;
	}
	g->slots = occ.ctas;
	if (!(g->sm = calloc((size_t)cfg->tc.sms, sizeof *g->sm)))
		goto oom;
	for (int i = 0; i < cfg->tc.sms; i++) {
		SM *s = &g->sm[i];
		s->id = i;
		if (!(s->slots = calloc((size_t)g->slots, sizeof *s->slots)) ||
		    !(s->warps = calloc((size_t)g->slots * g->wpc, sizeof *s->warps)))
			goto oom;
		s->nwarps = g->slots * g->wpc;
		for (int j = 0; j < g->slots; j++) {
			s->slots[j].sm = i;
			s->slots[j].slot = j;
		}
	}
	g->need_dispatch = 1;
	return g;
oom:
	fprintf(err, "warpsim: out of memory\n");
fail:
	sim_gpu_free(g);
	return NULL;
}

void sim_gpu_free(Gpu *g)
{
	if (!g)
		return;
	for (int i = 0; g->sm && i < g->cfg.tc.sms; i++) {
		SM *s = &g->sm[i];
		for (int j = 0; s->slots && j < g->slots; j++) {
			Cta *c = &s->slots[j];
			for (int k = 0; c->w && k < c->nwarps; k++) {
				free(c->w[k].r);
				free(c->w[k].crs);
				free(c->w[k].local);
			}
			free(c->w);
			free(c->shared);
			free(c->locks);
		}
		free(s->slots);
		free(s->warps);
	}
	free(g->sm);
	free(g->code);
	free(g->tl);
	free(g);
}

void sim_gpu_trace(Gpu *g, SimTraceFn *fn, void *ctx)
{
	g->trace = fn;
	g->tctx = ctx;
}

const char *sim_gpu_error(const Gpu *g) { return g->err; }
const SimStats *sim_gpu_stats(const Gpu *g) { return &g->st; }

/* appends "  CTA (x,y,z) warp w: pc 0x.. (line n), active 0x.." lines for warps in state st */
static size_t list_warps(Gpu *g, size_t n, int st, int max)
{
	int shown = 0, more = 0;

	for (int i = 0; i < g->cfg.tc.sms; i++)
		for (int j = 0; j < g->slots; j++) {
			Cta *c = &g->sm[i].slots[j];
			if (!c->busy)
				continue;
			for (int k = 0; k < c->nwarps; k++) {
				Warp *w = &c->w[k];
				uint32_t pc = st == W_BAR ? w->bar_pc : w->pc;
				const Ins *in = pc < (uint32_t)g->ncode ? g->code[pc].in : NULL;
				if (w->state != st)
					continue;
				if (shown++ >= max) {
					more++;
					continue;
				}
				if (n >= sizeof g->err)
					continue;
				n += (size_t)snprintf(g->err + n, sizeof g->err - n, "    CTA (%u,%u,%u) warp %d: ",
				                      c->id[0], c->id[1], c->id[2], w->idx);
				if (n < sizeof g->err && st == W_BAR)
					n += (size_t)snprintf(g->err + n, sizeof g->err - n, "waits at barrier %d (%u of %u threads arrived, %u exited), ",
					                      w->bar, c->bar[w->bar].arrived, c->bar[w->bar].expected ? c->bar[w->bar].expected : c->nthreads, c->nexited);
				if (n < sizeof g->err)
					n += (size_t)snprintf(g->err + n, sizeof g->err - n, "pc 0x%04x", pc * 8);
				if (n < sizeof g->err && in && in->line)
					n += (size_t)snprintf(g->err + n, sizeof g->err - n, " (line %d)", in->line);
				if (n < sizeof g->err)
					n += (size_t)snprintf(g->err + n, sizeof g->err - n, ", active 0x%08x, exited 0x%08x\n",
					                      w->active, w->exited);
			}
		}
	if (more && n < sizeof g->err)
		n += (size_t)snprintf(g->err + n, sizeof g->err - n, "    ... and %d more\n", more);
	return n;
}

static int stop(Gpu *g, int kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int stop(Gpu *g, int kind, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = (size_t)vsnprintf(g->err, sizeof g->err, fmt, ap);
	va_end(ap);
	if (n < sizeof g->err)
		list_warps(g, n, kind == SIM_DEADLOCK ? W_BAR : W_READY, 16);
	return kind;
}

int sim_run(Gpu *g, uint64_t max_cycles)
{
	uint64_t maxc = max_cycles ? max_cycles : (uint64_t)g->cfg.tc.max_cycles;
	int nsm = g->cfg.tc.sms;

	for (;;) {
		int issued = 0;

		if (g->need_dispatch && dispatch(g))
			return SIM_FAULT;
		if (g->done_ctas == g->nctas)
			return SIM_DONE;
		for (int i = 0; i < nsm; i++) {
			SM *s = &g->sm[i];
			int n = s->nwarps;
			if (!s->resident)
				continue;
			/* round robin from the warp after the last one issued */
			for (int k = 0; k < n; k++) {
				int idx = s->rr + k >= n ? s->rr + k - n : s->rr + k;
				Cta *c = &s->slots[idx / g->wpc];
				Warp *w;
				int rc;
				if (!c->busy)
					continue;
				if (!(w = s->warps[idx]))
					w = s->warps[idx] = &c->w[idx % g->wpc];
				if (w->state != W_READY)
					continue;
				s->rr = idx + 1 >= n ? 0 : idx + 1;
				g->cur = w->pc;
				if ((rc = sim_issue(g, s, w, &g->info)) != SIM_OK)
					return rc;
				issued = 1;
				break;
			}
		}
		g->st.cycles = ++g->cycle;
		if (!issued && !g->need_dispatch) {
			if (g->next_cta < g->nctas && g->done_ctas + 0 < g->nctas) {
				int anyres = 0;
				for (int i = 0; i < nsm; i++)
					anyres |= g->sm[i].resident;
				if (!anyres)
					return stop(g, SIM_FAULT, "warpsim: error: kernel '%s': %" PRIu64 " CTAs cannot be "
					            "dispatched: every CTA slot is held by a CTA that exited with "
					            "EXIT.KEEPREFCOUNT\n", g->k->name, g->nctas - g->next_cta);
			}
			return stop(g, SIM_DEADLOCK, "warpsim: error: kernel '%s': deadlock: a barrier can never "
			            "be satisfied; waiting warps:\n", g->k->name);
		}
		if (maxc && g->cycle >= maxc)
			return stop(g, SIM_RUNAWAY, "warpsim: error: kernel '%s' did not finish within --max-cycles %"
			            PRIu64 " (%" PRIu64 " warp instructions); running warps:\n", g->k->name, maxc,
			            g->st.warp_insts);
		if (g->cfg.max_warp_insts && g->st.warp_insts >= g->cfg.max_warp_insts)
			return stop(g, SIM_RUNAWAY, "warpsim: error: kernel '%s' did not finish within "
			            "--max-warp-insts %" PRIu64 " (cycle %" PRIu64 "); running warps:\n",
			            g->k->name, g->cfg.max_warp_insts, g->cycle);
	}
}

void sim_stats_print(FILE *f, const SimStats *s)
{
	double eff = s->warp_insts ? 100.0 * (double)s->thread_insts / (32.0 * (double)s->warp_insts) : 0;

	fprintf(f, "warpsim statistics\n");
	fprintf(f, "  %-26s %" PRIu64 "\n", "issue rounds", s->cycles);
	fprintf(f, "  %-26s %" PRIu64 "\n", "warp instructions", s->warp_insts);
	fprintf(f, "  %-26s %" PRIu64 "\n", "thread instructions", s->thread_insts);
	fprintf(f, "  %-26s %.1f%%\n", "SIMD efficiency", eff);
	fprintf(f, "  %-26s %" PRIu64 "\n", "predicated-off lanes", s->pred_off);
	fprintf(f, "  %-26s %" PRIu64 "\n", "divergent branches", s->div_branches);
	fprintf(f, "  %-26s %" PRIu64 "\n", "reconvergences", s->reconvergences);
	fprintf(f, "  %-26s %d\n", "CRS high-water mark", s->crs_high);
	fprintf(f, "  %-26s %" PRIu64 "\n", "barriers released", s->barriers);
	fprintf(f, "  %-26s %" PRIu64 "\n", "CTAs", s->ctas);
	if (s->kept_ctas)
		fprintf(f, "  %-26s %" PRIu64 "\n", "CTAs kept (KEEPREFCOUNT)", s->kept_ctas);
}
