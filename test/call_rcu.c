/* SPDX-License-Identifier: 0BSD */
/*
 * test/call_rcu.c: deferred reclamation. call_rcu() runs its callback after a full grace period;
 * rcu_barrier() waits for every callback queued before it, by any thread; rcu_free() hands the
 * object to RCU_FREE(); the worker "rcu-callbacks" takes whole batches (one grace period each,
 * per-thread order kept) with every signal blocked; past RCU_CALLBACK_HIGH_WATER a call_rcu()
 * caller outside a section helps, so pending callbacks stay under the bound rcu.h's >>callbacks
 * section states; rcu_get_stats() counts all of it.
 *
 * RCU_FREE is this file's own hook (below): it records every pointer it is given and then frees
 * it, so the tests check that rcu_free() passes the start of the object, exactly once, and ASan
 * (scripts/test.sh --asan) checks the rest.
 *
 * Criterion runs every test in a process of its own, so the process-wide counters of
 * rcu_get_stats() (callbacks_pending_max above all) start from zero in each test; the tests that
 * rely on that assert it first. Worker threads never assert: they count what they saw, and the
 * test thread asserts on the counts. "Must return" checks are liveness bounds (TEST_LIVENESS_MS or the
 * test's .timeout), never timings.
 *
 * rcu.h's test hooks (RCU__TEST_HOOKS) stop the worker at a named point of a batch's take, so
 * that one interleaving happens every run (the last test; rcu__test_hook() is defined there).
 */
#define RCU__TEST_HOOKS
#include <stddef.h>
static void test_free(void *p);
#define RCU_FREE(p) test_free(p)
#include "rcu.h"
#include "harness.h"

#include <sched.h>
#include <stdbool.h>
#include <sys/syscall.h>

#define HW RCU_CALLBACK_HIGH_WATER

/* ---- helpers ------------------------------------------------------------------------------ */

static long gettid_(void)
{
	return (long)syscall(SYS_gettid);
}

/* Spin (yielding: 2 cores) until *v == want, or limit_ms passes. */
static bool wait_value(_Atomic long *v, long want, long limit_ms)
{
	uint64_t end = test_now_ns() + (uint64_t)limit_ms * 1000000u;
	for (unsigned i = 0; atomic_load_explicit(v, memory_order_acquire) != want; i++) {
		if (i % 64 == 0 && test_now_ns() > end)
			return false;
		sched_yield();
	}
	return true;
}

static struct rcu_stats stats_now(void)
{
	struct rcu_stats st;
	rcu_get_stats(&st);
	return st;
}

/* A callback object with a number and the number of the thread that queued it. */
struct cb_obj {
	struct rcu_head head;
	uint32_t idx;
	uint32_t thread;
};

/* Per-object invocation counters, shared by the tests that count. */
static _Atomic uint32_t *counts;

static void count_cb(struct rcu_head *h)
{
	struct cb_obj *o = rcu_container_of(h, struct cb_obj, head);
	atomic_fetch_add_explicit(&counts[o->idx], 1, memory_order_relaxed);
}

static struct cb_obj *objs_alloc(long n)
{
	struct cb_obj *o = calloc((size_t)n, sizeof *o);
	counts = calloc((size_t)n, sizeof *counts);
	cr_assert(o && counts);
	for (long i = 0; i < n; i++)
		o[i].idx = (uint32_t)i;
	return o;
}

/* How many of counts[from, to) are not exactly 1; the first such index in *first. */
static long not_once(long from, long to, long *first)
{
	long bad = 0;
	for (long i = from; i < to; i++) {
		if (atomic_load_explicit(&counts[i], memory_order_relaxed) != 1) {
			if (bad++ == 0 && first)
				*first = i;
		}
	}
	return bad;
}

/* ---- RCU_FREE: record, then free --------------------------------------------------------------- */

static struct {
	pthread_mutex_t lock;
	void **seen;
	long n, cap;
	long overflow;
} freed = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void test_free(void *p)
{
	pthread_mutex_lock(&freed.lock);
	if (freed.n < freed.cap)
		freed.seen[freed.n++] = p;
	else
		freed.overflow++;
	pthread_mutex_unlock(&freed.lock);
	free(p);
}

static long freed_count(void)
{
	pthread_mutex_lock(&freed.lock);
	long n = freed.n + freed.overflow;
	pthread_mutex_unlock(&freed.lock);
	return n;
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (void *const *)a, y = (uintptr_t) * (void *const *)b;
	return x < y ? -1 : x > y;
}

/* ---- the grace-period guarantee -------------------------------------------------------------
 * A reader enters its section; then another thread calls call_rcu(); the callback sets a flag.
 * The reader watches the flag for a random while (up to a millisecond: the worker wakes within
 * microseconds), then leaves. The flag must stay unset while it is inside, and rcu_barrier()
 * must find it set once the reader is out.
 */
static struct {
	long rounds;
	_Atomic long round, entered, queued, left;
	_Atomic long flag;  /* the round whose callback ran */
	_Atomic long early; /* rounds in which the reader saw its callback run while it was inside */
	struct rcu_head head;
} pre;

static void pre_cb(struct rcu_head *h)
{
	(void)h;
	atomic_store_explicit(&pre.flag, atomic_load_explicit(&pre.round, memory_order_relaxed), memory_order_release);
}

static void *pre_reader(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	rcu_register_thread();
	for (long r = 1; r <= pre.rounds; r++) {
		test_block_begin();
		wait_value(&pre.round, r, TEST_LIVENESS_MS);
		test_block_end();
		rcu_read_lock();
		atomic_store_explicit(&pre.entered, r, memory_order_release);
		/* Inside: wait for the call_rcu() of this round (the updater waits for no grace period). */
		wait_value(&pre.queued, r, TEST_LIVENESS_MS);
		bool seen = false;
		uint64_t end = test_now_ns() + test_rand(&seed) % 1000000u;
		do {
			if (atomic_load_explicit(&pre.flag, memory_order_acquire) == r)
				seen = true;
			test_widen(&seed, 200);
		} while (test_now_ns() < end);
		if (atomic_load_explicit(&pre.flag, memory_order_acquire) == r)
			seen = true;
		rcu_read_unlock();
		rcu_quiescent_state();
		if (seen)
			atomic_fetch_add(&pre.early, 1);
		atomic_store_explicit(&pre.left, r, memory_order_release);
	}
	rcu_unregister_thread();
	return NULL;
}

Test(call_rcu, callback_waits_for_pre_existing_reader, .timeout = 60)
{
	pre.rounds = test_rounds(200);
	long late = 0, hung = 0;
	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, pre_reader, (void *)(uintptr_t)0x5eed), 0);
	for (long r = 1; r <= pre.rounds && !hung; r++) {
		atomic_store_explicit(&pre.round, r, memory_order_release);
		if (!wait_value(&pre.entered, r, TEST_LIVENESS_MS)) {
			hung++;
			break;
		}
		call_rcu(&pre.head, pre_cb);
		atomic_store_explicit(&pre.queued, r, memory_order_release);
		if (!wait_value(&pre.left, r, TEST_LIVENESS_MS)) {
			hung++;
			break;
		}
		rcu_barrier(); /* also: the head may be queued again only once its callback has begun */
		if (atomic_load_explicit(&pre.flag, memory_order_acquire) != r)
			late++;
	}
	pthread_join(t, NULL);
	cr_assert_eq(hung, 0, "a handshake with the reader timed out");
	cr_assert_eq(atomic_load(&pre.early), 0,
		"in %ld of %ld rounds the callback ran while a reader that entered before call_rcu() was inside",
		atomic_load(&pre.early), pre.rounds);
	cr_assert_eq(late, 0, "in %ld rounds rcu_barrier() returned before the callback had run", late);
}

/* ---- rcu_barrier() and callbacks of several threads --------------------------------------------
 * 10^6 callbacks from 4 threads (two queue outside sections, two in runs of 100 inside sections),
 * then one rcu_barrier(): each callback invoked exactly once.
 */
#define MANY_THREADS 4

static struct {
	struct cb_obj *objs;
	long per;
} many;

static void *many_producer(void *arg)
{
	long t = (long)(uintptr_t)arg;
	rcu_register_thread();
	for (long i = t * many.per; i < (t + 1) * many.per; i++) {
		bool inside = t >= 2 && i % 200 < 100;
		if (inside)
			rcu_read_lock();
		call_rcu(&many.objs[i].head, count_cb);
		if (inside)
			rcu_read_unlock();
		rcu_quiescent_state();
	}
	rcu_unregister_thread();
	return NULL;
}

Test(call_rcu, barrier_waits_for_callbacks_of_every_thread, .timeout = 120)
{
	long total = test_rounds(1000000);
	many.per = total / MANY_THREADS;
	total = many.per * MANY_THREADS;
	many.objs = objs_alloc(total);
	struct rcu_stats s0 = stats_now();
	uint64_t t0 = test_now_ns();
	pthread_t t[MANY_THREADS];
	for (long i = 0; i < MANY_THREADS; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, many_producer, (void *)(uintptr_t)i), 0);
	for (int i = 0; i < MANY_THREADS; i++)
		pthread_join(t[i], NULL);
	rcu_barrier();
	uint64_t ns = test_now_ns() - t0;
	struct rcu_stats s1 = stats_now();
	long first = -1, bad = not_once(0, total, &first);
	cr_assert_eq(bad, 0, "%ld of %ld callbacks not invoked exactly once after rcu_barrier() (first: #%ld, %u times)",
		bad, total, first, first >= 0 ? atomic_load(&counts[first]) : 0);
	cr_assert_eq(s1.callbacks_queued - s0.callbacks_queued, (uint64_t)total);
	cr_assert_eq(s1.callbacks_invoked - s0.callbacks_invoked, (uint64_t)total);
	cr_assert_eq(s1.callbacks_pending, 0);
	uint64_t gps = s1.grace_periods - s0.grace_periods;
	cr_log_info("%s: %ld callbacks from %d threads + rcu_barrier(): %.2f M callbacks/s, %llu grace periods "
		    "(%.0f per 10^6 callbacks), pending max %llu",
		TEST_FLAVOUR, total, MANY_THREADS, total / (ns / 1e9) / 1e6, (unsigned long long)gps,
		gps * 1e6 / total, (unsigned long long)s1.callbacks_pending_max);
	free(many.objs);
	free(counts);
}

/*
 * rcu_barrier() covers callbacks that another thread queued before it, also while they wait for
 * a grace period: a reader holds its section, a thread queues callbacks and ends, a third thread
 * calls rcu_barrier(). It must not return while the reader is inside; when it returns, every
 * callback has run (it counts them itself, at once).
 */
#define HELD_CBS 1000

static struct {
	struct cb_obj *objs;
	_Atomic int calling, returned;
	long seen_once; /* written by the barrier thread before `returned` */
} held;

static void *held_producer(void *arg)
{
	(void)arg;
	rcu_register_thread();
	for (long i = 0; i < HELD_CBS; i++) {
		call_rcu(&held.objs[i].head, count_cb);
		rcu_quiescent_state();
	}
	rcu_unregister_thread();
	return NULL;
}

static void *held_barrier(void *arg)
{
	(void)arg;
	atomic_store(&held.calling, 1);
	rcu_barrier();
	held.seen_once = HELD_CBS - not_once(0, HELD_CBS, NULL);
	atomic_store_explicit(&held.returned, 1, memory_order_release);
	return NULL;
}

/*
 * And while a thread keeps queueing: each rcu_barrier() of the test thread covers every callback
 * whose call_rcu() had returned (as the producer published) before the barrier began.
 */
static struct {
	struct cb_obj *objs;
	long n;
	_Atomic long done; /* call_rcu() calls that have returned */
} stream;

static void *stream_producer(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	rcu_register_thread();
	for (long i = 0; i < stream.n; i++) {
		call_rcu(&stream.objs[i].head, count_cb);
		atomic_store_explicit(&stream.done, i + 1, memory_order_release);
		rcu_quiescent_state();
		if (test_rand(&seed) % 1024 == 0)
			sched_yield();
	}
	rcu_unregister_thread();
	return NULL;
}

Test(call_rcu, barrier_covers_callbacks_queued_before_it, .timeout = 60)
{
	/* Part 1: callbacks held back by a reader. */
	held.objs = objs_alloc(HELD_CBS);
	pthread_t h, p, b;
	cr_assert(test_holder_start(&h));
	cr_assert_eq(pthread_create(&p, NULL, held_producer, NULL), 0);
	pthread_join(p, NULL);
	cr_assert_eq(pthread_create(&b, NULL, held_barrier, NULL), 0);
	cr_assert(test_wait_flag(&held.calling, TEST_LIVENESS_MS));
	test_sleep_us(30 * 1000);
	bool early = atomic_load(&held.returned);
	long ran = HELD_CBS - not_once(0, HELD_CBS, NULL);
	test_holder_stop(h);
	pthread_join(b, NULL);
	cr_assert(!early, "rcu_barrier() returned while its callbacks waited for a reader's section");
	cr_assert_eq(ran, 0, "%ld callbacks ran while a reader that entered before they were queued was inside", ran);
	cr_assert_eq(held.seen_once, HELD_CBS, "rcu_barrier() returned with %ld of %d earlier callbacks invoked",
		held.seen_once, HELD_CBS);
	free(held.objs);
	free(counts);

	/* Part 2: a producer that keeps queueing while the test thread calls rcu_barrier(). */
	stream.n = test_rounds(200000);
	stream.objs = objs_alloc(stream.n);
	pthread_t r;
	atomic_store(&test_busy_stop, 0);
	cr_assert_eq(pthread_create(&r, NULL, test_busy_reader, (void *)(uintptr_t)77), 0);
	cr_assert_eq(pthread_create(&p, NULL, stream_producer, (void *)(uintptr_t)99), 0);
	long checked = 0, barriers = 0, bad = 0, first = -1;
	for (;;) {
		long d = atomic_load_explicit(&stream.done, memory_order_acquire);
		rcu_barrier();
		barriers++;
		bad += not_once(checked, d, &first);
		checked = d;
		if (d == stream.n)
			break;
	}
	pthread_join(p, NULL);
	atomic_store(&test_busy_stop, 1);
	pthread_join(r, NULL);
	cr_log_info("%s: %ld barriers while %ld callbacks were queued", TEST_FLAVOUR, barriers, stream.n);
	cr_assert_eq(bad, 0, "%ld callbacks queued before an rcu_barrier() had not run once when it returned (first #%ld)",
		bad, first);
	cr_assert_eq(not_once(0, stream.n, NULL), 0);
	free(stream.objs);
	free(counts);
}

/* ---- callbacks that queue callbacks ------------------------------------------------------------
 * A chain: each callback queues its own head again, N times. rcu_barrier() waits only for what
 * was queued before it, so the test loops on it until the chain is done (bounded: each barrier
 * runs at least the link pending when it began).
 */
static struct {
	long depth;
	_Atomic long done;
	struct rcu_head head;
} chain;

static void chain_cb(struct rcu_head *h)
{
	long n = atomic_fetch_add_explicit(&chain.done, 1, memory_order_relaxed) + 1;
	if (n < chain.depth)
		call_rcu(h, chain_cb);
}

/* A fan-out: one callback queues 3 * HW callbacks. Callbacks never help (the worker would wait
 * for itself), so the pending count passes the mark and nothing deadlocks. */
#define FAN (3 * HW)
static struct cb_obj *fan_objs;

static void fan_cb(struct rcu_head *h)
{
	(void)h;
	for (long i = 0; i < FAN; i++)
		call_rcu(&fan_objs[i].head, count_cb);
}

/* A callback that waits for a grace period and reads inside a section. */
static _Atomic int sync_cb_done;
static int *_Atomic sync_cb_ptr;

static void sync_cb(struct rcu_head *h)
{
	(void)h;
	synchronize_rcu();
	rcu_read_lock();
	int *p = rcu_dereference(sync_cb_ptr);
	int v = p ? *p : -1;
	rcu_read_unlock();
	atomic_store(&sync_cb_done, v);
}

Test(call_rcu, callbacks_queue_callbacks, .timeout = 60)
{
	pthread_t r;
	atomic_store(&test_busy_stop, 0);
	cr_assert_eq(pthread_create(&r, NULL, test_busy_reader, (void *)(uintptr_t)5), 0);

	chain.depth = test_rounds(1000);
	call_rcu(&chain.head, chain_cb);
	long barriers = 0;
	while (atomic_load(&chain.done) < chain.depth && barriers <= chain.depth + 10) {
		rcu_barrier();
		barriers++;
	}
	cr_assert_eq(atomic_load(&chain.done), chain.depth, "chain of %ld: %ld links ran after %ld barriers",
		chain.depth, atomic_load(&chain.done), barriers);
	rcu_barrier();
	rcu_barrier();
	cr_assert_eq(atomic_load(&chain.done), chain.depth, "the chain ran past its end");

	struct rcu_stats s0 = stats_now();
	fan_objs = objs_alloc(FAN);
	struct rcu_head fan_head;
	call_rcu(&fan_head, fan_cb);
	barriers = 0;
	while (not_once(0, FAN, NULL) != 0 && barriers < 100) {
		rcu_barrier();
		barriers++;
	}
	struct rcu_stats s1 = stats_now();
	long first = -1;
	cr_assert_eq(not_once(0, FAN, &first), 0, "fan-out of %d from a callback: #%ld ran %u times", FAN, first,
		first >= 0 ? atomic_load(&counts[first]) : 0);
	cr_assert_eq(s1.callbacks_queued - s0.callbacks_queued, (uint64_t)FAN + 1);
	cr_assert_eq(s1.callbacks_pending, 0);
	cr_assert_geq(s1.callbacks_pending_max, (uint64_t)FAN,
		"pending max %llu: callbacks queued by a callback should only wake the worker, never help",
		(unsigned long long)s1.callbacks_pending_max);
	free(fan_objs);
	free(counts);

	static int value = 42;
	rcu_assign_pointer(sync_cb_ptr, &value);
	struct rcu_head sync_head;
	call_rcu(&sync_head, sync_cb);
	rcu_barrier();
	cr_assert_eq(atomic_load(&sync_cb_done), 42, "a callback that calls synchronize_rcu() and reads did not finish");

	atomic_store(&test_busy_stop, 1);
	pthread_join(r, NULL);
}

/* ---- call_rcu() inside a section ---------------------------------------------------------------
 * A reader queues 3 * HW callbacks inside one section (past the mark: it must only wake the
 * worker, since helping would wait for its own section). None may run before it leaves: each
 * needs a grace period that began after the reader entered. QSBR included: an online thread's
 * call_rcu() never helps, so it is no quiescent state.
 */
#define INSIDE_CBS (3 * HW)

static struct {
	struct cb_obj *objs;
	long ran_inside; /* written by the reader before it ends */
	struct rcu_stats st;
} inside;

static void *inside_reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	for (long i = 0; i < INSIDE_CBS; i++)
		call_rcu(&inside.objs[i].head, count_cb);
	test_sleep_us(20 * 1000); /* the worker has had time to run anything it (wrongly) could */
	inside.ran_inside = INSIDE_CBS - not_once(0, INSIDE_CBS, NULL);
	rcu_get_stats(&inside.st);
	rcu_read_unlock();
	rcu_quiescent_state();
	rcu_unregister_thread();
	return NULL;
}

Test(call_rcu, call_rcu_inside_a_section_does_not_end_it, .timeout = 60)
{
	inside.objs = objs_alloc(INSIDE_CBS);
	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, inside_reader, NULL), 0);
	pthread_join(t, NULL);
	rcu_barrier();
	cr_assert_eq(inside.ran_inside, 0,
		"%ld of %d callbacks queued inside one section ran before the section ended (%s)", inside.ran_inside,
		INSIDE_CBS, TEST_FLAVOUR);
	cr_assert_geq(inside.st.callbacks_pending, (uint64_t)INSIDE_CBS);
	long first = -1;
	cr_assert_eq(not_once(0, INSIDE_CBS, &first), 0, "#%ld ran %u times", first,
		first >= 0 ? atomic_load(&counts[first]) : 0);
	free(inside.objs);
	free(counts);
}

/* ---- per-thread order --------------------------------------------------------------------------
 * Four threads queue numbered callbacks (in and out of sections, yielding now and then); the
 * numbers each thread's callbacks see must increase. Callbacks run one at a time (the worker or a
 * helper holding the consumer lock), but the check uses atomics so as not to assume it.
 */
#define ORDER_THREADS 4

static struct {
	struct cb_obj *objs;
	long per;
	_Atomic long last[ORDER_THREADS];
	_Atomic long inversions;
} order;

static void order_cb(struct rcu_head *h)
{
	struct cb_obj *o = rcu_container_of(h, struct cb_obj, head);
	long prev = atomic_exchange_explicit(&order.last[o->thread], (long)o->idx, memory_order_relaxed);
	if (prev >= (long)o->idx)
		atomic_fetch_add_explicit(&order.inversions, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&counts[o->idx], 1, memory_order_relaxed);
}

static void *order_producer(void *arg)
{
	long t = (long)(uintptr_t)arg;
	uint64_t seed = 0x1000u + (uint64_t)t;
	rcu_register_thread();
	for (long i = t * order.per; i < (t + 1) * order.per; i++) {
		struct cb_obj *o = &order.objs[i];
		o->thread = (uint32_t)t;
		bool in = test_rand(&seed) % 2;
		if (in)
			rcu_read_lock();
		call_rcu(&o->head, order_cb);
		if (in)
			rcu_read_unlock();
		rcu_quiescent_state();
		if (test_rand(&seed) % 512 == 0)
			sched_yield();
	}
	rcu_unregister_thread();
	return NULL;
}

Test(call_rcu, callbacks_of_one_thread_run_in_order, .timeout = 60)
{
	order.per = test_rounds(50000);
	order.objs = objs_alloc(order.per * ORDER_THREADS);
	for (int i = 0; i < ORDER_THREADS; i++)
		atomic_store(&order.last[i], -1);
	pthread_t t[ORDER_THREADS];
	for (long i = 0; i < ORDER_THREADS; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, order_producer, (void *)(uintptr_t)i), 0);
	for (int i = 0; i < ORDER_THREADS; i++)
		pthread_join(t[i], NULL);
	rcu_barrier();
	cr_assert_eq(atomic_load(&order.inversions), 0, "%ld callbacks ran before an earlier one of the same thread",
		atomic_load(&order.inversions));
	cr_assert_eq(not_once(0, order.per * ORDER_THREADS, NULL), 0);
	for (int i = 0; i < ORDER_THREADS; i++)
		cr_assert_eq(atomic_load(&order.last[i]), (i + 1) * order.per - 1);
	free(order.objs);
	free(counts);
}

/* ---- rcu_free() --------------------------------------------------------------------------------
 * Three shapes: the head first, in the middle, and at 4088 bytes, near the limit. Every object
 * must reach RCU_FREE exactly once, at its own start, and only after a grace period.
 * rcu_free(NULL, field) does nothing (as kfree_rcu()).
 */
struct free_a {
	struct rcu_head rcu;
	uint64_t v;
};
struct free_b {
	char pad[40];
	struct rcu_head rcu;
	uint32_t v;
};
struct free_c {
	char pad[4088]; /* the last 8-aligned offset under the limit (offsets up to 4094) */
	struct rcu_head rcu;
};

#define FREE_EACH 5000 /* 15000 in all: past the mark, so helpers free too */
#define FREE_HELD 10

static void **free_ptrs;

static void *free_thread(void *arg)
{
	long t = (long)(uintptr_t)arg; /* 0, 1: each frees half of what is left */
	rcu_register_thread();
	for (long i = FREE_HELD + t; i < FREE_EACH; i += 2) {
		rcu_free((struct free_a *)free_ptrs[i], rcu);
		rcu_free((struct free_b *)free_ptrs[FREE_EACH + i], rcu);
		rcu_free((struct free_c *)free_ptrs[2 * FREE_EACH + i], rcu);
		rcu_quiescent_state();
	}
	rcu_unregister_thread();
	return NULL;
}

Test(call_rcu, rcu_free_frees_each_object_once_after_a_grace_period, .timeout = 60)
{
	const long total = 3 * FREE_EACH;
	free_ptrs = calloc((size_t)total, sizeof *free_ptrs);
	freed.seen = calloc((size_t)total, sizeof *freed.seen);
	cr_assert(free_ptrs && freed.seen);
	freed.cap = total;
	for (long i = 0; i < FREE_EACH; i++) {
		free_ptrs[i] = calloc(1, sizeof(struct free_a));
		free_ptrs[FREE_EACH + i] = calloc(1, sizeof(struct free_b));
		free_ptrs[2 * FREE_EACH + i] = calloc(1, sizeof(struct free_c));
		cr_assert(free_ptrs[i] && free_ptrs[FREE_EACH + i] && free_ptrs[2 * FREE_EACH + i]);
	}
	struct rcu_stats sn = stats_now();
	struct free_b *none = NULL;
	rcu_free(none, rcu);
	rcu_barrier();
	struct rcu_stats s0 = stats_now();
	cr_assert_eq(s0.callbacks_queued, sn.callbacks_queued, "rcu_free(NULL) queued a callback");
	cr_assert_eq(freed_count(), 0, "rcu_free(NULL) reached RCU_FREE");

	/* A few while a reader holds its section: nothing may be freed until it leaves. */
	pthread_t h;
	cr_assert(test_holder_start(&h));
	for (long i = 0; i < FREE_HELD; i++) {
		rcu_free((struct free_a *)free_ptrs[i], rcu);
		rcu_free((struct free_b *)free_ptrs[FREE_EACH + i], rcu);
		rcu_free((struct free_c *)free_ptrs[2 * FREE_EACH + i], rcu);
	}
	test_sleep_us(20 * 1000);
	long early = freed_count();
	test_holder_stop(h);
	rcu_barrier();
	long after_held = freed_count();

	/* The rest from two threads, past the high-water mark. */
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, free_thread, (void *)(uintptr_t)i), 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	rcu_barrier();
	struct rcu_stats s1 = stats_now();

	cr_assert_eq(early, 0, "RCU_FREE ran %ld times while a pre-existing reader was inside", early);
	cr_assert_eq(after_held, 3 * FREE_HELD, "rcu_barrier() returned with %ld of %d rcu_free()s done", after_held,
		3 * FREE_HELD);
	cr_assert_eq(freed.overflow, 0, "RCU_FREE called more often than rcu_free()");
	cr_assert_eq(freed.n, total, "RCU_FREE called %ld times for %ld rcu_free()s", freed.n, total);
	qsort(free_ptrs, (size_t)total, sizeof *free_ptrs, cmp_ptr);
	qsort(freed.seen, (size_t)total, sizeof *freed.seen, cmp_ptr);
	long mismatched = 0;
	for (long i = 0; i < total; i++)
		mismatched += free_ptrs[i] != freed.seen[i];
	cr_assert_eq(mismatched, 0, "%ld pointers given to RCU_FREE are not the objects handed to rcu_free()",
		mismatched);
	cr_assert_eq(s1.callbacks_queued - s0.callbacks_queued, (uint64_t)total, "rcu_free() counts as queued");
	cr_assert_eq(s1.callbacks_invoked - s0.callbacks_invoked, (uint64_t)total, "rcu_free() counts as invoked");
	cr_assert_eq(s1.callbacks_pending, 0);
	free(free_ptrs);
	free(freed.seen);
	freed.seen = NULL;
	freed.cap = 0;
}

/* ---- the memory bound ----------------------------------------------------------------------------
 * rcu.h (>>callbacks): "Pending callbacks then stay at most RCU_CALLBACK_HIGH_WATER + one per
 * concurrently queueing thread + those queued from inside sections and callbacks", and for QSBR:
 * an online thread's call_rcu() never helps, "it helps at its next rcu_quiescent_state()
 * instead ... Offline and unregistered QSBR threads help in call_rcu()".
 *
 * Here P producers queue malloc'ed objects (freed by the callback) outside sections at full speed
 * for half a second, calling rcu_quiescent_state() after every call_rcu(), while a reader keeps
 * grace periods real (QSBR: it reports between sections) and now and then holds a section until
 * the queue passes the mark. Nothing is queued inside rcu_read_lock() or a callback,
 * and a QSBR producer's next quiescent state follows each call_rcu() at once, so
 * callbacks_pending_max must be at most HW + P (the offline variant: QSBR producers queue offline
 * and help in call_rcu() itself). The run must pass the mark (producers keep going until it has,
 * within the liveness bound). Helping is not required to run callbacks on the producer's own
 * thread: a producer past the mark waits for cb_consumer, and when the worker held it and took the
 * queue first, the producer finds nothing left to run (under TSan, QSBR's producer ran none in
 * 10 s); the wait itself is what holds the bound, and a producer that did not wait (help removed)
 * breaks it.
 */
struct bound_obj {
	struct rcu_head head;
	uint64_t payload[2];
};

static _Thread_local int bound_producer_id; /* 1 + producer number on producer threads */

static struct {
	_Atomic int stop_reader;
	_Atomic long invoked;
	_Atomic long helped[8];
	long produced[8];
	uint64_t run_ns;
	bool offline; /* QSBR: producers queue offline */
} bound;

static void bound_cb(struct rcu_head *h)
{
	if (bound_producer_id)
		atomic_fetch_add_explicit(&bound.helped[bound_producer_id - 1], 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&bound.invoked, 1, memory_order_relaxed);
	free(rcu_container_of(h, struct bound_obj, head));
}

/* Inside the reader's section: no grace period ends, so the producers' callbacks pile up; wait
 * until they pass the high-water mark (where helping begins) (or the run stops, or 100 ms pass), so that every run
 * reaches it, however fast grace periods are on this machine (with a fixed 2 ms hold, a quick
 * machine's producer queued 10 million callbacks in 10 s without reaching it). */
static void bound_hold_until_high_water(void)
{
	uint64_t start = test_now_ns();
	while (!atomic_load_explicit(&bound.stop_reader, memory_order_relaxed) &&
	       stats_now().callbacks_pending <= (uint64_t)HW && test_now_ns() - start < 100000000u)
		test_sleep_us(100);
}

static void *bound_reader(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	rcu_register_thread();
	for (unsigned long i = 0; !atomic_load_explicit(&bound.stop_reader, memory_order_relaxed); i++) {
		rcu_read_lock();
		if (i % 256 == 0)
			bound_hold_until_high_water();
		else
			test_widen(&seed, 300);
		rcu_read_unlock();
		rcu_quiescent_state();
	}
	rcu_unregister_thread();
	return NULL;
}

static void *bound_producer(void *arg)
{
	long p = (long)(uintptr_t)arg;
	bound_producer_id = (int)p + 1;
	rcu_register_thread();
	if (bound.offline)
		rcu_thread_offline();
	uint64_t start = test_now_ns(), min_ns = bound.run_ns, max_ns = (uint64_t)TEST_LIVENESS_MS * 1000000u;
	long n = 0;
	for (;;) {
		for (int k = 0; k < 256; k++) {
			struct bound_obj *o = malloc(sizeof *o);
			if (!o)
				abort();
			o->payload[0] = (uint64_t)n;
			call_rcu(&o->head, bound_cb);
			rcu_quiescent_state();
			n++;
		}
		uint64_t el = test_now_ns() - start;
		if ((el >= min_ns && stats_now().callbacks_pending_max > (uint64_t)HW) || el >= max_ns)
			break;
	}
	bound.produced[p] = n;
	if (bound.offline)
		rcu_thread_online();
	rcu_unregister_thread();
	return NULL;
}

static void bound_run(int producers, bool offline)
{
	bound.offline = offline;
	struct rcu_stats s0 = stats_now();
	cr_assert_eq(s0.callbacks_queued, 0, "this test needs a process of its own (Criterion's default)");
	bound.run_ns = (uint64_t)test_rounds(500) * 1000000u;
	pthread_t r, p[8];
	cr_assert_eq(pthread_create(&r, NULL, bound_reader, (void *)(uintptr_t)3), 0);
	uint64_t t0 = test_now_ns();
	for (long i = 0; i < producers; i++)
		cr_assert_eq(pthread_create(&p[i], NULL, bound_producer, (void *)(uintptr_t)i), 0);
	for (int i = 0; i < producers; i++)
		pthread_join(p[i], NULL);
	uint64_t ns = test_now_ns() - t0;
	atomic_store(&bound.stop_reader, 1);
	pthread_join(r, NULL);
	rcu_barrier();
	struct rcu_stats s1 = stats_now();
	long produced = 0;
	for (int i = 0; i < producers; i++)
		produced += bound.produced[i];
	uint64_t limit = (uint64_t)HW + (uint64_t)producers;
	cr_log_info("%s: %d %sproducer(s), %ld callbacks in %.2f s: %.2f M callbacks/s, %.0f grace periods per 10^6 "
		    "callbacks, pending max %llu (bound %llu), callbacks run by producer 0: %ld",
		TEST_FLAVOUR, producers, offline ? "offline " : "", produced, ns / 1e9, produced / (ns / 1e9) / 1e6,
		(s1.grace_periods - s0.grace_periods) * 1e6 / (double)produced,
		(unsigned long long)s1.callbacks_pending_max, (unsigned long long)limit,
		atomic_load(&bound.helped[0]));
	cr_assert_leq(s1.callbacks_pending_max, limit,
		"pending callbacks reached %llu, above the stated bound HW + producers = %llu",
		(unsigned long long)s1.callbacks_pending_max, (unsigned long long)limit);
	cr_assert_gt(s1.callbacks_pending_max, (uint64_t)HW,
		"pending callbacks never went past the high-water mark (%llu): the test did not test the bound",
		(unsigned long long)s1.callbacks_pending_max);
	cr_assert_eq(atomic_load(&bound.invoked), produced);
	cr_assert_eq(s1.callbacks_queued, (uint64_t)produced);
	cr_assert_eq(s1.callbacks_pending, 0);
}

Test(call_rcu, pending_callbacks_stay_bounded_one_producer, .timeout = 60)
{
	bound_run(1, false);
}

Test(call_rcu, pending_callbacks_stay_bounded_two_producers, .timeout = 60)
{
	bound_run(2, false);
}

Test(call_rcu, pending_callbacks_stay_bounded_offline_producer, .timeout = 60)
{
	bound_run(1, true);
}

/* ---- statistics ----------------------------------------------------------------------------------
 * While a reader holds back N callbacks: queued +N, invoked +0, pending N. After rcu_barrier():
 * queued == invoked + pending, pending 0, at least one more grace period; rcu_barrier()'s own
 * marker is not a callback of the user's.
 */
#define STATS_CBS 1000

Test(call_rcu, stats_are_consistent, .timeout = 60)
{
	struct cb_obj *objs = objs_alloc(STATS_CBS);
	struct rcu_stats s0 = stats_now();
	cr_assert_eq(s0.callbacks_queued, 0, "this test needs a process of its own (Criterion's default)");
	cr_assert_eq(s0.callbacks_pending, 0);
	pthread_t h;
	cr_assert(test_holder_start(&h));
	for (long i = 0; i < STATS_CBS; i++)
		call_rcu(&objs[i].head, count_cb);
	test_sleep_us(10 * 1000);
	struct rcu_stats s1 = stats_now();
	test_holder_stop(h);
	rcu_barrier();
	struct rcu_stats s2 = stats_now();
	rcu_barrier(); /* nothing queued: changes no callback counter */
	struct rcu_stats s3 = stats_now();

	cr_assert_eq(s1.callbacks_queued, STATS_CBS);
	cr_assert_eq(s1.callbacks_invoked, 0, "%llu callbacks ran while a pre-existing reader was inside",
		(unsigned long long)s1.callbacks_invoked);
	cr_assert_eq(s1.callbacks_pending, STATS_CBS);
	cr_assert_geq(s1.callbacks_pending_max, STATS_CBS - 1); /* each caller sees the count with itself */
	cr_assert_leq(s1.callbacks_pending_max, STATS_CBS);
	cr_assert_eq(s2.callbacks_queued, STATS_CBS, "rcu_barrier() counted as a queued callback");
	cr_assert_eq(s2.callbacks_invoked, STATS_CBS);
	cr_assert_eq(s2.callbacks_queued, s2.callbacks_invoked + s2.callbacks_pending);
	cr_assert_eq(s2.callbacks_pending, 0);
	cr_assert_gt(s2.grace_periods, s0.grace_periods, "callbacks ran without a grace period being counted");
	cr_assert_eq(s3.callbacks_queued, s2.callbacks_queued);
	cr_assert_eq(s3.callbacks_invoked, s2.callbacks_invoked);
	cr_assert_geq(s3.grace_periods, s2.grace_periods);
	cr_assert_eq(not_once(0, STATS_CBS, NULL), 0);
	free(objs);
	free(counts);
}

/* ---- batching -------------------------------------------------------------------------------------
 * 10^5 callbacks queued as fast as one thread can, with a reader running: the worker takes whole
 * batches, one grace period each, so far fewer grace periods than callbacks run. How many depends
 * on how fast grace periods are against call_rcu() (a worker that keeps up takes small batches),
 * so the bound asserted is loose (a quarter: one grace period per callback gives 10^5); the count
 * goes to the log. The exact check holds a reader: 5000 callbacks (under the mark, so nobody helps)
 * queued while the worker waits for the first grace period go as one batch, one grace period,
 * after the reader leaves: a handful of grace periods in all.
 */
#define HELD_BATCH 5000

Test(call_rcu, one_grace_period_per_batch, .timeout = 60)
{
	const long n = 100000;
	struct cb_obj *objs = objs_alloc(n);
	pthread_t r;
	atomic_store(&test_busy_stop, 0);
	cr_assert_eq(pthread_create(&r, NULL, test_busy_reader, (void *)(uintptr_t)11), 0);
	struct rcu_stats s0 = stats_now();
	uint64_t t0 = test_now_ns();
	for (long i = 0; i < n; i++)
		call_rcu(&objs[i].head, count_cb);
	rcu_barrier();
	uint64_t ns = test_now_ns() - t0;
	struct rcu_stats s1 = stats_now();
	uint64_t gps = s1.grace_periods - s0.grace_periods;
	cr_log_info("%s: %ld callbacks from one thread + rcu_barrier(): %llu grace periods (%.0f per 10^6), %.2f M callbacks/s",
		TEST_FLAVOUR, n, (unsigned long long)gps, gps * 1e6 / n, n / (ns / 1e9) / 1e6);
	cr_assert_eq(not_once(0, n, NULL), 0);
	cr_assert_geq(gps, 1);
	cr_assert_lt(gps, (uint64_t)n / 4, "%llu grace periods for %ld callbacks: batches are not taken whole",
		(unsigned long long)gps, n);

	/* Held: everything queued behind the worker's first batch goes as one more. */
	for (long i = 0; i < HELD_BATCH; i++)
		atomic_store(&counts[i], 0);
	pthread_t h;
	cr_assert(test_holder_start(&h));
	struct rcu_stats s2 = stats_now();
	for (long i = 0; i < HELD_BATCH; i++)
		call_rcu(&objs[i].head, count_cb);
	test_sleep_us(10 * 1000);
	test_holder_stop(h);
	rcu_barrier();
	struct rcu_stats s3 = stats_now();
	atomic_store(&test_busy_stop, 1);
	pthread_join(r, NULL);
	uint64_t held_gps = s3.grace_periods - s2.grace_periods;
	cr_log_info("%s: %d callbacks queued while a reader held the worker's grace period: %llu grace periods",
		TEST_FLAVOUR, HELD_BATCH, (unsigned long long)held_gps);
	cr_assert_eq(not_once(0, HELD_BATCH, NULL), 0);
	cr_assert_leq(held_gps, 6, "%llu grace periods for %d callbacks queued during one grace period",
		(unsigned long long)held_gps, HELD_BATCH);
	free(objs);
	free(counts);
}

/* ---- the worker thread -------------------------------------------------------------------------
 * Found by name in /proc/self/task; one of it; every signal blocked that the system lets a thread
 * block (measured here by blocking everything in a thread of our own); the caller's mask is left
 * as it was. QSBR: it waits offline, so a registered thread's synchronize_rcu() returns while it
 * is idle.
 */
static bool read_sigblk(long tid, uint64_t *mask)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/self/task/%ld/status", tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool found = false;
	while (fgets(line, sizeof line, f)) {
		unsigned long long v;
		if (sscanf(line, "SigBlk: %llx", &v) == 1) {
			*mask = v;
			found = true;
			break;
		}
	}
	fclose(f);
	return found;
}

static uint64_t blockable_mask;

static void *block_all_main(void *arg)
{
	(void)arg;
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, NULL);
	if (!read_sigblk(gettid_(), &blockable_mask))
		blockable_mask = 0;
	return NULL;
}

static void nop_cb(struct rcu_head *h)
{
	(void)h;
}

Test(call_rcu, worker_is_named_and_blocks_every_signal, .timeout = 60)
{
	long tids[4];
	cr_assert_eq(test_find_tasks("rcu-callbacks", tids, 4, NULL), 0, "a worker exists before the first call_rcu()");
	uint64_t before, after, worker;
	cr_assert(read_sigblk(gettid_(), &before));
	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, block_all_main, NULL), 0);
	pthread_join(t, NULL);
	cr_assert_neq(blockable_mask, 0);

	rcu_register_thread();
	struct rcu_head head;
	call_rcu(&head, nop_cb);
	rcu_barrier();
	cr_assert(read_sigblk(gettid_(), &after));
	cr_assert_eq(after, before, "call_rcu() changed the caller's signal mask: %#llx, was %#llx",
		(unsigned long long)after, (unsigned long long)before);
	int n = test_find_tasks("rcu-callbacks", tids, 4, NULL);
	cr_assert_eq(n, 1, "%d threads named \"rcu-callbacks\"", n);
	cr_assert(read_sigblk(tids[0], &worker));
	cr_assert_eq(worker, blockable_mask, "the worker blocks %#llx; everything blockable is %#llx",
		(unsigned long long)worker, (unsigned long long)blockable_mask);
	cr_assert_neq(tids[0], gettid_());

	/* The idle worker holds up no grace period (QSBR: it waits offline). */
	for (int i = 0; i < 3; i++) {
		synchronize_rcu();
		rcu_quiescent_state();
	}
	struct rcu_head more[8];
	for (int i = 0; i < 8; i++)
		call_rcu(&more[i], nop_cb);
	rcu_barrier();
	cr_assert_eq(test_find_tasks("rcu-callbacks", tids, 4, NULL), 1, "a second worker was started");
	rcu_unregister_thread();
}

/* ---- a batch's cookie is taken after its detach -----------------------------------------------
 * A batch waits for the grace period that its cookie names, taken once the chain is detached from
 * the queue: every call_rcu() of the batch then happened before that grace period began. Taken
 * before the detach, the cookie may name a grace period that begins, and ends, before a call_rcu()
 * that still joins the batch, and the callback runs while a reader it must wait for is inside.
 * The test hook RCU__TP_BATCH_DETACHED stops the worker between the two, every run:
 *   1. W is queued; the worker takes it and stops at the hook (after the detach in rcu.h; in the
 *      mutant `batch-cookie-before-detach`, docs/mutants.md, after a cookie taken too early and
 *      before the detach).
 *   2. The test thread runs a grace period (synchronize_rcu()); a reader enters after it; the
 *      test thread queues X, which must wait for that reader, and lets the worker go.
 *   3. The reader stays inside until X has run (wrong) or the worker has started the grace period
 *      its batch waits for (get_state_synchronize_rcu() moves: right, as a batch with a cookie
 *      taken now must wait for that reader, and X is not in it). Then it leaves.
 * X must not have run while the reader was inside. With the cookie taken first, the batch is W
 * and X, its grace period is the one of step 2, already over: X runs at once, the reader inside.
 */
static struct {
	_Atomic int arm, stopped, release;   /* the worker's stop at RCU__TP_BATCH_DETACHED */
	_Atomic int go, inside, leave;       /* the reader */
	_Atomic int w_ran, x_ran, x_early;   /* X ran while the reader was inside */
	struct rcu_head w, x;
} cd;

/* The first thread to reach RCU__TP_BATCH_DETACHED after cd.arm is set stops there until cd.release. */
void rcu__test_hook(enum rcu__test_point point)
{
	int armed = 1;
	if (point != RCU__TP_BATCH_DETACHED || !atomic_compare_exchange_strong(&cd.arm, &armed, 0))
		return;
	atomic_store(&cd.stopped, 1);
	while (!atomic_load(&cd.release))
		test_sleep_us(200);
}

static void cd_w_cb(struct rcu_head *h)
{
	(void)h;
	atomic_fetch_add(&cd.w_ran, 1);
}

static void cd_x_cb(struct rcu_head *h)
{
	(void)h;
	if (atomic_load(&cd.inside))
		atomic_fetch_add(&cd.x_early, 1);
	atomic_fetch_add(&cd.x_ran, 1);
}

static void *cd_reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	test_block_begin(); /* QSBR: offline until the section, so that step 2's grace period ends */
	while (!atomic_load(&cd.go))
		test_sleep_us(200);
	test_block_end();
	rcu_read_lock();
	atomic_store(&cd.inside, 1);
	while (!atomic_load(&cd.leave))
		test_sleep_us(200); /* QSBR too: no quiescent state while inside */
	atomic_store(&cd.inside, 0); /* before the unlock: X must never see it set */
	rcu_read_unlock();
	rcu_quiescent_state();
	rcu_unregister_thread();
	return NULL;
}

Test(call_rcu, a_batch_takes_its_cookie_after_its_detach, .timeout = 60)
{
	rcu_barrier(); /* the worker runs and the queue is empty */
	pthread_t r;
	cr_assert_eq(pthread_create(&r, NULL, cd_reader, NULL), 0);
	/* 1. The worker takes W and stops in the window. */
	atomic_store(&cd.arm, 1);
	call_rcu(&cd.w, cd_w_cb);
	cr_assert(test_wait_flag(&cd.stopped, TEST_LIVENESS_MS), "the worker never took W");
	/* 2. A grace period, a reader after it, X, and the worker goes on. */
	synchronize_rcu();
	atomic_store(&cd.go, 1);
	cr_assert(test_wait_flag(&cd.inside, TEST_LIVENESS_MS), "the reader did not enter");
	uint64_t state = get_state_synchronize_rcu();
	call_rcu(&cd.x, cd_x_cb);
	atomic_store(&cd.release, 1);
	/* 3. Until X has run or the worker's grace period has begun (its wait is the reader's). */
	uint64_t end = test_now_ns() + (uint64_t)TEST_LIVENESS_MS * 1000000u;
	bool moved = false;
	while (!atomic_load(&cd.x_ran) && !(moved = get_state_synchronize_rcu() != state) && test_now_ns() < end)
		test_sleep_us(100);
	atomic_store(&cd.leave, 1);
	pthread_join(r, NULL);
	rcu_barrier();
	cr_assert_eq(atomic_load(&cd.x_early), 0,
		"X ran while a reader that entered before its call_rcu() was inside: the batch's cookie "
		"named a grace period that had ended before X joined the batch");
	cr_assert(moved, "the worker neither ran X nor began a grace period for its batch");
	cr_assert_eq(atomic_load(&cd.w_ran), 1);
	cr_assert_eq(atomic_load(&cd.x_ran), 1);
}
