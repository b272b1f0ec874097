/* SPDX-License-Identifier: 0BSD */
/*
 * test/port/liburcu_poll.c: liburcu's polled grace periods (liburcu 0.14 and later), in its
 * classic API and in the flavour-prefixed one: start_poll_synchronize_rcu() returns a
 * struct urcu_gp_poll_state, which poll_state_synchronize_rcu() takes. An updater unpublishes
 * a buffer, starts a grace period, does other work while a reader still holds the old buffer, and
 * frees it once the poll says the grace period has passed (never while the reader is inside).
 *
 * Unchanged liburcu code: the port is the build's -I compat/liburcu (test/port/meson.build), and
 * the same file is built against a liburcu with polled grace periods as the control
 * (PORT_LIBURCU). Valid C and C++; exits 0 when every check passes.
 */
#if defined(RCU_FLAVOUR_QSBR)
#include <urcu-qsbr.h>
#elif defined(RCU_FLAVOUR_BP)
#include <urcu-bp.h>
#elif defined(RCU_FLAVOUR_MB)
#define RCU_MB
#include <urcu.h>
#else
#include <urcu.h>
#endif

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "port_check.h"

static int *buffer; /* RCU-protected */
static int inside, release_reader;

static void *reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	int *b = rcu_dereference(buffer);
	__atomic_store_n(&inside, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&release_reader, __ATOMIC_ACQUIRE))
		usleep(1000);
	CHECK(b[0] == 42); /* still ours: the updater may not have freed it */
	rcu_read_unlock();
	rcu_unregister_thread();
	return NULL;
}

/* Poll until the grace period of `state` has passed; count the polls. */
static int wait_polling(struct urcu_gp_poll_state state)
{
	int polls = 0;
	while (!poll_state_synchronize_rcu(state)) {
		usleep(1000);
		CHECK(++polls < 10000);
	}
	return polls;
}

int main(void)
{
	pthread_t t;
	rcu_register_thread();
	buffer = (int *)malloc(16 * sizeof(int));
	CHECK(buffer != NULL);
	buffer[0] = 42;
	CHECK(pthread_create(&t, NULL, reader, NULL) == 0);
	while (!__atomic_load_n(&inside, __ATOMIC_ACQUIRE))
		usleep(1000);

	/* Classic names. */
	int *old = rcu_xchg_pointer(&buffer, NULL);
	struct urcu_gp_poll_state state = start_poll_synchronize_rcu();
	rcu_thread_offline(); /* QSBR: this thread must not hold up the grace period it polls */
	usleep(20000);
	CHECK(!poll_state_synchronize_rcu(state)); /* the reader is still inside */
	__atomic_store_n(&release_reader, 1, __ATOMIC_RELEASE);
	int polls = wait_polling(state);
	pthread_join(t, NULL);
	rcu_thread_online();
	free(old);

	/* The flavour-prefixed names, as liburcu's documentation spells them. */
#if defined(RCU_FLAVOUR_QSBR)
	state = urcu_qsbr_start_poll_synchronize_rcu();
	urcu_qsbr_thread_offline();
	while (!urcu_qsbr_poll_state_synchronize_rcu(state))
		usleep(1000);
	urcu_qsbr_thread_online();
#elif defined(RCU_FLAVOUR_BP)
	state = urcu_bp_start_poll_synchronize_rcu();
	while (!urcu_bp_poll_state_synchronize_rcu(state))
		usleep(1000);
#elif defined(RCU_FLAVOUR_MB)
	state = urcu_mb_start_poll_synchronize_rcu();
	while (!urcu_mb_poll_state_synchronize_rcu(state))
		usleep(1000);
#else
	state = urcu_memb_start_poll_synchronize_rcu();
	while (!urcu_memb_poll_state_synchronize_rcu(state))
		usleep(1000);
#endif

	/*
	 * liburcu 0.15's other addition beside polling: the optional memory order of uatomic. Not
	 * in the liburcu control: its `mo...` macros rely on GNU comma elision, and under -std=c11
	 * (this file's) liburcu's uatomic_inc(&c, CMM_RELEASE) turned 7 into 1, not 8 (gnu11: 8).
	 */
#if !defined(PORT_LIBURCU)
	unsigned long counter = 7;
	uatomic_inc(&counter, CMM_RELEASE);
	uatomic_inc(&counter);
	uatomic_dec(&counter, CMM_ACQ_REL);
	uatomic_add(&counter, 5, CMM_RELAXED);
	uatomic_store(&counter, uatomic_load(&counter, CMM_ACQUIRE) + 1, CMM_RELEASE);
	CHECK(uatomic_read(&counter) == 14);
#endif

	rcu_unregister_thread();
	printf("liburcu_poll: the grace period passed after %d polls\n", polls);
	return 0;
}
