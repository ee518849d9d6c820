/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny TAP harness for pulse's C unit tests. Each test is a function
 * `test_<module>__<case>(void)` registered in a table; a failed assertion
 * prints both values and fails only the current test. The runner
 * (tests/run-tests.sh) counts the `ok`/`not ok` lines.
 */
#ifndef PULSE_TEST_H
#define PULSE_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test__failed;

#define TEST_FAIL(fmt, ...)                                                   \
	do {                                                                  \
		printf("#   %s:%d: " fmt "\n", __FILE__, __LINE__, ##__VA_ARGS__); \
		test__failed = 1;                                             \
		return;                                                       \
	} while (0)

#define ASSERT_TRUE(c)                                                        \
	do {                                                                  \
		if (!(c))                                                     \
			TEST_FAIL("expected true: %s", #c);                   \
	} while (0)

#define ASSERT_EQ(a, b)                                                       \
	do {                                                                  \
		long long __a = (long long)(a), __b = (long long)(b);         \
		if (__a != __b)                                               \
			TEST_FAIL("%s == %s: %lld != %lld", #a, #b, __a, __b); \
	} while (0)

#define ASSERT_STREQ(a, b)                                                    \
	do {                                                                  \
		const char *__a = (a), *__b = (b);                            \
		if (!__a || !__b || strcmp(__a, __b))                         \
			TEST_FAIL("%s == %s: \"%s\" != \"%s\"", #a, #b,       \
				  __a ? __a : "(null)", __b ? __b : "(null)"); \
	} while (0)

#define ASSERT_MEMEQ(a, b, n)                                                 \
	do {                                                                  \
		if (memcmp((a), (b), (n)))                                    \
			TEST_FAIL("%s and %s differ", #a, #b);                \
	} while (0)

struct test_case {
	const char *name;
	void (*fn)(void);
};

#define TEST(fn) { #fn, fn }

/* Set by a test to skip itself with a reason. */
static const char *test__skip;

static inline int test__run_all(const struct test_case *cases, size_t n)
{
	int failures = 0;

	printf("1..%zu\n", n);
	for (size_t i = 0; i < n; i++) {
		test__failed = 0;
		test__skip = NULL;
		fflush(stdout);
		cases[i].fn();
		if (test__skip)
			printf("ok %zu - %s # SKIP %s\n", i + 1, cases[i].name, test__skip);
		else
			printf("%s %zu - %s\n", test__failed ? "not ok" : "ok", i + 1,
			       cases[i].name);
		failures += test__failed;
	}
	return failures ? 1 : 0;
}

#define TEST_MAIN(...)                                                        \
	int main(void)                                                        \
	{                                                                     \
		static const struct test_case cases[] = { __VA_ARGS__ };      \
		return test__run_all(cases, sizeof(cases) / sizeof(cases[0])); \
	}

#endif
