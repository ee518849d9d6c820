// SPDX-License-Identifier: GPL-2.0
/*
 * The id index: ids added in any order are found after sorting, a shared
 * id goes to its lowest event, unknown ids and an unsorted index find
 * nothing (the reader's routing through it: test-data).
 */
#include <errno.h>
#include <stdlib.h>
#include <pulse/id-index.h>
#include "test.h"

static void test_data_id_index__find(void)
{
	struct pulse_id_index x;

	pulse_id_index__init(&x);
	ASSERT_EQ(pulse_id_index__find(&x, 1), -ENOENT);
	/* more than the first allocation, in descending order */
	for (int i = 100; i > 0; i--)
		ASSERT_EQ(pulse_id_index__add(&x, 1000 + i, i % 7), 0);
	/* an unsorted index finds nothing rather than something wrong */
	ASSERT_EQ(pulse_id_index__find(&x, 1001), -ENOENT);
	pulse_id_index__sort(&x);
	for (int i = 1; i <= 100; i++)
		ASSERT_EQ(pulse_id_index__find(&x, 1000 + i), i % 7);
	ASSERT_EQ(pulse_id_index__find(&x, 1000), -ENOENT);
	ASSERT_EQ(pulse_id_index__find(&x, 1101), -ENOENT);
	ASSERT_EQ(pulse_id_index__find(&x, 0), -ENOENT);
	ASSERT_EQ(x.nr, 100);
	pulse_id_index__exit(&x);
	ASSERT_EQ(x.nr, 0);
	ASSERT_EQ(pulse_id_index__find(&x, 1001), -ENOENT);
	pulse_id_index__exit(&x);	/* twice is fine */
}

static void test_data_id_index__duplicates(void)
{
	struct pulse_id_index x;

	pulse_id_index__init(&x);
	ASSERT_EQ(pulse_id_index__reserve(&x, 4), 0);
	ASSERT_EQ(pulse_id_index__add(&x, 42, 3), 0);
	ASSERT_EQ(pulse_id_index__add(&x, 42, 1), 0);
	ASSERT_EQ(pulse_id_index__add(&x, 7, 0), 0);
	ASSERT_EQ(pulse_id_index__add(&x, 42, 2), 0);
	pulse_id_index__sort(&x);
	ASSERT_EQ(pulse_id_index__find(&x, 42), 1);
	ASSERT_EQ(pulse_id_index__find(&x, 7), 0);
	/* adding after a sort needs another sort */
	ASSERT_EQ(pulse_id_index__add(&x, 42, 0), 0);
	ASSERT_EQ(pulse_id_index__find(&x, 42), -ENOENT);
	pulse_id_index__sort(&x);
	ASSERT_EQ(pulse_id_index__find(&x, 42), 0);
	pulse_id_index__exit(&x);
}

TEST_MAIN(TEST(test_data_id_index__find), TEST(test_data_id_index__duplicates))
