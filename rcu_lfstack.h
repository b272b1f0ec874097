/* SPDX-License-Identifier: 0BSD */
/*
 * rcu_lfstack.h: a lock-free LIFO stack (liburcu's lfstack), header-only, beside rcu.h.
 *
 * Contents (grep for the anchors)
 *   >>doc        what it is, who may call what, the ABA rule
 *   >>algorithm  how it works, and the ordering points LS1..LS4
 *   >>types      nodes, the stack, the popped list
 *   >>ops        push, pop, pop_all, iteration
 *
 * >>doc
 *
 * What it is. A stack of intrusive nodes (struct rcu_lfs_node, embedded in your objects), a
 * compare-and-swap loop on one word for push and pop: lock-free (some thread always makes
 * progress), and a pop never waits for a push (unlike rcu_wfstack.h, where a pop may wait for a
 * pusher between its two steps, in exchange for a push that is wait-free). Push says whether the
 * stack was empty; pop_all takes every node at once.
 *
 * Who may run at the same time as whom, on one stack ("-": no exclusion needed; "X": see below):
 *
 *                 push   pop   pop_all
 *   push           -      -      -
 *   pop            -      X      X
 *   pop_all        -      X      -
 *
 * The ABA rule. A pop reads the top node and that node's next, then swings the head from the top
 * to next with a compare-and-swap. If, between the read and the compare-and-swap, other threads
 * popped the top, popped or freed what was below it, and pushed the same top node again, the
 * compare-and-swap would succeed and install a next that is no longer on the stack (or free
 * memory). So pops need one of, as in liburcu:
 *   1. every pop inside an RCU read-side section (rcu_read_lock() of rcu.h), and no node that
 *      pop or pop_all returned freed, pushed again or its rcu_lfs_node written by anything but
 *      this header, before a grace period has passed (call_rcu(), synchronize_rcu()): a node
 *      cannot come back while a pop that saw it is still in its section. pop_all needs no
 *      section; the other fields of a popped object may be written at once;
 *   2. a mutex around every pop and pop_all (the stack's own: rcu_lfs_pop_lock(), or the _blocking
 *      forms); popped nodes are then the caller's at once;
 *   3. one thread that does all the pops and pop_alls.
 * Push needs none of this: it only writes the node it pushes, and its compare-and-swap succeeds
 * only if the head is still the value it stored as next, whatever happened in between.
 * rcu_lfs_empty() may be called by anybody at any time. This header uses no RCU itself and does
 * not include rcu.h; with way 1 the caller includes it.
 *
 * Memory ordering. Everything a thread wrote before rcu_lfs_push() (the object around the node)
 * is visible to the thread that pops the node or reaches it in a popped list. No other ordering
 * is promised.
 *
 * Configuration (per translation unit).
 *   RCU_DEBUG_DELAY  a random delay (up to 2,047 pauses, now and then a yield) between a pop's
 *                    read of the top node's next and its compare-and-swap, the window of the ABA
 *                    problem: tests use it to show that the rule holds (and matters).
 *
 * Licence: 0BSD, as rcu.h.
 */
#ifndef RCU_LFSTACK_H
#define RCU_LFSTACK_H

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
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#if defined(RCU_DEBUG_DELAY)
#include <sched.h>
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/*
 * >>algorithm
 *
 * stack->head points to the top node, NULL when empty; each node's next to the node below it.
 * Push writes the node's next (a guess of the head: NULL first, since stacks are often empty, so
 * that the first attempt needs no load of the head's line) and compare-and-swaps the head from
 * the guess to the node (LS1); a failure returns the actual head, which becomes the next guess.
 * Pop loads the head (LS2), reads the top node's next, and compare-and-swaps the head from the
 * top to that next (LS3), again on failure. Pop_all exchanges the head for NULL (LS4).
 *
 * The ordering points (docs/queues.md has the table):
 *   LS1  push's compare-and-swap, release on success: pairs with LS2 and LS4; the node's next
 *        and its object written before it is on top. Every write to the head is a
 *        read-modify-write (LS1, LS3, LS4), so the release sequence of a push runs to the end:
 *        an acquire of the head, whichever value it reads, synchronises with every push before
 *        that value, and so sees the nodes below the top too. Relaxed on failure: the value is
 *        only our next guess, never dereferenced.
 *   LS2  pop's load of the head (and the reload when its compare-and-swap fails), acquire: pairs
 *        with LS1; the top's next and object.
 *   LS3  pop's compare-and-swap of the head to the next node. Its failure is LS2 (acquire); C11
 *        wants the success order at least as strong, so success is release, which nothing needs
 *        (the next node was published by its own push, through the release sequence).
 *   LS4  pop_all's exchange of the head for NULL, acquire: pairs with LS1 of every push of the
 *        list (the release sequence again).
 */

/* >>types ------------------------------------------------------------------------------------- */

/** struct rcu_lfs_node - the link embedded in a stacked object. */
struct rcu_lfs_node {
	struct rcu_lfs_node *next; /* (atomic) */
};

/**
 * struct rcu_lfs_head - a popped list: what rcu_lfs_pop_all_blocking() and rcu_lfs_pop_all_unlocked()
 * return, for rcu_lfs_for_each(). Its node is the top node.
 */
struct rcu_lfs_head {
	struct rcu_lfs_node node;
};

/** struct rcu_lfs_stack - a stack: the top node, and the mutex of the _blocking pops. */
struct rcu_lfs_stack {
	struct rcu_lfs_head *head; /* (atomic) the top node, NULL when empty */
	pthread_mutex_t lock;
};

/** RCU_LFS_STACK_INIT - static initialiser of an empty stack (no rcu_lfs_destroy() needed). */
#if defined(__cplusplus)
#define RCU_LFS_STACK_INIT { nullptr, PTHREAD_MUTEX_INITIALIZER }
#else
#define RCU_LFS_STACK_INIT { NULL, PTHREAD_MUTEX_INITIALIZER }
#endif

/* A head and its node have the same address (node is the first member); NULL stays NULL. */
static inline struct rcu_lfs_node *rcu__lfs_node_of(struct rcu_lfs_head *head)
{
	return (struct rcu_lfs_node *)(void *)head;
}

static inline struct rcu_lfs_head *rcu__lfs_head_of(struct rcu_lfs_node *node)
{
	return (struct rcu_lfs_head *)(void *)node;
}

#if defined(RCU_DEBUG_DELAY)
/* RCU_DEBUG_DELAY: up to 2,047 pauses, and a yield one time in 64. */
static inline void rcu__lfs_delay(void)
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
	for (unsigned i = (unsigned)(state % 2048); i > 0; i--) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#else
		__asm__ __volatile__("" ::: "memory");
#endif
	}
}
#else
#define rcu__lfs_delay() ((void)0)
#endif
/* What runs in a pop's window (between its read of next and its compare-and-swap); a test may define it first. */
#if !defined(RCU__LFS_WINDOW)
#define RCU__LFS_WINDOW() rcu__lfs_delay()
#endif

/* >>ops --------------------------------------------------------------------------------------- */

/** rcu_lfs_node_init(node) - nothing to do (push writes the link); kept for symmetry with the other stacks. */
static inline void rcu_lfs_node_init(struct rcu_lfs_node *node)
{
	(void)node;
}

/** rcu_lfs_init(s) - make an empty stack, and initialise its mutex. Pair with rcu_lfs_destroy(). */
static inline void rcu_lfs_init(struct rcu_lfs_stack *s)
{
	__atomic_store_n(&s->head, (struct rcu_lfs_head *)NULL, __ATOMIC_RELAXED);
	(void)pthread_mutex_init(&s->lock, NULL);
}

/**
 * rcu_lfs_init_unlocked(s) - make an empty stack, leaving its mutex alone: for a stack whose pops
 * never take it (push, empty and the _unlocked functions only; no rcu_lfs_destroy()).
 */
static inline void rcu_lfs_init_unlocked(struct rcu_lfs_stack *s)
{
	__atomic_store_n(&s->head, (struct rcu_lfs_head *)NULL, __ATOMIC_RELAXED);
}

/** rcu_lfs_destroy(s) - release the stack's mutex. The nodes still on it stay yours. */
static inline void rcu_lfs_destroy(struct rcu_lfs_stack *s)
{
	(void)pthread_mutex_destroy(&s->lock);
}

/** rcu_lfs_empty(s) - is the stack empty? Anybody, any time; no ordering. */
static inline bool rcu_lfs_empty(const struct rcu_lfs_stack *s)
{
	return __atomic_load_n(&s->head, __ATOMIC_RELAXED) == NULL;
}

/**
 * rcu_lfs_push(s, node) - put node on top of the stack. Lock-free.
 *
 * Returns false if the stack was empty just before, true otherwise. Any thread, any time, no lock
 * and no RCU section. Everything the caller wrote before the call is visible to whoever pops the
 * node or reaches it in a popped list.
 */
static inline bool rcu_lfs_push(struct rcu_lfs_stack *s, struct rcu_lfs_node *node)
{
	struct rcu_lfs_head *top = rcu__lfs_head_of(node);
	struct rcu_lfs_head *below = NULL; /* guess: empty */
	do {
		/* The node is ours until LS1 succeeds: relaxed (a late pop of a previous life may read it). */
		__atomic_store_n(&node->next, rcu__lfs_node_of(below), __ATOMIC_RELAXED);
		/* LS1: release on success, pairs with LS2/LS4: node ready before it is on top. */
	} while (!__atomic_compare_exchange_n(&s->head, &below, top, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	return below != NULL;
}

/**
 * rcu_lfs_pop_unlocked(s) - take the top node, or NULL if the stack is empty. Lock-free; the
 * caller synchronises pops: an RCU read-side section, a mutex, or one thread (the ABA rule of
 * >>doc). Inside an RCU section: do not free the node, push it again or write its rcu_lfs_node
 * before a grace period.
 */
static inline struct rcu_lfs_node *rcu_lfs_pop_unlocked(struct rcu_lfs_stack *s)
{
	/* LS2: acquire, pairs with LS1 (release sequence): the top's next and object. */
	struct rcu_lfs_head *top = __atomic_load_n(&s->head, __ATOMIC_ACQUIRE);
	while (top != NULL) {
		struct rcu_lfs_head *below = rcu__lfs_head_of(__atomic_load_n(&top->node.next, __ATOMIC_RELAXED));
		RCU__LFS_WINDOW();
		/* LS3: on failure LS2 again (acquire); release on success only because C11 wants it at least as strong. */
		if (__atomic_compare_exchange_n(&s->head, &top, below, false, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE))
			return &top->node;
	}
	return NULL;
}

/**
 * rcu_lfs_pop_all_unlocked(s) - take every node at once; NULL if the stack was empty. Wait-free.
 *
 * Needs no synchronisation with pushes nor with other pop_alls, but the same as pops (the ABA
 * rule of >>doc; it needs no RCU section itself). Walk the list with rcu_lfs_for_each(): most
 * recent push first.
 */
static inline struct rcu_lfs_head *rcu_lfs_pop_all_unlocked(struct rcu_lfs_stack *s)
{
	/* LS4: acquire, pairs with LS1 of every push of the list (release sequence). */
	return __atomic_exchange_n(&s->head, (struct rcu_lfs_head *)NULL, __ATOMIC_ACQUIRE);
}

/** rcu_lfs_pop_lock(s) / rcu_lfs_pop_unlock(s) - take and release the stack's mutex (way 2 of >>doc). */
static inline void rcu_lfs_pop_lock(struct rcu_lfs_stack *s)
{
	(void)pthread_mutex_lock(&s->lock);
}

static inline void rcu_lfs_pop_unlock(struct rcu_lfs_stack *s)
{
	(void)pthread_mutex_unlock(&s->lock);
}

/** rcu_lfs_pop_blocking(s) - rcu_lfs_pop_unlocked() under the stack's mutex; the node is the caller's at once. */
static inline struct rcu_lfs_node *rcu_lfs_pop_blocking(struct rcu_lfs_stack *s)
{
	rcu_lfs_pop_lock(s);
	struct rcu_lfs_node *node = rcu_lfs_pop_unlocked(s);
	rcu_lfs_pop_unlock(s);
	return node;
}

/** rcu_lfs_pop_all_blocking(s) - rcu_lfs_pop_all_unlocked() under the stack's mutex. */
static inline struct rcu_lfs_head *rcu_lfs_pop_all_blocking(struct rcu_lfs_stack *s)
{
	rcu_lfs_pop_lock(s);
	struct rcu_lfs_head *top = rcu_lfs_pop_all_unlocked(s);
	rcu_lfs_pop_unlock(s);
	return top;
}

/** rcu_lfs_next(node) - the node below node in a popped list, NULL at the end. */
static inline struct rcu_lfs_node *rcu_lfs_next(struct rcu_lfs_node *node)
{
	return __atomic_load_n(&node->next, __ATOMIC_RELAXED);
}

/**
 * rcu_lfs_for_each(head, node) - walk a popped list (head: a struct rcu_lfs_head *, may be NULL)
 * from the top; the body must not free node. No synchronisation: the list is the caller's.
 */
#define rcu_lfs_for_each(head, node) \
	for ((node) = rcu__lfs_node_of(head); (node) != NULL; (node) = rcu_lfs_next(node))

/**
 * rcu_lfs_for_each_safe(head, node, n) - as rcu_lfs_for_each(), but the body may free or reuse
 * node (n, a struct rcu_lfs_node *, holds the next one).
 */
#define rcu_lfs_for_each_safe(head, node, n) \
	for ((node) = rcu__lfs_node_of(head), (n) = (node) ? rcu_lfs_next(node) : NULL; (node) != NULL; \
	     (node) = (n), (n) = (node) ? rcu_lfs_next(node) : NULL)

#if defined(__cplusplus)
}
#endif

#endif /* RCU_LFSTACK_H */
