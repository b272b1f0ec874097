/* SPDX-License-Identifier: 0BSD */
/*
 * test/queues/wfcqueue.c: rcu_wfcqueue.h, the wait-free concurrent queue. It uses no RCU, so the
 * topic is built in one flavour.
 *
 * - model: random sequences of every operation on three queues against a model (arrays): the
 *   values enqueue returns, FIFO order, the LAST state, every splice return state, iteration,
 *   emptiness; and the static initialisers.
 * - half-enqueued nodes (white box: the test does an enqueue's first step and holds back its
 *   second, as a preempted enqueuer would): each _nonblocking call returns WOULDBLOCK and leaves
 *   the queue as it was, each _blocking call waits until the link is stored and then returns
 *   the right node; splice moves unfinished nodes with the rest.
 * - concurrent: several producers and consumers, consumers that free nodes at once; FIFO per
 *   producer, no item lost or taken twice, the payload the producer wrote seen by the consumer
 *   (plain accesses: TSan reports a missing release/acquire), splice keeping order while both
 *   queues are enqueued into.
 */
#include "rcu_wfcqueue.h" /* first: it must not need rcu.h */
#include "rcu.h"
#include "../harness.h"
#include "queues_test.h"

/* Items per producer in the concurrent tests; with RCU_DEBUG_DELAY each enqueue costs microseconds. */
#if defined(RCU_DEBUG_DELAY)
#define PER_PRODUCER(n) ((uint64_t)test_rounds((n) / 10))
#else
#define PER_PRODUCER(n) ((uint64_t)test_rounds(n))
#endif

struct item {
	struct rcu_wfcq_node node; /* first: an item is its node */
	unsigned producer;
	uint64_t seq;
	uint64_t payload[PAYLOAD_WORDS];
};

static struct item *item_of(struct rcu_wfcq_node *n)
{
	return (struct item *)(void *)n;
}

/* >>model: one thread, against arrays ---------------------------------------------------------- */

#define NQ 3
#define NITEMS 40

struct model {
	struct rcu_wfcq_head head[NQ];
	struct rcu_wfcq_tail tail[NQ];
	struct item items[NITEMS];
	int q[NQ][NITEMS]; /* item indices, front first */
	int len[NQ];
	int where[NITEMS]; /* queue of the item, -1 if free */
};

static void model_check(struct model *m, int q)
{
	struct rcu_wfcq_node *n;
	int i = 0;
	cr_assert_eq(rcu_wfcq_empty(&m->head[q], &m->tail[q]), m->len[q] == 0, "empty() of queue %d with %d nodes", q,
		     m->len[q]);
	rcu_wfcq_for_each_blocking_unlocked(&m->head[q], &m->tail[q], n) {
		cr_assert_lt(i, m->len[q], "queue %d: iteration longer than the model (%d)", q, m->len[q]);
		cr_assert_eq(n, &m->items[m->q[q][i]].node, "queue %d: node %d differs from the model", q, i);
		i++;
	}
	cr_assert_eq(i, m->len[q], "queue %d: iteration saw %d nodes, the model has %d", q, i, m->len[q]);
	/* The nonblocking walk gives the same, since nothing is half-enqueued here. */
	i = 0;
	for (n = rcu_wfcq_first_nonblocking_unlocked(&m->head[q], &m->tail[q]); n;
	     n = rcu_wfcq_next_nonblocking_unlocked(&m->head[q], &m->tail[q], n)) {
		cr_assert_neq(n, RCU_WFCQ_WOULDBLOCK);
		cr_assert_lt(i, m->len[q]);
		cr_assert_eq(n, &m->items[m->q[q][i]].node);
		i++;
	}
	cr_assert_eq(i, m->len[q]);
}

static struct rcu_wfcq_node *model_dequeue(struct model *m, int q, int how, int *state)
{
	struct rcu_wfcq_head *h = &m->head[q];
	struct rcu_wfcq_tail *t = &m->tail[q];
	*state = -1;
	switch (how) {
	case 0: return rcu_wfcq_dequeue_blocking(h, t);
	case 1: return rcu_wfcq_dequeue_with_state_blocking(h, t, state);
	case 2: return rcu_wfcq_dequeue_blocking_unlocked(h, t);
	case 3: return rcu_wfcq_dequeue_with_state_blocking_unlocked(h, t, state);
	case 4: return rcu_wfcq_dequeue_nonblocking_unlocked(h, t);
	default: return rcu_wfcq_dequeue_with_state_nonblocking_unlocked(h, t, state);
	}
}

static enum rcu_wfcq_ret model_splice(struct model *m, int d, int s, int how)
{
	switch (how) {
	case 0: return rcu_wfcq_splice_blocking(&m->head[d], &m->tail[d], &m->head[s], &m->tail[s]);
	case 1: return rcu_wfcq_splice_blocking_unlocked(&m->head[d], &m->tail[d], &m->head[s], &m->tail[s]);
	default: return rcu_wfcq_splice_nonblocking_unlocked(&m->head[d], &m->tail[d], &m->head[s], &m->tail[s]);
	}
}

Test(wfcqueue, model, .timeout = 60)
{
	static struct model m;
	uint64_t seed = 42;
	for (int q = 0; q < NQ; q++)
		rcu_wfcq_init(&m.head[q], &m.tail[q]);
	for (int i = 0; i < NITEMS; i++)
		m.where[i] = -1;
	long counts[4] = { 0 }, rets[4] = { 0 };
	long rounds = (long)PER_PRODUCER(200000);
	for (long r = 0; r < rounds; r++) {
		int op = (int)(test_rand(&seed) % 10);
		int q = (int)(test_rand(&seed) % NQ);
		if (op < 4) { /* enqueue a free item, if any */
			int i = (int)(test_rand(&seed) % NITEMS);
			if (m.where[i] != -1)
				continue;
			/* A node that left a queue keeps a stale next: node_init is what makes it enqueueable. */
			rcu_wfcq_node_init(&m.items[i].node);
			bool was_nonempty = rcu_wfcq_enqueue(&m.head[q], &m.tail[q], &m.items[i].node);
			cr_assert_eq(was_nonempty, m.len[q] != 0, "enqueue's return with %d nodes", m.len[q]);
			m.q[q][m.len[q]++] = i;
			m.where[i] = q;
			counts[0]++;
		} else if (op < 7) {
			int state, how = (int)(test_rand(&seed) % 6);
			struct rcu_wfcq_node *n = model_dequeue(&m, q, how, &state);
			if (m.len[q] == 0) {
				cr_assert_null(n, "dequeue (form %d) of an empty queue", how);
			} else {
				cr_assert_eq(n, &m.items[m.q[q][0]].node, "dequeue (form %d): not the first node", how);
				m.where[m.q[q][0]] = -1;
				memmove(&m.q[q][0], &m.q[q][1], sizeof(int) * (size_t)(m.len[q] - 1));
				m.len[q]--;
			}
			if (how % 2 == 1)
				cr_assert_eq(state, m.len[q] == 0 && n ? RCU_WFCQ_STATE_LAST : 0,
					     "dequeue (form %d): state %d, %d nodes left", how, state, m.len[q]);
			counts[1]++;
		} else if (op < 9) {
			int d = (int)(test_rand(&seed) % NQ);
			if (d == q)
				continue;
			enum rcu_wfcq_ret ret = model_splice(&m, d, q, (int)(test_rand(&seed) % 3));
			enum rcu_wfcq_ret want = m.len[q] == 0 ? RCU_WFCQ_RET_SRC_EMPTY
					       : m.len[d] == 0 ? RCU_WFCQ_RET_DEST_EMPTY
							       : RCU_WFCQ_RET_DEST_NON_EMPTY;
			cr_assert_eq(ret, want, "splice %d -> %d (%d -> %d nodes) returned %d", q, d, m.len[q], m.len[d], ret);
			rets[ret]++;
			for (int k = 0; k < m.len[q]; k++) {
				m.q[d][m.len[d]++] = m.q[q][k];
				m.where[m.q[q][k]] = d;
			}
			m.len[q] = 0;
			counts[2]++;
		} else {
			counts[3]++;
		}
		model_check(&m, q);
	}
	for (int q = 0; q < NQ; q++)
		rcu_wfcq_destroy(&m.head[q], &m.tail[q]);
	cr_log_info("model: %ld enqueues, %ld dequeues, %ld splices (src empty %ld, dest empty %ld, dest non-empty %ld), %ld checks",
		    counts[0], counts[1], counts[2], rets[RCU_WFCQ_RET_SRC_EMPTY], rets[RCU_WFCQ_RET_DEST_EMPTY],
		    rets[RCU_WFCQ_RET_DEST_NON_EMPTY], counts[3]);
	cr_assert(rets[RCU_WFCQ_RET_SRC_EMPTY] > 0 && rets[RCU_WFCQ_RET_DEST_EMPTY] > 0 &&
		  rets[RCU_WFCQ_RET_DEST_NON_EMPTY] > 0, "every splice state was reached");
}

static struct rcu_wfcq_head static_head = RCU_WFCQ_HEAD_INIT;
static struct rcu_wfcq_tail static_tail = RCU_WFCQ_TAIL_INIT(static_head);

Test(wfcqueue, static_initialisers)
{
	struct item a, b;
	cr_assert(rcu_wfcq_empty(&static_head, &static_tail));
	cr_assert_null(rcu_wfcq_dequeue_blocking(&static_head, &static_tail));
	rcu_wfcq_node_init(&a.node);
	rcu_wfcq_node_init(&b.node);
	cr_assert_not(rcu_wfcq_enqueue(&static_head, &static_tail, &a.node));
	cr_assert(rcu_wfcq_enqueue(&static_head, &static_tail, &b.node));
	int state;
	cr_assert_eq(rcu_wfcq_dequeue_with_state_blocking(&static_head, &static_tail, &state), &a.node);
	cr_assert_eq(state, 0);
	cr_assert_eq(rcu_wfcq_dequeue_with_state_blocking(&static_head, &static_tail, &state), &b.node);
	cr_assert_eq(state, RCU_WFCQ_STATE_LAST);
	cr_assert(rcu_wfcq_empty(&static_head, &static_tail));
}

/* >>half: an enqueue held between its two steps ------------------------------------------------ */

/* An enqueue's first step (what rcu_wfcq_enqueue() does before its link store). */
static struct rcu_wfcq_node *first_step(struct rcu_wfcq_tail *t, struct rcu_wfcq_node *n)
{
	rcu_wfcq_node_init(n);
	return __atomic_exchange_n(&t->p, n, __ATOMIC_ACQ_REL);
}

static void second_step(struct rcu_wfcq_node *prev, struct rcu_wfcq_node *n)
{
	__atomic_store_n(&prev->next, n, __ATOMIC_RELEASE);
}

/* A blocking call in a thread of its own, so that the test can see it wait. */
struct waiter {
	pthread_t thread;
	int what; /* 0 dequeue, 1 dequeue_with_state (locked), 2 splice into dest, 3 first, 4 next of `after` */
	struct rcu_wfcq_head *h, *dh;
	struct rcu_wfcq_tail *t, *dt;
	struct rcu_wfcq_node *after;
	struct rcu_wfcq_node *got;
	enum rcu_wfcq_ret ret;
	int state;
	_Atomic int started, done;
};

static void *waiter_main(void *arg)
{
	struct waiter *w = arg;
	atomic_store(&w->started, 1);
	switch (w->what) {
	case 0: w->got = rcu_wfcq_dequeue_blocking_unlocked(w->h, w->t); break;
	case 1: w->got = rcu_wfcq_dequeue_with_state_blocking(w->h, w->t, &w->state); break;
	case 2: w->ret = rcu_wfcq_splice_blocking(w->dh, w->dt, w->h, w->t); break;
	case 3: w->got = rcu_wfcq_first_blocking_unlocked(w->h, w->t); break;
	default: w->got = rcu_wfcq_next_blocking_unlocked(w->h, w->t, w->after); break;
	}
	atomic_store(&w->done, 1);
	return NULL;
}

/* Start it, and check that it is still waiting 30 ms later (it cannot return before the link). */
static void waiter_start(struct waiter *w)
{
	atomic_init(&w->started, 0);
	atomic_init(&w->done, 0);
	cr_assert_eq(pthread_create(&w->thread, NULL, waiter_main, w), 0);
	cr_assert(test_wait_flag(&w->started, TEST_LIVENESS_MS));
	test_sleep_us(30000);
	cr_assert_not(atomic_load(&w->done), "a blocking call (%d) returned before the enqueue's link store", w->what);
}

static void waiter_join(struct waiter *w)
{
	cr_assert(test_wait_flag(&w->done, TEST_LIVENESS_MS), "a blocking call (%d) did not return after the link store",
		  w->what);
	pthread_join(w->thread, NULL);
}

Test(wfcqueue, half_enqueued_into_empty_queue, .timeout = 30)
{
	struct rcu_wfcq_head h, dh;
	struct rcu_wfcq_tail t, dt;
	struct item b;
	int state = -1;
	rcu_wfcq_init(&h, &t);
	rcu_wfcq_init(&dh, &dt);
	struct rcu_wfcq_node *prev = first_step(&t, &b.node);
	cr_assert_eq(prev, &h.node);

	/* Not empty (the tail is the linearisation point), but nothing can be taken yet. */
	cr_assert_not(rcu_wfcq_empty(&h, &t));
	cr_assert_eq(rcu_wfcq_dequeue_nonblocking_unlocked(&h, &t), RCU_WFCQ_WOULDBLOCK);
	cr_assert_eq(rcu_wfcq_dequeue_with_state_nonblocking_unlocked(&h, &t, &state), RCU_WFCQ_WOULDBLOCK);
	cr_assert_eq(state, 0);
	cr_assert_eq(rcu_wfcq_first_nonblocking_unlocked(&h, &t), RCU_WFCQ_WOULDBLOCK);
	cr_assert_eq(rcu_wfcq_splice_nonblocking_unlocked(&dh, &dt, &h, &t), RCU_WFCQ_RET_WOULDBLOCK);
	cr_assert(rcu_wfcq_empty(&dh, &dt), "a splice that would block moved something");
	cr_assert_eq(__atomic_load_n(&t.p, __ATOMIC_RELAXED), &b.node, "the source's tail changed");

	/* Each blocking form waits for the link, then does its work. */
	struct waiter w = { .what = 1, .h = &h, .t = &t };
	waiter_start(&w);
	second_step(prev, &b.node);
	waiter_join(&w);
	cr_assert_eq(w.got, &b.node);
	cr_assert_eq(w.state, RCU_WFCQ_STATE_LAST);
	cr_assert(rcu_wfcq_empty(&h, &t));

	prev = first_step(&t, &b.node);
	w = (struct waiter){ .what = 2, .h = &h, .t = &t, .dh = &dh, .dt = &dt };
	waiter_start(&w);
	second_step(prev, &b.node);
	waiter_join(&w);
	cr_assert_eq(w.ret, RCU_WFCQ_RET_DEST_EMPTY);
	cr_assert(rcu_wfcq_empty(&h, &t));
	cr_assert_eq(rcu_wfcq_dequeue_blocking(&dh, &dt), &b.node);

	prev = first_step(&t, &b.node);
	w = (struct waiter){ .what = 3, .h = &h, .t = &t };
	waiter_start(&w);
	second_step(prev, &b.node);
	waiter_join(&w);
	cr_assert_eq(w.got, &b.node);
	cr_assert_eq(rcu_wfcq_dequeue_blocking_unlocked(&h, &t), &b.node);
	cr_assert(rcu_wfcq_empty(&h, &t));
	rcu_wfcq_destroy(&h, &t);
	rcu_wfcq_destroy(&dh, &dt);
}

Test(wfcqueue, half_enqueued_behind_a_node, .timeout = 30)
{
	struct rcu_wfcq_head h, dh;
	struct rcu_wfcq_tail t, dt;
	struct item a, b;
	int state = -1;
	rcu_wfcq_init(&h, &t);
	rcu_wfcq_init(&dh, &dt);
	rcu_wfcq_node_init(&a.node);
	cr_assert_not(rcu_wfcq_enqueue(&h, &t, &a.node));
	struct rcu_wfcq_node *prev = first_step(&t, &b.node);
	cr_assert_eq(prev, &a.node);

	/*
	 * a is first and complete, but taking it needs its next: the nonblocking dequeue must give
	 * up *and put a back* (it had emptied the dummy when it found a's next NULL).
	 */
	cr_assert_eq(rcu_wfcq_dequeue_with_state_nonblocking_unlocked(&h, &t, &state), RCU_WFCQ_WOULDBLOCK);
	cr_assert_eq(state, 0);
	cr_assert_eq(rcu_wfcq_dequeue_nonblocking_unlocked(&h, &t), RCU_WFCQ_WOULDBLOCK);
	cr_assert_not(rcu_wfcq_empty(&h, &t));
	cr_assert_eq(rcu_wfcq_first_nonblocking_unlocked(&h, &t), &a.node, "the dequeue that gave up lost a");
	cr_assert_eq(rcu_wfcq_next_nonblocking_unlocked(&h, &t, &a.node), RCU_WFCQ_WOULDBLOCK);

	/* A blocking next waits at a. */
	struct waiter w = { .what = 4, .h = &h, .t = &t, .after = &a.node };
	waiter_start(&w);
	second_step(prev, &b.node);
	waiter_join(&w);
	cr_assert_eq(w.got, &b.node);
	cr_assert_null(rcu_wfcq_next_nonblocking_unlocked(&h, &t, &b.node));

	/* A blocking dequeue of a waits for b's link. */
	struct rcu_wfcq_node *n = rcu_wfcq_dequeue_blocking_unlocked(&h, &t);
	cr_assert_eq(n, &a.node);
	rcu_wfcq_node_init(&a.node);
	cr_assert(rcu_wfcq_enqueue(&h, &t, &a.node)); /* b, a */
	cr_assert_eq(rcu_wfcq_dequeue_blocking_unlocked(&h, &t), &b.node);
	prev = first_step(&t, &b.node); /* a, (b) */
	w = (struct waiter){ .what = 0, .h = &h, .t = &t };
	waiter_start(&w);
	second_step(prev, &b.node);
	waiter_join(&w);
	cr_assert_eq(w.got, &a.node);
	cr_assert_eq(rcu_wfcq_dequeue_with_state_blocking_unlocked(&h, &t, &state), &b.node);
	cr_assert_eq(state, RCU_WFCQ_STATE_LAST);

	/* Splice moves a half-enqueued node with the rest; the destination's consumer waits for it. */
	rcu_wfcq_node_init(&a.node);
	rcu_wfcq_enqueue(&h, &t, &a.node);
	prev = first_step(&t, &b.node);
	cr_assert_eq(rcu_wfcq_splice_nonblocking_unlocked(&dh, &dt, &h, &t), RCU_WFCQ_RET_DEST_EMPTY);
	cr_assert(rcu_wfcq_empty(&h, &t));
	cr_assert_eq(rcu_wfcq_first_nonblocking_unlocked(&dh, &dt), &a.node);
	cr_assert_eq(rcu_wfcq_next_nonblocking_unlocked(&dh, &dt, &a.node), RCU_WFCQ_WOULDBLOCK);
	cr_assert_eq(rcu_wfcq_dequeue_nonblocking_unlocked(&dh, &dt), RCU_WFCQ_WOULDBLOCK);
	second_step(prev, &b.node);
	cr_assert_eq(rcu_wfcq_dequeue_nonblocking_unlocked(&dh, &dt), &a.node);
	cr_assert_eq(rcu_wfcq_dequeue_with_state_nonblocking_unlocked(&dh, &dt, &state), &b.node);
	cr_assert_eq(state, RCU_WFCQ_STATE_LAST);
	cr_assert(rcu_wfcq_empty(&dh, &dt));
	rcu_wfcq_destroy(&h, &t);
	rcu_wfcq_destroy(&dh, &dt);
}

/* >>concurrent ---------------------------------------------------------------------------------- */

static struct rcu_wfcq_head qh __attribute__((aligned(64)));
static struct rcu_wfcq_tail qt __attribute__((aligned(64)));
static struct rcu_wfcq_head qh2 __attribute__((aligned(64)));
static struct rcu_wfcq_tail qt2 __attribute__((aligned(64)));
static struct seen_table seen;
static _Atomic uint64_t taken;
static _Atomic int producers_left;
static _Atomic int splicer_running; /* splice_keeps_order: the splicer has not finished */

struct producer_arg {
	unsigned id;
	uint64_t n;
	struct rcu_wfcq_head *h;
	struct rcu_wfcq_tail *t;
};

static void *producer_main(void *arg)
{
	struct producer_arg *a = arg;
	uint64_t seed = a->id + 1;
	gate_wait();
	for (uint64_t s = 0; s < a->n; s++) {
		struct item *it = malloc(sizeof *it);
		if (!it)
			abort();
		it->producer = a->id;
		it->seq = s;
		payload_fill(it->payload, a->id, s);
		rcu_wfcq_node_init(&it->node);
		rcu_wfcq_enqueue(a->h, a->t, &it->node);
		test_widen(&seed, 400);
		if (test_rand(&seed) % 64 == 0)
			sched_yield();
	}
	atomic_fetch_sub(&producers_left, 1);
	return NULL;
}

/* Per consumer: the last seq it took from each producer (FIFO per producer). */
struct consumer_arg {
	unsigned id;
	int form;
	bool consecutive; /* the only consumer: each producer's items in exactly 0, 1, 2, ... */
	bool any_order;   /* no order promised (items from two splicers) */
	int64_t last[MAX_PRODUCERS];
	uint64_t got, would_block, last_state;
};

/* The consumer's check of one item; frees it at once (a dequeued node is the caller's). */
static void consume(struct consumer_arg *c, struct rcu_wfcq_node *n)
{
	struct item *it = item_of(n);
	unsigned p = it->producer;
	char who[32];
	snprintf(who, sizeof who, "consumer %u", c->id);
	if (p >= MAX_PRODUCERS || !payload_ok(it->payload, p, it->seq)) {
		thread_fail("%s: item's payload is not what its producer wrote", who);
		return;
	}
	if (!c->any_order && (c->consecutive ? (int64_t)it->seq != c->last[p] + 1 : (int64_t)it->seq <= c->last[p]))
		thread_fail("%s: producer %u's item %llu after item %lld (not FIFO)", who, p,
			    (unsigned long long)it->seq, (long long)c->last[p]);
	c->last[p] = (int64_t)it->seq;
	seen_mark(&seen, p, it->seq, who);
	memset(it, 0x5a, sizeof *it);
	free(it);
	c->got++;
	atomic_fetch_add_explicit(&taken, 1, memory_order_relaxed);
}

/*
 * The consumers stop when every item was taken, or when nothing more can come (producers and
 * splicer done, the queue empty): then seen_check_all() reports what was lost, instead of a hang.
 */
static bool all_taken(void)
{
	if (atomic_load_explicit(&taken, memory_order_relaxed) == (uint64_t)seen.producers * seen.per_producer)
		return true;
	return atomic_load(&producers_left) == 0 && atomic_load(&splicer_running) == 0 && rcu_wfcq_empty(&qh, &qt);
}

static void *consumer_main(void *arg)
{
	struct consumer_arg *c = arg;
	unsigned spins = 0;
	uint64_t seed = c->id + 100;
	int state;
	struct rcu_wfcq_head ph;
	struct rcu_wfcq_tail pt;
	rcu_wfcq_init_unlocked(&ph, &pt);
	gate_wait();
	while (!all_taken()) {
		struct rcu_wfcq_node *n = NULL, *m;
		switch (c->form) {
		case 0: /* the queue's mutex */
			n = rcu_wfcq_dequeue_blocking(&qh, &qt);
			break;
		case 1: /* the queue's mutex, with state */
			n = rcu_wfcq_dequeue_with_state_blocking(&qh, &qt, &state);
			if (n && state == RCU_WFCQ_STATE_LAST)
				c->last_state++;
			break;
		case 2: /* the caller holds the mutex: peek, then take nonblocking */
			rcu_wfcq_dequeue_lock(&qh, &qt);
			m = rcu_wfcq_first_nonblocking_unlocked(&qh, &qt);
			n = rcu_wfcq_dequeue_with_state_nonblocking_unlocked(&qh, &qt, &state);
			if (n == RCU_WFCQ_WOULDBLOCK)
				c->would_block++, n = NULL;
			else if (m != NULL && m != RCU_WFCQ_WOULDBLOCK && m != n) /* (NULL: an enqueue may land in between) */
				thread_fail("consumer %u: first() gave %p, dequeue then %p", c->id, (void *)m, (void *)n);
			rcu_wfcq_dequeue_unlock(&qh, &qt);
			break;
		case 3: /* splice everything into a private queue, walk it and free (liburcu's unit test) */
			if (rcu_wfcq_splice_blocking(&ph, &pt, &qh, &qt) != RCU_WFCQ_RET_SRC_EMPTY) {
				rcu_wfcq_for_each_blocking_safe_unlocked(&ph, &pt, n, m)
					consume(c, n);
				rcu_wfcq_init_unlocked(&ph, &pt); /* the nodes are freed: start afresh */
			}
			n = NULL;
			break;
		case 4: /* the only consumer, no lock, blocking */
			n = rcu_wfcq_dequeue_with_state_blocking_unlocked(&qh, &qt, &state);
			break;
		default: /* the only consumer, no lock, nonblocking */
			n = rcu_wfcq_dequeue_nonblocking_unlocked(&qh, &qt);
			if (n == RCU_WFCQ_WOULDBLOCK)
				c->would_block++, n = NULL;
			break;
		}
		if (n) {
			consume(c, n);
			if (test_rand(&seed) % 16 == 0)
				sched_yield(); /* let the other consumers at the mutex */
		} else {
			relax(&spins);
		}
	}
	return NULL;
}

static void run_mpmc(unsigned np, unsigned nc, const int *forms, bool consecutive, uint64_t per)
{
	pthread_t pt[MAX_PRODUCERS], ct[8];
	struct producer_arg pa[MAX_PRODUCERS];
	struct consumer_arg ca[8];
	rcu_wfcq_init(&qh, &qt);
	gate_close();
	seen_init(&seen, np, per);
	atomic_store(&taken, 0);
	atomic_store(&producers_left, (int)np);
	for (unsigned i = 0; i < nc; i++) {
		ca[i] = (struct consumer_arg){ .id = i, .form = forms[i], .consecutive = consecutive };
		for (unsigned p = 0; p < MAX_PRODUCERS; p++)
			ca[i].last[p] = -1;
		cr_assert_eq(pthread_create(&ct[i], NULL, consumer_main, &ca[i]), 0);
	}
	for (unsigned i = 0; i < np; i++) {
		pa[i] = (struct producer_arg){ .id = i, .n = per, .h = &qh, .t = &qt };
		cr_assert_eq(pthread_create(&pt[i], NULL, producer_main, &pa[i]), 0);
	}
	gate_open();
	for (unsigned i = 0; i < np; i++)
		pthread_join(pt[i], NULL);
	for (unsigned i = 0; i < nc; i++) {
		pthread_join(ct[i], NULL);
		cr_log_info("consumer %u (form %d): %llu items, %llu WOULDBLOCK, %llu LAST", i, ca[i].form,
			    (unsigned long long)ca[i].got, (unsigned long long)ca[i].would_block,
			    (unsigned long long)ca[i].last_state);
	}
	assert_no_thread_failures();
	seen_check_all(&seen);
	cr_assert(rcu_wfcq_empty(&qh, &qt));
	rcu_wfcq_destroy(&qh, &qt);
}

Test(wfcqueue, one_consumer_blocking_fifo, .timeout = 120)
{
	static const int forms[] = { 4 };
	run_mpmc(4, 1, forms, true, PER_PRODUCER(50000));
}

Test(wfcqueue, one_consumer_nonblocking_fifo, .timeout = 120)
{
	static const int forms[] = { 5 };
	run_mpmc(4, 1, forms, true, PER_PRODUCER(50000));
}

Test(wfcqueue, consumers_under_the_mutex, .timeout = 120)
{
	static const int forms[] = { 0, 1, 2, 3 };
	run_mpmc(3, 4, forms, false, PER_PRODUCER(50000));
}

/*
 * Splice keeps order while both queues change: producers 0 and 1 enqueue into the source, 2 and
 * 3 into the destination; one thread splices source -> destination (the source's only
 * consumer), another dequeues the destination (its only consumer). Each producer's items must
 * arrive at the consumer as 0, 1, 2, ...
 */
struct splicer_arg {
	uint64_t splices, rets[3], would_block;
};

static void *splicer_main(void *arg)
{
	struct splicer_arg *s = arg;
	unsigned spins = 0;
	uint64_t seed = 7;
	gate_wait();
	while (atomic_load(&producers_left) > 0 || !rcu_wfcq_empty(&qh2, &qt2)) {
		enum rcu_wfcq_ret r = test_rand(&seed) % 2
			? rcu_wfcq_splice_blocking_unlocked(&qh, &qt, &qh2, &qt2)
			: rcu_wfcq_splice_nonblocking_unlocked(&qh, &qt, &qh2, &qt2);
		if (r == RCU_WFCQ_RET_WOULDBLOCK)
			s->would_block++;
		else
			s->rets[r]++;
		if (r == RCU_WFCQ_RET_DEST_EMPTY || r == RCU_WFCQ_RET_DEST_NON_EMPTY)
			s->splices++;
		else
			relax(&spins);
	}
	atomic_store(&splicer_running, 0);
	return NULL;
}

Test(wfcqueue, splice_keeps_order, .timeout = 120)
{
	enum { NP = 4 };
	uint64_t per = PER_PRODUCER(50000);
	pthread_t pt[NP], ct, st;
	struct producer_arg pa[NP];
	struct consumer_arg ca = { .id = 0, .form = 4, .consecutive = true };
	struct splicer_arg sa = { 0 };
	rcu_wfcq_init(&qh, &qt);
	rcu_wfcq_init(&qh2, &qt2);
	gate_close();
	seen_init(&seen, NP, per);
	atomic_store(&taken, 0);
	atomic_store(&producers_left, NP);
	atomic_store(&splicer_running, 1);
	for (unsigned p = 0; p < MAX_PRODUCERS; p++)
		ca.last[p] = -1;
	cr_assert_eq(pthread_create(&ct, NULL, consumer_main, &ca), 0);
	cr_assert_eq(pthread_create(&st, NULL, splicer_main, &sa), 0);
	for (unsigned i = 0; i < NP; i++) {
		pa[i] = (struct producer_arg){ .id = i, .n = per, .h = i < 2 ? &qh2 : &qh, .t = i < 2 ? &qt2 : &qt };
		cr_assert_eq(pthread_create(&pt[i], NULL, producer_main, &pa[i]), 0);
	}
	gate_open();
	for (unsigned i = 0; i < NP; i++)
		pthread_join(pt[i], NULL);
	pthread_join(st, NULL);
	pthread_join(ct, NULL);
	cr_log_info("splice_keeps_order: %llu splices (dest empty %llu, non-empty %llu), %llu src empty, %llu WOULDBLOCK",
		    (unsigned long long)sa.splices, (unsigned long long)sa.rets[RCU_WFCQ_RET_DEST_EMPTY],
		    (unsigned long long)sa.rets[RCU_WFCQ_RET_DEST_NON_EMPTY], (unsigned long long)sa.rets[RCU_WFCQ_RET_SRC_EMPTY],
		    (unsigned long long)sa.would_block);
	assert_no_thread_failures();
	seen_check_all(&seen);
	cr_assert_gt(sa.splices, 0);
	cr_assert(rcu_wfcq_empty(&qh, &qt) && rcu_wfcq_empty(&qh2, &qt2));
	rcu_wfcq_destroy(&qh, &qt);
	rcu_wfcq_destroy(&qh2, &qt2);
}

/*
 * Splices out of one queue need no exclusion between them (liburcu's table): two splicers move
 * the source into the destination at the same time while producers enqueue into the source;
 * the destination's one consumer must get every item exactly once. (Per-producer order across
 * the two splicers is not promised: two detached chains may reach the destination in either
 * order.)
 */
static void *splicer2_main(void *arg)
{
	struct splicer_arg *s = arg;
	unsigned spins = 0;
	uint64_t seed = (uint64_t)(uintptr_t)arg;
	gate_wait();
	while (atomic_load(&producers_left) > 0 || !rcu_wfcq_empty(&qh2, &qt2)) {
		enum rcu_wfcq_ret r = test_rand(&seed) % 2
			? rcu_wfcq_splice_blocking_unlocked(&qh, &qt, &qh2, &qt2)
			: rcu_wfcq_splice_nonblocking_unlocked(&qh, &qt, &qh2, &qt2);
		if (r == RCU_WFCQ_RET_DEST_EMPTY || r == RCU_WFCQ_RET_DEST_NON_EMPTY)
			s->splices++;
		else
			relax(&spins);
	}
	atomic_fetch_sub(&splicer_running, 1);
	return NULL;
}

Test(wfcqueue, concurrent_splices_from_one_queue, .timeout = 120)
{
	enum { NP = 2 };
	uint64_t per = PER_PRODUCER(50000);
	pthread_t pt[NP], ct, st[2];
	struct producer_arg pa[NP];
	struct consumer_arg ca = { .id = 0, .form = 4, .any_order = true };
	struct splicer_arg sa[2] = { { 0 }, { 0 } };
	rcu_wfcq_init(&qh, &qt);
	rcu_wfcq_init(&qh2, &qt2);
	gate_close();
	seen_init(&seen, NP, per);
	atomic_store(&taken, 0);
	atomic_store(&producers_left, NP);
	atomic_store(&splicer_running, 2);
	for (unsigned p = 0; p < MAX_PRODUCERS; p++)
		ca.last[p] = -1;
	cr_assert_eq(pthread_create(&ct, NULL, consumer_main, &ca), 0);
	for (int i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&st[i], NULL, splicer2_main, &sa[i]), 0);
	for (unsigned i = 0; i < NP; i++) {
		pa[i] = (struct producer_arg){ .id = i, .n = per, .h = &qh2, .t = &qt2 };
		cr_assert_eq(pthread_create(&pt[i], NULL, producer_main, &pa[i]), 0);
	}
	gate_open();
	for (unsigned i = 0; i < NP; i++)
		pthread_join(pt[i], NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(st[i], NULL);
	pthread_join(ct, NULL);
	cr_log_info("concurrent splices: %llu and %llu", (unsigned long long)sa[0].splices,
		    (unsigned long long)sa[1].splices);
	assert_no_thread_failures();
	seen_check_all(&seen);
	cr_assert(rcu_wfcq_empty(&qh, &qt) && rcu_wfcq_empty(&qh2, &qt2));
	rcu_wfcq_destroy(&qh, &qt);
	rcu_wfcq_destroy(&qh2, &qt2);
}
