/* SPDX-License-Identifier: 0BSD */
/*
 * test/queues/liburcu_queues.c: a program written for liburcu's queues and stacks (every cds_
 * name of <urcu/wfcqueue.h>, <urcu/lfstack.h>, <urcu/wfstack.h>, <urcu/rculfqueue.h>,
 * <urcu/rculfstack.h> and <urcu/wfqueue.h>, with liburcu's documented semantics), built against
 * compat/liburcu (the test) and against liburcu itself (the controls, which show it is liburcu
 * code). It prints what it checks and exits non-zero on the first failure.
 *
 * Against compat/liburcu the RCU part comes from rcu.h with RCU_LIBURCU_NAMES (the compat
 * folder's <urcu.h> belongs to another part of the tree); against liburcu from <urcu.h>.
 */
#define _LGPL_SOURCE
#if defined(TEST_WITH_LIBURCU)
#include <urcu.h>
#else
#define RCU_FLAVOUR_MEMB
#define RCU_LIBURCU_NAMES
#include "rcu.h"
#endif
/* The deprecated headers' calls, as liburcu's own tests include them: warnings silenced. */
#define CDS_WFQ_DEPRECATED
#define CDS_LFS_RCU_DEPRECATED
#include <urcu/wfcqueue.h>
#include <urcu/lfstack.h>
#include <urcu/wfstack.h>
#include <urcu/rculfqueue.h>
#include <urcu/rculfstack.h>
#include <urcu/wfqueue.h>

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

static int checks;

#define CHECK(c) \
	do { \
		checks++; \
		if (!(c)) { \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
			exit(1); \
		} \
	} while (0)

#define ITEM_OF(ptr, member) ((struct item *)(void *)((char *)(ptr) - offsetof(struct item, member)))

struct item {
	int value;
	struct cds_wfcq_node qnode;
	struct cds_lfs_node lnode;
	struct cds_wfs_node wnode;
	struct cds_lfq_node_rcu lfqnode;
	struct cds_lfs_node_rcu lrnode;
	struct cds_wfq_node wqnode;
	struct rcu_head rcu;
};

static struct item items[8];

/* >>wfcqueue ---------------------------------------------------------------------------------- */

static struct cds_wfcq_head qhead;
static struct cds_wfcq_tail qtail;

#define NPROD 2
#define PER_PROD 20000

static void *enqueuer(void *arg)
{
	int id = (int)(size_t)arg;
	for (int i = 0; i < PER_PROD; i++) {
		struct item *it = (struct item *)malloc(sizeof *it);
		if (!it)
			abort();
		it->value = id * PER_PROD + i;
		cds_wfcq_node_init(&it->qnode);
		cds_wfcq_enqueue(&qhead, &qtail, &it->qnode);
	}
	return NULL;
}

static void test_wfcqueue(void)
{
	struct __cds_wfcq_head h2; /* liburcu's head without the mutex */
	struct cds_wfcq_tail t2;
	struct cds_wfcq_node *n, *m;
	enum cds_wfcq_ret ret;
	int state, i;

	cds_wfcq_init(&qhead, &qtail);
	__cds_wfcq_init(&h2, &t2);
	CHECK(cds_wfcq_empty(&qhead, &qtail));
	CHECK(cds_wfcq_empty(&h2, &t2));
	for (i = 0; i < 4; i++) {
		cds_wfcq_node_init(&items[i].qnode);
		CHECK(cds_wfcq_enqueue(&qhead, &qtail, &items[i].qnode) == (i != 0));
	}
	i = 0;
	__cds_wfcq_for_each_blocking(&qhead, &qtail, n)
		CHECK(ITEM_OF(n, qnode)->value == i++);
	CHECK(i == 4);
	n = cds_wfcq_dequeue_with_state_blocking(&qhead, &qtail, &state);
	CHECK(n == &items[0].qnode && state == 0);
	CHECK(cds_wfcq_dequeue_blocking(&qhead, &qtail) == &items[1].qnode);
	cds_wfcq_dequeue_lock(&qhead, &qtail);
	CHECK(__cds_wfcq_first_blocking(&qhead, &qtail) == &items[2].qnode);
	CHECK(__cds_wfcq_next_blocking(&qhead, &qtail, &items[2].qnode) == &items[3].qnode);
	CHECK(__cds_wfcq_next_nonblocking(&qhead, &qtail, &items[3].qnode) == NULL);
	CHECK(__cds_wfcq_first_nonblocking(&qhead, &qtail) == &items[2].qnode);
	cds_wfcq_dequeue_unlock(&qhead, &qtail);

	/* Splice into the head without a mutex, then out of it, with each return state. */
	ret = __cds_wfcq_splice_blocking(&h2, &t2, &qhead, &qtail);
	CHECK(ret == CDS_WFCQ_RET_DEST_EMPTY);
	CHECK(cds_wfcq_empty(&qhead, &qtail) && !cds_wfcq_empty(&h2, &t2));
	CHECK(__cds_wfcq_splice_nonblocking(&h2, &t2, &qhead, &qtail) == CDS_WFCQ_RET_SRC_EMPTY);
	cds_wfcq_node_init(&items[4].qnode);
	cds_wfcq_enqueue(&qhead, &qtail, &items[4].qnode);
	ret = __cds_wfcq_splice_blocking(&qhead, &qtail, &h2, &t2);
	CHECK(ret == CDS_WFCQ_RET_DEST_NON_EMPTY);
	i = 0;
	{
		static const int want[] = { 4, 2, 3 };
		__cds_wfcq_for_each_blocking_safe(&qhead, &qtail, n, m)
			CHECK(ITEM_OF(n, qnode)->value == want[i++]);
		CHECK(i == 3);
	}
	n = __cds_wfcq_dequeue_nonblocking(&qhead, &qtail);
	CHECK(n == &items[4].qnode && n != CDS_WFCQ_WOULDBLOCK);
	CHECK(__cds_wfcq_dequeue_blocking(&qhead, &qtail) == &items[2].qnode);
	n = __cds_wfcq_dequeue_with_state_nonblocking(&qhead, &qtail, &state);
	CHECK(n == &items[3].qnode && (state & CDS_WFCQ_STATE_LAST));
	CHECK(__cds_wfcq_dequeue_with_state_blocking(&qhead, &qtail, &state) == NULL);
	CHECK(cds_wfcq_empty(&qhead, &qtail));

	/* Producers, and a consumer that splices into a private queue and frees (liburcu's unit test). */
	pthread_t tid[NPROD];
	for (i = 0; i < NPROD; i++)
		CHECK(pthread_create(&tid[i], NULL, enqueuer, (void *)(size_t)i) == 0);
	int got = 0, last[NPROD] = { -1, -1 };
	while (got < NPROD * PER_PROD) {
		struct cds_wfcq_head ph; /* the locking splice wants a head with a mutex */
		struct cds_wfcq_tail pt;
		cds_wfcq_init(&ph, &pt);
		if (cds_wfcq_splice_blocking(&ph, &pt, &qhead, &qtail) == CDS_WFCQ_RET_SRC_EMPTY) {
			cds_wfcq_destroy(&ph, &pt);
			continue;
		}
		__cds_wfcq_for_each_blocking_safe(&ph, &pt, n, m) {
			struct item *it = ITEM_OF(n, qnode);
			int p = it->value / PER_PROD;
			CHECK(it->value % PER_PROD == last[p] + 1); /* FIFO per producer, nothing lost */
			last[p] = it->value % PER_PROD;
			free(it);
			got++;
		}
		cds_wfcq_destroy(&ph, &pt);
	}
	for (i = 0; i < NPROD; i++)
		pthread_join(tid[i], NULL);
	CHECK(cds_wfcq_empty(&qhead, &qtail));
	cds_wfcq_destroy(&qhead, &qtail);
	printf("wfcqueue: ok\n");
}

/* >>lfstack ----------------------------------------------------------------------------------- */

static void free_item_cb(struct rcu_head *head)
{
	struct item *it = (struct item *)(void *)((char *)head - offsetof(struct item, rcu));
	free(it);
}

static void test_lfstack(void)
{
	struct cds_lfs_stack s;
	struct __cds_lfs_stack s2;
	struct cds_lfs_node *n, *m;
	struct cds_lfs_head *h;
	int i;

	cds_lfs_init(&s);
	__cds_lfs_init(&s2);
	CHECK(cds_lfs_empty(&s) && cds_lfs_empty(&s2));
	for (i = 0; i < 4; i++) {
		cds_lfs_node_init(&items[i].lnode);
		CHECK(cds_lfs_push(&s, &items[i].lnode) == (i != 0));
	}
	CHECK(cds_lfs_pop_blocking(&s) == &items[3].lnode);
	cds_lfs_pop_lock(&s);
	CHECK(__cds_lfs_pop(&s) == &items[2].lnode);
	cds_lfs_pop_unlock(&s);
	h = cds_lfs_pop_all_blocking(&s);
	i = 1;
	cds_lfs_for_each(h, n)
		CHECK(ITEM_OF(n, lnode)->value == i--);
	CHECK(i == -1 && cds_lfs_empty(&s));
	CHECK(cds_lfs_pop_all_blocking(&s) == NULL && cds_lfs_pop_blocking(&s) == NULL);

	/* __cds_lfs_pop inside a read-side section; the popped object freed after a grace period. */
	rcu_register_thread();
	for (i = 0; i < 100; i++) {
		struct item *it = (struct item *)malloc(sizeof *it);
		if (!it)
			abort();
		it->value = i;
		cds_lfs_node_init(&it->lnode);
		cds_lfs_push(&s2, &it->lnode);
	}
	for (i = 99; i >= 50; i--) {
		rcu_read_lock();
		n = __cds_lfs_pop(&s2);
		rcu_read_unlock();
		CHECK(n && ITEM_OF(n, lnode)->value == i);
		call_rcu(&ITEM_OF(n, lnode)->rcu, free_item_cb);
	}
	h = __cds_lfs_pop_all(&s2);
	cds_lfs_for_each_safe(h, n, m) {
		CHECK(ITEM_OF(n, lnode)->value == i--);
		call_rcu(&ITEM_OF(n, lnode)->rcu, free_item_cb);
	}
	CHECK(i == -1 && cds_lfs_empty(&s2));
	rcu_barrier();
	rcu_unregister_thread();
	cds_lfs_destroy(&s);
	printf("lfstack: ok\n");
}

/* >>wfstack ----------------------------------------------------------------------------------- */

static void test_wfstack(void)
{
	struct cds_wfs_stack s;
	struct __cds_wfs_stack s2;
	struct cds_wfs_node *n, *m;
	struct cds_wfs_head *h;
	int i, state;

	cds_wfs_init(&s);
	__cds_wfs_init(&s2);
	CHECK(cds_wfs_empty(&s) && cds_wfs_empty(&s2));
	for (i = 0; i < 5; i++) {
		cds_wfs_node_init(&items[i].wnode);
		CHECK(cds_wfs_push(&s, &items[i].wnode) == (i != 0));
	}
	CHECK(cds_wfs_pop_blocking(&s) == &items[4].wnode);
	n = cds_wfs_pop_with_state_blocking(&s, &state);
	CHECK(n == &items[3].wnode && state == 0);
	cds_wfs_pop_lock(&s);
	CHECK(__cds_wfs_pop_blocking(&s) == &items[2].wnode);
	cds_wfs_pop_unlock(&s);
	h = cds_wfs_pop_all_blocking(&s);
	CHECK(cds_wfs_first(h) == &items[1].wnode);
	CHECK(cds_wfs_next_blocking(&items[1].wnode) == &items[0].wnode);
	CHECK(cds_wfs_next_nonblocking(&items[0].wnode) == NULL);
	i = 1;
	cds_wfs_for_each_blocking(h, n)
		CHECK(ITEM_OF(n, wnode)->value == i--);
	i = 1;
	cds_wfs_for_each_blocking_safe(h, n, m) {
		CHECK(ITEM_OF(n, wnode)->value == i--);
		cds_wfs_node_init(n);
		cds_wfs_push(&s2, n);
	}
	CHECK(cds_wfs_empty(&s) && !cds_wfs_empty(&s2));
	n = __cds_wfs_pop_nonblocking(&s2);
	CHECK(n == &items[0].wnode && n != CDS_WFS_WOULDBLOCK);
	n = __cds_wfs_pop_with_state_nonblocking(&s2, &state);
	CHECK(n == &items[1].wnode && (state & CDS_WFS_STATE_LAST));
	CHECK(__cds_wfs_pop_with_state_blocking(&s2, &state) == NULL);
	CHECK(__cds_wfs_pop_all(&s2) == NULL);
	cds_wfs_destroy(&s);
	printf("wfstack: ok\n");
}

/* >>rculfqueue, rculfstack, wfqueue ------------------------------------------------------------ */

static void test_deprecated(void)
{
	struct cds_lfq_queue_rcu q;
	struct cds_lfs_stack_rcu rs;
	struct cds_wfq_queue wq;
	struct cds_lfq_node_rcu *qn;
	struct cds_lfs_node_rcu *rn;
	int i;

	rcu_register_thread();
	cds_lfq_init_rcu(&q, call_rcu);
	for (i = 0; i < 3; i++) {
		cds_lfq_node_init_rcu(&items[i].lfqnode);
		rcu_read_lock();
		cds_lfq_enqueue_rcu(&q, &items[i].lfqnode);
		rcu_read_unlock();
	}
	CHECK(cds_lfq_destroy_rcu(&q) == -EPERM);
	for (i = 0; i < 3; i++) {
		rcu_read_lock();
		qn = cds_lfq_dequeue_rcu(&q);
		rcu_read_unlock();
		CHECK(qn == &items[i].lfqnode);
	}
	rcu_read_lock();
	CHECK(cds_lfq_dequeue_rcu(&q) == NULL);
	rcu_read_unlock();
	synchronize_rcu(); /* liburcu: a grace period before the nodes are reused */
	CHECK(cds_lfq_destroy_rcu(&q) == 0);

	cds_lfs_init_rcu(&rs);
	for (i = 0; i < 3; i++) {
		cds_lfs_node_init_rcu(&items[i].lrnode);
		CHECK((cds_lfs_push_rcu(&rs, &items[i].lrnode) != 0) == (i != 0));
	}
	for (i = 2; i >= 0; i--) {
		rcu_read_lock();
		rn = cds_lfs_pop_rcu(&rs);
		rcu_read_unlock();
		CHECK(rn == &items[i].lrnode);
	}
	rcu_read_lock();
	CHECK(cds_lfs_pop_rcu(&rs) == NULL);
	rcu_read_unlock();
	rcu_unregister_thread();

	cds_wfq_init(&wq);
	for (i = 0; i < 3; i++) {
		cds_wfq_node_init(&items[i].wqnode);
		cds_wfq_enqueue(&wq, &items[i].wqnode);
	}
	CHECK(cds_wfq_dequeue_blocking(&wq) == &items[0].wqnode);
	CHECK(__cds_wfq_dequeue_blocking(&wq) == &items[1].wqnode);
	CHECK(cds_wfq_dequeue_blocking(&wq) == &items[2].wqnode);
	CHECK(cds_wfq_dequeue_blocking(&wq) == NULL);
	cds_wfq_destroy(&wq);
	printf("rculfqueue, rculfstack, wfqueue: ok\n");
}

int main(void)
{
	for (int i = 0; i < 8; i++)
		items[i].value = i;
	test_wfcqueue();
	test_lfstack();
	test_wfstack();
	test_deprecated();
	printf("%d checks passed\n", checks);
	return 0;
}
