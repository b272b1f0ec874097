/* SPDX-License-Identifier: 0BSD */
/*
 * test/fork.c: fork() with RCU in use. rcu.h (>>callbacks): the child keeps only the forking
 * thread in the registry, forgets the worker (the next call_rcu() or rcu_barrier() starts one)
 * and keeps the batch the worker held at the fork and the queue, mending the links of call_rcu()
 * calls that other threads were inside at the instant of fork(), so callbacks pending at the fork
 * run in the child as well, in the order queued. A call_rcu() caught by the fork before its swap
 * queued nothing; one caught after it has its callback run in the child.
 *
 * Children never call Criterion: each checks what it must and reports through its exit status
 * (0, or one of the codes below; a grandchild's code comes back as GRANDCHILD + code), under an
 * alarm (test_child_alarm(): a hang fails instead of blocking the suite, and prints the child's
 * threads' stacks first). Parents wait with waitpid(),
 * offline (test_block_begin/end) when registered. Children leave with _exit().
 */
#define RCU__TEST_HOOKS /* rcu__test_hook(), below: stops threads at named points */
#include "rcu.h"
#include "harness.h"

#include <sched.h>
#include <stdbool.h>
#include <sys/syscall.h>

#ifndef CHILD_ALARM_S
#define CHILD_ALARM_S 20
#endif

enum {
	E_OK = 0,
	E_RAN_EARLY = 2,   /* a callback pending at the fork had already run in the child's memory */
	E_NOT_RUN = 3,     /* a callback pending at the fork did not run in the child */
	E_TWICE = 4,       /* a callback ran twice */
	E_ORDER = 5,       /* callbacks of one thread ran out of order */
	E_STATS = 6,       /* rcu_get_stats() inconsistent after rcu_barrier() */
	E_WORKER = 7,      /* no worker, or the parent's threads live on */
	E_GP_EARLY = 8,    /* a callback ran while a reader that began before it was inside */
	E_GP_LATE = 9,     /* rcu_barrier() returned before a callback ran */
	E_FORK = 10,       /* fork() or pthread_create() failed */
	E_LOST = 11,       /* a callback whose call_rcu() returned before fork() never ran */
	E_NOT_QUEUED = 12, /* a callback that a call_rcu() caught before its swap had not queued ran */
	GRANDCHILD = 32,   /* + the grandchild's code */
	E_SIGNALLED = 100, /* + the signal that killed a grandchild (SIGALRM: it hung) */
};

static const char *code_name(int code)
{
	switch (code % GRANDCHILD) {
	case E_RAN_EARLY: return "a callback pending at the fork had already run";
	case E_NOT_RUN: return "a callback pending at the fork did not run in the child";
	case E_TWICE: return "a callback ran twice";
	case E_ORDER: return "callbacks of one thread ran out of order";
	case E_STATS: return "rcu_get_stats() inconsistent after rcu_barrier()";
	case E_WORKER: return "worker missing or parent's threads present";
	case E_GP_EARLY: return "a callback ran inside a pre-existing reader's section";
	case E_GP_LATE: return "rcu_barrier() returned before a callback ran";
	case E_FORK: return "fork() or pthread_create() failed";
	case E_LOST: return "a callback whose call_rcu() had returned was lost";
	case E_NOT_QUEUED: return "a callback that was never queued (fork() caught its call_rcu() before the swap) ran";
	default: return "?";
	}
}

/*
 * Under ThreadSanitizer a child of a multi-threaded process runs with TSan switched off, and
 * TSan does not support starting threads there (every child here starts RCU's worker): the
 * child can die in TSan's own bookkeeping ("dup thread with used id"). So the TSan build skips
 * these tests; the default and ASan builds run them.
 */
#if defined(TEST_TSAN)
#define SKIP_UNDER_TSAN() cr_skip_test("children of a multi-threaded fork start threads, which TSan does not support")
#else
#define SKIP_UNDER_TSAN() ((void)0)
#endif

/* Describe a wait status for an assertion message. */
static const char *describe(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d%s", WTERMSIG(status),
			WTERMSIG(status) == SIGALRM ? " (the alarm: it hung)" : "");
	else if (WIFEXITED(status) && WEXITSTATUS(status) >= E_SIGNALLED)
		snprintf(buf, len, "its child was killed by signal %d%s", WEXITSTATUS(status) - E_SIGNALLED,
			WEXITSTATUS(status) - E_SIGNALLED == SIGALRM ? " (the alarm: it hung)" : "");
	else if (WIFEXITED(status))
		snprintf(buf, len, "exit %d: %s%s", WEXITSTATUS(status),
			WEXITSTATUS(status) >= GRANDCHILD ? "in the grandchild: " : "", code_name(WEXITSTATUS(status)));
	else
		snprintf(buf, len, "status %#x", status);
	return buf;
}

/* A child's code for its own child's wait status. */
static int child_code(int status)
{
	if (WIFSIGNALED(status))
		return E_SIGNALLED + WTERMSIG(status);
	if (!WIFEXITED(status))
		return E_FORK;
	int c = WEXITSTATUS(status);
	return c == 0 ? 0 : c >= GRANDCHILD ? c : GRANDCHILD + c;
}

/*
 * A thread that is online (QSBR: registered, or adopted and put online) waits offline, and comes
 * back online afterwards; one that is offline stays so. Bracketing unconditionally put the storm
 * tests' unregistered (adopted) test thread online after its first wait, and it then blocked in
 * pthread_join() online: the worker's grace period waited for it while a producer waited for the
 * worker (musl, under load: 4 runs of 40 hung).
 */
static pid_t wait_child(pid_t pid, int *status)
{
	bool online = rcu_read_ongoing();
	if (online)
		test_block_begin();
	pid_t r;
	while ((r = waitpid(pid, status, 0)) < 0 && errno == EINTR)
		;
	if (online)
		test_block_end();
	return r;
}

static void sleep_ms(long ms)
{
	bool online = rcu_read_ongoing();
	if (online)
		test_block_begin();
	test_sleep_us(ms * 1000);
	if (online)
		test_block_end();
}

/* ---- threads ------------------------------------------------------------------------------- */

/* ---- counted callbacks ------------------------------------------------------------------------ */

struct obj {
	struct rcu_head head;
	uint32_t idx;
};

static struct obj *objs;
static _Atomic uint32_t *counts;
static _Atomic uint32_t *ran_as; /* the invocation number (from 1) of each object's last run */
static _Atomic uint32_t invocations;

static void count_cb(struct rcu_head *h)
{
	struct obj *o = rcu_container_of(h, struct obj, head);
	atomic_store_explicit(&ran_as[o->idx], atomic_fetch_add_explicit(&invocations, 1, memory_order_relaxed) + 1,
		memory_order_relaxed);
	atomic_fetch_add_explicit(&counts[o->idx], 1, memory_order_relaxed);
}

static void objs_alloc(long n)
{
	objs = calloc((size_t)n, sizeof *objs);
	counts = calloc((size_t)n, sizeof *counts);
	ran_as = calloc((size_t)n, sizeof *ran_as);
	cr_assert(objs && counts && ran_as);
	for (long i = 0; i < n; i++)
		objs[i].idx = (uint32_t)i;
}

static void objs_free(void)
{
	free(objs);
	free(counts);
	free(ran_as);
}

/* 0 if every counts[from, to) is `want`, else the code that says how not. */
static int check_counts(long from, long to, uint32_t want)
{
	for (long i = from; i < to; i++) {
		uint32_t c = atomic_load_explicit(&counts[i], memory_order_relaxed);
		if (c != want)
			return c > want ? (want == 0 ? E_RAN_EARLY : E_TWICE) : E_NOT_RUN;
	}
	return 0;
}

/* 0 if objects [from, to), queued in that order by one thread, ran in that order. */
static int check_order(long from, long to)
{
	for (long i = from + 1; i < to; i++)
		if (atomic_load_explicit(&ran_as[i], memory_order_relaxed) <=
		    atomic_load_explicit(&ran_as[i - 1], memory_order_relaxed))
			return E_ORDER;
	return 0;
}

static int check_stats(void)
{
	struct rcu_stats st;
	rcu_get_stats(&st);
	if (st.callbacks_pending != 0 || st.callbacks_queued != st.callbacks_invoked)
		return E_STATS;
	return 0;
}

/* Objects freed with rcu_free() and the default RCU_FREE (free): ASan checks them. */
struct freeable {
	char pad[24];
	struct rcu_head rcu;
	long v;
};

static void rcu_free_some(int n)
{
	for (int i = 0; i < n; i++) {
		struct freeable *f = malloc(sizeof *f);
		if (!f)
			abort();
		f->v = i;
		rcu_free(f, rcu);
	}
}

/* ---- callbacks pending at the fork run in the child, the grandchild and the parent ------------
 * Parent (main thread registered): two busy readers; a holder keeps a section; N1 callbacks
 * queued, a pause (the worker takes them as its batch and waits for the holder), N2 more (in the
 * queue), and some rcu_free()s. All are certainly pending at the fork.
 *
 * Child (alone with the forking thread): synchronize_rcu() returns although the parent's readers
 * were online; rcu_barrier() runs all N1 + N2, in order; a worker exists again; a reader of its
 * own still holds a callback back. Then a thread of the child holds a section, the child queues
 * N3 more, and another thread of the child forks: the grandchild does the same checks on N3 (and
 * the first N1 + N2 do not run again). Parent: the same callbacks run once there too.
 */
#define N1 500
#define N2 500
#define N3 300
#define NFREE 100

static struct {
	struct rcu_head head;
	_Atomic int ran;
} gp_probe;

static void gp_probe_cb(struct rcu_head *h)
{
	(void)h;
	atomic_store(&gp_probe.ran, 1);
}

/* The child's own grace periods: a reader of the child holds back a callback. */
static int child_gp_check(void)
{
	pthread_t h;
	if (!test_holder_start(&h))
		return E_FORK;
	atomic_store(&gp_probe.ran, 0);
	call_rcu(&gp_probe.head, gp_probe_cb);
	sleep_ms(20);
	int early = atomic_load(&gp_probe.ran);
	test_holder_stop(h);
	rcu_barrier();
	if (early)
		return E_GP_EARLY;
	if (!atomic_load(&gp_probe.ran))
		return E_GP_LATE;
	return 0;
}

static int grandchild_main(void)
{
	test_child_alarm(CHILD_ALARM_S);
	int c;
	if ((c = check_counts(N1 + N2, N1 + N2 + N3, 0)))
		return c;
	synchronize_rcu();
	rcu_barrier();
	if ((c = check_counts(N1 + N2, N1 + N2 + N3, 1)) || (c = check_order(N1 + N2, N1 + N2 + N3)))
		return c;
	if ((c = check_counts(0, N1 + N2, 1)))
		return c;
	if ((c = check_stats()))
		return c;
	return child_gp_check();
}

/* A thread of the child that forks the grandchild and waits for it. */
static void *forker_main(void *arg)
{
	int *code = arg;
	rcu_register_thread();
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0)
		_exit(grandchild_main());
	int status = 0;
	if (pid < 0 || wait_child(pid, &status) != pid)
		*code = E_FORK;
	else
		*code = child_code(status);
	rcu_unregister_thread();
	return NULL;
}

static int child_main(void)
{
	test_child_alarm(CHILD_ALARM_S);
	int c;
	if ((c = check_counts(0, N1 + N2, 0)))
		return c;
	synchronize_rcu();
	synchronize_rcu();
	rcu_barrier();
	if ((c = check_counts(0, N1 + N2, 1)) || (c = check_order(0, N1 + N2)))
		return c;
	if ((c = check_stats()))
		return c;
	int tasks = 0, named = test_find_tasks("rcu-callbacks", NULL, 0, &tasks);
	if (tasks != 2 || named != 1)
		return E_WORKER;
	rcu_read_lock(); /* still registered: the forking thread stays in the registry */
	rcu_read_unlock();
	rcu_quiescent_state();
	if ((c = child_gp_check()))
		return c;

	/* Fork again, from a thread of the child, with callbacks of the child pending. */
	pthread_t h, f;
	if (!test_holder_start(&h))
		return E_FORK;
	for (long i = N1 + N2; i < N1 + N2 + N3 / 2; i++)
		call_rcu(&objs[i].head, count_cb);
	sleep_ms(10);
	for (long i = N1 + N2 + N3 / 2; i < N1 + N2 + N3; i++)
		call_rcu(&objs[i].head, count_cb);
	rcu_free_some(NFREE);
	int gcode = E_FORK;
	if (pthread_create(&f, NULL, forker_main, &gcode) != 0)
		return E_FORK;
	test_block_begin();
	pthread_join(f, NULL);
	test_block_end();
	test_holder_stop(h);
	rcu_barrier();
	if (gcode)
		return gcode;
	if ((c = check_counts(N1 + N2, N1 + N2 + N3, 1)) || (c = check_order(N1 + N2, N1 + N2 + N3)))
		return c;
	return check_stats();
}

Test(fork, pending_callbacks_run_in_parent_child_and_grandchild, .timeout = 60)
{
	SKIP_UNDER_TSAN();
	objs_alloc(N1 + N2 + N3);
	rcu_register_thread();
	pthread_t r[2], h;
	atomic_store(&test_busy_stop, 0);
	for (long i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&r[i], NULL, test_busy_reader, (void *)(uintptr_t)(i + 1)), 0);
	rcu_barrier(); /* the worker has started */
	/* and so have the readers: a fork during a thread's start can leave ASan's allocator locked
	 * in the child (gcc 12) */
	while (atomic_load(&test_busy_started) < 2)
		sched_yield();
	cr_assert(test_holder_start(&h));
	for (long i = 0; i < N1; i++)
		call_rcu(&objs[i].head, count_cb);
	sleep_ms(20); /* the worker takes these as its batch and waits for the holder */
	for (long i = N1; i < N1 + N2; i++)
		call_rcu(&objs[i].head, count_cb);
	rcu_free_some(NFREE);
	cr_assert_eq(atomic_load(&invocations), 0, "callbacks ran while a pre-existing reader was inside");

	fflush(NULL);
	pid_t pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0)
		_exit(child_main());

	test_holder_stop(h);
	rcu_barrier();
	int c = check_counts(0, N1 + N2, 1);
	int o = check_order(0, N1 + N2);
	int s = check_stats();
	atomic_store(&test_busy_stop, 1);
	test_block_begin();
	for (int i = 0; i < 2; i++)
		pthread_join(r[i], NULL);
	test_block_end();
	int status = 0;
	cr_assert_eq(wait_child(pid, &status), pid);
	char buf[200];
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child: %s", describe(status, buf, sizeof buf));
	cr_assert_eq(c, 0, "parent: %s", code_name(c));
	cr_assert_eq(o, 0, "parent: %s", code_name(o));
	cr_assert_eq(s, 0, "parent: %s", code_name(s));
	rcu_unregister_thread();
	objs_free();
}

/* ---- fork while callbacks are being queued and invoked ------------------------------------------
 * Two producers queue numbered callbacks at full speed (each publishes how many of its call_rcu()
 * calls have returned) and a reader runs, while the (unregistered) test thread forks again and
 * again. In each child, after rcu_barrier(): no callback ran twice (the worker's batch goes back
 * from its first unstarted callback, not from its start); every callback whose call_rcu() had
 * returned before the fork ran, except at most one that a consumer had started when the fork
 * happened (its effect may be missing from the child's copy); none that was not yet queued ran.
 * The parent: all ran exactly once.
 */
#define STORM_PRODUCERS 2

static struct {
	long per;
	_Atomic long done[STORM_PRODUCERS];
	_Atomic int stop;
} storm;

static void *storm_producer(void *arg)
{
	long p = (long)(uintptr_t)arg;
	uint64_t seed = 0x77u + (uint64_t)p;
	rcu_register_thread();
	for (long k = 0; k < storm.per && !atomic_load_explicit(&storm.stop, memory_order_relaxed); k++) {
		call_rcu(&objs[p * storm.per + k].head, count_cb);
		atomic_store_explicit(&storm.done[p], k + 1, memory_order_release);
		rcu_quiescent_state();
		if (test_rand(&seed) % 256 == 0)
			sched_yield();
	}
	rcu_unregister_thread();
	return NULL;
}

static int storm_child(void)
{
	test_child_alarm(CHILD_ALARM_S);
	long done[STORM_PRODUCERS];
	for (int p = 0; p < STORM_PRODUCERS; p++)
		done[p] = atomic_load(&storm.done[p]);
	rcu_barrier();
	synchronize_rcu();
	rcu_barrier();
	long missing = 0;
	for (int p = 0; p < STORM_PRODUCERS; p++) {
		long base = p * storm.per;
		for (long k = 0; k < storm.per; k++) {
			uint32_t c = atomic_load(&counts[base + k]);
			if (c > 1)
				return E_TWICE;
			if (k < done[p] && c == 0)
				missing++;
			if (k > done[p] && c != 0)
				return E_RAN_EARLY; /* never queued, yet ran */
		}
	}
	if (missing > 1)
		return E_LOST;
	return check_stats();
}

Test(fork, fork_while_callbacks_are_queued_and_invoked, .timeout = 60)
{
	SKIP_UNDER_TSAN();
	storm.per = test_rounds(400000);
	objs_alloc(storm.per * STORM_PRODUCERS);
	/* RCU's one-time set-up and the worker's start are over before the first fork (see the last
	 * test); a fork during a thread's start can also leave ASan's allocator locked in the child. */
	rcu_barrier();
	pthread_t p[STORM_PRODUCERS], r;
	atomic_store(&test_busy_stop, 0);
	cr_assert_eq(pthread_create(&r, NULL, test_busy_reader, (void *)(uintptr_t)9), 0);
	for (long i = 0; i < STORM_PRODUCERS; i++)
		cr_assert_eq(pthread_create(&p[i], NULL, storm_producer, (void *)(uintptr_t)i), 0);
	for (int i = 0; i < STORM_PRODUCERS; i++)
		while (atomic_load(&storm.done[i]) < 100)
			sched_yield();
	while (atomic_load(&test_busy_started) < 1)
		sched_yield();
	long rounds = test_rounds(20), failed = 0;
	char first[200] = "";
	for (long i = 0; i < rounds; i++) {
		test_sleep_us(3000);
		fflush(NULL);
		pid_t pid = fork();
		cr_assert_neq(pid, -1);
		if (pid == 0)
			_exit(storm_child());
		int status = 0;
		cr_assert_eq(wait_child(pid, &status), pid);
		if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) && failed++ == 0)
			describe(status, first, sizeof first);
	}
	atomic_store(&storm.stop, 1);
	for (int i = 0; i < STORM_PRODUCERS; i++)
		pthread_join(p[i], NULL);
	atomic_store(&test_busy_stop, 1);
	pthread_join(r, NULL);
	rcu_barrier();
	long queued = 0, bad = 0;
	for (int i = 0; i < STORM_PRODUCERS; i++) {
		long d = atomic_load(&storm.done[i]);
		queued += d;
		for (long k = 0; k < d; k++)
			bad += atomic_load(&counts[i * storm.per + k]) != 1;
	}
	cr_log_info("%s: %ld forks while %ld callbacks were queued", TEST_FLAVOUR, rounds, queued);
	cr_assert_eq(failed, 0, "%ld of %ld children failed; the first: %s", failed, rounds, first);
	cr_assert_eq(bad, 0, "parent: %ld callbacks not invoked exactly once", bad);
	cr_assert_eq(check_stats(), 0);
	objs_free();
}

/* ---- fork while the worker takes its batches -----------------------------------------------------
 * The worker takes the whole queue as a batch, waits for its grace period and invokes it; with no
 * reader to wait for it does so in a tight loop, so a fork lands in the middle of a take now and
 * then. A take detaches the chain from the queue (the stub's link, then the tail) and records it
 * as the domain's batch: a child forked in between must find those callbacks somewhere, or every
 * callback of the chain is lost there (rcu.h took the detach and the record together under a lock
 * that fork() waits for; before, a child forked between them lost the chain, about one fork in
 * 400 of fork_keeps_callbacks_queued_behind_*, under load). Two producers queue at full speed,
 * TAKE_SPINNERS threads that never use RCU keep the CPUs busy so that the worker is preempted at
 * any instruction (the load a busy machine adds), and the test thread forks TAKE_FORKS times in a
 * row. Each child: every callback whose call_rcu() returned before the fork runs after
 * rcu_barrier(), except at most one that the worker had started (it ran, or runs, in the parent).
 */
#define TAKE_FORKS 600
#define TAKE_SPINNERS 2
#define TAKE_RING 4096

/* Producer p's k-th call_rcu() uses head k % TAKE_RING, once the callback of its call k - TAKE_RING
 * has run. Callbacks of one producer run in queue order, so each checks that it is the next one. */
static struct take_obj {
	struct rcu_head head;
	int p;
	long seq;
} take_ring[STORM_PRODUCERS][TAKE_RING];

static struct {
	_Atomic long done[STORM_PRODUCERS]; /* call_rcu() calls that have returned */
	_Atomic long ran[STORM_PRODUCERS];  /* callbacks run: the next one's seq */
	_Atomic long skipped;               /* callbacks that never ran (gaps) */
	_Atomic long wrong;                 /* a callback that ran twice or out of order */
	_Atomic int stop, spin_stop;
} take;

static void take_cb(struct rcu_head *h)
{
	struct take_obj *o = rcu_container_of(h, struct take_obj, head);
	long want = atomic_load_explicit(&take.ran[o->p], memory_order_relaxed);
	if (o->seq > want)
		atomic_fetch_add(&take.skipped, o->seq - want);
	else if (o->seq < want)
		atomic_fetch_add(&take.wrong, 1);
	atomic_store_explicit(&take.ran[o->p], o->seq + 1, memory_order_release);
}

static void *take_producer(void *arg)
{
	int p = (int)(uintptr_t)arg;
	rcu_register_thread();
	for (long k = 0; !atomic_load_explicit(&take.stop, memory_order_relaxed); k++) {
		while (atomic_load_explicit(&take.ran[p], memory_order_acquire) <= k - TAKE_RING) {
			rcu_quiescent_state();
			sched_yield();
			if (atomic_load_explicit(&take.stop, memory_order_relaxed))
				goto out;
		}
		struct take_obj *o = &take_ring[p][k % TAKE_RING];
		o->p = p;
		o->seq = k;
		call_rcu(&o->head, take_cb);
		atomic_store_explicit(&take.done[p], k + 1, memory_order_release);
		rcu_quiescent_state();
	}
out:
	rcu_unregister_thread();
	return NULL;
}

static void *cpu_spinner(void *arg)
{
	(void)arg;
	for (volatile unsigned long n = 0; !atomic_load_explicit(&take.spin_stop, memory_order_relaxed); n++)
		;
	return NULL;
}

static int take_child(void)
{
	test_child_alarm(CHILD_ALARM_S);
	long done[STORM_PRODUCERS];
	for (int p = 0; p < STORM_PRODUCERS; p++)
		done[p] = atomic_load(&take.done[p]);
	rcu_barrier();
	long skipped = atomic_load(&take.skipped);
	for (int p = 0; p < STORM_PRODUCERS; p++)
		if (atomic_load(&take.ran[p]) < done[p])
			skipped += done[p] - atomic_load(&take.ran[p]);
	if (atomic_load(&take.wrong))
		return E_ORDER;
	/* one callback may have been running on the worker at the fork: it is not run again here */
	if (skipped > 1)
		return E_LOST;
	return 0;
}

Test(fork, fork_while_the_worker_takes_batches, .timeout = 120)
{
	SKIP_UNDER_TSAN();
	rcu_barrier(); /* set-up and the worker's start are over before the first fork */
	pthread_t p[STORM_PRODUCERS], spin[TAKE_SPINNERS];
	for (long i = 0; i < TAKE_SPINNERS; i++)
		cr_assert_eq(pthread_create(&spin[i], NULL, cpu_spinner, NULL), 0);
	for (long i = 0; i < STORM_PRODUCERS; i++)
		cr_assert_eq(pthread_create(&p[i], NULL, take_producer, (void *)(uintptr_t)i), 0);
	for (int i = 0; i < STORM_PRODUCERS; i++)
		while (atomic_load(&take.done[i]) < 100)
			sched_yield();
	long forks = test_rounds(TAKE_FORKS), failed = 0;
	char first[200] = "";
	for (long i = 0; i < forks; i++) {
		fflush(NULL);
		pid_t pid = fork();
		cr_assert_neq(pid, -1);
		if (pid == 0)
			_exit(take_child());
		int status = 0;
		cr_assert_eq(wait_child(pid, &status), pid);
		if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) && failed++ == 0)
			describe(status, first, sizeof first);
	}
	atomic_store(&take.stop, 1);
	for (int i = 0; i < STORM_PRODUCERS; i++)
		pthread_join(p[i], NULL);
	atomic_store(&take.spin_stop, 1);
	for (int i = 0; i < TAKE_SPINNERS; i++)
		pthread_join(spin[i], NULL);
	rcu_barrier();
	struct rcu_stats st;
	rcu_get_stats(&st);
	cr_log_info("%s: %ld forks while the worker ran %llu grace periods for %llu callbacks", TEST_FLAVOUR, forks,
		(unsigned long long)st.grace_periods, (unsigned long long)st.callbacks_invoked);
	cr_assert_eq(failed, 0, "%ld of %ld children lost callbacks queued before the fork; the first: %s", failed,
		forks, first);
	cr_assert_eq(atomic_load(&take.skipped) + atomic_load(&take.wrong), 0, "parent: a callback was lost or ran twice");
	cr_assert_eq(atomic_load(&take.ran[0]), atomic_load(&take.done[0]));
	cr_assert_eq(atomic_load(&take.ran[1]), atomic_load(&take.done[1]));
	cr_assert_eq(check_stats(), 0);
}

/* ---- callbacks queued behind an unfinished call_rcu() ---------------------------------------------
 * Thread A (registered, or not in the second test) queues callbacks in a loop. The test thread
 * freezes A with a signal (its handler sleeps until thawed), sometimes in the middle of a
 * call_rcu() (A publishes which call it is in). The test thread then queues callback X, and
 * call_rcu(X) returns; then it forks. Only A's unfinished call may be lost in the child: X must
 * run there. (An enqueue is two steps, swap the tail and then link the old tail; a child that
 * drops what follows an unlinked node loses X.) A stays under the high-water mark (a ring of
 * heads, each reused once its callback has run), so it never helps and holds no lock while frozen.
 * Trials in which A was frozen inside call_rcu() through the fork are the ones that can lose X;
 * the log line counts them.
 */
#define RING 2048

static struct {
	struct rcu_head heads[RING];
	_Atomic int busy[RING];
	_Atomic long cur, done; /* A: the call_rcu() it is in (cur != done) or last finished */
	_Atomic int frozen, thaw, stop;
	_Atomic int frozen_in_call;
	_Atomic long freezes; /* handler entries: the test thread waits for the next one */
} frz;

static void ring_cb(struct rcu_head *h)
{
	atomic_store_explicit(&frz.busy[h - frz.heads], 0, memory_order_release);
}

/* Sleep until thawed, or FREEZE_MAX_MS at most: a fork() that waits for unfinished enqueues
 * (one way to keep X) then waits a while, and does not deadlock with the test. */
#define FREEZE_MAX_MS 10

static void freeze_handler(int sig)
{
	(void)sig;
	struct timespec now, end;
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_nsec += FREEZE_MAX_MS * 1000000L;
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	atomic_store(&frz.frozen_in_call, atomic_load(&frz.cur) != atomic_load(&frz.done));
	atomic_store(&frz.frozen, 1);
	atomic_fetch_add(&frz.freezes, 1);
	while (!atomic_load(&frz.thaw)) {
		struct timespec ts = { 0, 100000 };
		nanosleep(&ts, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec))
			break;
	}
	atomic_store(&frz.frozen, 0);
}

static void *ring_producer(void *arg)
{
	bool registered = arg != NULL;
	if (registered)
		rcu_register_thread();
	for (long i = 1; !atomic_load_explicit(&frz.stop, memory_order_relaxed); i++) {
		long slot = i % RING;
		while (atomic_load_explicit(&frz.busy[slot], memory_order_acquire)) {
			rcu_quiescent_state();
			sched_yield();
			if (atomic_load_explicit(&frz.stop, memory_order_relaxed))
				goto out;
		}
		atomic_store_explicit(&frz.busy[slot], 1, memory_order_relaxed);
		atomic_store_explicit(&frz.cur, i, memory_order_relaxed);
		atomic_signal_fence(memory_order_seq_cst);
		call_rcu(&frz.heads[slot], ring_cb);
		atomic_signal_fence(memory_order_seq_cst);
		atomic_store_explicit(&frz.done, i, memory_order_relaxed);
		rcu_quiescent_state();
	}
out:
	if (registered)
		rcu_unregister_thread();
	return NULL;
}

/*
 * A reader that holds a section from before call_rcu(X) until after the fork, so that X cannot
 * be running in the parent when fork() copies its memory: a callback that the worker is running
 * at that instant is not run again in the child (its thread is not there; the child keeps what it
 * had done), which is no loss of a queued callback. The gate makes X's loss in a child mean one.
 */
static struct {
	_Atomic int want_in, in, stop;
} gate;

static void *gate_reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	while (!atomic_load(&gate.stop)) {
		if (atomic_load(&gate.want_in)) {
			rcu_read_lock();
			atomic_store(&gate.in, 1);
			while (atomic_load(&gate.want_in))
				sched_yield();
			rcu_read_unlock();
			atomic_store(&gate.in, 0);
		}
		rcu_quiescent_state();
		test_sleep_us(20);
	}
	rcu_unregister_thread();
	return NULL;
}

static int lost_child(long x)
{
	test_child_alarm(CHILD_ALARM_S);
	rcu_barrier();
	if (atomic_load(&counts[x]) != 1)
		return atomic_load(&counts[x]) ? E_TWICE : E_LOST;
	return 0;
}

static void lost_run(bool registered)
{
	long trials = test_rounds(400);
	objs_alloc(trials);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = freeze_handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	cr_assert_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	rcu_barrier(); /* set-up and worker start are over before the first fork (as above) */
	pthread_t a, g;
	atomic_store(&gate.stop, 0);
	cr_assert_eq(pthread_create(&g, NULL, gate_reader, NULL), 0);
	cr_assert_eq(pthread_create(&a, NULL, ring_producer, registered ? (void *)&frz : NULL), 0);
	for (unsigned i = 0; atomic_load(&frz.done) < 100; i++)
		sched_yield();
	long in_call = 0, in_call_through = 0, failed = 0, failed_in_call = 0;
	char first[200] = "";
	for (long t = 0; t < trials; t++) {
		test_sleep_us(200 + (unsigned)(t % 7) * 50);
		atomic_store(&frz.thaw, 0);
		long f0 = atomic_load(&frz.freezes);
		cr_assert_eq(pthread_kill(a, SIGUSR1), 0);
		uint64_t deadline = test_now_ns() + (uint64_t)TEST_LIVENESS_MS * 1000000u;
		while (atomic_load(&frz.freezes) == f0 && test_now_ns() < deadline)
			sched_yield();
		cr_assert_neq(atomic_load(&frz.freezes), f0, "the producer never took its signal");
		bool inside = atomic_load(&frz.frozen_in_call) && atomic_load(&frz.frozen);
		in_call += inside;
		atomic_store(&gate.want_in, 1);
		while (!atomic_load(&gate.in))
			sched_yield();
		call_rcu(&objs[t].head, count_cb);
		fflush(NULL);
		pid_t pid = fork();
		cr_assert_neq(pid, -1);
		if (pid == 0)
			_exit(lost_child(t));
		atomic_store(&gate.want_in, 0);
		bool through = inside && atomic_load(&frz.frozen);
		in_call_through += through;
		int status = 0;
		pid_t w = wait_child(pid, &status);
		atomic_store(&frz.thaw, 1);
		for (unsigned i = 0; atomic_load(&frz.frozen); i++)
			sched_yield();
		cr_assert_eq(w, pid);
		if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
			failed_in_call += inside;
			if (failed++ == 0)
				describe(status, first, sizeof first);
		}
	}
	atomic_store(&frz.stop, 1);
	pthread_join(a, NULL);
	atomic_store(&gate.stop, 1);
	pthread_join(g, NULL);
	rcu_barrier();
	cr_log_info("%s: %s producer: %ld forks, %ld with it frozen inside call_rcu() (%ld through the fork); %ld "
		    "children lost a callback (%ld of them in those)",
		TEST_FLAVOUR, registered ? "registered" : "unregistered", trials, in_call, in_call_through, failed,
		failed_in_call);
	cr_assert_eq(failed, 0,
		"%ld of %ld children (%ld forked while another thread was inside call_rcu()) lost a callback whose "
		"call_rcu() had returned before fork(); the first: %s",
		failed, trials, failed_in_call, first);
	cr_assert_eq(check_counts(0, trials, 1), 0, "parent: a callback did not run exactly once");
	objs_free();
}

Test(fork, fork_keeps_callbacks_queued_behind_an_unfinished_call_rcu, .timeout = 60)
{
	SKIP_UNDER_TSAN();
	lost_run(true);
}

/* The same with A unregistered: call_rcu() may be called from any thread (BP registers A). */
Test(fork, fork_keeps_callbacks_queued_behind_an_unregistered_threads_call_rcu, .timeout = 60)
{
	SKIP_UNDER_TSAN();
	lost_run(false);
}

/* ---- fork during RCU's one-time set-up ---------------------------------------------------------
 * The first rcu_register_thread() of the process (on thread T) sets RCU up: in MEMB and BP that
 * includes membarrier registration, which can take milliseconds. The test thread, which has not
 * used RCU, forks children meanwhile. Each child must find RCU usable: call_rcu(), rcu_barrier()
 * and synchronize_rcu() return and the callback runs. The children run side by side (each under
 * its alarm) and are waited for at the end.
 */
#define SETUP_FORKS 16

static _Atomic int setup_registered;

static void *setup_thread(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock(); /* BP: the first section registers */
	rcu_read_unlock();
	atomic_store(&setup_registered, 1);
	rcu_quiescent_state();
	rcu_unregister_thread();
	return NULL;
}

static _Atomic int setup_cb_ran;

static void setup_cb(struct rcu_head *h)
{
	(void)h;
	atomic_store(&setup_cb_ran, 1);
}

static int setup_child(void)
{
	test_child_alarm(CHILD_ALARM_S);
	struct rcu_head h;
	call_rcu(&h, setup_cb);
	rcu_barrier();
	synchronize_rcu();
	if (!atomic_load(&setup_cb_ran))
		return E_GP_LATE;
	return check_stats();
}

Test(fork, fork_during_the_first_registration, .timeout = 60)
{
	SKIP_UNDER_TSAN();
#if defined(TEST_ASAN)
	/* The forks race T's start, whose ASan bookkeeping allocates: gcc 12's ASan allocator is not
	 * fork-safe, so a child may inherit its lock and hang there, which says nothing about RCU. */
	cr_skip_test("forks during a thread's start: ASan's allocator is not fork-safe");
#endif
	struct rcu_stats st;
	rcu_get_stats(&st);
	cr_assert_eq(st.grace_periods + st.callbacks_queued, 0, "this test needs a process of its own");
	pid_t pids[SETUP_FORKS];
	int n = 0, during = 0;
	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, setup_thread, NULL), 0);
	/* Fork as often as possible while T is inside its first registration, then once after. */
	while (n < SETUP_FORKS - 1) {
		bool registered = atomic_load(&setup_registered);
		fflush(NULL);
		pid_t pid = fork();
		cr_assert_neq(pid, -1);
		if (pid == 0)
			_exit(setup_child());
		pids[n++] = pid;
		during += !registered;
		if (registered)
			break;
	}
	pthread_join(t, NULL);
	int failed = 0;
	char first[200] = "";
	for (int i = 0; i < n; i++) {
		int status = 0;
		cr_assert_eq(wait_child(pids[i], &status), pids[i]);
		if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) && failed++ == 0)
			describe(status, first, sizeof first);
	}
	cr_log_info("%s: %d forks, %d of them before the first rcu_register_thread() returned", TEST_FLAVOUR, n,
		during);
	cr_assert_eq(failed, 0, "%d of %d children forked during (or just after) RCU's set-up failed; the first: %s",
		failed, n, first);
}

/* ---- fork() catches one call_rcu() before its swap and another before its link --------------------
 * An enqueue records its head and its predecessor in the thread's reader record, then swaps the
 * head into the queue's tail, then links the predecessor to it; a child forked in between must
 * tell a head that is in the queue (its link is mended) from one that is not (it is not run), and
 * put each mended head behind its own predecessor. rcu.h's test hooks stop the threads at those
 * two points, so the interleaving happens every run:
 *   1. A reader R holds a section; the test thread queues W, and the worker takes it as a batch
 *      and waits for R. The queue is now empty and stays so until the worker's next take.
 *   2. The test thread queues X. B queues its head and stops after its swap, before linking X
 *      to it. The test thread queues Y (behind B's head). R leaves; the worker invokes W, takes
 *      X..Y as its next batch (X's link to B's head missing) and stops at that gap.
 *   3. A queues A1 (into the emptied queue), then stops in its call_rcu(A2) before its swap.
 *   4. fork(). In the child X, Y and A1, whose call_rcu() returned, run once each, X before Y;
 *      B's head runs (it was in the queue); A2 runs after A1 if at all.
 * With an exchange for the swap and the predecessor recorded after it, the child could not tell
 * A2 (not queued) from a head swapped in but not yet recorded: it linked A2 behind the first gap
 * it found (X's), ran A2 before A1 and lost B's head and Y. (fork_while_the_worker_takes_batches
 * failed so, now and then, under musl: "callbacks of one thread ran out of order".)
 */
enum { HK_W, HK_X, HK_Y, HK_B, HK_C, HK_A1, HK_A2, HK_N };

static struct {
	struct hk_obj {
		struct rcu_head head;
		int id;
	} obj[HK_N];
	_Atomic int ran[HK_N];  /* times run */
	_Atomic int order[HK_N]; /* position in the run order, from 1 */
	_Atomic int runs;
	_Atomic long taken;                 /* batches taken (RCU__TP_BATCH_TAKEN) */
	_Atomic int b_stopped, c_stopped, a_stopped, r_inside, release;
} hk;

/* This thread stops once at this point (-1: never), and sets *hk_stopped while stopped. */
static _Thread_local int hk_stop_at = -1;
static _Thread_local _Atomic int *hk_stopped;

void rcu__test_hook(enum rcu__test_point point)
{
	if (point == RCU__TP_BATCH_TAKEN)
		atomic_fetch_add(&hk.taken, 1);
	if ((int)point != hk_stop_at)
		return;
	hk_stop_at = -1;
	atomic_store(hk_stopped, 1);
	while (!atomic_load(&hk.release))
		test_sleep_us(200);
}

static void hk_cb(struct rcu_head *h)
{
	int id = rcu_container_of(h, struct hk_obj, head)->id;
	atomic_fetch_add(&hk.ran[id], 1);
	atomic_store(&hk.order[id], atomic_fetch_add(&hk.runs, 1) + 1);
}

static void hk_queue(int id)
{
	hk.obj[id].id = id;
	call_rcu(&hk.obj[id].head, hk_cb);
}

static void hk_wait(_Atomic int *flag)
{
	while (!atomic_load(flag))
		sleep_ms(1);
}

static void hk_wait_taken(long n)
{
	while (atomic_load(&hk.taken) < n)
		sleep_ms(1);
}

/* fork(); the child exits with child()'s code; the parent waits, then lets the stopped threads go.
 * Returns the child's wait status. */
static int hk_fork_then_release(int (*child)(void))
{
	fflush(NULL);
	pid_t pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0)
		_exit(child());
	int status = 0;
	cr_assert_eq(wait_child(pid, &status), pid);
	atomic_store(&hk.release, 1);
	return status;
}

static void *hk_reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	atomic_store(&hk.r_inside, 1);
	while (atomic_load(&hk.r_inside) == 1)
		test_sleep_us(200); /* QSBR too: no quiescent state while inside */
	rcu_read_unlock();
	rcu_unregister_thread();
	return NULL;
}

static void *hk_b(void *arg)
{
	(void)arg;
	rcu_register_thread();
	hk_stopped = &hk.b_stopped;
	hk_stop_at = RCU__TP_ENQ_BEFORE_LINK;
	hk_queue(HK_B);
	rcu_unregister_thread();
	return NULL;
}

static void *hk_a(void *arg)
{
	(void)arg;
	rcu_register_thread();
	hk_queue(HK_A1);
	hk_stopped = &hk.a_stopped;
	hk_stop_at = RCU__TP_ENQ_BEFORE_SWAP;
	hk_queue(HK_A2);
	rcu_unregister_thread();
	return NULL;
}

static int hk_child(void)
{
	test_child_alarm(CHILD_ALARM_S);
	int before = atomic_load(&hk.runs);
	rcu_barrier();
	for (int id = HK_X; id < HK_N; id++) {
		if (id == HK_C)
			continue;
		int want_min = id == HK_A2 ? 0 : 1;
		if (atomic_load(&hk.ran[id]) > 1)
			return E_TWICE;
		if (atomic_load(&hk.ran[id]) < want_min)
			return E_LOST;
	}
	if (before != 1) /* only W ran before the fork (X waits at B's gap) */
		return E_RAN_EARLY;
	if (atomic_load(&hk.order[HK_X]) > atomic_load(&hk.order[HK_Y]) ||
	    atomic_load(&hk.order[HK_B]) > atomic_load(&hk.order[HK_Y]) ||
	    (atomic_load(&hk.ran[HK_A2]) && atomic_load(&hk.order[HK_A2]) < atomic_load(&hk.order[HK_A1])))
		return E_ORDER;
	return check_stats();
}

Test(fork, fork_catches_one_call_rcu_before_its_swap_and_one_before_its_link, .timeout = 60)
{
	SKIP_UNDER_TSAN();
	rcu_barrier();
	pthread_t r, a, b;
	/* 1. W taken alone; the worker waits for R. */
	cr_assert_eq(pthread_create(&r, NULL, hk_reader, NULL), 0);
	hk_wait(&hk.r_inside);
	long taken = atomic_load(&hk.taken);
	hk_queue(HK_W);
	hk_wait_taken(taken + 1);
	/* 2. X, then B stopped between swap and link, then Y; R leaves, the worker takes X..Y. */
	hk_queue(HK_X);
	cr_assert_eq(pthread_create(&b, NULL, hk_b, NULL), 0);
	hk_wait(&hk.b_stopped);
	hk_queue(HK_Y);
	atomic_store(&hk.r_inside, 2);
	hk_wait_taken(taken + 2);
	/* 3. A1 queued whole, A stopped in call_rcu(A2) before its swap. */
	cr_assert_eq(pthread_create(&a, NULL, hk_a, NULL), 0);
	hk_wait(&hk.a_stopped);
	cr_assert_eq(atomic_load(&hk.runs), 1, "only W has run before the fork");
	/* 4. fork() */
	int status = hk_fork_then_release(hk_child);
	char why[200] = "";
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	pthread_join(r, NULL);
	rcu_barrier();
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child: %s", describe(status, why, sizeof why));
	for (int id = 0; id < HK_N; id++)
		cr_assert_eq(atomic_load(&hk.ran[id]), id != HK_C, "parent: callback %d ran %d times", id,
			atomic_load(&hk.ran[id]));
	cr_assert_eq(check_stats(), 0);
}

/* ---- fork() catches a call_rcu() whose recorded predecessor another thread swapped behind ---------
 * A records the tail T as its predecessor and stops before its swap; B then swaps its head in
 * behind T and stops before its link, and C swaps its head in behind B's and stops before its
 * link; Y is queued behind C's head. A's record names T, and T's link is missing, just as for B:
 * a child that linked A's head behind T would run a callback that was never queued and lose B's,
 * C's and Y. It must see that A's swap never happened (its head is not the tail, not a batch's
 * last, has no successor, and no thread swapped behind it), that B's did (C swapped behind it;
 * nothing else says so, as B's head is neither tail nor linked), and mend both links. Twice,
 * with the threads in two orders in the registry.
 */
static struct {
	_Atomic int b_registered, c_registered, go_b, go_c;
} stale;

static void hk_register(void)
{
	rcu_register_thread();
	rcu_read_lock(); /* BP: a thread enters the registry at its first section */
	rcu_read_unlock();
}

static void *stale_a(void *arg)
{
	(void)arg;
	hk_register();
	hk_stopped = &hk.a_stopped;
	hk_stop_at = RCU__TP_ENQ_BEFORE_SWAP;
	hk_queue(HK_A2);
	rcu_unregister_thread();
	return NULL;
}

/* B, then C, each swaps its head in and stops before its link. */
static void *stale_bc(void *arg)
{
	bool is_b = arg != NULL;
	hk_register();
	atomic_store(is_b ? &stale.b_registered : &stale.c_registered, 1);
	while (!atomic_load(is_b ? &stale.go_b : &stale.go_c))
		test_sleep_us(200);
	hk_stopped = is_b ? &hk.b_stopped : &hk.c_stopped;
	hk_stop_at = RCU__TP_ENQ_BEFORE_LINK;
	hk_queue(is_b ? HK_B : HK_C);
	rcu_unregister_thread();
	return NULL;
}

static int stale_child(void)
{
	test_child_alarm(CHILD_ALARM_S);
	rcu_barrier();
	if (atomic_load(&hk.ran[HK_A2]))
		return E_NOT_QUEUED;
	if (atomic_load(&hk.ran[HK_B]) != 1 || atomic_load(&hk.ran[HK_C]) != 1 || atomic_load(&hk.ran[HK_Y]) != 1)
		return E_LOST;
	if (atomic_load(&hk.order[HK_B]) > atomic_load(&hk.order[HK_C]) ||
	    atomic_load(&hk.order[HK_C]) > atomic_load(&hk.order[HK_Y]))
		return E_ORDER;
	return check_stats();
}

Test(fork, fork_tells_a_recorded_predecessor_from_a_swapped_one, .timeout = 60)
{
	SKIP_UNDER_TSAN();
	/* The registry lists the last registered first: the child meets A's record first in round 0
	 * and B's before C's in round 1, where only C's record says that B's swap happened. */
	static const char *const rounds[2] = { "BCA", "ACB" };
	for (int round = 0; round < 2; round++) {
		rcu_barrier();
		memset(&hk, 0, sizeof hk);
		memset(&stale, 0, sizeof stale);
		pthread_t a, b, c;
		for (const char *t = rounds[round]; *t; t++) {
			if (*t == 'A') {
				cr_assert_eq(pthread_create(&a, NULL, stale_a, NULL), 0);
				hk_wait(&hk.a_stopped);
			} else if (*t == 'B') {
				cr_assert_eq(pthread_create(&b, NULL, stale_bc, &stale), 0);
				hk_wait(&stale.b_registered);
			} else {
				cr_assert_eq(pthread_create(&c, NULL, stale_bc, NULL), 0);
				hk_wait(&stale.c_registered);
			}
		}
		atomic_store(&stale.go_b, 1);
		hk_wait(&hk.b_stopped);
		atomic_store(&stale.go_c, 1);
		hk_wait(&hk.c_stopped);
		hk_queue(HK_Y);
		int status = hk_fork_then_release(stale_child);
		char why[200] = "";
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		pthread_join(c, NULL);
		rcu_barrier();
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child (registered in the order %s): %s",
			rounds[round], describe(status, why, sizeof why));
		cr_assert(atomic_load(&hk.ran[HK_A2]) == 1 && atomic_load(&hk.ran[HK_B]) == 1 &&
			atomic_load(&hk.ran[HK_C]) == 1 && atomic_load(&hk.ran[HK_Y]) == 1,
			"parent: A2, B, C and Y must each run once");
	}
	cr_assert_eq(check_stats(), 0);
}
