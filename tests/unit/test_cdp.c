/* test_cdp.c - dynamic parallelism's buffers, launches and queue (device/cdp.c): buffers
 * 64-byte aligned after their launch header, none above 4096 bytes or beyond the region; a
 * launch copies the header and the buffer and refuses an address no buffer has; the merge
 * sorts by block, thread and the thread's order, gives the buffers back, and stops at the
 * first launch (in that order) deeper than 24 or over the pending limit; bank 0 of a child
 * grid gets its dimensions and parameters, and refuses empty or oversized shapes. */
#include <string.h>
#include <check.h>
#include "device/device.h"
#include "tests/unit/helper_check.h"

/* a buffer of size bytes from thread (cta, tid) holding the kernel address func, a grid of
 * gx blocks of bx threads and the 4-byte parameter v; launched */
static int launch(DevCdp *c, Mem *m, uint64_t cta, uint64_t tid, uint64_t func, uint32_t gx,
                  uint32_t bx, uint32_t v, char *why)
{
	uint64_t buf = dev_cdp_buffer(m, 8);
	uint8_t *p;
	DevCdpWho w = {0};

	ck_assert_uint_ne(buf, 0);
	p = dev_mem_global(m, buf - DEV_CDP_HDR, DEV_CDP_HDR + 8);
	ck_assert_ptr_nonnull(p);
	dev_st(p + DEV_CDP_H_FUNC, 8, func);
	for (int i = 0; i < 3; i++) {
		dev_st(p + DEV_CDP_H_GRID + 4 * i, 4, i ? 1 : gx);
		dev_st(p + DEV_CDP_H_BLOCK + 4 * i, 4, i ? 1 : bx);
	}
	dev_st(p + DEV_CDP_H_SHMEM, 4, 16);
	dev_st(p + DEV_CDP_HDR, 4, v);
	w.cta = cta;
	w.tid = tid;
	w.kernel = "parent";
	strcpy(w.where, "pc 0x0");
	return dev_cdp_launch(c, m, buf, &w, why, 512);
}

START_TEST(test_buffers)
{
	Mem m;
	uint64_t a, b;

	dev_mem_init(&m);
	ck_assert_uint_eq(dev_cdp_buffer(&m, 8), 0);              /* no region yet */
	ck_assert_int_eq(dev_cdp_place(&m, 2), 0);
	ck_assert_int_eq(dev_cdp_place(&m, 100), 0);              /* placed once */
	ck_assert_uint_eq(m.cdpbuf.base, DEV_CDP_BASE);
	ck_assert_uint_eq(m.cdpbuf.size, 2 * (DEV_CDP_HDR + DEV_CDP_BUFMAX));
	a = dev_cdp_buffer(&m, DEV_CDP_BUFMAX);
	ck_assert_uint_eq(a, DEV_CDP_BASE + DEV_CDP_HDR);
	ck_assert_uint_eq(dev_cdp_buffer(&m, DEV_CDP_BUFMAX + 1), 0);   /* above 4 KB */
	b = dev_cdp_buffer(&m, 1);
	ck_assert_uint_eq(b % 64, 0);
	ck_assert_uint_gt(b, a + DEV_CDP_BUFMAX);
	ck_assert_uint_eq(dev_cdp_buffer(&m, DEV_CDP_BUFMAX), 0);  /* the region is full */
	dev_mem_free(&m);
}
END_TEST

START_TEST(test_order)
{
	Mem m;
	DevCdp c = {0};
	DevCdpLaunch *r;
	char why[512];
	/* (cta, tid, v) in the engine's order; the queue: by cta, tid, then order */
	static const uint32_t made[][3] = {{1, 0, 10}, {0, 5, 20}, {0, 2, 30}, {0, 5, 40}, {0, 0, 50}};
	static const uint32_t want[] = {50, 30, 20, 40, 10};

	dev_mem_init(&m);
	ck_assert_int_eq(dev_cdp_place(&m, 8), 0);
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(launch(&c, &m, made[i][0], made[i][1], 0x40, 2, 4, made[i][2], why), 0);
	ck_assert_int_eq(m.cdpbuf.n, 5);
	ck_assert_int_eq(dev_cdp_merge(&c, &m, 3, 8, why, sizeof why), 0);
	ck_assert_int_eq(m.cdpbuf.n, 0);                          /* the buffers are back */
	for (int i = 0; i < 5; i++) {
		ck_assert_ptr_nonnull(r = dev_cdp_next(&c));
		ck_assert_uint_eq(dev_ld(r->params, 4), want[i]);
		ck_assert_int_eq(r->depth, 4);
		ck_assert_uint_eq(r->func, 0x40);
		ck_assert_uint_eq(r->grid[0], 2);
		ck_assert_uint_eq(r->block[0], 4);
		ck_assert_uint_eq(r->shmem, 16);
		ck_assert_uint_eq(r->nparams, 16);                 /* 8, rounded as heap.c rounds */
	}
	ck_assert_ptr_null(dev_cdp_next(&c));
	ck_assert_uint_eq(c.grids, 5);
	/* an address no buffer has */
	ck_assert_int_eq(dev_cdp_launch(&c, &m, DEV_CDP_BASE + 8, &(DevCdpWho){0}, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "which no cudaGetParameterBuffer of this grid gave"));
	dev_cdp_free(&c);
	dev_mem_free(&m);
}
END_TEST

START_TEST(test_limits)
{
	Mem m;
	DevCdp c = {0};
	char why[512];

	dev_mem_init(&m);
	ck_assert_int_eq(dev_cdp_place(&m, 4), 0);
	ck_assert_int_eq(launch(&c, &m, 0, 1, 0x40, 1, 1, 1, why), 0);
	ck_assert_int_eq(dev_cdp_merge(&c, &m, 23, 4, why, sizeof why), 0);   /* depth 24: fine */
	ck_assert_int_eq(launch(&c, &m, 0, 1, 0x40, 1, 1, 1, why), 0);
	ck_assert_int_eq(dev_cdp_merge(&c, &m, 24, 4, why, sizeof why), -1);  /* 25 */
	ck_assert_ptr_nonnull(strstr(why, "kernel 'parent', block (0,0,0), thread (0,0,0), pc 0x0: "
	                             "cudaLaunchDevice: the child grid would be at nesting depth 25"));
	dev_cdp_free(&c);
	/* pending 2: one waits; of three more launches the second (thread 1) is over */
	ck_assert_int_eq(launch(&c, &m, 0, 0, 0x40, 1, 1, 1, why), 0);
	ck_assert_int_eq(dev_cdp_merge(&c, &m, 0, 2, why, sizeof why), 0);
	ck_assert_int_eq(launch(&c, &m, 0, 2, 0x40, 1, 1, 1, why), 0);
	ck_assert_int_eq(launch(&c, &m, 0, 1, 0x40, 1, 1, 1, why), 0);
	ck_assert_int_eq(launch(&c, &m, 0, 0, 0x40, 1, 1, 1, why), 0);
	ck_assert_int_eq(dev_cdp_merge(&c, &m, 0, 2, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "more than 2 child grids would be pending"));
	ck_assert_int_eq(c.n, 0);
	dev_cdp_free(&c);
	dev_mem_free(&m);
}
END_TEST

START_TEST(test_bank0)
{
	Mem m;
	Launch l;
	Prog *p = isa_prog_new();
	Kernel *k = isa_prog_add_kernel(p, "child");
	DevCdpLaunch r = {0};
	uint8_t params[16];
	uint32_t v[3];
	uint64_t q;
	char why[512];

	dev_mem_init(&m);
	dev_launch_init(&l);
	isa_kernel_add_param(k, 0x20, 8, "a");
	isa_kernel_add_param(k, 0x28, 4, "b");
	dev_st(params, 8, 0x1122334455667788ull);
	dev_st(params + 8, 4, 99);
	r.params = params;
	r.nparams = 12;
	r.grid[0] = 3, r.grid[1] = 2, r.grid[2] = 1;
	r.block[0] = 32, r.block[1] = 1, r.block[2] = 1;
	memcpy(l.grid, r.grid, sizeof l.grid);
	memcpy(l.block, r.block, sizeof l.block);
	ck_assert_int_eq(dev_cdp_bank0(&m, k, &r, &l, why, sizeof why), 0);
	ck_assert_int_eq(dev_mem_cread(&m, 0, 0x20, &q, 8), 1);
	ck_assert_uint_eq(q, 0x1122334455667788ull);
	ck_assert_int_eq(dev_mem_cread(&m, 0, 0x28, v, 4), 1);
	ck_assert_uint_eq(v[0], 99);
	ck_assert_int_eq(dev_mem_cread(&m, 0, DEV_C0_NCTAID, v, 12), 1);
	ck_assert_uint_eq(v[0], 3);
	ck_assert_uint_eq(v[1], 2);
	r.nparams = 8;                                             /* b lies past the buffer */
	ck_assert_int_eq(dev_cdp_bank0(&m, k, &r, &l, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "takes 12 bytes of parameters; its parameter buffer holds 8"));
	r.nparams = 12;
	r.block[1] = 64;                                           /* 2048 threads */
	ck_assert_int_eq(dev_cdp_bank0(&m, k, &r, &l, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "a block holds at most 1024"));
	r.block[1] = 1;
	r.grid[2] = 0;
	ck_assert_int_eq(dev_cdp_bank0(&m, k, &r, &l, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "cudaErrorInvalidConfiguration"));
	dev_launch_free(&l);
	isa_prog_free(p);
	dev_mem_free(&m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cdp");
	TCase *tc = tcase_create("cdp");

	tcase_add_test(tc, test_buffers);
	tcase_add_test(tc, test_order);
	tcase_add_test(tc, test_limits);
	tcase_add_test(tc, test_bank0);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ck_run(suite());
}
