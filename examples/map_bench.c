/* SPDX-License-Identifier: 0BSD */
/*
 * examples/map_bench.c: lookups per second of examples/rcu_map.h against examples/rwlock_map.h,
 * the same map guarded by one pthread_rwlock_t per bucket. R reader threads look up random keys
 * (all present) while U updater threads replace random keys' values, for a fixed time; each
 * measurement is repeated and the median printed. It asserts nothing about time: it exits non-zero
 * only if a lookup returned a wrong value or entries leaked.
 *
 *   map_bench [--readers R] [--updaters U] [--ms MS] [--runs N] [--keys K] [--buckets B]
 *             [--pause-us P]   (updaters sleep P microseconds after each replace; default 0)
 * Defaults: 2 readers, 1 updater, 1000 ms, 5 runs, 1024 keys, 1024 buckets.
 */
#include "rcu_map.h"
#include "rwlock_map.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define VERSIONS 1000000000u
#define BATCH 16 /* lookups between looks at the stop flag (and, in QSBR, quiescent states) */

static struct opts {
	int readers, updaters, ms, runs, pause_us;
	uint64_t keys, buckets;
} o = { 2, 1, 1000, 5, 0, 1024, 1024 };

static struct rcu_map rmap;
static struct rwlock_map wmap;
static bool use_rcu;
static _Atomic bool stop;
static _Atomic long total_lookups, total_updates, wrong;

static uint64_t next_rand(uint64_t *s)
{
	*s = *s * 6364136223846793005u + 1442695040888963407u;
	return *s >> 33;
}

static void *reader(void *arg)
{
	uint64_t seed = (uint64_t)(uintptr_t)arg * 0x9e3779b97f4a7c15u + 7;
	long n = 0, bad = 0;
	if (use_rcu)
		rcu_register_thread();
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		for (int i = 0; i < BATCH; i++) {
			uint64_t key = next_rand(&seed) % o.keys, v = 0;
			bool found = use_rcu ? rcu_map_lookup(&rmap, key, &v)
					     : rwlock_map_lookup(&wmap, key, &v);
			bad += !found || v / VERSIONS != key;
		}
		n += BATCH;
		if (use_rcu)
			rcu_quiescent_state();
	}
	if (use_rcu)
		rcu_unregister_thread();
	atomic_fetch_add_explicit(&total_lookups, n, memory_order_relaxed);
	atomic_fetch_add_explicit(&wrong, bad, memory_order_relaxed);
	return NULL;
}

static void *updater(void *arg)
{
	uint64_t seed = (uint64_t)(uintptr_t)arg * 0x51afd7ed558ccdu + 3;
	long n = 0;
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		uint64_t key = next_rand(&seed) % o.keys;
		uint64_t v = key * VERSIONS + (uint64_t)(n % (VERSIONS - 1)) + 1;
		int rc = use_rcu ? rcu_map_replace(&rmap, key, v, NULL)
				 : rwlock_map_replace(&wmap, key, v, NULL);
		if (rc != 0)
			atomic_fetch_add_explicit(&wrong, 1, memory_order_relaxed);
		n++;
		if (o.pause_us) {
			struct timespec ts = { 0, (long)o.pause_us * 1000 };
			nanosleep(&ts, NULL);
		}
	}
	atomic_fetch_add_explicit(&total_updates, n, memory_order_relaxed);
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One timed run; returns lookups per second and stores updates per second in *ups. */
static double run_once(bool rcu, double *ups)
{
	use_rcu = rcu;
	if (rcu ? rcu_map_init(&rmap, o.buckets) : rwlock_map_init(&wmap, o.buckets)) {
		fprintf(stderr, "map_bench: out of memory\n");
		exit(1);
	}
	for (uint64_t k = 0; k < o.keys; k++)
		if ((rcu ? rcu_map_insert(&rmap, k, k * VERSIONS) : rwlock_map_insert(&wmap, k, k * VERSIONS)) != 0)
			exit(1);
	atomic_store_explicit(&stop, false, memory_order_relaxed);
	atomic_store_explicit(&total_lookups, 0, memory_order_relaxed);
	atomic_store_explicit(&total_updates, 0, memory_order_relaxed);
	pthread_t t[64];
	int nt = 0;
	double t0 = now_s();
	for (int i = 0; i < o.readers; i++)
		pthread_create(&t[nt++], NULL, reader, (void *)(uintptr_t)(i + 1));
	for (int i = 0; i < o.updaters; i++)
		pthread_create(&t[nt++], NULL, updater, (void *)(uintptr_t)(i + 1));
	struct timespec ts = { o.ms / 1000, (long)(o.ms % 1000) * 1000000 };
	nanosleep(&ts, NULL);
	atomic_store_explicit(&stop, true, memory_order_relaxed);
	for (int i = 0; i < nt; i++)
		pthread_join(t[i], NULL);
	double dt = now_s() - t0;
	if (rcu) {
		rcu_map_destroy(&rmap);
		rcu_barrier();
	} else {
		rwlock_map_destroy(&wmap);
	}
	*ups = (double)atomic_load_explicit(&total_updates, memory_order_relaxed) / dt;
	return (double)atomic_load_explicit(&total_lookups, memory_order_relaxed) / dt;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	for (int i = 1; i + 1 < argc; i += 2) {
		long v = atol(argv[i + 1]);
		if (!strcmp(argv[i], "--readers")) o.readers = (int)v;
		else if (!strcmp(argv[i], "--updaters")) o.updaters = (int)v;
		else if (!strcmp(argv[i], "--ms")) o.ms = (int)v;
		else if (!strcmp(argv[i], "--runs")) o.runs = (int)v;
		else if (!strcmp(argv[i], "--keys")) o.keys = (uint64_t)v;
		else if (!strcmp(argv[i], "--buckets")) o.buckets = (uint64_t)v;
		else if (!strcmp(argv[i], "--pause-us")) o.pause_us = (int)v;
		else {
			fprintf(stderr, "map_bench: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (o.readers < 0 || o.updaters < 0 || o.readers + o.updaters > 64 || o.runs < 1 ||
	    o.runs > 99 || o.keys < 1 || o.ms < 1) {
		fprintf(stderr, "map_bench: bad options\n");
		return 2;
	}
	double rl[99], ru[99], wl[99], wu[99];
	for (int r = 0; r < o.runs; r++) {  /* interleave the variants so drift hits both */
		rl[r] = run_once(true, &ru[r]);
		wl[r] = run_once(false, &wu[r]);
	}
	/* RCU_FLAVOUR_NAME: rcu.h's own name for the flavour it compiled, whichever selected it. */
	printf("map_bench %s: %d readers, %d updaters, %llu keys, %llu buckets, %d ms x %d runs (medians)\n",
		RCU_FLAVOUR_NAME, o.readers, o.updaters, (unsigned long long)o.keys,
		(unsigned long long)o.buckets, o.ms, o.runs);
	printf("  rcu_map:    %10.3f Mlookups/s  %8.3f Mupdates/s\n", median(rl, o.runs) / 1e6,
		median(ru, o.runs) / 1e6);
	printf("  rwlock_map: %10.3f Mlookups/s  %8.3f Mupdates/s\n", median(wl, o.runs) / 1e6,
		median(wu, o.runs) / 1e6);
	long w = atomic_load_explicit(&wrong, memory_order_relaxed);
	long live = rcu_map_live_entries() + rwlock_map_live_entries();
	if (w || live) {
		fprintf(stderr, "map_bench: %ld wrong results, %ld entries not freed\n", w, live);
		return 1;
	}
	return 0;
}
