/* SPDX-License-Identifier: 0BSD */
/*
 * examples/srcu_cache.c: two RCU-protected structures with different needs in one program.
 *
 *   - A routing table, read on every packet by router threads and replaced every few hundred
 *     microseconds by a route updater that frees the old table after synchronize_rcu(): the
 *     default domain, whose grace periods must stay short.
 *   - A cache of objects whose readers hold an entry while they block on I/O (here: sending the
 *     entry to a slow client, a 2 ms sleep): an SRCU domain of its own, cache_srcu. Its
 *     maintainer replaces entries and frees the old ones with call_srcu().
 *
 * A cache reader asleep inside srcu_read_lock(&cache_srcu) holds up cache_srcu's grace periods
 * only: the route updater's synchronize_rcu() does not wait for it. The cache readers are I/O
 * threads that never call rcu_register_thread(): SRCU needs no registration, in any flavour.
 *
 *   example-srcu_cache-memb                  run for 0.3 s; check; print the figures
 *   example-srcu_cache-memb --ms 2000        longer
 *   example-srcu_cache-memb --same-domain    the cache on the default domain instead (readers
 *                                            registered, rcu_read_lock()): see what domains save
 *
 * It exits 0 when its checks pass: no cache reader saw a freed entry, no router saw a torn or
 * freed table, and route updates went on while cache readers were blocked (the count of route
 * updates whose whole grace period fell inside one cache reader's blocked wait, which is 0 when
 * the route updater waits for the cache's readers, as with --same-domain).
 */
#include "rcu.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUTES 256
#define BUCKETS 64
#define ROUTERS 1
#define CACHE_READERS 2
#define IO_US 2000            /* how long a cache reader blocks with an entry in hand */
#define ROUTE_EVERY_US 200    /* the route updater's pace */
#define LIVE 0x11ca11eull

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
	while (nanosleep(&ts, &ts) != 0)
		;
}

static bool same_domain; /* --same-domain: the cache on the default domain, for comparison */
static _Atomic int stop;

/* ---- the routing table: the default domain -------------------------------------------------- */

struct route_table {
	uint64_t gen;
	uint64_t next_hop[ROUTES]; /* every entry is `gen` in a consistent table */
};

static struct route_table *_Atomic routes;
static _Atomic long route_lookups, route_bad;

static void *router(void *arg)
{
	(void)arg;
	rcu_register_thread();
	uint64_t x = 88172645463325252u;
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		for (int i = 0; i < 64; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			rcu_read_lock();
			struct route_table *t = rcu_dereference(routes);
			uint64_t hop = t->next_hop[x % ROUTES];
			if (hop != t->gen || t->next_hop[0] != t->gen)
				atomic_fetch_add_explicit(&route_bad, 1, memory_order_relaxed);
			rcu_read_unlock();
		}
		rcu_quiescent_state();
		atomic_fetch_add_explicit(&route_lookups, 64, memory_order_relaxed);
	}
	rcu_unregister_thread();
	return NULL;
}

/* ---- the cache: an SRCU domain -------------------------------------------------------------- */

DEFINE_STATIC_SRCU(cache_srcu);

struct entry {
	uint64_t magic;
	uint64_t key;
	char value[48];
	struct rcu_head rcu;
};

static struct entry *_Atomic buckets[BUCKETS]; /* one entry per key, key = bucket */
static _Atomic uint64_t episode[CACHE_READERS]; /* each reader's I/O waits so far, x2; odd inside one */
static _Atomic long cache_reads, cache_bad, entries_freed;

static void entry_free(struct rcu_head *h)
{
	struct entry *e = rcu_container_of(h, struct entry, rcu);
	memset(e, 0xdb, sizeof *e); /* a reader that still held it would see this */
	free(e);
	atomic_fetch_add_explicit(&entries_freed, 1, memory_order_relaxed);
}

static struct entry *entry_new(uint64_t key, uint64_t version)
{
	struct entry *e = malloc(sizeof *e);
	if (!e)
		abort();
	e->magic = LIVE;
	e->key = key;
	snprintf(e->value, sizeof e->value, "object %llu v%llu", (unsigned long long)key, (unsigned long long)version);
	return e;
}

static bool entry_ok(const struct entry *e, uint64_t key)
{
	return e->magic == LIVE && e->key == key;
}

/* Send the entry to a slow client: the reader blocks with the entry in hand. */
static void send_to_client(const struct entry *e)
{
	(void)e;
	sleep_us(IO_US);
}

static void *cache_reader(void *arg)
{
	int me = (int)(uintptr_t)arg;
	uint64_t x = (uint64_t)(me + 1) * 0x9e3779b97f4a7c15u;
	if (same_domain)
		rcu_register_thread();
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint64_t key = x % BUCKETS;
		int idx = 0;
		if (same_domain)
			rcu_read_lock();
		else
			idx = srcu_read_lock(&cache_srcu);
		struct entry *e = same_domain ? rcu_dereference(buckets[key]) : srcu_dereference(buckets[key], &cache_srcu);
		bool ok = entry_ok(e, key);
		atomic_fetch_add(&episode[me], 1); /* odd: blocked with e in hand */
		send_to_client(e);
		atomic_fetch_add(&episode[me], 1);
		ok = ok && entry_ok(e, key); /* still ours: the section is open */
		if (same_domain) {
			rcu_read_unlock();
			rcu_quiescent_state();
		} else {
			srcu_read_unlock(&cache_srcu, idx);
		}
		if (!ok)
			atomic_fetch_add(&cache_bad, 1);
		atomic_fetch_add_explicit(&cache_reads, 1, memory_order_relaxed);
	}
	if (same_domain)
		rcu_unregister_thread();
	return NULL;
}

/* The maintainer refreshes entries; the old one goes once no reader can hold it. */
static void *cache_maintainer(void *arg)
{
	(void)arg;
	uint64_t version = 1;
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		for (uint64_t key = 0; key < BUCKETS; key += 7) {
			struct entry *old = rcu_dereference_protected(buckets[key], 1 /* the only maintainer */);
			rcu_assign_pointer(buckets[key], entry_new(key, ++version));
			if (same_domain)
				call_rcu(&old->rcu, entry_free);
			else
				call_srcu(&cache_srcu, &old->rcu, entry_free);
		}
		sleep_us(500);
	}
	return NULL;
}

/* ---- the run ------------------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
	long ms = 300;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--ms") && i + 1 < argc)
			ms = atol(argv[++i]);
		else if (!strcmp(argv[i], "--same-domain"))
			same_domain = true;
		else {
			fprintf(stderr, "usage: %s [--ms N] [--same-domain]\n", argv[0]);
			return 2;
		}
	}
	struct route_table *t0 = calloc(1, sizeof *t0);
	rcu_init_pointer(routes, t0);
	for (uint64_t key = 0; key < BUCKETS; key++)
		rcu_init_pointer(buckets[key], entry_new(key, 0));

	pthread_t routers[ROUTERS], readers[CACHE_READERS], maintainer;
	for (int i = 0; i < ROUTERS; i++)
		pthread_create(&routers[i], NULL, router, NULL);
	for (int i = 0; i < CACHE_READERS; i++)
		pthread_create(&readers[i], NULL, cache_reader, (void *)(uintptr_t)i);
	pthread_create(&maintainer, NULL, cache_maintainer, NULL);

	/* The route updater (this thread, never registered: it only updates). */
	long updates = 0, updates_while_blocked = 0;
	uint64_t sum_ns = 0, max_ns = 0, end = now_ns() + (uint64_t)ms * 1000000u;
	while (now_ns() < end) {
		struct route_table *n = malloc(sizeof *n), *old = rcu_dereference_protected(routes, 1);
		n->gen = old->gen + 1;
		for (int i = 0; i < ROUTES; i++)
			n->next_hop[i] = n->gen;
		rcu_assign_pointer(routes, n);
		uint64_t seen[CACHE_READERS];
		for (int i = 0; i < CACHE_READERS; i++)
			seen[i] = atomic_load(&episode[i]);
		uint64_t a = now_ns();
		synchronize_rcu();
		uint64_t d = now_ns() - a;
		bool spanned = false; /* one blocked wait covered the whole grace period */
		for (int i = 0; i < CACHE_READERS; i++)
			spanned |= (seen[i] & 1) && atomic_load(&episode[i]) == seen[i];
		updates_while_blocked += spanned;
		memset(old, 0xdb, sizeof *old);
		free(old);
		sum_ns += d;
		if (d > max_ns)
			max_ns = d;
		updates++;
		sleep_us(ROUTE_EVERY_US);
	}
	atomic_store(&stop, 1);
	for (int i = 0; i < ROUTERS; i++)
		pthread_join(routers[i], NULL);
	for (int i = 0; i < CACHE_READERS; i++)
		pthread_join(readers[i], NULL);
	pthread_join(maintainer, NULL);

	/* Retire the cache: its callbacks first, then its entries, then the domain. */
	if (same_domain)
		rcu_barrier();
	else
		srcu_barrier(&cache_srcu);
	for (uint64_t key = 0; key < BUCKETS; key++)
		free(rcu_dereference_protected(buckets[key], 1));
	cleanup_srcu_struct(&cache_srcu);
	free(rcu_dereference_protected(routes, 1));

	printf("%s%s: %ld route updates in %ld ms, synchronize_rcu() mean %.1f us, max %.1f us; %ld of them "
	       "ran entirely while a cache reader was blocked in I/O inside its section\n",
		RCU_FLAVOUR_NAME, same_domain ? " (cache on the default domain)" : "", updates, ms,
		updates ? (double)sum_ns / (double)updates / 1e3 : 0.0, (double)max_ns / 1e3, updates_while_blocked);
	printf("%ld route lookups; %ld cache reads (each blocked %d us with its entry), %ld entries replaced "
	       "and freed after %s\n", atomic_load(&route_lookups), atomic_load(&cache_reads), IO_US,
		atomic_load(&entries_freed), same_domain ? "call_rcu()" : "call_srcu()");
	int rc = 0;
	if (atomic_load(&cache_bad) || atomic_load(&route_bad)) {
		fprintf(stderr, "srcu_cache: %ld cache reads saw a freed entry, %ld route lookups a bad table\n",
			atomic_load(&cache_bad), atomic_load(&route_bad));
		rc = 1;
	}
	if (!same_domain && updates_while_blocked == 0) {
		fprintf(stderr, "srcu_cache: no route update completed while a cache reader was blocked: "
			"the default domain's grace periods waited for the cache's readers\n");
		rc = 1;
	}
	return rc;
}
