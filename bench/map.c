/* SPDX-License-Identifier: 0BSD */
/*
 * bench/map.c: the read-mostly map of examples/rcu_map.h, one build per flavour of rcu.h
 * (-DRCU_FLAVOUR_* -DMAP_IMPL=bench_map_<flavour>), or with -DBENCH_MAP_RWLOCK its
 * reader-writer-lock twin examples/rwlock_map.h.
 * Lookups hit present keys chosen at random; the updater replaces values of random keys (each
 * replacement is a fresh entry, and in the RCU map a call_rcu of the old one).
 */
#include "bench.h"

#include <stdbool.h>
#include <stdlib.h>

#if defined(BENCH_MAP_RWLOCK)
#include "rwlock_map.h"
#define MAP struct rwlock_map
#define MAP_INIT rwlock_map_init
#define MAP_DESTROY rwlock_map_destroy
#define MAP_INSERT rwlock_map_insert
#define MAP_LOOKUP rwlock_map_lookup
#define MAP_REPLACE rwlock_map_replace
#define MAP_IMPL bench_map_rwlock
#define MAP_NAME "rwlock_map"
#define MAP_FLAVOUR ""
static void map_thread_init(void) {}
static void map_thread_fini(void) {}
static void map_block_begin(void) {}
static void map_block_end(void) {}
static void map_quiescent(void) {}
static void map_teardown_wait(void) {}
#else
#include "rcu.h"
#include "rcu_map.h"
#define MAP struct rcu_map
#define MAP_INIT rcu_map_init
#define MAP_DESTROY rcu_map_destroy
#define MAP_INSERT rcu_map_insert
#define MAP_LOOKUP rcu_map_lookup
#define MAP_REPLACE rcu_map_replace
#define MAP_NAME "rcu_map"
#define MAP_FLAVOUR RCU_FLAVOUR_NAME
#ifndef MAP_IMPL
#error "bench/map.c: bench/meson.build defines MAP_IMPL, the name of the exported table"
#endif
static void map_thread_init(void) { rcu_register_thread(); }
static void map_thread_fini(void) { rcu_unregister_thread(); }
static void map_block_begin(void) { rcu_thread_offline(); }
static void map_block_end(void) { rcu_thread_online(); }
static void map_quiescent(void) { rcu_quiescent_state(); }
/* Removed entries are freed by callbacks: wait for them before the next run. */
static void map_teardown_wait(void)
{
	rcu_register_thread();
	rcu_thread_offline();
	rcu_barrier();
	rcu_thread_online();
	rcu_unregister_thread();
}
#endif

static MAP map_map;
static uint64_t map_nkeys;

static void map_setup(uint64_t nkeys)
{
	if (MAP_INIT(&map_map, (size_t)nkeys) != 0)
		abort();
	for (uint64_t k = 0; k < nkeys; k++)
		if (MAP_INSERT(&map_map, k, k) != 0)
			abort();
	map_nkeys = nkeys;
}

static void map_teardown(void)
{
	MAP_DESTROY(&map_map);
	map_teardown_wait();
}

__attribute__((noinline)) static uint64_t map_lookup_loop(uint64_t n, uint64_t *rng)
{
	uint64_t hits = 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t v;
		hits += MAP_LOOKUP(&map_map, bench_rand(rng) % map_nkeys, &v);
	}
	map_quiescent();
	return hits;
}

static void map_update_loop(uint64_t n, uint64_t *rng)
{
	for (uint64_t i = 0; i < n; i++) {
		uint64_t k = bench_rand(rng) % map_nkeys;
		if (MAP_REPLACE(&map_map, k, k + i, NULL) != 0)
			abort();
	}
	map_quiescent();
}

const struct bench_map_impl MAP_IMPL = {
	.name = MAP_NAME,
	.flavour = MAP_FLAVOUR,
	.thread_init = map_thread_init,
	.thread_fini = map_thread_fini,
	.block_begin = map_block_begin,
	.block_end = map_block_end,
	.setup = map_setup,
	.teardown = map_teardown,
	.lookup_loop = map_lookup_loop,
	.update_loop = map_update_loop,
};
