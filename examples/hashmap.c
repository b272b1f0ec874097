/* SPDX-License-Identifier: 0BSD */
/*
 * examples/hashmap.c: using the read-mostly map of examples/rcu_map.h. Two threads look keys up
 * without locking while a third inserts, replaces and deletes. Every value stored for key k is
 * k * VERSIONS + version, so a lookup can check that it got a value of the key it asked for; at
 * the end the map must hold exactly what the updater believes it holds.
 */
#include "rcu_map.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define KEYS 512
#define VERSIONS 1000000u
#define UPDATES 50000
#define READERS 2

static struct rcu_map map;
static _Atomic bool done;
static _Atomic int readers_started;
static _Atomic long hits, misses, bad;

static void *reader(void *arg)
{
	uint64_t seed = (uint64_t)(uintptr_t)arg * 0x9e3779b97f4a7c15u + 1;
	long h = 0, m = 0;
	rcu_register_thread();
	atomic_fetch_add_explicit(&readers_started, 1, memory_order_relaxed);
	while (!atomic_load_explicit(&done, memory_order_relaxed)) {
		seed = seed * 6364136223846793005u + 1442695040888963407u;
		uint64_t key = (seed >> 33) % KEYS, value;
		if (rcu_map_lookup(&map, key, &value)) {
			h++;
			if (value / VERSIONS != key) {
				atomic_fetch_add_explicit(&bad, 1, memory_order_relaxed);
				fprintf(stderr, "hashmap: key %llu gave value %llu\n",
					(unsigned long long)key, (unsigned long long)value);
			}
		} else {
			m++;
		}
		rcu_quiescent_state();  /* QSBR: between lookups; no-op elsewhere */
	}
	rcu_unregister_thread();
	atomic_fetch_add_explicit(&hits, h, memory_order_relaxed);
	atomic_fetch_add_explicit(&misses, m, memory_order_relaxed);
	return NULL;
}

int main(void)
{
	static uint64_t model[KEYS]; /* 0: absent */
	pthread_t t[READERS];
	int rc = 0;
	if (rcu_map_init(&map, 256) != 0)
		return 1;
	for (uint64_t k = 0; k < KEYS; k += 2) {      /* start half full */
		model[k] = k * VERSIONS + 1; /* never 0, which the model uses for absent */
		if (rcu_map_insert(&map, k, model[k]) != 0)
			return 1;
	}
	for (uintptr_t i = 0; i < READERS; i++)
		if (pthread_create(&t[i], NULL, reader, (void *)i) != 0)
			return 1;
	while (atomic_load_explicit(&readers_started, memory_order_relaxed) < READERS)
		sched_yield();
	uint64_t seed = 42;
	for (long i = 0; i < UPDATES; i++) {
		seed = seed * 6364136223846793005u + 1442695040888963407u;
		uint64_t key = (seed >> 33) % KEYS;
		uint64_t value = key * VERSIONS + (uint64_t)(i % (VERSIONS - 1)) + 1, old = 0;
		switch ((seed >> 20) % 3) {
		case 0:
			if (rcu_map_insert(&map, key, value) == 0) {
				rc |= model[key] != 0;
				model[key] = value;
			} else {
				rc |= model[key] == 0;
			}
			break;
		case 1:
			if (rcu_map_replace(&map, key, value, &old) == 0) {
				rc |= old != model[key];
				model[key] = value;
			} else {
				rc |= model[key] != 0;
			}
			break;
		default:
			if (rcu_map_delete(&map, key, &old)) {
				rc |= old != model[key];
				model[key] = 0;
			} else {
				rc |= model[key] != 0;
			}
			break;
		}
	}
	atomic_store_explicit(&done, true, memory_order_relaxed);
	for (int i = 0; i < READERS; i++)
		pthread_join(t[i], NULL);
	if (rc)
		fprintf(stderr, "hashmap: an update's result disagreed with the model\n");
	rcu_register_thread();
	for (uint64_t k = 0; k < KEYS; k++) {
		uint64_t v = 0;
		bool found = rcu_map_lookup(&map, k, &v);
		if (found != (model[k] != 0) || (found && v != model[k])) {
			fprintf(stderr, "hashmap: key %llu disagrees with the model\n", (unsigned long long)k);
			rc = 1;
		}
	}
	rcu_unregister_thread();
	rcu_map_destroy(&map);
	rcu_barrier();          /* the deleted and replaced entries' callbacks have all run */
	if (rcu_map_live_entries() != 0) {
		fprintf(stderr, "hashmap: %ld entries never freed\n", rcu_map_live_entries());
		rc = 1;
	}
	long b = atomic_load_explicit(&bad, memory_order_relaxed);
	printf("hashmap: %d updates; lookups: %ld hits, %ld misses, %ld bad\n", UPDATES,
		atomic_load_explicit(&hits, memory_order_relaxed),
		atomic_load_explicit(&misses, memory_order_relaxed), b);
	return rc == 0 && b == 0 ? 0 : 1;
}
