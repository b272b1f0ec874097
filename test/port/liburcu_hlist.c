/* SPDX-License-Identifier: 0BSD */
/*
 * test/port/liburcu_hlist.c: a program written for liburcu's hash lists (urcu/hlist.h and
 * urcu/rcuhlist.h), in the style of liburcu's documentation examples: a cache of records in a
 * hash table of cds_hlist buckets, looked up by worker threads (the four-argument and the
 * kernel-style _2 iterators), while an updater inserts, replaces and evicts records and collects
 * the evicted ones on a private list (CDS_HLIST_HEAD, as liburcu's hlist example declares one).
 *
 * Unchanged liburcu code: the port is the build's -I compat/liburcu (test/port/meson.build), and
 * the same file is built against liburcu as the control. Valid C and C++; exits 0 when every
 * check passes.
 */
#if defined(RCU_FLAVOUR_QSBR)
#include <urcu-qsbr.h>
#elif defined(RCU_FLAVOUR_BP)
#include <urcu-bp.h>
#elif defined(RCU_FLAVOUR_MB)
#define RCU_MB
#include <urcu.h>
#else
#include <urcu.h>
#endif
#include <urcu/rcuhlist.h>
#include <urcu/compiler.h>

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "port_check.h"

#define BUCKETS 16
#define KEYS 200

struct record {
	uint32_t key;
	uint32_t serial;
	uint64_t sum;                   /* key + serial while live; 0 once reclaimed */
	struct cds_hlist_node node;
	struct rcu_head rcu_head;
};

static struct cds_hlist_head table[BUCKETS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static int present[KEYS];          /* the updater's model: serial of the live record, or 0 */

static int stop;
static long lookups, hits, bad, reclaimed;

static struct cds_hlist_head *bucket(uint32_t key)
{
	return &table[key % BUCKETS];
}

static void record_free(struct rcu_head *head)
{
	struct record *r = caa_container_of(head, struct record, rcu_head);
	r->sum = 0;
	free(r);
	__atomic_fetch_add(&reclaimed, 1, __ATOMIC_RELAXED);
}

/* Reader: find key; both of liburcu's iterator forms must agree on what they find. */
static int lookup(uint32_t key)
{
	struct record *r, *found = NULL, *found2 = NULL;
	struct cds_hlist_node *pos;
	int n4 = 0, n2 = 0;

	cds_hlist_for_each_entry_rcu(r, pos, bucket(key), node) {
		if (r->sum != (uint64_t)r->key + r->serial)
			__atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
		if (r->key == key && !found)
			found = r;
		n4++;
	}
	cds_hlist_for_each_entry_rcu_2(r, bucket(key), node) {
		if (r->key == key && !found2)
			found2 = r;
		n2++;
	}
	cds_hlist_for_each_rcu(pos, bucket(key)) {
		r = cds_hlist_entry(pos, struct record, node);
		if (r->sum == 0)
			__atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
	}
	(void)n4;
	(void)n2;
	(void)found2; /* the updater may change the bucket between the walks */
	return found != NULL;
}

static void *worker(void *arg)
{
	uint32_t k = (uint32_t)(uintptr_t)arg;
	rcu_register_thread();
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		k = (k + 13) % KEYS;
		rcu_read_lock();
		int hit = lookup(k);
		rcu_read_unlock();
		__atomic_fetch_add(&lookups, 1, __ATOMIC_RELAXED);
		if (hit)
			__atomic_fetch_add(&hits, 1, __ATOMIC_RELAXED);
		rcu_quiescent_state();
	}
	rcu_unregister_thread();
	return NULL;
}

static struct record *record_new(uint32_t key, uint32_t serial)
{
	struct record *r = (struct record *)malloc(sizeof(*r));
	CHECK(r != NULL);
	r->key = key;
	r->serial = serial;
	r->sum = (uint64_t)key + serial;
	return r;
}

/* Updater, under table_lock: the record of key, or NULL (the four-argument form). */
static struct record *find_locked(uint32_t key)
{
	struct record *r;
	struct cds_hlist_node *pos;
	cds_hlist_for_each_entry(r, pos, bucket(key), node)
		if (r->key == key)
			return r;
	return NULL;
}

int main(void)
{
	pthread_t workers[2];
	unsigned int i;
	long evicted = 0;

	rcu_register_thread();
	for (i = 0; i < CAA_ARRAY_SIZE(table); i++)
		CDS_INIT_HLIST_HEAD(&table[i]);
	for (i = 0; i < CAA_ARRAY_SIZE(workers); i++)
		CHECK(pthread_create(&workers[i], NULL, worker, (void *)(uintptr_t)(i + 1)) == 0);

	uint32_t serial = 0, k = 7;
	for (int round = 0; round < 3000; round++) {
		k = (k * 69069u + 1u) % KEYS;
		serial++;
		pthread_mutex_lock(&table_lock);
		struct record *old = find_locked(k);
		if (old && serial % 3 == 0) {
			/* Evict. */
			cds_hlist_del_rcu(&old->node);
			call_rcu(&old->rcu_head, record_free);
			present[k] = 0;
			evicted++;
		} else {
			/* Insert, or replace: the new record first, then the old one out. */
			cds_hlist_add_head_rcu(&record_new(k, serial)->node, bucket(k));
			if (old) {
				cds_hlist_del_rcu(&old->node);
				call_rcu(&old->rcu_head, record_free);
				evicted++;
			}
			present[k] = (int)serial;
		}
		pthread_mutex_unlock(&table_lock);
		if (round % 500 == 0)
			synchronize_rcu();
		rcu_quiescent_state();
	}
	while (__atomic_load_n(&lookups, __ATOMIC_RELAXED) < 20) /* the workers did look */
		sched_yield();
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	rcu_thread_offline();
	for (i = 0; i < CAA_ARRAY_SIZE(workers); i++)
		pthread_join(workers[i], NULL);
	rcu_thread_online();
	rcu_barrier();
	CHECK(__atomic_load_n(&reclaimed, __ATOMIC_RELAXED) == evicted);
	CHECK(bad == 0);

	/* The table against the model, with the kernel-style iterators (_2). */
	long live = 0;
	for (uint32_t key = 0; key < KEYS; key++) {
		struct record *r, *found = NULL;
		int n = 0;
		cds_hlist_for_each_entry_2(r, bucket(key), node) {
			if (r->key == key) {
				found = r;
				n++;
			}
		}
		CHECK(n <= 1);
		CHECK(present[key] ? found && (int)found->serial == present[key] : found == NULL);
		live += n;
	}

	/* Tear down: move every record to a private list with the safe iterators, then free it. */
	CDS_HLIST_HEAD(reaped);
	long moved = 0, freed = 0;
	for (i = 0; i < CAA_ARRAY_SIZE(table); i++) {
		struct record *r, *tmp;
		struct cds_hlist_node *pos, *p;
		if (i % 2) {
			cds_hlist_for_each_entry_safe(r, pos, p, &table[i], node) {
				cds_hlist_del(&r->node);
				cds_hlist_add_head(&r->node, &reaped);
				moved++;
			}
		} else {
			cds_hlist_for_each_entry_safe_2(r, tmp, &table[i], node) {
				cds_hlist_del(&r->node);
				cds_hlist_add_head(&r->node, &reaped);
				moved++;
			}
		}
		CHECK(table[i].next == NULL);
	}
	CHECK(moved == live);
	struct cds_hlist_node *pos, *p;
	cds_hlist_for_each_safe(pos, p, &reaped) {
		free(cds_hlist_entry(pos, struct record, node));
		freed++;
	}
	CHECK(freed == live);

	rcu_unregister_thread();
	printf("liburcu_hlist: %ld lookups (%ld hits), %ld records evicted, %ld live at the end\n",
		lookups, hits, evicted, live);
	return 0;
}
