/* SPDX-License-Identifier: 0BSD */
/*
 * bench/check_call_rcu_in_section.c: found while measuring peak RSS with 10^6 callbacks pending.
 * call_rcu() may be called inside a read-side section, and a section must protect what it
 * dereferenced until rcu_read_unlock(). Above RCU_CALLBACK_HIGH_WATER pending callbacks a
 * call_rcu() caller "outside a section" helps reclaim, which in QSBR takes it offline, a
 * quiescent state. Built once per flavour (-DRCU_FLAVOUR_*): a reader takes a reference, an
 * updater unlinks the object and marks it reclaimed after synchronize_rcu(); the reader then
 * queues more than the high water of callbacks and checks, still inside its section, that the
 * object was not reclaimed under it. Exit status 1 when it was.
 */
#include "rcu.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CALLS (RCU_CALLBACK_HIGH_WATER * 5)

struct obj {
	_Atomic int reclaimed;
};

static struct obj first, second;
static struct obj *_Atomic current = RCU_INITIALIZER(&first);
static atomic_int have_ref, swapped;
static struct rcu_head heads[CALLS];

static void nothing(struct rcu_head *h)
{
	(void)h;
}

static void *updater(void *arg)
{
	(void)arg;
	while (!atomic_load(&have_ref))
		;
	struct obj *old = rcu_xchg_pointer(&current, &second);
	atomic_store(&swapped, 1);
	synchronize_rcu(); /* must wait for the reader's section, which holds old */
	atomic_store(&old->reclaimed, 1);
	return NULL;
}

int main(void)
{
	rcu_register_thread();
	pthread_t t;
	if (pthread_create(&t, NULL, updater, NULL) != 0)
		return 2;
	rcu_read_lock();
	struct obj *p = rcu_dereference(current);
	atomic_store(&have_ref, 1);
	while (!atomic_load(&swapped)) /* the updater is about to wait for this section */
		;
	struct timespec pause = { 0, 2000000 }; /* let its synchronize_rcu() begin */
	nanosleep(&pause, NULL);
	for (int i = 0; i < CALLS; i++)
		call_rcu(&heads[i], nothing);
	int bad = atomic_load(&p->reclaimed);
	rcu_read_unlock();
	rcu_thread_offline();
	pthread_join(t, NULL);
	rcu_thread_online();
	rcu_thread_offline();
	rcu_barrier();
	rcu_thread_online();
	rcu_unregister_thread();
	if (bad)
		printf("FAIL: %d call_rcu() inside rcu_read_lock() ended the section: synchronize_rcu() "
			"returned and the object was reclaimed before rcu_read_unlock()\n", CALLS);
	else
		printf("ok: the object outlived the section\n");
	return bad;
}
