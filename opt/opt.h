/* opt.h - the option engine that warpc and warpsim build their command lines from.
 *
 * Every component describes its options as rows (OptRow: name, kind, placeholder, help, the
 * field it sets, its default and range) over a struct of its own: the translator's over
 * BeOptions (backend/backend.c), the launch's and the machine's over SimOpts (sim/opts.c),
 * the architecture's over TimingConfig (sim/tconfig.c), the observation's and the sweep's
 * over RpOpts (report/opts.c), each program's own over its struct (cli/). A program
 * gathers the groups it takes into one OptSet; the engine reads the command line and
 * option files (--config, --launch: one option per line) through the same rows, sets each
 * row's default (the only place a default is written), checks a value without setting it
 * (sweeps check every point before the first run), and prints --help grouped.
 *
 * Messages: "PROG: --name: expected WHAT, got 'VALUE'" on the command line;
 * "FILE:LINE:COL: error: ..." with the line and a caret in files. The caller exits 2.
 * Depends on nothing of ours, and so also holds what every folder above needs alike: reading
 * a whole file, a file name's suffix, writing a JSON string.
 */
#ifndef WARPSIM_OPT_H
#define WARPSIM_OPT_H

#include <stddef.h>
#include <stdio.h>

typedef enum {
	OPT_FLAG,    /* no value: sets an int to 1 */
	OPT_INT,     /* int from min to max: decimal, K = x1024 */
	OPT_LONG,    /* long long from min to max: decimal, K = x1024 */
	OPT_COUNT,   /* uint64_t: any non-negative decimal */
	OPT_BYTES,   /* uint32_t: a non-negative decimal up to 4294967295 */
	OPT_LIMIT,   /* int: a non-negative decimal up to 2147483647, or "inf" (stored as -1) */
	OPT_BOOL,    /* int: on|off (also 1/0, yes/no, true/false) */
	OPT_CHOICE,  /* int: the index of the value in choices */
	OPT_ARCH,    /* int: sm_XX or XX, from min to max */
	OPT_STR,     /* char *: a copy of the value (the component frees it) */
	OPT_FN,      /* the row's fn parses the value (dimensions, arguments, nested files) */
} OptKind;

struct OptSet;

/* what an OPT_FN parser gets besides the value: the folder of the option file being read
 * ("" on the command line; names in a file are relative to it) and the set (for nested files) */
typedef struct {
	const char *dir;
	struct OptSet *set;
	int check_only;       /* checking a value (opt_check): parse it, change nothing */
	FILE *err;            /* where a nested file's messages go */
	const char *file;     /* the option file and line being read (NULL on the command line) */
	int line;
} OptCtx;

/* 0; -1 with why = what was expected ("X[,Y,Z] with positive integers"); -2 when the
 * message has been printed already (an error inside a nested file) */
typedef int OptFn(void *field, const char *val, const OptCtx *cx, char *why, size_t n);

enum {
	OPT_CMDLINE = 1,      /* command line only (--help, --version, the sweep's own options) */
	OPT_HIDDEN = 2,       /* not in --help (the options a sweep gives its child runs) */
	OPT_OPTVAL = 4,       /* the value is optional and only given with '=' (--explain[=json]);
	                       * without it the parser gets "" */
};

typedef struct {
	const char *name;          /* long name without "--" */
	char shortc;               /* a one-letter alias ("-j N", "-jN"), or 0 */
	OptKind kind;
	const char *metavar;       /* what the value is, in --help: N, FILE, NAME, on|off ... */
	const char *help;          /* one line */
	size_t off;                /* offset of the field in the group's struct */
	long long def, min, max;   /* default; range of INT, LONG, ARCH */
	const char *const *choices;/* CHOICE: the names, NULL-terminated */
	OptFn *fn;                 /* FN: the parser */
	unsigned flags;            /* OPT_CMDLINE, OPT_HIDDEN */
} OptRow;

typedef struct {
	const char *title;         /* heading in --help */
	const char *note;          /* printed under the heading, or NULL */
	const OptRow *rows;
	int n;
	void *base;                /* the struct the rows' offsets point into */
	int brief;                 /* --help prints the note instead of the rows */
} OptGroup;

#define OPT_MAXGROUPS 12

typedef struct OptSet {
	const char *prog;          /* message prefix: "warpsim" */
	OptGroup g[OPT_MAXGROUPS];
	int ng;
	int depth;                 /* nesting of option files */
	int (*positional)(struct OptSet *s, const char *arg, FILE *err);  /* a non-option argument */
	void *user;                /* for positional */
	signed char *argsrc;       /* opt_argv: per argv entry, the group that took it (-1: none) */
	int nargsrc;
} OptSet;

void opt_init(OptSet *s, const char *prog);
void opt_free(OptSet *s);
/* adds a group (its defaults are the component's to set, with opt_defaults) */
void opt_add(OptSet *s, const char *title, const OptRow *rows, int n, void *base);
/* sets every row's default in base (zero for rows without one) */
void opt_defaults(const OptRow *rows, int n, void *base);
/* frees the OPT_STR fields of rows in base */
void opt_free_strs(const OptRow *rows, int n, void *base);

/* the row called name (and its group), or NULL */
const OptRow *opt_find(const OptSet *s, const char *name, int *group);
/* sets name to val; 0, or -1 with the message (without the program name) in msg */
int opt_set(OptSet *s, const char *name, const char *val, char *msg, size_t n);
/* checks val for name without setting anything: 0, or -1 with the message in msg */
int opt_check(OptSet *s, const char *name, const char *val, char *msg, size_t n);

/* argv[1..]: long options "--name V", "--name=V", aliases "-j N"; others go to
 * s->positional. 0, or -1 after a message on err (the caller exits 2) */
int opt_argv(OptSet *s, int argc, char **argv, FILE *err);
/* a file of options, one per line ("--name V", "name V", "--name=V"; '#' comments); every
 * bad line is reported; the number of errors */
int opt_file(OptSet *s, const char *path, FILE *err);
/* the rest of f, NUL-terminated in a malloc'd buffer (*len: its bytes, without the NUL);
 * NULL with errno set (ENOMEM, or the read's error). The option files and the programs'
 * inputs are read with it. */
char *opt_read_all(FILE *f, size_t *len);
/* the whole file at path the same way (fopen's errno when it cannot be opened) */
char *opt_read_file(const char *path, size_t *len);
/* s ends in suffix: what kind of file a name is (.ptx, .json, .txt.gz) */
int opt_endswith(const char *s, const char *suffix);
int opt_text(OptSet *s, const char *name, const char *text, const char *dir, FILE *err);

/* the OPT_FN parser of --config and --launch: reads the named file (relative to the file
 * that names it) as options of the same set */
int opt_fn_file(void *field, const char *val, const OptCtx *cx, char *why, size_t n);
/* the rows --launch FILE and --config FILE (any base) */
extern const OptRow opt_file_rows[];
extern const int opt_nfile_rows;

/* --help: every group's rows, in the order the groups were added */
void opt_help(const OptSet *s, FILE *f);
/* one row's value as a config line would write it ("--sms 15"), for --print-config */
void opt_print_value(FILE *f, const OptRow *r, const void *base);

/* ---- json.c: JSON strings for every folder that writes JSON */
/* byte c as it stands inside a JSON string (\" \\ \u00XX, or c itself), in e; e */
const char *opt_json_esc(unsigned char c, char e[7]);
/* s as a JSON string, in quotes, to f */
void opt_json_str(FILE *f, const char *s);

#endif
