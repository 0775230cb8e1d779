/* test_timing_parts.c - the cycle model's components against closed-form expectations:
 * coalescing, bank conflicts, caches, the DRAM queue and the global-memory path,
 * scoreboard, wake-up, pipelines, schedulers, occupancy and dispatch, statistics output. */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"
#include "sim/timing.h"
#include "tests/unit/helper_check.h"
#include "tests/unit/helper_sim.h"

static void
strided(uint64_t *a, uint64_t base, uint64_t stride)
{
	for (int l = 0; l < TM_WARP; l++)
		a[l] = base + stride * (uint64_t)l;
}

/* ---------------------------------------------------------------- coalescing */
START_TEST(test_coalesce_strides)
{
	uint64_t a[TM_WARP], seg[TM_MAXSEGS];
	strided(a, 0x1000, 4);
	ck_assert_int_eq(sim_coalesce(a, ~0u, 4, 128, seg), 1);
	ck_assert(seg[0] == 0x1000);
	ck_assert_int_eq(sim_coalesce(a, ~0u, 4, 32, seg), 4);
	strided(a, 0x1010, 4); /* misaligned: straddles two lines */
	ck_assert_int_eq(sim_coalesce(a, ~0u, 4, 128, seg), 2);
	/* stride of k words over 32-byte sectors: 4k*31/32 + 1 sectors, 32 from k = 8 on */
	for (int k = 1; k <= 32; k++) {
		strided(a, 0x10000, 4 * (uint64_t)k);
		int want = k >= 8 ? 32 : 4 * k * 31 / 32 + 1;
		ck_assert_int_eq(sim_coalesce(a, ~0u, 4, 32, seg), want);
		for (int i = 1; i < want; i++)
			ck_assert(seg[i - 1] < seg[i]);
	}
	/* inactive lanes take no part */
	strided(a, 0, 128);
	ck_assert_int_eq(sim_coalesce(a, 0x0000ffffu, 4, 128, seg), 16);
	ck_assert_int_eq(sim_coalesce(a, 0, 4, 128, seg), 0);
	/* 16-byte accesses of 32 lanes cover 512 bytes */
	strided(a, 0x2000, 16);
	ck_assert_int_eq(sim_coalesce(a, ~0u, 16, 128, seg), 4);
	ck_assert_int_eq(sim_coalesce(a, ~0u, 16, 32, seg), 16);
	/* an unaligned 8-byte access crossing a sector boundary touches two */
	a[0] = 0x7c;
	ck_assert_int_eq(sim_coalesce(a, 1u, 8, 32, seg), 2);
	ck_assert(seg[0] == 0x60 && seg[1] == 0x80);
	/* reversed lanes give the same ascending list */
	for (int l = 0; l < TM_WARP; l++)
		a[l] = 0x9000 - 64 * (uint64_t)l;
	ck_assert_int_eq(sim_coalesce(a, ~0u, 4, 128, seg), 17); /* 0x8840 .. 0x9000 */
	ck_assert(seg[0] == 0x8800 && seg[16] == 0x9000);
}
END_TEST

START_TEST(test_same_addr_degree)
{
	uint64_t a[TM_WARP];
	strided(a, 0x100, 0);
	ck_assert_int_eq(sim_same_addr_degree(a, ~0u), 32);
	ck_assert_int_eq(sim_same_addr_degree(a, 0x7u), 3);
	strided(a, 0x100, 4);
	ck_assert_int_eq(sim_same_addr_degree(a, ~0u), 1);
	for (int l = 0; l < TM_WARP; l++)
		a[l] = (uint64_t)(l % 4) * 8; /* four addresses, eight lanes each */
	ck_assert_int_eq(sim_same_addr_degree(a, ~0u), 8);
	ck_assert_int_eq(sim_same_addr_degree(a, 0x11111111u), 8);
	ck_assert_int_eq(sim_same_addr_degree(a, 0), 0);
	/* the constant cache's requests: one per distinct address */
	ck_assert_int_eq(sim_distinct_addrs(a, ~0u), 4);
	ck_assert_int_eq(sim_distinct_addrs(a, 0x11111111u), 1);
	ck_assert_int_eq(sim_distinct_addrs(a, 0x3u), 2);
	ck_assert_int_eq(sim_distinct_addrs(a, 0), 0);
	strided(a, 0x100, 4);
	ck_assert_int_eq(sim_distinct_addrs(a, ~0u), 32);
}
END_TEST

/* random gathers (few distinct blocks, lanes out of order, and on blocks of 4 to 16 bytes
 * accesses of 8 and 16 that span two to four of them): the ascending, duplicate-free list of
 * every block an active lane's bytes touch */
START_TEST(test_coalesce_random)
{
	uint64_t a[TM_WARP], seg[TM_MAXSEGS], want[TM_MAXSEGS];
	uint32_t seed = 777;
	int sizes[] = {1, 4, 8, 16}, unsorted = 0, spans = 0;

	for (int r = 0; r < 3000; r++) {
		int size = sizes[r % 4], nw = 0;
		uint32_t gran = 4u << (r / 4 % 6), mask;
		for (int l = 0; l < TM_WARP; l++) {
			seed = seed * 1103515245u + 12345u;
			a[l] = 0x10000 + (uint64_t)((seed >> 8) % (1u + (uint32_t)r % 64)) * (uint64_t)size;
		}
		seed = seed * 1103515245u + 12345u;
		mask = r % 2 ? ~0u : seed;
		for (int l = 0; l < TM_WARP; l++)
			for (uint64_t b = a[l] & ~(uint64_t)(gran - 1); mask >> l & 1 && b < a[l] + (uint64_t)size; b += gran) {
				int i = 0;
				while (i < nw && want[i] != b)
					i++;
				if (i == nw)
					want[nw++] = b;
				spans += b != (a[l] & ~(uint64_t)(gran - 1));
			}
		for (int i = 1; i < nw; i++)          /* (sorted by insertion) */
			for (int j = i; j > 0 && want[j - 1] > want[j]; j--) {
				uint64_t t = want[j];
				want[j] = want[j - 1];
				want[j - 1] = t;
				unsorted++;
			}
		ck_assert_int_eq(sim_coalesce(a, mask, size, gran, seg), nw);
		for (int i = 0; i < nw; i++)
			ck_assert(seg[i] == want[i]);
	}
	ck_assert_int_gt(unsorted, 1000);    /* (lanes out of block order) */
	ck_assert_int_gt(spans, 1000);       /* (lanes on more than one block) */
}
END_TEST

/* ---------------------------------------------------------------- banks */
START_TEST(test_bank_strides)
{
	uint32_t a[TM_WARP];
	/* stride of k words over 32 banks: gcd(k, 32) lanes per bank */
	for (int k = 1; k <= 64; k++) {
		for (int l = 0; l < TM_WARP; l++)
			a[l] = (uint32_t)(4 * k * l);
		ck_assert_int_eq(sim_bank_degree(a, ~0u, 4, 32, 4), helper_gcd(k, 32));
	}
	/* consecutive words over fewer banks than lanes, and over more */
	for (int l = 0; l < TM_WARP; l++)
		a[l] = (uint32_t)(0x100 + 4 * l);
	ck_assert_int_eq(sim_bank_degree(a, ~0u, 4, 16, 4), 2);
	ck_assert_int_eq(sim_bank_degree(a, ~0u, 4, 24, 4), 2);
	ck_assert_int_eq(sim_bank_degree(a, ~0u, 4, 64, 4), 1);
	ck_assert_int_eq(sim_bank_degree(a, ~0u, 2, 32, 4), 1);
	ck_assert_int_eq(sim_bank_degree(a, ~0u, 4, 32, 2), 2);   /* two-byte banks: one apart */
	a[17] = a[18] + 128;    /* not consecutive: bank 18 has two words */
	ck_assert_int_eq(sim_bank_degree(a, ~0u, 4, 32, 4), 2);
	/* broadcast: one word for everyone */
	for (int l = 0; l < TM_WARP; l++)
		a[l] = 0x40;
	ck_assert_int_eq(sim_bank_degree(a, ~0u, 4, 32, 4), 1);
	/* bytes in the same word share it */
	for (int l = 0; l < TM_WARP; l++)
		a[l] = (uint32_t)l; /* 8 words, banks 0..7 */
	ck_assert_int_eq(sim_bank_degree(a, ~0u, 1, 32, 4), 1);
	/* 64-bit accesses of consecutive lanes: 64 words over 32 banks */
	for (int l = 0; l < TM_WARP; l++)
		a[l] = (uint32_t)(8 * l);
	ck_assert_int_eq(sim_bank_degree(a, ~0u, 8, 32, 4), 2);
	ck_assert_int_eq(sim_bank_degree(a, ~0u, 8, 32, 8), 1); /* 8-byte bank mode */
	/* only active lanes conflict */
	for (int l = 0; l < TM_WARP; l++)
		a[l] = (uint32_t)(128 * l);
	ck_assert_int_eq(sim_bank_degree(a, ~0u, 4, 32, 4), 32);
	ck_assert_int_eq(sim_bank_degree(a, 0x5u, 4, 32, 4), 2);
	ck_assert_int_eq(sim_bank_degree(a, 0, 4, 32, 4), 0);
}
END_TEST

/* the definition itself: the most distinct bank-wide words in one bank, counted by brute
 * force over random accesses (few distinct words, so that lanes share words and banks), on
 * geometries of powers of two and not */
static int bank_degree_ref(const uint32_t *addr, uint32_t mask, int size, int banks, int bb)
{
	uint32_t w[TM_WARP * 4];
	int n = 0, per = size > bb ? size / bb : 1, best = 0;

	for (int l = 0; l < TM_WARP; l++)
		for (int k = 0; mask >> l & 1 && k < per; k++) {
			uint32_t v = addr[l] / (uint32_t)bb + (uint32_t)k;
			int i = 0;
			while (i < n && w[i] != v)
				i++;
			if (i == n)
				w[n++] = v;
		}
	for (int b = 0; b < banks; b++) {
		int c = 0;
		for (int i = 0; i < n; i++)
			c += w[i] % (uint32_t)banks == (uint32_t)b;
		best = c > best ? c : best;
	}
	return best;
}

START_TEST(test_bank_random)
{
	static const int geo[][2] = {{32, 4}, {32, 8}, {16, 4}, {24, 4}, {64, 4}, {7, 2}, {1, 4}};
	uint32_t a[TM_WARP], seed = 12345;
	int sizes[] = {1, 2, 4, 8, 16}, conflicts = 0;

	for (int r = 0; r < 4000; r++) {
		const int *gm = geo[r % 7];
		int size = sizes[r / 7 % 5], words = 1 + (int)(r % 97);
		uint32_t mask;
		if (size / gm[1] > 4)
			continue;
		for (int l = 0; l < TM_WARP; l++) {
			seed = seed * 1103515245u + 12345u;
			a[l] = (seed >> 8) % (uint32_t)words * (uint32_t)size;
		}
		seed = seed * 1103515245u + 12345u;
		mask = r % 3 ? ~0u : seed;
		int d = sim_bank_degree(a, mask, size, gm[0], gm[1]);
		ck_assert_int_eq(d, bank_degree_ref(a, mask, size, gm[0], gm[1]));
		conflicts += d > 1;
	}
	ck_assert_int_gt(conflicts, 1000);   /* (the draws do conflict) */
}
END_TEST

/* ---------------------------------------------------------------- caches */
START_TEST(test_cache_lru)
{
	Cache c;
	char err[200];
	CacheCfg k = {1, 1024, 128, 2, 10}; /* 4 sets of 2 ways */
	ck_assert_int_eq(sim_cache_init(&c, &k, err, sizeof err), 0);
	ck_assert_int_eq(c.sets, 4);
	uint64_t X = 0x0, Y = 0x200, Z = 0x400; /* all in set 0 */
	ck_assert_int_eq(sim_cache_access(&c, X, 1), 0);
	ck_assert_int_eq(sim_cache_access(&c, X + 100, 1), 1); /* same line */
	ck_assert_int_eq(sim_cache_access(&c, Y, 1), 0);
	ck_assert_int_eq(sim_cache_access(&c, X, 1), 1);       /* X is now most recent */
	ck_assert_int_eq(sim_cache_access(&c, Z, 1), 0);       /* evicts Y */
	ck_assert_int_eq(sim_cache_access(&c, X, 1), 1);
	ck_assert_int_eq(sim_cache_access(&c, Y, 1), 0);       /* evicts Z */
	ck_assert_int_eq(sim_cache_access(&c, Z, 0), 0);       /* no allocation */
	ck_assert_int_eq(sim_cache_access(&c, Y, 0), 1);
	ck_assert_int_eq(sim_cache_access(&c, 0x80, 1), 0);    /* set 1: untouched by the rest */
	sim_cache_invalidate(&c, Y);
	ck_assert_int_eq(sim_cache_access(&c, Y, 0), 0);
	ck_assert(c.hits == 4 && c.misses == 7);
	sim_cache_clear(&c);
	ck_assert_int_eq(sim_cache_access(&c, X, 1), 0);
	sim_cache_free(&c);

	/* three sets: lines 0, 3, 6 share set 0 */
	CacheCfg k3 = {1, 3 * 64, 64, 1, 10};
	ck_assert_int_eq(sim_cache_init(&c, &k3, err, sizeof err), 0);
	ck_assert_int_eq(c.sets, 3);
	sim_cache_access(&c, 0 * 64, 1);
	sim_cache_access(&c, 1 * 64, 1);
	ck_assert_int_eq(sim_cache_access(&c, 3 * 64, 1), 0);
	ck_assert_int_eq(sim_cache_access(&c, 1 * 64, 1), 1);
	ck_assert_int_eq(sim_cache_access(&c, 0 * 64, 1), 0);
	sim_cache_free(&c);

	CacheCfg bad = {1, 1000, 128, 2, 10};
	ck_assert_int_eq(sim_cache_init(&c, &bad, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "multiple of line x ways"));
}
END_TEST

/* the cache against true LRU by use stamps (an invalid way filled first): random accesses,
 * with and without allocation, and invalidations over a few lines per set, on seven
 * geometries (one way, two, four, eight, sixteen, twenty-four; one set, three, 768) */
START_TEST(test_cache_random)
{
	static const int geo[][2] = {{1, 1}, {4, 2}, {3, 4}, {32, 4}, {768, 8}, {5, 16}, {4, 24}};
	uint32_t seed = 12345;

	for (size_t g = 0; g < sizeof geo / sizeof geo[0]; g++) {
		int sets = geo[g][0], ways = geo[g][1], n = sets * ways;
		CacheCfg k = {1, 128 * n, 128, ways, 10};
		uint64_t *tag = calloc((size_t)n, 8), *used = calloc((size_t)n, 8), tick = 0;
		uint64_t hits = 0, misses = 0;
		Cache c;
		char err[200];
		ck_assert_int_eq(sim_cache_init(&c, &k, err, sizeof err), 0);
		for (int r = 0; r < 40000; r++) {
			seed = seed * 1103515245u + 12345u;
			/* a line among 1.5 x the ways per set, so that sets fill and evict */
			uint64_t line = (seed >> 8) % (uint64_t)(sets * (ways + ways / 2 + 1));
			uint64_t addr = 0x7f0000000000ull + line * 128 + (seed & 127), t = (addr >> 7) + 1;
			int op = (int)(seed >> 28) & 15, base = (int)((addr >> 7) % (uint64_t)sets) * ways, hit = 0;
			if (op == 0) {          /* an invalidation */
				sim_cache_invalidate(&c, addr);
				for (int w = base; w < base + ways; w++)
					if (tag[w] == t)
						tag[w] = used[w] = 0;
				continue;
			}
			for (int w = base; w < base + ways && !hit; w++)
				if (tag[w] == t) {
					used[w] = ++tick;
					hit = 1;
				}
			if (!hit && op > 2) {   /* a miss allocates but for op 1 and 2 */
				int v = base;
				for (int w = base; w < base + ways; w++)
					if (used[w] < used[v])
						v = w;
				tag[v] = t;
				used[v] = ++tick;
			}
			hits += hit;
			misses += !hit;
			ck_assert_int_eq(sim_cache_access(&c, addr, op > 2), hit);
		}
		ck_assert(c.hits == hits && c.misses == misses);
		ck_assert(hits > 4000 && misses > 4000);
		sim_cache_free(&c);
		free(tag);
		free(used);
	}
}
END_TEST

/* ---------------------------------------------------------------- DRAM and the global path */
START_TEST(test_dram_queue)
{
	Dram d;
	sim_dram_init(&d, 32);
	/* back-to-back 32-byte requests at cycle 0: one slot each, then the latency */
	for (int i = 0; i < 4; i++)
		ck_assert(sim_dram_request(&d, 0, 32, 100) == (uint64_t)(i + 1 + 100));
	ck_assert(sim_dram_request(&d, 1000, 128, 100) == 1000 + 4 + 100);
	ck_assert(sim_dram_request(&d, 1000, 33, 100) == 1004 + 2 + 100); /* ceil(33/32) */
	ck_assert(d.bytes == 4 * 32 + 128 + 33 && d.reqs == 6);
}
END_TEST

START_TEST(test_gmem_coalesced_vs_strided)
{
	TimingConfig c = helper_teaching(); /* no caches, 32 B/cycle, global latency 100 */
	uint64_t a[TM_WARP];
	GmResult r;
	Dram d;

	/* coalesced: 4 sectors, the last leaves at cycle 3 and takes 1 slot + 100 */
	sim_dram_init(&d, c.dram_bw);
	strided(a, 0x10000, 4);
	ck_assert(sim_gmem_access(&c, NULL, NULL, &d, 0, a, ~0u, 4, GM_LOAD, c.lat[LAT_GLOBAL], &r) == 104);
	ck_assert_int_eq(r.trans, 4);
	ck_assert_int_eq(r.dram, 4);
	/* stride 32 words: 32 sectors; the difference is exactly the transaction count */
	sim_dram_init(&d, c.dram_bw);
	strided(a, 0x10000, 128);
	ck_assert(sim_gmem_access(&c, NULL, NULL, &d, 0, a, ~0u, 4, GM_LOAD, c.lat[LAT_GLOBAL], &r) == 132);
	ck_assert_int_eq(r.trans, 32);
	/* a second warp right behind queues for bandwidth: 4 more sectors after the 32 */
	strided(a, 0x20000, 4);
	ck_assert(sim_gmem_access(&c, NULL, NULL, &d, 0, a, ~0u, 4, GM_LOAD, c.lat[LAT_GLOBAL], &r) == 136);
	/* a halved bandwidth doubles the slots: 16 B/cycle, 4 sectors of 2 slots */
	sim_dram_init(&d, 16);
	ck_assert(sim_gmem_access(&c, NULL, NULL, &d, 0, a, ~0u, 4, GM_LOAD, c.lat[LAT_GLOBAL], &r) == 4 * 2 + 100);
	/* local memory takes its own latency */
	sim_dram_init(&d, c.dram_bw);
	c.lat[LAT_LOCAL] = 50;
	ck_assert(sim_gmem_access(&c, NULL, NULL, &d, 10, a, 1u, 4, GM_LOAD, c.lat[LAT_LOCAL], &r) == 10 + 1 + 50);
	/* no active lane: no transaction, done at once */
	ck_assert(sim_gmem_access(&c, NULL, NULL, &d, 7, a, 0, 4, GM_LOAD, c.lat[LAT_GLOBAL], &r) == 7);
	ck_assert_int_eq(r.trans, 0);
}
END_TEST

START_TEST(test_gmem_caches)
{
	TimingConfig c = helper_teaching();
	char err[200];
	Cache l1, l2;
	Dram d;
	GmResult r;
	uint64_t a[TM_WARP];
	c.l1.enable = c.l2.enable = 1;
	ck_assert_int_eq(sim_cache_init(&l1, &c.l1, err, sizeof err), 0);
	ck_assert_int_eq(sim_cache_init(&l2, &c.l2, err, sizeof err), 0);
	sim_dram_init(&d, c.dram_bw);
	strided(a, 0x4000, 4);
	/* with L1 a load moves one 128-byte line: 4 DRAM slots + 100 */
	ck_assert(sim_gmem_access(&c, &l1, &l2, &d, 0, a, ~0u, 4, GM_LOAD, 100, &r) == 104);
	ck_assert(r.trans == 1 && r.dram == 1 && d.bytes == 128);
	/* again: an L1 hit */
	ck_assert(sim_gmem_access(&c, &l1, &l2, &d, 200, a, ~0u, 4, GM_LOAD, 100, &r) == 200 + 20);
	ck_assert_int_eq(r.l1_hits, 1);
	/* a store writes through in 32-byte sectors and evicts the line from L1 ... */
	ck_assert(sim_gmem_access(&c, &l1, &l2, &d, 300, a, 1u, 4, GM_STORE, 100, &r) == 300 + 40);
	ck_assert_int_eq(r.trans, 1);
	/* ... so the next load is served by L2 */
	ck_assert(sim_gmem_access(&c, &l1, &l2, &d, 400, a, ~0u, 4, GM_LOAD, 100, &r) == 400 + 40);
	ck_assert(r.l1_hits == 0 && r.l2_hits == 1 && r.dram == 0);
	/* atomics on one address: performed at L2 (a hit), 31 extra lanes serialised */
	strided(a, 0x4000, 0);
	ck_assert(sim_gmem_access(&c, &l1, &l2, &d, 500, a, ~0u, 4, GM_ATOM, 100, &r) ==
	          500 + (uint64_t)c.lat[LAT_ATOM] + 31 * 2);
	ck_assert(r.atom_degree == 32 && r.l2_hits == 1);
	/* an L2 miss fetches from DRAM first: 1 slot + 100 */
	strided(a, 0x8000, 0);
	ck_assert(sim_gmem_access(&c, &l1, &l2, &d, 600, a, ~0u, 4, GM_ATOM, 100, &r) == 600 + 1 + 100 + 31 * 2);
	sim_cache_free(&l1);
	sim_cache_free(&l2);
}
END_TEST

/* the cache operators: which cache serves each, and a read-only cache at its own line and
 * latency */
START_TEST(test_cache_ops)
{
	TimingConfig c = helper_teaching();
	char err[200];
	Ins ld = {0};
	Cache ro;
	Dram d;
	GmResult r;
	uint64_t a[TM_WARP];

	/* the operator of an instruction: LD's sub, LDG is .nc, a local access is local */
	ld.op = OP_LD;
	ck_assert_int_eq(sim_cache_op(&ld, 0), COP_CA);
	ld.m.sub = SUB_CG;
	ck_assert_int_eq(sim_cache_op(&ld, 0), COP_CG);
	ck_assert_int_eq(sim_cache_op(&ld, 1), COP_LOCAL);
	ld.op = OP_LDG;
	ld.m.sub = SUB_NONE;
	ck_assert_int_eq(sim_cache_op(&ld, 0), COP_NC);
	/* the path: L1 only when --l1 is on; a global store evicts from L1 only when some global
	 * load may be held there */
	c.cpath[COP_CA] = CPATH_L1;
	c.cpath[COP_NC] = CPATH_RO;
	c.cpath[COP_LOCAL] = CPATH_L1;
	for (int op = 0; op < COP_COUNT; op++)
		if (op != COP_CA && op != COP_NC && op != COP_LOCAL)
			c.cpath[op] = CPATH_L2;
	c.l1.enable = 0;
	ck_assert_int_eq(sim_cache_path(&c, COP_CA), CPATH_L2);
	ck_assert_int_eq(sim_cache_path(&c, COP_NC), CPATH_RO);
	ck_assert_int_eq(sim_l1_global(&c), 0);
	c.l1.enable = 1;
	ck_assert_int_eq(sim_cache_path(&c, COP_CA), CPATH_L1);
	ck_assert_int_eq(sim_l1_global(&c), 1);
	c.cpath[COP_CA] = CPATH_L2;
	ck_assert_int_eq(sim_l1_global(&c), 0);      /* local memory alone in L1 (GK110) */
	/* a read-only cache of 32-byte lines at latency 30 (no L2): a warp's 128 bytes are 4
	 * lines, 4 DRAM slots + 100, then 4 hits, the last leaving at +3 */
	c.ro.size = 1024, c.ro.line = 32, c.ro.assoc = 4, c.ro.latency = 30;
	ck_assert_int_eq(sim_cache_init(&ro, &c.ro, err, sizeof err), 0);
	sim_dram_init(&d, c.dram_bw);
	strided(a, 0x4000, 4);
	ck_assert(sim_gmem_access(&c, &ro, NULL, &d, 0, a, ~0u, 4, GM_LOAD, 100, &r) == 3 + 1 + 100);
	ck_assert(r.trans == 4 && r.dram == 4);
	ck_assert(sim_gmem_access(&c, &ro, NULL, &d, 200, a, ~0u, 4, GM_LOAD, 100, &r) == 200 + 3 + 30);
	ck_assert_int_eq(r.l1_hits, 4);
	sim_cache_free(&ro);
}
END_TEST

START_TEST(test_gmem_atomics_no_l2)
{
	TimingConfig c = helper_teaching();
	Dram d;
	GmResult r;
	uint64_t a[TM_WARP];
	sim_dram_init(&d, c.dram_bw);
	strided(a, 0x100, 0);
	/* one sector, 1 slot + atom latency 100, then 31 lanes x 2 cycles */
	ck_assert(sim_gmem_access(&c, NULL, NULL, &d, 0, a, ~0u, 4, GM_ATOM, 100, &r) == 1 + 100 + 62);
	/* distinct addresses in one sector: no serialisation */
	sim_dram_init(&d, c.dram_bw);
	strided(a, 0x100, 4);
	ck_assert(sim_gmem_access(&c, NULL, NULL, &d, 0, a, 0xffu, 4, GM_ATOM, 100, &r) == 1 + 100);
	ck_assert_int_eq(r.atom_degree, 1);
}
END_TEST

/* ---------------------------------------------------------------- scoreboard and wake-up */
START_TEST(test_scoreboard)
{
	Scoreboard s;
	SbUse w1 = {0}, w2 = {0}, u = {0};
	int why;
	sim_sb_clear(&s);
	sim_sb_use_regs(&w1, 1, 2, 1);     /* R2 */
	sim_sb_use_id(&w1, 1, SB_P(0));    /* P0 */
	sim_sb_write(&s, &w1, 10, 0);
	sim_sb_use_regs(&w2, 1, 4, 2);     /* the pair R4:R5, from memory */
	sim_sb_use_id(&w2, 1, SB_CC);
	sim_sb_write(&s, &w2, 20, 1);

	sim_sb_use_regs(&u, 0, 5, 1);
	ck_assert(sim_sb_ready(&s, &u, &why) == 20);
	ck_assert_int_eq(why, STALL_RAW_MEM);
	u = (SbUse){0};
	sim_sb_use_regs(&u, 0, 3, 1);       /* independent */
	sim_sb_use_regs(&u, 0, ISA_RZ, 2);  /* RZ is never pending */
	sim_sb_use_id(&u, 0, SB_P(ISA_PT)); /* nor PT */
	ck_assert_int_eq(u.nsrc, 1);
	ck_assert(sim_sb_ready(&s, &u, &why) == 0);
	ck_assert_int_eq(why, STALL_NONE);
	sim_sb_use_id(&u, 0, SB_P(0));      /* guard P0: RAW on an ALU result */
	ck_assert(sim_sb_ready(&s, &u, &why) == 10);
	ck_assert_int_eq(why, STALL_RAW_ALU);
	u = (SbUse){0};
	sim_sb_use_regs(&u, 1, 2, 1);       /* WAW on R2 */
	ck_assert(sim_sb_ready(&s, &u, &why) == 10);
	sim_sb_use_id(&u, 0, SB_CC);        /* IADD.X reads CC */
	ck_assert(sim_sb_ready(&s, &u, &why) == 20);
	ck_assert_int_eq(why, STALL_RAW_MEM);
}
END_TEST

/* the issue stage's split of sim_sb_ready (sim_sb_max, then sim_sb_why from that cycle, and
 * sim_tsb_max and sim_tsb_why over a TInst's copy of the fixed run) gives
 * its cycle and reason on every use: ties of a memory and an arithmetic write at one cycle
 * (the first id read decides), writes overwritten, a pending access landed later; uses with
 * an id read and written (counted once in nchk), and longer than sim_sb_max's fixed run */
START_TEST(test_scoreboard_split)
{
	uint32_t x = 12345;
	for (int round = 0; round < 200; round++) {
		Scoreboard s;
		sim_sb_clear(&s);
		for (int k = 0; k < 12; k++) {
			SbUse w = {0};
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			sim_sb_use_regs(&w, 1, (int)(x % 6), 1 + (int)(x >> 8 & 1));
			if (x >> 9 & 1)
				sim_sb_use_id(&w, 1, SB_P(x >> 10 & 3));
			/* cycles 1..4 (many ties); some from memory, some pending until landed */
			if ((x >> 12 & 7) == 0) {
				sim_sb_write(&s, &w, SIM_PEND, 1);
				for (int i = 0; i < w.ndst && (x >> 15 & 1); i++)
					sim_sb_land(&s, w.id[i], 1 + (x >> 16 & 3));
			} else
				sim_sb_write(&s, &w, 1 + (x >> 18 & 3), (int)(x >> 20 & 1));
		}
		for (int k = 0; k < 20; k++) {
			SbUse u = {0};
			int why, n = 1 + k % 6, distinct = 0;
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			for (int i = 0; i < n; i++)
				sim_sb_use_id(&u, (int)(x >> (3 * i) & 1),
				              (x >> (3 * i + 1) & 3) == 3 ? SB_P(x >> 20 & 3) : SB_R(x >> (3 * i + 1) & 7));
			for (int i = 0; i < n; i++) {
				int j = 0;
				while (j < i && u.id[j] != u.id[i])
					j++;
				distinct += j == i;
			}
			ck_assert_int_eq(u.nchk, distinct);
			uint64_t t = sim_sb_ready(&s, &u, &why);
			ck_assert_uint_eq(sim_sb_max(&s, &u), t);
			ck_assert_int_eq(sim_sb_why(&s, &u, t), why);
			/* and the issue stage's forms over a TInst's own copy of the run */
			TInst in = {0};
			sim_tinst_use(&in, &u);
			ck_assert_uint_eq(sim_tsb_max(&s, &in), t);
			ck_assert_int_eq(sim_tsb_why(&s, &in, t), why);
		}
	}
}
END_TEST

START_TEST(test_wake)
{
	int why;
	WakeIn w = {0, STALL_NONE, 0, 0};
	ck_assert(sim_wake(&w, 5, &why) == 5);
	ck_assert_int_eq(why, STALL_NONE);
	w = (WakeIn){30, STALL_RAW_MEM, 12, 8};
	ck_assert(sim_wake(&w, 5, &why) == 30);
	ck_assert_int_eq(why, STALL_RAW_MEM);
	w = (WakeIn){9, STALL_RAW_ALU, 12, 8};
	ck_assert(sim_wake(&w, 5, &why) == 12);
	ck_assert_int_eq(why, STALL_PIPE);
	w = (WakeIn){9, STALL_RAW_ALU, 3, 11};
	ck_assert(sim_wake(&w, 5, &why) == 11);
	ck_assert_int_eq(why, STALL_CTRL);
	ck_assert(sim_wake(&w, 20, &why) == 20);
	ck_assert_int_eq(why, STALL_NONE);
}
END_TEST

/* ---------------------------------------------------------------- pipelines */
START_TEST(test_units)
{
	TimingConfig c;
	Units u;
	sim_tconfig_defaults(&c); /* Fermi: SFU 1 x 8 cycles, ALU 2 x 2 cycles */
	sim_units_clear(&u);
	ck_assert(sim_units_free_at(&u, &c, UNIT_SFU) == 0);
	sim_units_take(&u, &c, UNIT_SFU, 0, 1);
	ck_assert(sim_units_free_at(&u, &c, UNIT_SFU) == 8);
	/* four SFU warp instructions back to back take 32 cycles of the pipe */
	for (uint64_t t = 8; t < 32; t += 8)
		sim_units_take(&u, &c, UNIT_SFU, sim_units_free_at(&u, &c, UNIT_SFU), 1);
	ck_assert(sim_units_free_at(&u, &c, UNIT_SFU) == 32);
	sim_units_take(&u, &c, UNIT_ALU, 0, 1);
	ck_assert(sim_units_free_at(&u, &c, UNIT_ALU) == 0); /* the second pipe */
	sim_units_take(&u, &c, UNIT_ALU, 0, 1);
	ck_assert(sim_units_free_at(&u, &c, UNIT_ALU) == 2);
	/* replays multiply the occupancy */
	sim_units_take(&u, &c, UNIT_LSU_SHARED, 10, 4);
	ck_assert(sim_units_free_at(&u, &c, UNIT_LSU_SHARED) == 10 + 4 * 2);
}
END_TEST

/* ---------------------------------------------------------------- schedulers */
static void
expect_order(const Sched *s, const int *want, int n)
{
	int got[TM_MAXWARPS];
	ck_assert_int_eq(sim_sched_order(s, got), n);
	for (int i = 0; i < n; i++)
		ck_assert_msg(got[i] == want[i], "position %d: got warp %d, want %d", i, got[i], want[i]);
}

START_TEST(test_sched_lrr)
{
	Sched s;
	sim_sched_init(&s, SCHED_LRR, 0);
	for (int w = 0; w < 4; w++)
		sim_sched_add(&s, 10 + w, (uint64_t)w * 10);
	expect_order(&s, (int[]){10, 11, 12, 13}, 4);
	sim_sched_issued(&s, 11, 0);
	expect_order(&s, (int[]){12, 13, 10, 11}, 4);
	sim_sched_issued(&s, 13, 0);
	expect_order(&s, (int[]){10, 11, 12, 13}, 4);
	sim_sched_issued(&s, 12, 0);
	sim_sched_remove(&s, 12); /* the next after a removed warp is the one that followed it */
	expect_order(&s, (int[]){13, 10, 11}, 3);
	sim_sched_add(&s, 5, 15); /* older than the last issued (20): its turn comes after the wrap */
	expect_order(&s, (int[]){13, 10, 11, 5}, 4);
}
END_TEST

START_TEST(test_sched_gto)
{
	Sched s;
	sim_sched_init(&s, SCHED_GTO, 0);
	for (int w = 3; w >= 0; w--)
		sim_sched_add(&s, 10 + w, (uint64_t)w); /* added youngest first */
	expect_order(&s, (int[]){10, 11, 12, 13}, 4);
	sim_sched_issued(&s, 12, 0);
	expect_order(&s, (int[]){12, 10, 11, 13}, 4); /* greedy, then oldest */
	sim_sched_issued(&s, 10, 0);
	expect_order(&s, (int[]){10, 11, 12, 13}, 4);
	sim_sched_remove(&s, 10);
	expect_order(&s, (int[]){11, 12, 13}, 3);
}
END_TEST

START_TEST(test_sched_two_level)
{
	Sched s;
	sim_sched_init(&s, SCHED_TWOLEVEL, 2);
	for (int w = 0; w < 4; w++)
		sim_sched_add(&s, 10 + w, (uint64_t)w);
	expect_order(&s, (int[]){10, 11, 12, 13}, 4); /* pool {10, 11}, then pending */
	sim_sched_issued(&s, 10, 1); /* 10 waits on memory: 12 enters the pool */
	expect_order(&s, (int[]){11, 12, 10, 13}, 4);
	sim_sched_issued(&s, 11, 0); /* short latency: stays */
	expect_order(&s, (int[]){12, 11, 10, 13}, 4);
	sim_sched_issued(&s, 13, 0); /* a pending warp issued (no pool warp could): pool is full */
	expect_order(&s, (int[]){11, 12, 10, 13}, 4);
	sim_sched_remove(&s, 11);    /* a pool warp exits: the oldest pending (10) enters */
	expect_order(&s, (int[]){10, 12, 13}, 3);
	sim_sched_issued(&s, 12, 1);
	expect_order(&s, (int[]){13, 10, 12}, 3);
}
END_TEST

/* ---------------------------------------------------------------- occupancy and dispatch */
START_TEST(test_occupancy)
{
	TimingConfig c;
	Occupancy o;
	char err[200];
	sim_tconfig_defaults(&c); /* 48 warps, 8 CTAs, 32768 registers in units of 64, 48 KB */
	ck_assert_int_eq(sim_occupancy(&c, 256, 20, 0, &o, err, sizeof err), 0);
	ck_assert_int_eq(o.warps_per_cta, 8);
	ck_assert_int_eq(o.regs_per_cta, 8 * 640);
	ck_assert_int_eq(o.by[OCC_WARPS], 6);
	ck_assert_int_eq(o.by[OCC_REGS], 6);
	ck_assert_int_eq(o.ctas, 6);
	ck_assert_int_eq(o.limit, OCC_WARPS);
	ck_assert_int_eq(sim_occupancy(&c, 256, 32, 0, &o, err, sizeof err), 0);
	ck_assert_int_eq(o.ctas, 4);
	ck_assert_int_eq(o.limit, OCC_REGS);
	ck_assert_int_eq(sim_occupancy(&c, 64, 10, 20000, &o, err, sizeof err), 0);
	ck_assert_int_eq(o.shared_per_cta, 20096);
	ck_assert_int_eq(o.ctas, 2);
	ck_assert_int_eq(o.limit, OCC_SHARED);
	ck_assert_int_eq(sim_occupancy(&c, 32, 2, 0, &o, err, sizeof err), 0);
	ck_assert_int_eq(o.ctas, 8);
	ck_assert_int_eq(o.limit, OCC_CTAS);
	ck_assert_int_eq(sim_occupancy(&c, 33, 2, 0, &o, err, sizeof err), 0);
	ck_assert_int_eq(o.warps_per_cta, 2);
	ck_assert_int_eq(sim_occupancy(&c, 2048, 8, 0, &o, err, sizeof err), -1);
	ck_assert_str_eq(err, "a CTA of 2048 threads needs 64 warps, an SM holds 48 (--max-warps)");
	ck_assert_int_eq(sim_occupancy(&c, 1024, 63, 0, &o, err, sizeof err), -1);
	ck_assert_str_eq(err, "a CTA needs 65536 registers, an SM has 32768 (--registers)");
	ck_assert_int_eq(sim_occupancy(&c, 32, 64, 0, &o, err, sizeof err), -1);
	ck_assert_str_eq(err, "the kernel uses 64 registers per thread, --max-regs allows 63");
	ck_assert_int_eq(sim_occupancy(&c, 32, 8, 50000, &o, err, sizeof err), -1);
	ck_assert_str_eq(err, "a CTA needs 50048 bytes of shared memory, an SM has 49152 (--shared-per-sm)");
	ck_assert_int_eq(sim_occupancy(&c, 0, 8, 0, &o, err, sizeof err), -1);
}
END_TEST

START_TEST(test_dispatch)
{
	int res[3] = {2, 0, 1}, rr = 0;
	ck_assert_int_eq(sim_dispatch_pick(res, 3, 2, &rr), 1);
	res[1]++;
	ck_assert_int_eq(rr, 2);
	ck_assert_int_eq(sim_dispatch_pick(res, 3, 2, &rr), 2);
	res[2]++;
	ck_assert_int_eq(sim_dispatch_pick(res, 3, 2, &rr), 1);
	res[1]++;
	ck_assert_int_eq(sim_dispatch_pick(res, 3, 2, &rr), -1);
	res[0] = 0;
	ck_assert_int_eq(sim_dispatch_pick(res, 3, 2, &rr), 0);
}
END_TEST

/* ---------------------------------------------------------------- statistics */
START_TEST(test_stats_output)
{
	TStats s;
	char *buf = NULL;
	size_t len = 0;
	json_error_t je;
	memset(&s, 0, sizeof s);
	s.cycles = 1000;
	s.warp_insts = 100;
	s.thread_insts = 2400;
	s.bank_conflicts = 7;
	s.stall[STALL_RAW_MEM] = 500;
	s.max_warps = 48;
	s.occ.ctas = 6;
	s.occ.warps_per_cta = 8;
	s.occ.limit = OCC_REGS;
	s.warp_cycles = 24000;
	s.sm_cycles = 1000;

	FILE *f = open_memstream(&buf, &len);
	rp_tstats_print(f, &s);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "gpu_sim_cycle                          1000  cycles"));
	ck_assert_ptr_nonnull(strstr(buf, "gpu_ipc                              2.4000  "));
	ck_assert_ptr_nonnull(strstr(buf, "simd_efficiency                      0.7500  "));
	ck_assert_ptr_nonnull(strstr(buf, "occupancy_limited_by              registers  "));
	ck_assert_ptr_nonnull(strstr(buf, "gpgpu_n_shmem_bkconflict                  7  "));
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	rp_tstats_json(f, &s);
	fclose(f);
	json_t *j = json_loads(buf, 0, &je);
	ck_assert_msg(j != NULL, "bad JSON: %s", je.text);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "gpu_sim_cycle")), 1000);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "gpu_sim_insn")), 2400);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "stall_raw_mem")), 500);
	ck_assert(json_real_value(json_object_get(j, "gpu_ipc")) == 2.4);
	ck_assert(json_real_value(json_object_get(j, "theoretical_occupancy")) == 1.0);
	ck_assert(json_real_value(json_object_get(j, "gpu_occupancy")) == 0.5);
	ck_assert_str_eq(json_string_value(json_object_get(j, "occupancy_limited_by")), "registers");
	json_decref(j);
	free(buf);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("timing_parts");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_coalesce_strides);
	tcase_add_test(tc, test_coalesce_random);
	tcase_add_test(tc, test_same_addr_degree);
	tcase_add_test(tc, test_bank_strides);
	tcase_add_test(tc, test_bank_random);
	tcase_add_test(tc, test_cache_lru);
	tcase_add_test(tc, test_cache_random);
	tcase_add_test(tc, test_dram_queue);
	tcase_add_test(tc, test_gmem_coalesced_vs_strided);
	tcase_add_test(tc, test_gmem_caches);
	tcase_add_test(tc, test_cache_ops);
	tcase_add_test(tc, test_gmem_atomics_no_l2);
	tcase_add_test(tc, test_scoreboard);
	tcase_add_test(tc, test_scoreboard_split);
	tcase_add_test(tc, test_wake);
	tcase_add_test(tc, test_units);
	tcase_add_test(tc, test_sched_lrr);
	tcase_add_test(tc, test_sched_gto);
	tcase_add_test(tc, test_sched_two_level);
	tcase_add_test(tc, test_occupancy);
	tcase_add_test(tc, test_dispatch);
	tcase_add_test(tc, test_stats_output);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
