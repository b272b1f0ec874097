/* SPDX-License-Identifier: 0BSD */
/*
 * examples/gp_guarantee.c: the grace-period guarantee of McKenney's "Requirements for RCU", as a
 * program. thread1() stores x, waits for a grace period, stores y; thread0() reads x then y inside
 * one read-side section. A section that missed the store to x began before synchronize_rcu() did,
 * so it ends before the store to y: the outcome (r1 == 0 && r2 == 1) cannot happen.
 *
 * To run many rounds without resetting x and y, round k stores k in both, so a round's "0" is any
 * value below k: the forbidden outcome becomes r2 > r1 (the section saw round k's y but not its x).
 */
#include "rcu.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 2000

static _Atomic long x, y;      /* READ_ONCE / WRITE_ONCE are relaxed atomics */
static _Atomic bool done, reader_started;
static _Atomic long sections, violations;

static void thread0(void)
{
	rcu_read_lock();
	long r1 = atomic_load_explicit(&x, memory_order_relaxed);
	for (volatile int i = 0; i < 50; i++)   /* stay in the section a little while */
		;
	long r2 = atomic_load_explicit(&y, memory_order_relaxed);
	rcu_read_unlock();
	if (r2 > r1) {
		atomic_fetch_add_explicit(&violations, 1, memory_order_relaxed);
		fprintf(stderr, "gp_guarantee: section read x == %ld but y == %ld\n", r1, r2);
	}
	atomic_fetch_add_explicit(&sections, 1, memory_order_relaxed);
}

static void thread1(long round)
{
	atomic_store_explicit(&x, round, memory_order_relaxed);
	synchronize_rcu();
	atomic_store_explicit(&y, round, memory_order_relaxed);
}

static void *reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	atomic_store_explicit(&reader_started, true, memory_order_relaxed);
	while (!atomic_load_explicit(&done, memory_order_relaxed)) {
		thread0();
		rcu_quiescent_state();  /* QSBR: between sections; no-op elsewhere */
	}
	rcu_unregister_thread();
	return NULL;
}

int main(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, reader, NULL) != 0)
		return 1;
	while (!atomic_load_explicit(&reader_started, memory_order_relaxed))
		sched_yield();
	for (long k = 1; k <= ROUNDS; k++)
		thread1(k);
	atomic_store_explicit(&done, true, memory_order_relaxed);
	pthread_join(t, NULL);
	long v = atomic_load_explicit(&violations, memory_order_relaxed);
	printf("gp_guarantee: %d grace periods, %ld read-side sections, %ld violations\n", ROUNDS,
		atomic_load_explicit(&sections, memory_order_relaxed), v);
	return v == 0 ? 0 : 1;
}
