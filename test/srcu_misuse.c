/* SPDX-License-Identifier: 0BSD */
/*
 * test/srcu_misuse.c: misuse of SRCU domains under RCU_DEBUG (test/meson.build builds this file
 * with -DRCU_DEBUG=1; it defines RCU_DEBUG_DEREFERENCE itself). Every misuse aborts with one line
 * "rcu.h: <call> in thread <tid> "<name>": <rule>"; each death test runs the misuse in a forked
 * child and checks the call, the thread's name and words of the rule (as test/misuse.c does).
 * The last tests run the correct counterparts in-process, so a check that always fires fails.
 */
#define RCU_DEBUG_DEREFERENCE 1
#include "rcu.h"
#include "harness.h"

#include <sys/prctl.h>
#include <sys/resource.h>

#define CHILD_NAME "srcu-misuse"

#if !defined(RCU_DEBUG)
#error "test/srcu_misuse.c needs RCU_DEBUG (see test/meson.build)"
#endif

DEFINE_STATIC_SRCU(dom_a);
DEFINE_STATIC_SRCU(dom_b);

static void child_main(void *arg)
{
	void (*misuse)(void) = (void (*)(void))(uintptr_t)arg;
	struct rlimit none = { 0, 0 };
	setrlimit(RLIMIT_CORE, &none);
	alarm(20); /* SIGALRM, not SIGABRT: a hang reads as a failure */
	prctl(PR_SET_NAME, CHILD_NAME, 0, 0, 0);
	misuse();
}

static void expect_misuse(void (*misuse)(void), const char *call, const char *thread, const char *rule)
{
	char who[128], name[64];
	snprintf(who, sizeof who, "rcu.h: %s in thread ", call);
	snprintf(name, sizeof name, "\"%s\": ", thread);
	void *arg = (void *)(uintptr_t)misuse;
	test_expect_abort(child_main, arg, who);
	test_expect_abort(child_main, arg, name);
	test_expect_abort(child_main, arg, rule);
}

#define RULE_SAME_DOMAIN "called inside a read-side critical section of the same SRCU domain"

static void noop_cb(struct rcu_head *h)
{
	(void)h;
}

/* ---- grace periods and barriers inside a section of their own domain ------------------------- */

static void sync_in_section(void)
{
	srcu_read_lock(&dom_a);
	synchronize_srcu(&dom_a);
}

Test(srcu_misuse, synchronize_srcu_inside_a_section_of_its_domain)
{
	expect_misuse(sync_in_section, "synchronize_srcu()", CHILD_NAME, RULE_SAME_DOMAIN);
}

static void sync_in_outer_section(void)
{
	int b = srcu_read_lock(&dom_b);
	int outer = srcu_read_lock(&dom_a);
	int inner = srcu_read_lock(&dom_a);
	srcu_read_unlock(&dom_a, inner); /* still inside the outer section of A */
	synchronize_srcu(&dom_a);
	(void)b;
	(void)outer;
}

Test(srcu_misuse, synchronize_srcu_inside_the_outer_section_of_a_nest)
{
	expect_misuse(sync_in_outer_section, "synchronize_srcu()", CHILD_NAME, RULE_SAME_DOMAIN);
}

static void expedited_in_section(void)
{
	srcu_read_lock(&dom_a);
	synchronize_srcu_expedited(&dom_a);
}

Test(srcu_misuse, synchronize_srcu_expedited_inside_a_section_of_its_domain)
{
	expect_misuse(expedited_in_section, "synchronize_srcu()", CHILD_NAME, RULE_SAME_DOMAIN);
}

static void barrier_in_section(void)
{
	srcu_read_lock(&dom_a);
	srcu_barrier(&dom_a);
}

Test(srcu_misuse, srcu_barrier_inside_a_section_of_its_domain)
{
	expect_misuse(barrier_in_section, "srcu_barrier()", CHILD_NAME, RULE_SAME_DOMAIN);
}

static void barrier_cb(struct rcu_head *h)
{
	(void)h;
	srcu_barrier(&dom_b); /* any domain: the one worker would wait for itself */
}

static void barrier_in_callback(void)
{
	static struct rcu_head h;
	call_srcu(&dom_a, &h, barrier_cb);
	srcu_barrier(&dom_a); /* the callback aborts the process on the worker meanwhile */
}

Test(srcu_misuse, srcu_barrier_inside_an_srcu_callback)
{
	expect_misuse(barrier_in_callback, "srcu_barrier()", "srcu-callbacks", "called from an SRCU callback");
}

#if defined(RCU_FLAVOUR_QSBR)
/*
 * QSBR: synchronize_srcu() and srcu_barrier() are quiescent states of the default domain (an
 * online caller is offline while it waits, so that it does not hold up default grace periods
 * behind a domain's sleeping readers). Inside rcu_read_lock() that would end the section
 * silently (test/srcu_domains.c shows the other flavours keep it): RCU_DEBUG must say so, as it
 * does for rcu_quiescent_state() and rcu_thread_offline().
 */
static void qsbr_sync_srcu_in_rcu_section(void)
{
	rcu_register_thread();
	rcu_read_lock();
	synchronize_srcu(&dom_a);
}

Test(srcu_misuse, qsbr_synchronize_srcu_inside_rcu_read_lock)
{
	expect_misuse(qsbr_sync_srcu_in_rcu_section, "synchronize_srcu()", CHILD_NAME, "inside rcu_read_lock()");
}

static void qsbr_srcu_barrier_in_rcu_section(void)
{
	rcu_register_thread();
	rcu_read_lock();
	srcu_barrier(&dom_a);
}

Test(srcu_misuse, qsbr_srcu_barrier_inside_rcu_read_lock)
{
	expect_misuse(qsbr_srcu_barrier_in_rcu_section, "srcu_barrier()", CHILD_NAME, "inside rcu_read_lock()");
}
#endif

/* ---- unlocks that match no lock ---------------------------------------------------------------- */

#define RULE_UNLOCK "no matching srcu_read_lock()"

static void unlock_without_lock(void)
{
	srcu_read_unlock(&dom_a, 0);
}

Test(srcu_misuse, srcu_read_unlock_without_lock)
{
	expect_misuse(unlock_without_lock, "srcu_read_unlock()", CHILD_NAME, RULE_UNLOCK);
}

static void unlock_twice(void)
{
	int i = srcu_read_lock(&dom_a);
	srcu_read_unlock(&dom_a, i);
	srcu_read_unlock(&dom_a, i);
}

Test(srcu_misuse, srcu_read_unlock_once_more_than_locked)
{
	expect_misuse(unlock_twice, "srcu_read_unlock()", CHILD_NAME, RULE_UNLOCK);
}

static void unlock_with_other_domains_index(void)
{
	int a = srcu_read_lock(&dom_a);
	int b = srcu_read_lock(&dom_b);
	(void)a;
	srcu_read_unlock(&dom_a, b);
}

Test(srcu_misuse, srcu_read_unlock_with_another_domains_index)
{
	expect_misuse(unlock_with_other_domains_index, "srcu_read_unlock()", CHILD_NAME, RULE_UNLOCK);
}

static void unlock_wrong_domain(void)
{
	int a = srcu_read_lock(&dom_a);
	srcu_read_unlock(&dom_b, a);
}

Test(srcu_misuse, srcu_read_unlock_of_another_domain)
{
	expect_misuse(unlock_wrong_domain, "srcu_read_unlock()", CHILD_NAME, RULE_UNLOCK);
}

static volatile int out_of_range = RCU_SRCU_NESTING; /* not a constant: see the report's note on die() */

static void unlock_bad_index(void)
{
	srcu_read_lock(&dom_a);
	srcu_read_unlock(&dom_a, out_of_range);
}

Test(srcu_misuse, srcu_read_unlock_with_an_index_out_of_range)
{
	expect_misuse(unlock_bad_index, "srcu_read_unlock()", CHILD_NAME, RULE_UNLOCK);
}

/* Locked in one thread, unlocked in another (named, so that the message must name it). */
static int handed_idx;

static void *unlock_elsewhere(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "srcu-unlocker", 0, 0, 0);
	srcu_read_unlock(&dom_a, handed_idx);
	return NULL;
}

static void unlock_in_another_thread(void)
{
	handed_idx = srcu_read_lock(&dom_a);
	pthread_t t;
	if (pthread_create(&t, NULL, unlock_elsewhere, NULL) != 0)
		_exit(3);
	pthread_join(t, NULL);
}

Test(srcu_misuse, srcu_read_unlock_in_another_thread)
{
	expect_misuse(unlock_in_another_thread, "srcu_read_unlock()", "srcu-unlocker", RULE_UNLOCK);
}

/* ---- thread exit inside a section -------------------------------------------------------------- */

static void *exit_inside(void *arg)
{
	prctl(PR_SET_NAME, "srcu-exiter", 0, 0, 0);
	if (arg)
		rcu_register_thread();
	srcu_read_lock(&dom_b);
	srcu_read_lock(&dom_a);
	return NULL; /* the thread-exit handler finds the sections open */
}

static void thread_exit_in_section(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, exit_inside, NULL) != 0)
		_exit(3);
	pthread_join(t, NULL);
}

static void registered_thread_exit_in_section(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, exit_inside, (void *)1) != 0)
		_exit(3);
	pthread_join(t, NULL);
}

Test(srcu_misuse, thread_exit_inside_a_section)
{
	expect_misuse(thread_exit_in_section, "thread exit", "srcu-exiter", "srcu_read_lock()");
	expect_misuse(registered_thread_exit_in_section, "thread exit", "srcu-exiter", "srcu_read_lock()");
}

/* rcu_unregister_thread() inside an SRCU section is fine: SRCU does not need registration. */

/* ---- retiring a domain still in use --------------------------------------------------------- */

static _Atomic int reader_in;

static void *reader_forever(void *arg)
{
	(void)arg;
	srcu_read_lock(&dom_a);
	atomic_store(&reader_in, 1);
	for (;;)
		pause();
	return NULL;
}

static void cleanup_with_reader(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, reader_forever, NULL) != 0)
		_exit(3);
	while (!atomic_load(&reader_in))
		sched_yield();
	cleanup_srcu_struct(&dom_a);
}

Test(srcu_misuse, cleanup_srcu_struct_with_a_reader_inside)
{
	expect_misuse(cleanup_with_reader, "cleanup_srcu_struct()", CHILD_NAME,
		"a thread is still inside a read-side critical section of the domain");
}

static void cleanup_in_own_section(void)
{
	srcu_read_lock(&dom_a);
	cleanup_srcu_struct(&dom_a);
}

Test(srcu_misuse, cleanup_srcu_struct_inside_a_section_of_the_domain)
{
	expect_misuse(cleanup_in_own_section, "cleanup_srcu_struct()", CHILD_NAME, "the domain it retires");
}

/* Callbacks pending and nobody inside: the worker is kept busy in B's first callback. */
static _Atomic int sleepy_in;

static void sleepy_cb(struct rcu_head *h)
{
	(void)h;
	atomic_store(&sleepy_in, 1);
	sleep(10);
}

static void cleanup_with_callbacks(void)
{
	static struct rcu_head h1, h2;
	call_srcu(&dom_b, &h1, sleepy_cb);
	while (!atomic_load(&sleepy_in))
		sched_yield();
	call_srcu(&dom_b, &h2, noop_cb);
	cleanup_srcu_struct(&dom_b);
}

Test(srcu_misuse, cleanup_srcu_struct_with_callbacks_pending)
{
	expect_misuse(cleanup_with_callbacks, "cleanup_srcu_struct()", CHILD_NAME,
		"callbacks of the domain are still pending: call srcu_barrier() first");
}

/* ---- callbacks -------------------------------------------------------------------------------- */

static void call_srcu_twice(void)
{
	static struct rcu_head h;
	srcu_read_lock(&dom_a); /* keeps the first callback from starting */
	call_srcu(&dom_a, &h, noop_cb);
	call_srcu(&dom_a, &h, noop_cb);
}

Test(srcu_misuse, call_srcu_of_a_head_already_queued)
{
	expect_misuse(call_srcu_twice, "call_srcu()", CHILD_NAME, "already queued");
}

static void call_srcu_of_a_call_rcu_head(void)
{
	static struct rcu_head h;
	rcu_register_thread();
	rcu_read_lock(); /* keeps the call_rcu() callback from starting (QSBR: the online thread) */
	call_rcu(&h, noop_cb);
	call_srcu(&dom_a, &h, noop_cb);
}

Test(srcu_misuse, call_srcu_of_a_head_queued_by_call_rcu)
{
	expect_misuse(call_srcu_of_a_call_rcu_head, "call_srcu()", CHILD_NAME, "already queued");
}

static void (*volatile null_func)(struct rcu_head *);

static void call_srcu_null(void)
{
	static struct rcu_head h;
	call_srcu(&dom_a, &h, null_func); /* not a constant: the run-time check */
}

Test(srcu_misuse, call_srcu_with_a_null_callback)
{
	expect_misuse(call_srcu_null, "call_srcu()", CHILD_NAME, "the callback is NULL");
}

/* ---- dereferences outside their domain's section (RCU_DEBUG_DEREFERENCE) -------------------- */

static int target = 42;
static int *_Atomic shared = RCU_INITIALIZER(&target);

static void deref_outside(void)
{
	volatile int v = *srcu_dereference(shared, &dom_a);
	(void)v;
}

static void deref_in_other_domain(void)
{
	srcu_read_lock(&dom_b);
	rcu_register_thread();
	rcu_read_lock(); /* a default section does not protect A's pointers either */
	volatile int v = *srcu_dereference(shared, &dom_a);
	(void)v;
}

Test(srcu_misuse, srcu_dereference_outside_a_section_of_its_domain)
{
	expect_misuse(deref_outside, "srcu_dereference()", CHILD_NAME, "SRCU domain");
	expect_misuse(deref_in_other_domain, "srcu_dereference()", CHILD_NAME, "SRCU domain");
}

static void deref_check_false(void)
{
	volatile int v = *srcu_dereference_check(shared, &dom_a, 0);
	(void)v;
}

Test(srcu_misuse, srcu_dereference_check_outside_and_condition_false)
{
	expect_misuse(deref_check_false, "srcu_dereference_check()", CHILD_NAME, "condition is false");
}

/* ---- too many domains at once ------------------------------------------------------------------- */

static void too_many(void)
{
	static struct srcu_struct d[RCU_SRCU_NESTING + 1];
	for (int k = 0; k <= RCU_SRCU_NESTING; k++) {
		init_srcu_struct(&d[k]);
		srcu_read_lock(&d[k]);
	}
}

Test(srcu_misuse, more_domains_at_once_than_rcu_srcu_nesting)
{
	expect_misuse(too_many, "srcu_read_lock()", CHILD_NAME, "RCU_SRCU_NESTING");
}

/* ---- the correct counterparts do not abort ----------------------------------------------------- */

static _Atomic int cb_runs;

static void counting_cb(struct rcu_head *h)
{
	(void)h;
	atomic_fetch_add(&cb_runs, 1);
}

/* An SRCU callback may wait for a grace period (of its own domain or another). */
static void sync_in_srcu_cb(struct rcu_head *h)
{
	(void)h;
	synchronize_srcu(&dom_a);
	synchronize_srcu(&dom_b);
	atomic_fetch_add(&cb_runs, 1);
}

/* A default-domain callback may wait for an SRCU domain's callbacks. */
static void srcu_barrier_in_rcu_cb(struct rcu_head *h)
{
	(void)h;
	srcu_barrier(&dom_b);
	atomic_fetch_add(&cb_runs, 1);
}

static void *exit_outside(void *arg)
{
	(void)arg;
	int a = srcu_read_lock(&dom_a);
	int b = srcu_read_lock(&dom_b);
	srcu_read_unlock(&dom_a, a);
	srcu_read_unlock(&dom_b, b);
	return NULL; /* outside every section: no abort */
}

Test(srcu_misuse, correct_use_does_not_abort)
{
	/* Grace periods and barriers inside sections of other domains, out-of-order unlocks. */
	int b = srcu_read_lock(&dom_b);
	cr_assert_eq(*srcu_dereference(shared, &dom_b), 42);
	cr_assert_eq(*srcu_dereference_check(shared, &dom_a, 1), 42);
	synchronize_srcu(&dom_a);
	static struct rcu_head h1, h2, h3, h4;
	call_srcu(&dom_a, &h1, counting_cb);
	srcu_barrier(&dom_a);
	int a = srcu_read_lock(&dom_a);
	call_srcu(&dom_a, &h2, counting_cb); /* inside its own domain's section: allowed */
	srcu_read_unlock(&dom_b, b);
	cr_assert_eq(*srcu_dereference(shared, &dom_a), 42);
	srcu_read_unlock(&dom_a, a);
	srcu_barrier(&dom_a);
	cr_assert_eq(atomic_load(&cb_runs), 2);

	call_srcu(&dom_a, &h3, sync_in_srcu_cb);
	srcu_barrier(&dom_a);
	cr_assert_eq(atomic_load(&cb_runs), 3);
	call_rcu(&h4, srcu_barrier_in_rcu_cb);
	rcu_barrier();
	cr_assert_eq(atomic_load(&cb_runs), 4);
	call_srcu(&dom_a, &h1, counting_cb); /* a head may be queued again once its callback began */
	srcu_barrier(&dom_a);
	cr_assert_eq(atomic_load(&cb_runs), 5);

	/* Registered threads may read, unregister inside an SRCU section, and synchronize_rcu() there. */
	rcu_register_thread();
	a = srcu_read_lock(&dom_a);
	rcu_read_lock();
	rcu_read_unlock();
	rcu_quiescent_state();
	synchronize_rcu();
	rcu_unregister_thread();
	srcu_read_unlock(&dom_a, a);

	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, exit_outside, NULL), 0);
	pthread_join(t, NULL);

	/* Retire after the barrier, with nobody inside; then use it again (set up on first use). */
	srcu_barrier(&dom_b);
	cleanup_srcu_struct(&dom_b);
	b = srcu_read_lock(&dom_b);
	srcu_read_unlock(&dom_b, b);
	synchronize_srcu(&dom_b);
	cleanup_srcu_struct(&dom_b);
	cleanup_srcu_struct(&dom_b); /* a retired domain: nothing to do */

	/* RCU_SRCU_NESTING domains at once is allowed. */
	static struct srcu_struct d[RCU_SRCU_NESTING];
	int idx[RCU_SRCU_NESTING];
	for (int k = 0; k < RCU_SRCU_NESTING; k++) {
		init_srcu_struct(&d[k]);
		idx[k] = srcu_read_lock(&d[k]);
	}
	for (int k = 0; k < RCU_SRCU_NESTING; k++)
		srcu_read_unlock(&d[k], idx[k]);
	for (int k = 0; k < RCU_SRCU_NESTING; k++)
		cleanup_srcu_struct(&d[k]);
}
