/* SPDX-License-Identifier: 0BSD */
/*
 * bench/peer_ck.c: Concurrency Kit's ck_epoch under test.
 *
 * Each thread owns a ck_epoch_record (recycled when a thread ends); a read-side section is
 * ck_epoch_begin/ck_epoch_end without a section object (the cheapest form), synchronize is
 * ck_epoch_synchronize, call_rcu is ck_epoch_call and the barrier is ck_epoch_barrier, which
 * waits and then runs the calling record's deferred callbacks itself (ck has no worker thread).
 * A producer of callbacks calls ck_epoch_poll() every 1024 of them, as a ck user must for its
 * callbacks to run before the barrier (the equivalent of the RCU bodies' quiescent state).
 *
 * Domains: ck has no process-wide RCU, only epoch objects, one per structure that wants its own
 * grace periods: ck_domain is such a domain (its read side and synchronize are the domain's
 * figures as well), and ck_other a second one whose readers nap (bench/measure.c, isolation),
 * each napping thread with a record of its own there.
 */
#include "bench.h"

#include <ck_epoch.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct ck_node {
	uint64_t value;
	uint64_t pad[7];
};

static ck_epoch_t ck_domain, ck_other;
static _Alignas(128) struct ck_node ck_initial = { .value = 1 };
static _Alignas(128) struct ck_node *_Atomic ck_ptr = &ck_initial; /* alone, as in rcu_body.h */
static _Alignas(128) _Atomic uint64_t ck_version = 1;
static _Thread_local ck_epoch_record_t *ck_me, *ck_other_me;

static void ck_setup(void)
{
	ck_epoch_init(&ck_domain);
	ck_epoch_init(&ck_other);
}

static ck_epoch_record_t *ck_record(ck_epoch_t *epoch)
{
	ck_epoch_record_t *r = ck_epoch_recycle(epoch, NULL);
	if (r)
		return r;
	r = aligned_alloc(CK_MD_CACHELINE, sizeof *r);
	if (!r)
		abort();
	memset(r, 0, sizeof *r);
	ck_epoch_register(epoch, r, NULL);
	return r;
}

static void ck_thread_init(void)
{
	ck_me = ck_record(&ck_domain);
}

static void ck_thread_fini(void)
{
	ck_epoch_unregister(ck_me);
	ck_me = NULL;
	if (ck_other_me) {
		ck_epoch_unregister(ck_other_me);
		ck_other_me = NULL;
	}
}

static void ck_sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	while (nanosleep(&ts, &ts) != 0)
		;
}

/* A reader of the second epoch object. */
static void ck_nap(uint64_t ns, bool inside)
{
	if (!ck_other_me)
		ck_other_me = ck_record(&ck_other);
	ck_epoch_begin(ck_other_me, NULL);
	if (inside)
		ck_sleep_ns(ns);
	ck_epoch_end(ck_other_me, NULL);
	if (!inside)
		ck_sleep_ns(ns);
}

static void ck_nothing(void)
{
}

__attribute__((noinline)) static uint64_t ck_read_loop(uint64_t n)
{
	ck_epoch_record_t *me = ck_me;
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++) {
		ck_epoch_begin(me, NULL);
		struct ck_node *p = atomic_load_explicit(&ck_ptr, memory_order_acquire);
		sum += p->value;
		ck_epoch_end(me, NULL);
	}
	return sum;
}

static void ck_read_hold(uint64_t ns, struct bench_hold *h)
{
	ck_epoch_begin(ck_me, NULL);
	struct ck_node *p = atomic_load_explicit(&ck_ptr, memory_order_acquire);
	atomic_store_explicit(&h->inside, 1, memory_order_relaxed);
	uint64_t end = bench_now_ns() + ns;
	while (bench_now_ns() < end)
		;
	*(volatile uint64_t *)&p->pad[0];
	atomic_store_explicit(&h->exit_ns, bench_now_ns(), memory_order_relaxed);
	atomic_store_explicit(&h->inside, 0, memory_order_release);
	ck_epoch_end(ck_me, NULL);
}

static void ck_update(void)
{
	struct ck_node *n = malloc(sizeof *n);
	if (!n)
		abort();
	n->value = atomic_fetch_add_explicit(&ck_version, 1, memory_order_relaxed) + 1;
	struct ck_node *old = atomic_exchange_explicit(&ck_ptr, n, memory_order_acq_rel);
	ck_epoch_synchronize(ck_me);
	if (old != &ck_initial)
		free(old);
}

static void ck_synchronize(void)
{
	ck_epoch_synchronize(ck_me);
}

struct ck_cb {
	ck_epoch_entry_t entry;
	uint64_t payload[];
};

static struct ck_cb *ck_cb_array;
static size_t ck_cb_size;
static _Atomic uint64_t ck_cb_done;
static _Atomic uint64_t ck_malloc_done;

static void ck_cb_count(ck_epoch_entry_t *e)
{
	(void)e;
	atomic_fetch_add_explicit(&ck_cb_done, 1, memory_order_relaxed);
}

static void ck_cb_free(ck_epoch_entry_t *e)
{
	atomic_fetch_add_explicit(&ck_malloc_done, 1, memory_order_relaxed);
	free(e);
}

static void ck_call_array(size_t n)
{
	if (n > ck_cb_size) {
		free(ck_cb_array);
		ck_cb_array = malloc(n * sizeof *ck_cb_array);
		if (!ck_cb_array)
			abort();
		memset(ck_cb_array, 0, n * sizeof *ck_cb_array);
		ck_cb_size = n;
	}
	for (size_t i = 0; i < n; i++)
		ck_epoch_call(ck_me, &ck_cb_array[i].entry, ck_cb_count);
}

static void ck_call_malloc(size_t n, size_t bytes, bool in_section)
{
	if (in_section)
		ck_epoch_begin(ck_me, NULL);
	for (size_t i = 0; i < n; i++) {
		struct ck_cb *c = malloc(sizeof *c + bytes);
		if (!c)
			abort();
		for (size_t j = 0; j < bytes / sizeof(uint64_t); j++)
			c->payload[j] = j;
		ck_epoch_call(ck_me, &c->entry, ck_cb_free);
		if ((i & 1023) == 1023 && !in_section)
			ck_epoch_poll(ck_me);
	}
	if (in_section)
		ck_epoch_end(ck_me, NULL);
	else
		ck_epoch_poll(ck_me);
}

static void ck_barrier(void)
{
	ck_epoch_barrier(ck_me);
}

static uint64_t ck_callbacks_done(void)
{
	return atomic_load_explicit(&ck_cb_done, memory_order_relaxed);
}

static uint64_t ck_malloc_done_count(void)
{
	return atomic_load_explicit(&ck_malloc_done, memory_order_relaxed);
}

static uint64_t ck_pending_max(void)
{
	return ck_me ? ck_me->n_peak : 0;
}

const struct bench_impl bench_ck_epoch = {
	.name = "ck_epoch",
	.flavour = "",
	.caps = BENCH_UPDATE | BENCH_SYNC | BENCH_CALL | BENCH_DOMAIN | BENCH_NAP,
	.setup = ck_setup,
	.thread_init = ck_thread_init,
	.thread_fini = ck_thread_fini,
	.block_begin = ck_nothing,
	.block_end = ck_nothing,
	.read_loop = ck_read_loop,
	.read_hold = ck_read_hold,
	.update = ck_update,
	.synchronize = ck_synchronize,
	.call_array = ck_call_array,
	.call_malloc = ck_call_malloc,
	.barrier = ck_barrier,
	.callbacks_done = ck_callbacks_done,
	.malloc_done = ck_malloc_done_count,
	.pending_max = ck_pending_max,
	.domain_read_loop = ck_read_loop,   /* the epoch object is the domain */
	.domain_synchronize = ck_synchronize,
	.nap = ck_nap,
};
