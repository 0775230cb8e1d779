/* shstress.c - the shared-memory stress test: random kernels of shared loads, stores and
 * atomics, run on the PTX oracle and on the SM model, compared byte for byte.
 *
 *   shstress FROM COUNT [--pmax "0 4 inf"] [--configs "fermi kepler teaching"] [-v]
 *
 * Each seed draws a kernel of phases separated by bar.sync. A phase lays the CTA's shared
 * memory out in regions, and every access obeys its region's rule, so that the result does
 * not depend on the order the threads run in (the oracle runs them one at a time, the SM
 * model a warp at a time, in an order its scheduler picks):
 *   READ   loaded by any thread (broadcasts, strides of 1 to 33 words: bank conflicts);
 *   OWN    thread t's unit of 16 bytes, (t * A + B) mod 2^k: any load, store and atomic;
 *   RED    commutative reductions of any thread (red.shared add, and, or, xor, min, max);
 *   WARP   one instruction in the phase, of one warp's lanes, may touch it: a store or an
 *          atomic whose lanes alias (then both models go in lane order: the last lane's
 *          store stays, each atomic returns what the lane before left).
 * The widths are u8, s8, u16, s16, u32, u64 and v2/v4 of them; guards and short branches
 * leave lanes out, blocks of 20 to 128 threads leave a warp partial. A quarter of the kernels
 * end in a fault: one thread of one CTA loads, stores or updates a misaligned address or one
 * outside the shared memory; then the oracle's and the SM model's errors must name the same
 * access, address, CTA and thread. Otherwise the final shared memory of every CTA and every
 * thread's checksum of what it loaded must match. The SM model runs at every --predicate-max
 * of --pmax under every --config of --configs (sim/configs/NAME.cfg).
 * SHSTRESS_FAKE_BUG=1 flips a byte of every SM-model result (make check's test that a
 * difference is reported). Prints one line per disagreement and a summary; exit status 0
 * when every run agreed, 1 otherwise, 2 bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/ptx.h"
#include "backend/backend.h"
#include "oracle/oracle.h"
#include "sim/sim.h"
#include "cli/cli.h"

#define SHBYTES 4096             /* the kernel's shared array */
#define UNITS (SHBYTES / 16)
#define MAXLIST 8

enum { R_FREE, R_READ, R_OWN, R_RED, R_WARP };

/* xorshift64* */
static uint64_t rng;
static uint32_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 2685821657736338717ull) >> 32);
}
static int below(int n) { return (int)(rnd() % (uint32_t)n); }

/* one kernel being drawn */
typedef struct {
	FILE *f;                  /* its PTX text */
	int block, grid;
	int lab;                  /* labels so far */
	uint8_t role[UNITS];      /* this phase's region of each unit */
	int own0, ownk, owna, ownb; /* OWN: units own0 + (t * owna + ownb) mod 2^ownk */
	int read0, nread;         /* READ: nread units from read0 */
	int red0, nred, redop;    /* RED, and its one operation in the phase (mixed ones do not
	                           * commute: an add then an and is not an and then an add) */
	int warp0[4], nwarp[4], warpw[4], nw; /* WARP regions: first unit, units, warp; count */
	int fault;                /* the kernel ends in a fault: 1, 2 an atomic's */
} Kgen;

/* the widths of an access */
typedef struct {
	const char *sfx;     /* PTX type, with its vector prefix */
	int bytes;           /* of the whole access */
	int vec;             /* registers */
	int b64;             /* they are %vd (64 bits), not %v */
} Width;
static const Width widths[] = {
	{"u8", 1, 1, 0}, {"s8", 1, 1, 0}, {"u16", 2, 1, 0}, {"s16", 2, 1, 0}, {"u32", 4, 1, 0},
	{"u64", 8, 1, 1}, {"v2.u32", 8, 2, 0}, {"v4.u32", 16, 4, 0}, {"v2.u64", 16, 2, 1},
	{"v2.u16", 4, 2, 0}, {"v4.u16", 8, 4, 0}, {"v2.u8", 2, 2, 0}, {"v4.u8", 4, 4, 0},
};
#define NWIDTHS ((int)(sizeof widths / sizeof widths[0]))

/* a width: a third of them u32, the common word (and the SM model's fast paths) */
static const Width *width(void)
{
	return below(3) ? &widths[below(NWIDTHS)] : &widths[4];
}

/* %a = base + ((%t * a + b) mod n) * size (n a power of two) */
static void addr(Kgen *k, int base, uint32_t a, uint32_t b, uint32_t n, int size)
{
	fprintf(k->f, "\tmad.lo.u32 %%a, %%t, %u, %u;\n\tand.b32 %%a, %%a, %u;\n"
	        "\tmad.lo.u32 %%a, %%a, %d, %%sh;\n", a, b, n - 1, size);
	if (base)
		fprintf(k->f, "\tadd.u32 %%a, %%a, %d;\n", base);
}

/* %g = the guard of the next access: every thread, a range, a lane pattern or one warp */
static void guard(Kgen *k, int warp)
{
	int w = below(warp >= 0 ? 6 : 5);    /* one warp's lanes: half of them every lane */

	if (warp >= 0)
		fprintf(k->f, "\tshr.u32 %%x, %%t, 5;\n\tsetp.eq.u32 %%g, %%x, %d;\n", warp);
	else
		fprintf(k->f, "\tsetp.eq.u32 %%g, %%t, %%t;\n");
	if (w == 1)
		fprintf(k->f, "\tsetp.lt.and.u32 %%g, %%t, %d, %%g;\n", 1 + below(k->block));
	else if (w == 2)
		fprintf(k->f, "\tand.b32 %%x, %%t, %d;\n\tsetp.ne.and.u32 %%g, %%x, 0, %%g;\n",
		        1 << below(5));
	else if (w == 3)
		fprintf(k->f, "\tsetp.ge.and.u32 %%g, %%lane, %d, %%g;\n", below(32));
}

/* the value the next store writes: %v0..3 (32 bits) and %vd0..1 */
static void values(Kgen *k)
{
	fprintf(k->f, "\tmad.lo.u32 %%v0, %%t, %u, %%acc;\n\txor.b32 %%v1, %%v0, %u;\n"
	        "\tadd.u32 %%v2, %%v1, %%ctax;\n\tmul.lo.u32 %%v3, %%v0, 0x9e3779b1;\n"
	        "\tmul.wide.u32 %%vd0, %%v0, %u;\n\tmul.wide.u32 %%vd1, %%v3, %u;\n",
	        rnd() | 1, rnd(), rnd(), rnd());
}

static const char *const r32[] = {"%v0", "%v1", "%v2", "%v3"};
static const char *const r64[] = {"%vd0", "%vd1"};

/* the register list of an access of width w: {%v0, %v1} or %v0 */
static void regs(Kgen *k, const Width *w)
{
	if (w->vec == 1) {
		fputs(w->b64 ? r64[0] : r32[0], k->f);
		return;
	}
	fputc('{', k->f);
	for (int i = 0; i < w->vec; i++)
		fprintf(k->f, "%s%s", i ? ", " : "", w->b64 ? r64[i] : r32[i]);
	fputc('}', k->f);
}

/* folds what the last load or atomic wrote (width w) into the thread's checksums */
static void fold(Kgen *k, const Width *w)
{
	for (int i = 0; i < w->vec; i++)
		if (w->b64)
			fprintf(k->f, "\txor.b64 %%accd, %%accd, %s;\n\tshl.b64 %%accd, %%accd, 1;\n", r64[i]);
		else
			fprintf(k->f, "\tmad.lo.u32 %%acc, %%acc, 31, %s;\n", r32[i]);
}

static void access(Kgen *k, int store, const Width *w)
{
	fprintf(k->f, "\t@%%g %s.shared.%s ", store ? "st" : "ld", w->sfx);
	if (store) {
		fputs("[%a], ", k->f);
		regs(k, w);
	} else {
		regs(k, w);
		fputs(", [%a]", k->f);
	}
	fputs(";\n", k->f);
	if (!store) {
		/* the lanes the guard left out keep their registers: fold them all alike */
		fold(k, w);
	}
}

/* a load of a READ unit: a broadcast, a stride or a spread */
static void op_read(Kgen *k)
{
	const Width *w = width();
	static const uint32_t strides[] = {0, 1, 2, 3, 4, 8, 16, 17, 32, 33};
	uint32_t n = 1;

	while (n * 2 * (uint32_t)w->bytes <= (uint32_t)k->nread * 16)
		n *= 2;
	addr(k, k->read0 * 16, strides[below(10)], rnd() & (n - 1), n, w->bytes);
	guard(k, -1);
	access(k, 0, w);
}

static const char *const atom_ops[] = {"add.u32", "min.u32", "max.s32", "and.b32", "or.b32",
                                       "xor.b32", "exch.b32", "inc.u32", "dec.u32", "cas.b32",
                                       "add.u64", "exch.b64", "cas.b64", "min.s32"};

/* an atomic at %a whose old value is folded; op 9 and 12 are compare-and-swaps */
static void atom(Kgen *k, int i)
{
	int b64 = strstr(atom_ops[i], "64") != NULL;

	values(k);
	if (i == 9 || i == 12)
		fprintf(k->f, "\t@%%g atom.shared.%s %s, [%%a], %s, %s;\n", atom_ops[i],
		        b64 ? "%vd0" : "%v0", b64 ? "%vd1" : "%v1", b64 ? "%vd0" : "%v2");
	else
		fprintf(k->f, "\t@%%g atom.shared.%s %s, [%%a], %s;\n", atom_ops[i],
		        b64 ? "%vd0" : "%v0", b64 ? "%vd1" : "%v1");
	fold(k, b64 ? &widths[5] : &widths[4]);
}

/* any access of a thread's own unit */
static void op_own(Kgen *k)
{
	int kind = below(3);
	const Width *w = width();
	int bytes = kind == 2 ? 8 : w->bytes;

	fprintf(k->f, "\tmad.lo.u32 %%a, %%t, %d, %d;\n\tand.b32 %%a, %%a, %d;\n"
	        "\tmad.lo.u32 %%a, %%a, 16, %%sh;\n\tadd.u32 %%a, %%a, %d;\n", k->owna, k->ownb,
	        (1 << k->ownk) - 1, k->own0 * 16 + bytes * below(16 / bytes));
	guard(k, -1);
	if (kind == 2) {
		atom(k, below(14));
		return;
	}
	if (kind == 1)
		values(k);
	access(k, kind == 1, w);
}

/* a reduction of any thread on the RED region (lanes alias) */
static void op_red(Kgen *k)
{
	static const char *const ops[] = {"add.u32", "and.b32", "or.b32", "xor.b32", "min.u32",
	                                  "max.s32", "add.u64"};
	int i = k->redop, b64 = i == 6;
	uint32_t n = (uint32_t)k->nred * (b64 ? 2 : 4);

	values(k);
	addr(k, k->red0 * 16, (uint32_t)below(5), rnd() & (n - 1), n, b64 ? 8 : 4);
	guard(k, -1);
	fprintf(k->f, "\t@%%g red.shared.%s [%%a], %s;\n", ops[i], b64 ? "%vd0" : "%v0");
}

/* the one instruction of WARP region r: a store or an atomic of its warp's lanes, aliasing */
static void op_warp(Kgen *k, int r)
{
	int bytes, store = below(2);
	const Width *w = width();
	uint32_t n = 1;

	bytes = store ? w->bytes : below(3) ? 4 : 8;
	while (n * 2 * (uint32_t)bytes <= (uint32_t)k->nwarp[r] * 16)
		n *= 2;
	addr(k, k->warp0[r] * 16, (uint32_t)below(4), rnd() & (n - 1), n, bytes);
	guard(k, k->warpw[r]);
	if (store) {
		values(k);
		access(k, 1, w);
	} else
		atom(k, bytes == 8 ? (below(2) ? 10 : 11) : below(10));
}

/* the fault: thread ft of CTA fc accesses a misaligned address or one outside shared memory */
static void op_fault(Kgen *k)
{
	int ft = below(k->block), fc = below(k->grid), kind = below(3);
	const Width *w = &widths[4 + below(5)];
	int bytes = kind == 2 ? 4 : w->bytes;
	static const int where[] = {SHBYTES, SHBYTES + 16, SHBYTES * 4, -16, -4096, 1};
	int a = where[below(6)];

	if (a == 1)     /* misaligned, inside (every width here has 4 bytes or more) */
		a = 16 * below(UNITS) + bytes / 2;
	fprintf(k->f, "\tadd.u32 %%a, %%sh, %u;\n\tsetp.eq.u32 %%g, %%t, %d;\n"
	        "\tsetp.eq.and.u32 %%g, %%ctax, %d, %%g;\n", (unsigned)a, ft, fc);
	k->fault = 1 + (kind == 2);
	if (kind == 2) {
		values(k);
		fprintf(k->f, "\t@%%g atom.shared.add.u32 %%v0, [%%a], %%v1;\n");
		fold(k, &widths[4]);
	} else {
		if (kind == 1)
			values(k);
		access(k, kind == 1, w);
	}
}

/* n units at a free place of the layout, a multiple of align; the first, or -1 */
static int place(Kgen *k, int n, int align, int role)
{
	for (int tries = 0; tries < 50; tries++) {
		int at = below(UNITS / align) * align, ok = at + n <= UNITS;
		for (int i = at; ok && i < at + n; i++)
			ok = k->role[i] == R_FREE;
		if (ok) {
			memset(k->role + at, role, (size_t)n);
			return at;
		}
	}
	return -1;
}

/* a phase's layout: the regions, each where it fits */
static void layout(Kgen *k)
{
	int nwarps = (k->block + 31) / 32;

	memset(k->role, R_FREE, sizeof k->role);
	k->ownk = 0;
	while ((1 << k->ownk) < k->block)
		k->ownk++;
	k->ownk += below(2);
	k->owna = 2 * below(64) + 1;
	k->ownb = below(1 << k->ownk);
	k->own0 = place(k, 1 << k->ownk, 1 << k->ownk, R_OWN);
	k->nread = 1 << below(6);
	k->read0 = place(k, k->nread, 1, R_READ);
	k->nred = 1 << below(3);
	k->red0 = place(k, k->nred, 1, R_RED);
	k->redop = below(7);
	k->nw = 0;
	for (int i = 0; i < 4; i++) {
		int n = 1 << below(3), at = place(k, n, 1, R_WARP);
		if (at < 0)
			continue;
		k->warp0[k->nw] = at;
		k->nwarp[k->nw] = n;
		/* mostly a full warp (the SM model's paths for all 32 lanes) */
		k->warpw[k->nw++] = k->block >= 32 && below(3) ? below(k->block / 32) : below(nwarps);
	}
}

/* one phase: its accesses, some of them under a branch the whole warp may not take */
static void phase(Kgen *k, int last)
{
	int nops = 3 + below(8), wi = 0, in = 0, lab = 0;

	layout(k);
	fprintf(k->f, "\t// phase: OWN %d + 2^%d, READ %d + %d, RED %d + %d (op %d)", k->own0, k->ownk,
	        k->read0, k->nread, k->red0, k->nred, k->redop);
	for (int i = 0; i < k->nw; i++)
		fprintf(k->f, ", WARP %d + %d (warp %d)", k->warp0[i], k->nwarp[i], k->warpw[i]);
	fprintf(k->f, "\n");
	for (int i = 0; i < nops; i++) {
		int c = below(10);
		if (!in && below(4) == 0) {     /* a short branch around the next accesses */
			lab = k->lab++;
			fprintf(k->f, "\tsetp.%s.u32 %%b, %%t, %d;\n\t@%%b bra L%d;\n",
			        below(2) ? "lt" : "ge", below(k->block + 1), lab);
			in = 1 + below(3);
		}
		if (k->own0 >= 0 && c < 3)
			op_own(k);
		else if (k->read0 >= 0 && c < 6)
			op_read(k);
		else if (k->red0 >= 0 && c < 8)
			op_red(k);
		else if (wi < k->nw)
			op_warp(k, wi++);
		else if (k->read0 >= 0)
			op_read(k);
		if (in && --in == 0)
			fprintf(k->f, "L%d:\n", lab);
	}
	if (in)
		fprintf(k->f, "L%d:\n", lab);
	if (last && k->fault)
		op_fault(k);
	fprintf(k->f, "\tbar.sync 0;\n");
}

/* the kernel of seed s into *ptx (malloc'ed), its shape (block, grid, fault) into *k */
static void draw(uint64_t s, char **ptx, Kgen *k)
{
	static const int blocks[] = {20, 32, 40, 64, 72, 96, 100, 128};
	size_t n = 0;
	int nph;

	rng = s * 0x9e3779b97f4a7c15ull + 1;
	for (int i = 0; i < 4; i++)
		rnd();
	memset(k, 0, sizeof *k);
	k->f = open_memstream(ptx, &n);
	if (!k->f)
		exit(3);
	k->block = blocks[below(8)];
	k->grid = 1 + below(3);
	k->fault = below(4) == 0;
	nph = 1 + below(4);
	fprintf(k->f, ".version 8.0\n.target sm_75\n.address_size 64\n\n"
	        ".visible .entry k(.param .u64 pin, .param .u64 psh, .param .u64 pacc)\n{\n"
	        "\t.reg .b32 %%t, %%ctax, %%lane, %%ntid, %%sh, %%a, %%x, %%i, %%acc, %%v<4>;\n"
	        "\t.reg .b64 %%in, %%out, %%acco, %%accd, %%vd<2>, %%ad;\n\t.reg .pred %%g, %%b;\n"
	        "\t.shared .align 16 .b8 sh[%d];\n"
	        "\tld.param.u64 %%in, [pin];\n\tld.param.u64 %%out, [psh];\n"
	        "\tld.param.u64 %%acco, [pacc];\n\tcvta.to.global.u64 %%in, %%in;\n"
	        "\tcvta.to.global.u64 %%out, %%out;\n\tcvta.to.global.u64 %%acco, %%acco;\n"
	        "\tmov.u32 %%t, %%tid.x;\n\tmov.u32 %%ctax, %%ctaid.x;\n\tmov.u32 %%ntid, %%ntid.x;\n"
	        "\tand.b32 %%lane, %%t, 31;\n\tmov.u32 %%sh, sh;\n\tmov.u32 %%acc, %%t;\n"
	        "\tcvt.u64.u32 %%accd, %%t;\n\tmov.u32 %%v0, 0;\n\tmov.u32 %%v1, 0;\n\tmov.u32 %%v2, 0;\n"
	        "\tmov.u32 %%v3, 0;\n\tmov.b64 %%vd0, 0;\n\tmov.b64 %%vd1, 0;\n"
	        /* the CTA's shared memory from its slice of the input */
	        "\tmov.u32 %%i, %%t;\nIN:\n\tmul.wide.u32 %%ad, %%ctax, %d;\n"
	        "\tmad.wide.u32 %%ad, %%i, 4, %%ad;\n\tadd.u64 %%ad, %%ad, %%in;\n"
	        "\tld.global.u32 %%x, [%%ad];\n\tshl.b32 %%a, %%i, 2;\n\tadd.u32 %%a, %%a, %%sh;\n"
	        "\tst.shared.u32 [%%a], %%x;\n\tadd.u32 %%i, %%i, %%ntid;\n"
	        "\tsetp.lt.u32 %%b, %%i, %d;\n\t@%%b bra IN;\n\tbar.sync 0;\n",
	        SHBYTES, SHBYTES, SHBYTES / 4);
	for (int p = 0; p < nph; p++)
		phase(k, p == nph - 1);
	/* the CTA's shared memory and the thread's checksums out */
	fprintf(k->f, "\tmov.u32 %%i, %%t;\nOUT:\n\tmul.wide.u32 %%ad, %%ctax, %d;\n"
	        "\tmad.wide.u32 %%ad, %%i, 4, %%ad;\n\tadd.u64 %%ad, %%ad, %%out;\n"
	        "\tshl.b32 %%a, %%i, 2;\n\tadd.u32 %%a, %%a, %%sh;\n\tld.shared.u32 %%x, [%%a];\n"
	        "\tst.global.u32 [%%ad], %%x;\n\tadd.u32 %%i, %%i, %%ntid;\n"
	        "\tsetp.lt.u32 %%b, %%i, %d;\n\t@%%b bra OUT;\n"
	        "\tmad.lo.u32 %%x, %%ctax, %%ntid, %%t;\n\tmul.wide.u32 %%ad, %%x, 16;\n"
	        "\tadd.u64 %%ad, %%ad, %%acco;\n\tst.global.u32 [%%ad], %%acc;\n"
	        "\tst.global.u64 [%%ad+8], %%accd;\n\tret;\n}\n", SHBYTES, SHBYTES / 4);
	fclose(k->f);
}

/* ---------------------------------------------------------------- running */

typedef struct {
	uint8_t *p[2];
	uint64_t n[2];
	char err[200];            /* the fault, normalised; "" when the run completed */
} Result;

static const char *fake_bug;
static int verbose;
static uint64_t nruns, nfaults;

static void take(Result *r, Mem *m, const Launch *l, const Placed *pl)
{
	for (int i = 0; i < 2; i++) {
		int q = l->outs[i].param;
		r->n[i] = pl->bytes[q];
		if (!(r->p[i] = malloc(r->n[i])))
			exit(3);
		memcpy(r->p[i], dev_mem_global(m, pl->addr[q], 0), r->n[i]);
	}
}

/* the fault of an error message, either model's, as "load 4 at 0x10, CTA (1,0,0), thread 5"
 * ("misaligned" for either kind; "atomic" for an atomic's, which the oracle reports as a
 * store and the SM model as its LDSLK's load where a lock loop stands for it; the address's
 * low 32 bits) */
static void normal(const char *msg, int oracle, int atom, char *out, size_t n)
{
	const char *kind = strstr(msg, "misaligned") ? "misaligned" : atom ? "atomic" :
	                   strstr(msg, "load") ? "load" : "store";
	unsigned size = 0, cx = 0, cy = 0, cz = 0, th = 0;
	unsigned long long a = 0;
	const char *p;

	if (oracle) {
		if ((p = strstr(msg, "misaligned ")))
			sscanf(p, "misaligned %u-byte shared access at 0x%llx", &size, &a);
		else if ((p = strstr(msg, "load of ")))
			sscanf(p, "load of %u bytes from shared address 0x%llx", &size, &a);
		else if ((p = strstr(msg, "store of ")))
			sscanf(p, "store of %u bytes to shared address 0x%llx", &size, &a);
		if ((p = strstr(msg, "CTA (")))
			sscanf(p, "CTA (%u,%u,%u), thread (%u", &cx, &cy, &cz, &th);
	} else {
		if ((p = strstr(msg, " of ")))
			sscanf(p, " of %u bytes at 0x%llx", &size, &a);
		if ((p = strstr(msg, "CTA (")))
			sscanf(p, "CTA (%u,%u,%u)", &cx, &cy, &cz);
		if ((p = strstr(msg, "(thread ")))
			sscanf(p, "(thread %u", &th);
	}
	snprintf(out, n, "%s %u at 0x%llx, CTA (%u,%u,%u), thread %u", kind, size,
	         a & 0xffffffffull, cx, cy, cz, th);
}

/* what one run needs: warpsim's options, its memory, its messages */
typedef struct {
	WsOpts o;
	Mem mem;
	Placed pl;
	char *msg;
	size_t mlen;
	FILE *err;
} Run;

/* a run of kernel k (seed s): its launch and extra[] (--config, --predicate-max) read as
 * warpsim reads them (cli.h: a config's translator options too, the translator taking the
 * architecture's --max-regs and --arch); 0, or -1 after a message */
static int run_open(Run *r, const Kgen *k, uint64_t s, char **extra, int nextra)
{
	char grid[16], block[16], in[64], sh[64], acc[64];
	char *argv[32] = {"shstress", "--kernel", "k", "--grid", grid, "--block", block, "--arg", in,
	                  "--arg", sh, "--arg", acc, "--out", "1:sh.bin", "--out", "2:acc.bin"};
	int argc = 17;

	memset(r, 0, sizeof *r);
	if (!(r->err = open_memstream(&r->msg, &r->mlen)))
		exit(3);
	dev_mem_init(&r->mem);
	cli_warpsim_init(&r->o);
	snprintf(grid, sizeof grid, "%d", k->grid);
	snprintf(block, sizeof block, "%d", k->block);
	snprintf(in, sizeof in, "buf:u32:%d:random:%u:0:4294967295", k->grid * SHBYTES / 4,
	         (unsigned)(s * 2654435761u + 7));
	snprintf(sh, sizeof sh, "buf:u32:%d:zero", k->grid * SHBYTES / 4);
	snprintf(acc, sizeof acc, "buf:u32:%d:zero", k->grid * k->block * 4);
	for (int i = 0; i < nextra; i++)
		argv[argc++] = extra[i];
	return cli_warpsim_argv(&r->o, argc, argv, r->err);
}

static void run_close(Run *r)
{
	dev_placed_free(&r->pl);
	dev_mem_free(&r->mem);
	cli_warpsim_free(&r->o);
	fclose(r->err);
	free(r->msg);
}

/* the oracle's run of module m: 0, or 1 when it failed otherwise than by a fault */
static int run_oracle(const Module *m, const Kgen *k, uint64_t s, Result *res)
{
	Run r;
	OrConfig oc = {0};
	OrStats st = {0};
	int rc, bad = 0;

	if (run_open(&r, k, s, NULL, 0))
		bad = 1;
	else {
		or_config_init(&oc, 10000000);
		oc.shared_unit = (uint32_t)r.o.sim.tc.shared_unit;
		rc = or_run(m, &r.o.sim.launch, &oc, &r.mem, &r.pl, &st, r.err);
		fflush(r.err);
		if (rc == OR_DONE)
			take(res, &r.mem, &r.o.sim.launch, &r.pl);
		else if (rc == OR_FAULT && k->fault)
			normal(r.msg, 1, k->fault == 2, res->err, sizeof res->err);
		else
			bad = 1;
	}
	fflush(r.err);
	if (bad)
		printf("shstress: seed %llu: the oracle failed: %.300s\n", (unsigned long long)s, r.msg);
	run_close(&r);
	return bad;
}

/* the SM model's run of module m translated at --predicate-max pmax under config cfg */
static int run_sm(const Module *m, const Kgen *k, uint64_t s, const char *cfg, const char *pmax,
                  Result *res)
{
	char path[64], pm[16];
	char *extra[] = {"--config", path, "--predicate-max", pm};
	Run r;
	SimConfig c;
	Prog *p = NULL;
	Gpu *g = NULL;
	int bad = 0, rc;

	snprintf(path, sizeof path, "sim/configs/%s.cfg", cfg);
	snprintf(pm, sizeof pm, "%s", pmax);
	if (run_open(&r, k, s, extra, 4) || !(p = be_translate(m, &r.o.be, r.err)) ||
	    dev_launch_place(&r.mem, &p->k[0], &r.o.sim.launch, &r.pl, r.err))
		bad = 1;
	else {
		sim_config_from_opts(&c, &r.o.sim);
		if (!(g = sim_gpu_new(&p->k[0], &r.mem, &r.o.sim.launch, &c, "k.sass", r.err)))
			bad = 1;
		else if ((rc = sim_run(g, 0)) == SIM_DONE)
			take(res, &r.mem, &r.o.sim.launch, &r.pl);
		else if (rc == SIM_FAULT)
			normal(sim_gpu_error(g), 0, k->fault == 2, res->err, sizeof res->err);
		else {
			fputs(sim_gpu_error(g), r.err);
			bad = 1;
		}
	}
	fflush(r.err);
	if (bad)
		printf("shstress: seed %llu %s --predicate-max %s: the SM model failed: %.300s\n",
		       (unsigned long long)s, cfg, pmax, r.msg);
	if (fake_bug && res->p[0])
		res->p[0][res->n[0] - 1] ^= 1;
	else if (fake_bug)
		res->err[0] ^= 1;
	sim_gpu_free(g);
	isa_prog_free(p);
	run_close(&r);
	return bad;
}

static void result_free(Result *r)
{
	free(r->p[0]);
	free(r->p[1]);
	memset(r, 0, sizeof *r);
}

/* "" when a and b agree, else the first difference */
static void differ(const Result *a, const Result *b, char *why, size_t n)
{
	static const char *const names[] = {"shared memory", "checksums"};

	why[0] = 0;
	if (strcmp(a->err, b->err)) {
		snprintf(why, n, "the oracle: '%s', the SM model: '%s'", a->err[0] ? a->err : "no fault",
		         b->err[0] ? b->err : "no fault");
		return;
	}
	for (int i = 0; i < 2 && a->p[i]; i++)
		for (uint64_t j = 0; j < a->n[i]; j++)
			if (j >= b->n[i] || a->p[i][j] != b->p[i][j]) {
				snprintf(why, n, "%s differ at byte %llu", names[i], (unsigned long long)j);
				return;
			}
}

static int one(uint64_t s, char **pmax, int npmax, char **cfgs, int ncfg)
{
	char *ptx = NULL, name[32], why[600];
	Kgen k;
	Module *m;
	Result want = {0};
	int nerr = 0, bad = 0;

	draw(s, &ptx, &k);
	snprintf(name, sizeof name, "shstress-%llu.ptx", (unsigned long long)s);
	if (verbose)
		fputs(ptx, stderr);
	m = ptx_parse(name, ptx, strlen(ptx), stdout, &nerr);
	if (!m || nerr) {
		printf("shstress: seed %llu: the kernel does not parse\n", (unsigned long long)s);
		free(ptx);
		ptx_free(m);
		return 1;
	}
	if (run_oracle(m, &k, s, &want))
		bad = 1;
	else if (k.fault && !want.err[0]) {   /* (op_fault's access is out of bounds or misaligned) */
		printf("shstress: seed %llu: the oracle completed a kernel whose last phase faults\n",
		       (unsigned long long)s);
		bad = 1;
	}
	nfaults += want.err[0] != 0;
	for (int pi = 0; pi < npmax && !bad; pi++)
		for (int ci = 0; ci < ncfg && !bad; ci++) {
			Result got = {0};
			nruns++;
			if (run_sm(m, &k, s, cfgs[ci], pmax[pi], &got))
				bad = 1;
			else {
				differ(&want, &got, why, sizeof why);
				if (why[0]) {
					printf("shstress: DIFF seed %llu, --predicate-max %s, %s: %s\n",
					       (unsigned long long)s, pmax[pi], cfgs[ci], why);
					bad = 1;
				}
			}
			result_free(&got);
		}
	result_free(&want);
	ptx_free(m);
	free(ptx);
	return bad;
}

static int split(char *s, char **v)
{
	int n = 0;
	for (char *w = strtok(s, " "); w && n < MAXLIST; w = strtok(NULL, " "))
		v[n++] = w;
	return n;
}

static void usage(void)
{
	fprintf(stderr, "usage: shstress FROM COUNT [--pmax LIST] [--configs LIST] [-v]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static char pmax[128] = "0 4 inf", cfgs[128] = "fermi kepler teaching";
	char *pv[MAXLIST], *cv[MAXLIST], *end;
	uint64_t from, count, bad = 0;
	int np, nc;

	if (argc < 3)
		usage();
	from = strtoull(argv[1], &end, 10);
	if (*end)
		usage();
	count = strtoull(argv[2], &end, 10);
	if (*end)
		usage();
	for (int i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "-v"))
			verbose = 1;
		else if (i + 1 < argc && !strcmp(argv[i], "--pmax"))
			snprintf(pmax, sizeof pmax, "%s", argv[++i]);
		else if (i + 1 < argc && !strcmp(argv[i], "--configs"))
			snprintf(cfgs, sizeof cfgs, "%s", argv[++i]);
		else
			usage();
	}
	fake_bug = getenv("SHSTRESS_FAKE_BUG");
	np = split(pmax, pv);
	nc = split(cfgs, cv);
	if (!np || !nc)
		usage();
	for (uint64_t s = from; s < from + count; s++)
		bad += (uint64_t)one(s, pv, np, cv, nc);
	printf("shstress: %llu kernels (%llu end in a fault), %llu SM-model runs: %llu disagree\n",
	       (unsigned long long)count, (unsigned long long)nfaults, (unsigned long long)nruns,
	       (unsigned long long)bad);
	return bad ? 1 : 0;
}
