/* SPDX-License-Identifier: 0BSD */
/*
 * test/publish.c: the publish-subscribe guarantee (rcu_assign_pointer / rcu_dereference) and the
 * removal protocol of the reference (add_gp, remove_gp_synchronous, do_something_gp), plus
 * functional checks of the pointer macros.
 *
 * Worker threads never assert: they count what they saw, and the test thread asserts on the counts.
 */
#include "rcu.h"
#include "harness.h"

#include <sched.h>
#include <stdbool.h>

#define FOO_LIVE 0x11feb00cafeull
#define FRESH_BYTE 0xcc  /* what a node holds before its initialisation (a stand-in for garbage) */
#define POISON_BYTE 0xdb /* what a node holds once reclaimed */

struct foo {
	uint64_t magic;
	long a;
	long b;
};

/* ---- the reference's add_gp / remove_gp_synchronous / do_something_gp ------------------------- */

static struct {
	struct foo *_Atomic gp;
	pthread_mutex_t gp_lock;
	_Atomic long reclaimed_max; /* largest ->a the updater has poisoned */
	_Atomic int stop;
	_Atomic long bad_seen, nodes_seen, nulls_seen;
	_Atomic long generations;
} pub = { .gp_lock = PTHREAD_MUTEX_INITIALIZER, .reclaimed_max = -1 };

/* Reclaimed nodes are poisoned and stay poisoned for a while before free() (a quarantine), so a
 * reader that still holds one sees the poison rather than a recycled allocation. */
#define QUARANTINE 512
static struct foo *quarantine[QUARANTINE];
static unsigned quarantine_next;

static void reclaim(struct foo *p)
{
	long a = p->a;
	memset(p, POISON_BYTE, sizeof *p);
	atomic_store_explicit(&pub.reclaimed_max, a, memory_order_release);
	free(quarantine[quarantine_next]);
	quarantine[quarantine_next] = p;
	quarantine_next = (quarantine_next + 1) % QUARANTINE;
}

static void quarantine_drain(void)
{
	for (unsigned i = 0; i < QUARANTINE; i++) {
		free(quarantine[i]);
		quarantine[i] = NULL;
	}
}

static bool add_gp(long a, long b)
{
	struct foo *p = malloc(sizeof *p);
	if (!p)
		return false;
	memset(p, FRESH_BYTE, sizeof *p);
	pthread_mutex_lock(&pub.gp_lock);
	if (rcu_access_pointer(pub.gp)) {
		pthread_mutex_unlock(&pub.gp_lock);
		free(p);
		return false;
	}
	p->a = a;
	p->b = b;
	p->magic = FOO_LIVE;
	rcu_assign_pointer(pub.gp, p);
	pthread_mutex_unlock(&pub.gp_lock);
	return true;
}

static bool remove_gp_synchronous(void)
{
	pthread_mutex_lock(&pub.gp_lock);
	struct foo *p = rcu_access_pointer(pub.gp);
	if (!p) {
		pthread_mutex_unlock(&pub.gp_lock);
		return false;
	}
	rcu_assign_pointer(pub.gp, NULL);
	pthread_mutex_unlock(&pub.gp_lock);
	synchronize_rcu();
	reclaim(p);
	return true;
}

static bool foo_ok(const struct foo *p, long a)
{
	return p->magic == FOO_LIVE && p->a == a && p->b == a && a > 0;
}

/* The reader: checks what it found, then holds it until the updater has reclaimed that node or a
 * bounded wait runs out, and checks again. A grace period that does not wait for the reader lets
 * the node be poisoned under it. */
static bool do_something_gp(void)
{
	rcu_read_lock();
	struct foo *p = rcu_dereference(pub.gp);
	if (p) {
		long a = p->a;
		bool ok = foo_ok(p, a);
		uint64_t until = test_now_ns() + 200000u; /* hold for up to 200 us */
		while (atomic_load_explicit(&pub.reclaimed_max, memory_order_acquire) < a && test_now_ns() < until)
			sched_yield();
		ok = ok && foo_ok(p, a);
		rcu_read_unlock();
		if (!ok)
			atomic_fetch_add(&pub.bad_seen, 1);
		atomic_fetch_add_explicit(&pub.nodes_seen, 1, memory_order_relaxed);
		return true;
	}
	rcu_read_unlock();
	atomic_fetch_add_explicit(&pub.nulls_seen, 1, memory_order_relaxed);
	return false;
}

static void *pub_reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	while (!atomic_load_explicit(&pub.stop, memory_order_relaxed)) {
		bool found = do_something_gp();
		rcu_quiescent_state();
		if (!found)
			sched_yield(); /* let the updater publish (three threads share two cores) */
	}
	rcu_unregister_thread();
	return NULL;
}

Test(publish, add_remove_readers_never_see_garbage, .timeout = 100)
{
	enum { READERS = 2 };
	pthread_t readers[READERS];
	for (int i = 0; i < READERS; i++)
		cr_assert_eq(pthread_create(&readers[i], NULL, pub_reader, NULL), 0);
	/* Generations: test_rounds(2000), or fewer if a loaded machine makes them slow (a bound on
	 * the work, not an assertion on time). */
	long gens = test_rounds(2000);
	uint64_t deadline = test_now_ns() + (uint64_t)test_rounds(1500) * 1000000u;
	uint64_t seed = 5;
	long added = 0, removed = 0;
	for (long g = 1; g <= gens; g++) {
		if (test_now_ns() > deadline) {
			gens = g - 1;
			break;
		}
		cr_assert(add_gp(g, g));
		added++;
		cr_assert(!add_gp(-1, -1), "add_gp() published over an existing node");
		/* Leave the node in place until a reader has found it (bounded), and a little more. */
		long seen = atomic_load_explicit(&pub.nodes_seen, memory_order_relaxed);
		uint64_t until = test_now_ns() + 1000000u; /* for up to 1 ms */
		while (atomic_load_explicit(&pub.nodes_seen, memory_order_relaxed) == seen && test_now_ns() < until)
			sched_yield();
		test_widen(&seed, 2000);
		cr_assert(remove_gp_synchronous());
		removed++;
	}
	cr_assert(!remove_gp_synchronous(), "remove_gp_synchronous() found a node that is gone");
	atomic_store(&pub.stop, 1);
	for (int i = 0; i < READERS; i++)
		pthread_join(readers[i], NULL);
	quarantine_drain();
	cr_log_info("publish: %ld generations; readers saw %ld nodes and %ld NULLs", gens,
		atomic_load(&pub.nodes_seen), atomic_load(&pub.nulls_seen));
	cr_assert_eq(added, removed);
	cr_assert_gt(atomic_load(&pub.nodes_seen), 0, "readers never found a node: the test proved nothing");
	cr_assert_eq(atomic_load(&pub.bad_seen), 0,
		"readers saw an uninitialised, torn or reclaimed node %ld times", atomic_load(&pub.bad_seen));
}

/* Publication ordering without any removal: the updater initialises a fresh node from garbage and
 * publishes it while readers keep dereferencing; nothing is reclaimed until the end. On x86 (TSO)
 * a relaxed rcu_assign_pointer() still passes here unless the compiler reorders the stores; the
 * test bites on weakly ordered machines (Arm, POWER) and under compilers that do. */
static struct {
	struct foo *_Atomic cur;
	_Atomic int stop;
	_Atomic long bad_seen, seen;
} ord;

static void *ord_reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	while (!atomic_load_explicit(&ord.stop, memory_order_relaxed)) {
		rcu_read_lock();
		struct foo *p = rcu_dereference(ord.cur);
		if (p) {
			if (p->magic != FOO_LIVE || p->a != p->b || p->a <= 0)
				atomic_fetch_add(&ord.bad_seen, 1);
			atomic_fetch_add_explicit(&ord.seen, 1, memory_order_relaxed);
		}
		rcu_read_unlock();
		rcu_quiescent_state();
	}
	rcu_unregister_thread();
	return NULL;
}

Test(publish, readers_see_initialised_nodes, .timeout = 100)
{
	enum { NODES = 20000 };
	long n = NODES;
	struct foo *nodes = malloc(sizeof *nodes * (size_t)n);
	cr_assert_not_null(nodes);
	memset(nodes, FRESH_BYTE, sizeof *nodes * (size_t)n);
	pthread_t r;
	cr_assert_eq(pthread_create(&r, NULL, ord_reader, NULL), 0);
	for (long i = 0; i < n; i++) {
		struct foo *p = &nodes[i];
		p->a = i + 1;
		p->b = i + 1;
		p->magic = FOO_LIVE;
		rcu_assign_pointer(ord.cur, p);
		if (i % 64 == 0)
			sched_yield();
	}
	atomic_store(&ord.stop, 1);
	pthread_join(r, NULL);
	cr_assert_eq(atomic_load(&ord.bad_seen), 0, "a reader saw a node before its initialisation %ld times",
		atomic_load(&ord.bad_seen));
	free(nodes);
}

/* ---- the pointer macros, one by one ----------------------------------------------------------- */

static struct foo static_foo = { .magic = FOO_LIVE, .a = 7, .b = 7 };
static struct foo *_Atomic static_gp = RCU_INITIALIZER(&static_foo);
static struct foo *_Atomic static_null = RCU_INITIALIZER(NULL);

Test(publish, rcu_initializer)
{
	cr_assert_eq(rcu_access_pointer(static_gp), &static_foo);
	cr_assert_null(rcu_access_pointer(static_null));
	rcu_register_thread();
	rcu_read_lock();
	struct foo *p = rcu_dereference(static_gp);
	cr_assert_eq(p, &static_foo);
	cr_assert_eq(p->a, 7);
	rcu_read_unlock();
	rcu_unregister_thread();
}

Test(publish, rcu_init_pointer_and_access_pointer_outside_a_section)
{
	struct foo a = { .magic = FOO_LIVE, .a = 1, .b = 1 };
	struct foo *_Atomic p;
	rcu_init_pointer(p, NULL);
	cr_assert_null(rcu_access_pointer(p));
	rcu_init_pointer(p, &a);
	/* rcu_access_pointer() needs no section: compare and test the value only. */
	cr_assert(rcu_access_pointer(p) == &a);
	cr_assert(rcu_access_pointer(p) != NULL);
	cr_assert(!rcu_read_ongoing(), "this (unregistered) thread is not in a section");
	rcu_assign_pointer(p, NULL);
	cr_assert_null(rcu_access_pointer(p));
}

Test(publish, rcu_assign_pointer_and_dereference)
{
	struct foo a = { .magic = FOO_LIVE, .a = 1, .b = 1 }, b = { .magic = FOO_LIVE, .a = 2, .b = 2 };
	struct foo *_Atomic p = RCU_INITIALIZER(NULL);
	struct { struct foo *_Atomic next; } holder = { RCU_INITIALIZER(&b) };
	rcu_register_thread();
	rcu_assign_pointer(p, &a);
	rcu_read_lock();
	struct foo *q = rcu_dereference(p);
	cr_assert_eq(q, &a);
	cr_assert_eq(q->a, 1);
	cr_assert_eq(rcu_dereference(holder.next)->a, 2, "rcu_dereference() of a struct member");
	rcu_read_unlock();
	rcu_assign_pointer(holder.next, NULL);
	rcu_read_lock();
	cr_assert_null(rcu_dereference(holder.next));
	rcu_read_unlock();
	rcu_unregister_thread();
}

Test(publish, rcu_xchg_pointer)
{
	struct foo a = { .a = 1 }, b = { .a = 2 };
	struct foo *_Atomic p = RCU_INITIALIZER(&a);
	struct foo *old = rcu_xchg_pointer(&p, &b);
	cr_assert_eq(old, &a);
	cr_assert_eq(rcu_access_pointer(p), &b);
	old = rcu_xchg_pointer(&p, NULL);
	cr_assert_eq(old, &b);
	cr_assert_null(rcu_access_pointer(p));
}

Test(publish, rcu_cmpxchg_pointer)
{
	struct foo a = { .a = 1 }, b = { .a = 2 }, c = { .a = 3 };
	struct foo *_Atomic p = RCU_INITIALIZER(&a);
	/* Success: returns the value found, which equals the expected one, and stores the new one. */
	struct foo *found = rcu_cmpxchg_pointer(&p, &a, &b);
	cr_assert_eq(found, &a);
	cr_assert_eq(rcu_access_pointer(p), &b);
	/* Failure: returns the value found and leaves the pointer alone. */
	found = rcu_cmpxchg_pointer(&p, &a, &c);
	cr_assert_eq(found, &b);
	cr_assert_eq(rcu_access_pointer(p), &b);
	/* From and to NULL. */
	found = rcu_cmpxchg_pointer(&p, &b, NULL);
	cr_assert_eq(found, &b);
	cr_assert_null(rcu_access_pointer(p));
	found = rcu_cmpxchg_pointer(&p, NULL, &c);
	cr_assert_null(found);
	cr_assert_eq(rcu_access_pointer(p), &c);
}

Test(publish, rcu_replace_pointer)
{
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct foo a = { .a = 1 }, b = { .a = 2 };
	struct foo *_Atomic p = RCU_INITIALIZER(&a);
	pthread_mutex_lock(&lock);
	struct foo *old = rcu_replace_pointer(p, &b, true /* e.g. lockdep_is_held(&lock) */);
	pthread_mutex_unlock(&lock);
	cr_assert_eq(old, &a);
	cr_assert_eq(rcu_access_pointer(p), &b);
	old = rcu_replace_pointer(p, NULL, 1);
	cr_assert_eq(old, &b);
	cr_assert_null(rcu_access_pointer(p));
}

/* Macro arguments with side effects are evaluated once, as the kernel's are: a user may write
 * rcu_assign_pointer(table[i++], make()) and expect one call and one increment. */
static int calls;
static struct foo *counted(struct foo *p)
{
	calls++;
	return p;
}

Test(publish, macro_arguments_are_evaluated_once)
{
	struct foo a = { .magic = FOO_LIVE, .a = 1, .b = 1 }, b = { .magic = FOO_LIVE, .a = 2, .b = 2 };
	struct foo *_Atomic table[4] = { RCU_INITIALIZER(NULL), RCU_INITIALIZER(NULL),
					 RCU_INITIALIZER(NULL), RCU_INITIALIZER(NULL) };
	int i = 0;
	calls = 0;
	rcu_assign_pointer(table[i++], counted(&a));
	cr_assert_eq(calls, 1, "rcu_assign_pointer() evaluated its value %d times", calls);
	cr_assert_eq(i, 1, "rcu_assign_pointer() evaluated its pointer %d times", i);
	cr_assert_eq(rcu_access_pointer(table[0]), &a);

	i = 0;
	rcu_register_thread();
	rcu_read_lock();
	struct foo *q = rcu_dereference(table[i++]);
	rcu_read_unlock();
	rcu_unregister_thread();
	cr_assert_eq(q, &a);
	cr_assert_eq(i, 1, "rcu_dereference() evaluated its argument %d times", i);

	i = 0;
	cr_assert_eq(rcu_access_pointer(table[i++]), &a);
	cr_assert_eq(i, 1, "rcu_access_pointer() evaluated its argument %d times", i);

	i = 1;
	calls = 0;
	rcu_init_pointer(table[i++], counted(&b));
	cr_assert_eq(i, 2, "rcu_init_pointer() evaluated its pointer %d times", i - 1);
	cr_assert_eq(calls, 1, "rcu_init_pointer() evaluated its value %d times", calls);

	i = 0;
	calls = 0;
	struct foo *old = rcu_xchg_pointer(&table[i++], counted(&b));
	cr_assert_eq(old, &a);
	cr_assert_eq(i, 1, "rcu_xchg_pointer() evaluated its pointer %d times", i);
	cr_assert_eq(calls, 1, "rcu_xchg_pointer() evaluated its value %d times", calls);

	i = 0;
	calls = 0;
	old = rcu_cmpxchg_pointer(&table[i++], counted(&b), &a);
	cr_assert_eq(old, &b);
	cr_assert_eq(i, 1, "rcu_cmpxchg_pointer() evaluated its pointer %d times", i);
	cr_assert_eq(calls, 1, "rcu_cmpxchg_pointer() evaluated its expected value %d times", calls);

	/* rcu_replace_pointer(p, ...) names p twice, as the kernel's does (a load, then a store under
	 * the update-side lock): only its value is checked here. */
	calls = 0;
	old = rcu_replace_pointer(table[0], counted(&b), true);
	cr_assert_eq(old, &a);
	cr_assert_eq(calls, 1, "rcu_replace_pointer() evaluated its value %d times", calls);
	cr_assert_eq(rcu_access_pointer(table[0]), &b);
}
