/* test_sched_pick.c - sim_sched_pick and sim_sched_first (the issue stage's pick by bit
 * masks) against sim_sched_order (the policy written out as a list): for every policy, long
 * random runs of arrivals, departures and issues, and at each step random candidate masks,
 * the pick must be the first warp of the order whose position is a candidate; and the issue
 * stage's shorter record of an issue (no lastage) against sim_sched_issued's. */
#include <check.h>
#include <stdint.h>
#include "sim/timing.h"
#include "tests/unit/helper_check.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int
position(const Sched *s, int warp)
{
	for (int i = 0; i < s->n; i++)
		if (s->warp[i] == warp)
			return i;
	return -1;
}

/* the reference: the order's first warp among the candidate positions, -1 when none */
static int
reference(const Sched *s, uint64_t cand)
{
	int order[TM_MAXWARPS], n = sim_sched_order(s, order);
	for (int i = 0; i < n; i++)
		if (cand >> position(s, order[i]) & 1)
			return order[i];
	return -1;
}

static void
run_policy(int policy, int pool)
{
	Sched s;
	uint8_t in[TM_MAXWARPS] = {0};
	uint64_t age = 1ull << 40, old = (1ull << 40) - 1;   /* unique ages, young and old */
	int checked = 0;

	sim_sched_init(&s, policy, pool);
	for (int step = 0; step < 20000; step++) {
		int w = (int)(next() % TM_MAXWARPS), op = (int)(next() % 8);
		if (op == 0 && !in[w]) {
			/* arrivals are mostly the youngest, sometimes older than every warp */
			sim_sched_add(&s, w, (next() % 4) ? ++age : old--);
			in[w] = 1;
		} else if (op == 1 && in[w] && s.n > 1) {
			sim_sched_remove(&s, w);
			in[w] = 0;
		} else if (op <= 4 && in[w]) {
			sim_sched_issued(&s, w, (int)(next() % 3 == 0));
		}
		if (s.n == 0)
			continue;
		uint64_t all = s.n == 64 ? ~0ull : (1ull << s.n) - 1;
		int order[TM_MAXWARPS];
		ck_assert_int_eq(sim_sched_order(&s, order), s.n);
		ck_assert_int_eq(sim_sched_first(&s), order[0]);
		for (int t = 0; t < 4; t++) {
			uint64_t cand = next() & next() & all;
			if (t == 0)
				cand = all;
			ck_assert_int_eq(sim_sched_pick(&s, cand), reference(&s, cand));
			checked++;
		}
		ck_assert_int_eq(sim_sched_pick(&s, 0), -1);
	}
	ck_assert_int_gt(checked, 10000);
}

START_TEST(test_pick_lrr) { run_policy(SCHED_LRR, 0); }
END_TEST

START_TEST(test_pick_gto) { run_policy(SCHED_GTO, 0); }
END_TEST

START_TEST(test_pick_two_level) { run_policy(SCHED_TWOLEVEL, 6); run_policy(SCHED_TWOLEVEL, 1); }
END_TEST

/* the issue stage's record of an issue (tsm.c's issued(): last, anyissued, rs and gbit, lastage left
 * for sched.c to take from age[rs - 1]) keeps every later arrival, departure, order and pick
 * as sim_sched_issued's full record does, also after the last issued warp left */
static void
run_record(int policy)
{
	Sched a, b;
	uint8_t in[TM_MAXWARPS] = {0};
	uint64_t age = 1ull << 40, old = (1ull << 40) - 1;
	int departed = 0;

	sim_sched_init(&a, policy, 0);
	sim_sched_init(&b, policy, 0);
	for (int step = 0; step < 20000; step++) {
		int w = (int)(next() % TM_MAXWARPS), op = (int)(next() % 8);
		if (op == 0 && !in[w]) {
			uint64_t g = (next() % 4) ? ++age : old--;
			sim_sched_add(&a, w, g);
			sim_sched_add(&b, w, g);
			in[w] = 1;
		} else if (op == 1 && in[w] && a.n > 1) {
			departed += a.last == w;
			sim_sched_remove(&a, w);
			sim_sched_remove(&b, w);
			in[w] = 0;
		} else if (op <= 4 && in[w]) {
			int i = position(&b, w);
			sim_sched_issued(&a, w, 0);
			b.last = w;
			b.anyissued = 1;
			b.rs = i + 1;
			b.gbit = 1ull << i;
		}
		ck_assert_int_eq(a.n, b.n);
		ck_assert_int_eq(a.rs, b.rs);
		ck_assert_int_eq(a.last, b.last);
		ck_assert_uint_eq(a.gbit, b.gbit);
		ck_assert_uint_eq(a.gbit, a.last >= 0 ? 1ull << (a.rs - 1) : 0);
		if (a.n == 0)
			continue;
		int oa[TM_MAXWARPS], ob[TM_MAXWARPS];
		ck_assert_int_eq(sim_sched_order(&a, oa), sim_sched_order(&b, ob));
		for (int i = 0; i < a.n; i++)
			ck_assert_int_eq(oa[i], ob[i]);
		uint64_t cand = next() & next() & (a.n == 64 ? ~0ull : (1ull << a.n) - 1);
		ck_assert_int_eq(sim_sched_pick(&a, cand), sim_sched_pick(&b, cand));
	}
	ck_assert_int_gt(departed, 20);
}

START_TEST(test_issue_record) { run_record(SCHED_GTO); run_record(SCHED_LRR); }
END_TEST

int
main(void)
{
	Suite *s = suite_create("sched_pick");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_pick_lrr);
	tcase_add_test(tc, test_pick_gto);
	tcase_add_test(tc, test_pick_two_level);
	tcase_add_test(tc, test_issue_record);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
