/* SPDX-License-Identifier: 0BSD */
/*
 * rcu_wfcqueue.h: a concurrent FIFO queue with wait-free enqueue and a separate head and tail
 * (liburcu's wfcqueue), header-only, beside rcu.h.
 *
 * Contents (grep for the anchors)
 *   >>doc        what it is, who may call what, configuration
 *   >>algorithm  how it works, and the ordering points WQ1..WQ6
 *   >>types      nodes, head, tail, return states
 *   >>enqueue    rcu_wfcq_enqueue() and the append step that splice shares
 *   >>dequeue    dequeue, splice, iteration: the caller excludes (_unlocked) or the queue's mutex does
 *   >>debug      misuse reports under RCU_DEBUG
 *
 * >>doc
 *
 * What it is. A multi-producer queue of intrusive nodes (struct rcu_wfcq_node, embedded in your
 * objects). Enqueue is wait-free: two atomic instructions, whatever the other threads do. Dequeue,
 * splice (move every node of one queue to the end of another, in order) and iteration need
 * mutual exclusion among themselves, either from the queue's own mutex (the functions without
 * the _unlocked suffix take it) or from the caller (the _unlocked functions: one consumer thread,
 * or the caller's own lock, or rcu_wfcq_dequeue_lock()). They never wait for each other, but they
 * may have to wait for an enqueuer that has done its first step and not yet its second: the
 * _blocking forms wait (spin, then sleep 1 ms at a time), the _nonblocking forms return
 * RCU_WFCQ_WOULDBLOCK (or RCU_WFCQ_RET_WOULDBLOCK) instead.
 *
 * It does not use RCU and does not include rcu.h: a dequeued node may be reused or freed at once.
 * Needs C11 or C++11 with GCC's __atomic builtins (GCC, Clang) and POSIX threads.
 *
 * Who may run at the same time as whom, on one queue ("-": no exclusion needed; "X": the caller
 * must exclude them, or use the functions that take the queue's mutex):
 *
 *                         enqueue  splice-to  dequeue  splice-from  first/next
 *   enqueue                  -         -         -          -           -
 *   splice into it           -         -         -          -           -
 *   dequeue                  -         -         X          X           X
 *   splice from it           -         -         X          -           X
 *   first/next (iterate)     -         -         X          X           -
 *
 * rcu_wfcq_empty() may be called by anybody at any time. Two splices out of the same queue need
 * no exclusion between them (the table's "-"), but each needs it against dequeue and iteration.
 *
 * Memory ordering. Everything a thread wrote before rcu_wfcq_enqueue() (the object around the
 * node, above all) is visible to the thread that dequeues the node or reaches it by iteration, or
 * by dequeuing it from a queue it was spliced into. No other ordering is promised: enqueue is
 * not a full barrier (liburcu's documentation promises one; its code, without
 * CONFIG_RCU_EMIT_LEGACY_MB, gives a sequentially consistent exchange, which is one on x86).
 *
 * Configuration (per translation unit; a queue shared by units built differently works, only
 * the checks and delays differ).
 *   RCU_DEBUG        misuse aborts with a sentence naming the call and the rule (see >>debug): a
 *                    node enqueued whose next is not NULL (not initialised, or still in a queue),
 *                    a node enqueued that is the last node of the queue already.
 *   RCU_DEBUG_DELAY  a random delay (up to 2,047 pauses, now and then a yield) between an
 *                    enqueue's two steps and between a splice's two exchanges, the windows in
 *                    which consumers and other splices wait: tests use it to make them common.
 *
 * Licence: 0BSD, as rcu.h.
 */
#ifndef RCU_WFCQUEUE_H
#define RCU_WFCQUEUE_H

/*
 * POSIX declarations, as rcu.h asks for them: if no system header has been read yet, so that
 * rcu.h, included after this header, still finds them.
 */
#if defined(__linux__) && !defined(_FEATURES_H) && !defined(_DEFAULT_SOURCE) && \
	!defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE) && !defined(_XOPEN_SOURCE)
#define _DEFAULT_SOURCE 1
#endif

#if !defined(__cplusplus)
#include <stdbool.h>
#endif
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#if defined(RCU_DEBUG)
#include <stdio.h>
#include <stdlib.h>
#endif
#if defined(RCU_DEBUG_DELAY)
#include <sched.h>
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/*
 * >>algorithm
 *
 * The queue is a singly linked list that starts at a dummy node inside the head
 * (head->node) and ends at the node tail->p points to; an empty queue's tail points at the
 * dummy. A node's next is NULL while it is last.
 *
 * Enqueue is two steps. First it exchanges tail->p for the new node (WQ1): from this moment the
 * node is in the queue and its predecessor is fixed, so concurrent enqueuers never conflict.
 * Then it stores the node into its predecessor's next (WQ2). Between the two steps the list is
 * cut after the predecessor: a consumer that reaches it sees next == NULL while the tail says
 * the queue goes on. That is the only situation in which a consumer waits (_blocking) or gives
 * up (_nonblocking); and it tells it apart from the real end by comparing tail->p with the node.
 *
 * Dequeue (one consumer at a time) takes the first node, head->node.next. If that node has a
 * successor, head->node.next moves to it and that is all. If not, it may be the last node: the
 * consumer empties head->node.next and tries to swing the tail back from the node to the dummy
 * with a compare-and-swap (WQ4). If that succeeds the queue is empty. If it fails, an enqueuer
 * has passed its first step with this node as predecessor, so the consumer waits for its second
 * step and then moves head->node.next to the successor. Either way nobody touches the node after
 * dequeue returns it: the caller may free it at once.
 *
 * Splice (the source's consumer side) detaches the whole chain: it exchanges the source's
 * head->node.next for NULL, which gives the first node (WQ5), and the source's tail for its
 * dummy (WQ6), which gives the last node; the chain first..last, including links that enqueuers
 * have still to store, then goes to the end of the destination with the enqueue's two steps, so
 * splicing into a queue is as wait-free as enqueuing into it.
 *
 * The ordering points (docs/queues.md has the table):
 *   WQ1  enqueue's exchange of the tail, acq_rel. Release: the node, initialised (next = NULL),
 *        before whoever takes it as predecessor (the next WQ1 or WQ6 on this tail) stores to its
 *        next. Acquire, pairing with the release of the WQ1, WQ4 or WQ6 that put the predecessor
 *        there: the predecessor's next = NULL (its initialisation, or a consumer's reset of the
 *        dummy) happens before our WQ2 stores to it, so our link is never overwritten.
 *   WQ2  the link store into the predecessor's next, release: pairs with WQ3 and WQ5, so the
 *        consumer that reaches the node through this link sees everything the enqueuer wrote.
 *   WQ3  the consumer's load of a next pointer, acquire: pairs with WQ2.
 *   WQ4  dequeue's compare-and-swap of the tail back to the dummy, release: the dummy's
 *        next = NULL before the next WQ1 (acquire) takes the dummy as predecessor.
 *   WQ5  splice's exchange of the source's first node for NULL, acquire: pairs with WQ2, so
 *        the first node's WQ1 happens before our WQ6, which therefore takes a tail at or after
 *        that node (with a relaxed exchange the C11 model would allow WQ6 to read a tail from
 *        before it: load buffering). The nodes' contents reach the destination's consumers through WQ6's
 *        acquire: every write to a tail is a read-modify-write, so WQ6 synchronises with the
 *        WQ1 of every node it detaches.
 *   WQ6  splice's exchange of the source's tail back to its dummy, acq_rel. Release: WQ5's
 *        NULL in the source's head->node.next before the next WQ1 on the source (acquire) takes
 *        the dummy as predecessor. Acquire, pairing with the WQ1 that enqueued the last node: its
 *        initialisation before our WQ1 on the destination hands it on as predecessor.
 * Consumers exclude each other (mutex or caller), so the consumer side's own accesses to
 * head->node.next are relaxed: the mutex or the single thread orders them. Splices out of one
 * queue do not exclude each other, which is why splice takes the first node with an exchange.
 */

/* >>types ------------------------------------------------------------------------------------- */

/** struct rcu_wfcq_node - the link embedded in a queued object. Initialise with rcu_wfcq_node_init(). */
struct rcu_wfcq_node {
	struct rcu_wfcq_node *next; /* (atomic) NULL while last */
};

/**
 * struct rcu_wfcq_head - the consumers' end of a queue: the dummy node, and the mutex that
 * rcu_wfcq_dequeue_blocking(), rcu_wfcq_splice_blocking() and rcu_wfcq_dequeue_lock() take.
 * Keep it on another cache line than the tail when producers and consumers run on many CPUs.
 */
struct rcu_wfcq_head {
	struct rcu_wfcq_node node;
	pthread_mutex_t lock;
};

/** struct rcu_wfcq_tail - the producers' end of a queue: the last node (the head's dummy when empty). */
struct rcu_wfcq_tail {
	struct rcu_wfcq_node *p; /* (atomic) */
};

/** RCU_WFCQ_HEAD_INIT - static initialiser of a head; pair it with RCU_WFCQ_TAIL_INIT(head). */
#define RCU_WFCQ_HEAD_INIT { { RCU__WFCQ_NONE }, PTHREAD_MUTEX_INITIALIZER }

/** RCU_WFCQ_TAIL_INIT(head) - static initialiser of the tail of the queue whose head is `head`. */
#define RCU_WFCQ_TAIL_INIT(head) { &(head).node }

/**
 * RCU_WFCQ_WOULDBLOCK - what the _nonblocking dequeue, first and next return instead of waiting
 * for an enqueuer between its two steps. Not a node: never dereference it. Try again later.
 */
#if defined(__cplusplus)
#define RCU_WFCQ_WOULDBLOCK (reinterpret_cast<struct rcu_wfcq_node *>(~static_cast<uintptr_t>(0)))
#define RCU__WFCQ_NONE (static_cast<struct rcu_wfcq_node *>(nullptr))
#else
#define RCU_WFCQ_WOULDBLOCK ((struct rcu_wfcq_node *)~(uintptr_t)0)
#define RCU__WFCQ_NONE ((struct rcu_wfcq_node *)NULL)
#endif

/** enum rcu_wfcq_ret - what a splice did: see rcu_wfcq_splice_blocking_unlocked(). */
enum rcu_wfcq_ret {
	RCU_WFCQ_RET_WOULDBLOCK = -1,    /* nonblocking only: nothing moved; an enqueuer is between its steps */
	RCU_WFCQ_RET_DEST_EMPTY = 0,     /* moved; the destination was empty before */
	RCU_WFCQ_RET_DEST_NON_EMPTY = 1, /* moved; the destination held nodes before */
	RCU_WFCQ_RET_SRC_EMPTY = 2,      /* nothing to move: the source was empty */
};

/** enum rcu_wfcq_state - flags the _with_state dequeues store. */
enum rcu_wfcq_state {
	RCU_WFCQ_STATE_LAST = 1, /* the node dequeued was the last: the queue was left empty */
};

/* >>debug (the report; the checks sit in the functions they guard) ----------------------------- */

#if defined(RCU_DEBUG)
__attribute__((noreturn, cold)) static void rcu__wfcq_misuse(const char *call, const char *rule)
{
	fprintf(stderr, "rcu_wfcqueue.h: %s: %s\n", call, rule);
	fflush(stderr);
	abort();
}
#endif

static inline void rcu__wfcq_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/* The consumer's wait for an enqueuer's second step: spin a little, then sleep 1 ms at a time. */
#define RCU__WFCQ_SPINS 100
static inline void rcu__wfcq_pause(unsigned *attempt)
{
	if (++*attempt < RCU__WFCQ_SPINS) {
		rcu__wfcq_cpu_relax();
		return;
	}
	*attempt = 0;
	(void)poll(NULL, 0, 1);
}

#if defined(RCU_DEBUG_DELAY)
/* RCU_DEBUG_DELAY: up to 2,047 pauses, and a yield one time in 64. */
static inline void rcu__wfcq_delay(void)
{
#if defined(__cplusplus)
	static thread_local uint64_t state;
#else
	static _Thread_local uint64_t state;
#endif
	if (!state)
		state = (uintptr_t)&state * 0x9e3779b97f4a7c15u + 1;
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	if ((state >> 32) % 64 == 0)
		sched_yield();
	for (unsigned i = (unsigned)(state % 2048); i > 0; i--)
		rcu__wfcq_cpu_relax();
}
#else
#define rcu__wfcq_delay() ((void)0)
#endif

/* >>enqueue ----------------------------------------------------------------------------------- */

/** rcu_wfcq_node_init(node) - make node ready to be enqueued (next = NULL). Before each enqueue. */
static inline void rcu_wfcq_node_init(struct rcu_wfcq_node *node)
{
	__atomic_store_n(&node->next, RCU__WFCQ_NONE, __ATOMIC_RELAXED);
}

/**
 * rcu_wfcq_init(head, tail) - make an empty queue, and initialise its mutex.
 *
 * Not while other threads can reach the queue. Pair with rcu_wfcq_destroy().
 */
static inline void rcu_wfcq_init(struct rcu_wfcq_head *head, struct rcu_wfcq_tail *tail)
{
	rcu_wfcq_node_init(&head->node);
	__atomic_store_n(&tail->p, &head->node, __ATOMIC_RELAXED);
	(void)pthread_mutex_init(&head->lock, NULL);
}


/**
 * rcu_wfcq_init_unlocked(head, tail) - make an empty queue, leaving its mutex alone.
 *
 * For a queue whose consumers never take the mutex (one consumer thread, or the caller's own
 * lock): use only enqueue, empty and the _unlocked functions on it, and no rcu_wfcq_destroy().
 * Cheap enough for a private queue on the stack that a splice empties another queue into.
 */
static inline void rcu_wfcq_init_unlocked(struct rcu_wfcq_head *head, struct rcu_wfcq_tail *tail)
{
	rcu_wfcq_node_init(&head->node);
	__atomic_store_n(&tail->p, &head->node, __ATOMIC_RELAXED);
}

/**
 * rcu_wfcq_destroy(head, tail) - release the queue's mutex. The nodes still queued stay yours:
 * dequeue them first if you need them. Not while other threads use the queue.
 */
static inline void rcu_wfcq_destroy(struct rcu_wfcq_head *head, struct rcu_wfcq_tail *tail)
{
	(void)tail;
	(void)pthread_mutex_destroy(&head->lock);
}

/**
 * rcu_wfcq_empty(head, tail) - is the queue empty? Anybody, any time; no ordering.
 *
 * A queue whose enqueuer is between its two steps is not empty. The answer may be stale at
 * once, unless the caller excludes enqueuers.
 */
static inline bool rcu_wfcq_empty(const struct rcu_wfcq_head *head, const struct rcu_wfcq_tail *tail)
{
	/*
	 * head->node.next first: the common non-empty answer comes from the consumers' own line.
	 * The tail decides: it is the enqueuers' linearisation point (WQ1).
	 */
	return __atomic_load_n(&head->node.next, __ATOMIC_RELAXED) == NULL &&
	       __atomic_load_n(&tail->p, __ATOMIC_RELAXED) == &head->node;
}

/* The enqueue's two steps for the chain first..last (one node, or a spliced chain). */
static inline bool rcu__wfcq_append(struct rcu_wfcq_head *head, struct rcu_wfcq_tail *tail,
				    struct rcu_wfcq_node *first, struct rcu_wfcq_node *last)
{
	/* WQ1: acq_rel; release: last initialised before it is a predecessor; acquire: pairs with the WQ1/WQ4/WQ6 that made prev the tail. */
	struct rcu_wfcq_node *prev = __atomic_exchange_n(&tail->p, last, __ATOMIC_ACQ_REL);
	rcu__wfcq_delay();
	/* WQ2: release, pairs with WQ3 and WQ5: consumers reaching first see it (and the chain's objects) written. */
	__atomic_store_n(&prev->next, first, __ATOMIC_RELEASE);
	return prev != &head->node;
}

/**
 * rcu_wfcq_enqueue(head, tail, node) - append node at the end of the queue. Wait-free.
 *
 * Returns false if the queue was empty just before (this node is now the only one), true
 * otherwise. Any thread, any time, no lock. node must have been initialised with
 * rcu_wfcq_node_init() since it last left a queue (RCU_DEBUG aborts otherwise). Everything the
 * caller wrote before the call is visible to whoever dequeues or iterates to the node.
 */
static inline bool rcu_wfcq_enqueue(struct rcu_wfcq_head *head, struct rcu_wfcq_tail *tail,
				    struct rcu_wfcq_node *node)
{
#if defined(RCU_DEBUG)
	if (__atomic_load_n(&node->next, __ATOMIC_RELAXED) != NULL)
		rcu__wfcq_misuse("rcu_wfcq_enqueue()", "the node's next is not NULL: it is still in a queue, "
				 "or was not initialised; call rcu_wfcq_node_init() before enqueuing it");
	if (__atomic_load_n(&tail->p, __ATOMIC_RELAXED) == node)
		rcu__wfcq_misuse("rcu_wfcq_enqueue()", "the node is already the last node of this queue");
#endif
	return rcu__wfcq_append(head, tail, node, node);
}

/* >>dequeue ----------------------------------------------------------------------------------- */

/* The next of node, waiting (block) or giving up while an enqueuer has not linked it yet. */
static inline struct rcu_wfcq_node *rcu__wfcq_await_next(struct rcu_wfcq_node *node, bool block)
{
	/* WQ3: acquire, pairs with WQ2: the node we get is initialised, its object written. */
	struct rcu_wfcq_node *next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE);
	unsigned attempt = 0;
	if (__builtin_expect(next != NULL, 1))
		return next;
	while ((next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE)) == NULL) { /* WQ3 */
		if (!block)
			return RCU_WFCQ_WOULDBLOCK;
		rcu__wfcq_pause(&attempt);
	}
	return next;
}

static inline struct rcu_wfcq_node *rcu__wfcq_dequeue(struct rcu_wfcq_head *head, struct rcu_wfcq_tail *tail,
						      int *state, bool block)
{
	if (state)
		*state = 0;
	if (rcu_wfcq_empty(head, tail))
		return NULL;
	struct rcu_wfcq_node *node = rcu__wfcq_await_next(&head->node, block); /* WQ3 */
	if (!block && node == RCU_WFCQ_WOULDBLOCK) /* (!block first: the blocking forms skip the test) */
		return node;
	struct rcu_wfcq_node *next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE); /* WQ3 */
	if (next == NULL) {
		/*
		 * node may be the last. Empty the dummy first, then swing the tail back to it: once
		 * the tail is the dummy, the next enqueue links into the dummy's next (WQ4 orders our
		 * NULL before that link).
		 */
		__atomic_store_n(&head->node.next, RCU__WFCQ_NONE, __ATOMIC_RELAXED);
		struct rcu_wfcq_node *expected = node;
		/* WQ4: release, pairs with WQ1's acquire: the dummy's next = NULL before it is a predecessor. */
		if (__atomic_compare_exchange_n(&tail->p, &expected, &head->node, false, __ATOMIC_RELEASE,
						__ATOMIC_RELAXED)) {
			if (state)
				*state |= RCU_WFCQ_STATE_LAST;
			return node;
		}
		/* An enqueuer took node as predecessor (WQ1): wait for its link (WQ2). */
		next = rcu__wfcq_await_next(node, block); /* WQ3 */
		if (!block && next == RCU_WFCQ_WOULDBLOCK) {
			/* Put node back first: nothing else wrote the dummy's next (the tail is not the dummy). */
			__atomic_store_n(&head->node.next, node, __ATOMIC_RELAXED);
			return RCU_WFCQ_WOULDBLOCK;
		}
	}
	__atomic_store_n(&head->node.next, next, __ATOMIC_RELAXED);
	return node;
}

/**
 * rcu_wfcq_dequeue_with_state_blocking_unlocked(head, tail, state) - remove and return the first
 * node, or NULL if the queue is empty; the caller excludes other consumers (see the table).
 *
 * Waits for an enqueuer between its two steps. If state is not NULL it receives
 * RCU_WFCQ_STATE_LAST when the node was the last one (the dequeue emptied the queue), 0
 * otherwise. The node may be reused or freed at once.
 */
static inline struct rcu_wfcq_node *rcu_wfcq_dequeue_with_state_blocking_unlocked(
	struct rcu_wfcq_head *head, struct rcu_wfcq_tail *tail, int *state)
{
	return rcu__wfcq_dequeue(head, tail, state, true);
}

/** rcu_wfcq_dequeue_blocking_unlocked(head, tail) - as the _with_state form, without the state. */
static inline struct rcu_wfcq_node *rcu_wfcq_dequeue_blocking_unlocked(struct rcu_wfcq_head *head,
									struct rcu_wfcq_tail *tail)
{
	return rcu__wfcq_dequeue(head, tail, NULL, true);
}

/**
 * rcu_wfcq_dequeue_with_state_nonblocking_unlocked(head, tail, state) - as the _blocking form,
 * but returns RCU_WFCQ_WOULDBLOCK (the queue unchanged, *state 0) instead of waiting for an
 * enqueuer between its two steps.
 */
static inline struct rcu_wfcq_node *rcu_wfcq_dequeue_with_state_nonblocking_unlocked(
	struct rcu_wfcq_head *head, struct rcu_wfcq_tail *tail, int *state)
{
	return rcu__wfcq_dequeue(head, tail, state, false);
}

/** rcu_wfcq_dequeue_nonblocking_unlocked(head, tail) - as the _with_state form, without the state. */
static inline struct rcu_wfcq_node *rcu_wfcq_dequeue_nonblocking_unlocked(struct rcu_wfcq_head *head,
									   struct rcu_wfcq_tail *tail)
{
	return rcu__wfcq_dequeue(head, tail, NULL, false);
}

static inline enum rcu_wfcq_ret rcu__wfcq_splice(struct rcu_wfcq_head *dest_head, struct rcu_wfcq_tail *dest_tail,
						 struct rcu_wfcq_head *src_head, struct rcu_wfcq_tail *src_tail,
						 bool block)
{
	if (rcu_wfcq_empty(src_head, src_tail))
		return RCU_WFCQ_RET_SRC_EMPTY;
	struct rcu_wfcq_node *first;
	unsigned attempt = 0;
	/*
	 * Take the first node and empty the dummy in one exchange: splices out of one queue need no
	 * exclusion between them, and only one of two may get the chain (a load and a store would
	 * let both take it and link it twice). An empty dummy with a tail elsewhere is an enqueue
	 * between its steps, or another splice between its exchanges: wait, then look again.
	 * WQ5: acquire, pairs with WQ2 of the enqueuer that linked first: its WQ1 before our WQ6.
	 */
	while ((first = __atomic_exchange_n(&src_head->node.next, RCU__WFCQ_NONE, __ATOMIC_ACQUIRE)) == NULL) {
		if (__atomic_load_n(&src_tail->p, __ATOMIC_RELAXED) == &src_head->node)
			return RCU_WFCQ_RET_SRC_EMPTY;
		if (!block)
			return RCU_WFCQ_RET_WOULDBLOCK;
		rcu__wfcq_pause(&attempt);
	}
	rcu__wfcq_delay();
	/* WQ6: acq_rel; release: the NULL above before the dummy is a predecessor; acquire: pairs with the last node's WQ1. */
	struct rcu_wfcq_node *last = __atomic_exchange_n(&src_tail->p, &src_head->node, __ATOMIC_ACQ_REL);
	return rcu__wfcq_append(dest_head, dest_tail, first, last) ? RCU_WFCQ_RET_DEST_NON_EMPTY
								     : RCU_WFCQ_RET_DEST_EMPTY;
}

/**
 * rcu_wfcq_splice_blocking_unlocked(dest_head, dest_tail, src_head, src_tail) - move every node
 * of the source queue to the end of the destination, in order; the caller excludes the source's
 * other consumers (see the table). The destination needs no exclusion (as for enqueue).
 *
 * Returns RCU_WFCQ_RET_SRC_EMPTY if there was nothing to move, otherwise
 * RCU_WFCQ_RET_DEST_EMPTY or RCU_WFCQ_RET_DEST_NON_EMPTY: whether the destination was empty just
 * before. Never RCU_WFCQ_RET_WOULDBLOCK: it waits for an enqueuer of the source that is between
 * its two steps before the first node. Nodes whose enqueue is still unfinished move with the rest
 * (the destination's consumers wait for their links). The two queues must differ.
 */
static inline enum rcu_wfcq_ret rcu_wfcq_splice_blocking_unlocked(struct rcu_wfcq_head *dest_head,
								  struct rcu_wfcq_tail *dest_tail,
								  struct rcu_wfcq_head *src_head,
								  struct rcu_wfcq_tail *src_tail)
{
	return rcu__wfcq_splice(dest_head, dest_tail, src_head, src_tail, true);
}

/**
 * rcu_wfcq_splice_nonblocking_unlocked(dest_head, dest_tail, src_head, src_tail) - as the
 * _blocking form, but returns RCU_WFCQ_RET_WOULDBLOCK (nothing moved) instead of waiting.
 */
static inline enum rcu_wfcq_ret rcu_wfcq_splice_nonblocking_unlocked(struct rcu_wfcq_head *dest_head,
								     struct rcu_wfcq_tail *dest_tail,
								     struct rcu_wfcq_head *src_head,
								     struct rcu_wfcq_tail *src_tail)
{
	return rcu__wfcq_splice(dest_head, dest_tail, src_head, src_tail, false);
}

static inline struct rcu_wfcq_node *rcu__wfcq_first(struct rcu_wfcq_head *head, struct rcu_wfcq_tail *tail,
						    bool block)
{
	if (rcu_wfcq_empty(head, tail))
		return NULL;
	return rcu__wfcq_await_next(&head->node, block); /* WQ3 */
}

static inline struct rcu_wfcq_node *rcu__wfcq_next(struct rcu_wfcq_tail *tail, struct rcu_wfcq_node *node, bool block)
{
	struct rcu_wfcq_node *next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE); /* WQ3 */
	if (next != NULL)
		return next;
	if (__atomic_load_n(&tail->p, __ATOMIC_RELAXED) == node)
		return NULL; /* the end (an enqueue that has not passed WQ1 yet comes after it) */
	return rcu__wfcq_await_next(node, block);
}

/**
 * rcu_wfcq_first_blocking_unlocked(head, tail) - the first node, without removing it; NULL if
 * the queue is empty. The caller excludes consumers (see the table); enqueuers may run.
 * Waits for an enqueuer between its two steps.
 */
static inline struct rcu_wfcq_node *rcu_wfcq_first_blocking_unlocked(struct rcu_wfcq_head *head,
								      struct rcu_wfcq_tail *tail)
{
	return rcu__wfcq_first(head, tail, true);
}

/** rcu_wfcq_first_nonblocking_unlocked(head, tail) - as the _blocking form, or RCU_WFCQ_WOULDBLOCK. */
static inline struct rcu_wfcq_node *rcu_wfcq_first_nonblocking_unlocked(struct rcu_wfcq_head *head,
									 struct rcu_wfcq_tail *tail)
{
	return rcu__wfcq_first(head, tail, false);
}

/**
 * rcu_wfcq_next_blocking_unlocked(head, tail, node) - the node after node, NULL at the end. Same
 * rules as rcu_wfcq_first_blocking_unlocked(); node must be in the queue.
 */
static inline struct rcu_wfcq_node *rcu_wfcq_next_blocking_unlocked(struct rcu_wfcq_head *head,
								     struct rcu_wfcq_tail *tail,
								     struct rcu_wfcq_node *node)
{
	(void)head;
	return rcu__wfcq_next(tail, node, true);
}

/** rcu_wfcq_next_nonblocking_unlocked(head, tail, node) - as the _blocking form, or RCU_WFCQ_WOULDBLOCK. */
static inline struct rcu_wfcq_node *rcu_wfcq_next_nonblocking_unlocked(struct rcu_wfcq_head *head,
									struct rcu_wfcq_tail *tail,
									struct rcu_wfcq_node *node)
{
	(void)head;
	return rcu__wfcq_next(tail, node, false);
}

/**
 * rcu_wfcq_for_each_blocking_unlocked(head, tail, node) - walk the queue from first to last
 * without removing anything (first/next, blocking). Same rules as
 * rcu_wfcq_first_blocking_unlocked(); the body must not free or move node.
 */
#define rcu_wfcq_for_each_blocking_unlocked(head, tail, node) \
	for ((node) = rcu_wfcq_first_blocking_unlocked((head), (tail)); (node) != NULL; \
	     (node) = rcu_wfcq_next_blocking_unlocked((head), (tail), (node)))

/**
 * rcu_wfcq_for_each_blocking_safe_unlocked(head, tail, node, n) - as above, but the body may
 * free or reuse node (n, a struct rcu_wfcq_node *, holds the next one). Meant for a queue that
 * nobody else can reach any more (a private queue spliced into): the successor is read before
 * the body runs, so the body must not free the node of an enqueue still in progress.
 */
#define rcu_wfcq_for_each_blocking_safe_unlocked(head, tail, node, n) \
	for ((node) = rcu_wfcq_first_blocking_unlocked((head), (tail)), \
	    (n) = (node) ? rcu_wfcq_next_blocking_unlocked((head), (tail), (node)) : NULL; \
	     (node) != NULL; \
	     (node) = (n), (n) = (node) ? rcu_wfcq_next_blocking_unlocked((head), (tail), (node)) : NULL)

/**
 * rcu_wfcq_dequeue_lock(head, tail) / rcu_wfcq_dequeue_unlock(head, tail) - take and release the
 * queue's mutex, the exclusion the _unlocked functions need when several threads consume (it is
 * the one the functions without _unlocked take: do not call those while holding it).
 */
static inline void rcu_wfcq_dequeue_lock(struct rcu_wfcq_head *head, struct rcu_wfcq_tail *tail)
{
	(void)tail;
	(void)pthread_mutex_lock(&head->lock);
}

static inline void rcu_wfcq_dequeue_unlock(struct rcu_wfcq_head *head, struct rcu_wfcq_tail *tail)
{
	(void)tail;
	(void)pthread_mutex_unlock(&head->lock);
}

/**
 * rcu_wfcq_dequeue_with_state_blocking(head, tail, state) - rcu_wfcq_dequeue_with_state_blocking_unlocked()
 * under the queue's mutex: any number of consumer threads, no other exclusion needed.
 */
static inline struct rcu_wfcq_node *rcu_wfcq_dequeue_with_state_blocking(struct rcu_wfcq_head *head,
									  struct rcu_wfcq_tail *tail, int *state)
{
	rcu_wfcq_dequeue_lock(head, tail);
	struct rcu_wfcq_node *node = rcu__wfcq_dequeue(head, tail, state, true);
	rcu_wfcq_dequeue_unlock(head, tail);
	return node;
}

/** rcu_wfcq_dequeue_blocking(head, tail) - as the _with_state form, without the state. */
static inline struct rcu_wfcq_node *rcu_wfcq_dequeue_blocking(struct rcu_wfcq_head *head, struct rcu_wfcq_tail *tail)
{
	return rcu_wfcq_dequeue_with_state_blocking(head, tail, NULL);
}

/**
 * rcu_wfcq_splice_blocking(dest_head, dest_tail, src_head, src_tail) -
 * rcu_wfcq_splice_blocking_unlocked() under the source's mutex (the destination's is not taken).
 */
static inline enum rcu_wfcq_ret rcu_wfcq_splice_blocking(struct rcu_wfcq_head *dest_head,
							 struct rcu_wfcq_tail *dest_tail,
							 struct rcu_wfcq_head *src_head,
							 struct rcu_wfcq_tail *src_tail)
{
	rcu_wfcq_dequeue_lock(src_head, src_tail);
	enum rcu_wfcq_ret ret = rcu__wfcq_splice(dest_head, dest_tail, src_head, src_tail, true);
	rcu_wfcq_dequeue_unlock(src_head, src_tail);
	return ret;
}

#if defined(__cplusplus)
}
#endif

#endif /* RCU_WFCQUEUE_H */
