/* SPDX-License-Identifier: 0BSD */
/*
 * compat/liburcu/urcu/rculfhash.h: liburcu's lock-free resizable RCU hash table API (cds_lfht_*)
 * over rcu_lfht.h. Every name maps onto the native one of the same meaning (docs/lfht.md has the
 * table); nothing here has semantics of its own. Include it after the flavour's header, as with
 * liburcu (<urcu.h>, <urcu-qsbr.h>, ... pick the flavour for rcu.h).
 *
 * What differs from liburcu, by design of rcu_lfht.h (docs/lfht.md says more):
 *   - No worker thread: automatic resizes run in an RCU callback. The pthread_attr_t argument of
 *     the constructors is accepted and unused; cds_lfht_destroy() sets *attr to NULL (it keeps no
 *     attributes: a caller that allocated them still owns them).
 *   - The table's flavour is the unit's first flavour, chosen at compile time (the one its
 *     headers selected): cds_lfht_new_flavor() and _cds_lfht_new() accept that flavour's table
 *     (urcu_<flavour>_flavor, rcu_flavor) or NULL, and return NULL for another flavour's (a
 *     further flavour of the unit, <urcu/urcu-qsbr.h> after <urcu.h> say), whose readers the
 *     table's grace periods would not wait for; RCU_DEBUG aborts there with a sentence. Where no
 *     header named the first flavour and the unit has several, cds_lfht_new() and rcu_flavor
 *     do not compile (compat/liburcu/rcu_liburcu.h).
 *   - One bucket memory layout: the cds_lfht_mm_order, _chunk and _mmap backends exist (their
 *     addresses may be passed) and are not used.
 *   - No custom allocator: cds_lfht_new_with_flavor_alloc() with a non-NULL allocator returns NULL.
 */
#ifndef _URCU_RCULFHASH_H
#define _URCU_RCULFHASH_H

#include "../rcu_liburcu.h" /* the unit's flavour, as liburcu's other headers take it */
#include "../../../rcu_lfht.h"

#include <pthread.h>
#include <stdint.h>

RCU__EXTERN_C_BEGIN

/* The types are the native ones: struct cds_lfht is struct rcu_lfht, and so on. */
#define cds_lfht rcu_lfht
#define cds_lfht_node rcu_lfht_node
#define cds_lfht_iter rcu_lfht_iter

struct rcu_flavor_struct;

typedef int (*cds_lfht_match_fct)(struct cds_lfht_node *node, const void *key);

enum {
	CDS_LFHT_AUTO_RESIZE = RCU_LFHT_AUTO_RESIZE,
	CDS_LFHT_ACCOUNTING = RCU_LFHT_ACCOUNTING,
};

/* liburcu's allocator callbacks; only NULL (the C library's malloc) is accepted. */
struct cds_lfht_alloc {
	void *(*malloc)(void *state, size_t size);
	void *(*calloc)(void *state, size_t nmemb, size_t size);
	void *(*realloc)(void *state, void *ptr, size_t size);
	void *(*aligned_alloc)(void *state, size_t alignment, size_t size);
	void (*free)(void *state, void *ptr);
	void *state;
};

/* liburcu's bucket memory backends: accepted, not used (rcu_lfht.h has one layout). */
struct cds_lfht_mm_type {
	struct cds_lfht *(*alloc_cds_lfht)(unsigned long min_nr_alloc_buckets, unsigned long max_nr_buckets,
					   const struct cds_lfht_alloc *alloc);
	void (*alloc_bucket_table)(struct cds_lfht *ht, unsigned long order);
	void (*free_bucket_table)(struct cds_lfht *ht, unsigned long order);
	struct cds_lfht_node *(*bucket_at)(struct cds_lfht *ht, unsigned long index);
};

/* One object each per program (weak), so that their addresses compare as liburcu's do. */
#if defined(__cplusplus)
#define RCU__LFHT_MM_EXTERN extern /* a C++ const has internal linkage otherwise */
#else
#define RCU__LFHT_MM_EXTERN
#endif
extern const struct cds_lfht_mm_type cds_lfht_mm_order;
extern const struct cds_lfht_mm_type cds_lfht_mm_chunk;
extern const struct cds_lfht_mm_type cds_lfht_mm_mmap;
RCU__WEAK RCU__LFHT_MM_EXTERN const struct cds_lfht_mm_type cds_lfht_mm_order = { NULL, NULL, NULL, NULL };
RCU__WEAK RCU__LFHT_MM_EXTERN const struct cds_lfht_mm_type cds_lfht_mm_chunk = { NULL, NULL, NULL, NULL };
RCU__WEAK RCU__LFHT_MM_EXTERN const struct cds_lfht_mm_type cds_lfht_mm_mmap = { NULL, NULL, NULL, NULL };

static inline struct cds_lfht_node *cds_lfht_iter_get_node(const struct cds_lfht_iter *iter)
{
	return rcu_lfht_iter_get_node(iter);
}

static inline void cds_lfht_node_init(struct cds_lfht_node *node)
{
	rcu_lfht_node_init(node);
}

static inline void cds_lfht_node_init_deleted(struct cds_lfht_node *node)
{
	rcu_lfht_node_init_deleted(node);
}

static inline struct cds_lfht *_cds_lfht_new_with_alloc(unsigned long init_size, unsigned long min_nr_alloc_buckets,
							unsigned long max_nr_buckets, int flags,
							const struct cds_lfht_mm_type *mm,
							const struct rcu_flavor_struct *flavor,
							const struct cds_lfht_alloc *alloc, pthread_attr_t *attr)
{
	(void)mm;
	(void)attr;
	RCU__CHECK(!flavor || flavor == &RCU__URCU_NAME(flavor), "cds_lfht_new_flavor()",
		   "the flavour table is not the unit's first flavour's, whose grace periods the table uses (a further flavour's readers would not be waited for): include that flavour's header before the other urcu headers of the unit");
	if (alloc || (flavor && flavor != &RCU__URCU_NAME(flavor)))
		return NULL;
	return rcu_lfht_new(init_size, min_nr_alloc_buckets, max_nr_buckets, flags);
}

static inline struct cds_lfht *_cds_lfht_new(unsigned long init_size, unsigned long min_nr_alloc_buckets,
					     unsigned long max_nr_buckets, int flags, const struct cds_lfht_mm_type *mm,
					     const struct rcu_flavor_struct *flavor, pthread_attr_t *attr)
{
	return _cds_lfht_new_with_alloc(init_size, min_nr_alloc_buckets, max_nr_buckets, flags, mm, flavor, NULL, attr);
}

static inline struct cds_lfht *cds_lfht_new_flavor(unsigned long init_size, unsigned long min_nr_alloc_buckets,
						   unsigned long max_nr_buckets, int flags,
						   const struct rcu_flavor_struct *flavor, pthread_attr_t *attr)
{
	return _cds_lfht_new(init_size, min_nr_alloc_buckets, max_nr_buckets, flags, NULL, flavor, attr);
}

static inline struct cds_lfht *cds_lfht_new_with_flavor_alloc(unsigned long init_size,
							      unsigned long min_nr_alloc_buckets,
							      unsigned long max_nr_buckets, int flags,
							      const struct rcu_flavor_struct *flavor,
							      const struct cds_lfht_alloc *alloc, pthread_attr_t *attr)
{
	return _cds_lfht_new_with_alloc(init_size, min_nr_alloc_buckets, max_nr_buckets, flags, NULL, flavor, alloc,
					attr);
}

static inline struct cds_lfht *(cds_lfht_new)(unsigned long init_size, unsigned long min_nr_alloc_buckets,
					    unsigned long max_nr_buckets, int flags, pthread_attr_t *attr)
{
	return _cds_lfht_new(init_size, min_nr_alloc_buckets, max_nr_buckets, flags, NULL, NULL, attr);
}
/* Unprefixed, as liburcu's top-level flavour headers map it: the unit's first flavour's table,
 * refused at compile time where no header named that flavour (RCU__URCU_FIRST_USE()). */
#define cds_lfht_new(init_size, min_nr_alloc_buckets, max_nr_buckets, flags, attr) \
	(RCU__URCU_FIRST_USE(), (cds_lfht_new)(init_size, min_nr_alloc_buckets, max_nr_buckets, flags, attr))

static inline int cds_lfht_destroy(struct cds_lfht *ht, pthread_attr_t **attr)
{
	int ret = rcu_lfht_destroy(ht);
	if (ret == 0 && attr)
		*attr = NULL;
	return ret;
}

static inline void cds_lfht_count_nodes(struct cds_lfht *ht, long *split_count_before, unsigned long *count,
					long *split_count_after)
{
	rcu_lfht_count_nodes(ht, split_count_before, count, split_count_after);
}

static inline void cds_lfht_lookup(struct cds_lfht *ht, unsigned long hash, cds_lfht_match_fct match, const void *key,
				   struct cds_lfht_iter *iter)
{
	rcu_lfht_lookup(ht, hash, match, key, iter);
}

static inline void cds_lfht_next_duplicate(struct cds_lfht *ht, cds_lfht_match_fct match, const void *key,
					   struct cds_lfht_iter *iter)
{
	rcu_lfht_next_duplicate(ht, match, key, iter);
}

static inline void cds_lfht_first(struct cds_lfht *ht, struct cds_lfht_iter *iter)
{
	rcu_lfht_first(ht, iter);
}

static inline void cds_lfht_next(struct cds_lfht *ht, struct cds_lfht_iter *iter)
{
	rcu_lfht_next(ht, iter);
}

static inline void cds_lfht_add(struct cds_lfht *ht, unsigned long hash, struct cds_lfht_node *node)
{
	rcu_lfht_add(ht, hash, node);
}

static inline struct cds_lfht_node *cds_lfht_add_unique(struct cds_lfht *ht, unsigned long hash,
							cds_lfht_match_fct match, const void *key,
							struct cds_lfht_node *node)
{
	return rcu_lfht_add_unique(ht, hash, match, key, node);
}

static inline struct cds_lfht_node *cds_lfht_add_replace(struct cds_lfht *ht, unsigned long hash,
							 cds_lfht_match_fct match, const void *key,
							 struct cds_lfht_node *node)
{
	return rcu_lfht_add_replace(ht, hash, match, key, node);
}

static inline int cds_lfht_replace(struct cds_lfht *ht, struct cds_lfht_iter *old_iter, unsigned long hash,
				   cds_lfht_match_fct match, const void *key, struct cds_lfht_node *new_node)
{
	return rcu_lfht_replace(ht, old_iter, hash, match, key, new_node);
}

static inline int cds_lfht_del(struct cds_lfht *ht, struct cds_lfht_node *node)
{
	return rcu_lfht_del(ht, node);
}

static inline int cds_lfht_is_node_deleted(const struct cds_lfht_node *node)
{
	return rcu_lfht_is_node_deleted(node);
}

static inline void cds_lfht_resize(struct cds_lfht *ht, unsigned long new_size)
{
	rcu_lfht_resize(ht, new_size);
}

#define cds_lfht_for_each(ht, iter, node) rcu_lfht_for_each(ht, iter, node)
#define cds_lfht_for_each_duplicate(ht, hash, match, key, iter, node) \
	rcu_lfht_for_each_duplicate(ht, hash, match, key, iter, node)
#define cds_lfht_entry(ptr, type, member) rcu_lfht_entry(ptr, type, member)
#define cds_lfht_for_each_entry(ht, iter, pos, member) rcu_lfht_for_each_entry(ht, iter, pos, member)
#define cds_lfht_for_each_entry_duplicate(ht, hash, match, key, iter, pos, member) \
	rcu_lfht_for_each_entry_duplicate(ht, hash, match, key, iter, pos, member)

RCU__EXTERN_C_END

#endif /* _URCU_RCULFHASH_H */
