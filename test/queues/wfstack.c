/* SPDX-License-Identifier: 0BSD */
/*
 * test/queues/wfstack.c: rcu_wfstack.h, the stack with wait-free push. Its pops here are
 * synchronised by the stack's mutex or by being one thread, so the topic needs no RCU and is built
 * in one flavour; pops under RCU are in stacks_rcu.c (every flavour).
 *
 * - model: random sequences of every operation on two stacks against arrays: push's return,
 *   LIFO order, the LAST state, pop_all and the walks, emptiness.
 * - half-pushed nodes (white box: the test does a push's first step and holds back the second):
 *   the _nonblocking pop and walk return WOULDBLOCK and change nothing, the _blocking ones wait
 *   for the link and then return the right node.
 * - concurrent: pushers, and poppers under the mutex (each form) or one popper alone, freeing
 *   nodes at once: nothing lost or taken twice, the payload seen, each pop_all batch in LIFO
 *   order per pusher.
 */
#include "rcu_wfstack.h" /* first: it must not need rcu.h */
#include "rcu.h"
#include "../harness.h"
#include "queues_test.h"

#if defined(RCU_DEBUG_DELAY)
#define PER_PRODUCER(n) ((uint64_t)test_rounds((n) / 10))
#else
#define PER_PRODUCER(n) ((uint64_t)test_rounds(n))
#endif

struct item {
	struct rcu_wfs_node node; /* first: an item is its node */
	unsigned producer;
	uint64_t seq;
	uint64_t payload[PAYLOAD_WORDS];
};

static struct item *item_of(struct rcu_wfs_node *n)
{
	return (struct item *)(void *)n;
}

/* >>model ------------------------------------------------------------------------------------- */

#define NS 2
#define NITEMS 40

static struct rcu_wfs_node *model_pop(struct rcu_wfs_stack *s, int how, int *state)
{
	*state = -1;
	switch (how) {
	case 0: return rcu_wfs_pop_blocking(s);
	case 1: return rcu_wfs_pop_with_state_blocking(s, state);
	case 2: return rcu_wfs_pop_blocking_unlocked(s);
	case 3: return rcu_wfs_pop_with_state_blocking_unlocked(s, state);
	case 4: return rcu_wfs_pop_nonblocking_unlocked(s);
	default: return rcu_wfs_pop_with_state_nonblocking_unlocked(s, state);
	}
}

Test(wfstack, model, .timeout = 60)
{
	static struct rcu_wfs_stack s[NS];
	static struct item items[NITEMS];
	static int st[NS][NITEMS], len[NS], where[NITEMS];
	uint64_t seed = 11;
	long counts[3] = { 0 };
	for (int k = 0; k < NS; k++)
		rcu_wfs_init(&s[k]);
	for (int i = 0; i < NITEMS; i++)
		where[i] = -1;
	long rounds = (long)PER_PRODUCER(200000);
	for (long r = 0; r < rounds; r++) {
		int op = (int)(test_rand(&seed) % 10), k = (int)(test_rand(&seed) % NS);
		if (op < 5) {
			int i = (int)(test_rand(&seed) % NITEMS);
			if (where[i] != -1)
				continue;
			rcu_wfs_node_init(&items[i].node);
			int was_nonempty = rcu_wfs_push(&s[k], &items[i].node);
			cr_assert_eq(was_nonempty, len[k] != 0, "push's return with %d nodes", len[k]);
			st[k][len[k]++] = i;
			where[i] = k;
			counts[0]++;
		} else if (op < 9) {
			int state, how = (int)(test_rand(&seed) % 6);
			struct rcu_wfs_node *n = model_pop(&s[k], how, &state);
			if (len[k] == 0) {
				cr_assert_null(n, "pop (form %d) of an empty stack", how);
			} else {
				cr_assert_eq(n, &items[st[k][len[k] - 1]].node, "pop (form %d): not the top node", how);
				where[st[k][--len[k]]] = -1;
			}
			if (how % 2 == 1)
				cr_assert_eq(state, n && len[k] == 0 ? RCU_WFS_STATE_LAST : 0, "pop (form %d): state %d", how, state);
			counts[1]++;
		} else {
			struct rcu_wfs_head *h = test_rand(&seed) % 2 ? rcu_wfs_pop_all_blocking(&s[k])
							    : rcu_wfs_pop_all_unlocked(&s[k]);
			struct rcu_wfs_node *n, *m;
			int j = len[k];
			if (j == 0)
				cr_assert_null(h, "pop_all of an empty stack");
			rcu_wfs_for_each_blocking(h, n) {
				cr_assert_gt(j, 0, "the popped list is longer than the model");
				cr_assert_eq(n, &items[st[k][--j]].node, "the popped list differs from the model");
			}
			cr_assert_eq(j, 0, "the popped list is shorter than the model");
			j = len[k];
			for (n = rcu_wfs_first(h); n; n = rcu_wfs_next_nonblocking(n)) {
				cr_assert_neq(n, RCU_WFS_WOULDBLOCK);
				cr_assert_eq(n, &items[st[k][--j]].node);
			}
			rcu_wfs_for_each_blocking_safe(h, n, m) {
				rcu_wfs_node_init(n); /* reuse while walking: the _safe walk has read next */
				where[item_of(n) - items] = -1;
			}
			len[k] = 0;
			counts[2]++;
		}
		cr_assert_eq(rcu_wfs_empty(&s[k]), len[k] == 0);
	}
	for (int k = 0; k < NS; k++)
		rcu_wfs_destroy(&s[k]);
	cr_log_info("model: %ld pushes, %ld pops, %ld pop_alls", counts[0], counts[1], counts[2]);
}

/* >>half: a push held between its two steps ----------------------------------------------------- */

static struct rcu_wfs_head *first_step(struct rcu_wfs_stack *s, struct rcu_wfs_node *n)
{
	rcu_wfs_node_init(n);
	return __atomic_exchange_n(&s->head, (struct rcu_wfs_head *)(void *)n, __ATOMIC_ACQ_REL);
}

static void second_step(struct rcu_wfs_node *n, struct rcu_wfs_head *old)
{
	__atomic_store_n(&n->next, (struct rcu_wfs_node *)(void *)old, __ATOMIC_RELEASE);
}

struct waiter {
	pthread_t thread;
	struct rcu_wfs_stack *s;
	struct rcu_wfs_node *after; /* NULL: pop with state; else rcu_wfs_next_blocking(after) */
	struct rcu_wfs_node *got;
	int state;
	_Atomic int started, done;
};

static void *waiter_main(void *arg)
{
	struct waiter *w = arg;
	atomic_store(&w->started, 1);
	w->got = w->after ? rcu_wfs_next_blocking(w->after) : rcu_wfs_pop_with_state_blocking(w->s, &w->state);
	atomic_store(&w->done, 1);
	return NULL;
}

static void waiter_start(struct waiter *w)
{
	atomic_init(&w->started, 0);
	atomic_init(&w->done, 0);
	cr_assert_eq(pthread_create(&w->thread, NULL, waiter_main, w), 0);
	cr_assert(test_wait_flag(&w->started, TEST_LIVENESS_MS));
	test_sleep_us(30000);
	cr_assert_not(atomic_load(&w->done), "a blocking call returned before the push's second step");
}

static void waiter_join(struct waiter *w)
{
	cr_assert(test_wait_flag(&w->done, TEST_LIVENESS_MS), "a blocking call did not return after the second step");
	pthread_join(w->thread, NULL);
}

Test(wfstack, half_pushed, .timeout = 30)
{
	struct rcu_wfs_stack s;
	struct item a, b;
	int state = -1;
	rcu_wfs_init(&s);

	/* On an empty stack. */
	struct rcu_wfs_head *old = first_step(&s, &b.node);
	cr_assert_not(rcu_wfs_empty(&s));
	cr_assert_eq(rcu_wfs_pop_nonblocking_unlocked(&s), RCU_WFS_WOULDBLOCK);
	cr_assert_eq(rcu_wfs_pop_with_state_nonblocking_unlocked(&s, &state), RCU_WFS_WOULDBLOCK);
	cr_assert_eq(state, 0);
	cr_assert_eq(__atomic_load_n(&s.head, __ATOMIC_RELAXED), (struct rcu_wfs_head *)(void *)&b.node,
		     "a pop that would block changed the top");
	struct waiter w = { .s = &s };
	waiter_start(&w);
	second_step(&b.node, old);
	waiter_join(&w);
	cr_assert_eq(w.got, &b.node);
	cr_assert_eq(w.state, RCU_WFS_STATE_LAST);
	cr_assert(rcu_wfs_empty(&s));

	/* On top of a: pop_all takes both; the walk waits at b. */
	rcu_wfs_node_init(&a.node);
	cr_assert_eq(rcu_wfs_push(&s, &a.node), 0);
	old = first_step(&s, &b.node);
	cr_assert_eq(old, (struct rcu_wfs_head *)(void *)&a.node);
	cr_assert_eq(rcu_wfs_pop_nonblocking_unlocked(&s), RCU_WFS_WOULDBLOCK);
	struct rcu_wfs_head *h = rcu_wfs_pop_all_unlocked(&s);
	cr_assert(rcu_wfs_empty(&s));
	cr_assert_eq(rcu_wfs_first(h), &b.node);
	cr_assert_eq(rcu_wfs_next_nonblocking(&b.node), RCU_WFS_WOULDBLOCK);
	w = (struct waiter){ .s = &s, .after = &b.node };
	waiter_start(&w);
	second_step(&b.node, old);
	waiter_join(&w);
	cr_assert_eq(w.got, &a.node);
	cr_assert_null(rcu_wfs_next_nonblocking(&a.node));
	cr_assert_null(rcu_wfs_next_blocking(&a.node));
	rcu_wfs_destroy(&s);
}

/* >>concurrent ----------------------------------------------------------------------------------- */

static struct rcu_wfs_stack stack __attribute__((aligned(64)));
static struct seen_table seen;
static _Atomic uint64_t taken;
static _Atomic int pushers_left;

/* Every item taken, or nothing more can come (then seen_check_all() reports the loss, no hang). */
static bool all_taken(void)
{
	if (atomic_load_explicit(&taken, memory_order_relaxed) == (uint64_t)seen.producers * seen.per_producer)
		return true;
	return atomic_load(&pushers_left) == 0 && rcu_wfs_empty(&stack);
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
		rcu_wfs_node_init(&it->node);
		rcu_wfs_push(&stack, &it->node);
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
	uint64_t got, would_block, batches;
};

static void take(struct popper_arg *c, struct rcu_wfs_node *n, int64_t *batch_last)
{
	struct item *it = item_of(n);
	unsigned p = it->producer;
	if (p >= seen.producers || !payload_ok(it->payload, p, it->seq)) {
		thread_fail("popper %u: an item's payload is not what its pusher wrote", c->id);
		return;
	}
	if (batch_last) { /* within one pop_all: each pusher's items newest first */
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
	int state;
	gate_wait();
	while (!all_taken()) {
		struct rcu_wfs_node *n = NULL, *m;
		struct rcu_wfs_head *h = NULL;
		int form = c->form;
		if (form == 9) /* the only popper: every unlocked form, at random */
			form = 4 + (int)(test_rand(&seed) % 3);
		switch (form) {
		case 0: n = rcu_wfs_pop_blocking(&stack); break;
		case 1: n = rcu_wfs_pop_with_state_blocking(&stack, &state); break;
		case 2:
			rcu_wfs_pop_lock(&stack);
			n = rcu_wfs_pop_nonblocking_unlocked(&stack);
			rcu_wfs_pop_unlock(&stack);
			break;
		case 3: h = rcu_wfs_pop_all_blocking(&stack); break;
		case 4: n = rcu_wfs_pop_with_state_blocking_unlocked(&stack, &state); break;
		case 5: n = rcu_wfs_pop_with_state_nonblocking_unlocked(&stack, &state); break;
		default: h = rcu_wfs_pop_all_unlocked(&stack); break;
		}
		if (n == RCU_WFS_WOULDBLOCK) {
			c->would_block++;
			n = NULL;
		}
		if (h) {
			int64_t last[MAX_PRODUCERS];
			for (unsigned p = 0; p < MAX_PRODUCERS; p++)
				last[p] = -1;
			rcu_wfs_for_each_blocking_safe(h, n, m)
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
	rcu_wfs_init(&stack);
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
		cr_log_info("popper %u (form %d): %llu items, %llu WOULDBLOCK, %llu popped lists", i, ca[i].form,
			    (unsigned long long)ca[i].got, (unsigned long long)ca[i].would_block,
			    (unsigned long long)ca[i].batches);
	}
	assert_no_thread_failures();
	seen_check_all(&seen);
	cr_assert(rcu_wfs_empty(&stack));
	rcu_wfs_destroy(&stack);
}

Test(wfstack, poppers_under_the_mutex, .timeout = 120)
{
	static const int forms[] = { 0, 1, 2, 3 };
	run_stack(3, 4, forms, PER_PRODUCER(50000));
}

Test(wfstack, one_popper, .timeout = 120)
{
	static const int forms[] = { 9 };
	run_stack(4, 1, forms, PER_PRODUCER(50000));
}
