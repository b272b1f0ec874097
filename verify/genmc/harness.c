/* SPDX-License-Identifier: 0BSD */
/*
 * verify/genmc/harness.c: litmus tests of the reference (docs/requirements.md), run by GenMC on
 * rcu.h's own code. One test per build: -DTEST_<name>. -DREADERS=N sets the number of reader
 * threads where a test has a variable number. Flavour: -DRCU_FLAVOUR_MB, _QSBR, _MEMB or _BP
 * (MEMB and BP run their fallback without membarrier, which is MB's path: see model.h).
 *
 * Every test asserts what the reference forbids; a broken rcu.h (mutate.py) must make at least one
 * of them fail. Shared data that the reference reads with READ_ONCE()/WRITE_ONCE() is a relaxed
 * atomic here. The objects that RCU protects have plain fields, so that under RC11 GenMC's race
 * detector also reports an access that is not ordered before the free: a grace period must make
 * every reader's access to a removed object happen before the updater's poison and free(), and
 * a reader that reaches a new object must see it initialised.
 *
 * -DPROBE=<n> turns a test into a coverage probe: it asserts that something the test is meant to
 * reach does not happen, and so must FAIL (run.sh expects that), which shows the bound and the
 * shape really reach it and a pass is not vacuous. PROBE_END (every test): main() never gets past
 * joining every thread. GenMC ends a thread that exceeds -unroll silently and still counts the
 * execution as complete, so a check whose bound is too small "verifies" executions in which the
 * updater never returned; the end probe must fail for every check that run.sh expects to verify.
 */
#if defined(TEST_unwatched)
#define RCU__TEST_HOOKS /* rcu__test_hook(), in the test: its probes */
#endif
#include "model.h"

#ifndef READERS
#define READERS 2
#endif
#ifndef PROBE
#define PROBE 0
#endif
#define PROBE_END 99

#define READ_ONCE(x) atomic_load_explicit(&(x), memory_order_relaxed)
#define WRITE_ONCE(x, v) atomic_store_explicit(&(x), (v), memory_order_relaxed)

#define LIVE 42
#define POISON 0xdead

struct node {
	int val;                /* plain: LIVE from initialisation until the poison */
	struct rcu_head head;
};

static struct node *node_new(int val)
{
	struct node *n = malloc(sizeof *n);
	n->val = val;
	return n;
}

/* The updater's end of a removed node: after the grace period, poison it and free it. */
static void node_retire(struct node *n)
{
	n->val = POISON;
	free(n);
}

/* A reader's use of a node it reached: initialised, and not yet poisoned or freed. */
static int node_use(struct node *n)
{
	int v = n->val;
	assert(v == LIVE);
	return v;
}

static pthread_t threads[MODEL_THREADS];
static int nthreads;

static void spawn(void *(*fn)(void *), long arg)
{
	assert(nthreads < MODEL_THREADS - 1);
	pthread_create(&threads[nthreads++], NULL, fn, (void *)arg);
}

/*
 * n readers that run the same function with the same argument, spawned as symmetric: GenMC then
 * explores one execution per class of executions that differ only by a permutation of them.
 */
static void spawn_readers(void *(*fn)(void *), int n)
{
	assert(nthreads + n < MODEL_THREADS);
	int first = nthreads;
	for (int i = 0; i < n; i++) {
		if (i == 0)
			threads[nthreads] = __VERIFIER_spawn(fn, NULL);
		else
			threads[nthreads] = __VERIFIER_spawn_symmetric(fn, NULL, threads[first]);
		nthreads++;
	}
}

static void join_all(void)
{
	for (int i = 0; i < nthreads; i++)
		pthread_join(threads[i], NULL);
	assert(PROBE != PROBE_END);
}

/*
 * Readers register, then count themselves in `ready`; updaters wait for all of them before they
 * begin. Registration racing with grace periods multiplies the executions by the orders in which
 * the registry lock is taken, and is checked once, by TEST_register, not in every test.
 */
static _Atomic int ready;

static void reader_start(void)
{
	rcu_register_thread();
#if defined(RCU_FLAVOUR_QSBR)
	rcu_thread_offline(); /* its sections are online ... offline: see SECTION_BEGIN() */
#endif
	atomic_fetch_add_explicit(&ready, 1, memory_order_release);
}

static void await_readers(int n)
{
	__VERIFIER_assume(atomic_load_explicit(&ready, memory_order_acquire) >= n);
}

#if defined(RCU_FLAVOUR_QSBR)
/*
 * QSBR: an online thread is inside one long section until it reports a quiescent state or goes
 * offline. A section here is online ... offline, so that it can begin after a grace period has
 * (the reader starts offline: reader_start()). TEST_qsbr checks quiescent states and registration
 * online.
 */
#define SECTION_BEGIN() rcu_thread_online()
#define SECTION_END() rcu_thread_offline()
#else
#define SECTION_BEGIN() rcu_read_lock()
#define SECTION_END() rcu_read_unlock()
#endif

/* ---- gp: the reference's first example (grace-period guarantee, Quick Quiz 1) ---------------- */
#if defined(TEST_gp)
/*
 * thread0: rcu_read_lock(); r1 = x; r2 = y; rcu_read_unlock();
 * thread1: x = 1; synchronize_rcu(); y = 1;
 * Forbidden: r1 == 0 && r2 == 1 (a section that missed x = 1 began before the grace period, so
 * it must end before y = 1).
 * PROBE 1: a reader sees x == 1 and y == 0 (its section overlaps the grace period).
 */
static _Atomic int x, y;

static void *reader(void *arg)
{
	(void)arg;
	reader_start();
	SECTION_BEGIN();
	int r1 = READ_ONCE(x);
	int r2 = READ_ONCE(y);
	SECTION_END();
	assert(!(r1 == 0 && r2 == 1));
	if (PROBE == 1)
		assert(!(r1 == 1 && r2 == 0));
	return NULL;
}

int main(void)
{
	spawn_readers(reader, READERS);
	await_readers(READERS);
	WRITE_ONCE(x, 1);
	synchronize_rcu();
	WRITE_ONCE(y, 1);
	join_all();
	return 0;
}
#endif

/* ---- nested: the same, with the second load after an inner unlock --------------------------- */
#if defined(TEST_nested)
/*
 * thread0: rcu_read_lock(); rcu_read_lock(); r1 = x; rcu_read_unlock(); r2 = y; rcu_read_unlock();
 * A nest is one section: the inner unlock does not end it, so r1 == 0 && r2 == 1 stays forbidden.
 */
static _Atomic int x, y;

static void *reader(void *arg)
{
	(void)arg;
	reader_start();
	rcu_read_lock();
	rcu_read_lock();
	int r1 = READ_ONCE(x);
	rcu_read_unlock();
	int r2 = READ_ONCE(y);
	rcu_read_unlock();
	assert(!(r1 == 0 && r2 == 1));
	return NULL;
}

int main(void)
{
	spawn_readers(reader, READERS);
	await_readers(READERS);
	WRITE_ONCE(x, 1);
	synchronize_rcu();
	WRITE_ONCE(y, 1);
	join_all();
	return 0;
}
#endif

/* ---- pubsub: publish a new node, wait, poison and free the old one -------------------------- */
#if defined(TEST_pubsub)
/*
 * updater: B = new node; rcu_assign_pointer(gp, B); synchronize_rcu(); poison and free A.
 * readers: rcu_read_lock(); p = rcu_dereference(gp); use *p; rcu_read_unlock();
 * A reader sees A or B, initialised, never poisoned or freed, and (RC11) its use happens before
 * the poison. PROBE 1: no reader holds A once the updater is about to wait (must fail: the grace
 * period then has to wait for it).
 */
static struct node *_Atomic gp;
static struct node *old_node;
static _Atomic int waiting;

static void *reader(void *arg)
{
	(void)arg;
	reader_start();
	SECTION_BEGIN();
	struct node *p = rcu_dereference(gp);
	int w = READ_ONCE(waiting);
	node_use(p);
	if (PROBE == 1)
		assert(!(p == old_node && w));
	SECTION_END();
	return NULL;
}

int main(void)
{
	old_node = node_new(LIVE);
	rcu_init_pointer(gp, old_node);
	spawn_readers(reader, READERS);
	await_readers(READERS);
	rcu_assign_pointer(gp, node_new(LIVE));
	WRITE_ONCE(waiting, 1);
	synchronize_rcu();
	node_retire(old_node);
	join_all();
	return 0;
}
#endif

/* ---- partition: the reference's "two grace periods partition read-side sections" ------------ */
#if defined(TEST_partition)
/*
 * thread0: rcu_read_lock(); a = 1; b = 1; rcu_read_unlock();
 * thread1: r1 = a; synchronize_rcu(); c = 1;
 * thread2: r2 = c; synchronize_rcu(); d = 1;
 * thread3: rcu_read_lock(); r3 = b; r4 = d; rcu_read_unlock();
 * Forbidden: r1 == 1 && r2 == 1 && r3 == 0 && r4 == 1. Only executions with r1 == r2 == r4 == 1
 * can break it, so the others are cut short with assumes (GenMC then does not explore them): with
 * r2 == 1 the second grace period starts after the first has ended.
 */
static _Atomic int a, b, c, d;

static void *thread0(void *arg)
{
	(void)arg;
	reader_start();
	SECTION_BEGIN();
	WRITE_ONCE(a, 1);
	WRITE_ONCE(b, 1);
	SECTION_END();
	return NULL;
}

static void *thread1(void *arg)
{
	(void)arg;
	await_readers(2);
	__VERIFIER_assume(READ_ONCE(a) == 1);
	synchronize_rcu();
	WRITE_ONCE(c, 1);
	return NULL;
}

static void *thread2(void *arg)
{
	(void)arg;
	await_readers(2);
	__VERIFIER_assume(READ_ONCE(c) == 1);
	synchronize_rcu();
	WRITE_ONCE(d, 1);
	return NULL;
}

static void *thread3(void *arg)
{
	(void)arg;
	reader_start();
	SECTION_BEGIN();
	int r3 = READ_ONCE(b);
	__VERIFIER_assume(READ_ONCE(d) == 1); /* r4 */
	SECTION_END();
	assert(r3 == 1);
	return NULL;
}

int main(void)
{
	spawn(thread0, 0);
	spawn(thread1, 1);
	spawn(thread2, 2);
	spawn(thread3, 3);
	pthread_join(threads[0], NULL);
	pthread_join(threads[3], NULL);
	assert(PROBE != PROBE_END);
	return 0;
}
#endif

/* ---- dlm: the reference's distributed-lock-manager recovery ---------------------------------- */
#if defined(TEST_dlm)
/*
 * do_something_dlm(): rcu_read_lock(); if (state == NORMAL) do_something(); else
 *                     do_something_carefully(); rcu_read_unlock();
 * start_recovery():   state = WANT_RECOVERY; synchronize_rcu(); state = RECOVERING; recovery();
 *                     state = WANT_NORMAL; synchronize_rcu(); state = NORMAL;
 * do_something() never runs concurrently with recovery(). Here recovery() sets `resource` to 1
 * while it recovers and back to 0, and do_something() reads it: it must read 0.
 *
 * `resource` is a relaxed atomic (the reference's READ_ONCE/WRITE_ONCE), not plain data: a section
 * that reads the final STATE_NORMAL began after the second grace period started, and what orders
 * it after recovery() is the store-buffering pair of full fences (R1/G1), which in C11 orders the
 * accesses but creates no happens-before. With a plain `resource`, GenMC's RC11 race detector
 * reports that race (the values are still right). Plain data must be reached through an acquire
 * (rcu_dereference()) to be race-free in C11, as in the pubsub test.
 */
enum { STATE_NORMAL, STATE_WANT_RECOVERY, STATE_RECOVERING, STATE_WANT_NORMAL };
static _Atomic int state;
static _Atomic int resource;

static void *reader(void *arg)
{
	(void)arg;
	reader_start();
	SECTION_BEGIN();
	if (READ_ONCE(state) == STATE_NORMAL)
		assert(READ_ONCE(resource) == 0); /* do_something() */
	SECTION_END();
	return NULL;
}

int main(void)
{
	spawn_readers(reader, READERS);
	await_readers(READERS);
	WRITE_ONCE(state, STATE_WANT_RECOVERY);
	synchronize_rcu();
	WRITE_ONCE(state, STATE_RECOVERING);
	WRITE_ONCE(resource, 1); /* recovery() */
	WRITE_ONCE(resource, 0);
	WRITE_ONCE(state, STATE_WANT_NORMAL);
	synchronize_rcu();
	WRITE_ONCE(state, STATE_NORMAL);
	join_all();
	return 0;
}
#endif

/* ---- share: two updaters, each removes its node and frees it after synchronize_rcu() -------- */
#if defined(TEST_share)
/*
 * updater u: rcu_assign_pointer(gp[u], new); synchronize_rcu(); retire the old node.
 * readers:   rcu_read_lock(); use rcu_dereference(gp[0]) and rcu_dereference(gp[1]); unlock.
 * The updaters' grace periods overlap: one may return on the other's grace period (the snapshot,
 * the advance, the completion, the waiters' sleep on gp_done_word). With READERS=0 nothing can
 * stop a grace period from finishing, so --check-liveness can check the waiters' wake (D1/D2);
 * in MB the updaters then register, so that each finds the other in the registry and takes
 * gp_lock (the waiters' sleep); in QSBR, or with -DSHARE_UNWATCHED, they stay unregistered and
 * complete without the lock (rcu__gp_unwatched()) beside each other.
 * PROBE 1: no caller sleeps on gp_done_word (must fail: the waiters' sleep is reached).
 * -DSHARE_UPDATERS=3: three updaters (READERS=0): a caller can then read a completion's bump
 * and still lose the trylock, to a third caller (a shape two callers cannot reach, in which a
 * waiters' flag kept apart from the word lost a wake-up; docs/testing.md).
 * -DSHARE_SRCU: the same on a DEFINE_SRCU() domain (unregistered readers, synchronize_srcu()),
 * whose scan reads the readers' SRCU slots (G2's second site).
 */
#ifndef SHARE_UPDATERS
#define SHARE_UPDATERS 2
#endif
static struct node *_Atomic gp[SHARE_UPDATERS];
#if defined(SHARE_SRCU)
DEFINE_SRCU(ss);
#endif

static void *reader(void *arg)
{
	(void)arg;
#if defined(SHARE_SRCU)
	atomic_fetch_add_explicit(&ready, 1, memory_order_release);
	int i = srcu_read_lock(&ss);
#else
	reader_start();
	SECTION_BEGIN();
#endif
	node_use(rcu_dereference(gp[0]));
	node_use(rcu_dereference(gp[1]));
#if defined(SHARE_SRCU)
	srcu_read_unlock(&ss, i);
#else
	SECTION_END();
#endif
	return NULL;
}

static void *updater(void *arg)
{
	long u = (long)arg;
#if READERS == 0 && !defined(SHARE_UNWATCHED) && !defined(RCU_FLAVOUR_QSBR)
	rcu_register_thread();
#endif
	await_readers(READERS);
	struct node *old = rcu_dereference_protected(gp[u], 1);
	rcu_assign_pointer(gp[u], node_new(LIVE));
#if defined(SHARE_SRCU)
	synchronize_srcu(&ss);
#else
	synchronize_rcu();
#endif
	node_retire(old);
	return NULL;
}

int main(void)
{
	/* Unrolled by hand: a loop here would count against GenMC's -unroll bound. */
	rcu_init_pointer(gp[0], node_new(LIVE));
	rcu_init_pointer(gp[1], node_new(LIVE));
#if SHARE_UPDATERS > 2
	rcu_init_pointer(gp[2], node_new(LIVE));
#endif
	spawn_readers(reader, READERS);
	spawn(updater, 0);
	spawn(updater, 1);
#if SHARE_UPDATERS > 2
	spawn(updater, 2);
#endif
	join_all();
	if (PROBE == 1)
		assert(atomic_load_explicit(&model_sleeps, memory_order_relaxed) == 0);
	return 0;
}
#endif

/* ---- poll: polled grace periods ------------------------------------------------------------- */
#if defined(TEST_poll)
/*
 * updater 0: remove A; c = get_state_synchronize_rcu(); if poll_state_synchronize_rcu(c) retire A
 *            at once, else cond_synchronize_rcu(c) and retire A.
 * updater 1: remove B; synchronize_rcu(); retire B (its grace period may be the one that passes
 *            updater 0's cookie).
 * PROBE 1: the poll never says "passed" (must fail: the cookie can pass on updater 1's grace
 * period). PROBE 2: cond_synchronize_rcu() never finds its cookie passed.
 */
static struct node *_Atomic gp[2];

static void *reader(void *arg)
{
	(void)arg;
	reader_start();
	SECTION_BEGIN();
	node_use(rcu_dereference(gp[0]));
	node_use(rcu_dereference(gp[1]));
	SECTION_END();
	return NULL;
}

static void *poller(void *arg)
{
	(void)arg;
	await_readers(READERS);
	struct node *old = rcu_dereference_protected(gp[0], 1);
	rcu_assign_pointer(gp[0], node_new(LIVE));
	uint64_t cookie = get_state_synchronize_rcu();
	if (poll_state_synchronize_rcu(cookie)) {
		assert(PROBE != 1);
	} else {
		if (PROBE == 2)
			assert(!poll_state_synchronize_rcu(cookie));
		cond_synchronize_rcu(cookie);
	}
	node_retire(old);
	return NULL;
}

static void *updater(void *arg)
{
	(void)arg;
	await_readers(READERS);
	struct node *old = rcu_dereference_protected(gp[1], 1);
	rcu_assign_pointer(gp[1], node_new(LIVE));
	synchronize_rcu();
	node_retire(old);
	return NULL;
}

int main(void)
{
	rcu_init_pointer(gp[0], node_new(LIVE));
	rcu_init_pointer(gp[1], node_new(LIVE));
	spawn_readers(reader, READERS);
	spawn(poller, 0);
	spawn(updater, 1);
	join_all();
	return 0;
}
#endif

/* ---- pollbarrier: poll_state_synchronize_rcu() returning true is a full barrier -------------- */
#if defined(TEST_pollbarrier)
/*
 * thread0: x = 1; c = get_state_synchronize_rcu(); if poll_state_synchronize_rcu(c): r0 = y;
 * thread1: y = 1; full fence; r1 = x;
 * thread2: synchronize_rcu() (the grace period that passes the cookie).
 * Forbidden: r0 == 0 && r1 == 0. With no reader registered, thread2 skips the scan and its fence
 * (G1), so the poll's own fence (P1) is the barrier. Executions where the poll says "not yet"
 * assert nothing. The state is set up before the threads start (a snapshot): when thread0's
 * first call set it up, between x = 1 and the poll (thread2 waiting for it), a header without
 * P1's fence verified at the same bound (not analysed further). -unroll=3: at 2 no execution
 * got past the join. Since every grace period fences after its advance (G7), the syncer's grace
 * period orders x = 1 (before the snapshot) before r0 = y when it passes the cookie; -DSTALE_COOKIE
 * polls a cookie whose grace period passed before x = 1, where only P1 is between the two.
 */
static _Atomic int x, y;
static _Atomic int r1 = -1;

static void *other(void *arg)
{
	(void)arg;
	WRITE_ONCE(y, 1);
	atomic_thread_fence(memory_order_seq_cst);
	WRITE_ONCE(r1, READ_ONCE(x));
	return NULL;
}

static void *syncer(void *arg)
{
	(void)arg;
	synchronize_rcu();
	return NULL;
}

int main(void)
{
#if defined(STALE_COOKIE)
	uint64_t cookie = get_state_synchronize_rcu();
	synchronize_rcu();
	spawn(other, 0);
	WRITE_ONCE(x, 1);
#else
	(void)get_state_synchronize_rcu();
	spawn(other, 0);
	spawn(syncer, 0);
	WRITE_ONCE(x, 1);
	uint64_t cookie = get_state_synchronize_rcu();
#endif
	bool passed = poll_state_synchronize_rcu(cookie);
	int r0 = READ_ONCE(y);
	join_all();
	assert(!(passed && r0 == 0 && READ_ONCE(r1) == 0));
	return 0;
}
#endif

/* ---- qsbr: quiescent states, registration online, offline and online ------------------------ */
#if defined(TEST_qsbr)
/*
 * QSBR readers register (online), use the node, report a quiescent state, use the (maybe new)
 * node, go offline and online, use it again, and go offline. The updater replaces the node twice,
 * each time waiting for a grace period before it retires the old one.
 */
static struct node *_Atomic gp;

static void *reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	atomic_fetch_add_explicit(&ready, 1, memory_order_release);
	node_use(rcu_dereference(gp));
	rcu_quiescent_state();
	node_use(rcu_dereference(gp));
	rcu_thread_offline();
	rcu_thread_online();
	node_use(rcu_dereference(gp));
	rcu_thread_offline();
	return NULL;
}

int main(void)
{
	rcu_init_pointer(gp, node_new(LIVE));
	spawn_readers(reader, READERS);
	await_readers(READERS);
	for (int k = 0; k < 2; k++) {
		struct node *old = rcu_dereference_protected(gp, 1);
		rcu_assign_pointer(gp, node_new(LIVE));
		synchronize_rcu();
		node_retire(old);
	}
	join_all();
	return 0;
}
#endif

/* ---- fullbarrier: synchronize_rcu() is a full memory barrier (Quick Quiz 6) ------------------ */
#if defined(TEST_fullbarrier)
/*
 * thread0: x = 1; synchronize_rcu(); r0 = y;
 * thread1: y = 1; full fence; r1 = x;
 * Forbidden: r0 == 0 && r1 == 0. No reader is involved: the caller's own barrier.
 * With READERS > 0, registered readers run empty sections meanwhile (the grace period then scans).
 * Every grace period fences after its advance (G7), which orders x = 1 (before the caller's
 * snapshot, G5) before r0 = y whoever runs it. -DEARLY_COOKIE: cond_synchronize_rcu() with a
 * cookie taken before x = 1, whose grace period another thread runs; when the poll finds it not
 * yet passed and the slow path then finds it completed, that grace period's G7 may precede x = 1,
 * and only G6 is between x = 1 and r0 = y (a passed poll has its own fence, P1).
 */
static _Atomic int x, y;
static _Atomic int r1 = -1;

static void *reader(void *arg)
{
	(void)arg;
	reader_start();
	SECTION_BEGIN();
	SECTION_END();
	return NULL;
}

static void *other(void *arg)
{
	(void)arg;
	WRITE_ONCE(y, 1);
	atomic_thread_fence(memory_order_seq_cst);
	WRITE_ONCE(r1, READ_ONCE(x));
	return NULL;
}

#if defined(EARLY_COOKIE)
static void *syncer(void *arg)
{
	(void)arg;
	synchronize_rcu();
	return NULL;
}
#endif

int main(void)
{
#if defined(EARLY_COOKIE)
	uint64_t cookie = get_state_synchronize_rcu();
	spawn(syncer, 0);
#endif
	spawn_readers(reader, READERS);
	spawn(other, 0);
	await_readers(READERS);
	WRITE_ONCE(x, 1);
#if defined(EARLY_COOKIE)
	cond_synchronize_rcu(cookie);
#else
	synchronize_rcu();
#endif
	int r0 = READ_ONCE(y);
	join_all();
	assert(!(r0 == 0 && READ_ONCE(r1) == 0));
	return 0;
}
#endif

/* ---- register: readers register while the grace period runs --------------------------------- */
#if defined(TEST_register)
/*
 * The reference's first example, with readers that register while the updater runs: the updater
 * may find no other reader registered and skip the scan (its look without the lock is ordered by
 * the SB pair J1/G7: a late registration's sections see the advance), and the first reader to
 * register sets up rcu.h's process state while the others find it done (I1).
 */
static _Atomic int x, y;

static void *reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	SECTION_BEGIN();
	int r1 = READ_ONCE(x);
	int r2 = READ_ONCE(y);
	SECTION_END();
	assert(!(r1 == 0 && r2 == 1));
	return NULL;
}

int main(void)
{
	spawn_readers(reader, READERS);
	WRITE_ONCE(x, 1);
	synchronize_rcu();
	WRITE_ONCE(y, 1);
	join_all();
	return 0;
}
#endif

/* ---- leave: readers that leave the registry after their section ------------------------------- */
#if defined(TEST_leave)
/*
 * Registered readers read a node in a section, then unregister. The updater starts once they have
 * registered (so that its look is not J1/G7's store-buffering case, TEST_register's) and may find
 * them gone and skip the scan; then only the removal (J2: a release store, read by the look's
 * acquire loads) orders a reader's use of the node before the poison. Under RC11 the use and the
 * poison race without it; IMM (hardware) keeps them apart through the slot's release clear.
 */
static struct node *_Atomic gp;

static void *reader(void *arg)
{
	(void)arg;
	reader_start();
	SECTION_BEGIN();
	struct node *p = rcu_dereference(gp);
	node_use(p);
#if !defined(RCU_FLAVOUR_QSBR)
	SECTION_END();
#endif
	/* QSBR: leaving the registry online ends the section (offline first would fence: Q2). */
	rcu_unregister_thread();
	return NULL;
}

int main(void)
{
	struct node *old = node_new(LIVE);
	rcu_init_pointer(gp, old);
	spawn_readers(reader, READERS);
	await_readers(READERS);
	rcu_assign_pointer(gp, node_new(LIVE));
	synchronize_rcu();
	node_retire(old);
	join_all();
	return 0;
}
#endif

/* ---- unwatched: grace periods completed without gp_lock --------------------------------------- */
#if defined(TEST_unwatched)
/*
 * reader:    register; rcu_read_lock(); use gp; unlock; unregister.
 * updater:   (not registered) rcu_assign_pointer(gp, new); synchronize_rcu(); retire the old node.
 * poller:    (not registered) synchronize_rcu(); with -DUNWATCHED_COOKIE, c = get_state_synchronize_rcu();
 *            cond_synchronize_rcu(c) (the advance by compare-exchange, E1); poll(c) passed.
 * A caller that finds nobody registered completes its grace period without gp_lock
 * (rcu__gp_unwatched()), beside the other caller, which may hold the lock and still look at the
 * reader that has since left, and which then finds its number published already. The reader's
 * use must happen before the retire, and a cookie taken before a synchronize_rcu() must have
 * passed when it returns, whichever caller completed it and how.
 * PROBE 1: no grace period completes without the lock. PROBE 2: no completion finds its number
 * published already. Both must fail (the paths are reached).
 */
static struct node *_Atomic gp;

void rcu__test_hook(enum rcu__test_point point)
{
	assert(!(PROBE == 1 && point == RCU__TP_GP_UNWATCHED));
	assert(!(PROBE == 2 && point == RCU__TP_GP_PUBLISHED));
}

static void *reader(void *arg)
{
	(void)arg;
	reader_start();
	SECTION_BEGIN();
	node_use(rcu_dereference(gp));
#if !defined(RCU_FLAVOUR_QSBR)
	SECTION_END();
#endif
	rcu_unregister_thread(); /* QSBR: leaving the registry online ends the section */
	return NULL;
}

static void *updater(void *arg)
{
	(void)arg;
	await_readers(READERS);
	struct node *old = rcu_dereference_protected(gp, 1);
	rcu_assign_pointer(gp, node_new(LIVE));
	synchronize_rcu();
	node_retire(old);
	return NULL;
}

static void *poller(void *arg)
{
	(void)arg;
	await_readers(READERS);
#if defined(UNWATCHED_COOKIE)
	uint64_t cookie = get_state_synchronize_rcu();
	cond_synchronize_rcu(cookie); /* gp_wait_for(): E1, where synchronize_rcu() has E2 */
	assert(poll_state_synchronize_rcu(cookie));
#else
	synchronize_rcu();
#endif
	return NULL;
}

int main(void)
{
	rcu_init_pointer(gp, node_new(LIVE));
	spawn_readers(reader, READERS);
	spawn(updater, 0);
	spawn(poller, 1);
	join_all();
	return 0;
}
#endif

/* ---- init: two threads register at once ------------------------------------------------------ */
#if defined(TEST_init)
/*
 * The first thread to register sets up rcu.h's process state (the thread-exit key) under the
 * registry lock; another that finds it done (the acquire load of init_state, paired with I1) uses
 * the key without the lock. With RCU_NO_CONSTRUCTOR nothing has set it up before. The model's
 * pthread_setspecific() checks that the key it is given is one pthread_key_create() returned, and
 * under RC11 a read of the key that is not ordered after its write is a race.
 */
static void *reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	return NULL;
}

int main(void)
{
	spawn_readers(reader, READERS);
	join_all();
	return 0;
}
#endif

/* ---- sleep: the updater sleeps and a reader wakes it ---------------------------------------- */
#if defined(TEST_sleep)
/*
 * Built with RCU_SPIN_SCANS=0: the updater arms gp_futex at its first scan that finds a reader,
 * forces the fences (G3), rescans, and sleeps. A reader that leaves sees the armed word and wakes
 * it (R3 in MB, where the sleep also has a timeout; Q2 in QSBR, where it has none and a lost wake-up
 * is a liveness violation that --check-liveness reports). PROBE 1: no wait ends by a broadcast
 * (must fail: shows a reader's wake reaches a sleeping updater). PROBE 2: no reader broadcasts.
 */
static struct node *_Atomic gp;

static void *reader(void *arg)
{
	(void)arg;
	reader_start();
	SECTION_BEGIN();
	node_use(rcu_dereference(gp));
	SECTION_END();
	return NULL;
}

int main(void)
{
	struct node *old = node_new(LIVE);
	rcu_init_pointer(gp, old);
	spawn_readers(reader, READERS);
	await_readers(READERS);
	rcu_assign_pointer(gp, node_new(LIVE));
	synchronize_rcu();
	node_retire(old);
	join_all();
	if (PROBE == 1)
		assert(atomic_load_explicit(&model_wakeups, memory_order_relaxed) == 0);
	if (PROBE == 2)
		assert(atomic_load_explicit(&model_broadcasts, memory_order_relaxed) == 0);
	return 0;
}
#endif

/* ---- callback: call_rcu() and the callback worker -------------------------------------------- */
#if defined(TEST_callback)
/*
 * updater: replace the node and call_rcu(old, reclaim), twice; wait until both have run. The worker
 * (started by the first call_rcu()) takes a batch, waits for a grace period and runs it; reclaim
 * poisons and frees the node. The second call_rcu() may find the worker asleep and must wake it
 * (C5/W1): a lost wake-up leaves the worker asleep for ever, which --check-liveness reports.
 * The updater waits with an assume, not a spinloop, so that an execution in which the loop bound
 * cut the worker short is dropped rather than reported; the last callback ends the test for the
 * worker's next sleep (model_done).
 */
static struct node *_Atomic gp;
static _Atomic int reclaimed;

static void reclaim(struct rcu_head *h)
{
	node_retire(rcu_container_of(h, struct node, head));
	if (atomic_fetch_add_explicit(&reclaimed, 1, memory_order_release) + 1 == 2)
		atomic_store_explicit(&model_done, 1, memory_order_relaxed);
}

static void *reader(void *arg)
{
	(void)arg;
	reader_start();
	SECTION_BEGIN();
	node_use(rcu_dereference(gp));
	SECTION_END();
	return NULL;
}

int main(void)
{
	rcu_init_pointer(gp, node_new(LIVE));
	spawn_readers(reader, READERS);
	await_readers(READERS);
	for (int k = 0; k < 2; k++) {
		struct node *old = rcu_dereference_protected(gp, 1);
		rcu_assign_pointer(gp, node_new(LIVE));
		(call_rcu)(&old->head, reclaim);
	}
	__VERIFIER_assume(atomic_load_explicit(&reclaimed, memory_order_acquire) == 2);
	join_all();
	return 0;
}
#endif

/* ---- cbbarrier: a callback runs as if after synchronize_rcu(), a full barrier ----------------- */
#if defined(TEST_cbbarrier)
/*
 * thread0: x = 1; call_rcu(cb);          cb (on the worker): r0 = y;
 * thread1: y = 1; full fence; r1 = x;
 * Forbidden: r0 == 0 && r1 == 0: between call_rcu() and its callback there is a grace period,
 * which (Quick Quiz 6) contains a full barrier, wherever the callback runs. thread0 registers
 * before and unregisters after call_rcu(), so the worker may find no other reader and skip the
 * scan and its fence (G1): then only the barrier after the wait (G6 in process()) is left. (A
 * thread that call_rcu() registers is adopted, and rcu_unregister_thread() leaves an adopted
 * thread in the registry: the worker then always scanned, and G6 was never needed.)
 */
static _Atomic int x, y;
static _Atomic int r0 = -1, r1 = -1;

static void cb(struct rcu_head *h)
{
	(void)h;
	WRITE_ONCE(r0, READ_ONCE(y));
	atomic_store_explicit(&model_done, 1, memory_order_relaxed);
}

static void *other(void *arg)
{
	(void)arg;
	WRITE_ONCE(y, 1);
	atomic_thread_fence(memory_order_seq_cst);
	WRITE_ONCE(r1, READ_ONCE(x));
	return NULL;
}

int main(void)
{
	static struct rcu_head head;
	rcu_register_thread();
	spawn(other, 0);
	WRITE_ONCE(x, 1);
	(call_rcu)(&head, cb);
	rcu_unregister_thread();
	join_all();
	__VERIFIER_assume(READ_ONCE(r0) != -1);
	assert(!(READ_ONCE(r0) == 0 && READ_ONCE(r1) == 0));
	return 0;
}
#endif

/* ---- exit: no callback runs once the exit handler has returned (X1) --------------------------- */
#if defined(TEST_exit)
/*
 * The updater queues a callback and exits at once: rcu.h's exit handler runs (model_exit()) while
 * the worker may be starting a batch; then the handler registered before it (the process's
 * teardown) runs. The callback must not run after rcu.h's handler returned: it reads the plain
 * `torn_down`, which the teardown writes, and must read 0 without a race.
 * -DEXIT_SRCU: the same with call_srcu() and the SRCU worker (X1's second site).
 */
static int torn_down; /* plain */
#if defined(EXIT_SRCU)
DEFINE_SRCU(ss);
#endif

static void teardown(void)
{
	torn_down = 1;
	atomic_store_explicit(&model_done, 1, memory_order_relaxed);
}

static void callback(struct rcu_head *h)
{
	(void)h;
	assert(torn_down == 0);
}

int main(void)
{
	static struct rcu_head head;
	atexit(teardown); /* before call_rcu() starts the worker, so it runs after rcu.h's handler */
#if defined(EXIT_SRCU)
	(call_srcu)(&ss, &head, callback);
#else
	(call_rcu)(&head, callback);
#endif
	model_exit();
	assert(PROBE != PROBE_END);
	return 0;
}
#endif

/* ---- list: rcu_list_add_tail, rcu_list_replace, rcu_list_del --------------------------------- */
#if defined(TEST_list)
/*
 * head -> A. The updater: add B at the tail (head -> A -> B); replace A by C (head -> C -> B);
 * delete C (head -> B); synchronize_rcu(); poison A and C. Readers walk the list and use every
 * entry. A reader that reaches B through the link the deletion stored (head.next) must see B
 * initialised although it did not read the link that published B (L2).
 */
struct item {
	int val;
	struct rcu_list link;
};
static struct rcu_list head = RCU_LIST_HEAD_INIT(head);

static struct item *item_new(void)
{
	struct item *it = malloc(sizeof *it);
	it->val = LIVE;
	return it;
}

static void item_retire(struct item *it)
{
	it->val = POISON;
	free(it);
}

static void *reader(void *arg)
{
	(void)arg;
	reader_start();
	SECTION_BEGIN();
	struct item *pos;
	rcu_list_for_each_entry(pos, &head, link)
		assert(pos->val == LIVE);
	SECTION_END();
	return NULL;
}

int main(void)
{
	struct item *a = item_new(), *b = item_new(), *c = item_new();
	rcu_list_add(&a->link, &head);
	spawn_readers(reader, READERS);
	await_readers(READERS);
	rcu_list_add_tail(&b->link, &head);
	rcu_list_replace(&a->link, &c->link);
	rcu_list_del(&c->link);
	synchronize_rcu();
	item_retire(a);
	item_retire(c);
	join_all();
	return 0;
}
#endif

/* ---- hlist: the hash-list primitives ---------------------------------------------------------- */
#if defined(TEST_hlist)
/*
 * bucket: A. The updater: add_head(B) (B A); replace A by E (B E); add_behind(D, B) (B D E);
 * add_before(C, D) (B C D E); delete C (B D E); synchronize_rcu(); poison A and C. Readers walk
 * the bucket and use every entry. B to E are allocated once the readers run, so each is
 * published only by the link that makes it reachable (L1 at each site), and each of E, D and C
 * is reached as the second entry, through B's link, which replace, add_behind, add_before and
 * the deletion (L2) store in turn: within -unroll=2.
 */
struct item {
	int val;
	struct rcu_hlist_node node;
};
static struct rcu_hlist_head bucket = RCU_HLIST_HEAD_INIT;

static struct item *item_new(void)
{
	struct item *it = malloc(sizeof *it);
	it->val = LIVE;
	return it;
}

static void item_retire(struct item *it)
{
	it->val = POISON;
	free(it);
}

static void *reader(void *arg)
{
	(void)arg;
	reader_start();
	SECTION_BEGIN();
	struct item *pos;
	rcu_hlist_for_each_entry(pos, &bucket, node)
		assert(pos->val == LIVE);
	SECTION_END();
	return NULL;
}

int main(void)
{
	struct item *a = item_new();
	rcu_hlist_add_head(&a->node, &bucket);
	spawn_readers(reader, READERS);
	await_readers(READERS);
	struct item *b = item_new(), *c = item_new(), *d = item_new(), *e = item_new();
	rcu_hlist_add_head(&b->node, &bucket);
	rcu_hlist_replace(&a->node, &e->node);
	rcu_hlist_add_behind(&d->node, &b->node);
	rcu_hlist_add_before(&c->node, &d->node);
	rcu_hlist_del(&c->node);
	synchronize_rcu();
	item_retire(a);
	item_retire(c);
	join_all();
	return 0;
}
#endif

/* ---- srcu: the first example and publish/poison on an SRCU domain ----------------------------- */
#if defined(TEST_srcu)
/*
 * Readers of domain `ss` need no registration (their first section adopts them). Each reads x
 * and y as in TEST_gp and uses the node it dereferences; the updater writes x, publishes a new
 * node, waits with synchronize_srcu(), writes y and poisons the old node. Readers of the default
 * domain are not involved: the domain has its own gp_seq, gp_futex and grace periods (S-labels
 * and the R/G labels on the domain's state, docs/ordering.md "SRCU domains").
 * PROBE 1: no reader holds the old node once the updater is about to wait (must fail).
 */
DEFINE_SRCU(ss);
static _Atomic int x, y, waiting;
static struct node *_Atomic gp;
static struct node *old_node;

static void *reader(void *arg)
{
	(void)arg;
	int i = srcu_read_lock(&ss);
	int r1 = READ_ONCE(x);
	struct node *p = rcu_dereference(gp);
	int w = READ_ONCE(waiting);
	node_use(p);
	int r2 = READ_ONCE(y);
	srcu_read_unlock(&ss, i);
	assert(!(r1 == 0 && r2 == 1));
	if (PROBE == 1)
		assert(!(p == old_node && w));
	return NULL;
}

int main(void)
{
	old_node = node_new(LIVE);
	rcu_init_pointer(gp, old_node);
	spawn_readers(reader, READERS);
	WRITE_ONCE(x, 1);
	rcu_assign_pointer(gp, node_new(LIVE));
	WRITE_ONCE(waiting, 1);
	synchronize_srcu(&ss);
	WRITE_ONCE(y, 1);
	node_retire(old_node);
	join_all();
	return 0;
}
#endif

/* ---- srcutag: a slot that moves to another domain (S2) ---------------------------------------- */
#if defined(TEST_srcutag)
/*
 * The reader ends a section of domain A, then begins one of domain B: its slot 0 is free, so
 * srcu_lock_slow() retags it (tag = B, S2, then seq). An updater of A that starts after the A
 * section ended (it acquires `a_over`) must not wait for the B section: if its acquire load of
 * seq (G2) reads the B section's number, it must read the tag B too. Built with RCU_SPIN_SCANS=0,
 * an updater that finds a reader holding its domain arms gp_futex at once and sleeps (a timed
 * sleep: SRCU readers of MB and QSBR do not fence after their clear); the model counts timed
 * sleeps, and the test asserts there is none. Waiting for another domain's section is a loss of
 * isolation, not of safety (docs/ordering.md, S2): this makes it an assertion.
 */
DEFINE_SRCU(A);
DEFINE_SRCU(B);
static _Atomic int a_over;

static void *reader(void *arg)
{
	(void)arg;
	int i = srcu_read_lock(&A);
	srcu_read_unlock(&A, i);
	atomic_store_explicit(&a_over, 1, memory_order_release);
	int j = srcu_read_lock(&B);
	srcu_read_unlock(&B, j);
	return NULL;
}

int main(void)
{
	spawn_readers(reader, 1);
	__VERIFIER_assume(atomic_load_explicit(&a_over, memory_order_acquire) == 1);
	synchronize_srcu(&A);
	join_all();
	assert(atomic_load_explicit(&model_timed_sleeps, memory_order_relaxed) == 0);
	return 0;
}
#endif

/* ---- srcucb: call_srcu() and the SRCU worker --------------------------------------------------- */
#if defined(TEST_srcucb)
/*
 * As TEST_callback, on an SRCU domain: call_srcu() enlists the domain and kicks the SRCU worker
 * (K1), which drives the grace period in steps (gp_poll(): G0, G1, G2, G3) and runs the batch; it
 * sleeps on srcu_word (K2) when it has nothing to do. The second call_srcu() may find it asleep
 * and must wake it: a lost wake-up leaves it asleep for ever, which --check-liveness reports.
 */
DEFINE_SRCU(ss);
static struct node *_Atomic gp;
static _Atomic int reclaimed;

static void reclaim(struct rcu_head *h)
{
	node_retire(rcu_container_of(h, struct node, head));
	if (atomic_fetch_add_explicit(&reclaimed, 1, memory_order_release) + 1 == 2)
		atomic_store_explicit(&model_done, 1, memory_order_relaxed);
}

static void *reader(void *arg)
{
	(void)arg;
	int i = srcu_read_lock(&ss);
	node_use(rcu_dereference(gp));
	srcu_read_unlock(&ss, i);
	return NULL;
}

int main(void)
{
	rcu_init_pointer(gp, node_new(LIVE));
	spawn_readers(reader, READERS);
	for (int k = 0; k < 2; k++) {
		struct node *old = rcu_dereference_protected(gp, 1);
		rcu_assign_pointer(gp, node_new(LIVE));
		(call_srcu)(&ss, &old->head, reclaim);
	}
	__VERIFIER_assume(atomic_load_explicit(&reclaimed, memory_order_acquire) == 2);
	join_all();
	return 0;
}
#endif

/* ---- srcupoll: the SRCU worker's step against a reader ----------------------------------------- */
#if defined(TEST_srcupoll)
/*
 * The step in which the SRCU worker drives a grace period (gp_poll(): advance, G1, scan; arm, G3,
 * rescan), called by the updater itself in place of the worker, so that a reader can be checked
 * against it within the budget (srcucb runs the worker, its kicks and its sleep, with no reader:
 * with one it does not finish in 10 minutes). The updater replaces the node, takes a cookie,
 * takes up to two steps and retires the old node if one of them completed the grace period.
 * PROBE 1: no step completes it (must fail). PROBE 2: every step completes it (must fail: a step
 * finds the reader in its section).
 */
DEFINE_SRCU(ss);
static struct node *_Atomic gp;

static void *reader(void *arg)
{
	(void)arg;
	atomic_fetch_add_explicit(&ready, 1, memory_order_release);
	int i = srcu_read_lock(&ss);
	node_use(rcu_dereference(gp));
	srcu_read_unlock(&ss, i);
	return NULL;
}

int main(void)
{
	rcu_init_pointer(gp, node_new(LIVE));
	(void)get_state_synchronize_srcu(&ss); /* sets the domain up before the reader runs */
	spawn_readers(reader, READERS);
	await_readers(READERS);
	struct node *old = rcu_dereference_protected(gp, 1);
	rcu_assign_pointer(gp, node_new(LIVE));
	uint64_t cookie = get_state_synchronize_srcu(&ss);
	bool done = false;
	for (int k = 0; k < 2 && !done; k++) {
		done = RCU__SYM(gp_poll)(&ss.gp, cookie);
		if (PROBE == 2)
			assert(done);
	}
	if (PROBE == 1)
		assert(!done);
	if (done)
		node_retire(old);
	join_all();
	return 0;
}
#endif

/* ---- cbq: the callback queue's producers and consumer ------------------------------------------ */
#if defined(TEST_cbq)
/*
 * rcu.h's callback queue (rcu__enqueue(): C1, C2; rcu__cbq_take(): C3, C4) on a domain object of
 * the test's own, without the worker: a registered producer enqueues two heads while the
 * consumer takes the queue once. Once both have ended, each head is in the taken batch or still
 * queued, reachable from the stub (whose link is not NULL while the tail is not the stub). The
 * take resets the stub's link and then swaps the tail (C4, a release): a producer that swaps
 * after it (C1) stores its link in the stub (C2), which must land after the reset, or the head
 * is lost. PROBE 1: the take always finds a head (must fail); PROBE 2: it never does (must fail).
 */
static struct rcu__gp qgp;
static struct rcu_head heads[2];

static void nop(struct rcu_head *h)
{
	(void)h;
}

static void *producer(void *arg)
{
	(void)arg;
	rcu_register_thread();
	for (int k = 0; k < 2; k++)
		(void)rcu__enqueue(&qgp, rcu__self(), &heads[k], nop);
	return NULL;
}

int main(void)
{
	qgp.owner = RCU__STATE;
	rcu__store(&qgp.cbq.stub.next, (struct rcu_head *)NULL, RCU__RELAXED);
	rcu__store(&qgp.cbq.tail, &qgp.cbq.stub, RCU__RELAXED);
	spawn(producer, 0);
	struct rcu_head *first = NULL, *last = NULL;
	bool took = rcu__cbq_take(&qgp.cbq, &first, &last);
	if (PROBE == 1)
		assert(took);
	if (PROBE == 2)
		assert(!took);
	join_all();
	int seen = 0;
	if (took)
		for (struct rcu_head *h = first; seen < 3; h = rcu__load(&h->next, RCU__RELAXED)) {
			assert(h == &heads[0] || h == &heads[1]);
			seen++;
			if (h == last)
				break;
		}
	struct rcu_head *tail = rcu__load(&qgp.cbq.tail, RCU__RELAXED);
	if (tail != &qgp.cbq.stub)
		for (struct rcu_head *h = rcu__load(&qgp.cbq.stub.next, RCU__RELAXED); seen < 3;
		     h = rcu__load(&h->next, RCU__RELAXED)) {
			assert(h == &heads[0] || h == &heads[1]);
			seen++;
			if (h == tail)
				break;
		}
	assert(seen == 2);
	return 0;
}
#endif
