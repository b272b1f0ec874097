/* SPDX-License-Identifier: 0BSD */
/*
 * test/port/liburcu_list.c: a program written for liburcu's classic API (the unprefixed names
 * that <urcu.h>, <urcu-qsbr.h> and <urcu-bp.h> map to the flavour, and urcu/rculist.h), in the
 * style of liburcu's documentation examples: a registry of services kept on an RCU list, read by
 * worker threads while an updater adds, replaces and removes entries and publishes a
 * configuration pointer declared as liburcu declares it (a plain `struct config *`).
 *
 * The file is unchanged liburcu code: the port is the build's -I compat/liburcu
 * (test/port/meson.build), which makes its includes find rcu.h's; the same file is built against
 * liburcu as well (the control), so that it is known to be liburcu code and its checks hold under
 * liburcu's semantics. Valid C and C++; exits 0 when every check passes.
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
#include <urcu/rculist.h>
#include <urcu/compiler.h>

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "port_check.h"

struct service {
	uint64_t id;
	uint64_t version;
	uint64_t check;                 /* id * 1000 + version while live; 0 once reclaimed */
	struct cds_list_head node;
	struct rcu_head rcu_head;
};

struct config {
	int generation;
	int workers;                    /* == generation * 2 while live */
};

static CDS_LIST_HEAD(services);
static pthread_mutex_t services_lock = PTHREAD_MUTEX_INITIALIZER;
static struct config *current_config; /* RCU-protected, as liburcu programs declare it */

static int stop;
static long reclaimed_services, reclaimed_configs, bad_reads, good_reads;

static struct service *service_new(uint64_t id, uint64_t version)
{
	struct service *s = (struct service *)calloc(1, sizeof(*s));
	CHECK(s != NULL);
	s->id = id;
	s->version = version;
	s->check = id * 1000 + version;
	return s;
}

static void service_free_rcu(struct rcu_head *head)
{
	struct service *s = caa_container_of(head, struct service, rcu_head);
	s->check = 0;
	free(s);
	__atomic_fetch_add(&reclaimed_services, 1, __ATOMIC_RELAXED);
}

static void config_free(void *p)
{
	struct config *c = (struct config *)p;
	c->workers = -1;
	free(c);
	__atomic_fetch_add(&reclaimed_configs, 1, __ATOMIC_RELAXED);
}

static void *worker(void *arg)
{
	(void)arg;
	rcu_register_thread();
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		struct service *s;
		struct cds_list_head *pos;
		uint64_t last = 0;
		int n = 0;

		rcu_read_lock();
		cds_list_for_each_entry_rcu(s, &services, node) {
			if (s->check != s->id * 1000 + s->version || s->id <= last)
				__atomic_fetch_add(&bad_reads, 1, __ATOMIC_RELAXED);
			last = s->id;
			n++;
		}
		cds_list_for_each_rcu(pos, &services) {
			s = cds_list_entry(pos, struct service, node);
			if (s->check == 0)
				__atomic_fetch_add(&bad_reads, 1, __ATOMIC_RELAXED);
			n--;
		}
		struct config *c = rcu_dereference(current_config);
		if (c && c->workers != c->generation * 2)
			__atomic_fetch_add(&bad_reads, 1, __ATOMIC_RELAXED);
		rcu_read_unlock();
		(void)n; /* the two walks may see different lists: the updater runs */
		__atomic_fetch_add(&good_reads, 1, __ATOMIC_RELAXED);
		rcu_quiescent_state();
	}
	rcu_unregister_thread();
	return NULL;
}

/* Publish a new configuration; the old one is freed after a grace period (defer_rcu). */
static void config_publish(int generation)
{
	struct config *c = (struct config *)malloc(sizeof(*c));
	CHECK(c != NULL);
	c->generation = generation;
	c->workers = generation * 2;
	struct config *old = rcu_xchg_pointer(&current_config, c);
	if (old)
		defer_rcu(config_free, old);
}

int main(void)
{
	static const uint64_t initial[] = { 10, 20, 30, 40, 50 };
	pthread_t workers[2];
	unsigned int i;
	long removed = 0, configs = 0;

	rcu_register_thread();
	rcu_defer_register_thread();
	for (i = 0; i < CAA_ARRAY_SIZE(initial); i++)
		cds_list_add_tail_rcu(&service_new(initial[i], 1)->node, &services);
	config_publish(1);
	configs++;
	for (i = 0; i < CAA_ARRAY_SIZE(workers); i++)
		CHECK(pthread_create(&workers[i], NULL, worker, NULL) == 0);

	for (uint64_t round = 2; round < 300; round++) {
		struct service *s, *n;
		pthread_mutex_lock(&services_lock);
		/* Replace every entry by its next version; remove one in seven; keep ids sorted. */
		cds_list_for_each_entry_safe(s, n, &services, node) {
			if ((s->id + round) % 7 == 0 && s->id > 50) {
				cds_list_del_rcu(&s->node);
				call_rcu(&s->rcu_head, service_free_rcu);
				removed++;
				continue;
			}
			struct service *repl = service_new(s->id, round);
			cds_list_replace_rcu(&s->node, &repl->node);
			call_rcu(&s->rcu_head, service_free_rcu);
			removed++;
		}
		/* A new service after the last (ids grow); and one before the first, sometimes. */
		cds_list_add_tail_rcu(&service_new(100 + round, round)->node, &services);
		pthread_mutex_unlock(&services_lock);
		if (round % 10 == 0) {
			config_publish((int)round);
			configs++;
		}
		if (round % 50 == 0)
			synchronize_rcu();
		rcu_quiescent_state();
	}

	while (__atomic_load_n(&good_reads, __ATOMIC_RELAXED) < 20) /* the workers did read */
		sched_yield();
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	rcu_thread_offline();
	for (i = 0; i < CAA_ARRAY_SIZE(workers); i++)
		pthread_join(workers[i], NULL);
	rcu_thread_online();

	/* Every removed entry and every replaced configuration is reclaimed, once. */
	struct config *last = rcu_xchg_pointer(&current_config, NULL);
	CHECK(last != NULL && last->workers == last->generation * 2);
	defer_rcu(config_free, last);
	rcu_barrier();
	rcu_defer_barrier();
	CHECK(__atomic_load_n(&reclaimed_services, __ATOMIC_RELAXED) == removed);
	CHECK(__atomic_load_n(&reclaimed_configs, __ATOMIC_RELAXED) == configs);
	CHECK(bad_reads == 0);
	CHECK(good_reads > 0);

	/* The list as the updates left it: 10..50 at their last version, then 102..299 minus the
	 * removed ones, in order (add_tail appends, replace keeps the place). */
	uint64_t prev = 0;
	long left = 0;
	struct service *s, *n;
	cds_list_for_each_entry(s, &services, node) {
		CHECK(s->id > prev);
		CHECK(s->version == 299); /* replaced, or added, in the last round */
		prev = s->id;
		left++;
	}
	CHECK(left > 5 && !cds_list_empty(&services));
	cds_list_for_each_entry_safe(s, n, &services, node) {
		cds_list_del(&s->node);
		free(s);
	}
	CHECK(cds_list_empty(&services));

	rcu_defer_unregister_thread();
	rcu_unregister_thread();
	printf("liburcu_list: %ld updates reclaimed, %ld configurations, %ld reads\n", removed, configs, good_reads);
	return 0;
}
