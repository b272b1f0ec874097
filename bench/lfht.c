/* SPDX-License-Identifier: 0BSD */
/*
 * bench/lfht.c: the RCU hash table of rcu_lfht.h against liburcu's rculfhash, same workloads, same
 * source. One executable per implementation and flavour (bench/meson.build):
 *   lfht-bench-ours-<flavour>        rcu_lfht.h (-DBENCH_LFHT_OURS)
 *   lfht-bench-urcu-new-<flavour>    liburcu built from source (-Dliburcu_new), its liburcu-cds
 *   lfht-bench-urcu-sys-<flavour>    the system's liburcu (Debian 0.13)
 * Usage: lfht-bench-X WORKLOAD [seconds] [threads]; prints one line of figures. bench/lfht.sh runs
 * them interleaved and prints the table with the ratios. Benchmarks assert nothing about time.
 *
 * Workloads (KEYS = 65536 keys present at the start, drawn from [0, 2 KEYS): a lookup hits half the
 * time; updaters keep the population near KEYS):
 *   lookup       every thread looks up random keys; no updates (test_urcu_hash with 0 writers)
 *   readmostly   threads - 1 readers look up, one updater adds and deletes (50/50) at full speed
 *   update       every thread updates: add_unique of a random key, or lookup + del (50/50),
 *                on a table of KEYS buckets, no automatic resizing (test_urcu_hash -u, 0 readers)
 *   update-auto  the same on a table that starts at 32 buckets with AUTO_RESIZE | ACCOUNTING
 *                (test_urcu_hash -A -u)
 *   grow         our own: one thread adds 2^20 keys to an automatically resized table that starts
 *                with 1 bucket, then deletes them all; adds and deletes per second over both
 *                phases (how well resizing keeps up with a table that grows and empties)
 *   callgrind    one thread, 2^16 lookups of present keys in bench_lookup_loop() and 2^16 of absent
 *                keys in bench_miss_loop(): run under valgrind --tool=callgrind
 *                --toggle-collect=bench_lookup_loop (or bench_miss_loop) and divide by 65536
 *   memory       bytes the table allocates per bucket (mallinfo2(), a table of 2^20 buckets),
 *                and per node (the node is embedded in the caller's object)
 * QSBR threads report a quiescent state every 1024 operations, as test_urcu_hash's do.
 */
#if defined(BENCH_LFHT_OURS)
#include "rcu_lfht.h"
#define HT struct rcu_lfht
#define NODE struct rcu_lfht_node
#define ITER struct rcu_lfht_iter
#define HT_NEW(init, min, max, flags) rcu_lfht_new(init, min, max, flags)
#define HT_AUTO (RCU_LFHT_AUTO_RESIZE | RCU_LFHT_ACCOUNTING)
#define HT_DESTROY(ht) rcu_lfht_destroy(ht)
#define HT_LOOKUP(ht, h, m, k, it) rcu_lfht_lookup(ht, h, m, k, it)
#define HT_ADD_UNIQUE(ht, h, m, k, n) rcu_lfht_add_unique(ht, h, m, k, n)
#define HT_DEL(ht, n) rcu_lfht_del(ht, n)
#define HT_ITER_NODE(it) rcu_lfht_iter_get_node(it)
#define HT_FOR_EACH(ht, it, n) rcu_lfht_for_each(ht, it, n)
#define IMPL "ours"
#elif defined(BENCH_LFHT_URCU)
#define _LGPL_SOURCE
#define URCU_API_MAP
#include BENCH_URCU_HEADER
#include <urcu/rculfhash.h>
#define HT struct cds_lfht
#define NODE struct cds_lfht_node
#define ITER struct cds_lfht_iter
#define HT_NEW(init, min, max, flags) cds_lfht_new(init, min, max, flags, NULL)
#define HT_AUTO (CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING)
#define HT_DESTROY(ht) cds_lfht_destroy(ht, NULL)
#define HT_LOOKUP(ht, h, m, k, it) cds_lfht_lookup(ht, h, m, k, it)
#define HT_ADD_UNIQUE(ht, h, m, k, n) cds_lfht_add_unique(ht, h, m, k, n)
#define HT_DEL(ht, n) cds_lfht_del(ht, n)
#define HT_ITER_NODE(it) cds_lfht_iter_get_node(it)
#define HT_FOR_EACH(ht, it, n) cds_lfht_for_each(ht, it, n)
#define IMPL BENCH_LABEL
#else
#error "bench/lfht.c: define BENCH_LFHT_OURS or BENCH_LFHT_URCU (bench/meson.build does)"
#endif

#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(RCU_FLAVOUR_QSBR) || defined(RCU_QSBR) || defined(BENCH_QSBR)
#define QUIESCENT() rcu_quiescent_state()
#define OFFLINE() rcu_thread_offline()
#define ONLINE() rcu_thread_online()
#else
#define QUIESCENT() ((void)0)
#define OFFLINE() ((void)0)
#define ONLINE() ((void)0)
#endif

#define KEYS 65536ul
#define KEY_SPACE (2 * KEYS)

struct item {
	NODE node;
	unsigned long key;
	struct rcu_head rcu;
};

static HT *ht;
static volatile int go, stop;

static inline unsigned long hash_key(unsigned long key)
{
	uint64_t x = (uint64_t)key * 0x9e3779b97f4a7c15ull;
	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 32;
	return (unsigned long)x;
}

static int match(NODE *n, const void *key)
{
	return ((struct item *)(void *)((char *)n - offsetof(struct item, node)))->key == *(const unsigned long *)key;
}

static inline uint64_t rnd(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct item *item_new(unsigned long key)
{
	struct item *it = malloc(sizeof *it);
	if (!it)
		abort();
	it->key = key;
	return it;
}

static void item_free(struct rcu_head *h)
{
	free((char *)h - offsetof(struct item, rcu));
}

/* The populated table: every other key of [0, KEY_SPACE) (seeded: same keys in every run). */
static void populate(unsigned long n)
{
	rcu_read_lock();
	for (unsigned long k = 0; k < KEY_SPACE && n; k += 2, n--) {
		struct item *it = item_new(k);
		HT_ADD_UNIQUE(ht, hash_key(k), match, &it->key, &it->node);
	}
	rcu_read_unlock();
}

static void drain(void)
{
	ITER iter;
	NODE *n;
	rcu_read_lock();
	HT_FOR_EACH(ht, &iter, n) {
		if (HT_DEL(ht, n) == 0)
			call_rcu(&((struct item *)(void *)((char *)n - offsetof(struct item, node)))->rcu, item_free);
	}
	rcu_read_unlock();
}

/* One per thread, a cache line pair each: the counters are written on every lookup, and two
 * workers on one line made the figures measure that line's transfers (ours: 1 thread 30 M
 * lookups/s, 2 threads 29 M). */
struct worker {
	_Alignas(128) pthread_t thread;
	int updater;
	uint64_t seed;
	unsigned long lookups, hits, updates;
};

static void update_once(struct worker *w)
{
	unsigned long k = rnd(&w->seed) % KEY_SPACE;
	ITER iter;
	rcu_read_lock();
	if (rnd(&w->seed) & 1) {
		struct item *it = item_new(k);
		if (HT_ADD_UNIQUE(ht, hash_key(k), match, &it->key, &it->node) != &it->node)
			free(it);
	} else {
		HT_LOOKUP(ht, hash_key(k), match, &k, &iter);
		NODE *n = HT_ITER_NODE(&iter);
		if (n && HT_DEL(ht, n) == 0)
			call_rcu(&((struct item *)(void *)((char *)n - offsetof(struct item, node)))->rcu, item_free);
	}
	rcu_read_unlock();
	w->updates++;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	rcu_register_thread();
	OFFLINE();
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		;
	ONLINE();
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		for (int i = 0; i < 1024; i++) {
			if (w->updater) {
				update_once(w);
			} else {
				unsigned long k = rnd(&w->seed) % KEY_SPACE;
				ITER iter;
				rcu_read_lock();
				HT_LOOKUP(ht, hash_key(k), match, &k, &iter);
				w->hits += HT_ITER_NODE(&iter) != NULL;
				rcu_read_unlock();
				w->lookups++;
			}
		}
		QUIESCENT();
	}
	rcu_unregister_thread();
	return NULL;
}

static void run_threads(const char *workload, double seconds, int threads, int updaters)
{
	struct worker *w = aligned_alloc(128, (size_t)threads * sizeof *w);
	memset(w, 0, (size_t)threads * sizeof *w);
	for (int i = 0; i < threads; i++) {
		w[i].updater = i < updaters;
		w[i].seed = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1);
		pthread_create(&w[i].thread, NULL, worker_main, &w[i]);
	}
	usleep(20000);
	double t0 = now();
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	usleep((useconds_t)(seconds * 1e6));
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	double t1 = now();
	unsigned long lookups = 0, hits = 0, updates = 0;
	for (int i = 0; i < threads; i++) {
		pthread_join(w[i].thread, NULL);
		lookups += w[i].lookups;
		hits += w[i].hits;
		updates += w[i].updates;
	}
	printf("%s %s %s threads=%d updaters=%d seconds=%.3f lookups/s=%.0f updates/s=%.0f hit=%.3f\n", workload, IMPL,
	       BENCH_FLAVOUR, threads, updaters, t1 - t0, (double)lookups / (t1 - t0),
	       (double)updates / (t1 - t0), lookups ? (double)hits / (double)lookups : 0.0);
	free(w);
}

/* The loops callgrind counts: 65536 lookups each, present keys, then absent ones. */
__attribute__((noinline)) unsigned long bench_lookup_loop(void);
__attribute__((noinline)) unsigned long bench_miss_loop(void);

__attribute__((noinline)) unsigned long bench_lookup_loop(void)
{
	unsigned long hits = 0;
	ITER iter;
	rcu_read_lock();
	for (unsigned long i = 0; i < KEYS; i++) {
		unsigned long k = (i * 2 * 40503ul) % KEY_SPACE; /* even: present */
		HT_LOOKUP(ht, hash_key(k), match, &k, &iter);
		hits += HT_ITER_NODE(&iter) != NULL;
	}
	rcu_read_unlock();
	return hits;
}

__attribute__((noinline)) unsigned long bench_miss_loop(void)
{
	unsigned long hits = 0;
	ITER iter;
	rcu_read_lock();
	for (unsigned long i = 0; i < KEYS; i++) {
		unsigned long k = (i * 2 * 40503ul + 1) % KEY_SPACE; /* odd: absent */
		HT_LOOKUP(ht, hash_key(k), match, &k, &iter);
		hits += HT_ITER_NODE(&iter) != NULL;
	}
	rcu_read_unlock();
	return hits;
}

int main(int argc, char **argv)
{
	const char *workload = argc > 1 ? argv[1] : "lookup";
	double seconds = argc > 2 ? atof(argv[2]) : 1.0;
	int threads = argc > 3 ? atoi(argv[3]) : 2;
	rcu_register_thread();
	if (!strcmp(workload, "lookup") || !strcmp(workload, "readmostly") || !strcmp(workload, "update")) {
		ht = HT_NEW(KEYS, KEYS, 0, 0);
		populate(KEYS);
		OFFLINE();
		run_threads(workload, seconds, threads, !strcmp(workload, "lookup") ? 0 : !strcmp(workload, "update") ? threads : 1);
		ONLINE();
	} else if (!strcmp(workload, "update-auto")) {
		ht = HT_NEW(32, 32, 0, HT_AUTO);
		populate(KEYS);
		OFFLINE();
		run_threads(workload, seconds, threads, threads);
		ONLINE();
	} else if (!strcmp(workload, "grow")) {
		unsigned long n = 1ul << 20;
		ht = HT_NEW(1, 1, 0, HT_AUTO);
		struct item **items = malloc(n * sizeof *items);
		double t0 = now();
		for (unsigned long k = 0; k < n; k++) {
			items[k] = item_new(k);
			rcu_read_lock();
			HT_ADD_UNIQUE(ht, hash_key(k), match, &items[k]->key, &items[k]->node);
			rcu_read_unlock();
			if ((k & 1023) == 0)
				QUIESCENT();
		}
		double t1 = now();
		for (unsigned long k = 0; k < n; k++) {
			rcu_read_lock();
			HT_DEL(ht, &items[k]->node);
			rcu_read_unlock();
			call_rcu(&items[k]->rcu, item_free);
			if ((k & 1023) == 0)
				QUIESCENT();
		}
		double t2 = now();
		printf("grow %s %s keys=%lu adds/s=%.0f dels/s=%.0f updates/s=%.0f\n", IMPL, BENCH_FLAVOUR, n,
		       (double)n / (t1 - t0), (double)n / (t2 - t1), 2.0 * (double)n / (t2 - t0));
		free(items);
	} else if (!strcmp(workload, "callgrind")) {
		ht = HT_NEW(KEYS, KEYS, 0, 0);
		populate(KEYS);
		unsigned long h = bench_lookup_loop(), m = bench_miss_loop();
		printf("callgrind %s %s hits=%lu misses-found=%lu\n", IMPL, BENCH_FLAVOUR, h, m);
	} else if (!strcmp(workload, "memory")) {
		unsigned long buckets = 1ul << 20;
		struct mallinfo2 a = mallinfo2();
		ht = HT_NEW(buckets, buckets, buckets, 0);
		struct mallinfo2 b = mallinfo2();
		printf("memory %s %s buckets=%lu bytes/bucket=%.2f bytes/node=%zu (embedded in the caller's object)\n", IMPL,
		       BENCH_FLAVOUR, buckets, (double)(b.uordblks + b.hblkhd - a.uordblks - a.hblkhd) / (double)buckets,
		       sizeof(NODE));
		HT_DESTROY(ht);
		ht = NULL;
	} else {
		fprintf(stderr, "usage: %s lookup|readmostly|update|update-auto|grow|callgrind|memory [seconds] [threads]\n",
			argv[0]);
		return 2;
	}
	if (ht) {
		drain();
		synchronize_rcu();
		/* liburcu's cds_lfht_destroy() waits for its resize worker, whose synchronize_rcu()
		 * waits for this thread: a QSBR thread must be offline to wait (0.13 hung here). */
		OFFLINE();
		HT_DESTROY(ht);
		ONLINE();
	}
	rcu_barrier();
	rcu_unregister_thread();
	return 0;
}
