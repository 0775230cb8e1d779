/* tex.c - textures bound through the launch description and the one sampling function that
 * the SM model (TEX, TLD) and the PTX oracle (tex) both fetch through, so that the two
 * engines cannot differ on a texel.
 *
 *   --tex NAME:TYPE[xN]:W[xH[xD]][:MODES][:INIT]
 *
 * TYPE is a channel's type (u8 s8 u16 s16 u32 s32 f32), N the channels (1, 2, 4), the sizes
 * give the geometry; MODES is a comma list of clamp | wrap | mirror | border (addressing),
 * point | linear (filtering), normalized (coordinates in [0, 1)) and normfloat (8- and 16-bit
 * integer channels read as floats, CUDA's cudaReadModeNormalizedFloat); INIT is --arg's
 * buffer initialiser. Texels are stored x fastest, then y, then z, channels interleaved.
 *
 * Sampling follows the CUDA C Programming Guide, appendix "Texture Fetching": nearest-point
 * sampling takes texel floor(x); linear filtering takes xB = x - 0.5, i = floor(xB) and the
 * fraction alpha = xB - i held in 9-bit fixed point with 8 fractional bits (we round it to
 * the nearest 1/256), tex(x) = (1 - alpha) T[i] + alpha T[i + 1], bi- and trilinear alike.
 * Normalised coordinates are scaled by the size first; wrap (x - floor(x)) and mirror need
 * them, as in CUDA. Integer coordinates (PTX tex with .s32 coordinates, tex1Dfetch) index
 * texels directly under the addressing mode, with no filtering.
 *
 * A texture object (CUDA's cudaTextureObject_t, PTX tex with the handle in a .u64 register)
 * is a --tex binding too: `--arg tex:NAME` passes the handle of --tex NAME, DEV_TEX_HANDLE
 * plus the binding's position, and both engines map the register's value back to the
 * binding with dev_tex_index; `--arg surf:NAME` does the same for a surface object (a --surf
 * binding, dev_surf_index). The engines resolve every binding once, after placement
 * (DevBinds: dev_binds_init), and then look a reference up by its binding's index and an
 * object by its handle, never by name per access. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "device/device.h"
#include "device/texsurf.h"

void dev_tex_free(LaunchTex *t)
{
	free(t->name);
	free(t->data.path);
	free(t->data.text);
	free(t->text);
	memset(t, 0, sizeof *t);
}

int dev_chan_type(const char *s, size_t n, Type *t)
{
	static const char *const names[] = { "u8", "s8", "u16", "s16", "u32", "s32", "f32" };
	static const Type types[] = { TY_U8, TY_S8, TY_U16, TY_S16, TY_U32, TY_S32, TY_F32 };

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strlen(names[i]) == n && !strncmp(s, names[i], n)) {
			*t = types[i];
			return 0;
		}
	return -1;
}

/* W[xH[xD]]: positive sizes */
int dev_parse_dims(const char *s, LaunchTex *t)
{
	t->ndims = 0;
	t->dims[0] = t->dims[1] = t->dims[2] = 1;
	for (const char *p = s;;) {
		char *end;
		unsigned long long v;
		if (*p < '0' || *p > '9' || t->ndims == 3)
			return -1;
		v = strtoull(p, &end, 10);
		if (v == 0 || v > 65536)
			return -1;
		t->dims[t->ndims++] = (uint32_t)v;
		if (!*end)
			return 0;
		if (*end != 'x')
			return -1;
		p = end + 1;
	}
}

/* a comma list of mode words: 1 when s is one (and t takes it), 0 when s is not a mode list */
static int parse_modes(char *s, LaunchTex *t)
{
	static const char *const addr[] = { "clamp", "wrap", "mirror", "border" };
	LaunchTex c = *t;

	for (char *p = s, *q; p; p = q) {
		int ok = 0;
		if ((q = strchr(p, ',')))
			*q++ = 0;
		for (int i = 0; i < 4; i++)
			if (!strcmp(p, addr[i]))
				c.addr = (uint8_t)i, ok = 1;
		if (!strcmp(p, "point"))
			c.linear = 0, ok = 1;
		if (!strcmp(p, "linear"))
			c.linear = 1, ok = 1;
		if (!strcmp(p, "normalized"))
			c.norm = 1, ok = 1;
		if (!strcmp(p, "normfloat"))
			c.normfloat = 1, ok = 1;
		if (!strcmp(p, "layered"))
			c.layered = 1, ok = 1;
		if (!strcmp(p, "cube"))
			c.cube = 1, ok = 1;
		if (!ok)
			return 0;
	}
	*t = c;
	return 1;
}

static int isfloatread(const LaunchTex *t)
{
	return t->data.type == TY_F32 || t->normfloat;
}

int dev_parse_tex(const char *s, const char *basedir, LaunchTex *t, char *why)
{
	char *dup = strdup(s), *f[4] = {0}, *rest = NULL, *x, *buf = NULL;
	uint64_t count;
	int nf = 0, rc = -1;
	Type ty;

	memset(t, 0, sizeof *t);
	snprintf(why, 256, "NAME:TYPE[xN]:W[xH[xD]][:MODES][:INIT]");
	if (!dup)
		return -1;
	for (char *p = dup; p && nf < 3; ) {
		f[nf++] = p;
		if ((p = strchr(p, ':')))
			*p++ = 0;
		rest = p;
	}
	if (nf < 3 || !*f[0])
		goto out;
	x = strchr(f[1], 'x');
	if (dev_chan_type(f[1], x ? (size_t)(x - f[1]) : strlen(f[1]), &ty)) {
		snprintf(why, 256, "NAME:TYPE[xN]:... with TYPE one of u8 s8 u16 s16 u32 s32 f32");
		goto out;
	}
	t->chans = 1;
	if (x && (strcmp(x, "x1") && strcmp(x, "x2") && strcmp(x, "x4"))) {
		snprintf(why, 256, "NAME:TYPExN:... with N one of 1, 2, 4 (channels)");
		goto out;
	}
	if (x)
		t->chans = x[1] - '0';
	if (dev_parse_dims(f[2], t)) {
		snprintf(why, 256, "NAME:TYPE:W[xH[xD]] with sizes in 1..65536");
		goto out;
	}
	/* MODES, when the next field is a list of mode words; the rest is the initialiser */
	if (rest) {
		char *c = strchr(rest, ':'), save = 0;
		if (c)
			save = *c, *c = 0;
		char *m = strdup(rest);
		int ismode = m && parse_modes(m, t);
		free(m);
		if (c)
			*c = save;
		if (ismode)
			rest = c ? c + 1 : NULL;
	}
	if (t->cube) {
		/* W x W x 6 faces, or W x W x 6L for L cubes (CUDA's cubemap and cubemap layered
		 * arrays: the extent's depth is 6, or 6 times the layers); face coordinates are
		 * normalised by definition */
		if (t->ndims != 3 || t->dims[0] != t->dims[1] || t->dims[2] % 6 ||
		    (!t->layered && t->dims[2] != 6)) {
			snprintf(why, 256, "cube: W x W x 6 (faces), cube,layered: W x W x 6L (L cubes)");
			goto out;
		}
		t->norm = 1;
		t->layers = t->layered ? t->dims[2] / 6 : 0;
	} else if (t->layered) {
		if (t->ndims < 2) {
			snprintf(why, 256, "layered: W x L (1D) or W x H x L (2D), the last size the layers");
			goto out;
		}
		t->layers = t->dims[t->ndims - 1];
	}
	if ((t->addr == TEXA_WRAP || t->addr == TEXA_MIRROR) && !t->norm) {
		snprintf(why, 256, "wrap or mirror only with normalized coordinates (CUDA's rule)");
		goto out;
	}
	if (t->normfloat && ty != TY_U8 && ty != TY_S8 && ty != TY_U16 && ty != TY_S16) {
		snprintf(why, 256, "normfloat only with 8- or 16-bit integer channels");
		goto out;
	}
	t->data.type = ty;
	if (t->linear && !isfloatread(t)) {
		snprintf(why, 256, "linear only with f32 channels or normfloat (CUDA's rule)");
		goto out;
	}
	count = (uint64_t)t->dims[0] * t->dims[1] * t->dims[2] * (uint64_t)t->chans;
	if (count > (1ull << 32)) {
		snprintf(why, 256, "at most 4294967296 channels in all");
		goto out;
	}
	{
		const char *tn = f[1];
		size_t n = strlen(tn) + (rest ? strlen(rest) : 0) + 48;
		if (!(buf = malloc(n)))
			goto out;
		snprintf(buf, n, "buf:%.*s:%" PRIu64 "%s%s", x ? (int)(x - tn) : (int)strlen(tn), tn,
		         count, rest ? ":" : "", rest ? rest : "");
	}
	if (dev_parse_arg(buf, basedir, &t->data, why))
		goto out;
	t->data.type = ty;
	if (!(t->name = strdup(f[0])) || !(t->text = strdup(s)))
		goto out;
	rc = 0;
out:
	free(buf);
	free(dup);
	if (rc)
		dev_tex_free(t);
	return rc;
}

static void alloc_name(char *buf, size_t n, const char *tex)
{
	snprintf(buf, n, "texture %.100s", tex);
}

int dev_tex_place(Mem *m, const Launch *l, FILE *err)
{
	for (int i = 0; i < l->ntexs; i++) {
		const LaunchTex *t = &l->texs[i];
		uint64_t bytes = t->data.count * (uint64_t)isa_type_bytes(t->data.type), addr;
		char name[128], what[160];
		if (dev_tex_find(l, t->name) != i) {
			fprintf(err, "warpsim: --tex %s: texture '%s' is bound twice\n", t->text, t->name);
			return -1;
		}
		alloc_name(name, sizeof name, t->name);
		if (!(addr = dev_mem_alloc(m, bytes, 16, name))) {
			fprintf(err, "warpsim: --tex %s: cannot allocate %" PRIu64 " bytes\n", t->text, bytes);
			return -1;
		}
		snprintf(what, sizeof what, "--tex %.100s", t->name);
		if (dev_fill(&t->data, dev_mem_global(m, addr, 0), err, what))
			return -1;
	}
	return 0;
}

/* the index of the binding named name among n bindings whose name is the first field (char *)
 * of each stride-byte element of a (LaunchTex, LaunchSurf), or -1 */
int dev_find_named(const void *a, size_t stride, int n, const char *name)
{
	for (int i = 0; i < n; i++) {
		const char *const *s = (const char *const *)(const void *)((const char *)a + (size_t)i * stride);
		if (!strcmp(*s, name))
			return i;
	}
	return -1;
}

/* i for a handle base + i with i below n, else -1 */
int dev_handle_index(uint64_t handle, uint64_t base, int n)
{
	return handle >= base && handle - base < (uint64_t)n ? (int)(handle - base) : -1;
}

int dev_tex_find(const Launch *l, const char *name)
{
	return dev_find_named(l->texs, sizeof *l->texs, l->ntexs, name);
}

int dev_tex_index(const Launch *l, uint64_t handle)
{
	return dev_handle_index(handle, DEV_TEX_HANDLE, l->ntexs);
}

/* binding i of l as placed in m (its texels are the allocation dev_tex_place named): 0, or -1 */
static int tex_placed(Mem *m, const Launch *l, int i, DevTex *out)
{
	char an[128];

	alloc_name(an, sizeof an, l->texs[i].name);
	for (int j = m->n - 1; j >= 0; j--)   /* (the latest: an earlier launch may bind the name) */
		if (m->a[j].name && !strcmp(m->a[j].name, an)) {
			out->t = &l->texs[i];
			out->texels = m->a[j].bytes;
			return 0;
		}
	return -1;
}

/* floor of a float as an int, saturated far outside any texture; NaN gives 0 */
static int64_t ifloor(double u)
{
	if (!(u == u))
		return 0;
	if (u < -1e9)
		return -1000000000;
	if (u > 1e9)
		return 1000000000;
	return (int64_t)floor(u);
}

/* the texel index i of a dimension of n under the addressing mode, or -1 (border: zero) */
static int64_t address(const LaunchTex *t, int64_t i, int64_t n)
{
	switch ((TexAddr)t->addr) {
	case TEXA_CLAMP: return i < 0 ? 0 : i >= n ? n - 1 : i;
	case TEXA_BORDER: return i < 0 || i >= n ? -1 : i;
	case TEXA_WRAP: return ((i % n) + n) % n;
	case TEXA_MIRROR: {
		int64_t p = ((i % (2 * n)) + 2 * n) % (2 * n);
		return p < n ? p : 2 * n - 1 - p;
	}
	}
	return -1;
}

/* the stored bits of channel ch of texel (x, y, z) (indices already addressed), zero-extended;
 * -1 for the border (an index of -1) or a channel the texture lacks */
static int texel_raw(const DevTex *x, const int64_t i[3], int ch, uint64_t *v)
{
	const LaunchTex *t = x->t;
	int es = isa_type_bytes(t->data.type);
	uint64_t k;

	if (ch >= t->chans || i[0] < 0 || i[1] < 0 || i[2] < 0)
		return -1;
	k = (((uint64_t)i[2] * t->dims[1] + (uint64_t)i[1]) * t->dims[0] + (uint64_t)i[0]) * t->chans + ch;
	*v = dev_ld(x->texels + k * es, es);
	return 0;
}

/* channel ch of a texel as a float (0 at the border) */
static float texel_f(const DevTex *x, const int64_t i[3], int ch)
{
	const LaunchTex *t = x->t;
	uint64_t v;
	float f;

	if (texel_raw(x, i, ch, &v))
		return 0.0f;
	switch (t->data.type) {
	case TY_F32: {
		uint32_t u = (uint32_t)v;
		memcpy(&f, &u, 4);
		return f;
	}
	case TY_U8: return (float)v / 255.0f;
	case TY_U16: return (float)v / 65535.0f;
	case TY_S8: f = (float)(int8_t)v / 127.0f; return f < -1.0f ? -1.0f : f;
	case TY_S16: f = (float)(int16_t)v / 32767.0f; return f < -1.0f ? -1.0f : f;
	case TY_NONE: case TY_U32: case TY_S32: case TY_U64: case TY_S64: case TY_F16:
	case TY_F64: case TY_B64: case TY_B128: case TY_COUNT:
		break;   /* not reached: dev_parse_tex allows float reads of the types above only */
	}
	return 0.0f;
}

/* channel ch of a texel as integer bits: sign- or zero-extended to 32 */
static uint32_t texel_i(const DevTex *x, const int64_t i[3], int ch)
{
	const LaunchTex *t = x->t;
	uint64_t v;

	if (texel_raw(x, i, ch, &v))
		return 0;
	if (t->data.type == TY_S8)
		return (uint32_t)(int32_t)(int8_t)v;
	if (t->data.type == TY_S16)
		return (uint32_t)(int32_t)(int16_t)v;
	return (uint32_t)v;
}

static uint32_t fbits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

/* the texels a fetch at c reads, dimension by dimension: i0 (and for linear filtering i1 and
 * the fixed-point weight w of i1), addressed (-1: the border); dimensions past geom are 0 */
static void footprint(const LaunchTex *t, int geom, int fl, int lin, const uint32_t c[3],
                      int64_t i0[3], int64_t i1[3], float w[3])
{
	for (int d = 0; d < 3; d++) {
		int64_t n = t->dims[d];
		i0[d] = i1[d] = 0;
		w[d] = 0;
		if (d >= geom)
			continue;
		if (!fl) {
			i0[d] = address(t, (int64_t)(int32_t)c[d], n);
			continue;
		}
		float u;
		memcpy(&u, &c[d], 4);
		double v = u;
		if (t->norm) {
			if (t->addr == TEXA_WRAP)
				v = v - floor(v);
			else if (t->addr == TEXA_MIRROR) {
				double f = floor(v);
				v = v - f;
				if (fmod(f, 2.0) != 0.0)
					v = 1.0 - v;
			}
			v *= (double)n;
		}
		if (!lin) {
			i0[d] = address(t, ifloor(v), n);
			continue;
		}
		v -= 0.5;
		int64_t i = ifloor(v);
		double a = v == v ? v - (double)i : 0.0;
		w[d] = (float)(floor(a * 256.0 + 0.5) / 256.0);
		i0[d] = address(t, i, n);
		i1[d] = address(t, i + 1, n);
	}
}

/* channel ch of texel at as a result word: a float for float reads, else integer bits */
static uint32_t texel(const DevTex *x, const int64_t at[3], int ch)
{
	return isfloatread(x->t) ? fbits(texel_f(x, at, ch)) : texel_i(x, at, ch);
}

/* the fetch of dev_tex_fetch in nd (1, 2, 3) dimensions of t's sampling at c, in slice slice
 * of the binding (a layer or a cube's face: texel index nd, whole) */
static void fetch_at(const DevTex *x, const LaunchTex *t, int nd, int fl, const uint32_t c[3],
                     int64_t slice, uint32_t out[4])
{
	int64_t i0[3], i1[3];
	float w[3];                /* the fixed-point fraction of each dimension (linear) */
	int lin = fl && t->linear;

	footprint(t, nd, fl, lin, c, i0, i1, w);
	if (nd < 3)
		i0[nd] = i1[nd] = slice;
	for (int ch = 0; ch < 4; ch++) {
		if (!lin) {
			out[ch] = texel(x, i0, ch);
			continue;
		}
		/* the Guide's weighted sum over the 2, 4 or 8 neighbours: the weights are exact
		 * (multiples of 1/256, products of at most three), the sum is taken in double */
		double sum = 0.0;
		for (int corner = 0; corner < (1 << nd); corner++) {
			int64_t at[3];
			double wt = 1.0;
			for (int d = 0; d < 3; d++) {
				int hi = d < nd && (corner >> d & 1);
				at[d] = hi ? i1[d] : i0[d];
				if (d < nd)
					wt *= hi ? (double)w[d] : 1.0 - (double)w[d];
			}
			sum += wt * (double)texel_f(x, at, ch);
		}
		out[ch] = fbits((float)sum);
	}
}

static float bitsf(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

int dev_tex_cube_face(float x, float y, float z, float *u, float *v)
{
	float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), m, s, t;
	int face;

	/* the Guide's table: the major axis is the largest magnitude; where two tie (the Guide's
	 * conditions are strict) warpsim takes z before y before x */
	if (az >= ax && az >= ay)
		face = z >= 0 ? 4 : 5, m = az, s = z >= 0 ? x : -x, t = -y;
	else if (ay >= ax)
		face = y >= 0 ? 2 : 3, m = ay, s = x, t = y >= 0 ? z : -z;
	else
		face = x >= 0 ? 0 : 1, m = ax, s = x >= 0 ? -z : z, t = -y;
	*u = (s / m + 1.0f) * 0.5f;
	*v = (t / m + 1.0f) * 0.5f;
	return face;
}

uint32_t dev_tex_layer(uint32_t index, uint32_t n)
{
	return index < n ? index : n ? n - 1 : 0;
}

static const char *const geom_names[] = { "", ".1d", ".2d", ".3d", ".a1d", ".a2d", ".cube",
                                          ".acube" };

const char *dev_tex_geom_bad(const DevTex *x, int geom)
{
	static _Thread_local char why[200];
	const LaunchTex *t = x->t;
	int want;              /* the geometry the binding has, for the arrays and cubes */

	if (t->cube)
		want = t->layered ? DEV_TEX_ACUBE : DEV_TEX_CUBE;
	else if (t->layered)
		want = t->ndims == 2 ? DEV_TEX_A1D : DEV_TEX_A2D;
	else
		want = 0;      /* 1D, 2D, 3D: fetched with any of those (docs/warpsim.md) */
	if (want ? geom == want : geom <= DEV_TEX_3D)
		return NULL;
	snprintf(why, sizeof why, "texture '%.100s' is bound as %s, fetched with %s", t->name,
	         want ? geom_names[want] : ".1d, .2d or .3d (no layers, no cube faces)",
	         geom_names[geom > 0 && geom <= DEV_TEX_ACUBE ? geom : 0]);
	return why;
}

void dev_tex_fetch(const DevTex *x, int geom, int fl, const uint32_t c[4], uint32_t out[4])
{
	const LaunchTex *t = x->t;
	int arr = geom == DEV_TEX_A1D || geom == DEV_TEX_A2D || geom == DEV_TEX_ACUBE;
	uint32_t layer = arr ? dev_tex_layer(c[0], t->layers) : 0, cc[3] = {0, 0, 0};

	if (geom == DEV_TEX_CUBE || geom == DEV_TEX_ACUBE) {
		/* the face's 2D fetch at (u, v), normalised, in slice 6 layer + face */
		const uint32_t *d = c + arr;
		float u, v;
		int face = dev_tex_cube_face(bitsf(d[0]), bitsf(d[1]), bitsf(d[2]), &u, &v);
		cc[0] = fbits(u);
		cc[1] = fbits(v);
		fetch_at(x, t, 2, 1, cc, (int64_t)layer * 6 + face, out);
		return;
	}
	if (arr) {
		int nd = geom == DEV_TEX_A1D ? 1 : 2;
		memcpy(cc, c + 1, (size_t)nd * sizeof *cc);
		fetch_at(x, t, nd, fl, cc, layer, out);
		return;
	}
	memcpy(cc, c, sizeof cc);
	fetch_at(x, t, geom, fl, cc, 0, out);
}

void dev_tex_gather(const DevTex *x, int comp, const uint32_t c[2], uint32_t out[4])
{
	uint32_t cc[3] = {c[0], c[1], 0};
	int64_t i0[3], i1[3], at[3] = {0, 0, 0};
	float w[3];

	footprint(x->t, 2, 1, 1, cc, i0, i1, w);
	/* counter-clockwise from the lower left: (i, j+1), (i+1, j+1), (i+1, j), (i, j) */
	for (int k = 0; k < 4; k++) {
		at[0] = k == 1 || k == 2 ? i1[0] : i0[0];
		at[1] = k < 2 ? i1[1] : i0[1];
		out[k] = texel(x, at, comp);
	}
}

/* ------------------------------------------------------------------ queries
 * txq and suq answer with the values the PTX ISA gives ("Texture Sampler and Surface Types",
 * tables "Opaque Type Fields" and "OpenCL 1.0 Channel Data Type / Channel Order Definition"):
 * the channel data type and order are enumerations of the source language's API, and the ISA
 * names OpenCL 1.0's as the only one that defines them, so those are the values (an integer
 * channel read as normfloat is CL_UNORM_* / CL_SNORM_*); .filter_mode is an integer of
 * { nearest, linear } and .addr_mode_N of { wrap, mirror, clamp_ogl, clamp_to_edge,
 * clamp_to_border } (ours: wrap 0, mirror 1, clamp 3, border 4; clamp_ogl is never bound).
 * A binding is no array, has no mipmaps and no samples: 0 for those counts, as the ISA says
 * of a texture that is not one; no texture object has an independent sampler, so
 * .force_unnormalized_coords is 0 (the texture's own setting applies). A surface is a buffer
 * in linear memory: .memory_layout 1. */
uint32_t dev_chan_data_type(Type t, int norm)
{
	switch (t) {
	case TY_U8: return norm ? 0x10D2 : 0x10DA;     /* CL_UNORM_INT8, CL_UNSIGNED_INT8 */
	case TY_S8: return norm ? 0x10D0 : 0x10D7;     /* CL_SNORM_INT8, CL_SIGNED_INT8 */
	case TY_U16: return norm ? 0x10D3 : 0x10DB;    /* CL_UNORM_INT16, CL_UNSIGNED_INT16 */
	case TY_S16: return norm ? 0x10D1 : 0x10D8;    /* CL_SNORM_INT16, CL_SIGNED_INT16 */
	case TY_U32: return 0x10DC;                    /* CL_UNSIGNED_INT32 */
	case TY_S32: return 0x10D9;                    /* CL_SIGNED_INT32 */
	case TY_F32: return 0x10DE;                    /* CL_FLOAT */
	case TY_NONE: case TY_U64: case TY_S64: case TY_F16: case TY_F64: case TY_B64: case TY_B128:
	case TY_COUNT:
		break;   /* not reached: dev_chan_type allows the types above only */
	}
	return 0;
}

/* CL_R, CL_RG, CL_RGBA for 1, 2, 4 channels */
uint32_t dev_chan_order(int chans)
{
	return chans == 1 ? 0x10B0 : chans == 2 ? 0x10B2 : 0x10B5;
}

uint32_t dev_tex_query(const DevTex *x, DevTexQuery q)
{
	static const uint32_t addr_mode[] = { [TEXA_CLAMP] = 3, [TEXA_WRAP] = 0, [TEXA_MIRROR] = 1,
	                                      [TEXA_BORDER] = 4 };
	const LaunchTex *t = x->t;

	switch (q) {
	case DEV_TXQ_WIDTH: case DEV_TXQ_HEIGHT: case DEV_TXQ_DEPTH:
		/* a layered or cube binding's last size counts layers or faces, not texels */
		if ((t->layered || t->cube) && (int)(q - DEV_TXQ_WIDTH) >= t->ndims - 1)
			return 1;
		return t->dims[q - DEV_TXQ_WIDTH];
	case DEV_TXQ_ARRAY_SIZE: return t->layers;
	case DEV_TXQ_NORMALIZED: return t->norm;
	case DEV_TXQ_CHANNEL_TYPE: return dev_chan_data_type(t->data.type, t->normfloat);
	case DEV_TXQ_CHANNEL_ORDER: return dev_chan_order(t->chans);
	case DEV_TXQ_FILTER_MODE: return t->linear;
	case DEV_TXQ_ADDR_MODE_0: case DEV_TXQ_ADDR_MODE_1: case DEV_TXQ_ADDR_MODE_2:
		return addr_mode[t->addr];
	case DEV_TXQ_MIPMAP_LEVELS: case DEV_TXQ_SAMPLES:
	case DEV_TXQ_FORCE_UNNORMALIZED: case DEV_TXQ_MEMORY_LAYOUT: case DEV_TXQ_COUNT:
		break;
	}
	return 0;
}

/* ------------------------------------------------------------------ bindings resolved */
int dev_binds_init(DevBinds *b, Mem *m, const Launch *l)
{
	memset(b, 0, sizeof *b);
	if ((l->ntexs && !(b->tex = calloc((size_t)l->ntexs, sizeof *b->tex))) ||
	    (l->nsurfs && !(b->surf = calloc((size_t)l->nsurfs, sizeof *b->surf)))) {
		dev_binds_free(b);
		return -1;
	}
	b->ntex = l->ntexs;
	b->nsurf = l->nsurfs;
	for (int i = 0; i < b->ntex; i++)
		if (tex_placed(m, l, i, &b->tex[i]))
			b->tex[i].t = NULL;
	for (int i = 0; i < b->nsurf; i++)
		if (dev_surf_placed(m, l, i, &b->surf[i]))
			b->surf[i].s = NULL;
	return 0;
}

void dev_binds_free(DevBinds *b)
{
	free(b->tex);
	free(b->surf);
	memset(b, 0, sizeof *b);
}

const DevTex *dev_binds_tex(const DevBinds *b, int i)
{
	return i >= 0 && i < b->ntex && b->tex[i].t ? &b->tex[i] : NULL;
}

const DevSurf *dev_binds_surf(const DevBinds *b, int i)
{
	return i >= 0 && i < b->nsurf && b->surf[i].s ? &b->surf[i] : NULL;
}

int dev_binds_kernel(const DevBinds *b, const Launch *l, const Kernel *k, DevTex *tex,
                     DevSurf *surf, FILE *err)
{
	for (int i = 0; i < k->ntex + k->nsurf; i++) {
		int su = i >= k->ntex;
		const char *n = su ? k->surf[i - k->ntex] : k->tex[i];
		int bi = su ? dev_surf_find(l, n) : dev_tex_find(l, n);
		const DevTex *x = b && !su ? dev_binds_tex(b, bi) : NULL;
		const DevSurf *u = b && su ? dev_binds_surf(b, bi) : NULL;
		if (bi < 0 || (b && !x && !u)) {
			fprintf(err, "warpsim: kernel '%s' %s '%s', which no --%s binds\n", k->name,
			        su ? "uses surface" : "reads texture", n, su ? "surf" : "tex");
			return -1;
		}
		if (u)
			surf[i - k->ntex] = *u;
		else if (x)
			tex[i] = *x;
	}
	return 0;
}

const DevTex *dev_binds_texobj(const DevBinds *b, uint64_t handle)
{
	return dev_binds_tex(b, dev_handle_index(handle, DEV_TEX_HANDLE, b->ntex));
}

const DevSurf *dev_binds_surfobj(const DevBinds *b, uint64_t handle)
{
	return dev_binds_surf(b, dev_handle_index(handle, DEV_SURF_HANDLE, b->nsurf));
}
