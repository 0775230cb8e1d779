/* test_tex.c - the texture sampler both engines fetch through (device/tex.c), on values
 * worked out by hand from the CUDA C Programming Guide's appendix "Texture Fetching": point
 * sampling, linear filtering with 8-bit fractions, the clamp, border, wrap and mirror
 * addressing modes, normalised coordinates, integer (texel) coordinates, normfloat reads,
 * sign extension, missing channels; tld4's gather and txq's attributes; the --tex option's
 * parser; texture objects' handles (--arg tex:NAME); the surfaces' byte addressing under
 * .trap, .clamp and .zero. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "device/device.h"
#include "tests/unit/helper_check.h"

static uint32_t fb(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static float bf(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* channel 0 of a 1D fetch at float coordinate x of a texture bound by spec over texels */
static float fetch1(const char *spec, const void *texels, float x)
{
	LaunchTex t;
	DevTex d;
	char why[256];
	uint32_t c[4] = {fb(x), 0, 0}, out[4];

	ck_assert_msg(dev_parse_tex(spec, NULL, &t, why) == 0, "%s: %s", spec, why);
	d.t = &t;
	d.texels = texels;
	dev_tex_fetch(&d, 1, 1, c, out);
	dev_tex_free(&t);
	return bf(out[0]);
}

static uint32_t fetch1i(const char *spec, const void *texels, int32_t i, int ch)
{
	LaunchTex t;
	DevTex d;
	char why[256];
	uint32_t c[4] = {(uint32_t)i, 0, 0}, out[4];

	ck_assert_msg(dev_parse_tex(spec, NULL, &t, why) == 0, "%s: %s", spec, why);
	d.t = &t;
	d.texels = texels;
	dev_tex_fetch(&d, 1, 0, c, out);
	dev_tex_free(&t);
	return out[ch];
}

static const float T4[4] = {10, 20, 30, 40};

/* channel 0 of a 1D fetch of T4 at x, by binding */
static const struct { const char *spec; float x, want; } cases[] = {
	/* point sampling: texel floor(x) */
	{"t:f32:4:clamp", 0.0f, 10}, {"t:f32:4:clamp", 1.99f, 20}, {"t:f32:4:clamp", -3.0f, 10},
	{"t:f32:4:clamp", 7.5f, 40}, {"t:f32:4:border", -0.5f, 0}, {"t:f32:4:border", 4.0f, 0},
	{"t:f32:4:border", 3.9f, 40},
	/* normalised: x * 4; wrap keeps x - floor(x), mirror reflects every other period */
	{"t:f32:4:normalized", 0.5f, 30}, {"t:f32:4:wrap,normalized", 1.3f, 20},
	{"t:f32:4:wrap,normalized", -0.1f, 40}, {"t:f32:4:mirror,normalized", 1.125f, 40},
	{"t:f32:4:mirror,normalized", -0.125f, 10}, {"t:f32:4:mirror,normalized", 2.3f, 20},
	/* linear: xB = x - 0.5, i = floor(xB), alpha = xB - i, (1 - alpha) T[i] + alpha T[i+1] */
	{"t:f32:4:linear", 1.5f, 20}, {"t:f32:4:linear", 1.75f, 22.5f},
	{"t:f32:4:linear", 0.25f, 10},              /* T[-1] clamps to T[0] */
	{"t:f32:4:linear,border", 0.25f, 7.5f},     /* T[-1] is 0 */
	/* alpha in 9-bit fixed point with 8 fractional bits: 1/1024 rounds to 0, 3/1024 to 1/256 */
	{"t:f32:4:linear", 1.5f + 1.0f / 1024, 20}, {"t:f32:4:linear", 1.5f + 3.0f / 1024, 20 + 10.0f / 256},
	/* wrap: the neighbours wrap around the ends */
	{"t:f32:4:linear,wrap,normalized", 0.0f, 25}, {"t:f32:4:linear,wrap,normalized", 1.125f, 10},
	{"t:f32:4:linear,wrap,normalized", -0.125f, 40},
};

START_TEST(test_point_linear)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		ck_assert_msg(fetch1(cases[i].spec, T4, cases[i].x) == cases[i].want, "%s at %.9g: %.9g, not %.9g",
		              cases[i].spec, (double)cases[i].x, (double)fetch1(cases[i].spec, T4, cases[i].x),
		              (double)cases[i].want);
}
END_TEST

START_TEST(test_bilinear_normfloat)
{
	/* 2 x 2 u8 texels 0, 255 / 51, 102 read as 0, 1, 0.2, 0.4: the middle weighs each 1/4 */
	static const uint8_t t8[4] = {0, 255, 51, 102};
	LaunchTex t;
	DevTex d;
	char why[256];
	uint32_t c[4] = {fb(1.0f), fb(1.0f), 0}, out[4];

	ck_assert_int_eq(dev_parse_tex("t:u8:2x2:linear,normfloat", NULL, &t, why), 0);
	d.t = &t;
	d.texels = t8;
	dev_tex_fetch(&d, 2, 1, c, out);
	ck_assert_float_eq(bf(out[0]), 0.4f);
	ck_assert_uint_eq(out[1], 0);                          /* a missing channel reads 0 */
	c[0] = fb(1.5f), c[1] = fb(0.5f);                      /* texel (1, 0) exactly */
	dev_tex_fetch(&d, 2, 1, c, out);
	ck_assert_float_eq(bf(out[0]), 1.0f);
	dev_tex_free(&t);
}
END_TEST

START_TEST(test_integer_coordinates)
{
	static const int16_t s16[6] = {-5, 7, 300, -32768, 1, 2};
	static const uint8_t u8[3] = {255, 1, 2};

	ck_assert_uint_eq(fetch1i("t:s16x2:3", s16, 0, 0), 0xfffffffbu);  /* sign-extended */
	ck_assert_uint_eq(fetch1i("t:s16x2:3", s16, 1, 1), 0xffff8000u);
	ck_assert_uint_eq(fetch1i("t:s16x2:3", s16, -4, 1), 7);           /* clamp */
	ck_assert_uint_eq(fetch1i("t:s16x2:3:border", s16, 3, 0), 0);
	ck_assert_uint_eq(fetch1i("t:s16x2:3", s16, 2, 2), 0);            /* missing channel */
	ck_assert_uint_eq(fetch1i("t:u8:3", u8, 0, 0), 255);              /* zero-extended */
	ck_assert_uint_eq(fetch1i("t:u8:3:normfloat", u8, 0, 0), fb(1.0f));
	/* integer coordinates ignore normalisation and filtering (tex1Dfetch) */
	ck_assert_uint_eq(fetch1i("t:f32:4:linear,normalized", T4, 2, 0), fb(30));
	ck_assert_uint_eq(fetch1i("t:f32:4:wrap,normalized", T4, 5, 0), fb(20));
}
END_TEST

START_TEST(test_gather_query)
{
	/* 2 x 2 texels T(x, y) = 2y + x of two channels (the second 10 more); tld4 at (1, 1) takes
	 * i = j = 0: counter-clockwise from the lower left (0, 1), (1, 1), (1, 0), (0, 0) */
	static const float t2[8] = {0, 10, 1, 11, 2, 12, 3, 13};
	LaunchTex t;
	DevTex d;
	char why[256];
	uint32_t c[2] = {fb(1.0f), fb(1.0f)}, out[4];

	ck_assert_int_eq(dev_parse_tex("t:f32x2:2x2:normalized", NULL, &t, why), 0);
	d.t = &t;
	d.texels = (const uint8_t *)t2;
	c[0] = c[1] = fb(0.5f);     /* normalised 0.5 is texel coordinate 1 */
	dev_tex_gather(&d, 0, c, out);
	ck_assert_float_eq(bf(out[0]), 2);
	ck_assert_float_eq(bf(out[1]), 3);
	ck_assert_float_eq(bf(out[2]), 1);
	ck_assert_float_eq(bf(out[3]), 0);
	dev_tex_gather(&d, 1, c, out);
	ck_assert_float_eq(bf(out[0]), 12);
	dev_tex_gather(&d, 3, c, out);          /* a channel the texture lacks */
	ck_assert_uint_eq(out[0], 0);
	ck_assert_uint_eq(dev_tex_query(&d, DEV_TXQ_WIDTH), 2);
	ck_assert_uint_eq(dev_tex_query(&d, DEV_TXQ_DEPTH), 1);
	ck_assert_uint_eq(dev_tex_query(&d, DEV_TXQ_NORMALIZED), 1);
	dev_tex_free(&t);
}
END_TEST

/* txq's attribute n of the binding spec s */
static uint32_t query(const char *s, DevTexQuery q)
{
	LaunchTex t;
	DevTex d;
	char why[256];
	uint32_t v;

	ck_assert_int_eq(dev_parse_tex(s, NULL, &t, why), 0);
	d.t = &t;
	d.texels = NULL;
	v = dev_tex_query(&d, q);
	dev_tex_free(&t);
	return v;
}

START_TEST(test_query_values)
{
	/* the PTX ISA's values ("Texture Sampler and Surface Types"): OpenCL 1.0's channel data
	 * types and orders, filter mode { nearest, linear }, address modes { wrap, mirror,
	 * clamp_ogl, clamp_to_edge, clamp_to_border } */
	ck_assert_uint_eq(query("t:u8:4", DEV_TXQ_CHANNEL_TYPE), 0x10DA);           /* CL_UNSIGNED_INT8 */
	ck_assert_uint_eq(query("t:u8:4:normfloat", DEV_TXQ_CHANNEL_TYPE), 0x10D2); /* CL_UNORM_INT8 */
	ck_assert_uint_eq(query("t:s8:4", DEV_TXQ_CHANNEL_TYPE), 0x10D7);
	ck_assert_uint_eq(query("t:s8:4:normfloat", DEV_TXQ_CHANNEL_TYPE), 0x10D0);
	ck_assert_uint_eq(query("t:u16:4", DEV_TXQ_CHANNEL_TYPE), 0x10DB);
	ck_assert_uint_eq(query("t:u16:4:normfloat", DEV_TXQ_CHANNEL_TYPE), 0x10D3);
	ck_assert_uint_eq(query("t:s16:4", DEV_TXQ_CHANNEL_TYPE), 0x10D8);
	ck_assert_uint_eq(query("t:s16:4:normfloat", DEV_TXQ_CHANNEL_TYPE), 0x10D1);
	ck_assert_uint_eq(query("t:u32:4", DEV_TXQ_CHANNEL_TYPE), 0x10DC);
	ck_assert_uint_eq(query("t:s32:4", DEV_TXQ_CHANNEL_TYPE), 0x10D9);
	ck_assert_uint_eq(query("t:f32:4", DEV_TXQ_CHANNEL_TYPE), 0x10DE);          /* CL_FLOAT */
	ck_assert_uint_eq(query("t:f32:4", DEV_TXQ_CHANNEL_ORDER), 0x10B0);         /* CL_R */
	ck_assert_uint_eq(query("t:f32x2:4", DEV_TXQ_CHANNEL_ORDER), 0x10B2);       /* CL_RG */
	ck_assert_uint_eq(query("t:f32x4:4", DEV_TXQ_CHANNEL_ORDER), 0x10B5);       /* CL_RGBA */
	ck_assert_uint_eq(query("t:f32:4", DEV_TXQ_FILTER_MODE), 0);
	ck_assert_uint_eq(query("t:f32:4:linear", DEV_TXQ_FILTER_MODE), 1);
	ck_assert_uint_eq(query("t:f32:4x4:wrap,normalized", DEV_TXQ_ADDR_MODE_0), 0);
	ck_assert_uint_eq(query("t:f32:4x4:mirror,normalized", DEV_TXQ_ADDR_MODE_1), 1);
	ck_assert_uint_eq(query("t:f32:4x4", DEV_TXQ_ADDR_MODE_0), 3);               /* clamp */
	ck_assert_uint_eq(query("t:f32:4x4x2:border", DEV_TXQ_ADDR_MODE_2), 4);
	ck_assert_uint_eq(query("t:f32:4x4:normalized", DEV_TXQ_NORMALIZED), 1);
	ck_assert_uint_eq(query("t:f32:4x4", DEV_TXQ_NORMALIZED), 0);
	ck_assert_uint_eq(query("t:f32:4x3x2", DEV_TXQ_HEIGHT), 3);
	ck_assert_uint_eq(query("t:f32:4x3x2", DEV_TXQ_ARRAY_SIZE), 0);
	ck_assert_uint_eq(query("t:f32:4x3x2", DEV_TXQ_MIPMAP_LEVELS), 0);
	ck_assert_uint_eq(query("t:f32:4x3x2", DEV_TXQ_SAMPLES), 0);
	ck_assert_uint_eq(query("t:f32:4:normalized", DEV_TXQ_FORCE_UNNORMALIZED), 0);
}
END_TEST

START_TEST(test_surface_addressing)
{
	/* 4 x 2 elements of u32 (rows of 16 bytes) at 0x1000: x is a byte offset */
	LaunchSurf u;
	DevSurf x;
	char why[256];
	int fault;
	int32_t in[3] = {4, 1, 0}, right[3] = {16, 0, 0}, left[3] = {-4, 0, 0}, below[3] = {8, 2, 0};

	ck_assert_int_eq(dev_parse_surf("s:0:u32:4x2", &u, why), 0);
	x.s = &u;
	x.base = 0x1000;
	ck_assert_uint_eq(dev_surf_at(&x, 2, in, 4, DEV_SU_TRAP, &fault), 0x1000 + 16 + 4);
	ck_assert_int_eq(fault, 0);
	ck_assert_uint_eq(dev_surf_at(&x, 2, right, 4, DEV_SU_TRAP, &fault), 0);
	ck_assert_int_eq(fault, 1);
	ck_assert_uint_eq(dev_surf_at(&x, 2, right, 4, DEV_SU_CLAMP, &fault), 0x1000 + 12);
	ck_assert_uint_eq(dev_surf_at(&x, 2, right, 2, DEV_SU_CLAMP, &fault), 0x1000 + 14);
	ck_assert_uint_eq(dev_surf_at(&x, 2, left, 4, DEV_SU_CLAMP, &fault), 0x1000);
	ck_assert_uint_eq(dev_surf_at(&x, 2, below, 4, DEV_SU_CLAMP, &fault), 0x1000 + 16 + 8);
	ck_assert_uint_eq(dev_surf_at(&x, 2, below, 4, DEV_SU_ZERO, &fault), 0);
	ck_assert_int_eq(fault, 0);
	ck_assert_uint_eq(dev_surf_at(&x, 1, below, 4, DEV_SU_TRAP, &fault), 0x1000 + 8);  /* 1D: row 0 */
	ck_assert_uint_eq(dev_surf_query(&x, DEV_TXQ_WIDTH), 4);
	ck_assert_uint_eq(dev_surf_query(&x, DEV_TXQ_HEIGHT), 2);
	ck_assert_uint_eq(dev_surf_query(&x, DEV_TXQ_DEPTH), 1);
	/* OpenCL 1.0's CL_UNSIGNED_INT32 and CL_R (PTX ISA tables 12, 13), no array, linear memory */
	ck_assert_uint_eq(dev_surf_query(&x, DEV_TXQ_CHANNEL_TYPE), 0x10DC);
	ck_assert_uint_eq(dev_surf_query(&x, DEV_TXQ_CHANNEL_ORDER), 0x10B0);
	ck_assert_uint_eq(dev_surf_query(&x, DEV_TXQ_ARRAY_SIZE), 0);
	ck_assert_uint_eq(dev_surf_query(&x, DEV_TXQ_MEMORY_LAYOUT), 1);
	dev_surf_free(&u);
	ck_assert_int_eq(dev_parse_surf("s:x:u32:4", &u, why), -1);
	ck_assert_int_eq(dev_parse_surf("s:0:f64:4", &u, why), -1);
	ck_assert_int_eq(dev_parse_surf("s:0:u32", &u, why), -1);
	ck_assert_int_eq(dev_parse_surf("s:0:u32:4:zero", &u, why), -1);
	ck_assert_int_eq(dev_parse_surf("s:0:u32:4:layered", &u, why), -1);   /* no layers */
	/* layered: 3 layers of 4 x 2; the layers are no dimension of suq */
	ck_assert_int_eq(dev_parse_surf("s:0:u32:4x2x3:layered", &u, why), 0);
	x.s = &u;
	ck_assert_uint_eq(dev_surf_query(&x, DEV_TXQ_HEIGHT), 2);
	ck_assert_uint_eq(dev_surf_query(&x, DEV_TXQ_DEPTH), 1);
	ck_assert_uint_eq(dev_surf_query(&x, DEV_TXQ_ARRAY_SIZE), 3);
	dev_surf_free(&u);
}
END_TEST

START_TEST(test_parse)
{
	LaunchTex t;
	char why[256];

	ck_assert_int_eq(dev_parse_tex("img:f32x4:8x6x2:border,linear:random:3:-1:1", NULL, &t, why), 0);
	ck_assert_str_eq(t.name, "img");
	ck_assert_int_eq(t.chans, 4);
	ck_assert_int_eq(t.ndims, 3);
	ck_assert_uint_eq(t.dims[1], 6);
	ck_assert_int_eq(t.addr, TEXA_BORDER);
	ck_assert_int_eq(t.linear, 1);
	ck_assert_uint_eq(t.data.count, 8 * 6 * 2 * 4);
	ck_assert_int_eq(t.data.init, INIT_RANDOM);
	dev_tex_free(&t);
	ck_assert_int_eq(dev_parse_tex("a:u16:5:iota", NULL, &t, why), 0);   /* no modes */
	ck_assert_int_eq(t.data.init, INIT_IOTA);
	dev_tex_free(&t);
	ck_assert_int_eq(dev_parse_tex("a:f32:4:wrap", NULL, &t, why), -1);
	ck_assert_str_eq(why, "wrap or mirror only with normalized coordinates (CUDA's rule)");
	ck_assert_int_eq(dev_parse_tex("a:u32:4:linear", NULL, &t, why), -1);
	ck_assert_int_eq(dev_parse_tex("a:u32:4:normfloat", NULL, &t, why), -1);
	ck_assert_int_eq(dev_parse_tex("a:f64:4", NULL, &t, why), -1);
	ck_assert_int_eq(dev_parse_tex("a:f32x3:4", NULL, &t, why), -1);
	ck_assert_int_eq(dev_parse_tex("a:f32:0", NULL, &t, why), -1);
	ck_assert_int_eq(dev_parse_tex("a:f32:2x2x2x2", NULL, &t, why), -1);
	ck_assert_int_eq(dev_parse_tex("a:f32:4:bogus", NULL, &t, why), -1);
	ck_assert_int_eq(dev_parse_tex("a:f32", NULL, &t, why), -1);
	ck_assert_int_eq(dev_parse_tex(":f32:4", NULL, &t, why), -1);
}
END_TEST

/* texture objects: --arg tex:NAME and the handles the engines map back to a --tex */
START_TEST(test_object_handles)
{
	LaunchTex tx[2] = {{0}};
	Launch l;
	LaunchArg a;
	char why[256];

	memset(&l, 0, sizeof l);
	tx[0].name = "img";
	tx[1].name = "tab";
	l.texs = tx;
	l.ntexs = 2;
	ck_assert_int_eq(dev_tex_find(&l, "tab"), 1);
	ck_assert_int_eq(dev_tex_find(&l, "none"), -1);
	ck_assert_int_eq(dev_tex_index(&l, DEV_TEX_HANDLE), 0);
	ck_assert_int_eq(dev_tex_index(&l, DEV_TEX_HANDLE + 1), 1);
	ck_assert_int_eq(dev_tex_index(&l, DEV_TEX_HANDLE + 2), -1);
	ck_assert_int_eq(dev_tex_index(&l, DEV_TEX_HANDLE - 1), -1);
	ck_assert_int_eq(dev_tex_index(&l, 0), -1);
	ck_assert_int_eq(dev_parse_arg("tex:img", NULL, &a, why), 0);
	ck_assert_str_eq(a.tex, "img");
	ck_assert_int_eq(a.type, TY_U64);
	ck_assert_int_eq(a.isbuf, 0);
	free(a.tex);
	free(a.text);
	ck_assert_int_eq(dev_parse_arg("tex:", NULL, &a, why), -1);
	ck_assert_str_eq(why, "tex:NAME with NAME a --tex binding");
	ck_assert_int_eq(dev_parse_arg("tex:a:b", NULL, &a, why), -1);
}
END_TEST

/* surface objects: --arg surf:NAME and the handles of --surf bindings */
START_TEST(test_surface_handles)
{
	LaunchSurf su[1] = {{0}};
	Launch l;
	LaunchArg a;
	char why[256];

	memset(&l, 0, sizeof l);
	su[0].name = "s";
	l.surfs = su;
	l.nsurfs = 1;
	ck_assert_int_eq(dev_surf_find(&l, "s"), 0);
	ck_assert_int_eq(dev_surf_find(&l, "t"), -1);
	ck_assert_int_eq(dev_surf_index(&l, DEV_SURF_HANDLE), 0);
	ck_assert_int_eq(dev_surf_index(&l, DEV_SURF_HANDLE + 1), -1);
	ck_assert_int_eq(dev_surf_index(&l, DEV_TEX_HANDLE), -1);
	ck_assert_int_eq(dev_parse_arg("surf:s", NULL, &a, why), 0);
	ck_assert_str_eq(a.surf, "s");
	ck_assert_ptr_null(a.tex);
	ck_assert_int_eq(a.type, TY_U64);
	free(a.surf);
	free(a.text);
	ck_assert_int_eq(dev_parse_arg("surf:", NULL, &a, why), -1);
	ck_assert_str_eq(why, "surf:NAME with NAME a --surf binding");
}
END_TEST

/* the cube face and face coordinates of a direction, from the Guide's table "Cubemap Fetch"
 * worked by hand: face (major axis), m = |major|, u = (s/m + 1) / 2, v = (t/m + 1) / 2 */
START_TEST(test_cube_face)
{
	static const struct { float x, y, z; int face; float u, v; } w[] = {
		{ 1, 0.5f, -0.25f, 0, 0.625f, 0.25f },     /* +x: s = -z, t = -y */
		{ -2, 1, 0.5f, 1, 0.625f, 0.25f },         /* -x: s = z, t = -y */
		{ 0.5f, 4, -1, 2, 0.5625f, 0.375f },       /* +y: s = x, t = z */
		{ 0.5f, -4, -1, 3, 0.5625f, 0.625f },      /* -y: s = x, t = -z */
		{ 0.5f, 1, 2, 4, 0.625f, 0.25f },          /* +z: s = x, t = -y */
		{ 0.5f, 1, -2, 5, 0.375f, 0.25f },         /* -z: s = -x, t = -y */
		{ 1, 1, 1, 4, 1, 0 },                      /* a tie: z before y before x */
		{ 1, -1, 0.5f, 3, 1, 0.25f },              /* x and y tie: y */
	};
	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
		float u, v;
		int f = dev_tex_cube_face(w[i].x, w[i].y, w[i].z, &u, &v);
		ck_assert_msg(f == w[i].face && u == w[i].u && v == w[i].v, "case %zu: face %d (%g, %g)",
		              i, f, (double)u, (double)v);
	}
}
END_TEST

/* an array index is a .u32 clamped to the last layer */
START_TEST(test_layer_clamp)
{
	ck_assert_uint_eq(dev_tex_layer(0, 3), 0);
	ck_assert_uint_eq(dev_tex_layer(2, 3), 2);
	ck_assert_uint_eq(dev_tex_layer(3, 3), 2);
	ck_assert_uint_eq(dev_tex_layer(0xffffffffu, 3), 2);   /* -1 as .s32 */
	ck_assert_uint_eq(dev_tex_layer(7, 1), 0);
}
END_TEST

/* channel 0 of a fetch of geometry geom at c from a texture bound by spec over texels */
static float fetchg(const char *spec, const void *texels, int geom, uint32_t c0, float a, float b,
                    float cc)
{
	LaunchTex t;
	DevTex d;
	char why[256];
	uint32_t c[4], out[4];
	int arr = geom == DEV_TEX_A1D || geom == DEV_TEX_A2D || geom == DEV_TEX_ACUBE;

	ck_assert_msg(dev_parse_tex(spec, NULL, &t, why) == 0, "%s: %s", spec, why);
	d.t = &t;
	d.texels = texels;
	ck_assert_ptr_null(dev_tex_geom_bad(&d, geom));
	if (arr)
		c[0] = c0, c[1] = fb(a), c[2] = fb(b), c[3] = fb(cc);
	else
		c[0] = fb(a), c[1] = fb(b), c[2] = fb(cc), c[3] = 0;
	dev_tex_fetch(&d, geom, 1, c, out);
	dev_tex_free(&t);
	return bf(out[0]);
}

/* texel value slice * 10 + j * 2 + i: the fetches pick the face and layer worked out above */
START_TEST(test_layered_cube_fetch)
{
	float cube[2 * 2 * 12], lay[3 * 2];

	for (int k = 0; k < 12; k++)
		for (int j = 0; j < 2; j++)
			for (int i = 0; i < 2; i++)
				cube[(k * 2 + j) * 2 + i] = (float)(k * 10 + j * 2 + i);
	/* (1, 0.5, -0.25): face 0 at (0.625, 0.25): texel (1, 0) */
	ck_assert_float_eq(fetchg("c:f32:2x2x6:cube", cube, DEV_TEX_CUBE, 0, 1, 0.5f, -0.25f), 1);
	/* (0.5, 1, -2): face 5 at (0.375, 0.25): texel (0, 0) */
	ck_assert_float_eq(fetchg("c:f32:2x2x6:cube", cube, DEV_TEX_CUBE, 0, 0.5f, 1, -2), 50);
	/* cube 1's face 2 at (0.5625, 0.375): slice 8, texel (1, 0); index 7 clamps to cube 1 */
	ck_assert_float_eq(fetchg("c:f32:2x2x12:cube,layered", cube, DEV_TEX_ACUBE, 1, 0.5f, 4, -1), 81);
	ck_assert_float_eq(fetchg("c:f32:2x2x12:cube,layered", cube, DEV_TEX_ACUBE, 7, 0.5f, 4, -1), 81);
	/* linear on a face: (1, 0, 0) is face 0's centre (0.5, 0.5): the four texels' mean */
	ck_assert_float_eq(fetchg("c:f32:2x2x6:cube,linear", cube, DEV_TEX_CUBE, 0, 1, 0, 0), 1.5f);
	for (int k = 0; k < 6; k++)
		lay[k] = (float)(k / 3 * 10 + k % 3);
	ck_assert_float_eq(fetchg("l:f32:3x2:layered", lay, DEV_TEX_A1D, 1, 2.5f, 0, 0), 12);
	ck_assert_float_eq(fetchg("l:f32:3x2:layered", lay, DEV_TEX_A1D, 9, 2.5f, 0, 0), 12);
	ck_assert_float_eq(fetchg("l:f32:3x2:layered", lay, DEV_TEX_A1D, 0, 2.5f, 0, 0), 2);
	/* 2D layers of 2 x 2 (the cube's texels): layer 3 at (0.5, 1.5): texel (0, 1) */
	ck_assert_float_eq(fetchg("l:f32:2x2x12:layered", cube, DEV_TEX_A2D, 3, 0.5f, 1.5f, 0), 32);
}
END_TEST

/* the sizes, the layers and the geometries a binding takes; the option's errors */
START_TEST(test_layered_bindings)
{
	static const struct { const char *spec; uint32_t w, h, d, n; int geom, other; } b[] = {
		{ "t:f32:3x2:layered", 3, 1, 1, 2, DEV_TEX_A1D, DEV_TEX_1D },
		{ "t:f32:4x3x5:layered", 4, 3, 1, 5, DEV_TEX_A2D, DEV_TEX_2D },
		{ "t:f32:2x2x6:cube", 2, 2, 1, 0, DEV_TEX_CUBE, DEV_TEX_ACUBE },
		{ "t:f32:2x2x12:cube,layered", 2, 2, 1, 2, DEV_TEX_ACUBE, DEV_TEX_CUBE },
		{ "t:f32:4x3", 4, 3, 1, 0, DEV_TEX_2D, DEV_TEX_A2D },
	};
	static const char *const bad[] = { "t:f32:4x4x5:cube", "t:f32:4x3x6:cube", "t:f32:4x4:cube",
	                                   "t:f32:4x4x12:cube", "t:f32:4:layered" };
	char why[256];

	for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
		LaunchTex t;
		DevTex d;
		ck_assert_msg(dev_parse_tex(b[i].spec, NULL, &t, why) == 0, "%s: %s", b[i].spec, why);
		d.t = &t;
		d.texels = NULL;
		ck_assert_uint_eq(dev_tex_query(&d, DEV_TXQ_WIDTH), b[i].w);
		ck_assert_uint_eq(dev_tex_query(&d, DEV_TXQ_HEIGHT), b[i].h);
		ck_assert_uint_eq(dev_tex_query(&d, DEV_TXQ_DEPTH), b[i].d);
		ck_assert_uint_eq(dev_tex_query(&d, DEV_TXQ_ARRAY_SIZE), b[i].n);
		ck_assert_ptr_null(dev_tex_geom_bad(&d, b[i].geom));
		ck_assert_ptr_nonnull(dev_tex_geom_bad(&d, b[i].other));
		dev_tex_free(&t);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		LaunchTex t;
		ck_assert_msg(dev_parse_tex(bad[i], NULL, &t, why) != 0, "%s parsed", bad[i]);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("tex");
	TCase *tc = tcase_create("sampler");

	tcase_add_test(tc, test_point_linear);
	tcase_add_test(tc, test_bilinear_normfloat);
	tcase_add_test(tc, test_integer_coordinates);
	tcase_add_test(tc, test_gather_query);
	tcase_add_test(tc, test_query_values);
	tcase_add_test(tc, test_surface_addressing);
	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_object_handles);
	tcase_add_test(tc, test_surface_handles);
	tcase_add_test(tc, test_cube_face);
	tcase_add_test(tc, test_layer_clamp);
	tcase_add_test(tc, test_layered_cube_fetch);
	tcase_add_test(tc, test_layered_bindings);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ck_run(suite());
}
