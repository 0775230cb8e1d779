/* args.c - the launch options' values as text (DESIGN.md's launch description): element types
 * and scalars, --grid/--block dimensions, --arg (scalars, buffers with their initialisers,
 * structs of fields), --buf, --const and --out. launch.c places what they describe in memory.
 * Independent of warps and SMs: the PTX oracle uses it as is. */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <inttypes.h>
#include "device/device.h"

static const struct { const char *name; Type t; } types[] = {
	{"u8", TY_U8}, {"s8", TY_S8}, {"u16", TY_U16}, {"s16", TY_S16}, {"u32", TY_U32},
	{"s32", TY_S32}, {"u64", TY_U64}, {"s64", TY_S64}, {"f32", TY_F32}, {"f64", TY_F64},
};

int dev_parse_type(const char *s, Type *t)
{
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (!strcmp(s, types[i].name)) {
			*t = types[i].t;
			return 0;
		}
	return -1;
}

const char *dev_type_name(Type t)
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
		if (!dev_issigned(t) || parse_u64(s + 1, &m))
			return -1;
		if (m > (1ull << (8 * bytes - 1)))
			return -1;
		*bits = (0 - m) & (bytes == 8 ? ~0ull : (1ull << 8 * bytes) - 1);
		return 0;
	}
	if (parse_u64(s, bits))
		return -1;
	if (bytes < 8 && *bits >> (8 * bytes - dev_issigned(t)))
		return -1;
	if (bytes == 8 && dev_issigned(t) && *bits >> 63)
		return -1;
	return 0;
}

static void range_text(Type t, char *why, const char *what)
{
	int b = 8 * isa_type_bytes(t);

	if (dev_isfloat(t))
		snprintf(why, 256, "%s: a %s number", what, dev_type_name(t));
	else if (dev_issigned(t))
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
		if (dev_issigned(t) && n < 64 && (bits >> (n - 1) & 1))
			bits |= ~0ull << n;        /* sign-extend: the range is compared as signed */
		*i = bits;
	}
	return 0;
}

static int parse_fields(const char *s, const char *basedir, LaunchArg *a, char *why);

/* buf:TYPE:COUNT[:INIT], TYPE:VALUE, tex:NAME, surf:NAME or struct:FIELD[,FIELD...] */
int dev_parse_arg(const char *s, const char *basedir, LaunchArg *a, char *why)
{
	enum { MAXF = 8 };
	char *dup = strdup(s), *f[MAXF] = {0};
	int nf = 0, rc = -1;

	memset(a, 0, sizeof *a);
	snprintf(why, 256, "TYPE:VALUE or buf:TYPE:COUNT[:INIT]");
	if (!dup)
		return -1;
	if (!strncmp(s, "struct:", 7)) {
		/* a struct passed by value: its fields */
		free(dup);
		a->isstruct = 1;
		if (parse_fields(s + 7, basedir, a, why) || !(a->text = strdup(s))) {
			dev_arg_free(a);
			return -1;
		}
		return 0;
	}
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
	} else if (!strcmp(f[0], "buf") && nf == 2 && dev_parse_type(f[1], &a->type)) {
		/* buf:NAME[+N]: the buffer --buf NAME declared (in this launch or an earlier one) */
		a->isbuf = 1;
		if (dev_parse_bufref(f[1], &a->bufname, &a->bufoff))
			snprintf(why, 256, "buf:NAME[+N] with NAME a --buf buffer (letters, digits, _) and "
			         "N an element offset, or buf:TYPE:COUNT[:INIT]");
		else
			rc = 0;
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
			} else if (dev_isfloat(a->type) ? !(a->flo <= a->fhi) :
			           dev_issigned(a->type) ? (int64_t)a->ilo > (int64_t)a->ihi : a->ilo > a->ihi) {
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
		free(a->bufname);
		a->bufname = NULL;
		free(a->path);
		free(a->tex);
		free(a->surf);
		a->path = a->tex = a->surf = NULL;
	}
	return rc;
}

/* ---- --buf NAME=TYPE:COUNT[:INIT] and buf:NAME[+N]: buffers of the run, by name */
/* a name: a letter or '_', then letters, digits and '_' */
static int name_ok(const char *s, size_t n)
{
	static const char first[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";

	return n && strchr(first, s[0]) && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	                                          "0123456789_") >= n;
}

int dev_parse_bufref(const char *s, char **name, uint64_t *off)
{
	const char *plus = strchr(s, '+');
	size_t n = plus ? (size_t)(plus - s) : strlen(s);

	*off = 0;
	if (!name_ok(s, n) || (plus && (parse_u64(plus + 1, off) || *off > (1ull << 32))))
		return -1;
	return (*name = strndup(s, n)) ? 0 : -1;
}

int dev_parse_buf(const char *s, const char *basedir, LaunchBuf *b, char *why)
{
	const char *eq = strchr(s, '=');
	char *spec;
	Type t;

	memset(b, 0, sizeof *b);
	snprintf(why, 256, "NAME=TYPE:COUNT[:INIT] with NAME letters, digits and _ (not a TYPE)");
	if (!eq || !name_ok(s, (size_t)(eq - s)))
		return -1;
	if (!(b->name = strndup(s, (size_t)(eq - s))) || !(b->text = strdup(s)) ||
	    !dev_parse_type(b->name, &t) || !(spec = malloc(strlen(eq) + 4)))
		goto bad;
	snprintf(spec, strlen(eq) + 4, "buf:%s", eq + 1);
	if (dev_parse_arg(spec, basedir, &b->a, why) || !b->a.isbuf || b->a.bufname) {
		if (b->a.bufname)
			snprintf(why, 256, "NAME=TYPE:COUNT[:INIT]");
		free(spec);
		goto bad;
	}
	free(spec);
	return 0;
bad:
	dev_buf_free(b);
	return -1;
}

/* ---- values of fields: --arg struct:FIELD,... and --const NAME=FIELD,... */
enum { MAXFIELDS = 4096, MAXVALUE = DEV_BANK_SIZE };

static uint64_t alignup64(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

/* TYPExN: *t and *n when head (the text before the first colon) is one */
static int array_head(const char *head, size_t len, Type *t, uint64_t *n)
{
	char ty[8], num[24];
	const char *x = memchr(head, 'x', len);

	if (!x || (size_t)(x - head) >= sizeof ty || len - (size_t)(x - head) - 1 >= sizeof num)
		return 0;
	memcpy(ty, head, (size_t)(x - head));
	ty[x - head] = 0;
	memcpy(num, x + 1, len - (size_t)(x - head) - 1);
	num[len - (size_t)(x - head) - 1] = 0;
	return !dev_parse_type(ty, t) && *num && strspn(num, "0123456789") == strlen(num) &&
	       !parse_u64(num, n);
}

/* one field: TYPE:VALUE, a bare VALUE (another element of the previous field's scalar type),
 * buf:TYPE:COUNT[:INIT], tex:NAME, surf:NAME, TYPExN[:INIT] (N elements inline), pad:N */
static int parse_field(const char *s, const char *basedir, const LaunchArg *prev, LaunchArg *f,
                       char *why)
{
	const char *c = strchr(s, ':');
	size_t hl = c ? (size_t)(c - s) : strlen(s);
	uint64_t n;
	Type t;

	memset(f, 0, sizeof *f);
	if (array_head(s, hl, &t, &n)) {
		/* the buffer initialisers' grammar, kept inline */
		char *b = malloc(strlen(s) + 32);
		int rc;
		if (!b)
			return -1;
		snprintf(b, strlen(s) + 32, "buf:%.*s:%" PRIu64 "%s", (int)((const char *)memchr(s, 'x', hl) - s),
		         s, n, c ? c : "");
		rc = dev_parse_arg(b, basedir, f, why);
		free(b);
		if (rc)
			return -1;
		if (n == 0 || n * isa_type_bytes(t) > MAXVALUE) {
			snprintf(why, 256, "TYPExN with N an integer in 1..%u", MAXVALUE / isa_type_bytes(t));
			dev_arg_free(f);
			return -1;
		}
		f->isbuf = 0;
		f->isarr = 1;
		free(f->text);
		return (f->text = strdup(s)) ? 0 : -1;
	}
	if (!c) {
		if (!prev || prev->isbuf || prev->tex || prev->surf || prev->ispad || prev->isarr) {
			snprintf(why, 256, "FIELD[,FIELD...] with each FIELD TYPE:VALUE, buf:TYPE:COUNT[:INIT], "
			         "tex:NAME, surf:NAME, TYPExN[:INIT], pad:N or a VALUE after a TYPE:VALUE");
			return -1;
		}
		f->type = prev->type;
		if (dev_parse_scalar(f->type, s, &f->bits)) {
			range_text(f->type, why, "a VALUE after TYPE:VALUE with VALUE");
			return -1;
		}
		return (f->text = strdup(s)) ? 0 : -1;
	}
	if (hl == 3 && !strncmp(s, "pad", 3)) {
		if (parse_u64(c + 1, &n) || n == 0 || n > MAXVALUE) {
			snprintf(why, 256, "pad:N with N an integer in 1..%u", MAXVALUE);
			return -1;
		}
		f->ispad = 1;
		f->count = n;
		f->type = TY_U8;
		return (f->text = strdup(s)) ? 0 : -1;
	}
	if (hl == 6 && !strncmp(s, "struct", 6)) {
		snprintf(why, 256, "no struct: inside a struct (write the inner struct's fields, "
		         "with pad:N for its tail padding)");
		return -1;
	}
	return dev_parse_arg(s, basedir, f, why);
}

/* the bytes a field takes and its alignment */
uint32_t dev_field_bytes(const LaunchArg *f)
{
	if (f->ispad || f->isarr)
		return (uint32_t)(f->count * (f->ispad ? 1 : isa_type_bytes(f->type)));
	return f->isbuf || f->tex || f->surf ? 8 : (uint32_t)isa_type_bytes(f->type);
}

static uint32_t field_align(const LaunchArg *f)
{
	return f->ispad ? 1 : f->isbuf || f->tex || f->surf ? 8 : (uint32_t)isa_type_bytes(f->type);
}

/* FIELD[,FIELD...] into a's fields, laid out as the C ABI lays out a struct of them: each at
 * the next multiple of its alignment, the size a multiple of the largest */
static int parse_fields(const char *s, const char *basedir, LaunchArg *a, char *why)
{
	char *dup = strdup(s);
	uint64_t off = 0;
	int rc = -1;

	a->align = 1;
	if (!dup)
		return -1;
	for (char *p = dup, *c; p; p = c) {
		LaunchArg *nf;
		uint32_t *no;
		if ((c = strchr(p, ',')))
			*c++ = 0;
		if (a->nfields == MAXFIELDS) {
			snprintf(why, 256, "at most %d fields", MAXFIELDS);
			goto out;
		}
		if (!(nf = realloc(a->fields, (size_t)(a->nfields + 1) * sizeof *nf)))
			goto out;
		a->fields = nf;
		if (!(no = realloc(a->foff, (size_t)(a->nfields + 1) * sizeof *no)))
			goto out;
		a->foff = no;
		if (parse_field(p, basedir, a->nfields ? &a->fields[a->nfields - 1] : NULL,
		                &a->fields[a->nfields], why))
			goto out;
		off = alignup64(off, field_align(&a->fields[a->nfields]));
		a->foff[a->nfields] = (uint32_t)off;
		off += dev_field_bytes(&a->fields[a->nfields]);
		if (field_align(&a->fields[a->nfields]) > a->align)
			a->align = field_align(&a->fields[a->nfields]);
		a->nfields++;
		if (off > MAXVALUE) {
			snprintf(why, 256, "fields of at most %u bytes in all", MAXVALUE);
			goto out;
		}
	}
	a->size = (uint32_t)alignup64(off, a->align);
	rc = a->size > MAXVALUE ? (snprintf(why, 256, "fields of at most %u bytes in all", MAXVALUE), -1) : 0;
out:
	free(dup);
	return rc;
}

/* NAME=FIELD[,FIELD...] or NAME=@PATH */
int dev_parse_const(const char *s, const char *basedir, LaunchConst *c, char *why)
{
	const char *eq = strchr(s, '=');

	memset(c, 0, sizeof *c);
	snprintf(why, 256, "NAME=FIELD[,FIELD...] or NAME=@PATH with NAME a .const variable");
	if (!eq || eq == s || !eq[1] || strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	                                       "0123456789_$.%") != (size_t)(eq - s))
		return -1;
	if (!(c->name = strndup(s, (size_t)(eq - s))) || !(c->text = strdup(s)))
		goto bad;
	if (eq[1] == '@') {
		size_t n = strlen(eq + 2) + (basedir ? strlen(basedir) : 0) + 2;
		if (!eq[2]) {
			snprintf(why, 256, "NAME=@PATH with a file name");
			goto bad;
		}
		if (!(c->path = malloc(n)))
			goto bad;
		if (eq[2] != '/' && basedir && *basedir)
			snprintf(c->path, n, "%s/%s", basedir, eq + 2);
		else
			snprintf(c->path, n, "%s", eq + 2);
		return 0;
	}
	c->v.isstruct = 1;
	if (!strncmp(eq + 1, "struct:", 7))
		eq += 7;          /* as --arg writes a struct; the same fields */
	if (parse_fields(eq + 1, basedir, &c->v, why) || !(c->v.text = strdup(eq + 1)))
		goto bad;
	return 0;
bad:
	dev_const_free(c);
	return -1;
}

/* N[.F]:PATH (a parameter's buffer, or field F of a struct parameter), NAME[.F]:PATH (field F,
 * default 0, of a --const) or NAME:PATH (a module variable's bytes) */
int dev_parse_out(const char *s, LaunchOut *o, char *why)
{
	const char *c = strchr(s, ':'), *dot;
	char num[128];
	uint64_t n;

	snprintf(why, 256, "N[.F]:PATH with N a parameter index, or NAME[.F]:PATH with NAME a --const");
	memset(o, 0, sizeof *o);
	o->field = -1;
	if (!c || c == s || (size_t)(c - s) >= sizeof num || !c[1])
		return -1;
	memcpy(num, s, c - s);
	num[c - s] = 0;
	if ((dot = strrchr(num, '.')) && dot[1] && strspn(dot + 1, "0123456789") == strlen(dot + 1)) {
		if (parse_u64(dot + 1, &n) || n >= MAXFIELDS)
			return -1;
		o->field = (int)n;
		num[dot - num] = 0;
	}
	if (num[0] >= '0' && num[0] <= '9') {
		if (parse_u64(num, &n) || n > 4096)
			return -1;
		o->param = (int)n;
	} else {
		if (!*num || strspn(num, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		                          "0123456789_$.%") != strlen(num))
			return -1;
		o->param = -1;
		if (!(o->cname = strdup(num)))
			return -1;
	}
	if (!(o->path = strdup(c + 1))) {
		free(o->cname);
		o->cname = NULL;
		return -1;
	}
	return 0;
}
