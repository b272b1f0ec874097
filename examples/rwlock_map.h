/* SPDX-License-Identifier: 0BSD */
/*
 * examples/rwlock_map.h: the map of examples/rcu_map.h guarded by reader-writer locks instead of
 * RCU, for comparison (examples/map_bench.c measures one against the other).
 *
 * Same shape: keys and values are uint64_t, a fixed number of buckets, one lock per bucket (here a
 * pthread_rwlock_t, taken shared by lookups and exclusive by updates), entries poisoned before
 * free and checked by lookups. It needs no rcu.h: an entry unlinked under its bucket's write lock
 * is freed at once, because no reader can still be looking at it.
 *
 * API (the same as rcu_map.h, under rwlock_map_ names; see that file for the full contracts):
 *   int  rwlock_map_init(struct rwlock_map *m, size_t nbuckets);      0 or ENOMEM
 *   void rwlock_map_destroy(struct rwlock_map *m);                    no concurrent users
 *   bool rwlock_map_lookup(struct rwlock_map *m, uint64_t key, uint64_t *value);
 *   int  rwlock_map_insert(struct rwlock_map *m, uint64_t key, uint64_t value);   0, EEXIST, ENOMEM
 *   int  rwlock_map_replace(struct rwlock_map *m, uint64_t key, uint64_t value, uint64_t *old);
 *                                                                     0, ENOENT, ENOMEM
 *   bool rwlock_map_delete(struct rwlock_map *m, uint64_t key, uint64_t *old);
 *   long rwlock_map_live_entries(void);
 * There is no rwlock_map_find(): an entry is only valid while its bucket's lock is held.
 * Any thread may call anything; nothing needs registering.
 */
#ifndef RCU_EXAMPLES_RWLOCK_MAP_H
#define RCU_EXAMPLES_RWLOCK_MAP_H

/* pthread_rwlock_t is POSIX, hidden by strict -std=c11: ask for it if no system header has been
 * read yet (as rcu.h does); otherwise compile with -D_DEFAULT_SOURCE. */
#if defined(__linux__) && !defined(_FEATURES_H) && !defined(_DEFAULT_SOURCE) && \
	!defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE) && !defined(_XOPEN_SOURCE)
#define _DEFAULT_SOURCE 1
#endif

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RWLOCK_MAP_LIVE   0x4c495645u
#define RWLOCK_MAP_POISON 0xdeadbeefu

struct rwlock_map_entry {
	struct rwlock_map_entry *next;
	uint64_t key;
	uint64_t value;
	uint32_t magic;
};

struct rwlock_map_bucket {
	pthread_rwlock_t lock;
	struct rwlock_map_entry *first;
};

struct rwlock_map {
	struct rwlock_map_bucket *buckets;
	uint64_t mask;
};

static inline _Atomic long *rwlock_map__live_counter(void)
{
	static _Atomic long live;
	return &live;
}

static inline long rwlock_map_live_entries(void)
{
	return atomic_load_explicit(rwlock_map__live_counter(), memory_order_relaxed);
}

static inline uint64_t rwlock_map__hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdu;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53u;
	k ^= k >> 33;
	return k;
}

static inline struct rwlock_map_bucket *rwlock_map__bucket(struct rwlock_map *m, uint64_t key)
{
	return &m->buckets[rwlock_map__hash(key) & m->mask];
}

static inline int rwlock_map_init(struct rwlock_map *m, size_t nbuckets)
{
	size_t n = 1;
	while (n < nbuckets)
		n <<= 1;
	m->buckets = calloc(n, sizeof *m->buckets);
	if (!m->buckets)
		return ENOMEM;
	for (size_t i = 0; i < n; i++) {
		pthread_rwlock_init(&m->buckets[i].lock, NULL);
		m->buckets[i].first = NULL;
	}
	m->mask = n - 1;
	return 0;
}

static inline struct rwlock_map_entry *rwlock_map__new_entry(uint64_t key, uint64_t value)
{
	struct rwlock_map_entry *e = malloc(sizeof *e);
	if (!e)
		return NULL;
	e->next = NULL;
	e->key = key;
	e->value = value;
	e->magic = RWLOCK_MAP_LIVE;
	atomic_fetch_add_explicit(rwlock_map__live_counter(), 1, memory_order_relaxed);
	return e;
}

static inline void rwlock_map__free_entry(struct rwlock_map_entry *e)
{
	e->key = UINT64_MAX;
	e->value = UINT64_MAX;
	e->magic = RWLOCK_MAP_POISON;
	atomic_fetch_sub_explicit(rwlock_map__live_counter(), 1, memory_order_relaxed);
	free(e);
}

static inline void rwlock_map_destroy(struct rwlock_map *m)
{
	for (uint64_t i = 0; i <= m->mask; i++) {
		struct rwlock_map_entry *e = m->buckets[i].first;
		while (e) {
			struct rwlock_map_entry *next = e->next;
			rwlock_map__free_entry(e);
			e = next;
		}
		pthread_rwlock_destroy(&m->buckets[i].lock);
	}
	free(m->buckets);
	m->buckets = NULL;
}

/* The link that points at key's entry (or the bucket's terminating NULL link). Lock held. */
static inline struct rwlock_map_entry **rwlock_map__link(struct rwlock_map_bucket *b, uint64_t key)
{
	struct rwlock_map_entry **link = &b->first;
	while (*link && (*link)->key != key)
		link = &(*link)->next;
	return link;
}

static inline bool rwlock_map_lookup(struct rwlock_map *m, uint64_t key, uint64_t *value)
{
	struct rwlock_map_bucket *b = rwlock_map__bucket(m, key);
	bool found = false;
	pthread_rwlock_rdlock(&b->lock);
	for (struct rwlock_map_entry *e = b->first; e; e = e->next) {
		if (e->magic != RWLOCK_MAP_LIVE) {
			fprintf(stderr, "rwlock_map: lookup reached poisoned entry %p\n", (void *)e);
			abort();
		}
		if (e->key == key) {
			if (value)
				*value = e->value;
			found = true;
			break;
		}
	}
	pthread_rwlock_unlock(&b->lock);
	return found;
}

static inline int rwlock_map_insert(struct rwlock_map *m, uint64_t key, uint64_t value)
{
	struct rwlock_map_entry *n = rwlock_map__new_entry(key, value);
	if (!n)
		return ENOMEM;
	struct rwlock_map_bucket *b = rwlock_map__bucket(m, key);
	pthread_rwlock_wrlock(&b->lock);
	if (*rwlock_map__link(b, key)) {
		pthread_rwlock_unlock(&b->lock);
		rwlock_map__free_entry(n);
		return EEXIST;
	}
	n->next = b->first;
	b->first = n;
	pthread_rwlock_unlock(&b->lock);
	return 0;
}

/* A fresh entry replaces the old one, as in rcu_map.h, so that both maps do the same work. */
static inline int rwlock_map_replace(struct rwlock_map *m, uint64_t key, uint64_t value,
	uint64_t *old)
{
	struct rwlock_map_entry *n = rwlock_map__new_entry(key, value);
	if (!n)
		return ENOMEM;
	struct rwlock_map_bucket *b = rwlock_map__bucket(m, key);
	pthread_rwlock_wrlock(&b->lock);
	struct rwlock_map_entry **link = rwlock_map__link(b, key);
	struct rwlock_map_entry *o = *link;
	if (!o) {
		pthread_rwlock_unlock(&b->lock);
		rwlock_map__free_entry(n);
		return ENOENT;
	}
	n->next = o->next;
	*link = n;
	pthread_rwlock_unlock(&b->lock);
	if (old)
		*old = o->value;
	rwlock_map__free_entry(o);
	return 0;
}

static inline bool rwlock_map_delete(struct rwlock_map *m, uint64_t key, uint64_t *old)
{
	struct rwlock_map_bucket *b = rwlock_map__bucket(m, key);
	pthread_rwlock_wrlock(&b->lock);
	struct rwlock_map_entry **link = rwlock_map__link(b, key);
	struct rwlock_map_entry *o = *link;
	if (!o) {
		pthread_rwlock_unlock(&b->lock);
		return false;
	}
	*link = o->next;
	pthread_rwlock_unlock(&b->lock);
	if (old)
		*old = o->value;
	rwlock_map__free_entry(o);
	return true;
}

#endif /* RCU_EXAMPLES_RWLOCK_MAP_H */
