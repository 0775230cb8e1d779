/* launch.c - the launch description of DESIGN.md: parsing of --grid/--block/--arg/--out
 * values, buffer initialisers (zero, iota, const, xorshift32 random, file), placing a launch
 * in memory (constant bank 0 header and parameters, globals, constant data) and writing the
 * --out files. Independent of warps and SMs: the PTX oracle uses it as is. */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <inttypes.h>
#include "device/device.h"

static const struct { const char *name; Type t; } types[] = {
	{"u8", TY_U8}, {"s8", TY_S8}, {"u16", TY_U16}, {"s16", TY_S16}, {"u32", TY_U32},
	{"s32", TY_S32}, {"u64", TY_U64}, {"s64", TY_S64}, {"f32", TY_F32}, {"f64", TY_F64},
};

static int isfloat(Type t) { return t == TY_F32 || t == TY_F64; }
static int issigned(Type t) { return t == TY_S8 || t == TY_S16 || t == TY_S32 || t == TY_S64; }

void dev_launch_init(Launch *l)
{
	memset(l, 0, sizeof *l);
	l->grid[0] = l->grid[1] = l->grid[2] = 1;
	l->block[0] = l->block[1] = l->block[2] = 1;
	l->crs_bytes = DEV_CRS_BYTES;
	l->heap_bytes = DEV_HEAP_BYTES;
	l->cdp_pending = DEV_CDP_PENDING;
}

void dev_launch_free(Launch *l)
{
	for (int i = 0; i < l->nargs; i++) {
		free(l->args[i].path);
		free(l->args[i].tex);
		free(l->args[i].surf);
		free(l->args[i].text);
	}
	for (int i = 0; i < l->nouts; i++)
		free(l->outs[i].path);
	for (int i = 0; i < l->ntexs; i++)
		dev_tex_free(&l->texs[i]);
	free(l->texs);
	for (int i = 0; i < l->nsurfs; i++)
		dev_surf_free(&l->surfs[i]);
	free(l->surfs);
	free(l->args);
	free(l->outs);
	free(l->kernel);
	dev_launch_init(l);
}

int dev_parse_type(const char *s, Type *t)
{
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (!strcmp(s, types[i].name)) {
			*t = types[i].t;
			return 0;
		}
	return -1;
}

static const char *typename(Type t)
{
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (types[i].t == t)
			return types[i].name;
	return "?";
}

/* decimal (or 0x hex) unsigned integer of the whole string */
static int parse_u64(const char *s, uint64_t *v)
{
	char *end;
	int base = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, base);
	return (errno || *end) ? -1 : 0;
}

int dev_parse_scalar(Type t, const char *s, uint64_t *bits)
{
	char *end;
	int bytes = isa_type_bytes(t);

	if (t == TY_F32 || t == TY_F64) {
		if (!*s || *s == ' ')
			return -1;
		errno = 0;
		if (t == TY_F32) {
			float f = strtof(s, &end);
			uint32_t u;
			memcpy(&u, &f, 4);
			*bits = u;
		} else {
			double d = strtod(s, &end);
			memcpy(bits, &d, 8);
		}
		return *end ? -1 : 0;
	}
	if (*s == '-') {
		uint64_t m;
		if (!issigned(t) || parse_u64(s + 1, &m))
			return -1;
		if (m > (1ull << (8 * bytes - 1)))
			return -1;
		*bits = (0 - m) & (bytes == 8 ? ~0ull : (1ull << 8 * bytes) - 1);
		return 0;
	}
	if (parse_u64(s, bits))
		return -1;
	if (bytes < 8 && *bits >> (8 * bytes - issigned(t)))
		return -1;
	if (bytes == 8 && issigned(t) && *bits >> 63)
		return -1;
	return 0;
}

static void range_text(Type t, char *why, const char *what)
{
	int b = 8 * isa_type_bytes(t);

	if (isfloat(t))
		snprintf(why, 256, "%s: a %s number", what, typename(t));
	else if (issigned(t))
		snprintf(why, 256, "%s: an integer in %" PRId64 "..%" PRId64, what,
		         b == 64 ? INT64_MIN : -(int64_t)(1ull << (b - 1)),
		         b == 64 ? INT64_MAX : (int64_t)((1ull << (b - 1)) - 1));
	else
		snprintf(why, 256, "%s: an integer in 0..%" PRIu64, what,
		         b == 64 ? UINT64_MAX : (uint64_t)((1ull << b) - 1));
}

int dev_parse_dim3(const char *s, uint32_t out[3], char *why)
{
	char buf[96];
	int n = 0;

	snprintf(why, 256, "X[,Y,Z] with positive integers");
	if (strlen(s) >= sizeof buf)
		return -1;
	strcpy(buf, s);
	out[0] = out[1] = out[2] = 1;
	for (char *p = buf, *c; p; p = c) {
		uint64_t v;
		if ((c = strchr(p, ',')))
			*c++ = 0;
		if (n == 3)
			return -1;
		if (parse_u64(p, &v)) {     /* all digits but no uint64: too large, not malformed */
			if (!*p || strspn(p, "0123456789") != strlen(p))
				return -1;
			v = UINT64_MAX;
		}
		if (v == 0)
			return -1;
		if (v > 0x7fffffff) {
			snprintf(why, 256, "X[,Y,Z] with each dimension at most 2147483647 (%.40s is too large)", p);
			return -1;
		}
		out[n++] = (uint32_t)v;
	}
	return 0;
}

/* the LO or HI of random:SEED:LO:HI as a value of type t */
static int parse_bound(Type t, const char *s, uint64_t *i, double *d)
{
	uint64_t bits;

	if (dev_parse_scalar(t, s, &bits))
		return -1;
	if (t == TY_F32) {
		float f;
		uint32_t u = (uint32_t)bits;
		memcpy(&f, &u, 4);
		*d = f;
	} else if (t == TY_F64)
		memcpy(d, &bits, 8);
	else {
		int n = 8 * isa_type_bytes(t);
		if (issigned(t) && n < 64 && (bits >> (n - 1) & 1))
			bits |= ~0ull << n;        /* sign-extend: the range is compared as signed */
		*i = bits;
	}
	return 0;
}

/* buf:TYPE:COUNT[:INIT] or TYPE:VALUE */
int dev_parse_arg(const char *s, const char *basedir, LaunchArg *a, char *why)
{
	enum { MAXF = 8 };
	char *dup = strdup(s), *f[MAXF] = {0};
	int nf = 0, rc = -1;

	memset(a, 0, sizeof *a);
	snprintf(why, 256, "TYPE:VALUE or buf:TYPE:COUNT[:INIT]");
	if (!dup)
		return -1;
	/* split at colons; a file: path keeps its own colons */
	for (char *p = dup; p && nf < MAXF; ) {
		f[nf++] = p;
		if (nf == 5 && !strcmp(f[0], "buf") && !strcmp(f[3], "file"))
			break;
		if ((p = strchr(p, ':')))
			*p++ = 0;
		if (p && nf == MAXF)
			nf = MAXF + 1;   /* too many fields */
	}
	if (nf > MAXF) {
		/* falls through to the generic message */
	} else if (!strcmp(f[0], "buf")) {
		a->isbuf = 1;
		if (nf < 3 || dev_parse_type(f[1], &a->type)) {
			snprintf(why, 256, "buf:TYPE:COUNT[:INIT] with TYPE one of u8 s8 u16 s16 u32 s32 u64 s64 f32 f64");
			goto out;
		}
		if (parse_u64(f[2], &a->count) || a->count > (1ull << 32)) {
			snprintf(why, 256, "buf:TYPE:COUNT[:INIT] with COUNT an integer in 0..4294967296");
			goto out;
		}
		snprintf(why, 256, "INIT one of zero, iota, const:V, random:SEED[:LO:HI], file:PATH");
		if (nf == 3 || (nf == 4 && !strcmp(f[3], "zero"))) {
			a->init = INIT_ZERO;
			rc = 0;
		} else if (nf == 4 && !strcmp(f[3], "iota")) {
			a->init = INIT_IOTA;
			rc = 0;
		} else if (!strcmp(f[3], "const")) {
			a->init = INIT_CONST;
			if (nf != 5 || dev_parse_scalar(a->type, f[4], &a->cbits))
				range_text(a->type, why, "const:V with V");
			else
				rc = 0;
		} else if (!strcmp(f[3], "random")) {
			uint64_t seed;
			a->init = INIT_RANDOM;
			a->ilo = 0, a->ihi = 99, a->flo = 0, a->fhi = 99;
			if ((nf != 5 && nf != 7) || parse_u64(f[4], &seed) || seed > UINT32_MAX) {
				snprintf(why, 256, "random:SEED[:LO:HI] with SEED an integer in 0..4294967295");
			} else if (nf == 7 && (parse_bound(a->type, f[5], &a->ilo, &a->flo) ||
			                       parse_bound(a->type, f[6], &a->ihi, &a->fhi))) {
				range_text(a->type, why, "random:SEED:LO:HI with LO and HI");
			} else if (isfloat(a->type) ? !(a->flo <= a->fhi) :
			           issigned(a->type) ? (int64_t)a->ilo > (int64_t)a->ihi : a->ilo > a->ihi) {
				snprintf(why, 256, "random:SEED:LO:HI with LO <= HI");
			} else {
				a->seed = (uint32_t)seed;
				rc = 0;
			}
		} else if (!strcmp(f[3], "file")) {
			a->init = INIT_FILE;
			if (nf == 5 && *f[4]) {
				size_t n = strlen(f[4]) + (basedir ? strlen(basedir) : 0) + 2;
				if ((a->path = malloc(n))) {
					if (f[4][0] != '/' && basedir && *basedir)
						snprintf(a->path, n, "%s/%s", basedir, f[4]);
					else
						snprintf(a->path, n, "%s", f[4]);
					rc = 0;
				}
			} else
				snprintf(why, 256, "file:PATH with a file name");
		}
	} else if (!strcmp(f[0], "tex") || !strcmp(f[0], "surf")) {
		/* a texture or surface object: the handle of --tex or --surf NAME, a 64-bit scalar */
		int su = f[0][0] == 's';
		a->type = TY_U64;
		if (nf != 2 || !*f[1])
			snprintf(why, 256, "%s:NAME with NAME a --%s binding", f[0], f[0]);
		else if ((*(su ? &a->surf : &a->tex) = strdup(f[1])))
			rc = 0;
	} else if (dev_parse_type(f[0], &a->type)) {
		snprintf(why, 256, "TYPE:VALUE, tex:NAME or buf:TYPE:COUNT[:INIT] with TYPE one of u8 s8 u16 s16 u32 s32 u64 s64 f32 f64");
	} else if (nf == 2 && !dev_parse_scalar(a->type, f[1], &a->bits)) {
		rc = 0;
	} else {
		range_text(a->type, why, "TYPE:VALUE with VALUE");
	}
out:
	free(dup);
	if (!rc && !(a->text = strdup(s)))
		rc = -1;
	if (rc) {
		free(a->path);
		free(a->tex);
		free(a->surf);
		a->path = a->tex = a->surf = NULL;
	}
	return rc;
}

/* N:PATH */
int dev_parse_out(const char *s, LaunchOut *o, char *why)
{
	const char *c = strchr(s, ':');
	char num[32];
	uint64_t n;

	snprintf(why, 256, "N:PATH with N a parameter index");
	memset(o, 0, sizeof *o);
	if (!c || c == s || (size_t)(c - s) >= sizeof num || !c[1])
		return -1;
	memcpy(num, s, c - s);
	num[c - s] = 0;
	if (parse_u64(num, &n) || n > 4096)
		return -1;
	o->param = (int)n;
	return (o->path = strdup(c + 1)) ? 0 : -1;
}

uint32_t dev_xorshift32(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

/* the value i (iota) or a random draw as bits of type t */
static uint64_t from_double(Type t, double d)
{
	uint64_t bits = 0;

	if (t == TY_F32) {
		float f = (float)d;
		uint32_t u;
		memcpy(&u, &f, 4);
		bits = u;
	} else
		memcpy(&bits, &d, 8);
	return bits;
}

int dev_fill(const LaunchArg *a, uint8_t *p, FILE *err, const char *what)
{
	int es = isa_type_bytes(a->type);
	uint32_t state = a->seed ? a->seed : 1;

	switch (a->init) {
	case INIT_ZERO:
		break;
	case INIT_IOTA:
		for (uint64_t i = 0; i < a->count; i++)
			dev_st(p + i * es, es, isfloat(a->type) ? from_double(a->type, (double)i) : i);
		break;
	case INIT_CONST:
		for (uint64_t i = 0; i < a->count; i++)
			dev_st(p + i * es, es, a->cbits);
		break;
	case INIT_RANDOM:
		for (uint64_t i = 0; i < a->count; i++) {
			uint32_t x = dev_xorshift32(&state);
			uint64_t v;
			if (isfloat(a->type))
				v = from_double(a->type, a->flo + (a->fhi - a->flo) * (x / 4294967296.0));
			else {
				uint64_t span = a->ihi - a->ilo + 1;   /* 0: the whole 64-bit range */
				v = a->ilo + (span ? x % span : x);
			}
			dev_st(p + i * es, es, v);
		}
		break;
	case INIT_FILE: {
		FILE *f = fopen(a->path, "rb");
		uint64_t want = a->count * es;
		size_t got;
		int extra;
		if (!f) {
			fprintf(err, "warpsim: %s (%s): cannot read '%s': %s\n", what, a->text,
			        a->path, strerror(errno));
			return -1;
		}
		got = fread(p, 1, want, f);
		extra = fgetc(f) != EOF;
		fclose(f);
		if (got != want || extra) {
			fprintf(err, "warpsim: %s (%s): '%s' holds %s%zu bytes, expected %" PRIu64
			        " (%" PRIu64 " x %s)\n", what, a->text, a->path, extra ? "more than " : "",
			        got, want, a->count, typename(a->type));
			return -1;
		}
		break;
	}
	}
	return 0;
}

void dev_placed_free(Placed *pl)
{
	free(pl->addr);
	free(pl->bytes);
	memset(pl, 0, sizeof *pl);
}

uint32_t dev_local_bytes(const Kernel *k, const Launch *l)
{
	uint32_t n = k->layout == ISA_LAYOUT_SM35 ? k->local + DEV_SM35_STACKSZ : k->local;

	/* deep recursion: cudaLimitStackSize raised (--stack-bytes) */
	return l->stack_bytes > n ? l->stack_bytes : n;
}

/* ptxas makes a generic local address as R1 | c[0x0][0x24]: an OR that is the window's base
 * plus the local offset, since the window is aligned to its size */
_Static_assert((DEV_LOCAL_WINDOW & (DEV_WINDOW_SIZE - 1)) == 0, "local window aligned to its size");

void dev_bank0_header(Mem *m, const Kernel *k, const Launch *l)
{
	uint32_t hdr[8];

	for (int i = 0; i < 3; i++) {
		hdr[i] = l->block[i];
		hdr[3 + i] = l->grid[i];
	}
	if (k->layout == ISA_LAYOUT_SM35) {
		uint32_t top = dev_local_bytes(k, l), lw = DEV_LOCAL_WINDOW;
		uint64_t cw = DEV_CONST_WINDOW;
		dev_mem_cwrite(m, 0, DEV_SM35_LOCWIN, &lw, sizeof lw);
		dev_mem_cwrite(m, 0, DEV_SM35_CONSTWIN, &cw, sizeof cw);
		dev_mem_cwrite(m, 0, DEV_SM35_NTID, hdr, 6 * sizeof *hdr);
		dev_mem_cwrite(m, 0, DEV_SM35_STACK, &top, sizeof top);
	} else {
		hdr[6] = DEV_SHARED_WINDOW;
		hdr[7] = DEV_LOCAL_WINDOW;
		dev_mem_cwrite(m, 0, DEV_C0_NTID, hdr, sizeof hdr);
	}
}

int dev_launch_place(Mem *m, const Kernel *k, const Launch *l, Placed *pl, FILE *err)
{
	memset(pl, 0, sizeof *pl);
	if (k->reqntid[0] && (l->block[0] != k->reqntid[0] || l->block[1] != k->reqntid[1] ||
	                      l->block[2] != k->reqntid[2])) {
		/* .reqntid: the one block shape the kernel may be launched with (CUDA fails others) */
		fprintf(err, "warpsim: kernel '%s' requires a block of %u x %u x %u threads (.reqntid), "
		        "got %u x %u x %u\n", k->name, k->reqntid[0], k->reqntid[1], k->reqntid[2],
		        l->block[0], l->block[1], l->block[2]);
		return -1;
	}
	if (k->maxntid && (uint64_t)l->block[0] * l->block[1] * l->block[2] > k->maxntid) {
		fprintf(err, "warpsim: kernel '%s' takes at most %u threads per block (.maxntid), got "
		        "%u x %u x %u\n", k->name, k->maxntid, l->block[0], l->block[1], l->block[2]);
		return -1;
	}
	if (l->nargs != k->nparams) {
		fprintf(err, "warpsim: kernel '%s' has %d parameter%s, got %d --arg option%s\n",
		        k->name, k->nparams, k->nparams == 1 ? "" : "s", l->nargs,
		        l->nargs == 1 ? "" : "s");
		return -1;
	}
	pl->n = l->nargs;
	pl->addr = calloc(l->nargs + 1, sizeof *pl->addr);
	pl->bytes = calloc(l->nargs + 1, sizeof *pl->bytes);
	if (!pl->addr || !pl->bytes)
		goto oom;
	dev_bank0_header(m, k, l);
	for (int i = 0; i < l->nargs; i++) {
		const LaunchArg *a = &l->args[i];
		const Param *pm = &k->params[i];
		uint32_t need = a->isbuf ? 8 : isa_type_bytes(a->type);
		uint64_t v = a->bits;
		char name[160];

		if (pm->size != need) {
			fprintf(err, "warpsim: --arg %d (%s): parameter %d%s%s%s of kernel '%s' is %u bytes, %s%s is %u\n",
			        i, a->text, i, pm->name ? " '" : "", pm->name ? pm->name : "",
			        pm->name ? "'" : "", k->name, pm->size, a->isbuf ? "a buffer address" : "a ",
			        a->isbuf ? "" : typename(a->type), need);
			return -1;
		}
		if (a->tex) {
			int ti = dev_tex_find(l, a->tex);
			if (ti < 0) {
				fprintf(err, "warpsim: --arg %d (%s): no --tex binds a texture '%s'\n", i,
				        a->text, a->tex);
				return -1;
			}
			v = DEV_TEX_HANDLE + (uint64_t)ti;
		}
		if (a->surf) {
			int si = dev_surf_find(l, a->surf);
			if (si < 0) {
				fprintf(err, "warpsim: --arg %d (%s): no --surf binds a surface '%s'\n", i,
				        a->text, a->surf);
				return -1;
			}
			v = DEV_SURF_HANDLE + (uint64_t)si;
		}
		if (a->isbuf) {
			snprintf(name, sizeof name, "parameter %d (%.100s)", i, a->text);
			pl->bytes[i] = a->count * isa_type_bytes(a->type);
			if (!(pl->addr[i] = dev_mem_alloc(m, pl->bytes[i], 0, name))) {
				fprintf(err, "warpsim: --arg %d (%s): cannot allocate %" PRIu64 " bytes\n",
				        i, a->text, pl->bytes[i]);
				return -1;
			}
			char what[32];
			snprintf(what, sizeof what, "--arg %d", i);
			if (dev_fill(a, dev_mem_global(m, pl->addr[i], 0), err, what))
				return -1;
			v = pl->addr[i];
		}
		if (!dev_mem_cwrite(m, 0, pm->offset, &v, need)) {
			fprintf(err, "warpsim: kernel '%s': parameter %d at c[0x0][0x%x] is outside the bank\n",
			        k->name, i, pm->offset);
			return -1;
		}
	}
	if (dev_tex_place(m, l, err) || dev_surf_check(l, err))
		return -1;
	if (dev_binds_kernel(NULL, l, k, NULL, NULL, err))
		return -1;
	for (int i = 0; i < k->nglobals; i++) {
		const GlobalVar *gv = &k->globals[i];
		char name[160];
		uint64_t addr;
		snprintf(name, sizeof name, "global %.100s", gv->name ? gv->name : "?");
		if (!(addr = dev_mem_alloc(m, gv->size, gv->align, name))) {
			fprintf(err, "warpsim: kernel '%s': cannot allocate %s (%" PRIu64 " bytes)\n",
			        k->name, name, gv->size);
			return -1;
		}
		if (gv->init)
			memcpy(dev_mem_global(m, addr, 0), gv->init, gv->size);
		if (gv->bank != ISA_NOSLOT && !dev_mem_cwrite(m, gv->bank, gv->slot, &addr, 8)) {
			fprintf(err, "warpsim: kernel '%s': %s: slot c[0x%x][0x%x] is outside the bank\n",
			        k->name, name, gv->bank, gv->slot);
			return -1;
		}
	}
	for (int i = 0; i < k->nrelocs; i++) {
		/* a global initialised with the address of a global: both are placed now */
		const GlobalReloc *r = &k->relocs[i];
		const GlobalVar *gv = &k->globals[r->var], *gt = &k->globals[r->target];
		uint64_t at = dev_mem_global_addr(m, gv->name), to = dev_mem_global_addr(m, gt->name);
		uint8_t *p;
		if (!at || !to || r->off + 8 > gv->size || !(p = dev_mem_global(m, at + r->off, 8))) {
			fprintf(err, "warpsim: kernel '%s': the address of %s in %s does not fit\n", k->name,
			        gt->name, gv->name);
			return -1;
		}
		dev_st(p, 8, to + r->addend);
	}
	for (int i = 0; i < k->ncdata; i++) {
		const ConstData *cd = &k->cdata[i];
		if (!dev_mem_cwrite(m, cd->bank, cd->offset, cd->bytes, cd->size)) {
			fprintf(err, "warpsim: kernel '%s': constant data c[0x%x][0x%x] (%u bytes) is outside the bank\n",
			        k->name, cd->bank, cd->offset, cd->size);
			return -1;
		}
	}
	m->gridws = 0;
	if (l->cooperative) {
		/* the grid workspace (DEV_GRIDWS_*), placed after everything else so that a
		 * cooperative launch moves no other buffer: wsSize, then the barrier word at 0 */
		uint8_t *p;
		if (!(m->gridws = dev_mem_alloc(m, DEV_GRIDWS_BYTES, 16, "grid workspace")))
			goto oom;
		p = dev_mem_global(m, m->gridws, DEV_GRIDWS_BYTES);
		dev_st(p, 4, DEV_GRIDWS_BYTES);
	}
	return 0;
oom:
	fprintf(err, "warpsim: out of memory\n");
	return -1;
}

int dev_format_elem(char *buf, size_t size, Type t, uint64_t bits)
{
	switch (t) {
	case TY_U8: return snprintf(buf, size, "%u", (unsigned)(uint8_t)bits);
	case TY_S8: return snprintf(buf, size, "%d", (int)(int8_t)bits);
	case TY_U16: return snprintf(buf, size, "%u", (unsigned)(uint16_t)bits);
	case TY_S16: return snprintf(buf, size, "%d", (int)(int16_t)bits);
	case TY_U32: return snprintf(buf, size, "%" PRIu32, (uint32_t)bits);
	case TY_S32: return snprintf(buf, size, "%" PRId32, (int32_t)bits);
	case TY_U64: return snprintf(buf, size, "%" PRIu64, bits);
	case TY_S64: return snprintf(buf, size, "%" PRId64, (int64_t)bits);
	case TY_F32: {
		uint32_t u = (uint32_t)bits;
		float f;
		memcpy(&f, &u, 4);
		return snprintf(buf, size, "%.9g", f);
	}
	case TY_F64: {
		double d;
		memcpy(&d, &bits, 8);
		return snprintf(buf, size, "%.17g", d);
	}
	case TY_NONE: case TY_F16: case TY_B64: case TY_B128: case TY_COUNT:
		break;
	}
	return snprintf(buf, size, "0x%" PRIx64, bits);
}

static int endswith(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !strcmp(s + n - m, suf);
}

int dev_launch_write_outputs(Mem *m, const Launch *l, const Placed *pl, FILE *err)
{
	for (int i = 0; i < l->nouts; i++) {
		const LaunchOut *o = &l->outs[i];
		const LaunchArg *a;
		const uint8_t *p;
		FILE *f;
		int es, bad;

		if (o->param >= l->nargs || !l->args[o->param].isbuf) {
			fprintf(err, "warpsim: --out %d:%s: parameter %d is not a buffer argument\n",
			        o->param, o->path, o->param);
			return -1;
		}
		a = &l->args[o->param];
		es = isa_type_bytes(a->type);
		p = dev_mem_global(m, pl->addr[o->param], 0);
		if (!(f = fopen(o->path, endswith(o->path, ".bin") ? "wb" : "w"))) {
			fprintf(err, "warpsim: --out %d:%s: cannot write '%s': %s\n", o->param, o->path,
			        o->path, strerror(errno));
			return -1;
		}
		if (endswith(o->path, ".bin"))
			fwrite(p, 1, pl->bytes[o->param], f);
		else
			for (uint64_t j = 0; j < a->count; j++) {
				char buf[64];
				dev_format_elem(buf, sizeof buf, a->type, dev_ld(p + j * es, es));
				fprintf(f, "%s\n", buf);
			}
		bad = ferror(f);
		if (fclose(f) || bad) {
			fprintf(err, "warpsim: --out %d:%s: error writing '%s'\n", o->param, o->path, o->path);
			return -1;
		}
	}
	return 0;
}
