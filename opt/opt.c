/* opt.c - the option engine (opt.h): rows of every component in one set; the command line
 * and option files read through the same rows; defaults, checks and --help from them. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "opt/opt.h"

void opt_init(OptSet *s, const char *prog)
{
	memset(s, 0, sizeof *s);
	s->prog = prog;
}

void opt_free(OptSet *s)
{
	free(s->argsrc);
	s->argsrc = NULL;
	s->nargsrc = 0;
}

void opt_defaults(const OptRow *rows, int n, void *base)
{
	for (int i = 0; i < n; i++) {
		const OptRow *r = &rows[i];
		char *p = (char *)base + r->off;
		switch (r->kind) {
		case OPT_FLAG: case OPT_INT: case OPT_LIMIT: case OPT_BOOL: case OPT_CHOICE:
		case OPT_ARCH:
			*(int *)p = (int)r->def;
			break;
		case OPT_LONG: *(long long *)p = r->def; break;
		case OPT_COUNT: *(uint64_t *)p = (uint64_t)r->def; break;
		case OPT_BYTES: *(uint32_t *)p = (uint32_t)r->def; break;
		case OPT_STR: *(char **)p = NULL; break;
		case OPT_FN: break;
		}
	}
}

void opt_free_strs(const OptRow *rows, int n, void *base)
{
	for (int i = 0; i < n; i++)
		if (rows[i].kind == OPT_STR) {
			char **p = (char **)((char *)base + rows[i].off);
			free(*p);
			*p = NULL;
		}
}

void opt_add(OptSet *s, const char *title, const OptRow *rows, int n, void *base)
{
	OptGroup *g;

	if (s->ng == OPT_MAXGROUPS) {
		fprintf(stderr, "%s:%d: internal error: too many option groups\n", __FILE__, __LINE__);
		abort();
	}
	g = &s->g[s->ng++];
	memset(g, 0, sizeof *g);
	g->title = title;
	g->rows = rows;
	g->n = n;
	g->base = base;
}

static const OptRow *find_n(const OptSet *s, const char *name, size_t len, int *group)
{
	for (int gi = 0; gi < s->ng; gi++)
		for (int i = 0; i < s->g[gi].n; i++) {
			const OptRow *r = &s->g[gi].rows[i];
			/* the first byte, then the rest up to the name's end (no strlen per row) */
			if ((!len || r->name[0] == name[0]) && !strncmp(r->name, name, len) &&
			    !r->name[len]) {
				if (group)
					*group = gi;
				return r;
			}
		}
	return NULL;
}

const OptRow *opt_find(const OptSet *s, const char *name, int *group)
{
	if (name[0] == '-' && name[1] == '-')
		name += 2;
	return find_n(s, name, strlen(name), group);
}

static const OptRow *find_short(const OptSet *s, char c, int *group)
{
	for (int gi = 0; gi < s->ng; gi++)
		for (int i = 0; i < s->g[gi].n; i++)
			if (s->g[gi].rows[i].shortc == c) {
				*group = gi;
				return &s->g[gi].rows[i];
			}
	return NULL;
}

static const char *metavar(const OptRow *r, char *buf, size_t n);

/* ------------------------------------------------------------------ values */
/* a decimal integer with an optional K (x1024) suffix, nothing else */
static int parse_k(const char *s, int allow_k, long long *out)
{
	char *end;
	long long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno)
		return -1;
	if (allow_k && *end == 'K' && end[1] == 0) {
		if (v > LLONG_MAX / 1024)
			return -1;
		v *= 1024;
		end++;
	}
	return *end ? -1 : (*out = v, 0);
}

/* a plain non-negative decimal up to max; -1 malformed, -2 too large */
static int parse_u(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		return -1;
	if (errno || v > max)
		return -2;
	*out = v;
	return 0;
}

static void choices_text(const OptRow *r, char *why, size_t n)
{
	size_t k = 0, len = 0;

	while (r->choices[k])
		k++;
	why[0] = 0;
	for (size_t i = 0; i < k && len < n; i++)
		len += (size_t)snprintf(why + len, n - len, "%s%s", i == 0 ? "" : i + 1 == k ? " or " : ", ",
		                        r->choices[i]);
}

/* parses val for row r into field (nothing is stored when cx->check_only): 0, -1 with why,
 * -2 after a message */
static int parse_value(const OptRow *r, void *field, const char *val, const OptCtx *cx,
                       char *why, size_t n)
{
	long long v = 0;
	uint64_t u;
	int store = !cx->check_only, rc;

	switch (r->kind) {
	case OPT_FLAG:
		if (store)
			*(int *)field = 1;
		return 0;
	case OPT_INT:
	case OPT_LONG:
		if (parse_k(val, 1, &v) < 0 || v < r->min || v > r->max) {
			snprintf(why, n, "an integer from %lld to %lld", r->min, r->max);
			return -1;
		}
		if (store && r->kind == OPT_INT)
			*(int *)field = (int)v;
		else if (store)
			*(long long *)field = v;
		return 0;
	case OPT_COUNT:
		if ((rc = parse_u(val, UINT64_MAX, &u)) < 0) {
			snprintf(why, n, rc == -2 ? "a non-negative integer up to %" PRIu64 :
			         "a non-negative integer", UINT64_MAX);
			return -1;
		}
		if (store)
			*(uint64_t *)field = u;
		return 0;
	case OPT_BYTES:
		if ((rc = parse_u(val, UINT32_MAX, &u)) < 0) {
			snprintf(why, n, rc == -2 ? "a non-negative integer up to %" PRIu32 :
			         "a non-negative integer", UINT32_MAX);
			return -1;
		}
		if (store)
			*(uint32_t *)field = (uint32_t)u;
		return 0;
	case OPT_LIMIT:
		if (!strcmp(val, "inf"))
			u = UINT64_MAX;
		else if ((rc = parse_u(val, INT32_MAX, &u)) < 0) {
			snprintf(why, n, rc == -2 ? "a non-negative integer up to 2147483647 or 'inf'" :
			         "a non-negative integer or 'inf'");
			return -1;
		}
		if (store)
			*(int *)field = u == UINT64_MAX ? -1 : (int)u;
		return 0;
	case OPT_BOOL:
		if (!strcmp(val, "on") || !strcmp(val, "1") || !strcmp(val, "yes") || !strcmp(val, "true"))
			v = 1;
		else if (!strcmp(val, "off") || !strcmp(val, "0") || !strcmp(val, "no") ||
		         !strcmp(val, "false"))
			v = 0;
		else {
			snprintf(why, n, "on or off");
			return -1;
		}
		if (store)
			*(int *)field = (int)v;
		return 0;
	case OPT_CHOICE:
		for (int i = 0; r->choices[i]; i++)
			if (!strcmp(val, r->choices[i])) {
				if (store)
					*(int *)field = i;
				return 0;
			}
		choices_text(r, why, n);
		return -1;
	case OPT_ARCH:
		if (parse_k(val + (strncmp(val, "sm_", 3) ? 0 : 3), 0, &v) < 0 || v < r->min ||
		    v > r->max) {
			snprintf(why, n, "sm_XX (sm_%lld to sm_%lld)", r->min, r->max);
			return -1;
		}
		if (store)
			*(int *)field = (int)v;
		return 0;
	case OPT_STR:
		if (store) {
			char *c = strdup(val);
			if (!c) {
				snprintf(why, n, "a value that fits in memory");
				return -1;
			}
			free(*(char **)field);
			*(char **)field = c;
		}
		return 0;
	case OPT_FN:
		return r->fn(field, val, cx, why, n);
	}
	snprintf(why, n, "%s:%d: bad option kind", __FILE__, __LINE__);
	return -1;
}

/* "--name: expected WHY, got 'VAL'" */
static void value_msg(char *msg, size_t n, const OptRow *r, const char *why, const char *val)
{
	snprintf(msg, n, "--%.60s: expected %.300s, got '%.200s'", r->name, why, val);
}

static int set_or_check(OptSet *s, const char *name, const char *val, char *msg, size_t n,
                        int check)
{
	int g;
	const OptRow *r = opt_find(s, name, &g);
	OptCtx cx = {"", s, check, stderr, NULL, 0};
	char why[512];
	int rc;

	if (!r) {
		snprintf(msg, n, "unknown option '--%s'", name[0] == '-' && name[1] == '-' ? name + 2 : name);
		return -1;
	}
	if (r->kind == OPT_FLAG) {
		snprintf(msg, n, "--%s takes no value", r->name);
		return -1;
	}
	if ((rc = parse_value(r, (char *)s->g[g].base + r->off, val, &cx, why, sizeof why)) == -1)
		value_msg(msg, n, r, why, val);
	else if (rc == -2)
		snprintf(msg, n, "--%s: bad value '%s'", r->name, val);
	return rc ? -1 : 0;
}

int opt_set(OptSet *s, const char *name, const char *val, char *msg, size_t n)
{
	return set_or_check(s, name, val, msg, n, 0);
}

int opt_check(OptSet *s, const char *name, const char *val, char *msg, size_t n)
{
	return set_or_check(s, name, val, msg, n, 1);
}

/* ------------------------------------------------------------------ the command line */
static void note_src(OptSet *s, int i, int g)
{
	if (i < s->nargsrc)
		s->argsrc[i] = (signed char)g;
}

int opt_argv(OptSet *s, int argc, char **argv, FILE *err)
{
	OptCtx cx = {"", s, 0, err, NULL, 0};

	free(s->argsrc);
	s->nargsrc = argc > 0 ? argc : 0;
	if (!(s->argsrc = malloc((size_t)s->nargsrc + 1))) {
		fprintf(err, "%s: out of memory\n", s->prog);
		return -1;
	}
	memset(s->argsrc, -1, (size_t)s->nargsrc + 1);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq = NULL, *val = NULL;
		const OptRow *r = NULL;
		char why[512];
		int g = -1, rc, at = i;

		if (a[0] != '-' || !a[1]) {
			if (!s->positional) {
				fprintf(err, "%s: unexpected argument '%s' (see --help)\n", s->prog, a);
				return -1;
			}
			if (s->positional(s, a, err))
				return -1;
			continue;
		}
		if (a[1] != '-') {
			if (!(r = find_short(s, a[1], &g))) {
				fprintf(err, "%s: unknown option '%s' (options are long: see --help)\n", s->prog, a);
				return -1;
			}
			if (a[2] && r->kind != OPT_FLAG)
				val = a + 2;        /* -jN */
			else if (a[2]) {
				fprintf(err, "%s: unknown option '%s' (see --help)\n", s->prog, a);
				return -1;
			}
		} else {
			size_t len;
			a += 2;
			eq = strchr(a, '=');
			len = eq ? (size_t)(eq - a) : strlen(a);
			if (!(r = find_n(s, a, len, &g))) {
				fprintf(err, "%s: unknown option '--%.*s' (see --help)\n", s->prog, (int)len, a);
				return -1;
			}
			if (eq)
				val = eq + 1;
		}
		if (r->kind == OPT_FLAG && eq) {
			fprintf(err, "%s: --%s takes no value\n", s->prog, r->name);
			return -1;
		}
		if (!val && (r->flags & OPT_OPTVAL))
			val = "";
		if (r->kind != OPT_FLAG && !val) {
			if (i + 1 >= argc) {
				char mv[80];
				fprintf(err, "%s: --%s: expected a value: %s\n", s->prog, r->name,
				        metavar(r, mv, sizeof mv));
				return -1;
			}
			val = argv[++i];
		}
		note_src(s, at, g);
		note_src(s, i, g);
		rc = parse_value(r, (char *)s->g[g].base + r->off, val ? val : "", &cx, why, sizeof why);
		if (rc == -1)
			fprintf(err, "%s: --%s: expected %s, got '%s'\n", s->prog, r->name, why, val);
		if (rc)
			return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ option files */
static void file_msg(FILE *err, const char *name, int line, const char *text, int col,
                     const char *msg)
{
	fprintf(err, "%s:%d:%d: error: %s\n    %s\n    %*s^\n", name, line, col, msg, text,
	        col - 1, "");
}

/* one line of an option file (without its newline); the number of errors */
static int file_line(OptSet *s, const char *name, int lineno, char *line, const char *dir,
                     FILE *err)
{
	char *p = line, *key, *e, *val, msg[700], why[512];
	const OptRow *r;
	OptCtx cx = {dir, s, 0, err, name, lineno};
	int g, rc;

	for (char *h = line; *h; h++)      /* '#' at the start or after a blank */
		if (*h == '#' && (h == line || h[-1] == ' ' || h[-1] == '\t')) {
			*h = 0;
			break;
		}
	for (char *t = line + strlen(line); t > line && isspace((unsigned char)t[-1]); )
		*--t = 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return 0;
	key = p[0] == '-' && p[1] == '-' ? p + 2 : p;
	for (e = key; *e && *e != ' ' && *e != '\t' && *e != '='; e++)
		;
	val = e;
	if (*val == '=')
		val++;
	while (*val == ' ' || *val == '\t')
		val++;
	if (!(r = find_n(s, key, (size_t)(e - key), &g))) {
		snprintf(msg, sizeof msg, "unknown option '--%.*s'", (int)(e - key), key);
		file_msg(err, name, lineno, line, (int)(p - line) + 1, msg);
		return 1;
	}
	if (r->flags & OPT_CMDLINE) {
		snprintf(msg, sizeof msg, "--%s belongs on the command line, not in a file", r->name);
		file_msg(err, name, lineno, line, (int)(p - line) + 1, msg);
		return 1;
	}
	if (r->kind == OPT_FLAG && *val) {
		snprintf(msg, sizeof msg, "--%s takes no value", r->name);
		file_msg(err, name, lineno, line, (int)(val - line) + 1, msg);
		return 1;
	}
	if (r->kind != OPT_FLAG && !*val && !(r->flags & OPT_OPTVAL)) {
		char mv[80];
		snprintf(msg, sizeof msg, "--%s: expected a value: %s", r->name, metavar(r, mv, sizeof mv));
		file_msg(err, name, lineno, line, (int)(p - line) + 1, msg);
		return 1;
	}
	rc = parse_value(r, (char *)s->g[g].base + r->off, val, &cx, why, sizeof why);
	if (rc == -1) {
		value_msg(msg, sizeof msg, r, why, val);
		file_msg(err, name, lineno, line, (int)(val - line) + 1, msg);
	}
	return rc != 0;
}

int opt_text(OptSet *s, const char *name, const char *text, const char *dir, FILE *err)
{
	int nerr = 0, lineno = 0;
	const char *lp = text;

	while (*lp) {
		const char *eol = strchr(lp, '\n');
		size_t len = eol ? (size_t)(eol - lp) : strlen(lp);
		char line[4096];

		lineno++;
		if (len >= sizeof line) {
			snprintf(line, sizeof line, "%.60s...", lp);
			file_msg(err, name, lineno, line, 1, "line too long (4095 bytes at most)");
			nerr++;
		} else {
			memcpy(line, lp, len);
			line[len] = 0;
			if (len && line[len - 1] == '\r')
				line[len - 1] = 0;
			nerr += file_line(s, name, lineno, line, dir, err);
		}
		if (!eol)
			break;
		lp = eol + 1;
	}
	return nerr;
}

char *opt_read_all(FILE *f, size_t *len)
{
	char *buf = NULL, *nb;
	size_t n = 0, cap = 0, r;

	for (;;) {
		if (cap - n < 65536) {
			if (!(nb = realloc(buf, (cap = cap ? 2 * cap : 65536) + 1))) {
				free(buf);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		if ((r = fread(buf + n, 1, cap - n, f)) == 0)
			break;
		n += r;
	}
	if (ferror(f)) {
		free(buf);
		errno = errno ? errno : EIO;
		return NULL;
	}
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

char *opt_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	int e;

	if (!f)
		return NULL;
	errno = 0;
	buf = opt_read_all(f, len);
	e = errno;
	fclose(f);
	errno = e;
	return buf;
}

int opt_endswith(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

int opt_file(OptSet *s, const char *path, FILE *err)
{
	char *text, dir[1024];
	const char *slash = strrchr(path, '/');
	size_t n;
	int nerr;

	if (s->depth >= 8) {
		fprintf(err, "%s: %s: option files nested too deeply (8 levels)\n", s->prog, path);
		return 1;
	}
	if (!(text = opt_read_file(path, &n))) {
		fprintf(err, "%s: cannot read '%s': %s\n", s->prog, path, strerror(errno));
		return 1;
	}
	if (strlen(text) != n) {
		fprintf(err, "%s: '%s' holds a NUL byte: not an option file\n", s->prog, path);
		free(text);
		return 1;
	}
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 0, path);
	s->depth++;
	nerr = opt_text(s, path, text, dir, err);
	s->depth--;
	free(text);
	return nerr;
}

int opt_fn_file(void *field, const char *val, const OptCtx *cx, char *why, size_t n)
{
	char path[2048];
	int len = *cx->dir && val[0] != '/' ? snprintf(path, sizeof path, "%s/%s", cx->dir, val) :
	          snprintf(path, sizeof path, "%s", val);
	FILE *f;

	if (len < 0 || (size_t)len >= sizeof path) {
		snprintf(why, n, "a file name shorter than %zu bytes", sizeof path);
		return -1;
	}
	if (cx->check_only) {
		if (!(f = fopen(path, "r"))) {
			snprintf(why, n, "a readable file");
			return -1;
		}
		fclose(f);
		return 0;
	}
	return opt_file(cx->set, path, cx->err) ? -2 : 0;
}

const OptRow opt_file_rows[] = {
	{.name = "launch", .kind = OPT_FN, .metavar = "FILE", .fn = opt_fn_file,
	 .help = "read options from FILE, one per line (a launch description)"},
	{.name = "config", .kind = OPT_FN, .metavar = "FILE", .fn = opt_fn_file,
	 .help = "read options from FILE, one per line (an architecture: sim/configs/*.cfg)"},
};
const int opt_nfile_rows = (int)(sizeof opt_file_rows / sizeof opt_file_rows[0]);

/* ------------------------------------------------------------------ help */
static const char *metavar(const OptRow *r, char *buf, size_t n)
{
	if (r->metavar)
		return r->metavar;
	switch (r->kind) {
	case OPT_FLAG: return NULL;
	case OPT_BOOL: return "on|off";
	case OPT_LIMIT: return "N|inf";
	case OPT_ARCH: return "sm_XX";
	case OPT_CHOICE: {
		size_t len = 0;
		buf[0] = 0;
		for (int i = 0; r->choices[i] && len < n; i++)
			len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? "|" : "", r->choices[i]);
		return buf;
	}
	case OPT_INT: case OPT_LONG: case OPT_COUNT: case OPT_BYTES: return "N";
	case OPT_STR: case OPT_FN: return "VALUE";
	}
	return "VALUE";
}

/* text from column col (the cursor is there) to width, continued lines indented to col */
static void wrap(FILE *f, const char *text, int col, int width)
{
	const char *p = text;

	while (*p) {
		int room = width - col, n = (int)strlen(p);
		if (n > room) {
			n = room;
			while (n > 0 && p[n] != ' ')
				n--;
			if (n == 0)
				n = (int)strcspn(p, " ");
		}
		fprintf(f, "%.*s\n", n, p);
		p += n;
		while (*p == ' ')
			p++;
		if (*p)
			fprintf(f, "%*s", col, "");
	}
	if (!*text)
		fprintf(f, "\n");
}

void opt_help(const OptSet *s, FILE *f)
{
	for (int gi = 0; gi < s->ng; gi++) {
		const OptGroup *g = &s->g[gi];
		if (g->title)
			fprintf(f, "\n%s:\n", g->title);
		if (g->note)
			fprintf(f, "%s\n", g->note);
		if (g->brief)
			continue;
		for (int i = 0; i < g->n; i++) {
			const OptRow *r = &g->rows[i];
			char lhs[80], mv[80];
			const char *m = metavar(r, mv, sizeof mv);
			if (r->flags & OPT_HIDDEN)
				continue;
			const char *sep = !m || (r->flags & OPT_OPTVAL) ? "" : " ";
			if (r->shortc)
				snprintf(lhs, sizeof lhs, "-%c, --%s%s%s", r->shortc, r->name, sep, m ? m : "");
			else
				snprintf(lhs, sizeof lhs, "    --%s%s%s", r->name, sep, m ? m : "");
			if (strlen(lhs) > 28)
				fprintf(f, "  %s\n  %-28s ", lhs, "");
			else
				fprintf(f, "  %-28s ", lhs);
			wrap(f, r->help, 31, 79);
		}
	}
}

void opt_print_value(FILE *f, const OptRow *r, const void *base)
{
	const char *p = (const char *)base + r->off;
	char val[64];

	switch (r->kind) {
	case OPT_CHOICE: snprintf(val, sizeof val, "%s", r->choices[*(const int *)p]); break;
	case OPT_BOOL: snprintf(val, sizeof val, "%s", *(const int *)p ? "on" : "off"); break;
	case OPT_ARCH: snprintf(val, sizeof val, "sm_%d", *(const int *)p); break;
	case OPT_LONG: snprintf(val, sizeof val, "%lld", *(const long long *)p); break;
	case OPT_COUNT: snprintf(val, sizeof val, "%" PRIu64, *(const uint64_t *)p); break;
	case OPT_BYTES: snprintf(val, sizeof val, "%" PRIu32, *(const uint32_t *)p); break;
	case OPT_LIMIT:
		if (*(const int *)p < 0) {
			snprintf(val, sizeof val, "inf");
			break;
		}
		/* fall through */
	case OPT_INT: case OPT_FLAG: snprintf(val, sizeof val, "%d", *(const int *)p); break;
	case OPT_STR: snprintf(val, sizeof val, "%s", *(char *const *)p ? *(char *const *)p : ""); break;
	case OPT_FN: snprintf(val, sizeof val, "?"); break;
	}
	fprintf(f, "--%-20s %-10s # %s\n", r->name, val, r->help);
}
