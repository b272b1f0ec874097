/* SPDX-License-Identifier: 0BSD */
/*
 * examples/add_remove_gp.c: publish-subscribe from McKenney's "Requirements for RCU". add_gp()
 * initialises a struct foo and publishes it with rcu_assign_pointer(); do_something_gp() picks it
 * up with rcu_dereference() inside a read-side section; remove_gp_synchronous() unpublishes it,
 * waits for a grace period and frees it. Readers therefore never see an uninitialised or a freed
 * foo. The program checks both: every foo has b == 2 * a, and a removed foo is poisoned (a = -1,
 * b = 1) before it is freed.
 */
#include "rcu.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define READERS 1
#define ROUNDS 300

struct foo {
	int a;
	int b;
};

static struct foo *_Atomic gp = RCU_INITIALIZER(NULL);
static pthread_mutex_t gp_lock = PTHREAD_MUTEX_INITIALIZER;

static _Atomic long seen, missed, bad;
static _Atomic bool done;
static _Atomic int readers_started;

static bool add_gp(int a, int b)
{
	struct foo *p = malloc(sizeof *p);
	if (!p)
		return false;
	pthread_mutex_lock(&gp_lock);
	if (rcu_access_pointer(gp)) {
		pthread_mutex_unlock(&gp_lock);
		free(p);
		return false;
	}
	p->a = a;
	p->b = b;
	rcu_assign_pointer(gp, p);  /* the stores to p->a and p->b happen before this one */
	pthread_mutex_unlock(&gp_lock);
	return true;
}

static bool remove_gp_synchronous(void)
{
	struct foo *p;

	pthread_mutex_lock(&gp_lock);
	p = rcu_access_pointer(gp);
	if (!p) {
		pthread_mutex_unlock(&gp_lock);
		return false;
	}
	rcu_assign_pointer(gp, NULL);
	pthread_mutex_unlock(&gp_lock);
	synchronize_rcu();          /* every reader that could hold p has finished */
	p->a = -1;                  /* poison: a reader that still saw p would notice */
	p->b = 1;
	free(p);
	return true;
}

static void do_something(int a, int b)
{
	if (b != 2 * a) {
		atomic_fetch_add_explicit(&bad, 1, memory_order_relaxed);
		fprintf(stderr, "add_remove_gp: reader saw a foo with a = %d, b = %d\n", a, b);
	}
}

static bool do_something_gp(void)
{
	struct foo *p;

	rcu_read_lock();
	p = rcu_dereference(gp);
	if (p) {
		do_something(p->a, p->b);
		rcu_read_unlock();
		return true;
	}
	rcu_read_unlock();
	return false;
}

static void *reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	atomic_fetch_add_explicit(&readers_started, 1, memory_order_relaxed);
	while (!atomic_load_explicit(&done, memory_order_relaxed)) {
		if (do_something_gp())
			atomic_fetch_add_explicit(&seen, 1, memory_order_relaxed);
		else
			atomic_fetch_add_explicit(&missed, 1, memory_order_relaxed);
		rcu_quiescent_state();
	}
	rcu_unregister_thread();
	return NULL;
}

int main(void)
{
	pthread_t t[READERS];
	int rc = 0;
	for (int i = 0; i < READERS; i++)
		if (pthread_create(&t[i], NULL, reader, NULL) != 0)
			return 1;
	while (atomic_load_explicit(&readers_started, memory_order_relaxed) < READERS)
		sched_yield();
	for (int i = 1; i <= ROUNDS && rc == 0; i++) {
		long before = atomic_load_explicit(&seen, memory_order_relaxed);
		if (!add_gp(i, 2 * i))
			rc = 1, fprintf(stderr, "add_remove_gp: add_gp() failed on an empty gp\n");
		/* Leave the foo up until some reader found it (or a while), so that readers race
		 * with the removal below. */
		for (int spin = 0; spin < 2000 && atomic_load_explicit(&seen, memory_order_relaxed) == before; spin++)
			sched_yield();
		if (add_gp(0, 0))
			rc = 1, fprintf(stderr, "add_remove_gp: add_gp() replaced a published foo\n");
		if (!remove_gp_synchronous())
			rc = 1, fprintf(stderr, "add_remove_gp: remove_gp_synchronous() found nothing\n");
	}
	if (remove_gp_synchronous())
		rc = 1, fprintf(stderr, "add_remove_gp: gp not empty at the end\n");
	atomic_store_explicit(&done, true, memory_order_relaxed);
	for (int i = 0; i < READERS; i++)
		pthread_join(t[i], NULL);
	long b = atomic_load_explicit(&bad, memory_order_relaxed);
	printf("add_remove_gp: %d rounds, readers found a foo %ld times and none %ld times; %ld bad\n",
		ROUNDS, atomic_load_explicit(&seen, memory_order_relaxed),
		atomic_load_explicit(&missed, memory_order_relaxed), b);
	return rc == 0 && b == 0 ? 0 : 1;
}
