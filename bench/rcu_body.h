/* SPDX-License-Identifier: 0BSD */
/*
 * bench/rcu_body.h: the benchmark body of an RCU implementation that speaks the liburcu/kernel
 * API (rcu_read_lock, rcu_dereference, synchronize_rcu, call_rcu, rcu_barrier, ...). It is
 * included once per translation unit, after that unit's RCU header, so the same source measures
 * rcu.h (bench/ours.c) and liburcu (bench/peer_urcu.c) with every fast path inlined.
 *
 * The including file defines (bench/meson.build passes BENCH_IMPL, and for liburcu the others):
 *   BENCH_IMPL        the name of the exported struct bench_impl
 *   BENCH_LABEL       "ours", "liburcu-sys" or "liburcu-new"
 *   BENCH_FLAVOUR     the flavour's name ("qsbr", "memb", ...; RCU_FLAVOUR_NAME for rcu.h)
 *   BENCH_PTR_QUAL    the qualifier of the published pointer: _Atomic for rcu.h (its API takes
 *                     `T *_Atomic`), nothing for liburcu (it loads through volatile or __atomic)
 * and, where the library can tell:
 *   BENCH_GP_READ()      the number of grace periods the process has completed
 *   BENCH_PENDING_MAX()  the most callbacks that were ever pending at once, as it counts them
 * and, where the library has the kernel's SRCU API (rcu.h):
 *   BENCH_SRCU           measure a domain (struct srcu_struct) beside the default one
 */
#ifndef RCU_BENCH_BODY_H
#define RCU_BENCH_BODY_H

#include "bench.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct body_node {
	uint64_t value;
	uint64_t pad[7]; /* one node per cache line, as a real object would be */
};

/*
 * The published pointer and the updaters' counter each on a line pair of their own: where the
 * compiler happens to place statics must not decide whether readers share a line with what
 * updaters write (it differed between the liburcu and rcu.h builds of this file).
 */
static _Alignas(128) struct body_node body_initial = { .value = 1 };
static _Alignas(128) struct body_node *BENCH_PTR_QUAL body_ptr = &body_initial;
static _Alignas(128) _Atomic uint64_t body_version = 1; /* the last value published (several updaters) */

static void body_setup(void)
{
}

static void body_thread_init(void)
{
	rcu_register_thread();
}

static void body_thread_fini(void)
{
	rcu_unregister_thread();
}

static void body_block_begin(void)
{
	rcu_thread_offline();
}

static void body_block_end(void)
{
	rcu_thread_online();
}

/*
 * The read side under test. noinline so that it is one function to count instructions of
 * (bench/callgrind.sh) and to disassemble; the loop is entirely inside it.
 */
__attribute__((noinline)) static uint64_t body_read_loop(uint64_t n)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++) {
		rcu_read_lock();
		struct body_node *p = rcu_dereference(body_ptr);
		sum += p->value;
		rcu_read_unlock();
	}
	rcu_quiescent_state();
	return sum;
}

static void body_read_hold(uint64_t ns, struct bench_hold *h)
{
	rcu_read_lock();
	struct body_node *p = rcu_dereference(body_ptr);
	atomic_store_explicit(&h->inside, 1, memory_order_relaxed);
	uint64_t end = bench_now_ns() + ns;
	while (bench_now_ns() < end)
		;
	*(volatile uint64_t *)&p->pad[0]; /* still valid at the end of the section */
	atomic_store_explicit(&h->exit_ns, bench_now_ns(), memory_order_relaxed);
	atomic_store_explicit(&h->inside, 0, memory_order_release);
	rcu_read_unlock();
	rcu_quiescent_state();
}

static void body_update(void)
{
	struct body_node *n = malloc(sizeof *n);
	if (!n)
		abort();
	n->value = atomic_fetch_add_explicit(&body_version, 1, memory_order_relaxed) + 1;
	struct body_node *old = rcu_xchg_pointer(&body_ptr, n);
	synchronize_rcu();
	if (old != &body_initial)
		free(old);
}

static void body_synchronize(void)
{
	synchronize_rcu();
}

static void body_sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	while (nanosleep(&ts, &ts) != 0)
		;
}

#if defined(BENCH_SRCU)
/*
 * Domains: body_domain is the domain whose read side and grace periods are measured (the same
 * published pointer as the default domain's loop reads, through srcu_dereference()), and
 * body_other the domain whose readers nap (bench/measure.c, isolation).
 */
DEFINE_STATIC_SRCU(body_domain);
DEFINE_STATIC_SRCU(body_other);

__attribute__((noinline)) static uint64_t body_domain_read_loop(uint64_t n)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++) {
		int idx = srcu_read_lock(&body_domain);
		struct body_node *p = srcu_dereference(body_ptr, &body_domain);
		sum += p->value;
		srcu_read_unlock(&body_domain, idx);
	}
	return sum;
}

static void body_domain_synchronize(void)
{
	synchronize_srcu(&body_domain);
}

/* A reader of body_other; in QSBR offline in the default domain throughout (it blocks). */
static void body_nap(uint64_t ns, bool inside)
{
	rcu_thread_offline();
	int idx = srcu_read_lock(&body_other);
	if (inside)
		body_sleep_ns(ns);
	srcu_read_unlock(&body_other, idx);
	if (!inside)
		body_sleep_ns(ns);
	rcu_thread_online();
}
#else
/* No domains: the nap is in a section of the only domain there is (QSBR: online inside). */
static void body_nap(uint64_t ns, bool inside)
{
	rcu_read_lock();
	if (inside)
		body_sleep_ns(ns);
	rcu_read_unlock();
	rcu_quiescent_state();
	if (!inside) {
		rcu_thread_offline();
		body_sleep_ns(ns);
		rcu_thread_online();
	}
}
#endif

struct body_cb {
	struct rcu_head head;
	uint64_t payload[];
};

static struct body_cb *body_cb_array;
static size_t body_cb_size;
static _Atomic uint64_t body_cb_done;     /* call_array()'s callbacks invoked */
static _Atomic uint64_t body_malloc_done; /* call_malloc()'s callbacks invoked */

static void body_cb_count(struct rcu_head *head)
{
	(void)head;
	atomic_fetch_add_explicit(&body_cb_done, 1, memory_order_relaxed);
}

static void body_cb_free(struct rcu_head *head)
{
	atomic_fetch_add_explicit(&body_malloc_done, 1, memory_order_relaxed);
	free(head); /* head is the first member of struct body_cb */
}

static void body_call_array(size_t n)
{
	if (n > body_cb_size) {
		free(body_cb_array);
		body_cb_array = malloc(n * sizeof *body_cb_array);
		if (!body_cb_array)
			abort();
		memset(body_cb_array, 0, n * sizeof *body_cb_array); /* fault the pages in untimed */
		body_cb_size = n;
	}
	for (size_t i = 0; i < n; i++) {
		call_rcu(&body_cb_array[i].head, body_cb_count);
		if ((i & 1023) == 1023)
			rcu_quiescent_state();
	}
	rcu_quiescent_state();
}

static void body_call_malloc(size_t n, size_t bytes, bool in_section)
{
	if (in_section)
		rcu_read_lock();
	for (size_t i = 0; i < n; i++) {
		struct body_cb *c = malloc(sizeof *c + bytes);
		if (!c)
			abort();
		for (size_t j = 0; j < bytes / sizeof(uint64_t); j++)
			c->payload[j] = j;
		call_rcu(&c->head, body_cb_free);
		if ((i & 1023) == 1023 && !in_section)
			rcu_quiescent_state();
	}
	if (in_section)
		rcu_read_unlock();
	rcu_quiescent_state();
}

static void body_barrier(void)
{
	rcu_barrier();
}

static uint64_t body_callbacks_done(void)
{
	return atomic_load_explicit(&body_cb_done, memory_order_relaxed);
}

static uint64_t body_malloc_done_count(void)
{
	return atomic_load_explicit(&body_malloc_done, memory_order_relaxed);
}

#if defined(BENCH_GP_READ)
static uint64_t body_grace_periods(void)
{
	return BENCH_GP_READ();
}
#endif

#if defined(BENCH_PENDING_MAX)
static uint64_t body_pending_max(void)
{
	return BENCH_PENDING_MAX();
}
#endif

#if defined(BENCH_GP_READ)
#define BODY_CAP_GP BENCH_GP_COUNT
#else
#define BODY_CAP_GP 0
#endif
#if defined(BENCH_SRCU)
#define BODY_CAP_DOMAIN BENCH_DOMAIN
#else
#define BODY_CAP_DOMAIN 0
#endif

const struct bench_impl BENCH_IMPL = {
	.name = BENCH_LABEL,
	.flavour = BENCH_FLAVOUR,
	.caps = BENCH_UPDATE | BENCH_SYNC | BENCH_CALL | BENCH_NAP | BODY_CAP_GP | BODY_CAP_DOMAIN,
#if defined(BENCH_GP_READ)
	.grace_periods = body_grace_periods,
#endif
#if defined(BENCH_SRCU)
	.domain_read_loop = body_domain_read_loop,
	.domain_synchronize = body_domain_synchronize,
#endif
	.nap = body_nap,
#if defined(BENCH_PENDING_MAX)
	.pending_max = body_pending_max,
#endif
	.setup = body_setup,
	.thread_init = body_thread_init,
	.thread_fini = body_thread_fini,
	.block_begin = body_block_begin,
	.block_end = body_block_end,
	.read_loop = body_read_loop,
	.read_hold = body_read_hold,
	.update = body_update,
	.synchronize = body_synchronize,
	.call_array = body_call_array,
	.call_malloc = body_call_malloc,
	.barrier = body_barrier,
	.callbacks_done = body_callbacks_done,
	.malloc_done = body_malloc_done_count,
};

#endif /* RCU_BENCH_BODY_H */
