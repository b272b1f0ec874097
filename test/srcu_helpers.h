/* SPDX-License-Identifier: 0BSD */
/*
 * test/srcu_helpers.h: what the SRCU tests (test/srcu*.c) share, on top of test/harness.h.
 *
 * - A holder: a thread that sits inside one section of one domain until released, in one of the
 *   ways a reader may come to SRCU (never registered; registered, QSBR online; registered and
 *   then unregistered). It waits by sleeping, as a reader blocked on I/O would; a registered
 *   QSBR thread goes offline around the sleep, as QSBR asks of any thread that blocks (its SRCU
 *   section stays open: SRCU does not care about the default domain's online state).
 * - An asynchronous synchronize_srcu() (or synchronize_rcu(), srcu_barrier(), rcu_barrier()),
 *   so that the test thread can watch whether it has returned and when.
 * - A spinning barrier for the racy tests (as test/grace_period.c's).
 */
#ifndef RCU_TEST_SRCU_HELPERS_H
#define RCU_TEST_SRCU_HELPERS_H

#include "harness.h"

#include <sched.h>

/* ---- holders --------------------------------------------------------------------------------- */

enum holder_kind {
	HOLDER_UNREGISTERED, /* never calls rcu_register_thread() (BP: never reads the default domain) */
	HOLDER_REGISTERED,   /* registered for the whole section (QSBR: online, offline while it sleeps) */
	HOLDER_WAS_REGISTERED, /* registers and unregisters before its section */
	HOLDER_READ_THEN_WAS_REGISTERED, /* a section of the domain first (its slot gets the domain's
					    tag), then registers and unregisters, then its section:
					    unregistering must untag the slot, or the section takes
					    the fast path outside the registry and is not waited for */
	HOLDER_KINDS
};

static const char *const holder_kind_name[HOLDER_KINDS] __attribute__((unused)) = {
	"unregistered", "registered", "unregistered after registering",
	"read, then registered and unregistered"
};

struct holder {
	struct srcu_struct *ssp;
	enum holder_kind kind;
	long sleep_us;   /* one sleep of this length inside the section, then wait for release */
	pthread_t thread;
	_Atomic int in, release, out;
	_Atomic uint64_t out_ns; /* when it left its section */
	int idx;
};

static inline void *holder_main(void *arg)
{
	struct holder *h = arg;
	if (h->kind == HOLDER_READ_THEN_WAS_REGISTERED)
		srcu_read_unlock(h->ssp, srcu_read_lock(h->ssp));
	if (h->kind != HOLDER_UNREGISTERED)
		rcu_register_thread();
	if (h->kind == HOLDER_WAS_REGISTERED || h->kind == HOLDER_READ_THEN_WAS_REGISTERED) {
		rcu_quiescent_state();
		rcu_unregister_thread();
	}
	h->idx = srcu_read_lock(h->ssp);
	atomic_store(&h->in, 1);
	bool registered = h->kind == HOLDER_REGISTERED;
	if (registered)
		test_block_begin();
	if (h->sleep_us > 0)
		test_sleep_us(h->sleep_us);
	while (!atomic_load(&h->release))
		test_sleep_us(200);
	if (registered)
		test_block_end();
	atomic_store(&h->out_ns, test_now_ns());
	atomic_store(&h->out, 1); /* before the unlock: nobody may see the unlock's effect without it */
	srcu_read_unlock(h->ssp, h->idx);
	if (registered) {
		rcu_quiescent_state();
		rcu_unregister_thread();
	}
	return NULL;
}

/* Start a holder of ssp and return once it is inside its section. */
static inline void holder_start(struct holder *h, struct srcu_struct *ssp, enum holder_kind kind, long sleep_us)
{
	h->ssp = ssp;
	h->kind = kind;
	h->sleep_us = sleep_us;
	atomic_store(&h->in, 0);
	atomic_store(&h->release, 0);
	atomic_store(&h->out, 0);
	atomic_store(&h->out_ns, 0);
	cr_assert_eq(pthread_create(&h->thread, NULL, holder_main, h), 0);
	cr_assert(test_wait_flag(&h->in, TEST_LIVENESS_MS), "the holder did not enter its section");
}

static inline void holder_stop(struct holder *h)
{
	atomic_store(&h->release, 1);
	pthread_join(h->thread, NULL);
}

/* ---- asynchronous waits ------------------------------------------------------------------------ */

enum async_kind { ASYNC_SYNC_SRCU, ASYNC_SYNC_RCU, ASYNC_SRCU_BARRIER, ASYNC_RCU_BARRIER };

struct async_op {
	enum async_kind kind;
	struct srcu_struct *ssp;
	pthread_t thread;
	_Atomic int calling, returned;
	_Atomic uint64_t start_ns, end_ns;
};

static inline void *async_main(void *arg)
{
	struct async_op *a = arg;
	atomic_store(&a->start_ns, test_now_ns());
	atomic_store_explicit(&a->calling, 1, memory_order_release);
	switch (a->kind) {
	case ASYNC_SYNC_SRCU:
		synchronize_srcu(a->ssp);
		break;
	case ASYNC_SYNC_RCU:
		synchronize_rcu();
		break;
	case ASYNC_SRCU_BARRIER:
		srcu_barrier(a->ssp);
		break;
	case ASYNC_RCU_BARRIER:
		rcu_barrier();
		break;
	}
	atomic_store(&a->end_ns, test_now_ns());
	atomic_store_explicit(&a->returned, 1, memory_order_release);
	return NULL;
}

/* Start it from an unregistered thread, wait until it is about to call, then settle_us more. */
static inline void async_start(struct async_op *a, enum async_kind kind, struct srcu_struct *ssp, long settle_us)
{
	a->kind = kind;
	a->ssp = ssp;
	atomic_store(&a->calling, 0);
	atomic_store(&a->returned, 0);
	cr_assert_eq(pthread_create(&a->thread, NULL, async_main, a), 0);
	cr_assert(test_wait_flag(&a->calling, TEST_LIVENESS_MS));
	if (settle_us > 0)
		test_sleep_us(settle_us);
}

static inline double async_ms(struct async_op *a)
{
	return (double)(atomic_load(&a->end_ns) - atomic_load(&a->start_ns)) / 1e6;
}

/* ---- a spinning barrier (see test/grace_period.c) ---------------------------------------------- */

struct spin_barrier {
	_Atomic unsigned arrived;
	_Atomic unsigned generation;
	_Atomic unsigned sleepers;
	unsigned parties;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

#define SPIN_BARRIER_INIT(n) \
	{ .parties = (n), .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER }

static inline void spin_barrier_wait(struct spin_barrier *b)
{
	unsigned gen = atomic_load(&b->generation);
	if (atomic_fetch_add(&b->arrived, 1) + 1 == b->parties) {
		atomic_store(&b->arrived, 0);
		atomic_store(&b->generation, gen + 1);
		if (atomic_load(&b->sleepers)) {
			pthread_mutex_lock(&b->lock);
			pthread_cond_broadcast(&b->cond);
			pthread_mutex_unlock(&b->lock);
		}
		return;
	}
	for (unsigned i = 0; i < 20000; i++)
		if (atomic_load_explicit(&b->generation, memory_order_acquire) != gen)
			return;
	atomic_fetch_add(&b->sleepers, 1);
	pthread_mutex_lock(&b->lock);
	while (atomic_load(&b->generation) == gen)
		pthread_cond_wait(&b->cond, &b->lock);
	pthread_mutex_unlock(&b->lock);
	atomic_fetch_sub(&b->sleepers, 1);
}

/* Pin the calling thread to the nth allowed CPU (if there are two or more). */
static inline void pin_to_nth_cpu(int nth)
{
	cpu_set_t allowed;
	if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 || CPU_COUNT(&allowed) < 2)
		return;
	int k = nth % CPU_COUNT(&allowed);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (CPU_ISSET(cpu, &allowed) && k-- == 0) {
			cpu_set_t one;
			CPU_ZERO(&one);
			CPU_SET(cpu, &one);
			pthread_setaffinity_np(pthread_self(), sizeof one, &one);
			return;
		}
	}
}

#endif /* RCU_TEST_SRCU_HELPERS_H */
