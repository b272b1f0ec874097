/* SPDX-License-Identifier: 0BSD */
/*
 * examples/dlm_recovery.c: the distributed lock manager's recovery state machine from McKenney's
 * "Requirements for RCU". Readers run do_something_dlm(): a read-side section that looks at the
 * state and does the normal operation only in STATE_NORMAL. start_recovery() moves the state to
 * WANT_RECOVERY, waits for a grace period (every section that saw NORMAL has ended), recovers,
 * moves to WANT_NORMAL and waits again before NORMAL. So do_something() never runs concurrently
 * with recovery(), without the readers taking any lock.
 *
 * The program checks that: both sides announce themselves in a counter and each checks the
 * other's (seq_cst on both sides, so an overlap is seen by at least one of them).
 */
#include "rcu.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#define STATE_NORMAL        0
#define STATE_WANT_RECOVERY 1
#define STATE_RECOVERING    2
#define STATE_WANT_NORMAL   3

#define READERS 2
#define RECOVERIES 200

static _Atomic int state = STATE_NORMAL;

/* The checking machinery, not part of the pattern. */
static _Atomic int normal_running, recovery_running;
static _Atomic long normal_ops, careful_ops, overlaps;
static _Atomic bool done;
static _Atomic int readers_started;

static void check_no_recovery(void)
{
	if (atomic_load_explicit(&recovery_running, memory_order_seq_cst)) {
		atomic_fetch_add_explicit(&overlaps, 1, memory_order_relaxed);
		fprintf(stderr, "dlm_recovery: do_something() ran during recovery()\n");
	}
}

static void do_something(void)
{
	atomic_fetch_add_explicit(&normal_running, 1, memory_order_seq_cst);
	check_no_recovery();
	for (volatile int i = 0; i < 100; i++)
		;
	check_no_recovery();
	atomic_fetch_sub_explicit(&normal_running, 1, memory_order_seq_cst);
	atomic_fetch_add_explicit(&normal_ops, 1, memory_order_relaxed);
}

static void do_something_carefully(void)
{
	atomic_fetch_add_explicit(&careful_ops, 1, memory_order_relaxed);
}

static void recovery(void)
{
	atomic_store_explicit(&recovery_running, 1, memory_order_seq_cst);
	for (int pass = 0; pass < 2; pass++) {
		if (atomic_load_explicit(&normal_running, memory_order_seq_cst)) {
			atomic_fetch_add_explicit(&overlaps, 1, memory_order_relaxed);
			fprintf(stderr, "dlm_recovery: recovery() ran during do_something()\n");
		}
		for (volatile int i = 0; i < 1000; i++)
			;
	}
	atomic_store_explicit(&recovery_running, 0, memory_order_seq_cst);
}

static void do_something_dlm(void)
{
	int state_snap;

	rcu_read_lock();
	state_snap = atomic_load_explicit(&state, memory_order_relaxed);
	if (state_snap == STATE_NORMAL)
		do_something();
	else
		do_something_carefully();
	rcu_read_unlock();
}

static void start_recovery(void)
{
	atomic_store_explicit(&state, STATE_WANT_RECOVERY, memory_order_relaxed);
	synchronize_rcu();
	atomic_store_explicit(&state, STATE_RECOVERING, memory_order_relaxed);
	recovery();
	atomic_store_explicit(&state, STATE_WANT_NORMAL, memory_order_relaxed);
	synchronize_rcu();  /* without it, the end of recovery() could overlap a NORMAL reader */
	atomic_store_explicit(&state, STATE_NORMAL, memory_order_relaxed);
}

static void *reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	atomic_fetch_add_explicit(&readers_started, 1, memory_order_relaxed);
	while (!atomic_load_explicit(&done, memory_order_relaxed)) {
		do_something_dlm();
		rcu_quiescent_state();
	}
	rcu_unregister_thread();
	return NULL;
}

int main(void)
{
	pthread_t t[READERS];
	for (int i = 0; i < READERS; i++)
		if (pthread_create(&t[i], NULL, reader, NULL) != 0)
			return 1;
	while (atomic_load_explicit(&readers_started, memory_order_relaxed) < READERS)
		sched_yield();
	for (int i = 0; i < RECOVERIES; i++) {
		long before = atomic_load_explicit(&normal_ops, memory_order_relaxed);
		start_recovery();
		/* Normal service for a while: until a reader has done a normal operation (or a bound). */
		for (int spin = 0; spin < 10000 &&
		     atomic_load_explicit(&normal_ops, memory_order_relaxed) == before; spin++)
			sched_yield();
	}
	atomic_store_explicit(&done, true, memory_order_relaxed);
	for (int i = 0; i < READERS; i++)
		pthread_join(t[i], NULL);
	long bad = atomic_load_explicit(&overlaps, memory_order_relaxed);
	printf("dlm_recovery: %d recoveries, %ld normal and %ld careful operations, %ld overlaps\n",
		RECOVERIES, atomic_load_explicit(&normal_ops, memory_order_relaxed),
		atomic_load_explicit(&careful_ops, memory_order_relaxed), bad);
	return bad == 0 ? 0 : 1;
}
