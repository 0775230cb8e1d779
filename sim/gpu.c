/* gpu.c - the machine around sim_issue: one GPU of N SMs, CTAs dispatched in linear order
 * onto free CTA slots (occupancy from timing.h, SMs taken round robin), and sim_run, the
 * cycle loop of the timing model: each SM's issue stage (sim/tsm.c) executes instructions
 * through the peek/exec callbacks below, the clock jumps to the least wake-up over all SMs
 * (or steps), runaway and deadlock detection, located run-time errors, trace records for a
 * TraceSink (trace.h), and the statistics. Per-slot state is allocated the first time a slot
 * is used, never inside the cycle loop. */
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <inttypes.h>
#include "sim/machine.h"

void sim_config_from_opts(SimConfig *c, const SimOpts *o)
{
	c->tc = o->tc;
	c->max_warp_insts = o->max_warp_insts;
	c->functional = o->functional;
	c->progress = 0;
	c->progress_after = o->progress_after;
	c->threads = o->threads;
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
			snprintf(g->err + n, sizeof g->err - n, ", pc 0x%04x: %s\n", sim_addr(g, g->cur), ins);
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

/* the threads of a CTA */
static uint32_t c_threads(const Gpu *g)
{
	return g->block[0] * g->block[1] * g->block[2];
}

static int slot_alloc(Gpu *g, SM *s, Cta *c)
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
		/* the zero and sink rows zero; cta_start clears the rows of Gpu.clr at every CTA,
		 * and every lane writes the others before it reads them, but for the lanes a
		 * partial warp lacks: its rows all zero; each row of 128 bytes two whole cache
		 * lines of 64 */
		int z = (uint32_t)(i + 1) * 32 > c_threads(g) ? 0 : g->zrow;
		size_t rsz = (size_t)g->rows * 32;
		w->r = g->regs ? g->regs + (((size_t)s->id * (size_t)g->slots + (size_t)c->slot) *
		                            (size_t)g->wpc + (size_t)i) * rsz
		               : aligned_alloc(64, rsz * sizeof *w->r);
		if (w->r)
			memset(w->r + (size_t)z * 32, 0, (size_t)(g->rows - z) * 32 * sizeof *w->r);
		w->crs = calloc((size_t)g->cfg.tc.crs_depth, sizeof *w->crs);
		w->crscap = g->cfg.tc.crs_depth;
		w->local = calloc((size_t)32 * g->locsize + 1, 1);
		if (!w->r || !w->crs || !w->local)
			return -1;
		w->cta = c;
		w->idx = i;
		w->gw = c->slot * g->wpc + i;
		s->warps[w->gw] = w;
	}
	c->nwarps = g->wpc;
	return 0;
}

static void event(Gpu *g, int kind, const Cta *c, const Warp *w, uint32_t pc)
{
	TraceEvent ev;

	if (!g->sink.event)
		return;
	ev.kind = (uint8_t)kind;
	ev.cycle = g->cycle;
	ev.sm = c->sm;
	ev.ctaid = (int)c->lin;
	ev.gwarp = w ? w->gw : -1;
	ev.warp = w ? w->idx : -1;
	ev.pc = pc;
	if (g->inwin)
		par_event(&g->sm[c->sm], &ev);     /* (a window's records wait for its end) */
	else
		g->sink.event(g->sink.ctx, &ev);
}

static void cta_start(Gpu *g, Cta *c, uint64_t lin)
{
	uint32_t threads = c_threads(g);
	TSm *m = &g->tsm[c->sm];

	c->busy = 1;
	c->keep = 0;
	c->lin = lin;
	c->id[0] = (uint32_t)(lin % g->grid[0]);
	c->id[1] = (uint32_t)(lin / g->grid[0] % g->grid[1]);
	c->id[2] = (uint32_t)(lin / ((uint64_t)g->grid[0] * g->grid[1]));
	c->nthreads = threads;
	c->nexited = 0;
	c->live = g->wpc;
	memset(c->shared, 0, g->shsize);
	memset(c->locks, 0, g->shsize / 4 + 1);
	memset(c->bar, 0, sizeof c->bar);
	if (g->hassink)
		event(g, TEV_CTA_START, c, NULL, 0);
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
		w->barwaited = 0;
		w->tready = g->cycle;
		memset(w->p, 0, sizeof w->p);
		w->p[ISA_PT] = 0xffffffffu;
		memset(w->cc, 0, sizeof w->cc);
		/* the rows a lane may read before it writes them (decode.c's clear_rows): the
		 * others, every lane writes first; the zero rows stay zero from slot_alloc (RZ as
		 * a destination is a sink row) and no operand reads a sink row */
		for (int j = 0; j < g->nclr; j++)
			memset(w->r + (size_t)g->clr[j][0] * 32, 0, (size_t)g->clr[j][1] * 32 * sizeof *w->r);
		memset(w->local, 0, (size_t)32 * g->locsize);
		if (g->hassink)
			event(g, TEV_WARP_START, c, w, 0);
	}
	if (!g->cfg.functional) {    /* (funcrun.c schedules without the timing model) */
		sim_tsm_add_cta(m, c->w[0].gw, g->wpc, c->slot, g->age);
		g->age += (uint64_t)g->wpc;
	}
}

/* SM i wakes at cycle now: the cycles it slept, each scheduler charged as stepping through
 * them would have (sim_tsm_cycle counts, per scheduler and cycle of an SM without live
 * warps, STALL_CTRL while the scheduler is busy after a path switch, else STALL_IDLE) */
static void wake_sm(Gpu *g, int i, uint64_t now)
{
	SM *s = &g->sm[i];
	const TSm *m = &g->tsm[i];

	if (s->asleep == UINT64_MAX)
		return;
	for (int k = 0; now > s->asleep && k < g->cfg.tc.schedulers; k++) {
		uint64_t busy = m->sfree[k] <= s->asleep ? 0 :
		                (m->sfree[k] < now ? m->sfree[k] : now) - s->asleep;
		g->ts.stall[STALL_CTRL] += busy;
		g->ts.stall[STALL_IDLE] += now - s->asleep - busy;
	}
	s->asleep = UINT64_MAX;
}

/* The window (docs/timing.md, "Windows"): the shortest way from an SM to anything another
 * SM can see, the L2 (hit, store or atomic) or, without an L2, the DRAM. Within a window no
 * SM can observe another, so the SMs could be simulated apart; the CTA dispatcher, which
 * sees every SM's slots, acts only at a window's start. */
uint64_t sim_window(const TimingConfig *c)
{
	int w = c->lat[LAT_ATOM];

	if (c->l2.enable && c->l2.latency < w)
		w = c->l2.latency;
	if (!c->l2.enable && c->lat[LAT_GLOBAL] < w)
		w = c->lat[LAT_GLOBAL];
	if (!c->l2.enable && c->lat[LAT_LOCAL] < w)
		w = c->lat[LAT_LOCAL];
	return w > 1 ? (uint64_t)w : 1;
}

/* fills free slots with the next CTAs, SMs taken round robin */
int sim_dispatch(Gpu *g)
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
				if (slot_alloc(g, s, c)) {
					snprintf(g->err, sizeof g->err, "warpsim: out of memory for a CTA slot\n");
					return SIM_FAULT;
				}
				wake_sm(g, s->id, g->cycle);
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

/* ---------------------------------------------------------------- the timing callbacks */
/* the warp's next instruction in timing form (a pc past the end: a harmless entry; the
 * issue then reports the fault) */
static const TInst *t_peek(void *ctx, int wi)
{
	SM *s = ctx;
	const Warp *w = s->warps[wi];

	return &s->g->tcode[w->pc < (uint32_t)s->g->ncode ? w->pc : (uint32_t)s->g->ncode];
}

/* local memory is interleaved per lane, as the hardware lays it out, so that the same
 * offset of 32 lanes is one contiguous block; each warp slot gets its own window */
#define LOCAL_TIMING_BASE 0x7e0000000000ull
#define CRS_TIMING_BASE 0x7f0000000000ull

static void fill_mem(Gpu *g, SM *s, const Warp *w, const ExecInfo *x, TExec *e)
{
	uint64_t lbase;

	e->size = x->size;
	e->kind = (uint8_t)((isa_ops[x->in->op].flags & F_ATOMIC) ? GM_ATOM :
	                    (isa_ops[x->in->op].flags & F_STORE) ? GM_STORE : GM_LOAD);
	e->amask = x->naddr;
	e->cop = (uint8_t)sim_cache_op(x->in, x->space == SP_LOCAL);
	switch (x->space) {
	case SP_GLOBAL:
		e->space = TSP_GLOBAL;
		/* one copy of every lane's (those without an address hold one of an earlier access,
		 * which the timing model reads only under amask) */
		memcpy(e->addr, x->addr, sizeof e->addr);
		break;
	case SP_SHARED:
		e->space = TSP_SHARED;
		if (x->naddr == ~0u) {          /* a full warp's: one copy when no lane is generic */
			uint64_t any = 0;
			for (int l = 0; l < 32; l++)
				any |= x->addr[l];
			_Static_assert(!(DEV_SHARED_WINDOW & (DEV_SHARED_WINDOW - 1)), "a power of two");
			if (any < DEV_SHARED_WINDOW) {
				memcpy(e->addr, x->addr, sizeof e->addr);
				break;
			}
		}
		for (uint32_t m = x->naddr; m; m &= m - 1) {
			uint64_t a = x->addr[__builtin_ctz(m)];
			e->addr[__builtin_ctz(m)] = a >= DEV_SHARED_WINDOW ? a - DEV_SHARED_WINDOW : a;
		}
		break;
	case SP_LOCAL:
		e->space = TSP_LOCAL;
		lbase = LOCAL_TIMING_BASE + ((uint64_t)s->id * TM_MAXWARPS + (uint64_t)w->gw) *
		        ((uint64_t)g->locsize * 32 + 256);
		for (uint32_t m = x->naddr; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			uint64_t a = x->addr[l];
			if (a >= DEV_LOCAL_WINDOW)
				a -= DEV_LOCAL_WINDOW;
			e->addr[l] = lbase + a * 32 + (uint64_t)l * x->size;
		}
		break;
	case SP_CONST:
		e->space = TSP_CONST;
		for (uint32_t m = x->naddr; m; m &= m - 1)
			e->addr[__builtin_ctz(m)] = x->addr[__builtin_ctz(m)];
		break;
	default:
		break;
	}
}

/* the slots a barrier release (by this issue) let go: the CTA's warps the timing model has
 * waiting that the core made ready, and the issuer when its own BAR waited and completed */
static uint64_t released(Gpu *g, SM *s, const Warp *w, int own)
{
	const Cta *c = w->cta;
	TSm *m = &g->tsm[s->id];
	uint64_t r = 0;

	for (int i = 0; i < c->nwarps; i++) {
		const Warp *v = &c->w[i];
		if (v->state != W_READY)
			continue;
		if ((v != w && m->atbar[v->gw]) || (v == w && own))
			r |= 1ull << v->gw;
	}
	return r;
}

/* what the exec callback hands over beyond the common fields: memory, CallReturnStack traffic, a path
 * switch, a barrier, an exit (bars: the barrier releases counted before the issue) */
void sim_texec_rare(Gpu *g, SM *s, Warp *w, const ExecInfo *x, TExec *e, uint64_t bars)
{
	const Cta *c = w->cta;

	sim_texec_rare_clear(e);
	if (x->spills || x->fills) {
		/* the warp's CRS area lies after its local memory in the timing's address space */
		e->crs_spills = x->spills;
		e->crs_fills = x->fills;
		e->crs_addr = CRS_TIMING_BASE + ((uint64_t)s->id * TM_MAXWARPS + (uint64_t)w->gw) *
		              (uint64_t)g->crsbytes + (uint64_t)x->crs_slot * CRS_TOKEN_BYTES;
	}
	e->switches = x->popped && w->state != W_DONE && w->active;
	if (x->space != SP_NONE)
		fill_mem(g, s, w, x, e);
	switch (x->event) {
	case EV_BAR_WAIT: e->event = TEX_BAR_WAIT; break;
	case EV_BAR_RELEASE: break;     /* the released mask below says which warps go */
	case EV_WARP_DONE: e->event = TEX_EXIT; break;
	default: break;
	}
	if (g->st.barriers != bars) {
		int own = (isa_ops[x->in->op].flags & F_BARRIER) && x->in->m.sub != SUB_ARV && x->exec;
		e->released = released(g, s, w, own);
	}
	if (e->released) {
		for (int i = 0; i < c->nwarps; i++)
			if (e->released >> c->w[i].gw & 1)
				c->w[i].barwaited = 1;
	}
}

/* a trace sink's records of an issue (stall: cycles the warp waited, why: the reason) */
static void t_exec_sink(Gpu *g, SM *s, Warp *w, const ExecInfo *x, const TExec *e, int rare,
                        uint32_t stall, int why)
{
	const Cta *c = w->cta;
	uint64_t now = g->cycle;

	if (g->sink.issue) {
		TraceIssue t = { x, now, (int)c->lin, w->gw, stall, (uint8_t)why };
		if (g->inwin)
			par_issue(s, &t);
		else
			g->sink.issue(g->sink.ctx, &t);
	}
	if (!rare)
		return;                 /* (no barrier, no exit) */
	if (e->event == TEX_BAR_WAIT)
		event(g, TEV_BAR_WAIT, c, w, x->pc);
	for (int i = 0; i < c->nwarps; i++)
		if (e->released >> c->w[i].gw & 1)
			event(g, TEV_BAR_RELEASE, c, &c->w[i], sim_addr(g, c->w[i].pc));
	if (e->event == TEX_EXIT) {
		event(g, TEV_WARP_DONE, c, w, x->pc);
		if (c->live == 0)
			event(g, TEV_CTA_DONE, c, NULL, 0);
	}
}

/* the exec callback with a trace sink or after a fault (sim_texec, exec.c, the common one):
 * sim_issue, and what the timing needs of it (returns 1 when e's rare fields are set) */
int sim_texec_full(void *ctx, int wi, TExec *e)
{
	SM *s = ctx;
	Gpu *g = s->g;
	Warp *w = s->warps[wi];
	ExecInfo *x = &g->info;
	IssueMark mk = sim_issue_mark(g);
	uint64_t now = g->cycle;
	uint32_t stall = 0;
	int why = STALL_NONE, rc, rare;

	if (g->rc != SIM_OK)            /* a fault stopped the run: nothing more executes */
		return sim_texec_hand(g, s, w, x, e, &mk, g->rc);
	/* (the second of a dual issue comes in the cycle after tready's: it did not wait) */
	if (g->hassink && now > w->tready && (stall = (uint32_t)(now - w->tready)) != 0) {
		why = sim_tsm_why(&g->tsm[s->id], t_peek(ctx, wi), wi, now - 1);
		if (w->barwaited && (why == STALL_CTRL || why == STALL_NONE))
			why = STALL_BARRIER;
	}
	g->cur = w->pc;
	if ((rc = sim_issue(g, s, w, x)) != SIM_OK) {
		g->rc = rc;
		return sim_texec_hand(g, s, w, x, e, &mk, rc);
	}
	if (g->hassink) {           /* (what only the trace's stall reason reads) */
		w->tready = now + 1;
		w->barwaited = 0;
	}
	rare = sim_texec_hand(g, s, w, x, e, &mk, rc);
	if (g->hassink)
		t_exec_sink(g, s, w, x, e, rare, stall, why);
	return rare;
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
	/* every binding once (texture and surface objects by handle), then the kernel's slots */
	if (dev_binds_init(&g->binds, m, l) ||
	    (k->ntex && !(g->tex = calloc((size_t)k->ntex, sizeof *g->tex))) ||
	    (k->nsurf && !(g->surf = calloc((size_t)k->nsurf, sizeof *g->surf))))
		goto oom;
	if (dev_binds_kernel(&g->binds, l, k, g->tex, g->surf, err))
		goto fail;
	g->shsize = k->shared + l->shared_bytes;
	g->locsize = dev_local_bytes(k, l);
	g->crsbytes = l->crs_bytes;
	if (sim_heap_place(k, m, l) || sim_cdp_place(g, k, m, l))
		goto oom;
	g->launch = l;
	g->wpc = (int)((threads + 31) / 32);
	g->nctas = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
	if (sim_occupancy(&cfg->tc, (int)threads, k->regs ? k->regs : g->zrow - 3, g->shsize, &occ,
	                  msg, sizeof msg)) {
		fprintf(err, "warpsim: kernel '%s': a CTA does not fit on an SM: %s\n", k->name, msg);
		goto fail;
	}
	if (l->cooperative && g->nctas > (uint64_t)occ.ctas * (uint64_t)cfg->tc.sms) {
		/* cudaLaunchCooperativeKernel's rule: every CTA co-resident, at most the occupancy's
		 * CTAs per SM times the SMs (cudaErrorCooperativeLaunchTooLarge) */
		fprintf(err, "warpsim: kernel '%s': --cooperative: a grid of %" PRIu64 " CTAs cannot be "
		        "co-resident: at most %d CTAs per SM (bound by %s) x %d SMs = %" PRIu64 " "
		        "(CUDA: cudaErrorCooperativeLaunchTooLarge)\n", k->name, g->nctas, occ.ctas,
		        sim_occ_limit_name(occ.limit), cfg->tc.sms, (uint64_t)occ.ctas * cfg->tc.sms);
		goto fail;
	}
	g->slots = occ.ctas;
	g->occ = occ;
	g->ts.occ = occ;
	g->rc = SIM_OK;
	sim_dram_init(&g->dram, cfg->tc.dram_bw);
	if (cfg->tc.l2.enable && sim_cache_init(&g->l2, &cfg->tc.l2, msg, sizeof msg)) {
		fprintf(err, "warpsim: --l2: %s\n", msg);
		goto fail;
	}
	if ((g->tsm = dev_huge_alloc((size_t)cfg->tc.sms * sizeof *g->tsm)))
		memset(g->tsm, 0, (size_t)cfg->tc.sms * sizeof *g->tsm);
	else
		g->tsm = calloc((size_t)cfg->tc.sms, sizeof *g->tsm);
	/* (every slot's rows, 64-byte aligned: a row is 128 bytes) */
	g->regs = dev_huge_alloc((size_t)cfg->tc.sms * (size_t)g->slots * (size_t)g->wpc * (size_t)g->rows *
	                     32 * sizeof *g->regs);
	if (!(g->sm = calloc((size_t)cfg->tc.sms, sizeof *g->sm)) || !g->tsm ||
	    !(g->src = calloc((size_t)cfg->tc.sms, sizeof *g->src)))
		goto oom;
	for (int i = 0; i < cfg->tc.sms; i++) {
		SM *s = &g->sm[i];
		if (sim_tsm_init(&g->tsm[i], &g->cfg.tc, cfg->tc.l2.enable ? &g->l2 : NULL, &g->dram,
		                 &g->ts, msg, sizeof msg)) {
			fprintf(err, "warpsim: --l1: %s\n", msg);
			goto fail;
		}
		g->tsm[i].sbtop = g->sbtop;   /* (decoded above) */
		g->src[i].ctx = s;
		g->src[i].peek = t_peek;
		g->src[i].exec = sim_texec;
		g->src[i].flow = sim_tflow;
		s->g = g;
		s->id = i;
		s->asleep = UINT64_MAX;
		if (!(s->slots = calloc((size_t)g->slots, sizeof *s->slots)))
			goto oom;
		s->nwarps = g->slots * g->wpc;   /* (at most max_warps: the occupancy) */
		assert(s->nwarps <= TM_MAXWARPS);
		s->warps = s->lean.warps;
		g->src[i].lean = &s->lean;
		for (int j = 0; j < g->slots; j++) {
			s->slots[j].sm = i;
			s->slots[j].slot = j;
		}
	}
	g->need_dispatch = 1;
	g->window = sim_window(&cfg->tc);
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
	free(g->tex);
	dev_binds_free(&g->binds);
	free(g->surf);
	for (int i = 0; g->sm && i < g->cfg.tc.sms; i++) {
		SM *s = &g->sm[i];
		for (int j = 0; s->slots && j < g->slots; j++) {
			Cta *c = &s->slots[j];
			for (int k = 0; c->w && k < c->nwarps; k++) {
				if (!g->regs)
					free(c->w[k].r);
				free(c->w[k].crs);
				free(c->w[k].local);
			}
			free(c->w);
			free(c->shared);
			free(c->locks);
		}
		free(s->slots);
		par_free(&s->q);
	}
	for (int i = 0; g->tsm && i < g->cfg.tc.sms; i++)
		sim_tsm_free(&g->tsm[i]);
	free(g->tsm);
	free(g->regs);
	free(g->src);
	free(g->tcode);
	sim_cache_free(&g->l2);
	free(g->sm);
	free(g->code);
	free(g->tl);
	free(g->clr);
	if (g->cdp)
		dev_cdp_free(g->cdp);
	free(g->cdp);
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
					n += (size_t)snprintf(g->err + n, sizeof g->err - n, "pc 0x%04x", sim_addr(g, pc));
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

int sim_stop(Gpu *g, int kind, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	for (int i = 0; i < g->cfg.tc.sms; i++)
		wake_sm(g, i, g->cycle);
	va_start(ap, fmt);
	n = (size_t)vsnprintf(g->err, sizeof g->err, fmt, ap);
	va_end(ap);
	if (n < sizeof g->err)
		list_warps(g, n, kind == SIM_DEADLOCK ? W_BAR : W_READY, 16);
	return kind;
}

int sim_stuck(Gpu *g)
{
	if (g->next_cta < g->nctas) {
		int anyres = 0;
		for (int i = 0; i < g->cfg.tc.sms; i++)
			anyres |= g->sm[i].resident;
		if (!anyres)
			return sim_stop(g, SIM_FAULT, "warpsim: error: kernel '%s': %" PRIu64 " CTAs cannot be "
			                "dispatched: every CTA slot is held by a CTA that exited with "
			                "EXIT.KEEPREFCOUNT\n", g->k->name, g->nctas - g->next_cta);
	}
	return sim_stop(g, SIM_DEADLOCK, "warpsim: error: kernel '%s': deadlock: a barrier can never "
	                "be satisfied; waiting warps:\n", g->k->name);
}

static void finish(Gpu *g)
{
	uint64_t end = 0;

	for (int i = 0; i < g->cfg.tc.sms; i++)
		if (g->tsm[i].end > end)
			end = g->tsm[i].end;
	g->ts.cycles = end;
	g->ts.ctas = g->st.ctas;
	g->ts.dram_bytes = g->dram.bytes;
	g->st.cycles = end;
	if (g->hassink && g->sink.end)
		g->sink.end(g->sink.ctx, end);
}

/* SM i through the cycles [from, to) of a window, each one it needs (its own wake-ups; every
 * cycle when skipping is off), the skipped cycles' stalls charged as stepping would. It
 * stops early when it has no live warp (asleep), when no warp of it can ever issue again by
 * itself (parked: the window's end charges the rest), or at a fault (g->fault keeps the
 * earliest by (cycle, SM)). */
void sim_run_sm(Gpu *g, int i, uint64_t from, uint64_t to)
{
	SM *s = &g->sm[i];
	uint64_t t;

	if (s->asleep != UINT64_MAX || s->parked)
		return;
	switch (sim_tsm_run(&g->tsm[i], &g->src[i], from, to, &g->cycle, &g->rc, &s->lastc)) {
	case TRUN_FAULT:
		t = s->lastc;
		if (t < g->fault.cycle || (t == g->fault.cycle && i < g->fault.sm)) {
			g->fault.cycle = t;
			g->fault.sm = i;
			g->fault.rc = g->rc;
			memcpy(g->fault.err, g->err, sizeof g->err);
		}
		g->rc = SIM_OK;
		s->parked = 1;          /* (the run ends at this window's merge) */
		break;
	case TRUN_ASLEEP:
		s->asleep = s->lastc + 1;
		break;
	case TRUN_PARKED:
		s->parked = 1;
		break;
	}
}

/* The cycle loop (docs/timing.md, "Integration", "Windows" and "Threads"): window after
 * window, the CTA dispatcher at its start, then every SM through it alone (sim_run_sm, on
 * the pool's threads), then the merge: what the SMs queued (requests past L1, global stores
 * and atomics, printf lines, trace records) in the order (cycle, SM, position), the threads'
 * counters added up, and the limits and the end checked. */
static int windows(Gpu *g, ParPool *pool, uint64_t maxc)
{
	uint64_t w0 = g->cycle;
	int nsm = g->cfg.tc.sms;

	for (;;) {
		uint64_t end = (w0 / g->window + 1) * g->window, last = 0;
		int live = 0;

		g->cycle = w0;
		if (g->cfg.progress && !(++g->prog.tick & 3))
			sim_progress(g, 0);
		if (g->need_dispatch && sim_dispatch(g))
			return SIM_FAULT;
		if (maxc && end > maxc)
			end = maxc;
		par_pool_run(pool, w0, end);
		par_pool_fault(pool);
		par_merge(g, g->fault.cycle, g->fault.sm);
		sim_tq_merge(g->tsm, nsm);
		par_pool_fold(pool);
		if (g->fault.cycle != UINT64_MAX) {
			memcpy(g->err, g->fault.err, sizeof g->err);
			return g->rc = g->fault.rc;
		}
		/* the last cycle any SM needed; SMs that can go on */
		for (int i = 0; i < nsm; i++) {
			const SM *s = &g->sm[i];
			uint64_t l = s->asleep != UINT64_MAX ? s->asleep - 1 : s->lastc;
			if (l > last)
				last = l;
			live += s->asleep == UINT64_MAX && !s->parked;
		}
		if (g->done_ctas == g->nctas) {
			/* every SM's schedulers charged to the run's end (finish's), past the last
			 * cycle stepped when the last results land after the last EXIT: each
			 * scheduler-cycle of gpu_sim_cycle is an issue or a stall */
			for (int i = 0; i < nsm; i++)
				if (g->tsm[i].end > last + 1)
					last = g->tsm[i].end - 1;
			for (int i = 0; i < nsm; i++)
				wake_sm(g, i, last + 1);
			break;
		}
		if (!live && !(g->need_dispatch && g->next_cta < g->nctas)) {
			g->cycle = last + 1;
			return sim_stuck(g);
		}
		for (int i = 0; i < nsm; i++)
			if (g->sm[i].parked) {
				/* it stepped lastc; end - 1 is the window's last cycle */
				sim_tsm_charge(&g->tsm[i], &g->src[i], g->sm[i].lastc, end);
				g->sm[i].parked = 0;
			}
		par_pool_fold(pool);
		if (maxc && end >= maxc) {
			g->cycle = maxc;
			return sim_stop(g, SIM_RUNAWAY, "warpsim: error: kernel '%s' did not finish within --max-cycles %"
			            PRIu64 " (%" PRIu64 " warp instructions); running warps:\n", g->k->name, maxc,
			            g->st.warp_insts);
		}
		if (g->cfg.max_warp_insts && g->st.warp_insts >= g->cfg.max_warp_insts)
			return sim_stop(g, SIM_RUNAWAY, "warpsim: error: kernel '%s' did not finish within "
			            "--max-warp-insts %" PRIu64 " (cycle %" PRIu64 "); running warps:\n",
			            g->k->name, g->cfg.max_warp_insts, end);
		w0 = end;
	}
	finish(g);
	return SIM_DONE;
}

static int run_timed(Gpu *g, uint64_t maxc)
{
	ParPool *pool;
	int rc;

	g->defer = 1;
	for (int i = 0; i < g->cfg.tc.sms; i++) {
		g->tsm[i].defer = 1;
		if (g->trace || g->hassink)     /* (they read every issue) */
			g->src[i].lean = NULL;
	}
	if (!(pool = par_pool_new(g, g->cfg.threads))) {
		snprintf(g->err, sizeof g->err, "warpsim: --threads: cannot start %d threads\n", g->cfg.threads);
		return SIM_FAULT;
	}
	rc = windows(g, pool, maxc);
	par_pool_free(pool);
	return rc;
}

int sim_run(Gpu *g, uint64_t max_cycles)
{
	uint64_t maxc = max_cycles ? max_cycles : (uint64_t)g->cfg.tc.max_cycles;
	int rc = g->cfg.functional ? sim_run_functional(g, maxc) : run_timed(g, maxc);

	if (rc == SIM_DONE && g->cdp && g->cdpdepth == 0)   /* the child grids (exec_cdp.c) */
		rc = sim_cdp_children(g, maxc);

	sim_progress(g, 1);     /* the progress line goes before any message */
	return rc;
}

void sim_gpu_set_sink(Gpu *g, const TraceSink *s)
{
	g->hassink = s != NULL;
	if (s)
		g->sink = *s;
	else
		memset(&g->sink, 0, sizeof g->sink);
}

const TStats *sim_gpu_tstats(const Gpu *g) { return &g->ts; }

void sim_tstats_add(TStats *to, const TStats *from)
{
	TStats t = *from;

	to->cycles += t.cycles;      /* (launches on one stream run one after another) */
	to->dram_bytes += t.dram_bytes;
	to->ctas += t.ctas;
	par_add_tstats(to, &t);
}
void sim_gpu_prog(Gpu *g, const Prog *p) { g->program = p; }

void sim_gpu_printf(Gpu *g, FILE *f, int tag)
{
	g->pout = f;
	g->ptag = tag;
}
