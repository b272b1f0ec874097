/* SPDX-License-Identifier: 0BSD */
/*
 * test/grace_period.c: the grace-period guarantee of the reference (rcu-requirements-part1.md),
 * one test per example, in every flavour.
 *
 * The racy tests run many rounds (test_rounds(); RCU_TEST_SCALE multiplies them) in which the
 * threads are released together by a barrier and each side widens its window with test_widen().
 * On a loaded machine a round can cost a scheduler time slice, so they also stop after a time
 * budget (ROUND_BUDGET_MS, also scaled): that bounds the work, it asserts nothing about time.
 * Each was checked against private copies of rcu.h with synchronize_rcu() made a no-op, the MB
 * reader fence or the MEMB membarrier removed, or nesting broken: the forbidden outcome then
 * shows up in the default run.
 *
 * Worker threads never assert: they count what they saw, and the test thread asserts on the counts.
 */
#include "rcu.h"
#include "harness.h"

#include <sched.h>
#include <stdbool.h>

/* Liveness bound for "this must eventually return": generous, it only catches a hang. */

/* ---- helpers ------------------------------------------------------------------------------ */

/* Wall-clock budget of a racy test's rounds (see the top of the file). */
#define ROUND_BUDGET_MS 1500

static uint64_t round_deadline(void)
{
	return test_now_ns() + (uint64_t)test_rounds(ROUND_BUDGET_MS) * 1000000u;
}

/*
 * A reusable barrier for a fixed number of threads. It spins, so that the threads leave it
 * within nanoseconds of each other, and blocks after a while, so that a loaded machine (other
 * test programs on the same two cores) does not turn every round into a time slice.
 */
struct spin_barrier {
	_Atomic unsigned arrived;
	_Atomic unsigned generation;
	_Atomic unsigned sleepers;
	unsigned parties;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

#define SPIN_BARRIER_INIT(n) \
	{ .parties = (n), .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER }

static void spin_barrier_wait(struct spin_barrier *b)
{
	unsigned gen = atomic_load(&b->generation);
	if (atomic_fetch_add(&b->arrived, 1) + 1 == b->parties) {
		atomic_store(&b->arrived, 0);
		atomic_store(&b->generation, gen + 1);
		/* seq_cst store, then load: pairs with the sleeper's increment, then load, below. */
		if (atomic_load(&b->sleepers)) {
			pthread_mutex_lock(&b->lock);
			pthread_cond_broadcast(&b->cond);
			pthread_mutex_unlock(&b->lock);
		}
		return;
	}
	for (unsigned i = 0; i < 20000; i++)
		if (atomic_load_explicit(&b->generation, memory_order_acquire) != gen)
			return;
	atomic_fetch_add(&b->sleepers, 1);
	pthread_mutex_lock(&b->lock);
	while (atomic_load(&b->generation) == gen)
		pthread_cond_wait(&b->cond, &b->lock);
	pthread_mutex_unlock(&b->lock);
	atomic_fetch_sub(&b->sleepers, 1);
}

/* Pin the calling thread to the nth CPU it may run on (if there are at least two): the racy
 * tests want their two sides on different cores, which the scheduler does not promise. */
static void pin_to_nth_cpu(int nth)
{
	cpu_set_t allowed;
	if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 || CPU_COUNT(&allowed) < 2)
		return;
	int k = nth % CPU_COUNT(&allowed);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (CPU_ISSET(cpu, &allowed) && k-- == 0) {
			cpu_set_t one;
			CPU_ZERO(&one);
			CPU_SET(cpu, &one);
			pthread_setaffinity_np(pthread_self(), sizeof one, &one);
			return;
		}
	}
}

/* The barrier as a blocking wait of a registered thread (QSBR: offline while waiting). */
static void reader_barrier_wait(struct spin_barrier *b)
{
	test_block_begin();
	spin_barrier_wait(b);
	test_block_end();
}

/* ---- the reference's first example ----------------------------------------------------------
 * thread0: rcu_read_lock(); r1 = x; r2 = y; rcu_read_unlock();
 * thread1: x = 1; synchronize_rcu(); y = 1;
 * (r1 == 0 && r2 == 1) cannot happen. The reader holds its section between the two loads, so a
 * synchronize_rcu() that does not wait lets thread1's two stores land in between.
 */
static struct {
	struct spin_barrier start, end;
	_Atomic int x, y;
	_Atomic int done;   /* set by the updater before a start barrier: no more rounds */
	long rounds;        /* the most rounds; the updater counts the rounds run here */
	bool stuff;         /* store-buffering variant (below) */
	long outcome[2][2]; /* written by the reader only */
} sb = { .start = SPIN_BARRIER_INIT(2), .end = SPIN_BARRIER_INIT(2) };

/*
 * The store-buffering variant aims at the fences rather than at the waiting: the reader's slot
 * store (made in rcu_read_lock()) must be visible to the updater before the reader's first load,
 * or the updater can miss a reader that has already read x == 0. Real store buffers drain within
 * nanoseconds; to widen that window the reader first issues stores to cache lines the updater
 * owns, which x86 drains in order, so its slot store waits behind them while its load of x runs.
 * Without the reader's fence (MB) or the updater's membarrier (MEMB) the forbidden outcome appears.
 */
#define SB_STUFF_LINES 56 /* about a store buffer's worth */
#define SB_UPD_WIDEN 800   /* the updater's random start offset, in test_widen() spins */
static struct {
	_Alignas(64) _Atomic int v;
	char pad[64 - sizeof(_Atomic int)];
} sb_lines[SB_STUFF_LINES];

static void sb_stuff_store_buffer(int value)
{
	for (int i = 0; i < SB_STUFF_LINES; i++)
		atomic_store_explicit(&sb_lines[i].v, value, memory_order_relaxed);
}

static void *sb_reader(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	pin_to_nth_cpu(0);
	rcu_register_thread();
	for (int i = 0;; i++) {
		reader_barrier_wait(&sb.start);
		if (atomic_load(&sb.done))
			break;
		test_widen(&seed, 400);
		if (sb.stuff)
			sb_stuff_store_buffer(i);
		rcu_read_lock();
		int r1 = atomic_load_explicit(&sb.x, memory_order_relaxed);
		test_widen(&seed, 1500);
		int r2 = atomic_load_explicit(&sb.y, memory_order_relaxed);
		rcu_read_unlock();
		rcu_quiescent_state();
		sb.outcome[r1][r2]++;
		reader_barrier_wait(&sb.end);
	}
	rcu_unregister_thread();
	return NULL;
}

static void *sb_updater(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	pin_to_nth_cpu(1);
	uint64_t deadline = round_deadline();
	long i = 0;
	for (;; i++) {
		atomic_store(&sb.done, i >= sb.rounds || test_now_ns() > deadline);
		spin_barrier_wait(&sb.start);
		if (atomic_load(&sb.done))
			break;
		test_widen(&seed, sb.stuff ? SB_UPD_WIDEN : 700);
		atomic_store_explicit(&sb.x, 1, memory_order_relaxed);
		synchronize_rcu();
		atomic_store_explicit(&sb.y, 1, memory_order_relaxed);
		spin_barrier_wait(&sb.end);
		/* Reset before the next start barrier, which orders it before the reader's loads. */
		atomic_store_explicit(&sb.x, 0, memory_order_relaxed);
		atomic_store_explicit(&sb.y, 0, memory_order_relaxed);
		if (sb.stuff)
			sb_stuff_store_buffer(-1); /* take the lines back, so the reader's stores miss */
	}
	sb.rounds = i;
	return NULL;
}

static void sb_run(bool stuff, long rounds)
{
	sb.rounds = rounds;
	sb.stuff = stuff;
	pthread_t r, u;
	cr_assert_eq(pthread_create(&r, NULL, sb_reader, (void *)(uintptr_t)0x1234567), 0);
	cr_assert_eq(pthread_create(&u, NULL, sb_updater, (void *)(uintptr_t)0x89abcdef), 0);
	pthread_join(r, NULL);
	pthread_join(u, NULL);
	cr_log_info("first example%s, %ld rounds: (r1,r2) = (0,0) %ld, (0,1) %ld, (1,0) %ld, (1,1) %ld",
		stuff ? " (store buffering)" : "", sb.rounds, sb.outcome[0][0], sb.outcome[0][1],
		sb.outcome[1][0], sb.outcome[1][1]);
	cr_assert_eq(sb.outcome[0][1], 0,
		"r1 == 0 && r2 == 1 happened %ld times in %ld rounds: synchronize_rcu() returned "
		"before a pre-existing reader finished", sb.outcome[0][1], sb.rounds);
}

Test(grace_period, first_example_forbidden_outcome, .timeout = 100)
{
	sb_run(false, test_rounds(20000));
}

Test(grace_period, first_example_store_buffering, .timeout = 100)
{
	sb_run(true, test_rounds(20000));
}

/* ---- the DLM recovery example -----------------------------------------------------------------
 * Readers run do_something() only when they see STATE_NORMAL; start_recovery() moves the state
 * through WANT_RECOVERY, synchronize_rcu(), RECOVERING, recovery(), WANT_NORMAL, synchronize_rcu(),
 * NORMAL. do_something() and recovery() must never overlap: each announces itself in a flag
 * (seq_cst, so of two overlapping calls at least one sees the other) and checks the other's.
 */
enum { STATE_NORMAL, STATE_WANT_RECOVERY, STATE_RECOVERING, STATE_WANT_NORMAL };

static struct {
	_Atomic int state;
	_Atomic int in_normal;  /* readers inside do_something() */
	_Atomic int recovering; /* recovery() running */
	_Atomic int stop;
	_Atomic long overlaps;
	_Atomic long normal_runs, careful_runs;
} dlm;

static void do_something(uint64_t *seed)
{
	atomic_fetch_add(&dlm.in_normal, 1);
	if (atomic_load(&dlm.recovering))
		atomic_fetch_add(&dlm.overlaps, 1);
	test_widen(seed, 600);
	if (atomic_load(&dlm.recovering))
		atomic_fetch_add(&dlm.overlaps, 1);
	atomic_fetch_sub(&dlm.in_normal, 1);
	atomic_fetch_add_explicit(&dlm.normal_runs, 1, memory_order_relaxed);
}

static void recovery(uint64_t *seed)
{
	atomic_store(&dlm.recovering, 1);
	if (atomic_load(&dlm.in_normal))
		atomic_fetch_add(&dlm.overlaps, 1);
	test_widen(seed, 600);
	if (atomic_load(&dlm.in_normal))
		atomic_fetch_add(&dlm.overlaps, 1);
	atomic_store(&dlm.recovering, 0);
}

static void *dlm_reader(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	rcu_register_thread();
	while (!atomic_load_explicit(&dlm.stop, memory_order_relaxed)) {
		rcu_read_lock();
		int state_snap = atomic_load_explicit(&dlm.state, memory_order_relaxed);
		if (state_snap == STATE_NORMAL)
			do_something(&seed);
		else
			atomic_fetch_add_explicit(&dlm.careful_runs, 1, memory_order_relaxed);
		rcu_read_unlock();
		rcu_quiescent_state();
		/* Yield only while a recovery is under way: yielding elsewhere would hand the core to
		 * start_recovery() exactly between sections, where no overlap can be caught. */
		if (state_snap != STATE_NORMAL)
			sched_yield();
		test_widen(&seed, 100);
	}
	rcu_unregister_thread();
	return NULL;
}

Test(grace_period, dlm_recovery_never_overlaps_normal_work, .timeout = 100)
{
	enum { READERS = 1 }; /* the recoverer and one reader: one core each, when the machine is idle */
	pthread_t readers[READERS];
	uint64_t seed = 42;
	for (int i = 0; i < READERS; i++)
		cr_assert_eq(pthread_create(&readers[i], NULL, dlm_reader, (void *)(uintptr_t)(i + 7)), 0);
	long rounds = test_rounds(2000), i = 0;
	uint64_t deadline = round_deadline();
	for (; i < rounds && test_now_ns() < deadline; i++) {
		atomic_store_explicit(&dlm.state, STATE_WANT_RECOVERY, memory_order_relaxed);
		synchronize_rcu();
		atomic_store_explicit(&dlm.state, STATE_RECOVERING, memory_order_relaxed);
		recovery(&seed);
		atomic_store_explicit(&dlm.state, STATE_WANT_NORMAL, memory_order_relaxed);
		synchronize_rcu();
		atomic_store_explicit(&dlm.state, STATE_NORMAL, memory_order_relaxed);
		/* Let normal work start again before the next recovery (for at most a millisecond). */
		long seen = atomic_load_explicit(&dlm.normal_runs, memory_order_relaxed);
		uint64_t until = test_now_ns() + 1000000u;
		while (atomic_load_explicit(&dlm.normal_runs, memory_order_relaxed) == seen &&
				test_now_ns() < until)
			sched_yield();
	}
	rounds = i;
	atomic_store(&dlm.stop, 1);
	for (int i = 0; i < READERS; i++)
		pthread_join(readers[i], NULL);
	cr_log_info("dlm: %ld recoveries, %ld normal runs, %ld careful runs", rounds,
		atomic_load(&dlm.normal_runs), atomic_load(&dlm.careful_runs));
	cr_assert_gt(atomic_load(&dlm.normal_runs), 0, "no normal work ran: the test proved nothing");
	cr_assert_eq(atomic_load(&dlm.overlaps), 0,
		"do_something() overlapped recovery() %ld times", atomic_load(&dlm.overlaps));
}

/* ---- two grace periods partition read-side sections ---------------------------------------------
 * thread0: lock; a = 1; b = 1; unlock        thread1: r1 = a; synchronize_rcu(); c = 1
 * thread2: r2 = c; synchronize_rcu(); d = 1  thread3: lock; r3 = b; r4 = d; unlock
 * (r1 == 1 && r2 == 1 && r3 == 0 && r4 == 1) cannot happen. thread1 and thread2 wait until they
 * read 1 (so r1 and r2 are always 1 and every round aims at the forbidden outcome); thread0 and
 * thread3 hold their sections (yielding: four threads share two cores) so that grace periods that
 * do not wait would let the whole chain a -> c -> d run inside them.
 */
static struct {
	struct spin_barrier start, end;
	_Atomic int a, b, c, d;
	_Atomic int done;                /* set by thread1 before a start barrier */
	long rounds;                     /* the most rounds; thread1 counts the rounds run here */
	long forbidden, r3_zero, r4_one; /* written by thread3 only */
} gpp = { .start = SPIN_BARRIER_INIT(4), .end = SPIN_BARRIER_INIT(4) };

/* The start of a round for all but thread1: false when thread1 has ended the test. */
static bool gpp_round_starts(bool registered)
{
	if (registered)
		reader_barrier_wait(&gpp.start);
	else
		spin_barrier_wait(&gpp.start);
	return !atomic_load(&gpp.done);
}

static void hold_yielding(uint64_t *seed, unsigned max_yields)
{
	unsigned n = 1 + (unsigned)(test_rand(seed) % max_yields);
	for (unsigned i = 0; i < n; i++)
		sched_yield();
}

static void *gpp_thread0(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	rcu_register_thread();
	while (gpp_round_starts(true)) {
		rcu_read_lock();
		atomic_store_explicit(&gpp.a, 1, memory_order_relaxed);
		hold_yielding(&seed, 8);
		atomic_store_explicit(&gpp.b, 1, memory_order_relaxed);
		rcu_read_unlock();
		rcu_quiescent_state();
		reader_barrier_wait(&gpp.end);
	}
	rcu_unregister_thread();
	return NULL;
}

static void wait_for_one(_Atomic int *v)
{
	for (unsigned i = 0; !atomic_load_explicit(v, memory_order_relaxed); i++)
		if (i > 50)
			sched_yield();
}

static void *gpp_thread1(void *arg)
{
	(void)arg;
	uint64_t deadline = round_deadline();
	long i = 0;
	for (;; i++) {
		atomic_store(&gpp.done, i >= gpp.rounds || test_now_ns() > deadline);
		spin_barrier_wait(&gpp.start);
		if (atomic_load(&gpp.done))
			break;
		wait_for_one(&gpp.a); /* r1 = 1 */
		synchronize_rcu();
		atomic_store_explicit(&gpp.c, 1, memory_order_relaxed);
		spin_barrier_wait(&gpp.end);
		atomic_store_explicit(&gpp.a, 0, memory_order_relaxed);
		atomic_store_explicit(&gpp.b, 0, memory_order_relaxed);
		atomic_store_explicit(&gpp.c, 0, memory_order_relaxed);
		atomic_store_explicit(&gpp.d, 0, memory_order_relaxed);
	}
	gpp.rounds = i;
	return NULL;
}

static void *gpp_thread2(void *arg)
{
	(void)arg;
	while (gpp_round_starts(false)) {
		wait_for_one(&gpp.c); /* r2 = 1 */
		synchronize_rcu();
		atomic_store_explicit(&gpp.d, 1, memory_order_relaxed);
		spin_barrier_wait(&gpp.end);
	}
	return NULL;
}

static void *gpp_thread3(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	rcu_register_thread();
	while (gpp_round_starts(true)) {
		rcu_read_lock();
		int r3 = atomic_load_explicit(&gpp.b, memory_order_relaxed);
		hold_yielding(&seed, 16);
		int r4 = atomic_load_explicit(&gpp.d, memory_order_relaxed);
		rcu_read_unlock();
		rcu_quiescent_state();
		gpp.r3_zero += r3 == 0;
		gpp.r4_one += r4 == 1;
		gpp.forbidden += r3 == 0 && r4 == 1;
		reader_barrier_wait(&gpp.end);
	}
	rcu_unregister_thread();
	return NULL;
}

Test(grace_period, two_grace_periods_partition_readers, .timeout = 100)
{
	gpp.rounds = test_rounds(3000);
	void *(*fn[4])(void *) = { gpp_thread0, gpp_thread1, gpp_thread2, gpp_thread3 };
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, fn[i], (void *)(uintptr_t)(i * 977 + 13)), 0);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	cr_log_info("partition: %ld rounds, r3 == 0 in %ld, r4 == 1 in %ld", gpp.rounds, gpp.r3_zero,
		gpp.r4_one);
	cr_assert_eq(gpp.forbidden, 0,
		"r1 == 1 && r2 == 1 && r3 == 0 && r4 == 1 happened %ld times in %ld rounds",
		gpp.forbidden, gpp.rounds);
}

/* ---- updaters wait only for old readers --------------------------------------------------------
 * An old reader holds a grace period open; a new reader enters while it is in progress; the old
 * reader leaves. synchronize_rcu() must then return although the new reader is still inside.
 * (An implementation that waits for "no reader at all", e.g. a global reader count, hangs here.)
 */
static struct {
	_Atomic int old_in, old_release;
	_Atomic int new_in, new_done;
	struct test_async_sync *sync;
	_Atomic int new_saw_return;   /* synchronize_rcu() returned while the new reader was inside */
	_Atomic int new_was_ongoing;  /* rcu_read_ongoing() was true throughout the wait */
} owr;

static void *owr_old_reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	atomic_store(&owr.old_in, 1);
	/* Inside the section: spin (QSBR: stay online) until told to leave. */
	while (!atomic_load(&owr.old_release))
		test_sleep_us(200);
	rcu_read_unlock();
	rcu_quiescent_state();
	rcu_unregister_thread();
	return NULL;
}

static void *owr_new_reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	atomic_store(&owr.new_in, 1);
	int ongoing = rcu_read_ongoing();
	/* Stay inside until synchronize_rcu() returns (bounded: a hang is reported, not suffered). */
	bool returned = test_wait_flag(&owr.sync->returned, TEST_LIVENESS_MS);
	ongoing = ongoing && rcu_read_ongoing();
	atomic_store(&owr.new_saw_return, returned);
	atomic_store(&owr.new_was_ongoing, ongoing);
	rcu_read_unlock();
	rcu_quiescent_state();
	rcu_unregister_thread();
	atomic_store(&owr.new_done, 1);
	return NULL;
}

Test(grace_period, updaters_wait_only_for_old_readers, .timeout = 60)
{
	struct test_async_sync s;
	owr.sync = &s;
	pthread_t old_r, new_r;
	cr_assert_eq(pthread_create(&old_r, NULL, owr_old_reader, NULL), 0);
	cr_assert(test_wait_flag(&owr.old_in, TEST_LIVENESS_MS));
	test_async_sync_start(&s, 100 * 1000); /* its grace period now waits for the old reader */
	cr_assert(!atomic_load(&s.returned), "synchronize_rcu() returned while an old reader was inside");
	cr_assert_eq(pthread_create(&new_r, NULL, owr_new_reader, NULL), 0);
	cr_assert(test_wait_flag(&owr.new_in, TEST_LIVENESS_MS));
	test_sleep_us(20 * 1000);
	cr_assert(!atomic_load(&s.returned), "synchronize_rcu() returned while an old reader was inside");
	atomic_store(&owr.old_release, 1);
	pthread_join(old_r, NULL);
	/* The new reader now waits, inside its section, for synchronize_rcu() to return. */
	cr_assert(test_wait_flag(&owr.new_done, 2 * TEST_LIVENESS_MS));
	pthread_join(new_r, NULL);
	pthread_join(s.thread, NULL);
	cr_assert(atomic_load(&owr.new_was_ongoing), "rcu_read_ongoing() was false inside the section");
	cr_assert(atomic_load(&owr.new_saw_return),
		"synchronize_rcu() did not return within %d ms while only a reader that began during its "
		"grace period was inside: it waits for new readers", TEST_LIVENESS_MS);
}

/* ---- nesting: a nest is one section -------------------------------------------------------------
 * The reader takes the lock twice. A grace period that starts while the nest is held (before or
 * after the inner unlock) must not end until the outer unlock.
 */
static struct {
	_Atomic int step;      /* main -> reader commands */
	_Atomic int reached;   /* reader -> main acknowledgements */
} nest;

static void nest_wait_step(int want)
{
	while (atomic_load(&nest.step) < want)
		test_sleep_us(200);
}

static void *nest_reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();          /* outer */
	rcu_read_lock();          /* inner */
	atomic_store(&nest.reached, 1);
	nest_wait_step(1);
	rcu_read_unlock();        /* inner */
	atomic_store(&nest.reached, 2);
	nest_wait_step(2);
	rcu_read_lock();          /* a second inner nest, then unlocked at once */
	rcu_read_unlock();
	atomic_store(&nest.reached, 3);
	nest_wait_step(3);
	rcu_read_unlock();        /* outer */
	rcu_quiescent_state();
	atomic_store(&nest.reached, 4);
	rcu_unregister_thread();
	return NULL;
}

static void nest_wait_reached(int want)
{
	uint64_t end = test_now_ns() + (uint64_t)TEST_LIVENESS_MS * 1000000u;
	while (atomic_load(&nest.reached) < want) {
		cr_assert(test_now_ns() < end, "reader did not reach step %d", want);
		test_sleep_us(200);
	}
}

Test(grace_period, nested_sections_are_one_section, .timeout = 60)
{
	pthread_t r;
	struct test_async_sync early, late;
	cr_assert_eq(pthread_create(&r, NULL, nest_reader, NULL), 0);
	nest_wait_reached(1);
	test_async_sync_start(&early, 100 * 1000); /* starts while both levels are held */
	atomic_store(&nest.step, 1);
	nest_wait_reached(2);     /* inner unlocked, outer held */
	test_async_sync_start(&late, 100 * 1000);  /* starts after the inner unlock */
	atomic_store(&nest.step, 2);
	nest_wait_reached(3);     /* another inner lock/unlock pair */
	test_sleep_us(50 * 1000);
	cr_assert(!atomic_load(&early.returned),
		"synchronize_rcu() returned after an inner rcu_read_unlock() while the outer section was held");
	cr_assert(!atomic_load(&late.returned),
		"synchronize_rcu() begun inside the outer section returned before the outer unlock");
	atomic_store(&nest.step, 3);
	cr_assert(test_wait_flag(&early.returned, TEST_LIVENESS_MS), "synchronize_rcu() hung after the outer unlock");
	cr_assert(test_wait_flag(&late.returned, TEST_LIVENESS_MS), "synchronize_rcu() hung after the outer unlock");
	pthread_join(r, NULL);
	pthread_join(early.thread, NULL);
	pthread_join(late.thread, NULL);
}

/* ---- read-to-write upgrade ------------------------------------------------------------------------
 * Upgraders: inside a read section, take the update-side mutex, replace the current node with
 * rcu_assign_pointer(), unlock, leave the section, and hand the old node to a reclaimer thread,
 * which waits with synchronize_rcu(), poisons it and (later) frees it. The counter in the nodes
 * must not lose an update.
 * A reader holds the node it found until the reclaimer has caught up with that node or a bounded
 * wait runs out, then looks at it: a grace period that does not wait for the reader lets the
 * reclaimer poison the node first, which the reader sees.
 */
#define NODE_LIVE 0x11feedbeefull

struct counter_node {
	uint64_t magic;
	long value;
	struct counter_node *retired_next; /* reclaimer's list, under upg.retire_lock */
};

static struct {
	struct counter_node *_Atomic current;
	pthread_mutex_t update_lock;
	pthread_mutex_t retire_lock;
	struct counter_node *retired;
	_Atomic long reclaimed_max; /* largest value the reclaimer has poisoned */
	_Atomic int stop_upgraders, upgraders_done;
	_Atomic long upgrades, poisoned_seen, reads, freed;
} upg = { .update_lock = PTHREAD_MUTEX_INITIALIZER, .retire_lock = PTHREAD_MUTEX_INITIALIZER,
	  .reclaimed_max = -1 };

static void *upg_upgrader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	while (!atomic_load_explicit(&upg.stop_upgraders, memory_order_relaxed)) {
		rcu_read_lock();
		struct counter_node *seen = rcu_dereference(upg.current);
		if (seen->magic != NODE_LIVE)
			atomic_fetch_add(&upg.poisoned_seen, 1);
		/* Upgrade: take the update-side lock while still inside the read section. */
		pthread_mutex_lock(&upg.update_lock);
		struct counter_node *old = rcu_dereference(upg.current); /* stable under the lock */
		struct counter_node *fresh = malloc(sizeof *fresh);
		fresh->magic = NODE_LIVE;
		fresh->value = old->value + 1;
		fresh->retired_next = NULL;
		rcu_assign_pointer(upg.current, fresh);
		pthread_mutex_unlock(&upg.update_lock);
		if (seen->magic != NODE_LIVE) /* still ours to read: we are inside the section */
			atomic_fetch_add(&upg.poisoned_seen, 1);
		rcu_read_unlock();
		rcu_quiescent_state();
		atomic_fetch_add_explicit(&upg.upgrades, 1, memory_order_relaxed);
		pthread_mutex_lock(&upg.retire_lock);
		old->retired_next = upg.retired;
		upg.retired = old;
		pthread_mutex_unlock(&upg.retire_lock);
		sched_yield(); /* four threads share two cores */
	}
	rcu_unregister_thread();
	atomic_fetch_add(&upg.upgraders_done, 1);
	return NULL;
}

static void *upg_reader(void *arg)
{
	long rounds = (long)(intptr_t)arg;
	uint64_t deadline = round_deadline();
	rcu_register_thread();
	for (long i = 0; i < rounds && test_now_ns() < deadline; i++) {
		rcu_read_lock();
		struct counter_node *p = rcu_dereference(upg.current);
		long g = p->value;
		/* Wait (up to 300 us) for the reclaimer to reach this node; it must not while we are inside. */
		uint64_t until = test_now_ns() + 300000u;
		while (atomic_load_explicit(&upg.reclaimed_max, memory_order_acquire) < g && test_now_ns() < until)
			sched_yield();
		bool poisoned = p->magic != NODE_LIVE || p->value != g;
		rcu_read_unlock();
		rcu_quiescent_state();
		if (poisoned)
			atomic_fetch_add(&upg.poisoned_seen, 1);
		atomic_fetch_add_explicit(&upg.reads, 1, memory_order_relaxed);
	}
	rcu_unregister_thread();
	atomic_store(&upg.stop_upgraders, 1);
	return NULL;
}

/* Reclaimed nodes are poisoned and kept poisoned for a while before free() (a quarantine), so a
 * reader that still holds one sees the poison rather than a recycled allocation. */
#define QUARANTINE 512

static void *upg_reclaimer(void *arg)
{
	int upgraders = (int)(intptr_t)arg;
	static struct counter_node *quarantine[QUARANTINE];
	unsigned next_slot = 0;
	for (;;) {
		int done = atomic_load(&upg.upgraders_done) == upgraders;
		pthread_mutex_lock(&upg.retire_lock);
		struct counter_node *batch = upg.retired;
		upg.retired = NULL;
		pthread_mutex_unlock(&upg.retire_lock);
		if (!batch) {
			if (done)
				break;
			sched_yield();
			continue;
		}
		synchronize_rcu();
		while (batch) {
			struct counter_node *next = batch->retired_next;
			long value = batch->value;
			memset(batch, 0xdb, sizeof *batch);
			if (value > atomic_load_explicit(&upg.reclaimed_max, memory_order_relaxed))
				atomic_store_explicit(&upg.reclaimed_max, value, memory_order_release);
			free(quarantine[next_slot]);
			quarantine[next_slot] = batch;
			next_slot = (next_slot + 1) % QUARANTINE;
			atomic_fetch_add_explicit(&upg.freed, 1, memory_order_relaxed);
			batch = next;
		}
	}
	for (unsigned i = 0; i < QUARANTINE; i++)
		free(quarantine[i]);
	return NULL;
}

Test(grace_period, read_to_write_upgrade, .timeout = 100)
{
	enum { UPGRADERS = 2 };
	long rounds = test_rounds(1000);
	struct counter_node *first = malloc(sizeof *first);
	*first = (struct counter_node){ .magic = NODE_LIVE, .value = 0 };
	rcu_init_pointer(upg.current, first);
	pthread_t up[UPGRADERS], rd, rc;
	cr_assert_eq(pthread_create(&rc, NULL, upg_reclaimer, (void *)(intptr_t)UPGRADERS), 0);
	for (int i = 0; i < UPGRADERS; i++)
		cr_assert_eq(pthread_create(&up[i], NULL, upg_upgrader, NULL), 0);
	cr_assert_eq(pthread_create(&rd, NULL, upg_reader, (void *)(intptr_t)rounds), 0);
	pthread_join(rd, NULL);
	for (int i = 0; i < UPGRADERS; i++)
		pthread_join(up[i], NULL);
	pthread_join(rc, NULL);
	long upgrades = atomic_load(&upg.upgrades);
	cr_log_info("upgrade: %ld upgrades, %ld reads", upgrades, atomic_load(&upg.reads));
	struct counter_node *last = rcu_access_pointer(upg.current);
	cr_assert_eq(last->value, upgrades, "lost updates: %ld of %ld", last->value, upgrades);
	cr_assert_eq(atomic_load(&upg.freed), upgrades);
	cr_assert_eq(atomic_load(&upg.poisoned_seen), 0, "a reader saw a reclaimed node %ld times",
		atomic_load(&upg.poisoned_seen));
	free(last);
}

/* ---- concurrent callers share grace periods -----------------------------------------------------
 * With a reader holding a grace period open, N callers of synchronize_rcu() queue behind it; once
 * it leaves, at most two grace periods serve them all (the one in progress when they arrived, and
 * one that starts after all of them arrived).
 */
enum { SHARERS = 8 };

static struct {
	_Atomic int hold_in, hold_release;
	_Atomic int calling, returned;
	_Atomic int stop;
	_Atomic long calls;
	long per_thread;
} share;

static void *share_holder(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	atomic_store(&share.hold_in, 1);
	while (!atomic_load(&share.hold_release))
		test_sleep_us(200);
	rcu_read_unlock();
	rcu_quiescent_state();
	rcu_unregister_thread();
	return NULL;
}

static void *share_caller_once(void *arg)
{
	(void)arg;
	atomic_fetch_add(&share.calling, 1);
	synchronize_rcu();
	atomic_fetch_add(&share.returned, 1);
	return NULL;
}

Test(grace_period, overlapping_callers_share_grace_periods, .timeout = 60)
{
	pthread_t holder, callers[SHARERS];
	cr_assert_eq(pthread_create(&holder, NULL, share_holder, NULL), 0);
	uint64_t end = test_now_ns() + (uint64_t)TEST_LIVENESS_MS * 1000000u;
	while (!atomic_load(&share.hold_in))
		test_sleep_us(200);
	struct rcu_stats before, after;
	rcu_get_stats(&before);
	for (int i = 0; i < SHARERS; i++)
		cr_assert_eq(pthread_create(&callers[i], NULL, share_caller_once, NULL), 0);
	while (atomic_load(&share.calling) < SHARERS && test_now_ns() < end)
		test_sleep_us(200);
	cr_assert_eq(atomic_load(&share.calling), SHARERS);
	test_sleep_us(100 * 1000); /* every caller is now inside synchronize_rcu() */
	cr_assert_eq(atomic_load(&share.returned), 0, "synchronize_rcu() returned while a reader was inside");
	atomic_store(&share.hold_release, 1);
	pthread_join(holder, NULL);
	for (int i = 0; i < SHARERS; i++)
		pthread_join(callers[i], NULL);
	rcu_get_stats(&after);
	uint64_t gps = after.grace_periods - before.grace_periods;
	cr_log_info("%d overlapping callers cost %llu grace periods", SHARERS, (unsigned long long)gps);
	cr_assert_geq(gps, 1, "%d synchronize_rcu() calls completed no grace period at all", SHARERS);
	cr_assert_leq(gps, 2, "%d overlapping synchronize_rcu() calls cost %llu grace periods (at most 2)",
		SHARERS, (unsigned long long)gps);
}

/*
 * The same in a loop: N threads call synchronize_rcu() over and over while two readers keep
 * sections open in relay: only the holder of a token leaves and re-enters its section, then hands
 * the token over, so one of them is always inside a section older than any grace period that
 * begins. Every grace period therefore lasts a while and the callers pile up behind it: they must
 * share, at about two grace periods per wave of N calls. Without sharing, every call costs one.
 */
static struct {
	_Atomic int token, ready;
} relay;

static void *share_relay_reader(void *arg)
{
	int me = (int)(intptr_t)arg;
	rcu_register_thread();
	rcu_read_lock();
	atomic_fetch_add(&relay.ready, 1);
	while (!atomic_load_explicit(&share.stop, memory_order_relaxed)) {
		if (atomic_load(&relay.token) != me) {
			test_sleep_us(50); /* inside the section: fine, it only holds grace periods */
			continue;
		}
		test_sleep_us(2000); /* long against scheduling delays, so callers pile up even under load */
		rcu_read_unlock();
		rcu_quiescent_state();
		rcu_read_lock();
		atomic_store(&relay.token, 1 - me);
	}
	rcu_read_unlock();
	rcu_quiescent_state();
	rcu_unregister_thread();
	return NULL;
}

static void *share_caller_loop(void *arg)
{
	(void)arg;
	for (long i = 0; i < share.per_thread; i++) {
		synchronize_rcu();
		atomic_fetch_add_explicit(&share.calls, 1, memory_order_relaxed);
	}
	return NULL;
}

Test(grace_period, looping_callers_share_grace_periods, .timeout = 100)
{
	share.per_thread = test_rounds(40);
	pthread_t readers[2], callers[SHARERS];
	for (int i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&readers[i], NULL, share_relay_reader, (void *)(intptr_t)i), 0);
	while (atomic_load(&relay.ready) < 2)
		test_sleep_us(200);
	struct rcu_stats before, after;
	rcu_get_stats(&before);
	for (int i = 0; i < SHARERS; i++)
		cr_assert_eq(pthread_create(&callers[i], NULL, share_caller_loop, NULL), 0);
	for (int i = 0; i < SHARERS; i++)
		pthread_join(callers[i], NULL);
	rcu_get_stats(&after);
	atomic_store(&share.stop, 1);
	for (int i = 0; i < 2; i++)
		pthread_join(readers[i], NULL);
	uint64_t gps = after.grace_periods - before.grace_periods;
	long calls = atomic_load(&share.calls);
	cr_log_info("%ld synchronize_rcu() calls from %d threads cost %llu grace periods", calls, SHARERS,
		(unsigned long long)gps);
	cr_assert_eq(calls, SHARERS * share.per_thread);
	cr_assert_geq(gps, 1);
	cr_assert_leq(gps * 2, (uint64_t)calls,
		"%ld overlapping calls cost %llu grace periods: callers do not share", calls,
		(unsigned long long)gps);
}

/* ---- issue #18, logic mutants (docs/mutants.md): survivors of the first run ----------------------- */

/*
 * The outermost rcu_read_unlock() of a nest ends the section, in a thread that stays registered
 * afterwards. nested_sections_are_one_section's reader unregisters right after its outer unlock,
 * which clears its slot whatever the count says; mutant read-unlock-nesting-not-restored (a
 * nested unlock that does not decrement the count, so the outer unlock never clears the slot)
 * passed it. Here the reader stays registered and outside any section.
 */
static struct {
	_Atomic int left, release;
} nest_end;

static void *nest_then_stay(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	rcu_read_lock();
	rcu_read_unlock();
	rcu_read_lock();
	rcu_read_unlock();
	rcu_read_unlock();
	rcu_quiescent_state();
	atomic_store(&nest_end.left, 1);
	test_block_begin();
	while (!atomic_load(&nest_end.release))
		test_sleep_us(200);
	test_block_end();
	rcu_unregister_thread();
	return NULL;
}

Test(grace_period, the_outermost_unlock_ends_a_nest, .timeout = 60)
{
	pthread_t r;
	cr_assert_eq(pthread_create(&r, NULL, nest_then_stay, NULL), 0);
	cr_assert(test_wait_flag(&nest_end.left, TEST_LIVENESS_MS));
	struct test_async_sync s;
	test_async_sync_start(&s, 0);
	cr_assert(test_wait_flag(&s.returned, TEST_LIVENESS_MS),
		"synchronize_rcu() hung: a registered thread left its nested section, and its slot stayed set");
	atomic_store(&nest_end.release, 1);
	pthread_join(r, NULL);
	pthread_join(s.thread, NULL);
}
