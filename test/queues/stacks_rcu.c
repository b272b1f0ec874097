/* SPDX-License-Identifier: 0BSD */
/*
 * test/queues/stacks_rcu.c: pops under RCU, the first of the three ways the stacks of
 * rcu_lfstack.h and rcu_wfstack.h allow concurrent pops (built in every flavour).
 *
 * Poppers run every pop inside a read-side section and never take the stack's mutex; what they
 * pop is reclaimed only through call_rcu().
 * - pop_in_sections: pushers push fresh objects; poppers (and a pop_all thread, which needs no
 *   section) take them, check the payload and the magic, and retire them with call_rcu(), whose
 *   callback poisons the object (magic and link) and frees it (ASan builds) or keeps it in a
 *   graveyard until the end. A pop that touched a reclaimed object would find the poison (or ASan
 *   would report it); nothing may be lost or taken twice.
 * - recycle_after_grace_period: a small pool of objects circulates: a popper marks the object
 *   taken (it must not be taken already) and hands it to call_rcu(), whose callback marks it free
 *   and pushes it again. The same addresses come back to the top all the time, the ABA situation:
 *   with the grace period between pop and push again no pop may install a stale link, so no
 *   object is ever taken twice and none is lost. (Pushing again at once, without the grace period,
 *   breaks the rule; built with -DTEST_RECYCLE_AT_ONCE and RCU_DEBUG_DELAY this test then fails,
 *   see docs/queues.md.)
 */
#include "rcu_lfstack.h"
#include "rcu_wfstack.h"
#include "rcu.h"
#include "../harness.h"
#include "queues_test.h"

#define ITEM_LIVE 0x4954454du
#define ITEM_POISON 0xdeaddeadu
#define POISON_LINK ((void *)(uintptr_t)0xdead0000u)

#if defined(RCU_DEBUG_DELAY)
#define ROUNDS(n) ((uint64_t)test_rounds((n) / 10))
#else
#define ROUNDS(n) ((uint64_t)test_rounds(n))
#endif

enum kind { LFS, WFS };

struct item {
	struct rcu_lfs_node lnode;
	struct rcu_wfs_node wnode;
	_Atomic uint32_t magic; /* relaxed atomic: a pop racing a (buggy) early poison has no UB */
	_Atomic int taken;      /* recycle: 1 from pop to the callback */
	unsigned producer;
	uint64_t seq;
	uint64_t payload[PAYLOAD_WORDS];
	struct rcu_head rcu;
	struct item *grave_next;
};

static struct rcu_lfs_stack lstack __attribute__((aligned(64)));
static struct rcu_wfs_stack wstack __attribute__((aligned(64)));
static enum kind kind;

static void push(struct item *it)
{
	if (kind == LFS) {
		rcu_lfs_node_init(&it->lnode);
		rcu_lfs_push(&lstack, &it->lnode);
	} else {
		rcu_wfs_node_init(&it->wnode);
		rcu_wfs_push(&wstack, &it->wnode);
	}
}

/* Inside a read-side section. */
static struct item *pop(void)
{
	if (kind == LFS) {
		struct rcu_lfs_node *n = rcu_lfs_pop_unlocked(&lstack);
		return n ? rcu_container_of(n, struct item, lnode) : NULL;
	}
	struct rcu_wfs_node *n = rcu_wfs_pop_blocking_unlocked(&wstack);
	return n ? rcu_container_of(n, struct item, wnode) : NULL;
}

static bool stack_empty(void)
{
	return kind == LFS ? rcu_lfs_empty(&lstack) : rcu_wfs_empty(&wstack);
}

static void stacks_init(enum kind k)
{
	kind = k;
	rcu_lfs_init_unlocked(&lstack);
	rcu_wfs_init_unlocked(&wstack);
	gate_close();
}

/* >>graveyard: reclaimed objects, poisoned, kept until the end (freed at once under ASan) ------- */

static pthread_mutex_t grave_lock __attribute__((unused)) = PTHREAD_MUTEX_INITIALIZER;
static struct item *graveyard;

static void poison(struct item *it)
{
	atomic_store_explicit(&it->magic, ITEM_POISON, memory_order_relaxed);
	__atomic_store_n(&it->lnode.next, (struct rcu_lfs_node *)POISON_LINK, __ATOMIC_RELAXED);
	__atomic_store_n(&it->wnode.next, (struct rcu_wfs_node *)POISON_LINK, __ATOMIC_RELAXED);
}

static void reclaim_cb(struct rcu_head *head)
{
	struct item *it = rcu_container_of(head, struct item, rcu);
	poison(it);
#if defined(TEST_ASAN)
	free(it);
#else
	pthread_mutex_lock(&grave_lock);
	it->grave_next = graveyard;
	graveyard = it;
	pthread_mutex_unlock(&grave_lock);
#endif
}

static void graveyard_free(void)
{
	while (graveyard) {
		struct item *it = graveyard;
		graveyard = it->grave_next;
		free(it);
	}
}

/* >>pop_in_sections ----------------------------------------------------------------------------- */

static struct seen_table seen;
static _Atomic uint64_t taken_count;

static _Atomic int pushers_left;

/* Every object taken, or nothing more can come (then seen_check_all() reports the loss, no hang). */
static bool all_taken(void)
{
	if (atomic_load_explicit(&taken_count, memory_order_relaxed) == (uint64_t)seen.producers * seen.per_producer)
		return true;
	return atomic_load(&pushers_left) == 0 && stack_empty();
}

static void check_taken(struct item *it, const char *who)
{
	uint32_t magic = atomic_load_explicit(&it->magic, memory_order_relaxed);
	if (magic != ITEM_LIVE) {
		thread_fail("%s: got an object whose magic is %#x (%s)", who, magic,
			    magic == ITEM_POISON ? "reclaimed" : "never initialised");
		return;
	}
	if (it->producer >= seen.producers || !payload_ok(it->payload, it->producer, it->seq)) {
		thread_fail("%s: an object's payload is not what its pusher wrote", who);
		return;
	}
	seen_mark(&seen, it->producer, it->seq, who);
	atomic_fetch_add_explicit(&taken_count, 1, memory_order_relaxed);
}

static void *pusher_main(void *arg)
{
	unsigned id = (unsigned)(uintptr_t)arg;
	uint64_t seed = id + 1;
	gate_wait();
	for (uint64_t s = 0; s < seen.per_producer; s++) {
		struct item *it = calloc(1, sizeof *it);
		if (!it)
			abort();
		it->producer = id;
		it->seq = s;
		payload_fill(it->payload, id, s);
		atomic_store_explicit(&it->magic, ITEM_LIVE, memory_order_relaxed);
		push(it);
		test_widen(&seed, 300);
		if (test_rand(&seed) % 64 == 0)
			sched_yield();
	}
	atomic_fetch_sub(&pushers_left, 1);
	return NULL;
}

static void *popper_main(void *arg)
{
	unsigned id = (unsigned)(uintptr_t)arg;
	uint64_t seed = id + 77;
	unsigned spins = 0;
	rcu_register_thread();
	gate_wait();
	while (!all_taken()) {
		rcu_read_lock();
		struct item *it = pop();
		if (it)
			check_taken(it, "popper");
		rcu_read_unlock();
		if (it)
			call_rcu(&it->rcu, reclaim_cb);
		rcu_quiescent_state();
		if (!it)
			relax(&spins);
		if (test_rand(&seed) % 16 == 0)
			sched_yield();
	}
	rcu_unregister_thread();
	return NULL;
}

/* pop_all needs no section; what it takes is retired through call_rcu() like the rest. */
static void *pop_all_main(void *arg)
{
	(void)arg;
	rcu_register_thread();
	gate_wait();
	while (!all_taken()) {
		test_block_begin();
		test_sleep_us(200);
		test_block_end();
		if (kind == LFS) {
			struct rcu_lfs_node *n, *m;
			struct rcu_lfs_head *h = rcu_lfs_pop_all_unlocked(&lstack);
			rcu_lfs_for_each_safe(h, n, m) {
				struct item *it = rcu_container_of(n, struct item, lnode);
				check_taken(it, "pop_all");
				call_rcu(&it->rcu, reclaim_cb);
			}
		} else {
			struct rcu_wfs_node *n, *m;
			struct rcu_wfs_head *h = rcu_wfs_pop_all_unlocked(&wstack);
			rcu_wfs_for_each_blocking_safe(h, n, m) {
				struct item *it = rcu_container_of(n, struct item, wnode);
				check_taken(it, "pop_all");
				call_rcu(&it->rcu, reclaim_cb);
			}
		}
		rcu_quiescent_state();
	}
	rcu_unregister_thread();
	return NULL;
}

static void run_pop_in_sections(enum kind k)
{
	enum { NP = 2, NC = 2 };
	pthread_t pt[NP], ct[NC], at;
	stacks_init(k);
	seen_init(&seen, NP, ROUNDS(20000));
	atomic_store(&taken_count, 0);
	atomic_store(&pushers_left, NP);
	for (unsigned i = 0; i < NC; i++)
		cr_assert_eq(pthread_create(&ct[i], NULL, popper_main, (void *)(uintptr_t)i), 0);
	cr_assert_eq(pthread_create(&at, NULL, pop_all_main, NULL), 0);
	for (unsigned i = 0; i < NP; i++)
		cr_assert_eq(pthread_create(&pt[i], NULL, pusher_main, (void *)(uintptr_t)i), 0);
	gate_open();
	for (unsigned i = 0; i < NP; i++)
		pthread_join(pt[i], NULL);
	for (unsigned i = 0; i < NC; i++)
		pthread_join(ct[i], NULL);
	pthread_join(at, NULL);
	rcu_barrier();
	assert_no_thread_failures();
	seen_check_all(&seen);
	cr_assert(stack_empty());
	graveyard_free();
}

Test(stacks_rcu, lfs_pop_in_sections, .timeout = 120)
{
	run_pop_in_sections(LFS);
}

Test(stacks_rcu, wfs_pop_in_sections, .timeout = 120)
{
	run_pop_in_sections(WFS);
}

/* >>recycle: the same objects pushed again after a grace period --------------------------------- */

#define POOL 4
static struct item pool[POOL];
static _Atomic uint64_t pops_done;
static uint64_t pops_wanted;

static void repush_cb(struct rcu_head *head)
{
	struct item *it = rcu_container_of(head, struct item, rcu);
	atomic_store_explicit(&it->taken, 0, memory_order_relaxed);
	push(it);
}

static void *recycler_main(void *arg)
{
	unsigned id = (unsigned)(uintptr_t)arg;
	uint64_t seed = id + 99;
	unsigned spins = 0;
	rcu_register_thread();
	gate_wait();
	while (atomic_load_explicit(&pops_done, memory_order_relaxed) < pops_wanted) {
		rcu_read_lock();
		struct item *it = pop();
		rcu_read_unlock();
		if (it) {
			if (it < pool || it >= pool + POOL)
				thread_fail("recycler %u: pop returned %p, not an object of the pool", id, (void *)it);
			else if (atomic_exchange_explicit(&it->taken, 1, memory_order_relaxed) != 0)
				thread_fail("recycler %u: object %d popped twice without being pushed again (ABA)", id,
					    (int)(it - pool));
			else if (!payload_ok(it->payload, 0, (uint64_t)(it - pool)))
				thread_fail("recycler %u: object %d's payload changed", id, (int)(it - pool));
			atomic_fetch_add_explicit(&pops_done, 1, memory_order_relaxed);
#if defined(TEST_RECYCLE_AT_ONCE)
			test_widen(&seed, 300);
			repush_cb(&it->rcu); /* breaks the rule: no grace period before the push */
#else
			call_rcu(&it->rcu, repush_cb);
#endif
		} else {
			relax(&spins);
		}
		rcu_quiescent_state();
		if (test_rand(&seed) % 8 == 0)
			sched_yield();
	}
	rcu_unregister_thread();
	return NULL;
}

static void run_recycle(enum kind k)
{
	enum { NC = 3 };
	pthread_t ct[NC];
	stacks_init(k);
	for (int i = 0; i < POOL; i++) {
		atomic_store(&pool[i].taken, 0);
		payload_fill(pool[i].payload, 0, (uint64_t)i);
		push(&pool[i]);
	}
	atomic_store(&pops_done, 0);
	pops_wanted = ROUNDS(20000);
	for (unsigned i = 0; i < NC; i++)
		cr_assert_eq(pthread_create(&ct[i], NULL, recycler_main, (void *)(uintptr_t)i), 0);
	gate_open();
	for (unsigned i = 0; i < NC; i++)
		pthread_join(ct[i], NULL);
	rcu_barrier(); /* every object pushed again */
	assert_no_thread_failures();
	int n = 0;
	bool once[POOL] = { false };
	if (k == LFS) {
		struct rcu_lfs_node *node;
		struct rcu_lfs_head *h = rcu_lfs_pop_all_unlocked(&lstack);
		rcu_lfs_for_each(h, node) {
			struct item *it = rcu_container_of(node, struct item, lnode);
			cr_assert(it >= pool && it < pool + POOL && !once[it - pool] && n < POOL, "the stack is corrupt");
			once[it - pool] = true;
			n++;
		}
	} else {
		struct rcu_wfs_node *node;
		struct rcu_wfs_head *h = rcu_wfs_pop_all_unlocked(&wstack);
		rcu_wfs_for_each_blocking(h, node) {
			struct item *it = rcu_container_of(node, struct item, wnode);
			cr_assert(it >= pool && it < pool + POOL && !once[it - pool] && n < POOL, "the stack is corrupt");
			once[it - pool] = true;
			n++;
		}
	}
	cr_assert_eq(n, POOL, "%d of the %d objects are on the stack at the end", n, POOL);
	cr_log_info("recycle: %llu pops of %d objects", (unsigned long long)atomic_load(&pops_done), POOL);
}

Test(stacks_rcu, lfs_recycle_after_grace_period, .timeout = 120)
{
	run_recycle(LFS);
}

Test(stacks_rcu, wfs_recycle_after_grace_period, .timeout = 120)
{
	run_recycle(WFS);
}
