/* SPDX-License-Identifier: 0BSD */
/*
 * test/port/kernel_list.c: kernel code with RCU lists, in the kernel's idiom (written here, not
 * copied): a routing table on a `struct list_head` list and a neighbour cache in `struct
 * hlist_head` buckets, read under rcu_read_lock() with list_for_each_entry_rcu() and
 * hlist_for_each_entry_rcu() while the updater, under its spinlock, adds, replaces and deletes
 * entries and frees them with kfree_rcu() and call_rcu(); READ_ONCE()/WRITE_ONCE() statistics and
 * an smp_store_release()/smp_load_acquire() flag.
 *
 * The port: the kernel's RCU includes stay and find rcu.h's through the build's -I compat/kernel
 * (test/port/meson.build); the kernel's other headers are replaced by the user's own
 * kernel_shim.h. The kernel code is unchanged; a user-space harness follows it. Valid C and C++; exits 0 when every check passes.
 */
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include "kernel_shim.h"    /* was <linux/slab.h>, <linux/spinlock.h> */

/* ---- the kernel code ------------------------------------------------------------------------ */

struct route {
	int dst;
	int metric;             /* dst * 10 + generation; never negative while reachable */
	struct list_head list;
	struct rcu_head rcu;
};

struct neigh {
	int key;
	int state;              /* key + 1000 while reachable */
	struct hlist_node node;
	struct rcu_head rcu;
};

#define NEIGH_BUCKETS 8

static LIST_HEAD(routes);
static struct hlist_head neigh_table[NEIGH_BUCKETS];
static HLIST_HEAD(neigh_spare);
static DEFINE_SPINLOCK(table_lock);
static unsigned long lookups;    /* READ_ONCE/WRITE_ONCE statistics */
static int table_ready;          /* published with smp_store_release() */
static int freed;

static void route_free_rcu(struct rcu_head *head)
{
	struct route *r = container_of(head, struct route, rcu);

	r->metric = -1;
	kfree(r);
	__atomic_fetch_add(&freed, 1, __ATOMIC_RELAXED);
}

static struct route *route_alloc(int dst, int generation)
{
	struct route *r = (struct route *)kzalloc(sizeof(*r), GFP_KERNEL);

	BUG_ON(!r);
	r->dst = dst;
	r->metric = dst * 10 + generation;
	INIT_LIST_HEAD(&r->list);
	return r;
}

/* Reader: the metric of dst, or -1. */
static int route_lookup(int dst)
{
	struct route *r;
	int metric = -1;

	rcu_read_lock();
	list_for_each_entry_rcu(r, &routes, list) {
		BUG_ON(r->metric < 0);
		if (r->dst == dst) {
			metric = r->metric;
			break;
		}
	}
	rcu_read_unlock();
	WRITE_ONCE(lookups, READ_ONCE(lookups) + 1);
	return metric;
}

static int route_first_dst(void)
{
	struct route *r;
	int dst;

	rcu_read_lock();
	r = list_first_or_null_rcu(&routes, struct route, list);
	dst = r ? r->dst : -1;
	if (r) {
		struct route *again = list_entry_rcu(routes.next, struct route, list);
		BUG_ON(again->metric < 0);
	}
	rcu_read_unlock();
	return dst;
}

/* Updater, under table_lock. */
static struct route *route_find_locked(int dst)
{
	struct route *r;

	list_for_each_entry_rcu(r, &routes, list, lockdep_is_held(&table_lock))
		if (r->dst == dst)
			return r;
	return NULL;
}

static void route_set(int dst, int generation)
{
	struct route *old, *r = route_alloc(dst, generation);

	spin_lock(&table_lock);
	old = route_find_locked(dst);
	if (old) {
		list_replace_rcu(&old->list, &r->list);
		call_rcu(&old->rcu, route_free_rcu);
	} else if (dst % 2) {
		list_add_tail_rcu(&r->list, &routes);
	} else {
		list_add_rcu(&r->list, &routes);
	}
	spin_unlock(&table_lock);
}

static void route_del(int dst)
{
	struct route *r;

	spin_lock(&table_lock);
	r = route_find_locked(dst);
	if (r)
		list_del_rcu(&r->list);
	spin_unlock(&table_lock);
	if (r)
		kfree_rcu(r, rcu);
}

static struct hlist_head *neigh_bucket(int key)
{
	return &neigh_table[key % NEIGH_BUCKETS];
}

static int neigh_lookup(int key)
{
	struct neigh *n;
	int state = 0;

	rcu_read_lock();
	hlist_for_each_entry_rcu(n, neigh_bucket(key), node) {
		BUG_ON(n->state != n->key + 1000);
		if (n->key == key)
			state = n->state;
	}
	rcu_read_unlock();
	return state;
}

/* Updater: keys of a bucket in ascending order (add_before / add_behind keep it so). */
static void neigh_insert(int key)
{
	struct neigh *n = (struct neigh *)kzalloc(sizeof(*n), GFP_KERNEL), *pos, *last = NULL;

	BUG_ON(!n);
	n->key = key;
	n->state = key + 1000;
	INIT_HLIST_NODE(&n->node);
	BUG_ON(!hlist_unhashed(&n->node));
	spin_lock(&table_lock);
	hlist_for_each_entry(pos, neigh_bucket(key), node) {
		if (pos->key > key) {
			hlist_add_before_rcu(&n->node, &pos->node);
			goto out;
		}
		last = pos;
	}
	if (last)
		hlist_add_behind_rcu(&n->node, &last->node);
	else
		hlist_add_head_rcu(&n->node, neigh_bucket(key));
out:
	spin_unlock(&table_lock);
}

static void neigh_remove(int key)
{
	struct neigh *n;
	struct hlist_node *tmp;

	spin_lock(&table_lock);
	hlist_for_each_entry_safe(n, tmp, neigh_bucket(key), node) {
		if (n->key == key) {
			hlist_del_init_rcu(&n->node);
			BUG_ON(!hlist_unhashed(&n->node));
			kfree_rcu(n, rcu);
		}
	}
	spin_unlock(&table_lock);
}

static void neigh_refresh(int key)
{
	struct neigh *n, *repl;

	spin_lock(&table_lock);
	hlist_for_each_entry(n, neigh_bucket(key), node) {
		if (n->key == key) {
			repl = (struct neigh *)kmalloc(sizeof(*repl), GFP_KERNEL);
			*repl = *n;
			hlist_replace_rcu(&n->node, &repl->node);
			kfree_rcu(n, rcu);
			break;
		}
	}
	spin_unlock(&table_lock);
}

static void tables_init(void)
{
	for (int i = 0; i < NEIGH_BUCKETS; i++)
		INIT_HLIST_HEAD(&neigh_table[i]);
	smp_store_release(&table_ready, 1);
}

/* ---- the user-space harness ----------------------------------------------------------------- */

static int stop;
static long reads;

static void *reader(void *arg)
{
	int k = (int)(long)arg;

	rcu_register_thread(); /* user space: readers register (a no-op in BP) */
	while (!smp_load_acquire(&table_ready))
		sched_yield();
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		k = (k + 7) % 64;
		int m = route_lookup(k);
		BUG_ON(m >= 0 && m / 10 != k);
		(void)route_first_dst();
		int s = neigh_lookup(k);
		BUG_ON(s != 0 && s != k + 1000);
		__atomic_fetch_add(&reads, 1, __ATOMIC_RELAXED);
		rcu_quiescent_state();
	}
	rcu_unregister_thread();
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	int generation[64] = { 0 };
	int have_neigh[64] = { 0 };
	long replaced = 0;

	BUG_ON(!list_empty(&routes) || !hlist_empty(&neigh_spare));
	for (int i = 0; i < 2; i++)
		BUG_ON(pthread_create(&t[i], NULL, reader, (void *)(long)(i + 1)) != 0);
	tables_init();
	for (int round = 0; round < 2000; round++) {
		int dst = (round * 37) % 64;
		switch (round % 5) {
		case 0:
		case 1:
			if (generation[dst])
				replaced++;
			generation[dst]++;
			route_set(dst, generation[dst] % 10);
			break;
		case 2:
			if (generation[dst]) {
				route_del(dst);
				generation[dst] = 0;
			}
			break;
		case 3:
			if (have_neigh[dst]) {
				neigh_refresh(dst);
			} else {
				neigh_insert(dst);
				have_neigh[dst] = 1;
			}
			break;
		default:
			if (have_neigh[dst]) {
				neigh_remove(dst);
				have_neigh[dst] = 0;
			}
			break;
		}
	}
	while (__atomic_load_n(&reads, __ATOMIC_RELAXED) < 20)
		sched_yield();
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	rcu_barrier();

	/* The tables against the model: every route present iff set and not deleted since. */
	rcu_register_thread();
	for (int dst = 0; dst < 64; dst++) {
		BUG_ON((route_lookup(dst) >= 0) != (generation[dst] != 0));
		BUG_ON((neigh_lookup(dst) != 0) != (have_neigh[dst] != 0));
	}
	/* Buckets in ascending key order. */
	for (int b = 0; b < NEIGH_BUCKETS; b++) {
		struct neigh *n;
		int prev = -1;
		hlist_for_each_entry(n, &neigh_table[b], node) {
			BUG_ON(n->key <= prev);
			prev = n->key;
		}
	}
	/* Routes: even destinations were pushed (list_add_rcu), odd ones appended
	 * (list_add_tail_rcu), replacements kept their place: no even one after an odd one. */
	struct route *r, *tmp;
	long left = 0;
	int seen_odd = 0;
	list_for_each_entry(r, &routes, list) {
		BUG_ON(r->metric < 0 || r->metric / 10 != r->dst);
		BUG_ON(seen_odd && r->dst % 2 == 0);
		seen_odd |= r->dst % 2;
		left++;
	}
	list_for_each_entry_safe(r, tmp, &routes, list) {
		list_del_rcu(&r->list);
		kfree_rcu(r, rcu);
	}
	BUG_ON(!list_empty(&routes));
	for (int b = 0; b < NEIGH_BUCKETS; b++) {
		struct neigh *n;
		struct hlist_node *next;
		hlist_for_each_entry_safe(n, next, &neigh_table[b], node) {
			hlist_del_rcu(&n->node);
			kfree_rcu(n, rcu);
		}
		BUG_ON(!hlist_empty(&neigh_table[b]));
	}
	rcu_unregister_thread();
	rcu_barrier();
	BUG_ON(__atomic_load_n(&freed, __ATOMIC_RELAXED) != replaced); /* call_rcu(): once each */
	pr_info("kernel_list: %ld reads, %lu lookups counted, %ld routes left, %d replaced routes freed\n",
		reads, READ_ONCE(lookups), left, freed);
	return 0;
}
