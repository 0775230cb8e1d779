/* surf.c - surfaces bound through the launch description, and the addressing of suld/sust
 * that both engines go through.
 *
 *   --surf NAME:N:TYPE[xN]:W[xH[xD]]
 *
 * binds a surface reference to the buffer of --arg N, so that --out N saves what the kernel
 * stored; suld.b/sust.b address it with x in bytes (rows of W elements), y and z in rows and
 * slices, under the instruction's .trap, .clamp or .zero (dev_surf_at). `--arg surf:NAME`
 * passes a surface object's handle (dev_surf_index). The channel types, the sizes and the
 * queries' values are read and answered as tex.c does for textures (texsurf.h). */
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "device/device.h"
#include "device/texsurf.h"

void dev_surf_free(LaunchSurf *u)
{
	free(u->name);
	free(u->text);
	memset(u, 0, sizeof *u);
}

/* NAME:N:TYPE[xN]:W[xH[xD]][:layered] */
int dev_parse_surf(const char *s, LaunchSurf *u, char *why)
{
	char *dup = strdup(s), *f[5] = {0}, *x, *end;
	LaunchTex shape;
	unsigned long n;
	int nf = 0, rc = -1;

	memset(u, 0, sizeof *u);
	snprintf(why, 256, "NAME:N:TYPE[xN]:W[xH[xD]][:layered] with N a buffer argument");
	if (!dup)
		return -1;
	for (char *p = dup; p && nf < 5; ) {
		f[nf++] = p;
		if ((p = strchr(p, ':')))
			*p++ = 0;
	}
	if (nf < 4 || (nf == 5 && strcmp(f[4], "layered")) || !*f[0] || !*f[1])
		goto out;
	n = strtoul(f[1], &end, 10);
	if (*end || f[1][0] < '0' || f[1][0] > '9' || n > 4096)
		goto out;
	u->param = (int)n;
	x = strchr(f[2], 'x');
	if (dev_chan_type(f[2], x ? (size_t)(x - f[2]) : strlen(f[2]), &u->type)) {
		snprintf(why, 256, "NAME:N:TYPE[xN]:... with TYPE one of u8 s8 u16 s16 u32 s32 f32");
		goto out;
	}
	if (x && (strcmp(x, "x1") && strcmp(x, "x2") && strcmp(x, "x4"))) {
		snprintf(why, 256, "NAME:N:TYPExN:... with N one of 1, 2, 4 (channels)");
		goto out;
	}
	u->chans = x ? x[1] - '0' : 1;
	if (dev_parse_dims(f[3], &shape)) {
		snprintf(why, 256, "NAME:N:TYPE:W[xH[xD]] with sizes in 1..65536");
		goto out;
	}
	u->ndims = shape.ndims;
	memcpy(u->dims, shape.dims, sizeof u->dims);
	if ((u->layered = nf == 5) && u->ndims < 2) {
		snprintf(why, 256, "NAME:N:TYPE:W x L or W x H x L:layered (the last size the layers)");
		goto out;
	}
	if (!(u->name = strdup(f[0])) || !(u->text = strdup(s)))
		goto out;
	rc = 0;
out:
	free(dup);
	if (rc)
		dev_surf_free(u);
	return rc;
}

/* bytes of one element of a surface */
static uint64_t surf_elem(const LaunchSurf *u)
{
	return (uint64_t)isa_type_bytes(u->type) * (uint64_t)u->chans;
}

/* the buffer argument param of l in m: its address and bytes (a --buf buffer's from the
 * offset on; an argument's own buffer is the latest allocation of its name, this launch's:
 * an earlier launch of the run may have had one of the same name); 0, or -1 when not placed */
static int surf_buffer(const Mem *m, const Launch *l, int param, uint64_t *base, uint64_t *bytes)
{
	const LaunchArg *a = &l->args[param];
	char pre[32];

	if (a->bufname) {
		const DevNamed *b = dev_named_find(m, a->bufname);
		uint64_t off = b ? a->bufoff * isa_type_bytes(b->a->type) : 0;
		if (!b || off > b->bytes)
			return -1;
		*base = b->addr + off;
		*bytes = b->bytes - off;
		return 0;
	}
	snprintf(pre, sizeof pre, "parameter %d (", param);
	for (int j = m->n - 1; j >= 0; j--)
		if (m->a[j].name && !strncmp(m->a[j].name, pre, strlen(pre))) {
			*base = m->a[j].base;
			*bytes = m->a[j].size;
			return 0;
		}
	return -1;
}

int dev_surf_check(const Mem *m, const Launch *l, FILE *err)
{
	for (int i = 0; i < l->nsurfs; i++) {
		const LaunchSurf *u = &l->surfs[i];
		uint64_t want = surf_elem(u) * u->dims[0] * u->dims[1] * u->dims[2], have, base;
		if (dev_surf_find(l, u->name) != i) {
			fprintf(err, "warpsim: --surf %s: surface '%s' is bound twice\n", u->text, u->name);
			return -1;
		}
		if (u->param >= l->nargs || !l->args[u->param].isbuf) {
			fprintf(err, "warpsim: --surf %s: argument %d is not a buffer\n", u->text, u->param);
			return -1;
		}
		have = l->args[u->param].count * (uint64_t)isa_type_bytes(l->args[u->param].type);
		if (l->args[u->param].bufname && surf_buffer(m, l, u->param, &base, &have))
			have = 0;
		if (have != want) {
			fprintf(err, "warpsim: --surf %s: argument %d holds %" PRIu64 " bytes, the surface %"
			        PRIu64 "\n", u->text, u->param, have, want);
			return -1;
		}
	}
	return 0;
}

int dev_surf_find(const Launch *l, const char *name)
{
	return dev_find_named(l->surfs, sizeof *l->surfs, l->nsurfs, name);
}

int dev_surf_index(const Launch *l, uint64_t handle)
{
	return dev_handle_index(handle, DEV_SURF_HANDLE, l->nsurfs);
}

/* binding i of l as placed in m (the buffer of its --arg N, surf_buffer): 0, or -1 */
int dev_surf_placed(Mem *m, const Launch *l, int i, DevSurf *out)
{
	uint64_t bytes;

	if (l->surfs[i].param >= l->nargs ||
	    surf_buffer(m, l, l->surfs[i].param, &out->base, &bytes))
		return -1;
	out->s = &l->surfs[i];
	return 0;
}

uint64_t dev_surf_at(const DevSurf *x, int geom, const int32_t c[3], unsigned size, int mode,
                     int *fault)
{
	const LaunchSurf *u = x->s;
	int64_t pitch = (int64_t)surf_elem(u) * u->dims[0], at[3];

	*fault = 0;
	for (int d = 0; d < 3; d++) {
		int64_t v = d < geom ? c[d] : 0;
		int64_t hi = d == 0 ? pitch - (int64_t)size : (int64_t)u->dims[d] - 1;
		if (v < 0 || v > hi) {
			if (mode == DEV_SU_TRAP)
				*fault = 1;
			if (mode != DEV_SU_CLAMP || hi < 0)
				return 0;
			v = v < 0 ? 0 : hi;
		}
		at[d] = v;
	}
	return x->base + (uint64_t)((at[2] * u->dims[1] + at[1]) * pitch + at[0]);
}

/* the formatted store's conversion (PTX ISA, "sust": a UINT surface takes the source as .u32,
 * SINT as .s32, FLOAT as .f32, then converts it to the sample's format): OpenCL 1.0's rules for
 * write_imageui / write_imagei (section 8.3, the source language the ISA names for formatted
 * surfaces) saturate to an 8- or 16-bit integer channel; 32-bit channels take the bits */
static uint32_t surf_convert(Type t, uint32_t v)
{
	int32_t s = (int32_t)v;

	switch (t) {
	case TY_U8: return v > 0xff ? 0xff : v;
	case TY_U16: return v > 0xffff ? 0xffff : v;
	case TY_S8: return (uint32_t)(s < -128 ? -128 : s > 127 ? 127 : s);
	case TY_S16: return (uint32_t)(s < -32768 ? -32768 : s > 32767 ? 32767 : s);
	case TY_U32: case TY_S32: case TY_F32: case TY_NONE: case TY_U64: case TY_S64: case TY_F16:
	case TY_F64: case TY_B64: case TY_B128: case TY_COUNT:
		break;
	}
	return v;
}

uint64_t dev_surf_at_p(const DevSurf *x, int geom, const int32_t c[3], int ch, int mode,
                       uint32_t *v, unsigned *size, int *fault)
{
	const LaunchSurf *u = x->s;
	unsigned es = (unsigned)surf_elem(u), cs = (unsigned)isa_type_bytes(u->type);
	int64_t bx = (int64_t)c[0] * es;
	int32_t cc[3] = { bx < INT32_MIN ? INT32_MIN : bx > INT32_MAX ? INT32_MAX : (int32_t)bx,
	                  c[1], c[2] };
	uint64_t a;

	*fault = 0;
	*size = cs;
	if (ch >= u->chans)
		return 0;   /* the PTX ISA: a source element the sample lacks is ignored */
	if (!(a = dev_surf_at(x, geom, cc, es, mode, fault)))
		return 0;
	*v = surf_convert(u->type, *v);
	return a + (uint64_t)ch * cs;
}

uint32_t dev_surf_query(const DevSurf *x, DevTexQuery q)
{
	const LaunchSurf *u = x->s;

	switch (q) {
	case DEV_TXQ_WIDTH: case DEV_TXQ_HEIGHT: case DEV_TXQ_DEPTH:
		if (u->layered && (int)(q - DEV_TXQ_WIDTH) >= u->ndims - 1)
			return 1;     /* the layers are no dimension */
		return u->dims[q - DEV_TXQ_WIDTH];
	case DEV_TXQ_ARRAY_SIZE: return u->layered ? u->dims[u->ndims - 1] : 0;
	case DEV_TXQ_CHANNEL_TYPE: return dev_chan_data_type(u->type, 0);
	case DEV_TXQ_CHANNEL_ORDER: return dev_chan_order(u->chans);
	case DEV_TXQ_MEMORY_LAYOUT: return 1;
	case DEV_TXQ_NORMALIZED: case DEV_TXQ_MIPMAP_LEVELS: case DEV_TXQ_SAMPLES:
	case DEV_TXQ_FORCE_UNNORMALIZED: case DEV_TXQ_FILTER_MODE: case DEV_TXQ_ADDR_MODE_0:
	case DEV_TXQ_ADDR_MODE_1: case DEV_TXQ_ADDR_MODE_2: case DEV_TXQ_COUNT:
		break;
	}
	return 0;
}
