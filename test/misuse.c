/* SPDX-License-Identifier: 0BSD */
/*
 * Misuse under RCU_DEBUG (test/meson.build builds this file with -DRCU_DEBUG=1): every misuse
 * that the API lists aborts with one line "rcu.h: <call> in thread <tid> "<name>": <rule>".
 * Each death test runs the misuse in a forked child and checks the three parts of the line: the
 * call, the thread's name and words of the rule. The last tests run the correct counterparts of
 * every misuse in-process, so a check that fires always would fail here.
 */
#include "rcu.h"
#include "harness.h"

#include <sys/prctl.h>
#include <sys/resource.h>

#define CHILD_NAME "rcu-misuse"

#if !defined(RCU_DEBUG)
#error "test/misuse.c needs RCU_DEBUG (see test/meson.build)"
#endif

/* The child's preamble: no core file, a deadline (a missed check may deadlock), a known name. */
static void child_main(void *arg)
{
	void (*misuse)(void) = (void (*)(void))(uintptr_t)arg;
	struct rlimit none = { 0, 0 };
	setrlimit(RLIMIT_CORE, &none);
	alarm(20); /* SIGALRM, not SIGABRT: a hang reads as a failure, not a pass */
	prctl(PR_SET_NAME, CHILD_NAME, 0, 0, 0);
	misuse();
}

/* Run misuse() in a child; it must abort naming `call`, the thread `thread`, and `rule`. */
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

#define RULE_DEADLOCK "called inside a read-side critical section"

/* ---- grace periods and barriers inside a section -------------------------------------------- */

static void synchronize_in_section(void)
{
	rcu_register_thread();
	rcu_read_lock();
	synchronize_rcu();
}

Test(misuse, synchronize_rcu_inside_a_section)
{
	expect_misuse(synchronize_in_section, "synchronize_rcu()", CHILD_NAME, RULE_DEADLOCK);
}

static void synchronize_in_nested_section(void)
{
	rcu_register_thread();
	rcu_read_lock();
	rcu_read_lock();
	rcu_read_unlock(); /* still inside the outer section */
	synchronize_rcu();
}

Test(misuse, synchronize_rcu_inside_the_outer_section_of_a_nest)
{
	expect_misuse(synchronize_in_nested_section, "synchronize_rcu()", CHILD_NAME, RULE_DEADLOCK);
}

static void barrier_in_section(void)
{
	rcu_register_thread();
	rcu_read_lock();
	rcu_barrier();
}

Test(misuse, rcu_barrier_inside_a_section)
{
	expect_misuse(barrier_in_section, "rcu_barrier()", CHILD_NAME, RULE_DEADLOCK);
}

static void cond_synchronize_in_section(void)
{
	rcu_register_thread();
	/* No grace period runs in the child, so this cookie has not passed: the call would wait. */
	uint64_t cookie = get_state_synchronize_rcu();
	rcu_read_lock();
	cond_synchronize_rcu(cookie);
}

Test(misuse, cond_synchronize_rcu_inside_a_section)
{
	expect_misuse(cond_synchronize_in_section, "cond_synchronize_rcu()", CHILD_NAME, RULE_DEADLOCK);
}

static void barrier_cb(struct rcu_head *head)
{
	(void)head;
	rcu_barrier(); /* waits for its own batch */
}

static void barrier_in_callback(void)
{
	static struct rcu_head head;
	rcu_register_thread();
	call_rcu(&head, barrier_cb);
	rcu_barrier(); /* the callback aborts the process on the worker thread meanwhile */
}

Test(misuse, rcu_barrier_inside_a_callback)
{
	expect_misuse(barrier_in_callback, "rcu_barrier()", "rcu-callbacks", "called from an RCU callback");
}

/* ---- unbalanced sections ------------------------------------------------------------------- */

static void unlock_without_lock(void)
{
	rcu_register_thread();
	rcu_read_unlock();
}

Test(misuse, rcu_read_unlock_without_lock)
{
	expect_misuse(unlock_without_lock, "rcu_read_unlock()", CHILD_NAME, "no matching rcu_read_lock()");
}

static void unlock_once_too_often(void)
{
	rcu_register_thread();
	rcu_read_lock();
	rcu_read_lock();
	rcu_read_unlock();
	rcu_read_unlock();
	rcu_read_unlock(); /* one more than the nest */
}

Test(misuse, rcu_read_unlock_once_more_than_a_nest)
{
	expect_misuse(unlock_once_too_often, "rcu_read_unlock()", CHILD_NAME, "unbalanced");
}

/* ---- registration ---------------------------------------------------------------------------- */

#if !defined(RCU_FLAVOUR_BP)
static void lock_unregistered(void)
{
	rcu_read_lock();
}

Test(misuse, rcu_read_lock_in_an_unregistered_thread)
{
	expect_misuse(lock_unregistered, "rcu_read_lock()", CHILD_NAME, "the thread is not registered");
}

static void lock_after_unregister(void)
{
	rcu_register_thread();
	rcu_unregister_thread();
	rcu_read_lock();
}

Test(misuse, rcu_read_lock_after_rcu_unregister_thread)
{
	expect_misuse(lock_after_unregister, "rcu_read_lock()", CHILD_NAME, "the thread is not registered");
}

static void register_twice(void)
{
	rcu_register_thread();
	rcu_register_thread();
}

Test(misuse, rcu_register_thread_twice)
{
	expect_misuse(register_twice, "rcu_register_thread()", CHILD_NAME, "already registered");
}
#endif /* BP registers on first use: an unregistered reader and a second registration are fine */

static void unregister_in_section(void)
{
	rcu_register_thread();
	rcu_read_lock();
	rcu_unregister_thread();
}

Test(misuse, rcu_unregister_thread_inside_a_section)
{
	/* BP: rcu_unregister_thread() is a no-op, but leaving the reader set mid-section is still misuse. */
	expect_misuse(unregister_in_section, "rcu_unregister_thread()", CHILD_NAME, "inside");
}

/* The thread that exits: named, so that the message must name it rather than the main thread. */
static void *exit_inside_section(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "rcu-exiter", 0, 0, 0);
	rcu_register_thread();
	rcu_read_lock();
	return NULL; /* the thread-exit handler finds the section open */
}

static void thread_exit_in_section(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, exit_inside_section, NULL) != 0)
		_exit(3);
	pthread_join(t, NULL); /* the main thread is no reader: joining needs no offline */
}

Test(misuse, thread_exit_inside_a_section)
{
	expect_misuse(thread_exit_in_section, "thread exit", "rcu-exiter", "the thread ends inside");
}

/* ---- QSBR: quiescent states inside rcu_read_lock() ------------------------------------------ */

#if defined(RCU_FLAVOUR_QSBR)
static void quiescent_state_in_lock(void)
{
	rcu_register_thread();
	rcu_read_lock();
	rcu_quiescent_state();
}

Test(misuse, qsbr_rcu_quiescent_state_inside_rcu_read_lock)
{
	expect_misuse(quiescent_state_in_lock, "rcu_quiescent_state()", CHILD_NAME, "called inside rcu_read_lock()");
}

static void offline_in_lock(void)
{
	rcu_register_thread();
	rcu_read_lock();
	rcu_thread_offline();
}

Test(misuse, qsbr_rcu_thread_offline_inside_rcu_read_lock)
{
	expect_misuse(offline_in_lock, "rcu_thread_offline()", CHILD_NAME, "called inside rcu_read_lock()");
}

static void lock_while_offline(void)
{
	rcu_register_thread();
	rcu_thread_offline();
	rcu_read_lock();
}

Test(misuse, qsbr_rcu_read_lock_while_offline)
{
	expect_misuse(lock_while_offline, "rcu_read_lock()", CHILD_NAME, "the thread is offline");
}

static void online_unregistered(void)
{
	rcu_thread_online();
}

Test(misuse, qsbr_rcu_thread_online_in_an_unregistered_thread)
{
	expect_misuse(online_unregistered, "rcu_thread_online()", CHILD_NAME, "the thread is not registered");
}

static void nop_cb(struct rcu_head *h)
{
	(void)h;
}

/* call_rcu() adopts the thread into the registry; that is no registration: online, it would hold
 * up grace periods it never reports to (and a wait of its own would then deadlock). */
static void online_adopted(void)
{
	static struct rcu_head h;
	call_rcu(&h, nop_cb);
	rcu_thread_online();
}

Test(misuse, qsbr_rcu_thread_online_in_an_adopted_thread)
{
	expect_misuse(online_adopted, "rcu_thread_online()", CHILD_NAME, "the thread is not registered");
}
#endif

/* ---- callbacks ------------------------------------------------------------------------------ */

static void noop_cb(struct rcu_head *head)
{
	(void)head;
}

static void call_rcu_twice(void)
{
	static struct rcu_head head;
	rcu_register_thread();
	/* The open section (QSBR: the online thread) keeps the first callback from starting. */
	rcu_read_lock();
	call_rcu(&head, noop_cb);
	call_rcu(&head, noop_cb);
}

Test(misuse, call_rcu_of_a_head_already_queued)
{
	expect_misuse(call_rcu_twice, "call_rcu()", CHILD_NAME, "already queued");
}

/*
 * rcu_dereference() outside a section (RCU_DEBUG_DEREFERENCE): its death test is in
 * test/compile/check.sh (test/compile/deref_debug.c), because the macro is per translation unit
 * and a header that fails to compile it should fail one test, not this whole program.
 */

static int target = 42;
static int *_Atomic shared_ptr = RCU_INITIALIZER(&target);

/* ---- the correct counterparts do not abort ---------------------------------------------------- */

static _Atomic int requeued_runs;

static void requeue_cb(struct rcu_head *head)
{
	/* A head may be queued again once its callback has begun. */
	if (atomic_fetch_add(&requeued_runs, 1) == 0)
		call_rcu(head, requeue_cb);
}

static void *exit_outside_section(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	rcu_read_unlock();
	return NULL; /* registered, outside any section: unregistered at exit, no abort */
}

Test(misuse, correct_use_does_not_abort)
{
	rcu_register_thread();
	rcu_read_lock();
	rcu_read_lock();
	cr_assert_eq(*rcu_dereference(shared_ptr), 42);
	cr_assert_eq(*rcu_dereference_protected(shared_ptr, 1), 42);
	static struct rcu_head in_section;
	call_rcu(&in_section, noop_cb); /* inside a section: allowed */
	rcu_read_unlock();
	rcu_read_unlock();
	rcu_quiescent_state();
	synchronize_rcu();
	uint64_t cookie = get_state_synchronize_rcu();
	cond_synchronize_rcu(cookie);
	cr_assert(poll_state_synchronize_rcu(cookie));

	static struct rcu_head head;
	call_rcu(&head, requeue_cb);
	rcu_barrier();
	rcu_barrier();
	cr_assert_eq(atomic_load(&requeued_runs), 2, "the requeued callback ran");

	pthread_t t;
	test_block_begin();
	cr_assert_eq(pthread_create(&t, NULL, exit_outside_section, NULL), 0);
	pthread_join(t, NULL);
	test_block_end();

	rcu_thread_offline();
	rcu_thread_online();
	rcu_unregister_thread();
	rcu_register_thread(); /* again after unregistering: allowed */
	rcu_unregister_thread();
}

#if defined(RCU_FLAVOUR_BP)
Test(misuse, bp_reader_needs_no_registration)
{
	rcu_read_lock();
	cr_assert(rcu_read_ongoing());
	cr_assert_eq(*rcu_dereference(shared_ptr), 42);
	rcu_read_unlock();
	cr_assert(!rcu_read_ongoing());
	synchronize_rcu();
}
#endif
