/* SPDX-License-Identifier: 0BSD */
/*
 * bench/queues/impl.c: the queue and stack scenarios of qbench.h, written once against liburcu's
 * API (cds_wfcq_*, cds_wfs_*, cds_lfs_*) and built once per implementation: against
 * compat/liburcu (that is rcu_wfcqueue.h, rcu_wfstack.h and rcu_lfstack.h: the compat names are
 * macros for the native ones, so the code is the native code), and against each liburcu
 * version's own headers (with _LGPL_SOURCE: liburcu's queues and stacks are then inline, as
 * ours are; nothing of liburcu's is copied here, only included). bench/queues/meson.build
 * defines QB_TAG (ours, new, sys: the functions' names, for callgrind), QB_NAME and QB_VERSION.
 */
#define _LGPL_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <time.h>
#include <urcu/wfcqueue.h>
#include <urcu/wfstack.h>
#include <urcu/lfstack.h>
#include "qbench.h"

#if !defined(QB_TAG) || !defined(QB_NAME) || !defined(QB_VERSION)
#error "bench/queues/impl.c: bench/queues/meson.build defines QB_TAG, QB_NAME and QB_VERSION"
#endif
#define QB_CAT2(a, b, c) a##b##c
#define QB_CAT(a, b, c) QB_CAT2(a, b, c)
/* qb_<tag>_<name>: one name per implementation, for callgrind's --toggle-collect. */
#define QB_FN(name) QB_CAT(qb_, QB_TAG, _##name)
#define QB_NOINLINE __attribute__((noinline))

struct node {
	struct cds_wfcq_node q;
	struct cds_wfs_node w;
	struct cds_lfs_node l;
	uint64_t seq;
};

#define OF(ptr, member) ((struct node *)(void *)((char *)(ptr) - offsetof(struct node, member)))
#define BATCH 64

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct cds_wfcq_head qh __attribute__((aligned(128)));
static struct cds_wfcq_tail qt __attribute__((aligned(128)));
static struct cds_wfs_stack ws __attribute__((aligned(128)));
static struct cds_lfs_stack ls __attribute__((aligned(128)));
static struct node nodes[2][BATCH];
static volatile uint64_t sink;

/* >>single: one thread, the instruction paths ------------------------------------------------- */

QB_NOINLINE uint64_t QB_FN(wfcq_pair)(uint64_t n);
QB_NOINLINE uint64_t QB_FN(wfcq_pair)(uint64_t n)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++) {
		struct node *x = &nodes[0][i % BATCH];
		cds_wfcq_node_init(&x->q);
		cds_wfcq_enqueue(&qh, &qt, &x->q);
		sum += OF(__cds_wfcq_dequeue_blocking(&qh, &qt), q)->seq;
	}
	return sum;
}

QB_NOINLINE uint64_t QB_FN(wfcq_pair_mutex)(uint64_t n);
QB_NOINLINE uint64_t QB_FN(wfcq_pair_mutex)(uint64_t n)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++) {
		struct node *x = &nodes[0][i % BATCH];
		cds_wfcq_node_init(&x->q);
		cds_wfcq_enqueue(&qh, &qt, &x->q);
		sum += OF(cds_wfcq_dequeue_blocking(&qh, &qt), q)->seq;
	}
	return sum;
}

QB_NOINLINE uint64_t QB_FN(wfcq_batch)(uint64_t n);
QB_NOINLINE uint64_t QB_FN(wfcq_batch)(uint64_t n)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i += BATCH) {
		for (int k = 0; k < BATCH; k++) {
			cds_wfcq_node_init(&nodes[0][k].q);
			cds_wfcq_enqueue(&qh, &qt, &nodes[0][k].q);
		}
		for (int k = 0; k < BATCH; k++)
			sum += OF(__cds_wfcq_dequeue_blocking(&qh, &qt), q)->seq;
	}
	return sum;
}

QB_NOINLINE uint64_t QB_FN(wfs_pair)(uint64_t n);
QB_NOINLINE uint64_t QB_FN(wfs_pair)(uint64_t n)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++) {
		struct node *x = &nodes[0][i % BATCH];
		cds_wfs_node_init(&x->w);
		cds_wfs_push(&ws, &x->w);
		sum += OF(__cds_wfs_pop_blocking(&ws), w)->seq;
	}
	return sum;
}

QB_NOINLINE uint64_t QB_FN(wfs_batch)(uint64_t n);
QB_NOINLINE uint64_t QB_FN(wfs_batch)(uint64_t n)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i += BATCH) {
		struct cds_wfs_node *w;
		for (int k = 0; k < BATCH; k++) {
			cds_wfs_node_init(&nodes[0][k].w);
			cds_wfs_push(&ws, &nodes[0][k].w);
		}
		struct cds_wfs_head *h = __cds_wfs_pop_all(&ws);
		cds_wfs_for_each_blocking(h, w)
			sum += OF(w, w)->seq;
	}
	return sum;
}

QB_NOINLINE uint64_t QB_FN(lfs_pair)(uint64_t n);
QB_NOINLINE uint64_t QB_FN(lfs_pair)(uint64_t n)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++) {
		struct node *x = &nodes[0][i % BATCH];
		cds_lfs_node_init(&x->l);
		cds_lfs_push(&ls, &x->l);
		sum += OF(__cds_lfs_pop(&ls), l)->seq;
	}
	return sum;
}

QB_NOINLINE uint64_t QB_FN(lfs_batch)(uint64_t n);
QB_NOINLINE uint64_t QB_FN(lfs_batch)(uint64_t n)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i += BATCH) {
		struct cds_lfs_node *l;
		for (int k = 0; k < BATCH; k++) {
			cds_lfs_node_init(&nodes[0][k].l);
			cds_lfs_push(&ls, &nodes[0][k].l);
		}
		struct cds_lfs_head *h = __cds_lfs_pop_all(&ls);
		cds_lfs_for_each(h, l)
			sum += OF(l, l)->seq;
	}
	return sum;
}

/* >>threads: two producers, one consumer ------------------------------------------------------- */

#define PRODUCERS 2
static struct node *pool[PRODUCERS];
static uint64_t per_producer;
static volatile int go;
static enum qb_scenario scenario;

static void *producer(void *arg)
{
	struct node *mine = pool[(size_t)arg];
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		sched_yield();
	for (uint64_t i = 0; i < per_producer; i++) {
		struct node *x = &mine[i];
		x->seq = i;
		switch (scenario) {
		case QB_WFCQ_MPSC:
		case QB_WFCQ_SPLICE:
			cds_wfcq_node_init(&x->q);
			cds_wfcq_enqueue(&qh, &qt, &x->q);
			break;
		case QB_WFS_MPSC:
			cds_wfs_node_init(&x->w);
			cds_wfs_push(&ws, &x->w);
			break;
		default:
			cds_lfs_node_init(&x->l);
			cds_lfs_push(&ls, &x->l);
			break;
		}
	}
	return NULL;
}

static uint64_t consume(uint64_t total)
{
	uint64_t got = 0, sum = 0;
	while (got < total) {
		switch (scenario) {
		case QB_WFCQ_MPSC: {
			struct cds_wfcq_node *q = __cds_wfcq_dequeue_blocking(&qh, &qt);
			if (q) {
				sum += OF(q, q)->seq;
				got++;
			}
			break;
		}
		case QB_WFCQ_SPLICE: {
			struct __cds_wfcq_head ph;
			struct cds_wfcq_tail pt;
			struct cds_wfcq_node *q, *nq;
			__cds_wfcq_init(&ph, &pt);
			if (__cds_wfcq_splice_blocking(&ph, &pt, &qh, &qt) == CDS_WFCQ_RET_SRC_EMPTY)
				break;
			__cds_wfcq_for_each_blocking_safe(&ph, &pt, q, nq) {
				sum += OF(q, q)->seq;
				got++;
			}
			break;
		}
		case QB_WFS_MPSC: {
			struct cds_wfs_node *w, *nw;
			struct cds_wfs_head *h = __cds_wfs_pop_all(&ws);
			cds_wfs_for_each_blocking_safe(h, w, nw) {
				sum += OF(w, w)->seq;
				got++;
			}
			break;
		}
		default: {
			struct cds_lfs_node *l = __cds_lfs_pop(&ls);
			if (l) {
				sum += OF(l, l)->seq;
				got++;
			}
			break;
		}
		}
	}
	return sum;
}

static uint64_t run_threads(enum qb_scenario s, uint64_t n)
{
	pthread_t t[PRODUCERS];
	scenario = s;
	per_producer = n / PRODUCERS;
	go = 0;
	for (size_t p = 0; p < PRODUCERS; p++) {
		pool[p] = calloc(per_producer, sizeof(struct node));
		if (!pool[p] || pthread_create(&t[p], NULL, producer, (void *)p) != 0)
			abort();
	}
	uint64_t t0 = now_ns();
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	sink += consume(per_producer * PRODUCERS);
	uint64_t t1 = now_ns();
	for (size_t p = 0; p < PRODUCERS; p++) {
		pthread_join(t[p], NULL);
		free(pool[p]);
	}
	return t1 - t0;
}

static uint64_t run(enum qb_scenario s, uint64_t n)
{
	static int ready;
	if (!ready) {
		cds_wfcq_init(&qh, &qt);
		cds_wfs_init(&ws);
		cds_lfs_init(&ls);
		for (int k = 0; k < BATCH; k++)
			nodes[0][k].seq = (uint64_t)k;
		ready = 1;
	}
	if (s >= QB_SINGLE_END)
		return run_threads(s, n);
	uint64_t t0 = now_ns();
	switch (s) {
	case QB_WFCQ_PAIR: sink += QB_FN(wfcq_pair)(n); break;
	case QB_WFCQ_PAIR_MUTEX: sink += QB_FN(wfcq_pair_mutex)(n); break;
	case QB_WFCQ_BATCH: sink += QB_FN(wfcq_batch)(n); break;
	case QB_WFS_PAIR: sink += QB_FN(wfs_pair)(n); break;
	case QB_WFS_BATCH: sink += QB_FN(wfs_batch)(n); break;
	case QB_LFS_PAIR: sink += QB_FN(lfs_pair)(n); break;
	default: sink += QB_FN(lfs_batch)(n); break;
	}
	return now_ns() - t0;
}

const struct qb_impl QB_CAT(qb_impl_, QB_TAG, ) = { QB_NAME, QB_VERSION, run };
