/* SPDX-License-Identifier: 0BSD */
/*
 * test/queues/queues_misuse.c: under RCU_DEBUG, each misuse of the queues and stacks that their
 * headers can see aborts with a sentence naming the call and the rule (death tests, as
 * test/misuse.c does for rcu.h). The headers use no RCU: one flavour.
 */
#include "rcu_wfcqueue.h"
#include "rcu_wfstack.h"
#include "rcu.h"
#include "../harness.h"

#if !defined(RCU_DEBUG)
#error "queues_misuse.c is built with RCU_DEBUG"
#endif

static void wfcq_enqueue_uninitialised(void *arg)
{
	(void)arg;
	struct rcu_wfcq_head h;
	struct rcu_wfcq_tail t;
	struct rcu_wfcq_node a, b;
	rcu_wfcq_init(&h, &t);
	rcu_wfcq_node_init(&a);
	b.next = &a; /* garbage, as a node never initialised may hold */
	rcu_wfcq_enqueue(&h, &t, &b);
}

Test(queues_misuse, wfcq_enqueue_uninitialised_node)
{
	test_expect_abort(wfcq_enqueue_uninitialised, NULL,
			  "rcu_wfcqueue.h: rcu_wfcq_enqueue(): the node's next is not NULL: it is still in a queue, "
			  "or was not initialised; call rcu_wfcq_node_init() before enqueuing it");
}

static void wfcq_enqueue_queued(void *arg)
{
	(void)arg;
	struct rcu_wfcq_head h;
	struct rcu_wfcq_tail t;
	struct rcu_wfcq_node a, b;
	rcu_wfcq_init(&h, &t);
	rcu_wfcq_node_init(&a);
	rcu_wfcq_node_init(&b);
	rcu_wfcq_enqueue(&h, &t, &a);
	rcu_wfcq_enqueue(&h, &t, &b);
	rcu_wfcq_enqueue(&h, &t, &a); /* a is queued: its next is b */
}

Test(queues_misuse, wfcq_enqueue_node_still_queued)
{
	test_expect_abort(wfcq_enqueue_queued, NULL, "rcu_wfcq_enqueue(): the node's next is not NULL");
}

static void wfcq_enqueue_last(void *arg)
{
	(void)arg;
	struct rcu_wfcq_head h;
	struct rcu_wfcq_tail t;
	struct rcu_wfcq_node a;
	rcu_wfcq_init(&h, &t);
	rcu_wfcq_node_init(&a);
	rcu_wfcq_enqueue(&h, &t, &a);
	rcu_wfcq_enqueue(&h, &t, &a); /* a is the last node: its next is NULL, the tail is a */
}

Test(queues_misuse, wfcq_enqueue_last_node_again)
{
	test_expect_abort(wfcq_enqueue_last, NULL,
			  "rcu_wfcqueue.h: rcu_wfcq_enqueue(): the node is already the last node of this queue");
}

/* The controls: what the rules allow does not abort. */
Test(queues_misuse, wfcq_allowed)
{
	struct rcu_wfcq_head h;
	struct rcu_wfcq_tail t;
	struct rcu_wfcq_node a, b;
	rcu_wfcq_init(&h, &t);
	rcu_wfcq_node_init(&a);
	rcu_wfcq_node_init(&b);
	rcu_wfcq_enqueue(&h, &t, &a);
	rcu_wfcq_enqueue(&h, &t, &b);
	cr_assert_eq(rcu_wfcq_dequeue_blocking(&h, &t), &a);
	rcu_wfcq_node_init(&a); /* re-initialised after it left: may go in again */
	rcu_wfcq_enqueue(&h, &t, &a);
	cr_assert_eq(rcu_wfcq_dequeue_blocking(&h, &t), &b);
	cr_assert_eq(rcu_wfcq_dequeue_blocking(&h, &t), &a);
	rcu_wfcq_destroy(&h, &t);
}

static void wfs_push_stacked(void *arg)
{
	(void)arg;
	struct rcu_wfs_stack s;
	struct rcu_wfs_node a;
	rcu_wfs_init(&s);
	rcu_wfs_node_init(&a);
	rcu_wfs_push(&s, &a);
	rcu_wfs_push(&s, &a); /* a is on the stack: its next is the end marker */
}

Test(queues_misuse, wfs_push_node_still_stacked)
{
	test_expect_abort(wfs_push_stacked, NULL,
			  "rcu_wfstack.h: rcu_wfs_push(): the node's next is not NULL: it is still on a stack, "
			  "or was not initialised; call rcu_wfs_node_init() before pushing it");
}

static void wfs_push_popped(void *arg)
{
	(void)arg;
	struct rcu_wfs_stack s;
	struct rcu_wfs_node a, b;
	rcu_wfs_init(&s);
	rcu_wfs_node_init(&a);
	rcu_wfs_node_init(&b);
	rcu_wfs_push(&s, &a);
	rcu_wfs_push(&s, &b);
	rcu_wfs_pop_blocking(&s);
	rcu_wfs_push(&s, &b); /* popped, but its next still points at a */
}

Test(queues_misuse, wfs_push_popped_node_not_initialised)
{
	test_expect_abort(wfs_push_popped, NULL, "rcu_wfs_push(): the node's next is not NULL");
}

Test(queues_misuse, wfs_allowed)
{
	struct rcu_wfs_stack s;
	struct rcu_wfs_node a, b;
	rcu_wfs_init(&s);
	rcu_wfs_node_init(&a);
	rcu_wfs_node_init(&b);
	rcu_wfs_push(&s, &a);
	rcu_wfs_push(&s, &b);
	cr_assert_eq(rcu_wfs_pop_blocking(&s), &b);
	rcu_wfs_node_init(&b);
	rcu_wfs_push(&s, &b);
	cr_assert_eq(rcu_wfs_pop_blocking(&s), &b);
	cr_assert_eq(rcu_wfs_pop_blocking(&s), &a);
	rcu_wfs_destroy(&s);
}
