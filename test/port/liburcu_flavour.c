/* SPDX-License-Identifier: 0BSD */
/*
 * test/port/liburcu_flavour.c: programs written for liburcu's flavour-prefixed API
 * (urcu_<flavour>_*, the API liburcu's documentation and examples use since 0.11), one per
 * flavour, in the style of liburcu's doc/examples/urcu-flavors: a reader thread looks a value up
 * in an RCU list and through an RCU pointer while the main thread replaces both, frees the old
 * versions with urcu_<flavour>_call_rcu(), and waits with urcu_<flavour>_synchronize_rcu() and
 * urcu_<flavour>_barrier(). Each program uses only its own flavour's names, as a real one does;
 * the flavour of the build (RCU_FLAVOUR_*) picks which of the four is compiled.
 *
 * Unchanged liburcu code: the port is the build's -I compat/liburcu (test/port/meson.build), and
 * the same file is built against liburcu as the control.
 * Valid C and C++; exits 0 when every check passes.
 */
#if defined(RCU_FLAVOUR_QSBR)
#include <urcu/urcu-qsbr.h> /* QSBR RCU flavor */
#elif defined(RCU_FLAVOUR_BP)
#include <urcu/urcu-bp.h> /* Bulletproof RCU flavor */
#elif defined(RCU_FLAVOUR_MB)
#include <urcu/urcu-mb.h> /* Memory barrier RCU flavor */
#else
#include <urcu/urcu-memb.h> /* sys_membarrier() RCU flavor */
#endif
#include <urcu/rculist.h>  /* RCU list */
#include <urcu/compiler.h> /* For CAA_ARRAY_SIZE */

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "port_check.h"

static CDS_LIST_HEAD(mylist);

struct mynode {
	uint64_t value;
	uint64_t twice;                 /* 2 * value while live */
	struct cds_list_head node;      /* linked-list chaining */
	struct rcu_head rcu_head;       /* for call_rcu() */
};

static struct mynode *current_node; /* RCU-protected */
static int stop, reads, bad;
static int freed;

static struct mynode *node_new(uint64_t v)
{
	struct mynode *node = (struct mynode *)calloc(1, sizeof(*node));
	CHECK(node != NULL);
	node->value = v;
	node->twice = 2 * v;
	return node;
}

static void rcu_free_node(struct rcu_head *rh)
{
	struct mynode *node = caa_container_of(rh, struct mynode, rcu_head);
	node->twice = 1; /* never 2 * value: a reader that sees it read a reclaimed node */
	free(node);
	__atomic_fetch_add(&freed, 1, __ATOMIC_RELAXED);
}

/* What a reader checks of each node it reaches. */
static void check_node(const struct mynode *node)
{
	if (node->twice != 2 * node->value)
		__atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
}

static void wait_for_readers_to_read(void)
{
	while (__atomic_load_n(&reads, __ATOMIC_RELAXED) < 10)
		usleep(100);
}

#if defined(RCU_FLAVOUR_QSBR)

static void *reader(void *arg)
{
	struct mynode *node;
	(void)arg;
	urcu_qsbr_register_thread();
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		/* QSBR: the whole loop body is a read-side section; no lock needed. */
		cds_list_for_each_entry_rcu(node, &mylist, node)
			check_node(node);
		node = rcu_dereference(current_node);
		if (node)
			check_node(node);
		CHECK(urcu_qsbr_read_ongoing());
		__atomic_fetch_add(&reads, 1, __ATOMIC_RELAXED);
		urcu_qsbr_quiescent_state();
	}
	urcu_qsbr_thread_offline();
	urcu_qsbr_thread_online();
	urcu_qsbr_unregister_thread();
	return NULL;
}

static void update(uint64_t v)
{
	struct mynode *node = node_new(v), *old;
	old = rcu_xchg_pointer(&current_node, node);
	if (old)
		urcu_qsbr_call_rcu(&old->rcu_head, rcu_free_node);
	old = cds_list_entry(mylist.next, struct mynode, node);
	cds_list_replace_rcu(&old->node, &node_new(v)->node);
	urcu_qsbr_synchronize_rcu(); /* a quiescent state for this thread, too */
	rcu_free_node(&old->rcu_head);
}

static void run(void)
{
	pthread_t t;
	urcu_qsbr_register_thread();
	cds_list_add_rcu(&node_new(1)->node, &mylist);
	rcu_set_pointer(&current_node, node_new(1));
	CHECK(pthread_create(&t, NULL, reader, NULL) == 0);
	for (uint64_t v = 2; v < 200; v++) {
		update(v);
		urcu_qsbr_quiescent_state();
	}
	urcu_qsbr_thread_offline(); /* about to block */
	wait_for_readers_to_read();
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	urcu_qsbr_thread_online();
	urcu_qsbr_barrier();
	urcu_qsbr_unregister_thread();
}

#elif defined(RCU_FLAVOUR_BP)

static void *reader(void *arg)
{
	struct mynode *node;
	(void)arg;
	/* Bulletproof: no registration. */
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		urcu_bp_read_lock();
		cds_list_for_each_entry_rcu(node, &mylist, node)
			check_node(node);
		node = rcu_dereference(current_node);
		if (node)
			check_node(node);
		CHECK(urcu_bp_read_ongoing());
		urcu_bp_read_unlock();
		__atomic_fetch_add(&reads, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void update(uint64_t v)
{
	struct mynode *node = node_new(v), *old;
	old = rcu_xchg_pointer(&current_node, node);
	if (old)
		urcu_bp_call_rcu(&old->rcu_head, rcu_free_node);
	old = cds_list_entry(mylist.next, struct mynode, node);
	cds_list_replace_rcu(&old->node, &node_new(v)->node);
	urcu_bp_synchronize_rcu();
	rcu_free_node(&old->rcu_head);
}

static void run(void)
{
	pthread_t t;
	cds_list_add_rcu(&node_new(1)->node, &mylist);
	rcu_set_pointer(&current_node, node_new(1));
	CHECK(pthread_create(&t, NULL, reader, NULL) == 0);
	for (uint64_t v = 2; v < 200; v++)
		update(v);
	wait_for_readers_to_read();
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	urcu_bp_barrier();
}

#elif defined(RCU_FLAVOUR_MB)

static void *reader(void *arg)
{
	struct mynode *node;
	(void)arg;
	urcu_mb_register_thread();
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		urcu_mb_read_lock();
		cds_list_for_each_entry_rcu(node, &mylist, node)
			check_node(node);
		node = rcu_dereference(current_node);
		if (node)
			check_node(node);
		CHECK(urcu_mb_read_ongoing());
		urcu_mb_read_unlock();
		__atomic_fetch_add(&reads, 1, __ATOMIC_RELAXED);
	}
	urcu_mb_unregister_thread();
	return NULL;
}

static void update(uint64_t v)
{
	struct mynode *node = node_new(v), *old;
	old = rcu_xchg_pointer(&current_node, node);
	if (old)
		urcu_mb_call_rcu(&old->rcu_head, rcu_free_node);
	old = cds_list_entry(mylist.next, struct mynode, node);
	cds_list_replace_rcu(&old->node, &node_new(v)->node);
	urcu_mb_synchronize_rcu();
	rcu_free_node(&old->rcu_head);
}

static void run(void)
{
	pthread_t t;
	urcu_mb_register_thread();
	cds_list_add_rcu(&node_new(1)->node, &mylist);
	rcu_set_pointer(&current_node, node_new(1));
	CHECK(pthread_create(&t, NULL, reader, NULL) == 0);
	for (uint64_t v = 2; v < 200; v++)
		update(v);
	wait_for_readers_to_read();
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	urcu_mb_barrier();
	urcu_mb_unregister_thread();
}

#else /* MEMB */

static void *reader(void *arg)
{
	struct mynode *node;
	(void)arg;
	urcu_memb_register_thread();
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		urcu_memb_read_lock();
		cds_list_for_each_entry_rcu(node, &mylist, node)
			check_node(node);
		node = rcu_dereference(current_node);
		if (node)
			check_node(node);
		CHECK(urcu_memb_read_ongoing());
		urcu_memb_read_unlock();
		__atomic_fetch_add(&reads, 1, __ATOMIC_RELAXED);
	}
	urcu_memb_unregister_thread();
	return NULL;
}

static void update(uint64_t v)
{
	struct mynode *node = node_new(v), *old;
	old = rcu_xchg_pointer(&current_node, node);
	if (old)
		urcu_memb_call_rcu(&old->rcu_head, rcu_free_node);
	old = cds_list_entry(mylist.next, struct mynode, node);
	cds_list_replace_rcu(&old->node, &node_new(v)->node);
	urcu_memb_synchronize_rcu();
	rcu_free_node(&old->rcu_head);
}

static void run(void)
{
	pthread_t t;
	urcu_memb_register_thread();
	cds_list_add_rcu(&node_new(1)->node, &mylist);
	rcu_set_pointer(&current_node, node_new(1));
	CHECK(pthread_create(&t, NULL, reader, NULL) == 0);
	for (uint64_t v = 2; v < 200; v++)
		update(v);
	wait_for_readers_to_read();
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	urcu_memb_barrier();
	urcu_memb_unregister_thread();
}

#endif

int main(void)
{
	run();
	/* Every replaced node was freed: 198 through call_rcu(), 198 after synchronize_rcu(). */
	CHECK(__atomic_load_n(&freed, __ATOMIC_RELAXED) == 2 * 198);
	CHECK(bad == 0);
	struct mynode *node, *n;
	int left = 0;
	cds_list_for_each_entry_safe(node, n, &mylist, node) {
		CHECK(node->value == 199);
		cds_list_del(&node->node);
		free(node);
		left++;
	}
	CHECK(left == 1 && cds_list_empty(&mylist));
	node = rcu_dereference(current_node);
	CHECK(node && node->value == 199);
	free(node);
	printf("liburcu_flavour: %d nodes freed, %d reads\n", freed, reads);
	return 0;
}
