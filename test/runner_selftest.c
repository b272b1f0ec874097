/* SPDX-License-Identifier: 0BSD */
/*
 * test/runner_selftest.c: the test runner must be able to fail. Each test of suite `fails` is
 * meant to fail, and test/meson.build runs each one alone (--filter) as a test that must fail;
 * those of suite `passes` must pass. Built for both runners: against Criterion it shows that our
 * runner (test/runner.h, the TSan build's) reports the same outcomes as Criterion does.
 */
#include "rcu.h"
#include "harness.h"

/* ---- must pass ------------------------------------------------------------------------------- */

Test(passes, assertions_that_hold)
{
	int three = 3;
	unsigned long big = 1ul << 40;
	const char *s = "x";
	cr_assert(three == 3);
	cr_assert(three == 3, "with a message %d", three);
	cr_assert_not(three == 4);
	cr_assert_eq(three, 3);
	cr_assert_eq(big, 1ul << 40, "comparing %s", "unsigned long");
	cr_assert_neq(three, 4);
	cr_assert_lt(three, 4);
	cr_assert_leq(three, 3);
	cr_assert_gt(big, 3u);
	cr_assert_geq(three, 3);
	cr_assert_not_null(s);
	cr_assert_null(NULL);
	cr_expect_eq(three, 3);
	cr_expect_gt(three, 2, "message %s", "too");
	cr_log_info("a log line with an argument: %d", three);
}

static _Atomic int evaluated;

static int count_evaluation(void)
{
	return atomic_fetch_add(&evaluated, 1) + 1;
}

Test(passes, operands_are_evaluated_once)
{
	cr_assert_eq(count_evaluation(), 1);
	cr_assert(count_evaluation() == 2);
	cr_assert_eq(atomic_load(&evaluated), 2);
}

Test(passes, skipped)
{
	cr_skip_test("a skipped test counts as neither passed nor failed");
	cr_assert(false, "not reached");
}

/* Every test starts in a fresh process: what the last test wrote is not here. */
static int written_by_a_test;

Test(passes, fresh_process_a)
{
	cr_assert_eq(written_by_a_test, 0);
	written_by_a_test = 1;
}

Test(passes, fresh_process_b)
{
	cr_assert_eq(written_by_a_test, 0);
	written_by_a_test = 1;
}

#if defined(RCU_TEST_OWN_RUNNER)
/* The failure line names the operands as the test wrote them, macros unexpanded. */
Test(passes, operands_are_reported_as_written)
{
	char buf[64];
	rt_operand("WIFEXITED(status) && x == 0, \"a, b\", f(1, 2)", 0, buf, sizeof buf);
	cr_assert(strcmp(buf, "WIFEXITED(status) && x == 0") == 0, "got \"%s\"", buf);
	rt_operand("WIFEXITED(status) && x == 0, \"a, b\", f(1, 2)", 1, buf, sizeof buf);
	cr_assert(strcmp(buf, "\"a, b\"") == 0, "got \"%s\"", buf);
	rt_operand("a, NULL", 1, buf, sizeof buf);
	cr_assert(strcmp(buf, "NULL") == 0, "got \"%s\"", buf);
	rt_operand("'(', b", 1, buf, sizeof buf);
	cr_assert(strcmp(buf, "b") == 0, "got \"%s\"", buf);
}
#endif

/* ---- must fail ------------------------------------------------------------------------------- */

Test(fails, assert)
{
	int three = 3;
	cr_assert_eq(three, 4, "three is %d", three);
}

Test(fails, expect_then_goes_on)
{
	cr_expect(false, "a failed cr_expect fails the test");
	cr_assert(true);
}

Test(fails, crash)
{
	abort();
}

Test(fails, timeout, .timeout = 1)
{
	sleep(30);
}

#if defined(RCU_TEST_OWN_RUNNER)
/* Our runner fails a test from any thread (Criterion leaves that undefined). */
static void *assert_in_a_thread(void *arg)
{
	(void)arg;
	cr_assert(false, "failed in another thread");
	return NULL;
}

Test(fails, assert_in_another_thread)
{
	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, assert_in_a_thread, NULL), 0);
	pthread_join(t, NULL);
}
#endif

#if defined(TEST_TSAN)
/* ThreadSanitizer's report fails the test even though every assertion held. */
static int racy_counter;

static void *race(void *arg)
{
	(void)arg;
	for (int i = 0; i < 1000; i++)
		racy_counter++;
	return NULL;
}

Test(fails, data_race)
{
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, race, NULL), 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	cr_assert_gt(racy_counter, 0);
}
#endif
