/* SPDX-License-Identifier: 0BSD */
/*
 * bench/peer_plain.c: the two references that are not RCU.
 *   rwlock  a pthread_rwlock_t (default attributes, as a program gets it) taken shared around the
 *           same read and exclusive around the pointer swap; the old node is freed at once.
 *   floor   the same loop with no synchronization at all: an acquire load of the pointer and a
 *           field read. Nothing can be cheaper and still read the data; it never updates.
 * With -DBENCH_SO the floor goes into the shared object of the group "others" as well
 * (librcu-bench-so-others.so), as the reference for the read side measured from a -fPIC object.
 */
#include "bench.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#if defined(BENCH_SO)
#define BENCH_NAME(x) bench_so_##x
#else
#define BENCH_NAME(x) bench_##x
#endif

struct plain_node {
	uint64_t value;
	uint64_t pad[7];
};

static _Alignas(128) struct plain_node plain_initial = { .value = 1 };
static _Alignas(128) struct plain_node *_Atomic plain_ptr = &plain_initial; /* alone, as in rcu_body.h */

static void plain_nothing(void)
{
}

__attribute__((noinline)) static uint64_t floor_read_loop(uint64_t n)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++) {
		struct plain_node *p = atomic_load_explicit(&plain_ptr, memory_order_acquire);
		sum += p->value;
	}
	return sum;
}

const struct bench_impl BENCH_NAME(floor) = {
	.name = "floor",
	.flavour = "",
	.caps = 0,
	.setup = plain_nothing,
	.thread_init = plain_nothing,
	.thread_fini = plain_nothing,
	.block_begin = plain_nothing,
	.block_end = plain_nothing,
	.read_loop = floor_read_loop,
};

#if !defined(BENCH_SO)
static _Alignas(128) _Atomic uint64_t plain_version = 1;
static _Alignas(128) pthread_rwlock_t plain_lock = PTHREAD_RWLOCK_INITIALIZER;

__attribute__((noinline)) static uint64_t rwlock_read_loop(uint64_t n)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++) {
		pthread_rwlock_rdlock(&plain_lock);
		struct plain_node *p = atomic_load_explicit(&plain_ptr, memory_order_relaxed);
		sum += p->value;
		pthread_rwlock_unlock(&plain_lock);
	}
	return sum;
}

static void rwlock_update(void)
{
	struct plain_node *n = malloc(sizeof *n);
	if (!n)
		abort();
	n->value = atomic_fetch_add_explicit(&plain_version, 1, memory_order_relaxed) + 1;
	pthread_rwlock_wrlock(&plain_lock);
	struct plain_node *old = atomic_exchange_explicit(&plain_ptr, n, memory_order_relaxed);
	pthread_rwlock_unlock(&plain_lock);
	if (old != &plain_initial)
		free(old);
}

const struct bench_impl bench_rwlock = {
	.name = "rwlock",
	.flavour = "",
	.caps = BENCH_UPDATE,
	.setup = plain_nothing,
	.thread_init = plain_nothing,
	.thread_fini = plain_nothing,
	.block_begin = plain_nothing,
	.block_end = plain_nothing,
	.read_loop = rwlock_read_loop,
	.update = rwlock_update,
};
#endif
