/* SPDX-License-Identifier: 0BSD */
/*
 * test/polled.c: polled grace periods. get_state_synchronize_rcu() / start_poll_synchronize_rcu()
 * give a cookie; poll_state_synchronize_rcu() says whether a full grace period has passed since;
 * cond_synchronize_rcu() waits only if not.
 *
 * "Must pass" checks are liveness checks with a generous bound (TEST_LIVENESS_MS), never timings.
 * Worker threads never assert: they count what they saw, and the test thread asserts on the counts.
 */
#define RCU__TEST_HOOKS /* rcu__test_hook(), below: holds a grace period before its completion */
#include "rcu.h"
#include "harness.h"

#include <sched.h>
#include <stdbool.h>


/* ---- helpers ------------------------------------------------------------------------------ */

static uint64_t grace_periods(void)
{
	struct rcu_stats st;
	rcu_get_stats(&st);
	return st.grace_periods;
}

/* ---- a cookie taken while a reader holds its section ------------------------------------------ */

static struct {
	_Atomic int returned;
	uint64_t cookie;
} cond_async;

static void *sync_main(void *arg)
{
	(void)arg;
	synchronize_rcu();
	atomic_store(&cond_async.returned, 1);
	return NULL;
}

Test(polled, cookie_waits_for_pre_existing_reader, .timeout = 60)
{
	pthread_t h, s;
	cr_assert(test_holder_start(&h));
	uint64_t c1 = get_state_synchronize_rcu();
	uint64_t c2 = start_poll_synchronize_rcu();
	cr_assert(!poll_state_synchronize_rcu(c1), "a cookie passed while a pre-existing reader was inside");
	cr_assert(!poll_state_synchronize_rcu(c2), "a start_poll cookie passed while a pre-existing reader was inside");
	/* Grace periods are now wanted (start_poll, and a synchronize_rcu() caller); still held. */
	cr_assert_eq(pthread_create(&s, NULL, sync_main, NULL), 0);
	test_sleep_us(50 * 1000);
	cr_assert(!poll_state_synchronize_rcu(c1), "a cookie passed while a pre-existing reader was inside");
	cr_assert(!poll_state_synchronize_rcu(c2), "a start_poll cookie passed while a pre-existing reader was inside");
	cr_assert(!atomic_load(&cond_async.returned));
	test_holder_stop(h);
	cr_assert(test_wait_flag(&cond_async.returned, TEST_LIVENESS_MS), "synchronize_rcu() hung after the reader left");
	pthread_join(s, NULL);
	/* That synchronize_rcu() began after both cookies were taken. */
	cr_assert(poll_state_synchronize_rcu(c1), "a synchronize_rcu() begun after the cookie returned, the cookie has not passed");
	cr_assert(poll_state_synchronize_rcu(c2));
}

/* A reader that takes a cookie inside its own section can never see it pass before leaving: the
 * section was pre-existing when the cookie was taken. Checked while grace periods run non-stop. */
static struct {
	_Atomic int stop;
	_Atomic long early, checks;
} self;

static void *self_checker(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	rcu_register_thread();
	while (!atomic_load_explicit(&self.stop, memory_order_relaxed)) {
		rcu_read_lock();
		uint64_t c = (test_rand(&seed) & 1) ? get_state_synchronize_rcu() : start_poll_synchronize_rcu();
		test_widen(&seed, 3000);
		bool passed = poll_state_synchronize_rcu(c);
		rcu_read_unlock();
		rcu_quiescent_state();
		if (passed)
			atomic_fetch_add(&self.early, 1);
		atomic_fetch_add_explicit(&self.checks, 1, memory_order_relaxed);
	}
	rcu_unregister_thread();
	return NULL;
}

Test(polled, cookie_never_passes_inside_the_section_that_took_it, .timeout = 60)
{
	pthread_t r[2];
	for (int i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&r[i], NULL, self_checker, (void *)(uintptr_t)(i + 11)), 0);
	/* Run grace periods until both enough of them and enough checks have happened (bounded). */
	long rounds = test_rounds(3000), min_checks = test_rounds(2000), i = 0;
	uint64_t end = test_now_ns() + (uint64_t)TEST_LIVENESS_MS * 1000000u;
	for (; i < rounds || (atomic_load(&self.checks) < min_checks && test_now_ns() < end); i++)
		synchronize_rcu();
	rounds = i;
	atomic_store(&self.stop, 1);
	for (int i = 0; i < 2; i++)
		pthread_join(r[i], NULL);
	cr_log_info("self: %ld checks during %ld grace periods", atomic_load(&self.checks), rounds);
	cr_assert_gt(atomic_load(&self.checks), 0);
	cr_assert_eq(atomic_load(&self.early), 0,
		"poll_state_synchronize_rcu() said passed %ld times inside the section that took the cookie",
		atomic_load(&self.early));
}

/* ---- after synchronize_rcu(), every earlier cookie has passed ------------------------------------ */

static _Atomic int bg_sync_stop;

static void *bg_synchronizer(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	while (!atomic_load_explicit(&bg_sync_stop, memory_order_relaxed)) {
		synchronize_rcu();
		test_widen(&seed, 2000);
	}
	return NULL;
}

Test(polled, synchronize_passes_every_earlier_cookie, .timeout = 60)
{
	enum { COOKIES = 64 };
	pthread_t readers[2], bg;
	for (int i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&readers[i], NULL, test_busy_reader, (void *)(uintptr_t)(i + 3)), 0);
	cr_assert_eq(pthread_create(&bg, NULL, bg_synchronizer, (void *)(uintptr_t)77), 0);
	uint64_t seed = 99;
	long rounds = test_rounds(300);
	long not_passed = 0, passed_early = 0;
	for (long round = 0; round < rounds; round++) {
		uint64_t cookies[COOKIES];
		int n = 1 + (int)(test_rand(&seed) % COOKIES);
		for (int i = 0; i < n; i++) {
			cookies[i] = (test_rand(&seed) & 1) ? get_state_synchronize_rcu() : start_poll_synchronize_rcu();
			test_widen(&seed, 300);
		}
		for (int i = 0; i < n; i++)
			passed_early += poll_state_synchronize_rcu(cookies[i]);
		synchronize_rcu();
		for (int i = 0; i < n; i++)
			not_passed += !poll_state_synchronize_rcu(cookies[i]);
		/* Once passed, always passed. */
		for (int i = 0; i < n; i++)
			not_passed += !poll_state_synchronize_rcu(cookies[i]);
	}
	atomic_store(&bg_sync_stop, 1);
	pthread_join(bg, NULL);
	atomic_store(&test_busy_stop, 1);
	for (int i = 0; i < 2; i++)
		pthread_join(readers[i], NULL);
	cr_log_info("cookies: %ld rounds, %ld polls already true before the synchronize_rcu()", rounds, passed_early);
	cr_assert_eq(not_passed, 0, "%ld cookies taken before a synchronize_rcu() had not passed after it", not_passed);
}

/* ---- start_poll makes a grace period happen -------------------------------------------------------
 * Nobody calls synchronize_rcu(): the cookie passes because start_poll_synchronize_rcu() made sure
 * a grace period runs. In QSBR the polling thread is registered and reports quiescent states, and
 * is offline while it sleeps.
 */
static bool poll_until_passed(uint64_t cookie, long limit_ms)
{
	uint64_t end = test_now_ns() + (uint64_t)limit_ms * 1000000u;
	while (!poll_state_synchronize_rcu(cookie)) {
		if (test_now_ns() > end)
			return false;
		rcu_quiescent_state();
		test_block_begin();
		test_sleep_us(500);
		test_block_end();
	}
	return true;
}

Test(polled, start_poll_makes_a_grace_period_happen, .timeout = 60)
{
	pthread_t r;
	cr_assert_eq(pthread_create(&r, NULL, test_busy_reader, (void *)(uintptr_t)5), 0);
	rcu_register_thread();
	uint64_t before = grace_periods();
	for (int i = 0; i < 20; i++) {
		uint64_t c = start_poll_synchronize_rcu();
		cr_assert(poll_until_passed(c, TEST_LIVENESS_MS),
			"a start_poll_synchronize_rcu() cookie did not pass within %d ms with nobody calling "
			"synchronize_rcu()", TEST_LIVENESS_MS);
	}
	cr_assert_geq(grace_periods() - before, 1);
	rcu_unregister_thread();
	atomic_store(&test_busy_stop, 1);
	pthread_join(r, NULL);
}

Test(polled, start_poll_waits_for_reader_then_passes, .timeout = 60)
{
	pthread_t h;
	cr_assert(test_holder_start(&h));
	uint64_t c = start_poll_synchronize_rcu();
	test_sleep_us(50 * 1000);
	cr_assert(!poll_state_synchronize_rcu(c), "a start_poll cookie passed while a pre-existing reader was inside");
	test_holder_stop(h);
	/* Nobody calls synchronize_rcu(); the grace period start_poll asked for must still run. */
	cr_assert(poll_until_passed(c, TEST_LIVENESS_MS),
		"a start_poll_synchronize_rcu() cookie did not pass within %d ms after the reader left",
		TEST_LIVENESS_MS);
}

/* ---- cond_synchronize_rcu() ----------------------------------------------------------------------- */

Test(polled, cond_synchronize_on_passed_cookie_runs_no_grace_period, .timeout = 60)
{
	uint64_t c = get_state_synchronize_rcu();
	synchronize_rcu();
	cr_assert(poll_state_synchronize_rcu(c));
	uint64_t before = grace_periods();
	for (int i = 0; i < 100; i++)
		cond_synchronize_rcu(c);
	uint64_t after = grace_periods();
	cr_assert_eq(after, before, "cond_synchronize_rcu() on a passed cookie ran %llu grace periods",
		(unsigned long long)(after - before));
}

Test(polled, cond_synchronize_on_fresh_cookie_waits_for_a_grace_period, .timeout = 60)
{
	uint64_t before = grace_periods();
	uint64_t c = get_state_synchronize_rcu();
	cond_synchronize_rcu(c);
	cr_assert(poll_state_synchronize_rcu(c), "cond_synchronize_rcu() returned before its cookie passed");
	cr_assert_geq(grace_periods() - before, 1, "cond_synchronize_rcu() on a fresh cookie ran no grace period");
}

static void *cond_main(void *arg)
{
	(void)arg;
	cond_synchronize_rcu(cond_async.cookie);
	atomic_store(&cond_async.returned, 1);
	return NULL;
}

Test(polled, cond_synchronize_waits_for_pre_existing_reader, .timeout = 60)
{
	pthread_t h, t;
	cr_assert(test_holder_start(&h));
	cond_async.cookie = get_state_synchronize_rcu();
	cr_assert_eq(pthread_create(&t, NULL, cond_main, NULL), 0);
	test_sleep_us(50 * 1000);
	cr_assert(!atomic_load(&cond_async.returned),
		"cond_synchronize_rcu() returned while a reader that predates its cookie was inside");
	test_holder_stop(h);
	cr_assert(test_wait_flag(&cond_async.returned, TEST_LIVENESS_MS), "cond_synchronize_rcu() hung after the reader left");
	pthread_join(t, NULL);
	cr_assert(poll_state_synchronize_rcu(cond_async.cookie));
}

/* ---- a completion published without gp_lock, beside a holder of the lock ------------------------ */

/*
 * With no thread registered but the caller, synchronize_rcu() completes without gp_lock. A holder
 * of the lock whose grace period is over but not yet published (held here at the test point
 * RCU__TP_GP_COMPLETE) must not lower the later number that such a caller published meanwhile,
 * and that caller must have advanced gp_seq to its number: a cookie taken later, inside a
 * section, must not have passed. Checked against copies of rcu.h whose holder stores its number
 * (mutant complete-may-lower) and whose lock-free callers publish without advancing
 * (unwatched-no-advance, E1; synchronize-no-advance, E2): each fails here (docs/mutants.md).
 */
static struct {
	_Atomic int armed, held, release, found_published;
	pthread_t holder;
} hold;

void rcu__test_hook(enum rcu__test_point point)
{
	if (point == RCU__TP_GP_PUBLISHED && pthread_equal(pthread_self(), hold.holder))
		atomic_store(&hold.found_published, 1);
	if (point != RCU__TP_GP_COMPLETE || !atomic_load(&hold.armed) || !pthread_equal(pthread_self(), hold.holder))
		return;
	atomic_store(&hold.armed, 0);
	atomic_store(&hold.held, 1);
	test_block_begin();
	uint64_t end = test_now_ns() + (uint64_t)TEST_LIVENESS_MS * 1000000u;
	while (!atomic_load(&hold.release) && test_now_ns() < end)
		test_sleep_us(200);
	test_block_end();
}

/* Register, take a cookie inside a section, and say whether it passed before the section ended. */
static bool cookie_passes_inside_a_section(void)
{
	rcu_register_thread();
	rcu_read_lock();
	uint64_t inside = get_state_synchronize_rcu();
	bool passed = poll_state_synchronize_rcu(inside);
	rcu_read_unlock();
	rcu_unregister_thread();
	return passed;
}

static void *held_synchronize(void *arg)
{
	(void)arg;
	hold.holder = pthread_self();
	atomic_store(&hold.armed, 1);
	synchronize_rcu(); /* a registered thread exists: under gp_lock, held before its completion */
	return NULL;
}

Test(polled, a_completion_without_the_lock_is_never_lowered, .timeout = 60)
{
	rcu_register_thread();
#if defined(RCU_FLAVOUR_QSBR)
	rcu_thread_offline(); /* registered, so the holder takes the lock; offline, so it waits for nobody */
#endif
	pthread_t holder;
	cr_assert_eq(pthread_create(&holder, NULL, held_synchronize, NULL), 0);
	cr_assert(test_wait_flag(&hold.held, TEST_LIVENESS_MS), "the holder's grace period never reached its completion");
#if defined(RCU_FLAVOUR_QSBR)
	rcu_thread_online();
#endif
	rcu_unregister_thread(); /* nobody registered now: the grace period runs without the lock */
	uint64_t cookie = get_state_synchronize_rcu();
	cond_synchronize_rcu(cookie); /* gp_wait_for(): the compare-exchange advance, E1 */
	cr_assert(poll_state_synchronize_rcu(cookie), "a cookie taken before cond_synchronize_rcu() had not passed when it returned");
	atomic_store(&hold.release, 1);
	pthread_join(holder, NULL);
	cr_assert(atomic_load(&hold.found_published), "the lock holder did not find its number published: the test missed its case");
	cr_assert(poll_state_synchronize_rcu(cookie),
		"a cookie that had passed is pending again: the lock holder lowered the completed grace period");
	cr_assert(!cookie_passes_inside_a_section(), "a cookie taken inside a section passed inside it: E1 published without advancing");
	synchronize_rcu(); /* the snapshot that advances, E2 */
	cr_assert(!cookie_passes_inside_a_section(), "a cookie taken inside a section passed inside it: E2 published without advancing");
}
