/* SPDX-License-Identifier: 0BSD */
/*
 * test/queues/lfstack.c: rcu_lfstack.h, the lock-free stack, with its pops synchronised by the
 * stack's mutex or by being one thread (pops under RCU are in stacks_rcu.c, every flavour). The
 * topic needs no RCU and is built in one flavour.
 *
 * - model: random sequences of every operation on two stacks against arrays: push's return, LIFO
 *   order, pop_all and the walks, emptiness; the static initialiser.
 * - the ABA window, deterministically: the test runs other threads' operations inside a pop, between
 *   its read of the top node's next and its compare-and-swap (the header's private hook
 *   RCU__LFS_WINDOW). With the rule kept (popped nodes not pushed again while the pop can still
 *   see them, which RCU's grace period or a mutex guarantees) the pop's compare-and-swap fails and
 *   it takes the right node; with the rule broken, the test shows the corruption the rule exists
 *   to prevent.
 * - concurrent: pushers, and poppers under the mutex or one popper alone, freeing nodes at once:
 *   nothing lost or taken twice, the payload seen, each pop_all batch in LIFO order per pusher.
 */
/* The pop window hook (see aba_window_* below): runs between a pop's read of next and its CAS. */
static void window_hook(void);
#define RCU__LFS_WINDOW() window_hook()
#include "rcu_lfstack.h" /* first: it must not need rcu.h */
#include "rcu.h"
#include "../harness.h"
#include "queues_test.h"

#if defined(RCU_DEBUG_DELAY)
#define PER_PRODUCER(n) ((uint64_t)test_rounds((n) / 10))
#else
#define PER_PRODUCER(n) ((uint64_t)test_rounds(n))
#endif

struct item {
	struct rcu_lfs_node node; /* first: an item is its node */
	unsigned producer;
	uint64_t seq;
	uint64_t payload[PAYLOAD_WORDS];
};

static struct item *item_of(struct rcu_lfs_node *n)
{
	return (struct item *)(void *)n;
}

#define NS 2
#define NITEMS 40

Test(lfstack, model, .timeout = 60)
{
	static struct rcu_lfs_stack s[NS];
	static struct item items[NITEMS];
	static int st[NS][NITEMS], len[NS], where[NITEMS];
	uint64_t seed = 13;
	long counts[3] = { 0 };
	rcu_lfs_init(&s[0]);
	rcu_lfs_init_unlocked(&s[1]); /* stack 1: the unlocked forms only */
	for (int i = 0; i < NITEMS; i++)
		where[i] = -1;
	long rounds = (long)PER_PRODUCER(200000);
	for (long r = 0; r < rounds; r++) {
		int op = (int)(test_rand(&seed) % 10), k = (int)(test_rand(&seed) % NS);
		bool locked = k == 0 && test_rand(&seed) % 2;
		if (op < 5) {
			int i = (int)(test_rand(&seed) % NITEMS);
			if (where[i] != -1)
				continue;
			rcu_lfs_node_init(&items[i].node);
			bool was_nonempty = rcu_lfs_push(&s[k], &items[i].node);
			cr_assert_eq(was_nonempty, len[k] != 0, "push's return with %d nodes", len[k]);
			st[k][len[k]++] = i;
			where[i] = k;
			counts[0]++;
		} else if (op < 9) {
			struct rcu_lfs_node *n = locked ? rcu_lfs_pop_blocking(&s[k]) : rcu_lfs_pop_unlocked(&s[k]);
			if (len[k] == 0) {
				cr_assert_null(n, "pop of an empty stack");
			} else {
				cr_assert_eq(n, &items[st[k][len[k] - 1]].node, "pop: not the top node");
				where[st[k][--len[k]]] = -1;
			}
			counts[1]++;
		} else {
			struct rcu_lfs_head *h = locked ? rcu_lfs_pop_all_blocking(&s[k]) : rcu_lfs_pop_all_unlocked(&s[k]);
			struct rcu_lfs_node *n, *m;
			int j = len[k];
			if (j == 0)
				cr_assert_null(h, "pop_all of an empty stack");
			rcu_lfs_for_each(h, n) {
				cr_assert_gt(j, 0, "the popped list is longer than the model");
				cr_assert_eq(n, &items[st[k][--j]].node, "the popped list differs from the model");
			}
			cr_assert_eq(j, 0, "the popped list is shorter than the model");
			rcu_lfs_for_each_safe(h, n, m) {
				__atomic_store_n(&n->next, (struct rcu_lfs_node *)NULL, __ATOMIC_RELAXED); /* scribble */
				where[item_of(n) - items] = -1;
			}
			len[k] = 0;
			counts[2]++;
		}
		cr_assert_eq(rcu_lfs_empty(&s[k]), len[k] == 0);
	}
	rcu_lfs_destroy(&s[0]);
	cr_log_info("model: %ld pushes, %ld pops, %ld pop_alls", counts[0], counts[1], counts[2]);
}

/* >>aba ----------------------------------------------------------------------------------------- */

static struct rcu_lfs_stack aba_stack;
static int aba_armed;     /* 1: the next window runs the interference once */
static bool aba_push_back; /* the interference pushes x again at once (breaks the rule) */
static struct rcu_lfs_node *aba_held[2];

static void window_hook(void)
{
	rcu__lfs_delay(); /* RCU_DEBUG_DELAY's delay, which this hook replaces */
	if (aba_armed != 1)
		return;
	aba_armed = 2; /* our own pops below must not recurse */
	/* Other threads, while the pop is in its window: pop x and y ... */
	aba_held[0] = rcu_lfs_pop_unlocked(&aba_stack);
	aba_held[1] = rcu_lfs_pop_unlocked(&aba_stack);
	/* ... and, breaking the rule, push x again at once: x is on top again, with z below it. */
	if (aba_push_back)
		rcu_lfs_push(&aba_stack, aba_held[0]);
}

/* x on top of y on top of z; a pop with the interference in its window. */
static struct rcu_lfs_node *aba_pop(struct item *it, bool push_back)
{
	rcu_lfs_init_unlocked(&aba_stack);
	for (int i = 2; i >= 0; i--)
		rcu_lfs_push(&aba_stack, &it[i].node); /* it[0] = x on top */
	aba_armed = 1;
	aba_push_back = push_back;
	struct rcu_lfs_node *n = rcu_lfs_pop_unlocked(&aba_stack);
	cr_assert_eq(aba_armed, 2, "the pop's window hook did not run");
	aba_armed = 0;
	cr_assert_eq(aba_held[0], &it[0].node);
	cr_assert_eq(aba_held[1], &it[1].node);
	return n;
}

Test(lfstack, aba_window_rule_kept)
{
	struct item it[3];
	/* x and y were popped meanwhile and are not back: the pop's CAS fails, it retries and takes z. */
	cr_assert_eq(aba_pop(it, false), &it[2].node);
	cr_assert(rcu_lfs_empty(&aba_stack));
}

Test(lfstack, aba_window_rule_broken)
{
	struct item it[3];
	/*
	 * x came back (pushed again without a grace period, with z below it now): the pop's CAS finds
	 * x on top and succeeds, and installs y, which another thread holds. This is the corruption
	 * the ABA rule prevents; the test checks that it does happen here, so that it shows the rule
	 * is needed and what the window hook does.
	 */
	cr_assert_eq(aba_pop(it, true), &it[0].node);
	cr_assert_eq(rcu_lfs_pop_unlocked(&aba_stack), &it[1].node, "y, held by another thread, is on the stack");
}

static struct rcu_lfs_stack static_stack = RCU_LFS_STACK_INIT;

Test(lfstack, static_initialiser)
{
	struct item a, b;
	cr_assert(rcu_lfs_empty(&static_stack));
	cr_assert_null(rcu_lfs_pop_blocking(&static_stack));
	cr_assert_not(rcu_lfs_push(&static_stack, &a.node));
	cr_assert(rcu_lfs_push(&static_stack, &b.node));
	cr_assert_eq(rcu_lfs_pop_blocking(&static_stack), &b.node);
	cr_assert_eq(rcu_lfs_pop_blocking(&static_stack), &a.node);
	cr_assert_null(rcu_lfs_pop_all_blocking(&static_stack));
	cr_assert(rcu_lfs_empty(&static_stack));
}

/* >>concurrent ----------------------------------------------------------------------------------- */

static struct rcu_lfs_stack stack __attribute__((aligned(64)));
static struct seen_table seen;
static _Atomic uint64_t taken;
static _Atomic int pushers_left;

/* Every item taken, or nothing more can come (then seen_check_all() reports the loss, no hang). */
static bool all_taken(void)
{
	if (atomic_load_explicit(&taken, memory_order_relaxed) == (uint64_t)seen.producers * seen.per_producer)
		return true;
	return atomic_load(&pushers_left) == 0 && rcu_lfs_empty(&stack);
}

static void *pusher_main(void *arg)
{
	unsigned id = (unsigned)(uintptr_t)arg;
	uint64_t seed = id + 1;
	gate_wait();
	for (uint64_t s = 0; s < seen.per_producer; s++) {
		struct item *it = malloc(sizeof *it);
		if (!it)
			abort();
		it->producer = id;
		it->seq = s;
		payload_fill(it->payload, id, s);
		rcu_lfs_node_init(&it->node);
		rcu_lfs_push(&stack, &it->node);
		test_widen(&seed, 400);
		if (test_rand(&seed) % 64 == 0)
			sched_yield();
	}
	atomic_fetch_sub(&pushers_left, 1);
	return NULL;
}

struct popper_arg {
	unsigned id;
	int form;
	uint64_t got, batches;
};

static void take(struct popper_arg *c, struct rcu_lfs_node *n, int64_t *batch_last)
{
	struct item *it = item_of(n);
	unsigned p = it->producer;
	if (p >= seen.producers || !payload_ok(it->payload, p, it->seq)) {
		thread_fail("popper %u: an item's payload is not what its pusher wrote", c->id);
		return;
	}
	if (batch_last) {
		if (batch_last[p] >= 0 && (int64_t)it->seq >= batch_last[p])
			thread_fail("popper %u: pusher %u's item %llu after its item %lld in one popped list (not LIFO)",
				    c->id, p, (unsigned long long)it->seq, (long long)batch_last[p]);
		batch_last[p] = (int64_t)it->seq;
	}
	seen_mark(&seen, p, it->seq, "popper");
	memset(it, 0x5a, sizeof *it);
	free(it);
	c->got++;
	atomic_fetch_add_explicit(&taken, 1, memory_order_relaxed);
}

static void *popper_main(void *arg)
{
	struct popper_arg *c = arg;
	unsigned spins = 0;
	uint64_t seed = c->id + 50;
	gate_wait();
	while (!all_taken()) {
		struct rcu_lfs_node *n = NULL, *m;
		struct rcu_lfs_head *h = NULL;
		int form = c->form == 9 ? 3 + (int)(test_rand(&seed) % 2) : c->form;
		switch (form) {
		case 0: n = rcu_lfs_pop_blocking(&stack); break;
		case 1:
			rcu_lfs_pop_lock(&stack);
			n = rcu_lfs_pop_unlocked(&stack);
			rcu_lfs_pop_unlock(&stack);
			break;
		case 2: h = rcu_lfs_pop_all_blocking(&stack); break;
		case 3: n = rcu_lfs_pop_unlocked(&stack); break;
		default: h = rcu_lfs_pop_all_unlocked(&stack); break;
		}
		if (h) {
			int64_t last[MAX_PRODUCERS];
			for (unsigned p = 0; p < MAX_PRODUCERS; p++)
				last[p] = -1;
			rcu_lfs_for_each_safe(h, n, m)
				take(c, n, last);
			c->batches++;
		} else if (n) {
			take(c, n, NULL);
		} else {
			relax(&spins);
		}
		if (test_rand(&seed) % 16 == 0)
			sched_yield();
	}
	return NULL;
}

static void run_stack(unsigned np, unsigned nc, const int *forms, uint64_t per)
{
	pthread_t pt[MAX_PRODUCERS], ct[8];
	struct popper_arg ca[8];
	rcu_lfs_init(&stack);
	gate_close();
	seen_init(&seen, np, per);
	atomic_store(&taken, 0);
	atomic_store(&pushers_left, (int)np);
	for (unsigned i = 0; i < nc; i++) {
		ca[i] = (struct popper_arg){ .id = i, .form = forms[i] };
		cr_assert_eq(pthread_create(&ct[i], NULL, popper_main, &ca[i]), 0);
	}
	for (unsigned i = 0; i < np; i++)
		cr_assert_eq(pthread_create(&pt[i], NULL, pusher_main, (void *)(uintptr_t)i), 0);
	gate_open();
	for (unsigned i = 0; i < np; i++)
		pthread_join(pt[i], NULL);
	for (unsigned i = 0; i < nc; i++) {
		pthread_join(ct[i], NULL);
		cr_log_info("popper %u (form %d): %llu items, %llu popped lists", i, ca[i].form,
			    (unsigned long long)ca[i].got, (unsigned long long)ca[i].batches);
	}
	assert_no_thread_failures();
	seen_check_all(&seen);
	cr_assert(rcu_lfs_empty(&stack));
	rcu_lfs_destroy(&stack);
}

Test(lfstack, poppers_under_the_mutex, .timeout = 120)
{
	static const int forms[] = { 0, 1, 2 };
	run_stack(3, 3, forms, PER_PRODUCER(50000));
}

Test(lfstack, one_popper, .timeout = 120)
{
	static const int forms[] = { 9 };
	run_stack(4, 1, forms, PER_PRODUCER(50000));
}
