/* SPDX-License-Identifier: 0BSD */
/*
 * examples/rcu_map.h: a read-mostly hash map on rcu.h, in one header.
 *
 * Keys and values are uint64_t. The number of buckets is fixed when the map is made; each bucket
 * is an rcu_hlist with its own pthread mutex. Lookups take no lock at all: they walk one bucket
 * inside a read-side section. Updates lock one bucket, never wait for readers, and never change an
 * entry that readers can see: a new value is a new entry that replaces the old one in place, so a
 * reader sees the old value or the new one, never a mix. Entries that leave the map are freed
 * through call_rcu() once every reader that might hold them has left its section; the callback
 * poisons an entry before freeing it, and lookups check the poison, so a reader that reaches a
 * reclaimed entry (an RCU bug, not a map bug) aborts with a message instead of returning garbage.
 *
 * examples/rwlock_map.h is the same map, with the same API under rwlock_map_ names, guarded by one
 * pthread_rwlock_t per bucket instead of RCU: the pair exists to measure one against the other
 * (examples/map_bench.c).
 *
 * Include rcu.h's flavour first (-DRCU_FLAVOUR_*), or let this header include "rcu.h".
 *
 * API
 *   int  rcu_map_init(struct rcu_map *m, size_t nbuckets);
 *        Make an empty map with nbuckets rounded up to a power of two (at least 1).
 *        Returns 0, or ENOMEM (m is then unusable and need not be destroyed).
 *   void rcu_map_destroy(struct rcu_map *m);
 *        Free every entry still in the map and the buckets. No thread may use the map any more,
 *        and no reader may still be inside a section that looked at it (synchronize_rcu() first
 *        if unsure). Entries removed earlier are freed by their callbacks, which do not touch the
 *        map: destroy need not wait for them (call rcu_barrier() before exit to see them freed).
 *   bool rcu_map_lookup(struct rcu_map *m, uint64_t key, uint64_t *value);
 *        Copy the value of key into *value (if value is not NULL) and return true, or return
 *        false. Takes its own read-side section (sections nest, so it may be called inside one).
 *        Lock-free; never blocks. The calling thread must be registered (rcu_register_thread();
 *        no-op in BP), and in QSBR it must report quiescent states between lookups as usual.
 *   const struct rcu_map_entry *rcu_map_find(struct rcu_map *m, uint64_t key);
 *        The entry of key, or NULL. Call inside a read-side section; the entry (read-only) stays
 *        valid until the section ends, even if it is deleted or replaced meanwhile.
 *   int  rcu_map_insert(struct rcu_map *m, uint64_t key, uint64_t value);
 *        Add key if absent. Returns 0, EEXIST (map unchanged), or ENOMEM.
 *   int  rcu_map_replace(struct rcu_map *m, uint64_t key, uint64_t value, uint64_t *old);
 *        Give a present key a new value (a fresh entry replaces the old one in place); the old
 *        value goes to *old if old is not NULL. Returns 0, ENOENT (map unchanged), or ENOMEM.
 *   bool rcu_map_delete(struct rcu_map *m, uint64_t key, uint64_t *old);
 *        Remove key; its value goes to *old if old is not NULL. Returns false if key was absent.
 *   long rcu_map_live_entries(void);
 *        Entries allocated and not yet freed, over all maps of this translation unit: after
 *        rcu_map_destroy() and rcu_barrier() it is 0 unless some map is still alive.
 *
 * Updates may run in any thread and in any number of threads at once (different buckets do not
 * contend); they may be called inside a read-side section (the read-to-write upgrade) since they
 * never wait for a grace period. They take a bucket mutex: in QSBR a thread that blocks on it stays
 * online, which is harmless here because no lock holder ever waits for a grace period.
 */
#ifndef RCU_EXAMPLES_RCU_MAP_H
#define RCU_EXAMPLES_RCU_MAP_H

#include "rcu.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RCU_MAP_LIVE   0x4c495645u /* "LIVE": the entry may be reachable by readers */
#define RCU_MAP_POISON 0xdeadbeefu /* written by the free callback just before free() */

struct rcu_map_entry {
	struct rcu_hlist_node node;
	uint64_t key;
	uint64_t value;
	/* Relaxed atomic so that a reader racing with a (buggy) early free reads it without UB. */
	_Atomic uint32_t magic;
	struct rcu_head rcu;
};

struct rcu_map_bucket {
	pthread_mutex_t lock; /* serialises the updaters of this bucket; readers never take it */
	struct rcu_hlist_head head;
};

struct rcu_map {
	struct rcu_map_bucket *buckets;
	uint64_t mask; /* nbuckets - 1 */
};

static inline _Atomic long *rcu_map__live_counter(void)
{
	static _Atomic long live;
	return &live;
}

static inline long rcu_map_live_entries(void)
{
	return atomic_load_explicit(rcu_map__live_counter(), memory_order_relaxed);
}

/* A 64-bit finaliser (xor-shift-multiply) so that sequential keys spread over the buckets. */
static inline uint64_t rcu_map__hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdu;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53u;
	k ^= k >> 33;
	return k;
}

static inline struct rcu_map_bucket *rcu_map__bucket(struct rcu_map *m, uint64_t key)
{
	return &m->buckets[rcu_map__hash(key) & m->mask];
}

static inline void rcu_map__corrupt(const struct rcu_map_entry *e, uint32_t magic)
{
	fprintf(stderr, "rcu_map: reader reached entry %p with magic 0x%08x (poisoned or freed): "
		"it was reclaimed while a reader could still see it\n", (const void *)e, magic);
	abort();
}

static inline int rcu_map_init(struct rcu_map *m, size_t nbuckets)
{
	size_t n = 1;
	while (n < nbuckets)
		n <<= 1;
	m->buckets = calloc(n, sizeof *m->buckets);
	if (!m->buckets)
		return ENOMEM;
	for (size_t i = 0; i < n; i++) {
		pthread_mutex_init(&m->buckets[i].lock, NULL);
		rcu_hlist_init(&m->buckets[i].head);
	}
	m->mask = n - 1;
	return 0;
}

static inline struct rcu_map_entry *rcu_map__new_entry(uint64_t key, uint64_t value)
{
	struct rcu_map_entry *e = malloc(sizeof *e);
	if (!e)
		return NULL;
	e->key = key;
	e->value = value;
	atomic_store_explicit(&e->magic, RCU_MAP_LIVE, memory_order_relaxed);
	atomic_fetch_add_explicit(rcu_map__live_counter(), 1, memory_order_relaxed);
	return e;
}

/* Free an entry that readers can no longer reach: poison it first, so late readers notice. */
static inline void rcu_map__free_entry(struct rcu_map_entry *e)
{
	e->key = UINT64_MAX;
	e->value = UINT64_MAX;
	atomic_store_explicit(&e->magic, RCU_MAP_POISON, memory_order_relaxed);
	atomic_fetch_sub_explicit(rcu_map__live_counter(), 1, memory_order_relaxed);
	free(e);
}

static inline void rcu_map__free_cb(struct rcu_head *head)
{
	rcu_map__free_entry(rcu_container_of(head, struct rcu_map_entry, rcu));
}

static inline void rcu_map_destroy(struct rcu_map *m)
{
	for (uint64_t i = 0; i <= m->mask; i++) {
		struct rcu_map_bucket *b = &m->buckets[i];
		struct rcu_hlist_node *n = atomic_load_explicit(&b->head.first, memory_order_relaxed);
		while (n) {
			struct rcu_hlist_node *next = atomic_load_explicit(&n->next, memory_order_relaxed);
			rcu_map__free_entry(rcu_hlist_entry(n, struct rcu_map_entry, node));
			n = next;
		}
		pthread_mutex_destroy(&b->lock);
	}
	free(m->buckets);
	m->buckets = NULL;
}

static inline const struct rcu_map_entry *rcu_map_find(struct rcu_map *m, uint64_t key)
{
	struct rcu_map_entry *e;
	rcu_hlist_for_each_entry(e, &rcu_map__bucket(m, key)->head, node) {
		uint32_t magic = atomic_load_explicit(&e->magic, memory_order_relaxed);
		if (magic != RCU_MAP_LIVE)
			rcu_map__corrupt(e, magic);
		if (e->key == key)
			return e;
	}
	return NULL;
}

static inline bool rcu_map_lookup(struct rcu_map *m, uint64_t key, uint64_t *value)
{
	rcu_read_lock();
	const struct rcu_map_entry *e = rcu_map_find(m, key);
	if (e && value)
		*value = e->value;
	rcu_read_unlock();
	return e != NULL;
}

/* Under the bucket's lock. */
static inline struct rcu_map_entry *rcu_map__find_locked(struct rcu_map_bucket *b, uint64_t key)
{
	struct rcu_map_entry *e;
	rcu_hlist_for_each_entry_locked(e, &b->head, node) {
		if (e->key == key)
			return e;
	}
	return NULL;
}

static inline int rcu_map_insert(struct rcu_map *m, uint64_t key, uint64_t value)
{
	struct rcu_map_entry *n = rcu_map__new_entry(key, value);
	if (!n)
		return ENOMEM;
	struct rcu_map_bucket *b = rcu_map__bucket(m, key);
	pthread_mutex_lock(&b->lock);
	if (rcu_map__find_locked(b, key)) {
		pthread_mutex_unlock(&b->lock);
		rcu_map__free_entry(n); /* never published: no grace period needed */
		return EEXIST;
	}
	rcu_hlist_add_head(&n->node, &b->head); /* publishes n with its fields initialised */
	pthread_mutex_unlock(&b->lock);
	return 0;
}

static inline int rcu_map_replace(struct rcu_map *m, uint64_t key, uint64_t value, uint64_t *old)
{
	struct rcu_map_entry *n = rcu_map__new_entry(key, value);
	if (!n)
		return ENOMEM;
	struct rcu_map_bucket *b = rcu_map__bucket(m, key);
	pthread_mutex_lock(&b->lock);
	struct rcu_map_entry *o = rcu_map__find_locked(b, key);
	if (!o) {
		pthread_mutex_unlock(&b->lock);
		rcu_map__free_entry(n);
		return ENOENT;
	}
	rcu_hlist_replace(&o->node, &n->node);
	pthread_mutex_unlock(&b->lock);
	if (old)
		*old = o->value; /* o is ours until call_rcu hands it over */
	call_rcu(&o->rcu, rcu_map__free_cb);
	return 0;
}

static inline bool rcu_map_delete(struct rcu_map *m, uint64_t key, uint64_t *old)
{
	struct rcu_map_bucket *b = rcu_map__bucket(m, key);
	pthread_mutex_lock(&b->lock);
	struct rcu_map_entry *o = rcu_map__find_locked(b, key);
	if (!o) {
		pthread_mutex_unlock(&b->lock);
		return false;
	}
	rcu_hlist_del(&o->node);
	pthread_mutex_unlock(&b->lock);
	if (old)
		*old = o->value;
	call_rcu(&o->rcu, rcu_map__free_cb);
	return true;
}

#endif /* RCU_EXAMPLES_RCU_MAP_H */
