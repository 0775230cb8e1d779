/* launch.c - a launch described by the options (args.c parses them) placed in memory: buffer
 * initialisers (zero, iota, const, xorshift32 random, file), constant bank 0's header and
 * parameters, globals and constant data, and the --out files written after the run.
 * Independent of warps and SMs: the PTX oracle uses it as is. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <inttypes.h>
#include "device/device.h"

void dev_launch_init(Launch *l)
{
	memset(l, 0, sizeof *l);
	l->grid[0] = l->grid[1] = l->grid[2] = 1;
	l->block[0] = l->block[1] = l->block[2] = 1;
	l->crs_bytes = DEV_CRS_BYTES;
	l->heap_bytes = DEV_HEAP_BYTES;
	l->cdp_pending = DEV_CDP_PENDING;
}

void dev_arg_free(LaunchArg *a)
{
	for (int i = 0; i < a->nfields; i++)
		dev_arg_free(&a->fields[i]);
	free(a->fields);
	free(a->foff);
	free(a->path);
	free(a->tex);
	free(a->surf);
	free(a->text);
	free(a->bufname);
	memset(a, 0, sizeof *a);
}

void dev_const_free(LaunchConst *c)
{
	dev_arg_free(&c->v);
	free(c->name);
	free(c->path);
	free(c->text);
	memset(c, 0, sizeof *c);
}

void dev_out_free(LaunchOut *o)
{
	free(o->path);
	free(o->cname);
	memset(o, 0, sizeof *o);
}

void dev_buf_free(LaunchBuf *b)
{
	dev_arg_free(&b->a);
	free(b->name);
	free(b->text);
	memset(b, 0, sizeof *b);
}

void dev_launch_next(Launch *l, const Launch *prev)
{
	dev_launch_init(l);
	l->stack_bytes = prev->stack_bytes;
	l->crs_bytes = prev->crs_bytes;
	l->heap_bytes = prev->heap_bytes;
	l->cdp_pending = prev->cdp_pending;
}

void dev_launch_free(Launch *l)
{
	for (int i = 0; i < l->nbufs; i++)
		dev_buf_free(&l->bufs[i]);
	free(l->bufs);
	free(l->where);
	for (int i = 0; i < l->nargs; i++)
		dev_arg_free(&l->args[i]);
	for (int i = 0; i < l->nouts; i++)
		dev_out_free(&l->outs[i]);
	for (int i = 0; i < l->nconsts; i++)
		dev_const_free(&l->consts[i]);
	free(l->consts);
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

void dev_launch_msg(FILE *err, const Launch *l, int i, int n, const char *text, int placed)
{
	/* (of several launches each has its --kernel: a --kernel after the first starts the next,
	 * sim/opts.c) */
	const char *k = l->kernel;

	assert(k);
	if (!*text)
		return;
	if (!placed) {
		const char *nl = strchr(text, '\n');
		int len = nl ? (int)(nl - text) : (int)strlen(text);
		if (!strncmp(text, "warpsim: ", 9))
			text += 9, len -= 9;
		fprintf(err, "%s: error: launch %d of %d (kernel '%s'): %.*s\n", l->where ? l->where :
		        "warpsim", i + 1, n, k, len, text);
		if (nl)
			fputs(nl + 1, err);
		return;
	}
	fputs(text, err);
	fprintf(err, "    in launch %d of %d (kernel '%s'%s%s)\n", i + 1, n, k, l->where ? ", " : "",
	        l->where ? l->where : "");
}

const DevNamed *dev_named_find(const Mem *m, const char *name)
{
	for (int i = 0; i < m->nnamed; i++)
		if (!strcmp(m->named[i].name, name))
			return &m->named[i];
	return NULL;
}

/* places launch l's --buf buffers in m (m->named); 0, or -1 after a message */
static int place_bufs(Mem *m, const Launch *l, FILE *err)
{
	for (int i = 0; i < l->nbufs; i++) {
		const LaunchBuf *b = &l->bufs[i];
		uint64_t bytes = b->a.count * isa_type_bytes(b->a.type), addr;
		char name[160], what[160];
		DevNamed *nn;
		if (dev_named_find(m, b->name)) {
			fprintf(err, "warpsim: --buf %s: a buffer '%s' exists already (a --buf of this "
			        "launch or an earlier one names it)\n", b->text, b->name);
			return -1;
		}
		snprintf(name, sizeof name, "buffer %.100s", b->name);
		snprintf(what, sizeof what, "--buf %.100s", b->name);
		if (!(addr = dev_mem_alloc(m, bytes, 0, name))) {
			fprintf(err, "warpsim: --buf %s: cannot allocate %" PRIu64 " bytes\n", b->text, bytes);
			return -1;
		}
		if (dev_fill(&b->a, dev_mem_global(m, addr, 0), err, what))
			return -1;
		if (!(nn = realloc(m->named, (size_t)(m->nnamed + 1) * sizeof *nn)))
			goto oom;
		m->named = nn;
		if (!(nn[m->nnamed].name = strdup(b->name)))
			goto oom;
		nn[m->nnamed].a = &b->a;
		nn[m->nnamed].addr = addr;
		nn[m->nnamed++].bytes = bytes;
	}
	return 0;
oom:
	fprintf(err, "warpsim: out of memory\n");
	return -1;
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

/* one element of es bytes (1, 2, 4 or 8): a store of constant size the compiler inlines */
static inline void put(uint8_t *p, int es, uint64_t v)
{
	switch (es) {
	case 1: *p = (uint8_t)v; break;
	case 2: memcpy(p, &(uint16_t){(uint16_t)v}, 2); break;
	case 4: memcpy(p, &(uint32_t){(uint32_t)v}, 4); break;
	default: memcpy(p, &v, 8); break;
	}
}

/* count elements of bits v: a block of them stored once, then copied over the rest; nothing
 * for v = 0, since dev_fill's memory is zero already */
static void fill_const(uint8_t *p, uint64_t count, int es, uint64_t v)
{
	enum { BLOCK = 4096 };   /* a multiple of every element size */
	uint64_t n = count * es, first = n < BLOCK ? n : BLOCK;

	if (es < 8)
		v &= (1ull << 8 * es) - 1;
	if (!v)
		return;
	for (uint64_t i = 0; i < first; i += es)
		put(p + i, es, v);
	for (uint64_t at = first; at < n; at += BLOCK)
		memcpy(p + at, p, n - at < BLOCK ? n - at : BLOCK);
}

/* random:SEED:LO:HI of an integer type: LO + x % (HI - LO + 1) of each draw x. A span of
 * 2^32 or more leaves every draw as it is; a smaller one is a 32-bit remainder, computed
 * without a division as Lemire, Kaser and Kurz's "Faster Remainder by Direct Computation"
 * (2019) does (exact for every 32-bit x and divisor): the high word of (m x mod 2^64) d
 * with m = floor((2^64 - 1) / d) + 1, its 64 x 32-bit product taken in two halves */
static void fill_random_int(uint8_t *p, uint64_t count, int es, uint32_t state, uint64_t lo,
                            uint64_t hi)
{
	uint64_t span = hi - lo + 1;   /* 0: the whole 64-bit range */

	if (!span || span > UINT32_MAX) {
		for (uint64_t i = 0; i < count; i++)
			put(p + i * es, es, lo + dev_xorshift32(&state));
		return;
	}
	uint64_t d = span, m = UINT64_MAX / d + 1;
	for (uint64_t i = 0; i < count; i++) {
		uint64_t f = m * dev_xorshift32(&state);
		uint64_t r = ((f >> 32) * d + ((f & UINT32_MAX) * d >> 32)) >> 32;
		put(p + i * es, es, lo + r);
	}
}

/* p's memory is zero on entry (a new allocation, or a value's zeroed image) */
int dev_fill(const LaunchArg *a, uint8_t *p, FILE *err, const char *what)
{
	int es = isa_type_bytes(a->type);
	uint32_t state = a->seed ? a->seed : 1;

	switch (a->init) {
	case INIT_ZERO:
		break;
	case INIT_IOTA:
		if (dev_isfloat(a->type))
			for (uint64_t i = 0; i < a->count; i++)
				put(p + i * es, es, from_double(a->type, (double)i));
		else
			for (uint64_t i = 0; i < a->count; i++)
				put(p + i * es, es, i);
		break;
	case INIT_CONST:
		fill_const(p, a->count, es, a->cbits);
		break;
	case INIT_RANDOM:
		if (!dev_isfloat(a->type)) {
			fill_random_int(p, a->count, es, state, a->ilo, a->ihi);
			break;
		}
		for (uint64_t i = 0; i < a->count; i++) {
			uint32_t x = dev_xorshift32(&state);
			put(p + i * es, es, from_double(a->type, a->flo + (a->fhi - a->flo) * (x / 4294967296.0)));
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
			        got, want, a->count, dev_type_name(a->type));
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
	free(pl->buf);
	free(pl->gaddr);
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

/* an sm_35 listing reads %envreg1:%envreg2, the grid workspace that S2R SR_ENVREG1/2 gives
 * our own code, from bank 0 (DEV_SM35_ENVREG1); 0 when the launch is not cooperative (a child
 * grid's never is). Apart from dev_bank0_header: a launch writes them once its workspace is
 * placed */
void dev_bank0_envregs(Mem *m, const Kernel *k, const Launch *l)
{
	uint64_t ws = l->cooperative ? m->gridws : 0;
	uint32_t env[2] = {(uint32_t)(ws >> 32), (uint32_t)ws};

	if (k->layout == ISA_LAYOUT_SM35)
		dev_mem_cwrite(m, 0, DEV_SM35_ENVREG1, env, sizeof env);
}

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
		dev_mem_cwrite(m, 0, DEV_SM35_DYNSMEM, &l->shared_bytes, sizeof l->shared_bytes);
	} else {
		hdr[6] = DEV_SHARED_WINDOW;
		hdr[7] = DEV_LOCAL_WINDOW;
		dev_mem_cwrite(m, 0, DEV_C0_NTID, hdr, sizeof hdr);
		dev_mem_cwrite(m, ISA_DYNSMEM_BANK, ISA_DYNSMEM_OFF, &l->shared_bytes,
		               sizeof l->shared_bytes);
	}
}

static const PlacedBuf *out_buf(const Launch *l, const Placed *pl, const LaunchOut *o, FILE *err);
static int endswith(const char *s, const char *suf);
static int const_given(const Launch *l, const char *name);

/* records a placed buffer in pl; 0, or -1 out of memory */
static int add_buf(Placed *pl, int param, int field, const char *cname, const LaunchArg *a,
                   uint64_t addr, uint64_t bytes)
{
	PlacedBuf *nb = realloc(pl->buf, (size_t)(pl->nbuf + 1) * sizeof *nb);

	if (!nb)
		return -1;
	pl->buf = nb;
	pl->buf[pl->nbuf++] = (PlacedBuf){param, field, cname, a, addr, bytes};
	return 0;
}

/* one word of a value: a scalar's bits, a texture's or surface's handle, or the address of a
 * buffer allocated and filled now (field -1: the argument param itself; cname: a --const's) */
static int word_value(Mem *m, const Launch *l, const LaunchArg *a, int param, int field,
                      const char *cname, Placed *pl, FILE *err, const char *what, uint64_t *v)
{
	*v = a->bits;
	if (a->tex) {
		int ti = dev_tex_find(l, a->tex);
		if (ti < 0) {
			fprintf(err, "warpsim: %s (%s): no --tex binds a texture '%s'\n", what, a->text, a->tex);
			return -1;
		}
		*v = DEV_TEX_HANDLE + (uint64_t)ti;
	}
	if (a->surf) {
		int si = dev_surf_find(l, a->surf);
		if (si < 0) {
			fprintf(err, "warpsim: %s (%s): no --surf binds a surface '%s'\n", what, a->text,
			        a->surf);
			return -1;
		}
		*v = DEV_SURF_HANDLE + (uint64_t)si;
	}
	if (a->bufname) {   /* buf:NAME[+N]: the address of a --buf buffer, N elements on */
		const DevNamed *b = dev_named_find(m, a->bufname);
		if (!b) {
			fprintf(err, "warpsim: %s (%s): no --buf of this launch or an earlier one "
			        "declares a buffer '%s'\n", what, a->text, a->bufname);
			return -1;
		}
		if (a->bufoff > b->a->count) {
			fprintf(err, "warpsim: %s (%s): buffer '%s' holds %" PRIu64 " elements, the offset "
			        "is %" PRIu64 "\n", what, a->text, a->bufname, b->a->count, a->bufoff);
			return -1;
		}
		*v = b->addr + a->bufoff * isa_type_bytes(b->a->type);
		return 0;
	}
	if (a->isbuf) {
		char name[200];
		uint64_t bytes = a->count * isa_type_bytes(a->type);
		if (cname)
			snprintf(name, sizeof name, "constant %.60s field %d (%.100s)", cname, field, a->text);
		else if (field >= 0)
			snprintf(name, sizeof name, "parameter %d field %d (%.100s)", param, field, a->text);
		else   /* (tex.c finds a surface's buffer by this name) */
			snprintf(name, sizeof name, "parameter %d (%.100s)", param, a->text);
		if (!(*v = dev_mem_alloc(m, bytes, 0, name))) {
			fprintf(err, "warpsim: %s (%s): cannot allocate %" PRIu64 " bytes\n", what, a->text,
			        bytes);
			return -1;
		}
		if (add_buf(pl, param, field, cname, a, *v, bytes)) {
			fprintf(err, "warpsim: out of memory\n");
			return -1;
		}
		if (dev_fill(a, dev_mem_global(m, *v, 0), err, what))
			return -1;
	}
	return 0;
}

/* the bytes of value a (a one-word argument, or fields) into img, which holds its size */
static int place_value(Mem *m, const Launch *l, const LaunchArg *a, uint8_t *img, int param,
                       const char *cname, Placed *pl, FILE *err, const char *what)
{
	uint64_t v;

	if (!a->isstruct) {
		if (word_value(m, l, a, param, -1, cname, pl, err, what, &v))
			return -1;
		dev_st(img, a->isbuf ? 8 : isa_type_bytes(a->type), v);
		return 0;
	}
	for (int f = 0; f < a->nfields; f++) {
		const LaunchArg *x = &a->fields[f];
		char fw[160];
		snprintf(fw, sizeof fw, "%.100s field %d", what, f);
		if (x->ispad)
			continue;
		if (x->isarr) {
			if (dev_fill(x, img + a->foff[f], err, fw))
				return -1;
			continue;
		}
		if (word_value(m, l, x, param, f, cname, pl, err, fw, &v))
			return -1;
		dev_st(img + a->foff[f], dev_field_bytes(x), v);
	}
	return 0;
}

/* whether the fields of value v may fill a .const variable of PTX type ty (".f32"): a .b type
 * takes any; another takes elements of its size and kind (buffer addresses, texture and
 * surface handles for a 64-bit integer type); -1 or the index of the first field that may not */
static int const_type_bad(const LaunchArg *v, const char *ty)
{
	int bytes = atoi(ty + 2) / 8, fl = ty[1] == 'f';

	if (ty[1] == 'b')
		return -1;
	for (int f = 0; f < v->nfields; f++) {
		const LaunchArg *x = &v->fields[f];
		if (x->ispad)
			return f;
		if (x->isbuf || x->tex || x->surf) {
			if (bytes != 8 || fl)
				return f;
		} else if (isa_type_bytes(x->type) != bytes || dev_isfloat(x->type) != fl)
			return f;
	}
	return -1;
}

/* a --const: the module's .const variable of that name gets the value (checked against its
 * size, alignment and type) in place of its initial data */
static int place_const(Mem *m, const Kernel *k, const Launch *l, const LaunchConst *c, Placed *pl,
                       FILE *err)
{
	const ConstData *cd = NULL;
	DevCover *nc;
	uint8_t *img;
	char what[120];
	int bad;

	for (int i = 0; i < k->ncdata && !cd; i++)
		if (k->cdata[i].name && !strcmp(k->cdata[i].name, c->name))
			cd = &k->cdata[i];
	if (!cd) {
		fprintf(err, "warpsim: --const %s: the program has no __constant__ variable '%s' "
		        "(a module .const variable)\n", c->text, c->name);
		return -1;
	}
	if (!(img = calloc(cd->size ? cd->size : 1, 1)))
		goto oom;
	snprintf(what, sizeof what, "--const %.100s", c->name);
	if (c->path) {
		FILE *f = fopen(c->path, "rb");
		size_t got;
		int extra;
		if (!f) {
			fprintf(err, "warpsim: --const %s: cannot read '%s': %s\n", c->text, c->path,
			        strerror(errno));
			free(img);
			return -1;
		}
		got = fread(img, 1, cd->size, f);
		extra = fgetc(f) != EOF;
		fclose(f);
		if (got != cd->size || extra) {
			fprintf(err, "warpsim: --const %s: '%s' holds %s%zu bytes, expected %u (the size of "
			        ".const variable '%s')\n", c->text, c->path, extra ? "more than " : "", got,
			        cd->size, c->name);
			free(img);
			return -1;
		}
	} else if (c->v.size != cd->size) {
		fprintf(err, "warpsim: --const %s: .const variable '%s' is %u bytes, the value is %u\n",
		        c->text, c->name, cd->size, c->v.size);
		free(img);
		return -1;
	} else if (cd->align && c->v.align > cd->align) {
		fprintf(err, "warpsim: --const %s: .const variable '%s' is aligned to %u bytes, the "
		        "value's fields need %u\n", c->text, c->name, cd->align, c->v.align);
		free(img);
		return -1;
	} else if (cd->type && (bad = const_type_bad(&c->v, cd->type)) >= 0) {
		fprintf(err, "warpsim: --const %s: .const variable '%s' is %s, field %d (%s) is not\n",
		        c->text, c->name, cd->type, bad, c->v.fields[bad].text);
		free(img);
		return -1;
	} else if (place_value(m, l, &c->v, img, -1, c->name, pl, err, what)) {
		free(img);
		return -1;
	}
	if (!(nc = realloc(m->cover, (size_t)(m->ncover + 1) * sizeof *nc))) {
		free(img);
		goto oom;
	}
	m->cover = nc;
	m->cover[m->ncover++] = (DevCover){cd->bank, cd->offset, cd->size, img};
	return 0;
oom:
	fprintf(err, "warpsim: out of memory\n");
	return -1;
}

int dev_launch_place(Mem *m, const Kernel *k, const Launch *l, Placed *pl, FILE *err)
{
	char why[300];

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
	/* the device heap and the CDP parameter buffers an earlier launch placed stay as they are:
	 * CUDA refuses a new size for a heap in use */
	if (m->heap.size && l->heap_bytes != m->heap.size) {
		fprintf(err, "warpsim: --heap-bytes %" PRIu32 ": an earlier launch placed the device heap "
		        "with %" PRIu64 " bytes; it keeps that size for the run\n", l->heap_bytes,
		        m->heap.size);
		return -1;
	}
	if (m->cdpbuf.size && (uint64_t)(l->cdp_pending ? l->cdp_pending : 1) *
	                      (DEV_CDP_HDR + DEV_CDP_BUFMAX) != m->cdpbuf.size) {
		fprintf(err, "warpsim: --cdp-pending %" PRIu32 ": an earlier launch placed the parameter "
		        "buffers of %" PRIu64 " launches; the limit stays for the run\n", l->cdp_pending,
		        m->cdpbuf.size / (DEV_CDP_HDR + DEV_CDP_BUFMAX));
		return -1;
	}
	if (place_bufs(m, l, err))
		return -1;
	dev_bank0_header(m, k, l);
	for (int i = 0; i < l->nargs; i++) {
		const LaunchArg *a = &l->args[i];
		const Param *pm = &k->params[i];
		uint32_t need = a->isstruct ? a->size : a->isbuf ? 8u : (uint32_t)isa_type_bytes(a->type);
		uint8_t img[8], *p = img;
		char what[32], pname[200];
		int rc;

		snprintf(pname, sizeof pname, "parameter %d%s%s%s of kernel '%s'", i,
		         pm->name ? " '" : "", pm->name ? pm->name : "", pm->name ? "'" : "", k->name);
		if (pm->size != need) {
			fprintf(err, "warpsim: --arg %d (%s): %s is %u bytes, %s%s is %u\n", i, a->text,
			        pname, pm->size, a->isstruct ? "the struct" : a->isbuf ?
			        "a buffer address" : "a ", a->isstruct || a->isbuf ? "" : dev_type_name(a->type),
			        need);
			return -1;
		}
		if (a->isstruct && pm->align && a->align > pm->align) {
			/* a field would sit at an address the parameter's alignment does not promise */
			fprintf(err, "warpsim: --arg %d (%s): %s is aligned to %u bytes (.align %u), the "
			        "struct's fields need %u\n", i, a->text, pname, pm->align, pm->align,
			        a->align);
			return -1;
		}
		if (a->isstruct && !(p = calloc(need, 1)))
			goto oom;
		snprintf(what, sizeof what, "--arg %d", i);
		rc = place_value(m, l, a, p, i, NULL, pl, err, what);
		if (!rc && a->isbuf && !a->bufname)
			pl->addr[i] = pl->buf[pl->nbuf - 1].addr, pl->bytes[i] = pl->buf[pl->nbuf - 1].bytes;
		if (!rc && !dev_mem_cwrite(m, 0, pm->offset, p, need)) {
			fprintf(err, "warpsim: kernel '%s': parameter %d at c[0x0][0x%x] is outside the bank\n",
			        k->name, i, pm->offset);
			rc = -1;
		}
		if (p != img)
			free(p);
		if (rc)
			return -1;
	}
	if (dev_tex_place(m, l, err) || dev_surf_check(m, l, err))
		return -1;
	if (dev_binds_kernel(NULL, l, k, NULL, NULL, err))
		return -1;
	for (int i = 0; i < l->nconsts; i++)
		if (place_const(m, k, l, &l->consts[i], pl, err))
			return -1;
	if (!(pl->gaddr = calloc((size_t)k->nglobals + 1, sizeof *pl->gaddr)))
		goto oom;
	/* the module variables (those an earlier launch of the run placed keep their place and
	 * value), their address slots and relocations, the constant data; the --const values
	 * replace the initial data */
	if (dev_cdp_globals(m, k, why, sizeof why)) {
		fprintf(err, "warpsim: kernel '%s': %s\n", k->name, why);
		return -1;
	}
	for (int i = 0; i < k->nglobals; i++)
		pl->gaddr[i] = dev_mem_global_addr(m, k->globals[i].name ? k->globals[i].name : "?");
	/* --out NAME of a --buf buffer of this launch or an earlier one: its elements */
	for (int i = 0; i < l->nouts; i++) {
		const LaunchOut *o = &l->outs[i];
		const DevNamed *b = o->cname && o->field < 0 ? dev_named_find(m, o->cname) : NULL;
		if (b && add_buf(pl, -1, -1, b->name, b->a, b->addr, b->bytes))
			goto oom;
	}
	/* --out NAME of a module variable (__device__, cudaMemcpyFromSymbol's): its bytes */
	for (int i = 0; i < l->nouts; i++) {
		const LaunchOut *o = &l->outs[i];
		if (!o->cname || o->field >= 0 || const_given(l, o->cname) || dev_named_find(m, o->cname))
			continue;
		for (int j = 0; j < k->nglobals; j++)
			if (!strcmp(k->globals[j].name, o->cname)) {
				if (!endswith(o->path, ".bin")) {
					fprintf(err, "warpsim: --out %s:%s: module variable '%s' has no element type "
					        "here: its bytes go to a .bin file\n", o->cname, o->path, o->cname);
					return -1;
				}
				if (add_buf(pl, -1, -1, o->cname, NULL, pl->gaddr[j], k->globals[j].size))
					goto oom;
				break;
			}
	}
	/* every --out names a buffer placed now: a wrong one is refused before the run */
	for (int i = 0; i < l->nouts; i++)
		if (!out_buf(l, pl, &l->outs[i], err))
			return -1;
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
	dev_bank0_envregs(m, k, l);
	return 0;
oom:
	fprintf(err, "warpsim: out of memory\n");
	return -1;
}

/* bits as a decimal integer of es bytes, signed or not, in buf as snprintf would put it
 * (the digits by hand: a large buffer's --out text is mostly this, in half snprintf's
 * time) */
static int format_int(char *buf, size_t size, uint64_t bits, int es, int sign)
{
	char digits[24], *d = digits + sizeof digits;
	uint64_t v = es < 8 ? bits & ((1ull << 8 * es) - 1) : bits;
	int neg = sign && (v >> (8 * es - 1) & 1), len;

	if (neg)                /* the magnitude of the sign-extended value */
		v = (es < 8 ? 1ull << 8 * es : 0) - v;
	do
		*--d = (char)('0' + v % 10);
	while (v /= 10);
	if (neg)
		*--d = '-';
	len = (int)(digits + sizeof digits - d);
	if (size) {
		size_t k = (size_t)len < size ? (size_t)len : size - 1;
		memcpy(buf, d, k);
		buf[k] = 0;
	}
	return len;
}

int dev_format_elem(char *buf, size_t size, Type t, uint64_t bits)
{
	switch (t) {
	case TY_U8: case TY_S8: case TY_U16: case TY_S16:
	case TY_U32: case TY_S32: case TY_U64: case TY_S64:
		return format_int(buf, size, bits, isa_type_bytes(t), dev_issigned(t));
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

/* the buffer --out o names, or NULL after a message */
/* whether a --const of l sets name */
static int const_given(const Launch *l, const char *name)
{
	for (int i = 0; i < l->nconsts; i++)
		if (!strcmp(l->consts[i].name, name))
			return 1;
	return 0;
}

static const PlacedBuf *out_buf(const Launch *l, const Placed *pl, const LaunchOut *o, FILE *err)
{
	/* a --const's field (0 when none is named), else the module variable itself */
	int known = o->cname && const_given(l, o->cname);
	int field = known && o->field < 0 ? 0 : o->field;

	for (int i = 0; i < pl->nbuf; i++) {
		const PlacedBuf *b = &pl->buf[i];
		if (b->field == field && (o->cname ? b->cname && !strcmp(b->cname, o->cname) :
		                          !b->cname && b->param == o->param))
			return b;
	}
	if (known)
		fprintf(err, "warpsim: --out %s.%d:%s: field %d of --const %s is not a buffer\n",
		        o->cname, field, o->path, field, o->cname);
	else if (o->cname && o->field >= 0)
		fprintf(err, "warpsim: --out %s.%d:%s: no --const sets '%s'\n", o->cname, o->field,
		        o->path, o->cname);
	else if (o->cname)
		fprintf(err, "warpsim: --out %s:%s: no --const sets '%s' and the program has no module "
		        "variable '%s' (.global)\n", o->cname, o->path, o->cname, o->cname);
	else if (o->field < 0)
		fprintf(err, "warpsim: --out %d:%s: parameter %d is not a buffer argument\n",
		        o->param, o->path, o->param);
	else
		fprintf(err, "warpsim: --out %d.%d:%s: field %d of parameter %d is not a buffer\n",
		        o->param, o->field, o->path, o->field, o->param);
	return NULL;
}

/* count elements of type t at p as text, one a line (dev_format_elem), gathered in a block
 * that is written whole */
static void write_text(FILE *f, Type t, const uint8_t *p, int es, uint64_t count)
{
	enum { BLOCK = 1 << 16, LINE = 64 };   /* LINE: more than any element's text */
	char out[BLOCK];
	size_t n = 0;

	for (uint64_t j = 0; j < count; j++) {
		if (n > BLOCK - LINE) {
			fwrite(out, 1, n, f);
			n = 0;
		}
		n += (size_t)dev_format_elem(out + n, LINE, t, dev_ld(p + j * es, es));
		out[n++] = '\n';
	}
	fwrite(out, 1, n, f);
}

int dev_launch_write_outputs(Mem *m, const Launch *l, const Placed *pl, FILE *err)
{
	for (int i = 0; i < l->nouts; i++) {
		const LaunchOut *o = &l->outs[i];
		const PlacedBuf *b = out_buf(l, pl, o, err);
		const LaunchArg *a;
		const uint8_t *p;
		FILE *f;
		int es, bad;

		char spec[300];

		if (!b)
			return -1;
		if (o->cname && (!b->a || b->field < 0))
			snprintf(spec, sizeof spec, "%.100s:%.180s", o->cname, o->path);
		else if (o->cname)
			snprintf(spec, sizeof spec, "%.100s.%d:%.180s", o->cname, b->field, o->path);
		else if (o->field >= 0)
			snprintf(spec, sizeof spec, "%d.%d:%.180s", o->param, o->field, o->path);
		else
			snprintf(spec, sizeof spec, "%d:%.180s", o->param, o->path);
		a = b->a;
		es = a ? isa_type_bytes(a->type) : 1;   /* (a module variable: raw bytes, .bin) */
		p = dev_mem_global(m, b->addr, 0);
		if (!(f = fopen(o->path, endswith(o->path, ".bin") ? "wb" : "w"))) {
			fprintf(err, "warpsim: --out %s: cannot write '%s': %s\n", spec, o->path,
			        strerror(errno));
			return -1;
		}
		if (endswith(o->path, ".bin"))
			fwrite(p, 1, b->bytes, f);
		else
			write_text(f, a->type, p, es, a->count);
		bad = ferror(f);
		if (fclose(f) || bad) {
			fprintf(err, "warpsim: --out %s: error writing '%s'\n", spec, o->path);
			return -1;
		}
	}
	return 0;
}
