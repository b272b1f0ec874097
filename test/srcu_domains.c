/* SPDX-License-Identifier: 0BSD */
/*
 * test/srcu_domains.c: what domains are for, in every flavour.
 *
 * - Isolation: readers of domain A that sleep for seconds inside their sections delay neither
 *   the default domain's grace periods nor domain B's (synchronize, call + barrier, polled), and
 *   srcu_barrier(B) does not wait for A's callbacks; A's own grace periods and callbacks do wait.
 *   The test measures each operation with and without the sleepers and logs the ratio; what it
 *   asserts is liveness (every operation of B and of the default domain returned while A's
 *   readers were still asleep), not speed.
 * - The converse: a long default-domain section (QSBR: an online thread that does not report)
 *   does not delay a domain's grace periods.
 * - Updaters inside sections of other domains: synchronize_srcu() and srcu_barrier() inside a
 *   section of another domain keep that section; outside QSBR, inside rcu_read_lock() too.
 *   QSBR: synchronize_srcu() from an online thread does not hold up the default domain while
 *   it waits (the wait is a quiescent state, as synchronize_rcu()'s).
 * - call_srcu() past RCU_CALLBACK_HIGH_WATER: callers outside the domain's sections help (the
 *   pending count stays bounded), callers inside them do not (no deadlock).
 * - Thousands of domains: no allocation (init_srcu_struct() returns 0 and the heap does not grow),
 *   memory is sizeof(struct srcu_struct) each, and grace periods of one domain (or of the default
 *   domain) run nothing in the others.
 * - Retirement in release builds: cleanup_srcu_struct() with callbacks pending or a reader inside
 *   waits for them; a domain is set up again after it (init_srcu_struct(), or DEFINE_SRCU's first
 *   use), also at the address of a freed one whose old tags threads still carry.
 */
#include "rcu.h"
#include "srcu_helpers.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stdbool.h>

DEFINE_STATIC_SRCU(dom_a);
DEFINE_STATIC_SRCU(dom_b);

static void noop_cb(struct rcu_head *h)
{
	(void)h;
}

/* ---- isolation ---------------------------------------------------------------------------------- */

#define SLEEP_MS 2000 /* A's readers sleep this long inside their sections */
#define ROUNDS 20

/* Background readers of B and of the default domain, in short sections, for the whole test. */
static _Atomic int bg_stop;

static void *bg_b_reader(void *arg)
{
	(void)arg;
	while (!atomic_load_explicit(&bg_stop, memory_order_relaxed)) {
		int i = srcu_read_lock(&dom_b);
		test_sleep_us(50);
		srcu_read_unlock(&dom_b, i);
		test_sleep_us(50);
	}
	return NULL;
}

static void *bg_default_reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	while (!atomic_load_explicit(&bg_stop, memory_order_relaxed)) {
		rcu_read_lock();
		sched_yield();
		rcu_read_unlock();
		rcu_quiescent_state();
		test_block_begin();
		test_sleep_us(50);
		test_block_end();
	}
	rcu_unregister_thread();
	return NULL;
}

/* One measurement of each operation of B and of the default domain, in ms (max over ROUNDS). */
struct op_times {
	double sync_b, sync_rcu, barrier_b, barrier_rcu, poll_b;
};

static struct rcu_head b_heads[ROUNDS], r_heads[ROUNDS];

static double ms_since(uint64_t t0)
{
	return (double)(test_now_ns() - t0) / 1e6;
}

static void max_into(double *m, double v)
{
	if (v > *m)
		*m = v;
}

static void measure_ops(struct op_times *t)
{
	memset(t, 0, sizeof *t);
	for (int i = 0; i < ROUNDS; i++) {
		uint64_t t0 = test_now_ns();
		synchronize_srcu(&dom_b);
		max_into(&t->sync_b, ms_since(t0));
		t0 = test_now_ns();
		synchronize_rcu();
		max_into(&t->sync_rcu, ms_since(t0));
		t0 = test_now_ns();
		call_srcu(&dom_b, &b_heads[i], noop_cb);
		srcu_barrier(&dom_b);
		max_into(&t->barrier_b, ms_since(t0));
		t0 = test_now_ns();
		call_rcu(&r_heads[i], noop_cb);
		rcu_barrier();
		max_into(&t->barrier_rcu, ms_since(t0));
		t0 = test_now_ns();
		uint64_t c = start_poll_synchronize_srcu(&dom_b);
		while (!poll_state_synchronize_srcu(&dom_b, c))
			test_sleep_us(20);
		max_into(&t->poll_b, ms_since(t0));
	}
}

static _Atomic int a_cb_ran;

static void a_cb(struct rcu_head *h)
{
	(void)h;
	atomic_store(&a_cb_ran, 1);
}

Test(srcu_domains, sleeping_readers_of_a_delay_neither_b_nor_the_default_domain, .timeout = 60)
{
	pthread_t bg[2];
	cr_assert_eq(pthread_create(&bg[0], NULL, bg_b_reader, NULL), 0);
	cr_assert_eq(pthread_create(&bg[1], NULL, bg_default_reader, NULL), 0);
	struct op_times base, slept;
	measure_ops(&base); /* warm: the workers have started */
	measure_ops(&base);

	/* A's readers: one that never registered, one registered (QSBR: offline while it sleeps). */
	struct holder sleeper[2];
	uint64_t t_in = test_now_ns();
	holder_start(&sleeper[0], &dom_a, HOLDER_UNREGISTERED, SLEEP_MS * 1000L);
	holder_start(&sleeper[1], &dom_a, HOLDER_REGISTERED, SLEEP_MS * 1000L);
	atomic_store(&sleeper[0].release, 1); /* each leaves when its sleep ends */
	atomic_store(&sleeper[1].release, 1);
	static struct rcu_head a_head;
	call_srcu(&dom_a, &a_head, a_cb);
	struct async_op sync_a, barrier_a;
	async_start(&sync_a, ASYNC_SYNC_SRCU, &dom_a, 0);
	async_start(&barrier_a, ASYNC_SRCU_BARRIER, &dom_a, 0);
	uint64_t a_cookie = start_poll_synchronize_srcu(&dom_a);

	measure_ops(&slept);
	double elapsed = ms_since(t_in);
	bool asleep = !atomic_load(&sleeper[0].out) && !atomic_load(&sleeper[1].out);
	bool a_sync_returned = atomic_load(&sync_a.returned), a_barrier_returned = atomic_load(&barrier_a.returned);
	bool a_cb_early = atomic_load(&a_cb_ran), a_poll_early = poll_state_synchronize_srcu(&dom_a, a_cookie);

	for (int k = 0; k < 2; k++)
		pthread_join(sleeper[k].thread, NULL);
	uint64_t a_left = atomic_load(&sleeper[0].out_ns) > atomic_load(&sleeper[1].out_ns) ?
		atomic_load(&sleeper[0].out_ns) : atomic_load(&sleeper[1].out_ns);
	cr_assert(test_wait_flag(&sync_a.returned, TEST_LIVENESS_MS), "synchronize_srcu(A) hung after A's readers left");
	cr_assert(test_wait_flag(&barrier_a.returned, TEST_LIVENESS_MS), "srcu_barrier(A) hung after A's readers left");
	pthread_join(sync_a.thread, NULL);
	pthread_join(barrier_a.thread, NULL);
	atomic_store(&bg_stop, 1);
	for (int k = 0; k < 2; k++)
		pthread_join(bg[k], NULL);

	cr_log_info("%s: readers of A asleep %d ms; the slowest of %d calls without them -> with them (ms): "
		"synchronize_srcu(B) %.3f -> %.3f, synchronize_rcu() %.3f -> %.3f, call_srcu(B)+srcu_barrier(B) "
		"%.3f -> %.3f, call_rcu()+rcu_barrier() %.3f -> %.3f, start_poll_synchronize_srcu(B) until expired "
		"%.3f -> %.3f; all of them took %.0f ms; synchronize_srcu(A) took %.0f ms (A's readers left after %.0f ms)",
		TEST_FLAVOUR, SLEEP_MS, ROUNDS, base.sync_b, slept.sync_b, base.sync_rcu, slept.sync_rcu, base.barrier_b,
		slept.barrier_b, base.barrier_rcu, slept.barrier_rcu, base.poll_b, slept.poll_b, elapsed,
		async_ms(&sync_a), (double)(a_left - t_in) / 1e6);
	cr_assert(asleep, "B's and the default domain's grace periods took %.0f ms in all: they waited for A's "
		"sleeping readers (%d ms)", elapsed, SLEEP_MS);
	cr_assert(!a_sync_returned, "synchronize_srcu(A) returned while A's readers slept inside their sections");
	cr_assert(!a_barrier_returned, "srcu_barrier(A) returned while A's callback had to wait for A's readers");
	cr_assert(!a_cb_early, "a callback of A ran while A's readers that preceded it slept inside their sections");
	cr_assert(!a_poll_early, "a polled grace period of A expired while A's readers slept inside their sections");
	cr_assert(atomic_load(&a_cb_ran), "srcu_barrier(A) returned before A's callback ran");
	cr_assert_geq(atomic_load(&sync_a.end_ns), a_left, "synchronize_srcu(A) returned before A's readers left");
}

/* The converse: a long default-domain section holds up no domain. */
Test(srcu_domains, a_long_default_section_does_not_delay_a_domain, .timeout = 60)
{
	pthread_t h;
	cr_assert(test_holder_start(&h)); /* registered, inside rcu_read_lock() (QSBR: online, silent) */
	struct async_op sr;
	async_start(&sr, ASYNC_SYNC_RCU, NULL, 0);
	static struct rcu_head heads[10];
	uint64_t t0 = test_now_ns();
	for (int i = 0; i < 10; i++) {
		synchronize_srcu(&dom_a);
		call_srcu(&dom_a, &heads[i], noop_cb);
		srcu_barrier(&dom_a);
		uint64_t c = start_poll_synchronize_srcu(&dom_a);
		while (!poll_state_synchronize_srcu(&dom_a, c))
			test_sleep_us(20);
	}
	double ms = ms_since(t0);
	bool held = !atomic_load(&sr.returned);
	test_holder_stop(h);
	cr_assert(test_wait_flag(&sr.returned, TEST_LIVENESS_MS));
	pthread_join(sr.thread, NULL);
	cr_log_info("%s: 10 x (synchronize_srcu + call_srcu/srcu_barrier + polled) of A took %.2f ms beside a "
		"default section that never ended", TEST_FLAVOUR, ms);
	cr_assert(held, "synchronize_rcu() returned while a default-domain section was open: the test proved nothing");
}

/* ---- updaters inside sections of other domains --------------------------------------------------- */
static struct {
	_Atomic int in, done;
	int use_default; /* also hold rcu_read_lock() around the wait */
	int barrier;     /* srcu_barrier(A) instead of synchronize_srcu(A) */
} up;

static void *updater_in_b(void *arg)
{
	(void)arg;
	if (up.use_default)
		rcu_register_thread();
	int ib = srcu_read_lock(&dom_b);
	if (up.use_default)
		rcu_read_lock();
	atomic_store(&up.in, 1);
	if (up.barrier) {
		static struct rcu_head h;
		call_srcu(&dom_a, &h, noop_cb);
		srcu_barrier(&dom_a);
	} else {
		synchronize_srcu(&dom_a); /* A has a reader for another 150 ms */
	}
	test_sleep_us(100 * 1000); /* still inside B (and the default section): their grace periods wait */
	atomic_store(&up.done, 1);
	if (up.use_default) {
		rcu_read_unlock();
		rcu_quiescent_state();
	}
	srcu_read_unlock(&dom_b, ib);
	if (up.use_default)
		rcu_unregister_thread();
	return NULL;
}

static void updater_in_sections(bool use_default, bool barrier)
{
	up.use_default = use_default;
	up.barrier = barrier;
	struct holder ha;
	holder_start(&ha, &dom_a, HOLDER_UNREGISTERED, 150 * 1000L);
	atomic_store(&ha.release, 1);
	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, updater_in_b, NULL), 0);
	cr_assert(test_wait_flag(&up.in, TEST_LIVENESS_MS));
	struct async_op sb, sr;
	async_start(&sb, ASYNC_SYNC_SRCU, &dom_b, 0);
	if (use_default)
		async_start(&sr, ASYNC_SYNC_RCU, NULL, 0);
	cr_assert(test_wait_flag(&sb.returned, 2 * TEST_LIVENESS_MS));
	bool b_early = !atomic_load(&up.done);
	bool r_early = false;
	if (use_default) {
		cr_assert(test_wait_flag(&sr.returned, 2 * TEST_LIVENESS_MS));
		r_early = !atomic_load(&up.done);
		pthread_join(sr.thread, NULL);
	}
	pthread_join(sb.thread, NULL);
	pthread_join(t, NULL);
	pthread_join(ha.thread, NULL);
	const char *what = barrier ? "srcu_barrier(A)" : "synchronize_srcu(A)";
	cr_assert(!b_early, "synchronize_srcu(B) returned while a thread that called %s inside B's section was "
		"still inside it", what);
	cr_assert(!r_early, "synchronize_rcu() returned while a thread that called %s inside rcu_read_lock() "
		"was still inside it", what);
}

Test(srcu_domains, synchronize_srcu_inside_another_domains_section_keeps_it, .timeout = 60)
{
	updater_in_sections(false, false);
}

Test(srcu_domains, srcu_barrier_inside_another_domains_section_keeps_it, .timeout = 60)
{
	updater_in_sections(false, true);
}

#if !defined(RCU_FLAVOUR_QSBR)
Test(srcu_domains, synchronize_srcu_inside_rcu_read_lock_keeps_the_default_section, .timeout = 60)
{
	updater_in_sections(true, false);
}
#else
/*
 * QSBR: synchronize_srcu() is a quiescent state of the default domain, as synchronize_rcu() is:
 * an online caller is offline while it waits, so that a QSBR updater that waits for a domain's
 * sleeping readers does not hold up every default grace period meanwhile. (Calling it inside
 * rcu_read_lock() is misuse in QSBR: test/srcu_misuse.c.)
 */
static _Atomic int q_in, q_done;

static void *qsbr_online_updater(void *arg)
{
	(void)arg;
	rcu_register_thread(); /* online */
	atomic_store(&q_in, 1);
	synchronize_srcu(&dom_a);
	atomic_store(&q_done, 1);
	rcu_unregister_thread();
	return NULL;
}

Test(srcu_domains, qsbr_online_caller_of_synchronize_srcu_holds_up_no_default_grace_period, .timeout = 60)
{
	struct holder ha;
	holder_start(&ha, &dom_a, HOLDER_UNREGISTERED, 0);
	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, qsbr_online_updater, NULL), 0);
	cr_assert(test_wait_flag(&q_in, TEST_LIVENESS_MS));
	test_sleep_us(20 * 1000);
	struct async_op sr;
	async_start(&sr, ASYNC_SYNC_RCU, NULL, 0);
	bool ok = test_wait_flag(&sr.returned, TEST_LIVENESS_MS);
	bool waiting = !atomic_load(&q_done);
	holder_stop(&ha);
	pthread_join(t, NULL);
	if (!ok)
		cr_assert(test_wait_flag(&sr.returned, TEST_LIVENESS_MS));
	pthread_join(sr.thread, NULL);
	cr_assert(ok, "synchronize_rcu() waited for an online thread blocked in synchronize_srcu()");
	cr_assert(waiting, "synchronize_srcu(A) returned while A's reader was inside: the test proved nothing");
}
#endif

/* ---- call_srcu() past the high-water mark ----------------------------------------------------------- */
#define HW RCU_CALLBACK_HIGH_WATER
#define PRODUCERS 2
#define PER_PRODUCER (3 * HW)

static struct rcu_head hw_heads[PRODUCERS * PER_PRODUCER + HW + 1000];
static _Atomic long hw_ran;
static _Atomic int hw_queued_inside;

static void hw_cb(struct rcu_head *h)
{
	(void)h;
	atomic_fetch_add_explicit(&hw_ran, 1, memory_order_relaxed);
}

static void *hw_producer(void *arg)
{
	long p = (long)(intptr_t)arg;
	for (long i = 0; i < PER_PRODUCER; i++)
		call_srcu(&dom_b, &hw_heads[p * PER_PRODUCER + i], hw_cb);
	return NULL;
}

/* Inside a section of B, past the mark: the caller must not wait for its own section. */
static void *hw_inside(void *arg)
{
	(void)arg;
	int i = srcu_read_lock(&dom_b);
	for (long k = 0; k < HW + 1000; k++)
		call_srcu(&dom_b, &hw_heads[PRODUCERS * PER_PRODUCER + k], hw_cb);
	atomic_store(&hw_queued_inside, 1);
	srcu_read_unlock(&dom_b, i);
	return NULL;
}

/*
 * Inside a section of another domain C, past B's mark, with callbacks of B that wait for C: the
 * caller must not help (run B's callbacks on its own thread), or the first of those callbacks
 * waits for the caller's own section of C.
 */
DEFINE_STATIC_SRCU(dom_c);
#define WAITING_EVERY 64
static struct rcu_head hw_heads_other[HW + 1000];
static _Atomic int hw_queued_other;

static void hw_cb_waits_for_c(struct rcu_head *h)
{
	synchronize_srcu(&dom_c);
	hw_cb(h);
}

static void *hw_inside_other(void *arg)
{
	(void)arg;
	int i = srcu_read_lock(&dom_c);
	for (long k = 0; k < HW + 1000; k++)
		call_srcu(&dom_b, &hw_heads_other[k], k % WAITING_EVERY == 0 ? hw_cb_waits_for_c : hw_cb);
	atomic_store(&hw_queued_other, 1);
	srcu_read_unlock(&dom_c, i);
	return NULL;
}

Test(srcu_domains, call_srcu_past_the_high_water_mark, .timeout = 60)
{
	pthread_t t[PRODUCERS], in;
	struct holder reader_a; /* a reader of another domain that never leaves: irrelevant to B */
	holder_start(&reader_a, &dom_a, HOLDER_UNREGISTERED, 0);
	for (long p = 0; p < PRODUCERS; p++)
		cr_assert_eq(pthread_create(&t[p], NULL, hw_producer, (void *)(intptr_t)p), 0);
	for (int p = 0; p < PRODUCERS; p++)
		pthread_join(t[p], NULL);
	srcu_barrier(&dom_b);
	struct rcu_stats st;
	srcu_get_stats(&dom_b, &st);
	cr_log_info("%s: %d producers x %d call_srcu(): at most %llu pending (mark %d)", TEST_FLAVOUR, PRODUCERS,
		PER_PRODUCER, (unsigned long long)st.callbacks_pending_max, HW);
	cr_assert_eq(atomic_load(&hw_ran), PRODUCERS * PER_PRODUCER);
	cr_assert_leq(st.callbacks_pending_max, (uint64_t)(HW + PRODUCERS),
		"call_srcu() callers outside B's sections did not help: %llu pending",
		(unsigned long long)st.callbacks_pending_max);
	cr_assert_eq(pthread_create(&in, NULL, hw_inside, NULL), 0);
	bool returned = test_wait_flag(&hw_queued_inside, TEST_LIVENESS_MS);
	cr_assert(returned, "call_srcu() inside a section of its own domain, past the mark, waited for its own "
		"section (deadlock)");
	pthread_join(in, NULL);
	srcu_barrier(&dom_b);
	cr_assert_eq(pthread_create(&in, NULL, hw_inside_other, NULL), 0);
	returned = test_wait_flag(&hw_queued_other, TEST_LIVENESS_MS);
	cr_assert(returned, "call_srcu(B) inside a section of domain C, past the mark, ran B's callbacks itself, "
		"and one that waits for C waited for the caller's own section (deadlock)");
	pthread_join(in, NULL);
	srcu_barrier(&dom_b);
	holder_stop(&reader_a);
	cr_assert_eq(atomic_load(&hw_ran), PRODUCERS * PER_PRODUCER + 2 * (HW + 1000));
}

/* ---- thousands of domains -------------------------------------------------------------------------- */
#define NDOM 5000

static struct srcu_struct *doms;

/* A reader of every domain, then idle (in the registry, outside sections) until told to end. */
static _Atomic int touched, touch_end;

static void *touch_all(void *arg)
{
	(void)arg;
	rcu_register_thread();
	for (int d = 0; d < NDOM; d++) {
		int i = srcu_read_lock(&doms[d]);
		srcu_read_unlock(&doms[d], i);
	}
	atomic_store(&touched, 1);
	test_block_begin();
	while (!atomic_load(&touch_end))
		test_sleep_us(500);
	test_block_end();
	rcu_unregister_thread();
	return NULL;
}

static _Atomic int idle_in;

static void *idle_main(void *arg)
{
	(void)arg;
	rcu_register_thread();
	atomic_store(&idle_in, 1);
	test_block_begin();
	while (!atomic_load(&touch_end))
		test_sleep_us(500);
	test_block_end();
	rcu_unregister_thread();
	return NULL;
}

static double sync_rcu_us(int n)
{
	uint64_t t0 = test_now_ns();
	for (int i = 0; i < n; i++)
		synchronize_rcu();
	return (double)(test_now_ns() - t0) / n / 1e3;
}

Test(srcu_domains, thousands_of_domains_cost_memory_only, .timeout = 60)
{
	pthread_t idle; /* a registered reader outside its sections: grace periods have a thread to scan */
	cr_assert_eq(pthread_create(&idle, NULL, idle_main, NULL), 0);
	cr_assert(test_wait_flag(&idle_in, TEST_LIVENESS_MS));
	double before = sync_rcu_us(200);
	doms = aligned_alloc(64, NDOM * sizeof *doms);
	cr_assert_not_null(doms);
	memset(doms, 0xa5, NDOM * sizeof *doms); /* any content: init_srcu_struct() takes it from there */
#if !defined(TEST_ASAN) && !defined(TEST_TSAN) && defined(__GLIBC__) /* mallinfo2: glibc's */
	struct mallinfo2 m0 = mallinfo2();
#endif
	for (int d = 0; d < NDOM; d++)
		cr_assert_eq(init_srcu_struct(&doms[d]), 0);
#if !defined(TEST_ASAN) && !defined(TEST_TSAN) && defined(__GLIBC__)
	struct mallinfo2 m1 = mallinfo2();
	cr_assert_eq(m1.uordblks, m0.uordblks, "init_srcu_struct() allocated %zd bytes for %d domains",
		(ssize_t)(m1.uordblks - m0.uordblks), NDOM);
#endif
	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, touch_all, NULL), 0);
	cr_assert(test_wait_flag(&touched, TEST_LIVENESS_MS));
	static struct rcu_head heads[NDOM];
	for (int d = 0; d < NDOM; d += 7)
		call_srcu(&doms[d], &heads[d], noop_cb);
	for (int d = 0; d < NDOM; d += 7)
		srcu_barrier(&doms[d]);

	uint64_t *gps = calloc(NDOM, sizeof *gps);
	for (int d = 0; d < NDOM; d++) {
		struct rcu_stats st;
		srcu_get_stats(&doms[d], &st);
		gps[d] = st.grace_periods;
	}
	double with = sync_rcu_us(200);
	uint64_t t0 = test_now_ns();
	for (int i = 0; i < 200; i++)
		synchronize_srcu(&doms[1]);
	double one_domain = (double)(test_now_ns() - t0) / 200 / 1e3;
	long changed = 0;
	for (int d = 0; d < NDOM; d++) {
		struct rcu_stats st;
		srcu_get_stats(&doms[d], &st);
		changed += d != 1 && st.grace_periods != gps[d];
	}
	free(gps);
	for (int d = 0; d < NDOM; d++)
		cleanup_srcu_struct(&doms[d]);
	double after = sync_rcu_us(200);
	atomic_store(&touch_end, 1);
	pthread_join(t, NULL);
	pthread_join(idle, NULL);
	cr_log_info("%s: %d domains of %zu bytes (%.1f MiB in all, no allocation); synchronize_rcu() %.1f us "
		"before, %.1f us with them, %.1f us after cleanup; synchronize_srcu() of one of them %.1f us",
		TEST_FLAVOUR, NDOM, sizeof(struct srcu_struct), NDOM * sizeof(struct srcu_struct) / 1048576.0,
		before, with, after, one_domain);
	cr_assert_eq(changed, 0, "grace periods of one domain and of the default domain ran grace periods in %ld "
		"other domains", changed);
	free(doms);
}

/* ---- retirement, release builds ------------------------------------------------------------------- */
static _Atomic int cleanup_cbs;

static void cleanup_cb(struct rcu_head *h)
{
	(void)h;
	atomic_fetch_add(&cleanup_cbs, 1);
}

/* Release builds: cleanup_srcu_struct() waits for pending callbacks and for readers inside. */
Test(srcu_domains, release_cleanup_waits_for_callbacks_and_readers, .timeout = 60)
{
	static struct srcu_struct d;
	cr_assert_eq(init_srcu_struct(&d), 0);
	struct holder h;
	holder_start(&h, &d, HOLDER_UNREGISTERED, 200 * 1000L);
	atomic_store(&h.release, 1); /* leaves after its 200 ms sleep */
	static struct rcu_head heads[10];
	for (int i = 0; i < 10; i++)
		call_srcu(&d, &heads[i], cleanup_cb);
	cleanup_srcu_struct(&d);
	int ran = atomic_load(&cleanup_cbs);
	bool reader_out = atomic_load(&h.out);
	pthread_join(h.thread, NULL);
	cr_assert_eq(ran, 10, "cleanup_srcu_struct() returned with %d of 10 callbacks run", ran);
	cr_assert(reader_out, "cleanup_srcu_struct() returned while a reader was inside the domain");

	/* A reader inside and no callbacks. */
	cr_assert_eq(init_srcu_struct(&d), 0);
	holder_start(&h, &d, HOLDER_REGISTERED, 150 * 1000L);
	atomic_store(&h.release, 1);
	cleanup_srcu_struct(&d);
	reader_out = atomic_load(&h.out);
	pthread_join(h.thread, NULL);
	cr_assert(reader_out, "cleanup_srcu_struct() returned while a reader was inside the domain");
}

/* A holder that keeps using one address: a domain, then another domain at the same address. */
static struct {
	struct srcu_struct *_Atomic d;
	_Atomic int go, in, release, done;
} reuse;

static void *reuse_reader(void *arg)
{
	(void)arg;
	/* Round 1: tag a slot with the first domain. */
	int i = srcu_read_lock(atomic_load(&reuse.d));
	srcu_read_unlock(atomic_load(&reuse.d), i);
	atomic_store(&reuse.in, 1);
	while (!atomic_load(&reuse.go))
		test_sleep_us(200);
	/* Round 2: the same address, another domain: the old tag matches it. */
	struct srcu_struct *d = atomic_load(&reuse.d);
	i = srcu_read_lock(d);
	atomic_store(&reuse.in, 2);
	while (!atomic_load(&reuse.release))
		test_sleep_us(200);
	atomic_store(&reuse.done, 1);
	srcu_read_unlock(d, i);
	return NULL;
}

/* ---- alignment ---------------------------------------------------------------------------------- */

/*
 * A domain asks for no alignment: it works at every 8-byte offset of a malloc'd block (a reader
 * inside holds up synchronize_srcu(), callbacks run after srcu_barrier()). DEFINE_SRCU() and
 * DEFINE_STATIC_SRCU() put what they define on a cache line (the updaters' shared fields then
 * fill one line: struct rcu__gp in rcu.h), which the type itself does not ask for.
 */
#define ALIGN_OFFSETS (RCU_CACHE_LINE / 8)
DEFINE_SRCU(dom_aligned_extern);

Test(srcu_domains, a_domain_at_any_offset_and_define_srcu_on_a_line, .timeout = 60)
{
	cr_assert_leq(_Alignof(struct srcu_struct), _Alignof(max_align_t),
		"struct srcu_struct asks for %zu-byte alignment: malloc() gives only %zu",
		_Alignof(struct srcu_struct), _Alignof(max_align_t));
	const void *defined[] = { &dom_a, &dom_b, &dom_aligned_extern };
	for (size_t i = 0; i < sizeof defined / sizeof defined[0]; i++)
		cr_assert_eq((uintptr_t)defined[i] % RCU_CACHE_LINE, 0,
			"DEFINE_SRCU()'s domain %zu is at %p, not on a %d-byte line", i, defined[i], RCU_CACHE_LINE);
#if defined(__x86_64__) && defined(__GLIBC__) && RCU_CACHE_LINE == 64
	size_t documented = 528; /* docs/api.md, docs/domains.md */
#if defined(RCU_DEBUG)
	documented = 536;
#endif
	cr_assert_eq(sizeof(struct srcu_struct), documented, "the docs say %zu bytes on x86-64", documented);
#endif
	char *block = malloc(sizeof(struct srcu_struct) + RCU_CACHE_LINE);
	cr_assert_not_null(block);
	for (int k = 0; k < ALIGN_OFFSETS; k++) {
		struct srcu_struct *ssp = (struct srcu_struct *)(void *)(block + 8 * k);
		memset(ssp, 0xa5, sizeof *ssp);
		cr_assert_eq(init_srcu_struct(ssp), 0);
		struct holder h;
		holder_start(&h, ssp, HOLDER_UNREGISTERED, 0);
		struct async_op a;
		async_start(&a, ASYNC_SYNC_SRCU, ssp, 20000);
		cr_assert_eq(atomic_load(&a.returned), 0,
			"offset %d: synchronize_srcu() returned while a reader was inside", 8 * k);
		holder_stop(&h);
		pthread_join(a.thread, NULL);
		static struct rcu_head head;
		atomic_store(&cleanup_cbs, 0);
		call_srcu(ssp, &head, cleanup_cb);
		srcu_barrier(ssp);
		cr_assert_eq(atomic_load(&cleanup_cbs), 1, "offset %d: srcu_barrier() returned before the callback ran", 8 * k);
		cleanup_srcu_struct(ssp);
	}
	free(block);
}

Test(srcu_domains, a_domain_set_up_again_at_a_freed_domains_address, .timeout = 60)
{
	struct srcu_struct *d = malloc(sizeof *d);
	cr_assert_eq(init_srcu_struct(d), 0);
	atomic_store(&reuse.d, d);
	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, reuse_reader, NULL), 0);
	while (atomic_load(&reuse.in) < 1)
		test_sleep_us(200);
	synchronize_srcu(d);
	cleanup_srcu_struct(d);
	memset((void *)d, 0x5a, sizeof *d); /* as free() and a new malloc() may leave it */
	cr_assert_eq(init_srcu_struct(d), 0);
	atomic_store(&reuse.go, 1);
	while (atomic_load(&reuse.in) < 2)
		test_sleep_us(200);
	struct async_op s;
	async_start(&s, ASYNC_SYNC_SRCU, d, 50 * 1000);
	bool early = atomic_load(&s.returned);
	atomic_store(&reuse.release, 1);
	cr_assert(test_wait_flag(&s.returned, TEST_LIVENESS_MS));
	pthread_join(s.thread, NULL);
	pthread_join(t, NULL);
	cr_assert(!early, "synchronize_srcu() of a domain set up again at the same address missed a reader "
		"whose slot still carried the address from before");
	cleanup_srcu_struct(d);
	free(d);

	/* DEFINE_SRCU's domain: retired, then set up again by its next use. */
	synchronize_srcu(&dom_b);
	cleanup_srcu_struct(&dom_b);
	struct holder h;
	holder_start(&h, &dom_b, HOLDER_UNREGISTERED, 0);
	async_start(&s, ASYNC_SYNC_SRCU, &dom_b, 30 * 1000);
	early = atomic_load(&s.returned);
	holder_stop(&h);
	cr_assert(test_wait_flag(&s.returned, TEST_LIVENESS_MS));
	pthread_join(s.thread, NULL);
	cr_assert(!early, "a DEFINE_SRCU domain used again after cleanup_srcu_struct() did not wait for its reader");
	cleanup_srcu_struct(&dom_b);
}
