/* SPDX-License-Identifier: 0BSD */
/*
 * examples/remove_call_rcu.c: removal without waiting. remove_gp_call_rcu() unpublishes the
 * current struct foo and hands it to call_rcu(); the callback runs after a grace period, when no
 * reader can hold the foo any more, and poisons and frees it. The updater never blocks, so it may
 * even remove from inside a read-side section (the read-to-write upgrade; see upgrade_and_remove()).
 * rcu_barrier() before exit waits for the callbacks still queued, so every foo is freed.
 */
#include "rcu.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define READERS 2
#define ROUNDS 20000

struct foo {
	int a;
	int b;                  /* always 2 * a while published */
	struct rcu_head rcu;
};

static struct foo *_Atomic gp = RCU_INITIALIZER(NULL);
static pthread_mutex_t gp_lock = PTHREAD_MUTEX_INITIALIZER;

static _Atomic long freed, bad;
static _Atomic bool done;
static _Atomic int readers_started;
static _Atomic long seen;

static void foo_reclaim(struct rcu_head *head)
{
	struct foo *p = rcu_container_of(head, struct foo, rcu);
	p->a = -1;              /* poison before free: a late reader would see b != 2 * a */
	p->b = 1;
	free(p);
	atomic_fetch_add_explicit(&freed, 1, memory_order_relaxed);
}

static bool add_gp(int a)
{
	struct foo *p = malloc(sizeof *p);
	if (!p)
		return false;
	p->a = a;
	p->b = 2 * a;
	pthread_mutex_lock(&gp_lock);
	struct foo *old = rcu_access_pointer(gp);
	if (!old)
		rcu_assign_pointer(gp, p);
	pthread_mutex_unlock(&gp_lock);
	if (old)
		free(p);        /* never published */
	return !old;
}

static bool remove_gp_call_rcu(void)
{
	pthread_mutex_lock(&gp_lock);
	struct foo *p = rcu_access_pointer(gp);
	if (p)
		rcu_assign_pointer(gp, NULL);
	pthread_mutex_unlock(&gp_lock);
	if (!p)
		return false;
	call_rcu(&p->rcu, foo_reclaim);  /* returns at once; foo_reclaim(p) after a grace period */
	return true;
}

/* Look gp up as a reader, and remove it if it is odd, without leaving the section. */
static bool upgrade_and_remove(void)
{
	bool removed = false;
	rcu_read_lock();
	struct foo *p = rcu_dereference(gp);
	if (p && p->a % 2 == 1) {
		pthread_mutex_lock(&gp_lock);
		if (rcu_access_pointer(gp) == p) {
			rcu_assign_pointer(gp, NULL);
			call_rcu(&p->rcu, foo_reclaim);
			removed = true;
		}
		pthread_mutex_unlock(&gp_lock);
	}
	rcu_read_unlock();
	return removed;
}

static void *reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	atomic_fetch_add_explicit(&readers_started, 1, memory_order_relaxed);
	while (!atomic_load_explicit(&done, memory_order_relaxed)) {
		rcu_read_lock();
		struct foo *p = rcu_dereference(gp);
		if (p)
			atomic_fetch_add_explicit(&seen, 1, memory_order_relaxed);
		if (p && p->b != 2 * p->a) {
			atomic_fetch_add_explicit(&bad, 1, memory_order_relaxed);
			fprintf(stderr, "remove_call_rcu: reader saw a = %d, b = %d\n", p->a, p->b);
		}
		rcu_read_unlock();
		rcu_quiescent_state();
	}
	rcu_unregister_thread();
	return NULL;
}

int main(void)
{
	pthread_t t[READERS];
	long added = 0;
	int rc = 0;
	for (int i = 0; i < READERS; i++)
		if (pthread_create(&t[i], NULL, reader, NULL) != 0)
			return 1;
	while (atomic_load_explicit(&readers_started, memory_order_relaxed) < READERS)
		sched_yield();
	rcu_register_thread();  /* main reads too, in upgrade_and_remove() */
	for (int i = 1; i <= ROUNDS; i++) {
		long before = atomic_load_explicit(&seen, memory_order_relaxed);
		if (!add_gp(i))
			rc = 1, fprintf(stderr, "remove_call_rcu: add_gp() found gp taken\n");
		added++;
		for (int spin = 0; spin < 1000 && atomic_load_explicit(&seen, memory_order_relaxed) == before; spin++)
			;       /* let a reader find it (a little while at most) */
		bool removed = upgrade_and_remove();
		if (removed != (i % 2 == 1))
			rc = 1, fprintf(stderr, "remove_call_rcu: upgrade removed %d for a = %d\n", removed, i);
		if (!removed && !remove_gp_call_rcu())
			rc = 1, fprintf(stderr, "remove_call_rcu: nothing to remove\n");
		rcu_quiescent_state();  /* QSBR: lets the callbacks' grace periods end */
	}
	rcu_unregister_thread();
	atomic_store_explicit(&done, true, memory_order_relaxed);
	for (int i = 0; i < READERS; i++)
		pthread_join(t[i], NULL);
	rcu_barrier();          /* every callback queued above has run */
	long f = atomic_load_explicit(&freed, memory_order_relaxed);
	long b = atomic_load_explicit(&bad, memory_order_relaxed);
	if (f != added)
		rc = 1, fprintf(stderr, "remove_call_rcu: %ld of %ld foos freed after rcu_barrier()\n", f, added);
	printf("remove_call_rcu: %ld foos published and freed through call_rcu; readers saw one %ld "
		"times; %ld bad reads\n", f, atomic_load_explicit(&seen, memory_order_relaxed), b);
	return rc == 0 && b == 0 ? 0 : 1;
}
