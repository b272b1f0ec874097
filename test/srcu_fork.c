/* SPDX-License-Identifier: 0BSD */
/*
 * test/srcu_fork.c: SRCU domains across fork() and thread exit, in every flavour.
 *
 * fork (rcu.h >>callbacks): the child keeps only the forking thread in the registry, so the
 * parent's other readers of every domain are gone for its grace periods; it forgets the workers
 * (the next call_srcu() or srcu_barrier() starts one) and keeps every domain's queued callbacks
 * and taken batch, so callbacks pending at the fork run in the child as well as in the parent;
 * every live domain's locks start afresh. The forking thread keeps its own sections.
 *
 * Thread exit (release builds; RCU_DEBUG aborts instead, test/srcu_misuse.c): a thread that ends
 * inside sections drops them, so grace periods and barriers that wait for it end; a thread that
 * read a domain without registering leaves the registry when it ends.
 *
 * Children never call Criterion: each reports through its exit status (0, or a code below)
 * under an alarm(), so that a hang fails instead of blocking the suite. Under ThreadSanitizer the
 * fork tests are skipped, as in test/fork.c (TSan does not support threads in the child of a
 * multi-threaded fork); the thread-exit tests run in every build.
 */
#include "rcu.h"
#include "srcu_helpers.h"

#include <stdbool.h>

#define CHILD_ALARM_S 20
static unsigned child_alarm_s = CHILD_ALARM_S;

enum {
	E_OK = 0,
	E_RAN_EARLY = 2, /* a callback pending at the fork had run in the child's copy already */
	E_NOT_RUN = 3,   /* a callback pending at the fork did not run in the child, or ran twice */
	E_ORDER = 4,     /* callbacks of one thread and domain ran out of order */
	E_STATS = 5,     /* srcu_get_stats() inconsistent after srcu_barrier() */
	E_WORKER = 6,    /* no SRCU worker in the child, or the parent's threads are there */
	E_GP_EARLY = 7,  /* a grace period of the child ended while a reader of the child was inside */
	E_FORK = 8,      /* fork() or pthread_create() failed */
	E_SECTION = 9,   /* the forking thread's section was lost in the child */
};

static const char *code_name(int code)
{
	switch (code) {
	case E_RAN_EARLY: return "a callback pending at the fork had already run in the child";
	case E_NOT_RUN: return "a callback pending at the fork did not run exactly once in the child";
	case E_ORDER: return "callbacks ran out of order";
	case E_STATS: return "srcu_get_stats() inconsistent after srcu_barrier()";
	case E_WORKER: return "no srcu-callbacks worker in the child, or the parent's threads in it";
	case E_GP_EARLY: return "a grace period of the child ended while the child's reader was inside";
	case E_FORK: return "fork() or pthread_create() failed";
	case E_SECTION: return "the forking thread's section was lost in the child";
	default: return "?";
	}
}

#if defined(TEST_TSAN)
#define SKIP_UNDER_TSAN() cr_skip_test("children of a multi-threaded fork start threads, which TSan does not support")
#else
#define SKIP_UNDER_TSAN() ((void)0)
#endif

/* Fork, run child() in the child under an alarm, and assert that it exited 0. */
static void fork_and_check(int (*child)(void), const char *what)
{
	fflush(NULL);
	pid_t pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		test_child_alarm(child_alarm_s);
		_exit(child());
	}
	int status = 0;
	pid_t r;
	while ((r = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	cr_assert_eq(r, pid);
	if (WIFSIGNALED(status))
		cr_assert(false, "%s: the child was killed by signal %d%s", what, WTERMSIG(status),
			WTERMSIG(status) == SIGALRM ? " (the alarm: it hung)" : "");
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: the child says: %s", what,
		code_name(WEXITSTATUS(status)));
}

DEFINE_STATIC_SRCU(dom_a);
DEFINE_STATIC_SRCU(dom_b);

/* ---- counted callbacks ---------------------------------------------------------------------- */
#define N1 300
#define N2 300
#define NB 100
#define NALL (N1 + N2 + NB)

static struct rcu_head heads[NALL + 16];
static _Atomic uint32_t counts[NALL + 16], ran_as[NALL + 16], invocations;

static void count_cb(struct rcu_head *h)
{
	long i = h - heads;
	atomic_store(&ran_as[i], atomic_fetch_add(&invocations, 1) + 1);
	atomic_fetch_add(&counts[i], 1);
}

static int check_counts(long from, long to, uint32_t want)
{
	for (long i = from; i < to; i++) {
		uint32_t c = atomic_load(&counts[i]);
		if (c != want)
			return c > want && want == 0 ? E_RAN_EARLY : E_NOT_RUN;
	}
	return 0;
}

static int check_order(long from, long to)
{
	for (long i = from + 1; i < to; i++)
		if (atomic_load(&ran_as[i]) <= atomic_load(&ran_as[i - 1]))
			return E_ORDER;
	return 0;
}

static int check_stats(struct srcu_struct *ssp)
{
	struct rcu_stats st;
	srcu_get_stats(ssp, &st);
	return st.callbacks_pending != 0 || st.callbacks_queued != st.callbacks_invoked ? E_STATS : 0;
}

/* In a child: a reader of the child holds back the child's grace periods and callbacks of A. */
static int child_gp_check(void)
{
	struct holder h;
	h.ssp = &dom_a;
	h.kind = HOLDER_UNREGISTERED;
	h.sleep_us = 0;
	atomic_store(&h.in, 0);
	atomic_store(&h.release, 0);
	atomic_store(&h.out, 0);
	if (pthread_create(&h.thread, NULL, holder_main, &h) != 0 || !test_wait_flag(&h.in, 5000))
		return E_FORK;
	long k = NALL;
	atomic_store(&counts[k], 0);
	call_srcu(&dom_a, &heads[k], count_cb);
	uint64_t cookie = get_state_synchronize_srcu(&dom_a);
	test_sleep_us(20 * 1000);
	int early = atomic_load(&counts[k]) != 0 || poll_state_synchronize_srcu(&dom_a, cookie);
	holder_stop(&h);
	synchronize_srcu(&dom_a);
	srcu_barrier(&dom_a);
	if (early)
		return E_GP_EARLY;
	return atomic_load(&counts[k]) == 1 && poll_state_synchronize_srcu(&dom_a, cookie) ? 0 : E_NOT_RUN;
}

/* ---- callbacks pending at the fork run in the child and in the parent ------------------------
 * Parent: a reader of A holds; N1 callbacks of A queued, a pause (the worker takes them as its
 * batch and waits), N2 more (in the queue), and NB of B (whose reader, registered, also holds).
 * Child: synchronize_srcu(A) returns (the parent's reader is not in the child); srcu_barrier(A)
 * runs N1 + N2 once each, in order; a worker exists; the child's own reader holds back its
 * grace periods. Parent: the same callbacks run once there too.
 */
static int pending_child(void)
{
	int c;
	if ((c = check_counts(0, NALL, 0)))
		return c;
	synchronize_srcu(&dom_a);
	srcu_barrier(&dom_a);
	srcu_barrier(&dom_b);
	if ((c = check_counts(0, NALL, 1)) || (c = check_order(0, N1 + N2)) || (c = check_order(N1 + N2, NALL)) ||
	    (c = check_stats(&dom_a)) ||
	    (c = check_stats(&dom_b)))
		return c;
	int tasks = 0, named = test_find_tasks("srcu-callbacks", NULL, 0, &tasks);
	if (named != 1 || tasks != 2)
		return E_WORKER;
	return child_gp_check();
}

Test(srcu_fork, callbacks_pending_at_the_fork_run_in_parent_and_child, .timeout = 60)
{
	SKIP_UNDER_TSAN();
	struct holder h, hb;
	srcu_barrier(&dom_a); /* the worker has started */
	holder_start(&h, &dom_a, HOLDER_UNREGISTERED, 0);
	holder_start(&hb, &dom_b, HOLDER_REGISTERED, 0);
	for (long i = 0; i < N1; i++)
		call_srcu(&dom_a, &heads[i], count_cb);
	test_sleep_us(20 * 1000);
	for (long i = N1; i < N1 + N2; i++)
		call_srcu(&dom_a, &heads[i], count_cb);
	for (long i = N1 + N2; i < NALL; i++)
		call_srcu(&dom_b, &heads[i], count_cb);
	cr_assert_eq(check_counts(0, NALL, 0), 0, "callbacks ran while a pre-existing reader was inside");
	fork_and_check(pending_child, "callbacks pending at the fork");
	holder_stop(&h);
	holder_stop(&hb);
	srcu_barrier(&dom_a);
	srcu_barrier(&dom_b);
	cr_assert_eq(check_counts(0, NALL, 1), 0, "parent: %s", code_name(check_counts(0, NALL, 1)));
	cr_assert_eq(check_order(0, N1 + N2), 0, "parent: callbacks ran out of order");
	cr_assert_eq(check_stats(&dom_a), 0);
}

/* ---- fork while the SRCU worker is invoking a callback ---------------------------------------------
 * The worker takes the list of domains with work and runs their callbacks outside the lock that
 * guards the list; a fork in the meantime must leave the child able to run the domain's
 * callbacks (srcu_barrier() in the child must return).
 */
static _Atomic int slow_in;

static void slow_cb(struct rcu_head *h)
{
	(void)h;
	atomic_store(&slow_in, 1);
	test_sleep_us(300 * 1000);
}

static int busy_worker_child(void)
{
	call_srcu(&dom_a, &heads[3], count_cb);
	srcu_barrier(&dom_a);
	return atomic_load(&counts[3]) == 1 ? 0 : E_NOT_RUN;
}

static int busy_worker_child_b(void)
{
	call_srcu(&dom_b, &heads[0], count_cb);
	srcu_barrier(&dom_b);
	return atomic_load(&counts[0]) == 1 ? 0 : E_NOT_RUN;
}

Test(srcu_fork, fork_while_the_srcu_worker_invokes_a_callback, .timeout = 60)
{
	SKIP_UNDER_TSAN();
	child_alarm_s = 5; /* the child does almost nothing: a hang shows quickly */
	static struct rcu_head h;
	call_srcu(&dom_a, &h, slow_cb);
	while (!atomic_load(&slow_in))
		test_sleep_us(100);
	/* The worker is inside slow_cb, holding the list it took: fork now. */
	fork_and_check(busy_worker_child, "srcu_barrier() of the domain whose callback ran at the fork");
	srcu_barrier(&dom_a);
	atomic_store(&slow_in, 0);
	call_srcu(&dom_a, &h, slow_cb);
	while (!atomic_load(&slow_in))
		test_sleep_us(100);
	fork_and_check(busy_worker_child_b, "srcu_barrier() of another domain, forked while the worker was busy");
	srcu_barrier(&dom_a);
}

/* ---- fork inside a section; fork while a grace period is in progress --------------------------- */
static _Atomic int c_in, c_done;

static void *child_sync_a(void *arg)
{
	(void)arg;
	atomic_store(&c_in, 1);
	synchronize_srcu(&dom_a);
	atomic_store(&c_done, 1);
	return NULL;
}

/* The child of a thread that was inside A: its section goes on in the child. */
static int idx_at_fork;

static int inside_child(void)
{
	if (!srcu_read_lock_held(&dom_a))
		return E_SECTION;
	synchronize_srcu(&dom_b); /* the parent's readers of B are not here; nor is the worker */
	pthread_t t;
	if (pthread_create(&t, NULL, child_sync_a, NULL) != 0 || !test_wait_flag(&c_in, 5000))
		return E_FORK;
	test_sleep_us(50 * 1000);
	int early = atomic_load(&c_done);
	srcu_read_unlock(&dom_a, idx_at_fork);
	pthread_join(t, NULL);
	if (early)
		return E_GP_EARLY;
	return child_gp_check();
}

Test(srcu_fork, fork_inside_a_section_and_during_grace_periods, .timeout = 60)
{
	SKIP_UNDER_TSAN();
	/* Another thread of the parent is blocked in synchronize_srcu(A), holding A's grace period,
	 * behind a reader of A; and a reader of B holds. The forking thread itself is inside A. */
	struct holder ha, hb;
	holder_start(&ha, &dom_a, HOLDER_REGISTERED, 0);
	holder_start(&hb, &dom_b, HOLDER_UNREGISTERED, 0);
	struct async_op s;
	async_start(&s, ASYNC_SYNC_SRCU, &dom_a, 30 * 1000);
	idx_at_fork = srcu_read_lock(&dom_a);
	fork_and_check(inside_child, "fork inside a section of A while synchronize_srcu(A) waited");
	srcu_read_unlock(&dom_a, idx_at_fork);
	cr_assert(!atomic_load(&s.returned));
	holder_stop(&ha);
	holder_stop(&hb);
	cr_assert(test_wait_flag(&s.returned, TEST_LIVENESS_MS));
	pthread_join(s.thread, NULL);
}

/* ---- many live domains at the fork ------------------------------------------------------------ */
#define NDOM 1000
static struct srcu_struct many[NDOM];

static int many_child(void)
{
	for (int d = 0; d < NDOM; d++) {
		int i = srcu_read_lock(&many[d]);
		srcu_read_unlock(&many[d], i);
		if (d % 50 == 0)
			synchronize_srcu(&many[d]);
	}
	call_srcu(&many[NDOM - 1], &heads[1], count_cb);
	srcu_barrier(&many[NDOM - 1]);
	for (int d = 0; d < NDOM; d++)
		cleanup_srcu_struct(&many[d]);
	return atomic_load(&counts[1]) == 1 ? 0 : E_NOT_RUN;
}

Test(srcu_fork, every_live_domain_works_in_the_child, .timeout = 60)
{
	SKIP_UNDER_TSAN();
	for (int d = 0; d < NDOM; d++)
		init_srcu_struct(&many[d]);
	struct holder h; /* a reader of one of them, gone in the child */
	holder_start(&h, &many[7], HOLDER_UNREGISTERED, 0);
	fork_and_check(many_child, "1000 live domains");
	holder_stop(&h);
	for (int d = 0; d < NDOM; d++)
		cleanup_srcu_struct(&many[d]);
}

/* ---- thread exit ---------------------------------------------------------------------------------- */

/* Threads of the registry (white box: rcu.h's process state, under its lock). */
static int registry_length(void)
{
	struct rcu__state *s = RCU__STATE;
	int n = 0;
	pthread_mutex_lock(&s->registry_lock);
	for (struct rcu__reader *r = s->readers; r; r = r->next)
		n++;
	pthread_mutex_unlock(&s->registry_lock);
	return n;
}

static struct {
	_Atomic int in, go;
	bool registered, unregister_inside;
} ex;

static void *exit_inside(void *arg)
{
	(void)arg;
	if (ex.registered)
		rcu_register_thread();
	srcu_read_lock(&dom_b);
	int a = srcu_read_lock(&dom_a);
	srcu_read_lock(&dom_a); /* nested */
	(void)a;
	if (ex.unregister_inside)
		rcu_unregister_thread();
	atomic_store(&ex.in, 1);
	if (ex.registered && !ex.unregister_inside)
		test_block_begin();
	while (!atomic_load(&ex.go))
		test_sleep_us(200);
	if (ex.registered && !ex.unregister_inside)
		test_block_end();
	return NULL; /* ends inside both sections (release builds: they are dropped) */
}

static void exit_inside_case(bool registered, bool unregister_inside)
{
	srcu_barrier(&dom_a); /* the worker exists and this thread is adopted: the registry is settled */
	ex.registered = registered;
	ex.unregister_inside = unregister_inside;
	atomic_store(&ex.in, 0);
	atomic_store(&ex.go, 0);
	int before = registry_length();
	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, exit_inside, NULL), 0);
	cr_assert(test_wait_flag(&ex.in, TEST_LIVENESS_MS));
	atomic_store(&counts[2], 0);
	call_srcu(&dom_a, &heads[2], count_cb);
	struct async_op sa, sb, bar;
	async_start(&sa, ASYNC_SYNC_SRCU, &dom_a, 0);
	async_start(&sb, ASYNC_SYNC_SRCU, &dom_b, 0);
	async_start(&bar, ASYNC_SRCU_BARRIER, &dom_a, 50 * 1000);
	cr_assert(!atomic_load(&sa.returned) && !atomic_load(&sb.returned) && !atomic_load(&bar.returned),
		"a grace period ended while the thread was inside its sections");
	atomic_store(&ex.go, 1);
	pthread_join(t, NULL);
	cr_assert(test_wait_flag(&sa.returned, TEST_LIVENESS_MS), "synchronize_srcu(A) hung after a thread ended inside A");
	cr_assert(test_wait_flag(&sb.returned, TEST_LIVENESS_MS), "synchronize_srcu(B) hung after a thread ended inside B");
	cr_assert(test_wait_flag(&bar.returned, TEST_LIVENESS_MS), "srcu_barrier(A) hung after a thread ended inside A");
	pthread_join(sa.thread, NULL);
	pthread_join(sb.thread, NULL);
	pthread_join(bar.thread, NULL);
	int after = registry_length();
	cr_assert_eq(after, before, "the registry had %d threads before and %d after the thread ended", before, after);
}

Test(srcu_fork, a_thread_that_ends_inside_sections_drops_them, .timeout = 60)
{
	exit_inside_case(false, false);
	exit_inside_case(true, false);
	exit_inside_case(true, true); /* unregistered inside its SRCU sections: adopted until it ends */
}

static void *short_reader(void *arg)
{
	(void)arg;
	int i = srcu_read_lock(&dom_a);
	srcu_read_unlock(&dom_a, i);
	int j = srcu_read_lock(&dom_b);
	srcu_read_unlock(&dom_b, j);
	return NULL;
}

Test(srcu_fork, readers_that_never_registered_leave_the_registry_when_they_end, .timeout = 60)
{
	synchronize_srcu(&dom_a); /* set-up done */
	int before = registry_length();
	for (int round = 0; round < 20; round++) {
		pthread_t t[10];
		for (int i = 0; i < 10; i++)
			cr_assert_eq(pthread_create(&t[i], NULL, short_reader, NULL), 0);
		for (int i = 0; i < 10; i++)
			pthread_join(t[i], NULL);
	}
	int after = registry_length();
	synchronize_srcu(&dom_a);
	synchronize_srcu(&dom_b);
	cr_assert_eq(after, before, "200 short-lived readers: the registry grew from %d to %d threads", before, after);
}
