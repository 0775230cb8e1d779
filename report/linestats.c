/* linestats.c - --line-stats: where divergence cost time, per source line. Accumulates per
 * microcode instruction while the run goes (a TraceSink), then sums the instructions of each
 * CUDA source line (.loc), each PTX line (file and line in a program linked from several
 * PTX files: Ins.ptxfile), and each listing line, like GPGPU-Sim's
 * gpgpu_inst_stats.txt but mapped back to the source. Instructions without a line at some
 * level are summed in a row of line 0, so every level adds up to the run's totals.
 * Output: an aligned text table with the source text beside each line, or CSV. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"

typedef struct {
	uint64_t warp_insts, active, exec, pred_off, div, rcv;  /* as in LineRow */
	uint64_t entries[LS_COUNT];    /* issues that began a run of the line, per level */
	uint64_t stall[STALL_COUNT];   /* stall cycles before its issues */
} InsAcc;

typedef struct {
	int cta, warp;                 /* the warp in the slot (-1: none yet) */
	int64_t last[LS_COUNT];        /* key of the line it last issued from, per level */
} SlotState;

struct LineStats {
	const Kernel *k;               /* the kernel */
	const Prog *p;                 /* its program (CUDA file names) */
	InsAcc *acc;                   /* per instruction */
	SlotState *slot;               /* per sm * TM_MAXWARPS + warp slot */
	int nslot;
	LineRow *rows[LS_COUNT];       /* built on demand */
	int nrows[LS_COUNT];
	int oom;                       /* an allocation failed: the numbers are incomplete */
};

/* the line key of an instruction at a level: file << 32 | line, 0 when it has none (the PTX
 * file is 0 but in a program linked from several) */
static int64_t key(const Ins *in, int lv)
{
	switch ((LineLevel)lv) {
	case LS_CUDA: return in->srcline > 0 ? (int64_t)(in->srcfile + 1) << 32 | in->srcline : 0;
	case LS_PTX: return in->ptxline > 0 ? (int64_t)in->ptxfile << 32 | in->ptxline : 0;
	case LS_LISTING: return in->line > 0 ? in->line : 0;
	case LS_COUNT: break;
	}
	return 0;
}

static SlotState *slot(LineStats *ls, int sm, int gwarp)
{
	int i;

	if (sm < 0 || gwarp < 0 || gwarp >= TM_MAXWARPS)
		return NULL;
	i = sm * TM_MAXWARPS + gwarp;
	if (i >= ls->nslot) {
		int n = (sm + 8) * TM_MAXWARPS;
		SlotState *s = realloc(ls->slot, (size_t)n * sizeof *s);
		if (!s) {
			ls->oom = 1;
			return NULL;
		}
		for (int j = ls->nslot; j < n; j++) {
			s[j].cta = s[j].warp = -1;
			for (int lv = 0; lv < LS_COUNT; lv++)
				s[j].last[lv] = -1;
		}
		ls->slot = s;
		ls->nslot = n;
	}
	return &ls->slot[i];
}

static void ls_issue(void *ctx, const TraceIssue *t)
{
	LineStats *ls = ctx;
	const ExecInfo *e = t->e;
	uint32_t i = (uint32_t)isa_kernel_index(ls->k, e->pc);   /* -1: past the end */
	SlotState *s = slot(ls, e->sm, t->gwarp);
	InsAcc *a;

	if (i >= (uint32_t)ls->k->nins || !s)
		return;
	a = &ls->acc[i];
	if (s->cta != t->ctaid || s->warp != e->warp) {     /* a new warp in the slot */
		s->cta = t->ctaid;
		s->warp = e->warp;
		for (int lv = 0; lv < LS_COUNT; lv++)
			s->last[lv] = -1;
	}
	for (int lv = 0; lv < LS_COUNT; lv++) {
		int64_t kk = key(&ls->k->ins[i], lv);
		if (kk != s->last[lv])
			a->entries[lv]++;
		s->last[lv] = kk;
	}
	a->warp_insts++;
	a->active += (uint64_t)__builtin_popcount(e->active);
	a->exec += (uint64_t)__builtin_popcount(e->exec & e->active);
	a->pred_off += (uint64_t)__builtin_popcount(e->active & ~e->exec);
	a->div += e->diverged != 0;
	a->rcv += e->reconverged != 0;
	if (t->stall_reason < STALL_COUNT)
		a->stall[t->stall_reason] += t->stall_cycles;
}

static void ls_event(void *ctx, const TraceEvent *ev)
{
	LineStats *ls = ctx;
	SlotState *s;

	if (ev->kind == TEV_WARP_START && (s = slot(ls, ev->sm, ev->gwarp))) {
		s->cta = ev->ctaid;
		s->warp = ev->warp;
		for (int lv = 0; lv < LS_COUNT; lv++)
			s->last[lv] = -1;
	}
}

LineStats *rp_linestats_new(const Kernel *k, const Prog *p)
{
	LineStats *ls = calloc(1, sizeof *ls);

	if (!ls)
		return NULL;
	ls->k = k;
	ls->p = p;
	if (!(ls->acc = calloc((size_t)(k->nins ? k->nins : 1), sizeof *ls->acc))) {
		free(ls);
		return NULL;
	}
	return ls;
}

void rp_linestats_sink(LineStats *ls, TraceSink *s)
{
	s->issue = ls_issue;
	s->event = ls_event;
	s->end = NULL;
	s->ctx = ls;
}

/* the program was linked from several PTX files: PTX rows name theirs */
static int linked(const LineStats *ls)
{
	return ls->p && ls->p->nptxfiles > 1;
}

static int rowcmp(const void *a, const void *b)
{
	const LineRow *x = a, *y = b;
	if (x->file != y->file)
		return (x->file > y->file) - (x->file < y->file);
	return (x->line > y->line) - (x->line < y->line);
}

const LineRow *rp_linestats_rows(LineStats *ls, LineLevel lv, int *n)
{
	const Kernel *k = ls->k;

	if (!ls->rows[lv]) {
		LineRow *r = calloc((size_t)(k->nins ? k->nins : 1), sizeof *r);
		int m = 0;
		if (!r) {
			*n = 0;
			return NULL;
		}
		for (int i = 0; i < k->nins; i++) {
			const InsAcc *a = &ls->acc[i];
			int64_t kk = key(&k->ins[i], lv);
			int file = !kk ? -1 : lv == LS_CUDA ? (int)(kk >> 32) - 1 : lv == LS_PTX && linked(ls) ?
			           (int)(kk >> 32) : -1, line = (int)(kk & 0xffffffff);
			int j;
			if (!a->warp_insts && kk)
				continue;          /* lines never executed are not listed */
			for (j = 0; j < m && (r[j].file != file || r[j].line != line); j++)
				;
			if (j == m) {
				r[m].level = lv;
				r[m].file = file;
				r[m].line = line;
				m++;
			}
			r[j].execs += a->entries[lv];
			r[j].warp_insts += a->warp_insts;
			r[j].active_lanes += a->active;
			r[j].exec_lanes += a->exec;
			r[j].pred_off += a->pred_off;
			r[j].div_branches += a->div;
			r[j].reconv += a->rcv;
			for (int s = 0; s < STALL_COUNT; s++)
				r[j].stall[s] += a->stall[s];
		}
		/* the unattributed row only when it holds something */
		for (int j = 0; j < m; j++)
			if (r[j].line == 0 && !r[j].warp_insts) {
				r[j] = r[--m];
				break;
			}
		qsort(r, (size_t)m, sizeof *r, rowcmp);
		ls->rows[lv] = r;
		ls->nrows[lv] = m;
	}
	*n = ls->nrows[lv];
	return ls->rows[lv];
}

void rp_linestats_ins(const LineStats *ls, int i, LineRow *r)
{
	const InsAcc *a = &ls->acc[i];

	memset(r, 0, sizeof *r);
	r->level = LS_LISTING;
	r->file = -1;
	r->line = i;
	r->execs = a->entries[LS_LISTING];
	r->warp_insts = a->warp_insts;
	r->active_lanes = a->active;
	r->exec_lanes = a->exec;
	r->pred_off = a->pred_off;
	r->div_branches = a->div;
	r->reconv = a->rcv;
	memcpy(r->stall, a->stall, sizeof r->stall);
}

int rp_lines_load(RpLines *L, const char *path)
{
	FILE *f = path ? fopen(path, "rb") : NULL;
	size_t len = 0, cap = 0;
	int c;

	memset(L, 0, sizeof *L);
	if (!f)
		return -1;
	while ((c = getc(f)) != EOF) {
		if (len + 2 > cap) {
			char *p = realloc(L->text, cap = cap ? 2 * cap : 4096);
			if (!p)
				break;
			L->text = p;
		}
		L->text[len++] = (char)c;
	}
	fclose(f);
	if (!L->text)
		return -1;
	L->text[len] = 0;
	for (size_t i = 0; i <= len; i++)
		if (i == 0 || L->text[i - 1] == 0) {
			char **p = realloc(L->line, (size_t)(L->n + 1) * sizeof *p);
			if (!p)
				break;
			L->line = p;
			L->line[L->n++] = L->text + i;
			char *nl = strchr(L->text + i, '\n');
			if (!nl)
				break;
			*nl = 0;
			if (nl > L->text + i && nl[-1] == '\r')
				nl[-1] = 0;
		}
	return 0;
}

/* line n trimmed to at most 60 characters, tabs as blanks, in buf */
static const char *lines_get(const RpLines *L, int n, char *buf, size_t size)
{
	const char *s;
	size_t m = 0;

	if (!L->text || n < 1 || n > L->n)
		return "";
	for (s = L->line[n - 1]; *s == ' ' || *s == '\t'; s++)
		;
	for (; *s && m + 1 < size && m < 60; s++)
		buf[m++] = *s == '\t' ? ' ' : *s;
	while (m && buf[m - 1] == ' ')
		m--;
	buf[m] = 0;
	return buf;
}

const char *rp_lines_at(const RpLines *L, int n)
{
	return L->text && n >= 1 && n <= L->n ? L->line[n - 1] : "";
}

void rp_lines_free(RpLines *L)
{
	free(L->text);
	free(L->line);
	memset(L, 0, sizeof *L);
}

void rp_lines_cuda(RpLines *L, const char *name, const char *program)
{
	char path[2048];
	const char *slash = program ? strrchr(program, '/') : NULL, *base = strrchr(name, '/');

	if (!rp_lines_load(L, name))
		return;
	if (!program)
		return;
	snprintf(path, sizeof path, "%.*s%s", slash ? (int)(slash - program + 1) : 0, program, name);
	if (!rp_lines_load(L, path))
		return;
	snprintf(path, sizeof path, "%.*s%s", slash ? (int)(slash - program + 1) : 0, program,
	         base ? base + 1 : name);
	rp_lines_load(L, path);
}

static const char *stallcol[STALL_COUNT] = {
	[STALL_NONE] = "ready", [STALL_RAW_ALU] = "raw_alu", [STALL_RAW_MEM] = "raw_mem",
	[STALL_PIPE] = "pipe", [STALL_CTRL] = "control", [STALL_BARRIER] = "barrier",
	[STALL_IDLE] = "idle",
};

static void csv_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* the PTX file CUDA file `file` is looked for beside: in a linked program, the PTX file of
 * the first instruction with a line of it; else program */
static const char *cuda_beside(const LineStats *ls, int file, const char *program)
{
	for (int i = 0; linked(ls) && i < ls->k->nins; i++)
		if (ls->k->ins[i].srcline > 0 && ls->k->ins[i].srcfile == file &&
		    ls->k->ins[i].ptxfile >= 0 && ls->k->ins[i].ptxfile < ls->p->nptxfiles)
			return ls->p->ptxfiles[ls->k->ins[i].ptxfile];
	return program;
}

static const char *levelname[LS_COUNT] = {[LS_CUDA] = "cuda", [LS_PTX] = "ptx", [LS_LISTING] = "listing"};

int rp_linestats_add(LineStats *to, const LineStats *from)
{
	if (to->k != from->k)
		return -1;
	for (int i = 0; i < to->k->nins; i++) {
		InsAcc *a = &to->acc[i];
		const InsAcc *b = &from->acc[i];
		a->warp_insts += b->warp_insts;
		a->active += b->active;
		a->exec += b->exec;
		a->pred_off += b->pred_off;
		a->div += b->div;
		a->rcv += b->rcv;
		for (int lv = 0; lv < LS_COUNT; lv++)
			a->entries[lv] += b->entries[lv];
		for (int st = 0; st < STALL_COUNT; st++)
			a->stall[st] += b->stall[st];
	}
	to->oom |= from->oom;
	for (int lv = 0; lv < LS_COUNT; lv++) {     /* the rows are built anew */
		free(to->rows[lv]);
		to->rows[lv] = NULL;
	}
	return 0;
}

void rp_linestats_print(LineStats *ls, FILE *f, const char *program, int csv)
{
	RpLsPart part = {NULL, 1, "", ""};

	rp_linestats_print_part(ls, f, program, csv, &part);
}

void rp_linestats_print_part(LineStats *ls, FILE *f, const char *program, int csv,
                             const RpLsPart *part)
{
	int isptx = program && strlen(program) > 4 && !strcmp(program + strlen(program) - 4, ".ptx");
	RpLines prog, *cuda = ls->p && ls->p->nfiles ? calloc((size_t)ls->p->nfiles, sizeof *cuda) : NULL;
	int nptx = linked(ls) ? ls->p->nptxfiles : 0;
	RpLines *ptx = nptx ? calloc((size_t)nptx, sizeof *ptx) : NULL;   /* a linked program's files */
	char buf[80], names[400] = "";

	rp_lines_load(&prog, program);
	for (int i = 0; i < nptx; i++)      /* the header names every file of a linked program */
		snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? " + " : "",
		         ls->p->ptxfiles[i]);
	if (csv && part->csvhead) {
		fprintf(f, "%slevel,file,line,executions,warp_insts,thread_insts,mean_active_lanes,exec_lanes,"
		        "divergent_branches,reconvergences,predicated_off_lanes", part->csvhead);
		for (int s = 0; s < STALL_COUNT; s++)
			fprintf(f, ",stall_%s", stallcol[s]);
		fprintf(f, ",source\n");
	} else if (!csv) {
		if (part->title)
			fprintf(f, "warpsim line statistics: %s%s%s%s\n", part->title, program ? " (" : "",
			        nptx ? names : program ? program : "", program ? ")" : "");
		else
			fprintf(f, "warpsim line statistics: kernel '%s'%s%s%s\n", ls->k->name, program ? " (" : "",
			        nptx ? names : program ? program : "", program ? ")" : "");
		if (part->legend)
			fprintf(f, "  execs: times a warp entered the line's code; warp_insts: warp instructions issued from it;\n"
			        "  mean_act: mean active lanes per warp instruction; div: branches that split the warp;\n"
			        "  reconv: reconvergences; pred_off: active lanes whose guard was false;\n"
			        "  stall columns: cycles warps waited before issuing the line's instructions, by reason\n"
			        "  (ready: able to issue but another warp was chosen). (no line): code with no line at that level.\n");
	}
	if (ls->oom)
		fprintf(f, csv ? "# out of memory: the numbers are incomplete\n" :
		        "warning: out of memory during the run: the numbers are incomplete\n");
	for (int lv = 0; lv < LS_COUNT; lv++) {
		int n, any = 0;
		const LineRow *r = rp_linestats_rows(ls, (LineLevel)lv, &n);
		for (int i = 0; i < n; i++)
			any |= r[i].line != 0;
		if (!any)
			continue;
		if (!csv) {
			fprintf(f, "\n%s\n", lv == LS_CUDA ? "By CUDA source line" : lv == LS_PTX ? "By PTX line" :
			        "By listing line");
			fprintf(f, "%-20s %8s %10s %8s %6s %6s %8s", "line", "execs", "warp_insts", "mean_act",
			        "div", "reconv", "pred_off");
			for (int s = 0; s < STALL_COUNT; s++)
				fprintf(f, " %8s", stallcol[s]);
			fprintf(f, "  source\n");
		}
		for (int i = 0; i < n; i++) {
			const LineRow *x = &r[i];
			const char *fname = x->file >= 0 && ls->p && x->file < ls->p->nfiles ? ls->p->files[x->file] : "";
			const char *pname = lv == LS_PTX && x->file >= 0 && x->file < nptx ? ls->p->ptxfiles[x->file] : NULL;
			const char *src = "";
			char lab[48];
			double mean = x->warp_insts ? (double)x->active_lanes / (double)x->warp_insts : 0.0;
			if (lv == LS_CUDA && cuda && x->file >= 0 && x->file < ls->p->nfiles) {
				if (!cuda[x->file].text && !cuda[x->file].line)
					rp_lines_cuda(&cuda[x->file], fname, cuda_beside(ls, x->file, program));
				src = lines_get(&cuda[x->file], x->line, buf, sizeof buf);
			} else if (pname && ptx) {
				if (!ptx[x->file].text && !ptx[x->file].line)
					rp_lines_load(&ptx[x->file], pname);
				src = lines_get(&ptx[x->file], x->line, buf, sizeof buf);
			} else if ((lv == LS_PTX) == isptx && lv != LS_CUDA)
				src = lines_get(&prog, x->line, buf, sizeof buf);
			if (csv) {
				fprintf(f, "%s%s,", part->csvpre, levelname[lv]);
				csv_str(f, lv == LS_CUDA ? fname : pname ? pname : program && (lv == LS_PTX) == isptx ? program : "");
				fprintf(f, ",%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.2f,%" PRIu64 ",%" PRIu64 ",%" PRIu64
				        ",%" PRIu64, x->line, x->execs, x->warp_insts, x->active_lanes, mean, x->exec_lanes,
				        x->div_branches, x->reconv, x->pred_off);
				for (int s = 0; s < STALL_COUNT; s++)
					fprintf(f, ",%" PRIu64, x->stall[s]);
				fputc(',', f);
				csv_str(f, src);
				fputc('\n', f);
				continue;
			}
			if (!x->line)
				snprintf(lab, sizeof lab, "(no line)");
			else if (lv == LS_CUDA) {
				const char *b = strrchr(fname, '/');
				snprintf(lab, sizeof lab, "%.20s:%d", b ? b + 1 : fname, x->line);
			} else if (pname) {
				const char *b = strrchr(pname, '/');
				snprintf(lab, sizeof lab, "%.20s:%d", b ? b + 1 : pname, x->line);
			} else
				snprintf(lab, sizeof lab, "%d", x->line);
			fprintf(f, "%-20s %8" PRIu64 " %10" PRIu64 " %8.2f %6" PRIu64 " %6" PRIu64 " %8" PRIu64, lab,
			        x->execs, x->warp_insts, mean, x->div_branches, x->reconv, x->pred_off);
			for (int s = 0; s < STALL_COUNT; s++)
				fprintf(f, " %8" PRIu64, x->stall[s]);
			fprintf(f, "%s%s\n", *src ? "  " : "", src);
		}
	}
	rp_lines_free(&prog);
	for (int i = 0; cuda && i < ls->p->nfiles; i++)
		rp_lines_free(&cuda[i]);
	free(cuda);
	for (int i = 0; ptx && i < nptx; i++)
		rp_lines_free(&ptx[i]);
	free(ptx);
}

int rp_linestats_write_by(const char *path, int (*print)(void *arg, FILE *f, int csv), void *arg,
                          char *err, size_t errsz)
{
	size_t n = strlen(path);
	FILE *f = fopen(path, "w");
	int oom;

	if (!f) {
		snprintf(err, errsz, "--line-stats: cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	oom = print(arg, f, n > 4 && !strcmp(path + n - 4, ".csv"));
	if (ferror(f) | (fclose(f) != 0)) {
		snprintf(err, errsz, "--line-stats: error writing '%s'", path);
		return -1;
	}
	if (oom) {
		snprintf(err, errsz, "--line-stats: out of memory writing '%s': a table is missing", path);
		return -1;
	}
	return 0;
}

/* rp_linestats_write's table, for rp_linestats_write_by */
typedef struct {
	LineStats *ls;
	const char *program;
} OneTable;

static int print_one(void *arg, FILE *f, int csv)
{
	OneTable *t = arg;

	rp_linestats_print(t->ls, f, t->program, csv);
	return 0;
}

int rp_linestats_write(LineStats *ls, const char *path, const char *program, char *err,
                        size_t errsz)
{
	OneTable t = {ls, program};

	return rp_linestats_write_by(path, print_one, &t, err, errsz);
}

void rp_linestats_free(LineStats *ls)
{
	if (!ls)
		return;
	for (int lv = 0; lv < LS_COUNT; lv++)
		free(ls->rows[lv]);
	free(ls->acc);
	free(ls->slot);
	free(ls);
}
