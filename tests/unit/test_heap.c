/* test_heap.c - the device heap of in-kernel malloc and free (device/heap.c): placement at
 * DEV_HEAP_BASE only once, 16-byte alignment and rounding, the end first and then the first
 * gap that holds a request, NULL when nothing does (and for a heap of 0 bytes), alignments
 * to a power of two (__nv_aligned_device_malloc), free of NULL,
 * of an address inside a block, of one freed already and of one outside the heap. */
#include <check.h>
#include "device/device.h"
#include "tests/unit/helper_check.h"

START_TEST(test_place)
{
	Mem m;

	dev_mem_init(&m);
	ck_assert_int_eq(dev_heap_place(&m, 4096), 0);
	ck_assert_uint_eq(m.heap.base, DEV_HEAP_BASE);
	ck_assert_uint_eq(m.heap.size, 4096);
	ck_assert_ptr_nonnull(dev_mem_global(&m, DEV_HEAP_BASE + 4095, 1));
	ck_assert_ptr_null(dev_mem_global(&m, DEV_HEAP_BASE + 4096, 1));
	ck_assert_int_eq(dev_heap_place(&m, 8192), 0);      /* placed once */
	ck_assert_uint_eq(m.heap.size, 4096);
	ck_assert_int_eq(m.n, 1);
	dev_mem_free(&m);
	dev_mem_init(&m);
	ck_assert_int_eq(dev_heap_place(&m, 0), 0);         /* --heap-bytes 0: no heap */
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, 1, 16), 0);
	ck_assert_int_eq(dev_heap_free(&m.heap, 0), 0);
	ck_assert_int_eq(dev_heap_free(&m.heap, DEV_HEAP_BASE), -1);
	dev_mem_free(&m);
}
END_TEST

START_TEST(test_fit)
{
	Mem m;
	uint64_t a, b, c, d, e;

	dev_mem_init(&m);
	ck_assert_int_eq(dev_heap_place(&m, 256), 0);
	a = dev_heap_malloc(&m.heap, 1, 16);          /* 16 bytes at 0 */
	b = dev_heap_malloc(&m.heap, 17, 16);         /* 32 at 16 */
	c = dev_heap_malloc(&m.heap, 0, 16);          /* 16 at 48: a unique pointer */
	ck_assert_uint_eq(a, DEV_HEAP_BASE);
	ck_assert_uint_eq(b, DEV_HEAP_BASE + 16);
	ck_assert_uint_eq(c, DEV_HEAP_BASE + 48);
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, 257, 16), 0);     /* more than the heap */
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, ~0ull, 16), 0);
	d = dev_heap_malloc(&m.heap, 192, 16);        /* the rest: 64..255 */
	ck_assert_uint_eq(d, DEV_HEAP_BASE + 64);
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, 1, 16), 0);       /* full: NULL */
	ck_assert_int_eq(dev_heap_free(&m.heap, b), 0);
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, 33, 16), 0);      /* the gap holds 32 */
	e = dev_heap_malloc(&m.heap, 20, 16);         /* 32 bytes: the first gap that holds them */
	ck_assert_uint_eq(e, DEV_HEAP_BASE + 16);
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, 1, 16), 0);       /* full again */
	ck_assert_int_eq(dev_heap_free(&m.heap, d), 0);
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, 193, 16), 0);     /* 208 bytes: 192 are free */
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, 190, 16), DEV_HEAP_BASE + 64);   /* the end again */
	dev_mem_free(&m);
}
END_TEST

START_TEST(test_aligned)
{
	Mem m;

	dev_mem_init(&m);
	ck_assert_int_eq(dev_heap_place(&m, 1024), 0);
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, 8, 1), DEV_HEAP_BASE);        /* 16 at least */
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, 8, 256), DEV_HEAP_BASE + 256);
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, 8, 8), DEV_HEAP_BASE + 272);
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, 8, 128), DEV_HEAP_BASE + 384);
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, 600, 16), DEV_HEAP_BASE + 400);
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, 200, 32), DEV_HEAP_BASE + 32); /* in the gap */
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, 8, 0), 0);      /* not a power of two: NULL */
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, 8, 48), 0);
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, 8, 2048), 0);   /* more than the heap */
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, 8, 512), 0);    /* 512 and 1024 are taken */
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, 8, 64), DEV_HEAP_BASE + 320);
	dev_mem_free(&m);
}
END_TEST

START_TEST(test_free_errors)
{
	Mem m;
	uint64_t a;

	dev_mem_init(&m);
	ck_assert_int_eq(dev_heap_place(&m, 1024), 0);
	a = dev_heap_malloc(&m.heap, 64, 16);
	ck_assert_uint_ne(a, 0);
	ck_assert_int_eq(dev_heap_free(&m.heap, 0), 0);          /* free(NULL) does nothing */
	ck_assert_int_eq(dev_heap_free(&m.heap, a + 16), -1);    /* inside the block */
	ck_assert_int_eq(dev_heap_free(&m.heap, a - 16), -1);    /* outside the heap */
	ck_assert_int_eq(dev_heap_free(&m.heap, a + 4096), -1);
	ck_assert_int_eq(dev_heap_free(&m.heap, a), 0);
	ck_assert_int_eq(dev_heap_free(&m.heap, a), -1);         /* freed already */
	ck_assert_uint_eq(dev_heap_malloc(&m.heap, 64, 16), a);      /* the same place again */
	dev_mem_free(&m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("heap");
	TCase *tc = tcase_create("heap");

	tcase_add_test(tc, test_place);
	tcase_add_test(tc, test_fit);
	tcase_add_test(tc, test_aligned);
	tcase_add_test(tc, test_free_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ck_run(suite());
}
