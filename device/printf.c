/* printf.c - device printf as CUDA does it, for both engines: nvcc lowers printf(fmt, ...)
 * to vprintf(fmt, args) with the arguments packed in a local buffer, each at its natural
 * alignment (4 bytes for int, unsigned, char and short; 8 for long, long long, double -
 * floats arrive as doubles - and pointers). dev_printf reads the format and the arguments
 * through the engine's reader (generic addresses) and formats them as C99 printf does for
 * %d %i %u %x %X %o %c %s %f %F %e %E %g %G %a %A %p %% with flags, widths, precisions and
 * the lengths hh h l ll (l is 64 bits on the device, as on the LP64 host). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "device/device.h"

typedef struct {
	DevRead *rd;
	void *ctx;
	uint64_t args;      /* the argument buffer */
	uint32_t off;       /* next argument's offset in it */
	DevText *out;
} Fmt;

static void put(DevText *t, const char *s, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		size_t cap = (t->len + n + 1) * 2;
		char *p = realloc(t->s, cap);
		if (!p) {
			fprintf(stderr, "warpsim: out of memory\n");
			exit(1);
		}
		t->s = p;
		t->cap = cap;
	}
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = 0;
}

/* the next argument of size bytes (4 or 8), at its alignment; 0 when unreadable */
static int arg(Fmt *f, unsigned size, uint64_t *v)
{
	const uint8_t *p;

	f->off = (f->off + size - 1) & ~(size - 1);
	if (!f->args || !(p = f->rd(f->ctx, f->args + f->off, size)))
		return 0;
	*v = dev_ld(p, size);
	f->off += size;
	return 1;
}

/* the string at addr (at most 4096 bytes), or NULL when unreadable */
static char *string(Fmt *f, uint64_t addr, char *buf, size_t n)
{
	size_t k = 0;
	const uint8_t *p;

	if (!addr) {
		snprintf(buf, n, "(null)");
		return buf;
	}
	while (k + 1 < n) {
		if (!(p = f->rd(f->ctx, addr + k, 1)))
			return NULL;
		if (!(buf[k] = (char)*p))
			return buf;
		k++;
	}
	buf[k] = 0;
	return buf;
}

/* one conversion: spec holds "%flags width .prec", c the conversion, len its length */
static int convert(Fmt *f, char *spec, size_t sl, char c, int len, char *err, size_t en)
{
	char buf[4200], str[4097];
	uint64_t v = 0;
	int n;

	switch (c) {
	case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c': {
		unsigned size = len >= 3 ? 8 : 4;    /* l, ll */
		if (!arg(f, size, &v))
			return -1;
		memcpy(spec + sl, "ll", 2);
		spec[sl + 2] = c == 'c' ? 'c' : c;
		spec[sl + 3] = 0;
		if (c == 'c') {
			spec[sl] = 'c';
			spec[sl + 1] = 0;
			n = snprintf(buf, sizeof buf, spec, (int)(unsigned char)v);
		} else if (c == 'd' || c == 'i') {
			long long s = size == 8 ? (long long)v : len == 1 ? (signed char)v :
			              len == 2 ? (short)v : (int32_t)v;
			n = snprintf(buf, sizeof buf, spec, s);
		} else {
			unsigned long long u = size == 8 ? v : len == 1 ? (uint8_t)v : len == 2 ? (uint16_t)v :
			                       (uint32_t)v;
			n = snprintf(buf, sizeof buf, spec, u);
		}
		break;
	}
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
		double d;
		if (!arg(f, 8, &v))
			return -1;
		memcpy(&d, &v, sizeof d);
		spec[sl] = c;
		spec[sl + 1] = 0;
		n = snprintf(buf, sizeof buf, spec, d);
		break;
	}
	case 's':
		if (!arg(f, 8, &v) || !string(f, v, str, sizeof str))
			return -1;
		spec[sl] = 's';
		spec[sl + 1] = 0;
		n = snprintf(buf, sizeof buf, spec, str);
		break;
	case 'p':
		if (!arg(f, 8, &v))
			return -1;
		spec[sl] = 'p';
		spec[sl + 1] = 0;
		n = snprintf(buf, sizeof buf, spec, (void *)(uintptr_t)v);
		break;
	default:
		snprintf(err, en, "printf: unsupported conversion '%%%c'", c);
		return -2;
	}
	put(f->out, buf, n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
	return 0;
}

int dev_printf(DevRead *rd, void *ctx, uint64_t fmt, uint64_t args, DevText *out,
               char *err, size_t en)
{
	Fmt f = {rd, ctx, args, 0, out};
	char text[4097], spec[64];
	int nargs = 0;
	const char *s;

	if (!(s = string(&f, fmt, text, sizeof text)))
		return -1;
	while (*s) {
		const char *pc = strchr(s, '%');
		size_t sl;
		int len = 0, rc;
		if (!pc) {
			put(out, s, strlen(s));
			break;
		}
		put(out, s, (size_t)(pc - s));
		s = pc + 1;
		if (*s == '%') {
			put(out, "%", 1);
			s++;
			continue;
		}
		spec[0] = '%';
		sl = 1;
		while (*s && strchr("-+ #0", *s) && sl < 8)
			spec[sl++] = *s++;
		while (*s >= '0' && *s <= '9' && sl < 24)
			spec[sl++] = *s++;
		if (*s == '.') {
			spec[sl++] = *s++;
			while (*s >= '0' && *s <= '9' && sl < 40)
				spec[sl++] = *s++;
		}
		if (*s == '*' || (*s >= '0' && *s <= '9')) {
			snprintf(err, en, "printf: '*' widths and precisions, and ones of more than a few digits, are not supported");
			return -2;
		}
		if (*s == 'h')
			len = s[1] == 'h' ? (s += 2, 1) : (s++, 2);
		else if (*s == 'l')
			len = s[1] == 'l' ? (s += 2, 4) : (s++, 3);
		if (!*s) {
			snprintf(err, en, "printf: the format ends inside a conversion");
			return -2;
		}
		if (*s == 'n') {
			snprintf(err, en, "printf: '%%n' is not supported");
			return -2;
		}
		if ((rc = convert(&f, spec, sl, *s++, len, err, en)) < 0)
			return rc;
		nargs++;
	}
	return nargs;
}

void dev_print_line(FILE *f, int tag, const uint32_t ctaid[3], const uint32_t tid[3],
                    const DevText *t)
{
	if (tag)
		fprintf(f, "[block (%u,%u,%u) thread (%u,%u,%u)] ", ctaid[0], ctaid[1], ctaid[2],
		        tid[0], tid[1], tid[2]);
	if (t->len)
		fwrite(t->s, 1, t->len, f);
	if (!t->len || t->s[t->len - 1] != '\n')
		fputc('\n', f);
}
