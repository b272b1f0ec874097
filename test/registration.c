/* SPDX-License-Identifier: 0BSD */
/*
 * test/registration.c: reader registration. Threads that exit registered (even inside a section,
 * in release builds) are unregistered and hold up no grace period; many threads register, read
 * and leave while grace periods run; rcu_read_ongoing(); BP readers that never register; QSBR's
 * online/offline rules.
 *
 * "Must return" checks are liveness checks with a generous bound (TEST_LIVENESS_MS), never timings.
 * Worker threads never assert: they count what they saw, and the test thread asserts on the counts.
 */
#include "rcu.h"
#include "harness.h"

#include <sched.h>
#include <stdbool.h>


/* ---- helpers ------------------------------------------------------------------------------ */

/* synchronize_rcu() must return (liveness); fails the test with `why` if it does not. */
static void assert_synchronize_returns(const char *why)
{
	struct test_async_sync s;
	test_async_sync_start(&s, 0);
	cr_assert(test_wait_flag(&s.returned, TEST_LIVENESS_MS), "synchronize_rcu() did not return within %d ms: %s",
		TEST_LIVENESS_MS, why);
	pthread_join(s.thread, NULL);
}

static void start_thread(pthread_t *t, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	cr_assert_eq(pthread_create(t, &attr, fn, arg), 0);
	pthread_attr_destroy(&attr);
}

/* ---- threads that exit registered ------------------------------------------------------------ */

static void *exit_registered(void *arg)
{
	(void)arg;
	rcu_register_thread();
	for (int i = 0; i < 100; i++) {
		rcu_read_lock();
		rcu_read_unlock();
		rcu_quiescent_state();
	}
	return NULL; /* no rcu_unregister_thread(): unregistered at exit */
}

/*
 * Run fn in a thread whose stack (and so, with glibc, its thread-local reader record) is memory
 * the test owns; after the join, scribble over all of it. A registry that still lists the exited
 * thread then finds a reader "inside a section of grace period 1" (or a wild link) instead of the
 * zero that freed-but-cached stacks happen to hold, and hangs or crashes rather than passing by luck.
 */
#define OWNED_STACK (2 * 1024 * 1024) /* TSan needs about 1 MiB of it for its thread-local state */

static void *owned_stacks[8] __attribute__((used));
static int owned_stacks_kept;

static void run_on_owned_stack_and_scribble(void *(*fn)(void *))
{
	void *stack = NULL;
	cr_assert_eq(posix_memalign(&stack, 4096, OWNED_STACK), 0);
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	cr_assert_eq(pthread_attr_setstack(&attr, stack, OWNED_STACK), 0);
	pthread_t t;
	cr_assert_eq(pthread_create(&t, &attr, fn, NULL), 0);
	pthread_attr_destroy(&attr);
	pthread_join(t, NULL);
	uint64_t *w = stack;
	for (size_t i = 0; i < OWNED_STACK / sizeof *w; i++)
		w[i] = 1;
	/* The memory stays allocated (and scribbled) until the process ends: reachable, for LSan. */
	if (owned_stacks_kept < 8)
		owned_stacks[owned_stacks_kept++] = stack;
}

Test(registration, thread_exit_unregisters, .timeout = 60)
{
	pthread_t t;
	start_thread(&t, exit_registered, NULL);
	pthread_join(t, NULL);
	assert_synchronize_returns("a thread that exited registered still holds grace periods");
	run_on_owned_stack_and_scribble(exit_registered);
	assert_synchronize_returns("the registry still lists a thread that exited registered");
}

/* In release builds a thread that ends inside a section drops it (RCU_DEBUG aborts instead). */
static void *exit_in_section(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	rcu_read_lock();
	rcu_read_unlock();
	return NULL; /* still inside the outer section */
}

Test(registration, thread_exit_inside_section_unregisters, .timeout = 60)
{
	pthread_t t;
	start_thread(&t, exit_in_section, NULL);
	pthread_join(t, NULL);
	assert_synchronize_returns("a thread that exited inside a section still holds grace periods");
	assert_synchronize_returns("a second grace period after that thread's exit");
	run_on_owned_stack_and_scribble(exit_in_section);
	assert_synchronize_returns("the registry still lists a thread that exited inside a section");
}

/* A thread that registers, unregisters and registers again is a reader again. */
static struct {
	_Atomic int in, release;
} rereg;

static void *reregister(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	rcu_read_unlock();
	rcu_unregister_thread();
	rcu_register_thread();
	rcu_read_lock();
	atomic_store(&rereg.in, 1);
	while (!atomic_load(&rereg.release))
		test_sleep_us(200);
	rcu_read_unlock();
	rcu_unregister_thread();
	return NULL;
}

Test(registration, reregistered_thread_is_waited_for, .timeout = 60)
{
	pthread_t t;
	start_thread(&t, reregister, NULL);
	cr_assert(test_wait_flag(&rereg.in, TEST_LIVENESS_MS));
	struct test_async_sync s;
	test_async_sync_start(&s, 0);
	test_sleep_us(50 * 1000);
	cr_assert(!atomic_load(&s.returned),
		"synchronize_rcu() returned while a re-registered reader was inside its section");
	atomic_store(&rereg.release, 1);
	cr_assert(test_wait_flag(&s.returned, TEST_LIVENESS_MS), "synchronize_rcu() hung after the reader left");
	pthread_join(t, NULL);
	pthread_join(s.thread, NULL);
}

/* A registered thread outside any section may call synchronize_rcu() (QSBR: while online; the
 * call must not wait for the caller itself) and is still a reader afterwards. */
static struct {
	_Atomic int done;
	_Atomic int ongoing_after;
} selfsync;

static void *registered_synchronizer(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	rcu_read_unlock();
	synchronize_rcu();
	synchronize_rcu();
	atomic_store(&selfsync.ongoing_after, rcu_read_ongoing());
	rcu_unregister_thread();
	atomic_store(&selfsync.done, 1);
	return NULL;
}

Test(registration, registered_thread_may_synchronize, .timeout = 60)
{
	pthread_t t;
	start_thread(&t, registered_synchronizer, NULL);
	cr_assert(test_wait_flag(&selfsync.done, TEST_LIVENESS_MS),
		"synchronize_rcu() from a registered thread outside any section did not return");
	pthread_join(t, NULL);
#if defined(RCU_FLAVOUR_QSBR)
	cr_assert(atomic_load(&selfsync.ongoing_after), "QSBR: the caller is not online again after synchronize_rcu()");
#else
	cr_assert(!atomic_load(&selfsync.ongoing_after));
#endif
}

/* ---- many threads come and go while grace periods run ------------------------------------------
 * A grace-period thread keeps replacing the published node, waiting with synchronize_rcu() and
 * poisoning the old one. Phase 1: WIDE threads are registered at once (more than any fixed-size
 * registry of 64 would hold), read, and leave. Phase 2: CHURN threads in waves, registering,
 * reading, and leaving in three ways: unregister; exit registered; unregister, register again
 * and exit registered.
 */
#define NODE_LIVE 0x11feedbeefull
enum { WIDE = 100, CHURN = 64, WAVE = 8, SECTIONS = 100 };

struct node {
	uint64_t magic;
	long gen;
};

static struct {
	struct node *_Atomic cur;
	_Atomic int stop;
	_Atomic int gp_thread_done;
	_Atomic long grace_periods, bad_seen, reads;
	pthread_barrier_t wide_barrier;
} many;

#define QUARANTINE 256

static void *many_gp_thread(void *arg)
{
	(void)arg;
	static struct node *quarantine[QUARANTINE];
	unsigned next = 0;
	long gen = 1;
	while (!atomic_load(&many.stop)) {
		struct node *fresh = malloc(sizeof *fresh);
		fresh->magic = NODE_LIVE;
		fresh->gen = ++gen;
		struct node *old = rcu_xchg_pointer(&many.cur, fresh);
		synchronize_rcu();
		memset(old, 0xdb, sizeof *old);
		free(quarantine[next]);
		quarantine[next] = old;
		next = (next + 1) % QUARANTINE;
		atomic_fetch_add(&many.grace_periods, 1);
	}
	for (unsigned i = 0; i < QUARANTINE; i++)
		free(quarantine[i]);
	atomic_store(&many.gp_thread_done, 1);
	return NULL;
}

/* Every fourth section holds its node until the grace-period thread has completed two grace
 * periods since (which it cannot while we are inside) or a bounded wait runs out, then looks. */
static void read_some(uint64_t *seed)
{
	for (int i = 0; i < SECTIONS; i++) {
		rcu_read_lock();
		struct node *p = rcu_dereference(many.cur);
		long gps = atomic_load(&many.grace_periods);
		bool bad = p->magic != NODE_LIVE;
		if (i % 4 == 0) {
			uint64_t until = test_now_ns() + 50000u; /* for up to 50 us */
			while (atomic_load(&many.grace_periods) < gps + 2 && test_now_ns() < until)
				sched_yield();
		} else
			test_widen(seed, 200);
		bad = bad || p->magic != NODE_LIVE;
		rcu_read_unlock();
		rcu_quiescent_state();
		if (bad)
			atomic_fetch_add(&many.bad_seen, 1);
		atomic_fetch_add_explicit(&many.reads, 1, memory_order_relaxed);
	}
}

static void leave(long i)
{
	switch (i % 3) {
	case 0:
		rcu_unregister_thread();
		break;
	case 1:
		break; /* exit registered */
	default:
		rcu_unregister_thread();
		rcu_register_thread();
		read_some(&(uint64_t){ (uint64_t)i + 1 });
		break; /* exit registered, a second time */
	}
}

static void *many_wide_reader(void *arg)
{
	long i = (long)(intptr_t)arg;
	uint64_t seed = (uint64_t)i * 7919 + 1;
	rcu_register_thread();
	test_block_begin();
	pthread_barrier_wait(&many.wide_barrier); /* all WIDE threads registered at once */
	test_block_end();
	read_some(&seed);
	leave(i);
	return NULL;
}

static void *many_churn_reader(void *arg)
{
	long i = (long)(intptr_t)arg;
	uint64_t seed = (uint64_t)i * 104729 + 3;
	rcu_register_thread();
	read_some(&seed);
	leave(i);
	return NULL;
}

Test(registration, many_threads_register_read_and_leave, .timeout = 100)
{
	struct node *first = malloc(sizeof *first);
	*first = (struct node){ .magic = NODE_LIVE, .gen = 1 };
	rcu_init_pointer(many.cur, first);
	pthread_barrier_init(&many.wide_barrier, NULL, WIDE);
	pthread_t gp, wide[WIDE], churn[WAVE];
	start_thread(&gp, many_gp_thread, NULL);

	for (long i = 0; i < WIDE; i++)
		start_thread(&wide[i], many_wide_reader, (void *)(intptr_t)i);
	for (long i = 0; i < WIDE; i++)
		pthread_join(wide[i], NULL);
	long gps_after_wide = atomic_load(&many.grace_periods);

	long waves = test_rounds(CHURN / WAVE);
	for (long w = 0; w < waves; w++) {
		for (long i = 0; i < WAVE; i++)
			start_thread(&churn[i], many_churn_reader, (void *)(intptr_t)(w * WAVE + i));
		for (long i = 0; i < WAVE; i++)
			pthread_join(churn[i], NULL);
	}
	/* On a loaded machine the readers can all be done before the updater is first scheduled:
	 * let it finish one grace period (a liveness bound, not a timing check). */
	uint64_t end = test_now_ns() + (uint64_t)TEST_LIVENESS_MS * 1000000u;
	while (atomic_load(&many.grace_periods) == 0 && test_now_ns() < end)
		test_sleep_us(1000);
	atomic_store(&many.stop, 1);
	cr_assert(test_wait_flag(&many.gp_thread_done, TEST_LIVENESS_MS),
		"the grace-period thread's last synchronize_rcu() did not return after every reader left");
	pthread_join(gp, NULL);
	pthread_barrier_destroy(&many.wide_barrier);
	assert_synchronize_returns("after many threads exited, some registered");
	cr_log_info("many: %d wide + %ld churn threads, %ld reads, %ld grace periods (%ld during the wide phase)",
		WIDE, waves * WAVE, atomic_load(&many.reads), atomic_load(&many.grace_periods), gps_after_wide);
	cr_assert_gt(atomic_load(&many.grace_periods), 0);
	cr_assert_eq(atomic_load(&many.bad_seen), 0, "readers saw a reclaimed node %ld times",
		atomic_load(&many.bad_seen));
	free(rcu_access_pointer(many.cur));
}

/* ---- rcu_read_ongoing() ------------------------------------------------------------------------ */

#if defined(RCU_FLAVOUR_QSBR)
Test(registration, read_ongoing_qsbr)
{
	cr_assert(!rcu_read_ongoing(), "unregistered thread");
	rcu_register_thread();
	cr_assert(rcu_read_ongoing(), "registered threads are online");
	rcu_read_lock();
	cr_assert(rcu_read_ongoing());
	rcu_read_unlock();
	cr_assert(rcu_read_ongoing(), "still online after rcu_read_unlock()");
	rcu_quiescent_state();
	cr_assert(rcu_read_ongoing(), "still online after a quiescent state");
	rcu_thread_offline();
	cr_assert(!rcu_read_ongoing(), "offline");
	synchronize_rcu(); /* offline caller */
	cr_assert(!rcu_read_ongoing(), "synchronize_rcu() brought an offline caller online");
	rcu_thread_online();
	cr_assert(rcu_read_ongoing(), "online again");
	synchronize_rcu(); /* online caller: offline during the wait, online after */
	cr_assert(rcu_read_ongoing(), "synchronize_rcu() left an online caller offline");
	rcu_unregister_thread();
	cr_assert(!rcu_read_ongoing(), "unregistered");
}
#else
Test(registration, read_ongoing)
{
	cr_assert(!rcu_read_ongoing(), "before registration");
	rcu_register_thread();
	cr_assert(!rcu_read_ongoing(), "registered, outside any section");
	rcu_read_lock();
	cr_assert(rcu_read_ongoing());
	rcu_read_lock();
	cr_assert(rcu_read_ongoing());
	rcu_read_unlock();
	cr_assert(rcu_read_ongoing(), "after the inner unlock of a nest");
	rcu_read_unlock();
	cr_assert(!rcu_read_ongoing(), "after the outer unlock");
	synchronize_rcu();
	cr_assert(!rcu_read_ongoing());
	rcu_unregister_thread();
	cr_assert(!rcu_read_ongoing(), "unregistered");
}
#endif

/* ---- BP: a thread that never registers ----------------------------------------------------------- */
#if defined(RCU_FLAVOUR_BP)
static struct {
	_Atomic int in, release, out;
	_Atomic int ongoing_inside;
} bp;

static void *bp_unregistered_reader(void *arg)
{
	(void)arg;
	/* No rcu_register_thread(): BP registers on first use. */
	rcu_read_lock();
	atomic_store(&bp.ongoing_inside, rcu_read_ongoing());
	atomic_store(&bp.in, 1);
	while (!atomic_load(&bp.release))
		test_sleep_us(200);
	rcu_read_unlock();
	atomic_store(&bp.out, 1);
	return NULL; /* nor rcu_unregister_thread() */
}

Test(registration, bp_unregistered_reader_is_waited_for, .timeout = 60)
{
	pthread_t t;
	start_thread(&t, bp_unregistered_reader, NULL);
	cr_assert(test_wait_flag(&bp.in, TEST_LIVENESS_MS));
	cr_assert(atomic_load(&bp.ongoing_inside));
	struct test_async_sync s;
	test_async_sync_start(&s, 0);
	test_sleep_us(50 * 1000);
	cr_assert(!atomic_load(&s.returned),
		"synchronize_rcu() returned while a BP reader that never registered was inside");
	atomic_store(&bp.release, 1);
	cr_assert(test_wait_flag(&s.returned, TEST_LIVENESS_MS), "synchronize_rcu() hung after the BP reader left");
	pthread_join(t, NULL);
	pthread_join(s.thread, NULL);
	assert_synchronize_returns("a BP reader that exited still holds grace periods");
}
#endif

/* ---- QSBR: online threads hold grace periods until they report, offline ones never ---------------- */
#if defined(RCU_FLAVOUR_QSBR)
static struct {
	_Atomic int ready, proceed, done;
	int how; /* 0: report a quiescent state; 1: go offline; 2: unregister */
} qs;

static void *qsbr_offline_sleeper(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_thread_offline();
	atomic_store(&qs.ready, 1);
	while (!atomic_load(&qs.proceed))
		test_sleep_us(200); /* offline: may block */
	rcu_thread_online();
	rcu_unregister_thread();
	return NULL;
}

Test(registration, qsbr_offline_thread_does_not_hold_grace_periods, .timeout = 60)
{
	pthread_t t;
	start_thread(&t, qsbr_offline_sleeper, NULL);
	cr_assert(test_wait_flag(&qs.ready, TEST_LIVENESS_MS));
	assert_synchronize_returns("an offline QSBR thread holds up grace periods");
	assert_synchronize_returns("an offline QSBR thread holds up grace periods (second)");
	atomic_store(&qs.proceed, 1);
	pthread_join(t, NULL);
}

static void *qsbr_silent_online(void *arg)
{
	(void)arg;
	rcu_register_thread(); /* online */
	atomic_store(&qs.ready, 1);
	while (!atomic_load(&qs.proceed))
		test_sleep_us(200); /* online and not reporting: holds grace periods */
	switch (qs.how) {
	case 0:
		/* Report, and stay online: the report alone must let the grace period end. The
		 * thread waits for nothing that needs a grace period, so staying online is safe. */
		rcu_quiescent_state();
		while (!atomic_load(&qs.done))
			test_sleep_us(200);
		break;
	case 1:
		rcu_thread_offline();
		while (!atomic_load(&qs.done))
			test_sleep_us(200);
		rcu_thread_online();
		break;
	case 3:
		/* rcu_thread_online() on an online thread is a quiescent state (api.md), and the
		 * updater has slept on its futex for 50 ms by now: the report must wake it. */
		rcu_thread_online();
		while (!atomic_load(&qs.done))
			test_sleep_us(200);
		break;
	default:
		break;
	}
	rcu_unregister_thread();
	return NULL;
}

static void qsbr_silent_online_case(int how, const char *release_name)
{
	qs.how = how;
	pthread_t t;
	start_thread(&t, qsbr_silent_online, NULL);
	cr_assert(test_wait_flag(&qs.ready, TEST_LIVENESS_MS));
	struct test_async_sync s;
	test_async_sync_start(&s, 0);
	test_sleep_us(50 * 1000);
	cr_assert(!atomic_load(&s.returned),
		"synchronize_rcu() returned while a QSBR thread was online and had not reported");
	atomic_store(&qs.proceed, 1);
	cr_assert(test_wait_flag(&s.returned, TEST_LIVENESS_MS), "synchronize_rcu() hung after the thread's %s",
		release_name);
	atomic_store(&qs.done, 1);
	pthread_join(t, NULL);
	pthread_join(s.thread, NULL);
}

Test(registration, qsbr_online_thread_holds_until_quiescent_state, .timeout = 60)
{
	qsbr_silent_online_case(0, "rcu_quiescent_state()");
}

Test(registration, qsbr_online_thread_holds_until_offline, .timeout = 60)
{
	qsbr_silent_online_case(1, "rcu_thread_offline()");
}

Test(registration, qsbr_online_thread_holds_until_unregister, .timeout = 60)
{
	qsbr_silent_online_case(2, "rcu_unregister_thread()");
}

Test(registration, qsbr_online_thread_holds_until_online_again, .timeout = 60)
{
	qsbr_silent_online_case(3, "rcu_thread_online() while online (a quiescent state)");
}
#endif

/* ---- issue #18, logic mutants (docs/mutants.md): survivors of the first run ----------------------- */

/*
 * A thread that read an SRCU domain before registering is already in the registry (adopted):
 * rcu_register_thread() must not link it a second time. Linked again as the registry's head, its
 * record pointed at itself and the readers behind it were lost: a grace period either missed an
 * older reader or went round the loop for ever (mutant register-relinks-adopted, which
 * srcu/updaters_wait_for_all_old_readers_and_only_them missed: there the thread unregistered at
 * once, which took it out of the loop).
 */
DEFINE_STATIC_SRCU(reg_adopt_dom);
static struct {
	_Atomic int registered, release;
} reg_adopt;

static void *read_srcu_then_register(void *arg)
{
	(void)arg;
	int idx = srcu_read_lock(&reg_adopt_dom); /* adopted: joins the registry as its head */
	srcu_read_unlock(&reg_adopt_dom, idx);
	rcu_register_thread();
	atomic_store(&reg_adopt.registered, 1);
	test_block_begin();
	while (!atomic_load(&reg_adopt.release))
		test_sleep_us(200);
	test_block_end();
	rcu_unregister_thread();
	return NULL;
}

Test(registration, adopted_thread_that_registers_keeps_the_registry_whole, .timeout = 60)
{
	pthread_t holder, t;
	cr_assert(test_holder_start(&holder), "the holder did not enter its section");
	start_thread(&t, read_srcu_then_register, NULL);
	cr_assert(test_wait_flag(&reg_adopt.registered, TEST_LIVENESS_MS));
	struct test_async_sync s;
	test_async_sync_start(&s, 0);
	test_sleep_us(50 * 1000);
	cr_assert(!atomic_load(&s.returned),
		"synchronize_rcu() returned while an older reader was inside, after an adopted thread registered");
	atomic_store(&test_holder.release, 1); /* not joined yet: a registry loop would hang its unregister */
	cr_assert(test_wait_flag(&s.returned, TEST_LIVENESS_MS),
		"synchronize_rcu() hung after the reader left, after an adopted thread registered");
	pthread_join(holder, NULL);
	atomic_store(&reg_adopt.release, 1);
	pthread_join(t, NULL);
	pthread_join(s.thread, NULL);
	assert_synchronize_returns("after both threads left");
}

/*
 * A registered thread outside any section may call synchronize_rcu() while other registered
 * threads exist (registered_thread_may_synchronize is alone in the registry, where no scan runs).
 * QSBR: the online caller goes offline for the wait, or it would wait for itself (mutant
 * qsbr-wait-does-not-go-offline).
 */
static struct {
	_Atomic int idle, release, done, ongoing_after;
} beside;

static void *idle_registered(void *arg)
{
	(void)arg;
	rcu_register_thread();
	atomic_store(&beside.idle, 1);
	test_block_begin();
	while (!atomic_load(&beside.release))
		test_sleep_us(200);
	test_block_end();
	rcu_unregister_thread();
	return NULL;
}

static void *synchronize_beside(void *arg)
{
	(void)arg;
	rcu_register_thread();
	synchronize_rcu();
	synchronize_rcu();
	atomic_store(&beside.ongoing_after, rcu_read_ongoing());
	atomic_store(&beside.done, 1);
	rcu_unregister_thread();
	return NULL;
}

Test(registration, registered_thread_may_synchronize_beside_other_readers, .timeout = 60)
{
	pthread_t idle, t;
	start_thread(&idle, idle_registered, NULL);
	cr_assert(test_wait_flag(&beside.idle, TEST_LIVENESS_MS));
	start_thread(&t, synchronize_beside, NULL);
	cr_assert(test_wait_flag(&beside.done, TEST_LIVENESS_MS),
		"synchronize_rcu() from a registered thread outside any section, beside another registered thread, did not return");
	pthread_join(t, NULL);
#if defined(RCU_FLAVOUR_QSBR)
	cr_assert(atomic_load(&beside.ongoing_after), "QSBR: the caller is not online again after synchronize_rcu()");
#endif
	atomic_store(&beside.release, 1);
	pthread_join(idle, NULL);
}

#if defined(RCU_FLAVOUR_QSBR)
/*
 * rcu_quiescent_state() in an offline thread has no effect (api.md): the thread stays offline and
 * holds up no grace period while it blocks. Mutant qsbr-quiescent-state-while-offline-goes-online
 * stored the current grace period in its slot, which silently put it online.
 */
static struct {
	_Atomic int ready, proceed, ongoing;
} qs_off;

static void *qsbr_offline_reporter(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_thread_offline();
	rcu_quiescent_state();
	atomic_store(&qs_off.ongoing, rcu_read_ongoing());
	atomic_store(&qs_off.ready, 1);
	while (!atomic_load(&qs_off.proceed))
		test_sleep_us(200); /* offline: may block */
	rcu_thread_online();
	rcu_unregister_thread();
	return NULL;
}

Test(registration, qsbr_quiescent_state_while_offline_stays_offline, .timeout = 60)
{
	pthread_t t;
	start_thread(&t, qsbr_offline_reporter, NULL);
	cr_assert(test_wait_flag(&qs_off.ready, TEST_LIVENESS_MS));
	cr_assert(!atomic_load(&qs_off.ongoing), "rcu_quiescent_state() put an offline thread online");
	assert_synchronize_returns("an offline QSBR thread that called rcu_quiescent_state() holds up grace periods");
	atomic_store(&qs_off.proceed, 1);
	pthread_join(t, NULL);
}
#endif
