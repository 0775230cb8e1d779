/* test_mem.c - global allocations (device/mem.c): host copies small and large (a large one
 * is a piece of a mapping of huge pages, a MemChunk, in the plain build; one larger than a
 * chunk opens a chunk of its own and the next piece a new one) read as zeros, lie apart from
 * one another on the host as on the device, and each holds what was written to it; an
 * allocation's last byte is found and the byte after it is not (the guard gap). */
#include <check.h>
#include <string.h>
#include "device/device.h"
#include "tests/unit/helper_check.h"
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(TEST_ASAN)
#define TEST_ASAN 1
#endif
#ifdef TEST_ASAN
#include <sanitizer/asan_interface.h>
#endif
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

/* memcheck's answer for the byte at p: 1 addressable, 3 not (which it reports as no error) */
static int vbits(const uint8_t *p)
{
#ifdef VALGRIND_GET_VBITS
	unsigned char v;
	return (int)VALGRIND_GET_VBITS(p, &v, 1);
#else
	(void)p;
	return 0;
#endif
}

START_TEST(test_copies)
{
	static const uint64_t sizes[] = {
		100, 64 << 10, (64 << 10) - 1, (64 << 10) + 1, 1 << 20, 17 << 20, 64 << 10,
		3 << 20, 15 << 20, 300 << 10,
	};
	enum { N = sizeof sizes / sizeof sizes[0] };
	uint64_t addr[N];
	uint8_t *p[N];
	Mem m;

	dev_mem_init(&m);
	for (int i = 0; i < N; i++) {
		addr[i] = dev_mem_alloc(&m, sizes[i], 0, "buffer");
		ck_assert_uint_ne(addr[i], 0);
		p[i] = dev_mem_global(&m, addr[i], sizes[i]);
		ck_assert_ptr_nonnull(p[i]);
		ck_assert_ptr_eq(dev_mem_global(&m, addr[i] + sizes[i] - 1, 1), p[i] + sizes[i] - 1);
		ck_assert_ptr_null(dev_mem_global(&m, addr[i] + sizes[i], 1));
		ck_assert_ptr_null(dev_mem_global(&m, addr[i], sizes[i] + 1));
	}
	/* zeros (the first and last words, and a page in the middle, of each) */
	for (int i = 0; i < N; i++) {
		uint64_t mid = sizes[i] / 2 & ~(uint64_t)4095;
		uint64_t span = sizes[i] - mid < 4096 ? sizes[i] - mid : 4096;
		for (uint64_t j = 0; j < 8 && j < sizes[i]; j++) {
			ck_assert_uint_eq(p[i][j], 0);
			ck_assert_uint_eq(p[i][sizes[i] - 1 - j], 0);
		}
		for (uint64_t j = 0; j < span; j++)
			ck_assert_uint_eq(p[i][mid + j], 0);
	}
	/* apart on the host: each copy filled with its own byte keeps it, ends included */
	for (int i = 0; i < N; i++)
		memset(p[i], 1 + i, sizes[i]);
	for (int i = 0; i < N; i++) {
		ck_assert_uint_eq(p[i][0], 1 + i);
		ck_assert_uint_eq(p[i][sizes[i] - 1], 1 + i);
		for (int j = 0; j < N; j++)
			ck_assert(i == j || p[i] + sizes[i] <= p[j] || p[j] + sizes[j] <= p[i]);
	}
	dev_mem_free(&m);
	ck_assert_int_eq(m.n, 0);
	ck_assert_int_eq(m.nchunk, 0);
}
END_TEST

/* allocations after a Mem was freed and set up again start from zeros again */
START_TEST(test_again)
{
	Mem m;
	uint8_t *p;
	uint64_t a;

	for (int round = 0; round < 2; round++) {
		dev_mem_init(&m);
		ck_assert_uint_ne(a = dev_mem_alloc(&m, 1 << 20, 0, "buffer"), 0);
		p = dev_mem_global(&m, a, 1 << 20);
		ck_assert_ptr_nonnull(p);
		for (int j = 0; j < 1 << 20; j += 4096)
			ck_assert_uint_eq(p[j], 0);
		memset(p, 0xab, 1 << 20);
		dev_mem_free(&m);
	}
}
END_TEST

/* a large copy is a piece of a chunk in every build, and where a checker watches host bounds
 * (ASan; memcheck when the test runs under it) the bytes just before and just after each
 * piece are unaddressable to it, sizes that fill whole alignment units included, while the
 * piece's own first and last bytes are not */
START_TEST(test_checked_bounds)
{
	static const uint64_t sizes[] = { 100, 64 << 10, (64 << 10) + 1, 1 << 20, 300 << 10 };
	enum { N = sizeof sizes / sizeof sizes[0] };
	Mem m;

	dev_mem_init(&m);
	for (int i = 0; i < N; i++)
		ck_assert_uint_ne(dev_mem_alloc(&m, sizes[i], 0, "buffer"), 0);
	for (int i = 0; i < N; i++) {
		const MemAlloc *a = &m.a[i];
		uint8_t *p = a->bytes;
		ck_assert_int_eq(a->inchunk, sizes[i] >= 64 << 10);
		if (!a->inchunk)
			continue;
#ifdef TEST_ASAN
		ck_assert(!__asan_address_is_poisoned(p));
		ck_assert(!__asan_address_is_poisoned(p + sizes[i] - 1));
		ck_assert(__asan_address_is_poisoned(p + sizes[i]));
		ck_assert(__asan_address_is_poisoned(p - 1));
#endif
		if (RUNNING_ON_VALGRIND) {
			ck_assert_int_eq(vbits(p), 1);
			ck_assert_int_eq(vbits(p + sizes[i] - 1), 1);
			ck_assert_int_eq(vbits(p + sizes[i]), 3);
			ck_assert_int_eq(vbits(p - 1), 3);
		}
		(void)p;
	}
	dev_mem_free(&m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("mem");
	TCase *tc = tcase_create("mem");

	tcase_add_test(tc, test_copies);
	tcase_add_test(tc, test_again);
	tcase_add_test(tc, test_checked_bounds);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ck_run(suite());
}
