/* SPDX-License-Identifier: 0BSD */
/*
 * compat/liburcu/urcu/wfqueue.h: liburcu's deprecated <urcu/wfqueue.h> (cds_wfq_*), as a thin
 * layer over rcu_wfcqueue.h: a struct cds_wfq_queue is a wfcqueue's head and tail side by side,
 * and each call is the wfcqueue call of the same meaning (enqueue wait-free, dequeue blocking,
 * under the queue's mutex or, for __cds_wfq_dequeue_blocking(), the caller's exclusion).
 * liburcu's queue keeps a dummy node that it dequeues and enqueues again; this one has none.
 * As in liburcu, every call is marked deprecated unless CDS_WFQ_DEPRECATED is defined first
 * (empty, to silence the warnings).
 */
#ifndef RCU_COMPAT_URCU_WFQUEUE_H
#define RCU_COMPAT_URCU_WFQUEUE_H

#include "../../../rcu_wfcqueue.h"
#if defined(__has_include)
#if __has_include("compiler.h")
#include "compiler.h"
#endif
#endif

#ifndef CDS_WFQ_DEPRECATED
#define CDS_WFQ_DEPRECATED __attribute__((deprecated("urcu/wfqueue.h is deprecated. Please use urcu/wfcqueue.h instead.")))
#endif

#if defined(__cplusplus)
extern "C" {
#endif

#define cds_wfq_node rcu_wfcq_node

struct cds_wfq_queue {
	struct rcu_wfcq_head head;
	struct rcu_wfcq_tail tail;
};

static inline CDS_WFQ_DEPRECATED void cds_wfq_node_init(struct rcu_wfcq_node *node)
{
	rcu_wfcq_node_init(node);
}

static inline CDS_WFQ_DEPRECATED void cds_wfq_init(struct cds_wfq_queue *q)
{
	rcu_wfcq_init(&q->head, &q->tail);
}

static inline CDS_WFQ_DEPRECATED void cds_wfq_destroy(struct cds_wfq_queue *q)
{
	rcu_wfcq_destroy(&q->head, &q->tail);
}

static inline CDS_WFQ_DEPRECATED void cds_wfq_enqueue(struct cds_wfq_queue *q, struct rcu_wfcq_node *node)
{
	(void)rcu_wfcq_enqueue(&q->head, &q->tail, node);
}

static inline CDS_WFQ_DEPRECATED struct rcu_wfcq_node *__cds_wfq_dequeue_blocking(struct cds_wfq_queue *q)
{
	return rcu_wfcq_dequeue_blocking_unlocked(&q->head, &q->tail);
}

static inline CDS_WFQ_DEPRECATED struct rcu_wfcq_node *cds_wfq_dequeue_blocking(struct cds_wfq_queue *q)
{
	return rcu_wfcq_dequeue_blocking(&q->head, &q->tail);
}

#if defined(__cplusplus)
}
#endif

#endif /* RCU_COMPAT_URCU_WFQUEUE_H */
