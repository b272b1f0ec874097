/* SPDX-License-Identifier: 0BSD */
/*
 * compat/liburcu/urcu/rculfqueue.h: liburcu's <urcu/rculfqueue.h> (cds_lfq_*_rcu), as a thin
 * layer over rcu_wfcqueue.h: a struct cds_lfq_queue_rcu is a wfcqueue's head and tail (and the
 * call_rcu function liburcu asks for, kept and never called: there is no dummy node to free);
 * enqueue is the wfcqueue's wait-free enqueue, dequeue its blocking dequeue under the queue's
 * mutex.
 *
 * What differs from liburcu (docs/queues.md): liburcu's dequeue is lock-free; this one takes a
 * mutex and may wait for an enqueuer between its two steps. The RCU read-side section that
 * liburcu requires around both calls does no harm and is not needed (nothing here reads memory
 * that RCU protects), and a dequeued node may be freed or reused at once (liburcu requires a
 * grace period first, which does no harm either). cds_lfq_destroy_rcu() returns -EPERM on a
 * queue that is not empty, as liburcu's.
 */
#ifndef RCU_COMPAT_URCU_RCULFQUEUE_H
#define RCU_COMPAT_URCU_RCULFQUEUE_H

#include <errno.h>
#include "../../../rcu_wfcqueue.h"

#if defined(__cplusplus)
extern "C" {
#endif

struct rcu_head;

#define cds_lfq_node_rcu rcu_wfcq_node

struct cds_lfq_queue_rcu {
	struct rcu_wfcq_head head;
	struct rcu_wfcq_tail tail;
	void (*queue_call_rcu)(struct rcu_head *head, void (*func)(struct rcu_head *head));
};

static inline void cds_lfq_node_init_rcu(struct rcu_wfcq_node *node)
{
	rcu_wfcq_node_init(node);
}

static inline void cds_lfq_init_rcu(struct cds_lfq_queue_rcu *q,
				    void queue_call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head)))
{
	rcu_wfcq_init(&q->head, &q->tail);
	q->queue_call_rcu = queue_call_rcu;
}

/* 0, or -EPERM if the queue is not empty (then it is left as it is). */
static inline int cds_lfq_destroy_rcu(struct cds_lfq_queue_rcu *q)
{
	if (!rcu_wfcq_empty(&q->head, &q->tail))
		return -EPERM;
	rcu_wfcq_destroy(&q->head, &q->tail);
	return 0;
}

static inline void cds_lfq_enqueue_rcu(struct cds_lfq_queue_rcu *q, struct rcu_wfcq_node *node)
{
	(void)rcu_wfcq_enqueue(&q->head, &q->tail, node);
}

/* NULL if the queue is empty. */
static inline struct rcu_wfcq_node *cds_lfq_dequeue_rcu(struct cds_lfq_queue_rcu *q)
{
	return rcu_wfcq_dequeue_blocking(&q->head, &q->tail);
}

#if defined(__cplusplus)
}
#endif

#endif /* RCU_COMPAT_URCU_RCULFQUEUE_H */
