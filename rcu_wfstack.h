/* SPDX-License-Identifier: 0BSD */
/*
 * rcu_wfstack.h: a concurrent LIFO stack with wait-free push (liburcu's wfstack), header-only,
 * beside rcu.h.
 *
 * Contents (grep for the anchors)
 *   >>doc        what it is, who may call what, configuration
 *   >>algorithm  how it works, and the ordering points WS1..WS5
 *   >>types      nodes, the stack, the popped list
 *   >>push       rcu_wfs_push()
 *   >>pop        pop, pop_all, iteration over a popped list
 *
 * >>doc
 *
 * What it is. A stack of intrusive nodes (struct rcu_wfs_node, embedded in your objects). Push is
 * wait-free: one exchange and one store, whatever the other threads do, and it says whether the
 * stack was empty. Pop takes the top node; pop_all takes every node at once (a list that the
 * caller walks from the most recent push down, without further synchronisation with the stack).
 * Pops need the caller's synchronisation (the _unlocked forms) or the stack's mutex (the forms
 * without the suffix take it), as the table says. A pop may have to wait for a pusher that has
 * done its first step and not yet its second: _blocking waits (spin, then sleep 1 ms at a time),
 * _nonblocking returns RCU_WFS_WOULDBLOCK instead (also when a concurrent push or pop beat it).
 *
 * Who may run at the same time as whom, on one stack ("-": no exclusion needed; "X": the caller
 * must exclude them, or use the functions that take the stack's mutex):
 *
 *                 push   pop   pop_all
 *   push           -      -      -
 *   pop            -      X      X
 *   pop_all        -      X      -
 *
 * The pop rule ("X" between pops) has three ways out, as in liburcu:
 *   1. pop inside an RCU read-side section (rcu_read_lock() of rcu.h): then a node that pop or
 *      pop_all returned must not be freed, nor pushed again, nor have its rcu_wfs_node touched,
 *      before a grace period has passed (call_rcu(), synchronize_rcu()); pop_all itself needs no
 *      section. That is what stops a pop that read the top node from installing a stale next
 *      (the ABA problem) or reading freed memory;
 *   2. a mutex around every pop and pop_all (the stack's own: rcu_wfs_pop_lock(), or the forms
 *      without _unlocked); then popped nodes are the caller's at once;
 *   3. a single thread that pops and pops all (many pushers, one consumer).
 * rcu_wfs_empty() may be called by anybody at any time. This header uses no RCU itself and does
 * not include rcu.h; with way 1 the caller includes it.
 *
 * Memory ordering. Everything a thread wrote before rcu_wfs_push() (the object around the node)
 * is visible to the thread that pops the node or reaches it in a popped list. No other ordering
 * is promised (liburcu's documentation promises a full barrier before push; its code, without
 * CONFIG_RCU_EMIT_LEGACY_MB, gives a sequentially consistent exchange, which is one on x86).
 *
 * Configuration (per translation unit).
 *   RCU_DEBUG        misuse aborts with a sentence naming the call and the rule: a node pushed
 *                    whose next is not NULL (not initialised with rcu_wfs_node_init() since it
 *                    left a stack).
 *   RCU_DEBUG_DELAY  a random delay (up to 2,047 pauses, now and then a yield) between a push's
 *                    two steps, the window in which pops wait: for tests.
 *
 * Licence: 0BSD, as rcu.h.
 */
#ifndef RCU_WFSTACK_H
#define RCU_WFSTACK_H

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
 * stack->head points to the top node, or to the end marker RCU__WFS_END (the address 1: NULL is
 * taken, see below) when the stack is empty. Each node's next points to the node below it, or to
 * the end marker.
 *
 * Push is two steps: it exchanges stack->head for the new node (WS1), which returns the old top,
 * and then stores the old top into the node's next (WS2). Between the two steps the node is on
 * top with next == NULL: a pop (or a walk of a popped list) that reaches such a node waits for the
 * second step (_blocking) or gives up (_nonblocking). That is why rcu_wfs_node_init() sets next
 * to NULL, and why the end marker is not NULL.
 *
 * Pop reads the top node (WS3), waits for its next (WS3), and moves stack->head from the node to
 * its next with a compare-and-swap (WS4); if another pop or a push changed the head meanwhile, it
 * starts again (_nonblocking returns RCU_WFS_WOULDBLOCK). The read of the top node's next is why
 * pops need exclusion or RCU: without it another thread could pop that node, free it, or pop it
 * and push it again with another next, between our read and our compare-and-swap. Pop_all
 * exchanges stack->head for the end marker (WS5) and returns the whole list; the walk then waits
 * at each node whose push is still between its two steps.
 *
 * The ordering points (docs/queues.md has the table):
 *   WS1  push's exchange of the head, release: pairs with WS3 and WS5; the node initialised and
 *        its object written before it is on top. Every write to the head is a read-modify-write
 *        (WS1, WS4, WS5), so the release sequence of a push runs to the end: an acquire of the
 *        head, whichever value it reads, synchronises with every push before that value, and so
 *        sees the objects of all the nodes below the top too.
 *   WS2  push's store of the old top into the node's next, release: pairs with WS3. It is the
 *        pusher's last access to the node: a popper that reads it may free the node at once.
 *   WS3  a pop's load of the head, and every load of a next that pop or a walk follows, acquire:
 *        pairs with WS1 (the top's object) and WS2 (the pusher is done with the node).
 *   WS4  pop's compare-and-swap of the head to the node's next: relaxed. The next node's object
 *        is published by its own push (WS1, through the release sequence), and the popper has
 *        written nothing that the next pop needs.
 *   WS5  pop_all's exchange of the head for the end marker, acquire: pairs with WS1 of every push
 *        of the list (the release sequence again).
 */

/* >>types ------------------------------------------------------------------------------------- */

/** struct rcu_wfs_node - the link embedded in a stacked object. Initialise with rcu_wfs_node_init(). */
struct rcu_wfs_node {
	struct rcu_wfs_node *next; /* (atomic) NULL while its push is between its two steps */
};

/**
 * struct rcu_wfs_head - a popped list: what rcu_wfs_pop_all_blocking() and
 * rcu_wfs_pop_all_unlocked() return, for rcu_wfs_first() and the walks. Its node is the top node.
 */
struct rcu_wfs_head {
	struct rcu_wfs_node node;
};

/** struct rcu_wfs_stack - a stack: the top node, and the mutex of the pop forms without _unlocked. */
struct rcu_wfs_stack {
	struct rcu_wfs_head *head; /* (atomic) the top node, or RCU__WFS_END */
	pthread_mutex_t lock;
};

/** RCU_WFS_WOULDBLOCK - what the _nonblocking pops and rcu_wfs_next_nonblocking() return instead of waiting. */
#if defined(__cplusplus)
#define RCU_WFS_WOULDBLOCK (reinterpret_cast<struct rcu_wfs_node *>(~static_cast<uintptr_t>(0)))
#define RCU__WFS_END (reinterpret_cast<struct rcu_wfs_head *>(static_cast<uintptr_t>(1)))
#define RCU__WFS_NONE (static_cast<struct rcu_wfs_node *>(nullptr))
#else
#define RCU_WFS_WOULDBLOCK ((struct rcu_wfs_node *)~(uintptr_t)0)
#define RCU__WFS_END ((struct rcu_wfs_head *)(uintptr_t)1)
#define RCU__WFS_NONE ((struct rcu_wfs_node *)NULL)
#endif

/** enum rcu_wfs_state - flags the _with_state pops store. */
enum rcu_wfs_state {
	RCU_WFS_STATE_LAST = 1, /* the node popped was the last: the pop left the stack empty */
};

/*
 * A head and its node have the same address (node is the first member), also for the end
 * marker, which is never dereferenced: convert by cast, never by ->node or container_of.
 */
static inline struct rcu_wfs_node *rcu__wfs_node_of(struct rcu_wfs_head *head)
{
	return (struct rcu_wfs_node *)(void *)head;
}

static inline struct rcu_wfs_head *rcu__wfs_head_of(struct rcu_wfs_node *node)
{
	return (struct rcu_wfs_head *)(void *)node;
}

#if defined(RCU_DEBUG)
__attribute__((noreturn, cold)) static void rcu__wfs_misuse(const char *call, const char *rule)
{
	fprintf(stderr, "rcu_wfstack.h: %s: %s\n", call, rule);
	fflush(stderr);
	abort();
}
#endif

static inline void rcu__wfs_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

#if defined(RCU_DEBUG_DELAY)
/* RCU_DEBUG_DELAY: up to 2,047 pauses, and a yield one time in 64. */
static inline void rcu__wfs_delay(void)
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
		rcu__wfs_cpu_relax();
}
#else
#define rcu__wfs_delay() ((void)0)
#endif

/* >>push -------------------------------------------------------------------------------------- */

/** rcu_wfs_node_init(node) - make node ready to be pushed (next = NULL). Before each push. */
static inline void rcu_wfs_node_init(struct rcu_wfs_node *node)
{
	__atomic_store_n(&node->next, RCU__WFS_NONE, __ATOMIC_RELAXED);
}

/**
 * rcu_wfs_init(s) - make an empty stack, and initialise its mutex. Not while other threads can
 * reach it. Pair with rcu_wfs_destroy().
 */
static inline void rcu_wfs_init(struct rcu_wfs_stack *s)
{
	__atomic_store_n(&s->head, RCU__WFS_END, __ATOMIC_RELAXED);
	(void)pthread_mutex_init(&s->lock, NULL);
}

/**
 * rcu_wfs_init_unlocked(s) - make an empty stack, leaving its mutex alone: for a stack whose
 * pops never take it (push, empty and the _unlocked functions only; no rcu_wfs_destroy()).
 */
static inline void rcu_wfs_init_unlocked(struct rcu_wfs_stack *s)
{
	__atomic_store_n(&s->head, RCU__WFS_END, __ATOMIC_RELAXED);
}

/** rcu_wfs_destroy(s) - release the stack's mutex. The nodes still on it stay yours. */
static inline void rcu_wfs_destroy(struct rcu_wfs_stack *s)
{
	(void)pthread_mutex_destroy(&s->lock);
}

/**
 * rcu_wfs_empty(s) - is the stack empty? Anybody, any time; no ordering. A node whose push is
 * between its two steps counts (the stack is not empty).
 */
static inline bool rcu_wfs_empty(const struct rcu_wfs_stack *s)
{
	return __atomic_load_n(&s->head, __ATOMIC_RELAXED) == RCU__WFS_END;
}

/**
 * rcu_wfs_push(s, node) - put node on top of the stack. Wait-free.
 *
 * Returns 0 if the stack was empty just before, 1 otherwise. Any thread, any time, no lock.
 * node must have been initialised with rcu_wfs_node_init() since it last left a stack
 * (RCU_DEBUG aborts otherwise). Everything the caller wrote before the call is visible to
 * whoever pops the node or reaches it in a popped list.
 */
static inline int rcu_wfs_push(struct rcu_wfs_stack *s, struct rcu_wfs_node *node)
{
#if defined(RCU_DEBUG)
	if (__atomic_load_n(&node->next, __ATOMIC_RELAXED) != NULL)
		rcu__wfs_misuse("rcu_wfs_push()", "the node's next is not NULL: it is still on a stack, "
				"or was not initialised; call rcu_wfs_node_init() before pushing it");
#endif
	struct rcu_wfs_head *top = rcu__wfs_head_of(node);
	/* WS1: release, pairs with WS3/WS5: node ready before it is on top. */
	struct rcu_wfs_head *old = __atomic_exchange_n(&s->head, top, __ATOMIC_RELEASE);
	rcu__wfs_delay();
	/* WS2: release, pairs with WS3: our last access to node, before a popper frees it. */
	__atomic_store_n(&node->next, rcu__wfs_node_of(old), __ATOMIC_RELEASE);
	return old != RCU__WFS_END;
}

/* >>pop --------------------------------------------------------------------------------------- */

/* The next of node, waiting (block) or giving up while its push has not stored it yet. */
static inline struct rcu_wfs_node *rcu__wfs_await_next(struct rcu_wfs_node *node, bool block)
{
	/* WS3: acquire, pairs with WS2: the pusher is done with node. */
	struct rcu_wfs_node *next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE);
	unsigned attempt = 0;
	if (__builtin_expect(next != NULL, 1))
		return next;
	while ((next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE)) == NULL) { /* WS3 */
		if (!block)
			return RCU_WFS_WOULDBLOCK;
		if (++attempt < 100) {
			rcu__wfs_cpu_relax();
		} else {
			attempt = 0;
			(void)poll(NULL, 0, 1);
		}
	}
	return next;
}

static inline struct rcu_wfs_node *rcu__wfs_pop(struct rcu_wfs_stack *s, int *state, bool block)
{
	if (state)
		*state = 0;
	for (;;) {
		/* WS3: acquire, pairs with WS1 (release sequence): the top node's object. */
		struct rcu_wfs_head *top = __atomic_load_n(&s->head, __ATOMIC_ACQUIRE);
		if (top == RCU__WFS_END)
			return NULL;
		struct rcu_wfs_node *next = rcu__wfs_await_next(&top->node, block); /* WS3 */
		if (!block && next == RCU_WFS_WOULDBLOCK) /* (!block first: the blocking forms skip the test) */
			return RCU_WFS_WOULDBLOCK;
		struct rcu_wfs_head *below = rcu__wfs_head_of(next);
		/* WS4: relaxed: below was published by its own push (WS1's release sequence). */
		if (__atomic_compare_exchange_n(&s->head, &top, below, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
			if (state && below == RCU__WFS_END)
				*state |= RCU_WFS_STATE_LAST;
			return &top->node;
		}
		if (!block)
			return RCU_WFS_WOULDBLOCK; /* a push or another pop changed the top meanwhile */
	}
}

/**
 * rcu_wfs_pop_with_state_blocking_unlocked(s, state) - take the top node, or NULL if the stack
 * is empty; the caller synchronises pops (RCU read-side section, a mutex, or one thread: see
 * >>doc).
 *
 * Waits for a push between its two steps, and retries when another pop or a push changes the
 * top meanwhile. If state is not NULL it receives RCU_WFS_STATE_LAST when the node was the last
 * one, 0 otherwise. Inside an RCU section: do not free, push again or touch the node's
 * rcu_wfs_node before a grace period.
 */
static inline struct rcu_wfs_node *rcu_wfs_pop_with_state_blocking_unlocked(struct rcu_wfs_stack *s, int *state)
{
	return rcu__wfs_pop(s, state, true);
}

/** rcu_wfs_pop_blocking_unlocked(s) - as the _with_state form, without the state. */
static inline struct rcu_wfs_node *rcu_wfs_pop_blocking_unlocked(struct rcu_wfs_stack *s)
{
	return rcu__wfs_pop(s, NULL, true);
}

/**
 * rcu_wfs_pop_with_state_nonblocking_unlocked(s, state) - as the _blocking form, but returns
 * RCU_WFS_WOULDBLOCK (the stack unchanged, *state 0) instead of waiting for a push between its
 * steps or of retrying after a concurrent change of the top.
 */
static inline struct rcu_wfs_node *rcu_wfs_pop_with_state_nonblocking_unlocked(struct rcu_wfs_stack *s, int *state)
{
	return rcu__wfs_pop(s, state, false);
}

/** rcu_wfs_pop_nonblocking_unlocked(s) - as the _with_state form, without the state. */
static inline struct rcu_wfs_node *rcu_wfs_pop_nonblocking_unlocked(struct rcu_wfs_stack *s)
{
	return rcu__wfs_pop(s, NULL, false);
}

/**
 * rcu_wfs_pop_all_unlocked(s) - take every node at once; NULL if the stack was empty. Wait-free.
 *
 * Needs no synchronisation with pushes nor with other pop_alls, but the same as pops (see
 * >>doc; it needs no RCU section itself). Walk the list with rcu_wfs_for_each_blocking() or
 * rcu_wfs_first() and rcu_wfs_next_blocking(): most recent push first.
 */
static inline struct rcu_wfs_head *rcu_wfs_pop_all_unlocked(struct rcu_wfs_stack *s)
{
	/* WS5: acquire, pairs with WS1 of every push of the list (release sequence). */
	struct rcu_wfs_head *top = __atomic_exchange_n(&s->head, RCU__WFS_END, __ATOMIC_ACQUIRE);
	return top == RCU__WFS_END ? NULL : top;
}

/** rcu_wfs_pop_lock(s) / rcu_wfs_pop_unlock(s) - take and release the stack's mutex (way 2 of >>doc). */
static inline void rcu_wfs_pop_lock(struct rcu_wfs_stack *s)
{
	(void)pthread_mutex_lock(&s->lock);
}

static inline void rcu_wfs_pop_unlock(struct rcu_wfs_stack *s)
{
	(void)pthread_mutex_unlock(&s->lock);
}

/** rcu_wfs_pop_with_state_blocking(s, state) - rcu_wfs_pop_with_state_blocking_unlocked() under the stack's mutex. */
static inline struct rcu_wfs_node *rcu_wfs_pop_with_state_blocking(struct rcu_wfs_stack *s, int *state)
{
	rcu_wfs_pop_lock(s);
	struct rcu_wfs_node *node = rcu__wfs_pop(s, state, true);
	rcu_wfs_pop_unlock(s);
	return node;
}

/** rcu_wfs_pop_blocking(s) - as the _with_state form, without the state. */
static inline struct rcu_wfs_node *rcu_wfs_pop_blocking(struct rcu_wfs_stack *s)
{
	return rcu_wfs_pop_with_state_blocking(s, NULL);
}

/** rcu_wfs_pop_all_blocking(s) - rcu_wfs_pop_all_unlocked() under the stack's mutex. */
static inline struct rcu_wfs_head *rcu_wfs_pop_all_blocking(struct rcu_wfs_stack *s)
{
	rcu_wfs_pop_lock(s);
	struct rcu_wfs_head *top = rcu_wfs_pop_all_unlocked(s);
	rcu_wfs_pop_unlock(s);
	return top;
}

/** rcu_wfs_first(head) - the first node of a popped list (its top), NULL if head is NULL. */
static inline struct rcu_wfs_node *rcu_wfs_first(struct rcu_wfs_head *head)
{
	return head == NULL || head == RCU__WFS_END ? NULL : &head->node;
}

static inline struct rcu_wfs_node *rcu__wfs_next(struct rcu_wfs_node *node, bool block)
{
	struct rcu_wfs_node *next = rcu__wfs_await_next(node, block); /* WS3 */
	return next == rcu__wfs_node_of(RCU__WFS_END) ? NULL : next;
}

/**
 * rcu_wfs_next_blocking(node) - the node below node in a popped list, NULL at the end. Waits
 * while node's push is between its two steps. Needs no synchronisation: the list is the caller's.
 */
static inline struct rcu_wfs_node *rcu_wfs_next_blocking(struct rcu_wfs_node *node)
{
	return rcu__wfs_next(node, true);
}

/** rcu_wfs_next_nonblocking(node) - as rcu_wfs_next_blocking(), or RCU_WFS_WOULDBLOCK instead of waiting. */
static inline struct rcu_wfs_node *rcu_wfs_next_nonblocking(struct rcu_wfs_node *node)
{
	return rcu__wfs_next(node, false);
}

/**
 * rcu_wfs_for_each_blocking(head, node) - walk a popped list (head: a struct rcu_wfs_head *,
 * may be NULL) from the top; the body must not free node.
 */
#define rcu_wfs_for_each_blocking(head, node) \
	for ((node) = rcu_wfs_first(head); (node) != NULL; (node) = rcu_wfs_next_blocking(node))

/**
 * rcu_wfs_for_each_blocking_safe(head, node, n) - as rcu_wfs_for_each_blocking(), but the body
 * may free or reuse node (n, a struct rcu_wfs_node *, holds the next one).
 */
#define rcu_wfs_for_each_blocking_safe(head, node, n) \
	for ((node) = rcu_wfs_first(head), (n) = (node) ? rcu_wfs_next_blocking(node) : NULL; (node) != NULL; \
	     (node) = (n), (n) = (node) ? rcu_wfs_next_blocking(node) : NULL)

#if defined(__cplusplus)
}
#endif

#endif /* RCU_WFSTACK_H */
