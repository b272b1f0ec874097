/* SPDX-License-Identifier: 0BSD */
/*
 * test/lfht.c: the resizable RCU hash table of rcu_lfht.h.
 *
 * - model: one thread, thousands of random operations (add, add_unique, add_replace, replace,
 *   del, lookups, explicit resizes, with automatic resizing in the background) against a
 *   sequential multimap; after every operation the table must hold exactly the model's nodes:
 *   iteration, every key's lookup and duplicates, count_nodes and the counters, and the internal
 *   order of the split-ordered list.
 * - torture: readers look up and iterate while updaters add, delete and replace and a resizer
 *   grows and shrinks the table (automatic resizing on as well). "Stable" keys are present for
 *   the whole run (only ever replaced): every lookup must find exactly one node for each, every
 *   iteration must meet each exactly once, add_replace of one must return the node it replaced.
 *   Each updater owns a share of the other keys and checks every operation against its own
 *   count of their nodes (a node lost by the table shows at the next lookup of its key).
 *   Reclaimed nodes are poisoned one grace period before they are freed: no reader may meet one.
 * - add_unique races: threads add the same key at the same moment: exactly one wins and the
 *   others get the winner's node; add_replace races: every node but the last is returned once.
 * - auto_resize: automatic growth and shrinking with readers running; growth while a reader holds
 *   one section (no grace period ends: updaters build the levels themselves), and a level half
 *   built by an updater, resumed and finished before a shrink, its bucket nodes linked once; one
 *   update helps at most once; a growth without memory changes nothing.
 * - destroy: a table with nodes is refused; a destroy that finds the resize callback queued
 *   hands the table to it (the ASan build checks that it is freed once).
 */
#include <stdbool.h>
#include <stdlib.h>

/*
 * >>malloc: the malloc() calls of rcu_lfht.h (and rcu.h) in this unit go through test_malloc(),
 * which fails every allocation of the thread that sets malloc_fails, first calling
 * malloc_fail_hook if set (what another thread does at that moment). growth_without_memory.
 */
static _Thread_local bool malloc_fails;
static _Thread_local void (*malloc_fail_hook)(void);

static void *test_malloc(size_t n)
{
	if (!malloc_fails)
		return malloc(n);
	if (malloc_fail_hook)
		malloc_fail_hook();
	return NULL;
}

#define malloc(n) test_malloc(n)
#include "rcu_lfht.h"
#undef malloc
#include "harness.h"

#include <stdarg.h>

/* >>objects */

#define OBJ_LIVE 0x4c464854u   /* "LFHT" */
#define OBJ_POISON 0xdeaddeadu

struct obj {
	struct rcu_lfht_node node;
	unsigned long key;
	uint64_t id;
	_Atomic uint32_t magic; /* atomic: a (buggy) reader racing the poison has no UB */
	struct rcu_head rcu;
};

/* Failures seen by threads other than the test's own: counted, the first one's text kept. */
static _Atomic long thread_failures;
static _Atomic bool thread_failmsg_taken;
static char thread_failmsg[512];

static void thread_fail(const char *fmt, ...)
{
	atomic_fetch_add_explicit(&thread_failures, 1, memory_order_relaxed);
	if (atomic_exchange_explicit(&thread_failmsg_taken, true, memory_order_relaxed))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(thread_failmsg, sizeof thread_failmsg, fmt, ap);
	va_end(ap);
}

static void assert_no_thread_failures(void)
{
	long n = atomic_load_explicit(&thread_failures, memory_order_relaxed);
	cr_assert_eq(n, 0, "%ld failures in threads; first: %s", n, thread_failmsg);
}

static _Atomic uint64_t next_id;
static _Atomic long objs_live; /* allocated and not yet freed */

static struct obj *obj_new(unsigned long key)
{
	struct obj *o = calloc(1, sizeof *o);
	if (!o)
		abort();
	o->key = key;
	o->id = atomic_fetch_add_explicit(&next_id, 1, memory_order_relaxed) + 1;
	atomic_store_explicit(&o->magic, OBJ_LIVE, memory_order_relaxed);
	atomic_fetch_add_explicit(&objs_live, 1, memory_order_relaxed);
	return o;
}

static void obj_free_now(struct obj *o)
{
	atomic_fetch_sub_explicit(&objs_live, 1, memory_order_relaxed);
	free(o);
}

static void obj_free_cb(struct rcu_head *h)
{
	obj_free_now(rcu_container_of(h, struct obj, rcu));
}

/* Reclaim: poison after one grace period, free after a second, so a late reader meets the poison. */
static void obj_poison_cb(struct rcu_head *h)
{
	struct obj *o = rcu_container_of(h, struct obj, rcu);
	atomic_store_explicit(&o->magic, OBJ_POISON, memory_order_relaxed);
	call_rcu(&o->rcu, obj_free_cb);
}

static void obj_retire(struct obj *o)
{
	call_rcu(&o->rcu, obj_poison_cb);
}

static struct obj *obj_of(struct rcu_lfht_node *n)
{
	return rcu_lfht_entry(n, struct obj, node);
}

/* Hash functions: a good mix, or a bad one that puts many keys on one hash (equal-hash runs). */
static bool bad_hash;

static unsigned long key_hash(unsigned long key)
{
	if (bad_hash)
		return key % 5;
	uint64_t x = (uint64_t)key * 0x9e3779b97f4a7c15ull;
	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 32;
	return (unsigned long)x;
}

/* match: compares keys; meeting a poisoned node is a failure (a reclaimed node was reachable). */
static int match_key(struct rcu_lfht_node *n, const void *key)
{
	struct obj *o = obj_of(n);
	if (atomic_load_explicit(&o->magic, memory_order_relaxed) != OBJ_LIVE)
		thread_fail("match() met a node whose magic is %#x (id %llu): reclaimed while reachable",
			    atomic_load_explicit(&o->magic, memory_order_relaxed), (unsigned long long)o->id);
	return o->key == *(const unsigned long *)key;
}

static void check_live(struct obj *o, const char *where)
{
	uint32_t m = atomic_load_explicit(&o->magic, memory_order_relaxed);
	if (m != OBJ_LIVE)
		thread_fail("%s: met a node whose magic is %#x (id %llu, key %lu)", where, m,
			    (unsigned long long)o->id, o->key);
}

/* The split order, white-box: from bucket 0, reversed hashes never decrease, and a bucket node
 * comes before the regular nodes of its reversed hash. Returns the bucket nodes met. */
static unsigned long check_split_order(struct rcu_lfht *ht)
{
	unsigned long buckets = 0, last = 0;
	bool last_regular = false;
	for (struct rcu_lfht_node *n = rcu__lfht_bucket(ht, 0); n;) {
		struct rcu_lfht_node *next = rcu__lfht_load_link(n);
		bool bucket = (rcu__lfht_flags(next) & RCU__LFHT_BUCKET) != 0;
		if (n->reverse_hash < last || (bucket && last_regular && n->reverse_hash == last))
			thread_fail("split order broken: %#lx after %#lx", n->reverse_hash, last);
		if (bucket && !(rcu__lfht_flags(next) & RCU__LFHT_REMOVED))
			buckets++;
		last = n->reverse_hash;
		last_regular = !bucket;
		n = rcu__lfht_ptr(next);
	}
	return buckets;
}

/* QSBR: between sections a reader reports; a blocking wait goes offline (harness.h). */
static void quiescent(void)
{
	rcu_quiescent_state();
}

/* >>model: one thread against a sequential multimap */

#define MODEL_KEYS 48
#define MODEL_PER_KEY 16

struct model {
	struct obj *at[MODEL_KEYS][MODEL_PER_KEY];
	int n[MODEL_KEYS];
	long total;
};

static void model_add(struct model *m, struct obj *o)
{
	unsigned long k = o->key;
	cr_assert_lt(m->n[k], MODEL_PER_KEY);
	m->at[k][m->n[k]++] = o;
	m->total++;
}

static bool model_has(const struct model *m, struct obj *o)
{
	for (int i = 0; i < m->n[o->key]; i++)
		if (m->at[o->key][i] == o)
			return true;
	return false;
}

static void model_del(struct model *m, struct obj *o)
{
	unsigned long k = o->key;
	for (int i = 0; i < m->n[k]; i++)
		if (m->at[k][i] == o) {
			m->at[k][i] = m->at[k][--m->n[k]];
			m->total--;
			return;
		}
	cr_assert(false, "model_del: node %llu of key %lu is not in the model", (unsigned long long)o->id, k);
}

/* The whole table against the model; inside a read-side section. */
static void model_check(struct rcu_lfht *ht, const struct model *m, const char *after)
{
	struct rcu_lfht_iter it;
	struct obj *o;
	long seen = 0;
	int per_key[MODEL_KEYS] = { 0 };
	rcu_lfht_for_each_entry(ht, &it, o, node) {
		cr_assert_lt(o->key, MODEL_KEYS, "after %s: iteration met key %lu", after, o->key);
		cr_assert(model_has(m, o), "after %s: iteration met node %llu (key %lu), not in the model", after,
			  (unsigned long long)o->id, o->key);
		per_key[o->key]++;
		seen++;
	}
	cr_assert_eq(seen, m->total, "after %s: iteration met %ld nodes, the model has %ld", after, seen, m->total);
	for (unsigned long k = 0; k < MODEL_KEYS; k++) {
		cr_assert_eq(per_key[k], m->n[k], "after %s: key %lu: iteration met %d, model %d", after, k,
			     per_key[k], m->n[k]);
		int dup = 0;
		struct rcu_lfht_node *n;
		rcu_lfht_for_each_duplicate(ht, key_hash(k), match_key, &k, &it, n) {
			cr_assert(model_has(m, obj_of(n)), "after %s: lookup of key %lu found node %llu, not in the model",
				  after, k, (unsigned long long)obj_of(n)->id);
			dup++;
		}
		cr_assert_eq(dup, m->n[k], "after %s: key %lu: lookup and duplicates found %d, model %d", after, k, dup,
			     m->n[k]);
	}
	long before, after_n;
	unsigned long count;
	rcu_lfht_count_nodes(ht, &before, &count, &after_n);
	cr_assert_eq((long)count, m->total, "after %s: count_nodes %lu, model %ld", after, count, m->total);
	if (ht->flags & RCU_LFHT_ACCOUNTING) {
		cr_assert_eq(before, m->total, "after %s: counters %ld, model %ld", after, before, m->total);
		cr_assert_eq(after_n, m->total);
	}
	check_split_order(ht);
	unsigned long b = rcu_lfht_buckets(ht);
	cr_assert(b >= 1 && (b & (b - 1)) == 0 && b <= ht->max_buckets, "after %s: %lu buckets", after, b);
	assert_no_thread_failures();
}

static void model_run(uint64_t seed, unsigned long init, unsigned long min_alloc, unsigned long max, int flags,
		      bool bad, long ops)
{
	struct model *m = calloc(1, sizeof *m);
	cr_assert(m);
	bad_hash = bad;
	struct rcu_lfht *ht = rcu_lfht_new(init, min_alloc, max, flags);
	cr_assert(ht, "rcu_lfht_new(%lu, %lu, %lu, %d)", init, min_alloc, max, flags);
	rcu_register_thread();
	char what[160];
	for (long i = 0; i < ops; i++) {
		unsigned long k = test_rand(&seed) % MODEL_KEYS;
		unsigned op = (unsigned)(test_rand(&seed) % 100);
		struct rcu_lfht_iter it;
		if (op < 3) {
			unsigned long want = 1ul << (test_rand(&seed) % 11);
			snprintf(what, sizeof what, "op %ld: resize(%lu)", i, want);
			rcu_lfht_resize(ht, want);
			unsigned long expect = want > ht->max_buckets ? ht->max_buckets : want;
			if (!(flags & RCU_LFHT_AUTO_RESIZE))
				cr_assert_eq(rcu_lfht_buckets(ht), expect, "%s: %lu buckets", what, rcu_lfht_buckets(ht));
			rcu_read_lock();
			model_check(ht, m, what);
			rcu_read_unlock();
			quiescent();
			continue;
		}
		rcu_read_lock();
		if (op < 28 && m->n[k] < MODEL_PER_KEY - 1) {
			struct obj *o = obj_new(k);
			snprintf(what, sizeof what, "op %ld: add(key %lu, node %llu)", i, k, (unsigned long long)o->id);
			rcu_lfht_add(ht, key_hash(k), &o->node);
			model_add(m, o);
		} else if (op < 48 && m->n[k] < MODEL_PER_KEY - 1) {
			struct obj *o = obj_new(k);
			snprintf(what, sizeof what, "op %ld: add_unique(key %lu, node %llu)", i, k, (unsigned long long)o->id);
			struct rcu_lfht_node *r = rcu_lfht_add_unique(ht, key_hash(k), match_key, &k, &o->node);
			if (m->n[k] == 0) {
				cr_assert_eq(r, &o->node, "%s: returned another node", what);
				model_add(m, o);
			} else {
				cr_assert(r != &o->node && model_has(m, obj_of(r)), "%s: key present, returned %p", what,
					  (void *)r);
				obj_free_now(o); /* never published: no grace period needed */
			}
		} else if (op < 60 && m->n[k] < MODEL_PER_KEY - 1) {
			struct obj *o = obj_new(k);
			snprintf(what, sizeof what, "op %ld: add_replace(key %lu, node %llu)", i, k, (unsigned long long)o->id);
			struct rcu_lfht_node *r = rcu_lfht_add_replace(ht, key_hash(k), match_key, &k, &o->node);
			if (m->n[k] == 0) {
				cr_assert_null(r, "%s: key absent, replaced %p", what, (void *)r);
			} else {
				cr_assert(r && model_has(m, obj_of(r)), "%s: key present, returned %p", what, (void *)r);
				cr_assert(rcu_lfht_is_node_deleted(r));
				model_del(m, obj_of(r));
				obj_retire(obj_of(r));
			}
			model_add(m, o);
		} else if (op < 70) {
			struct obj *o = obj_new(k);
			snprintf(what, sizeof what, "op %ld: replace(key %lu, node %llu)", i, k, (unsigned long long)o->id);
			rcu_lfht_lookup(ht, key_hash(k), match_key, &k, &it);
			int ret = rcu_lfht_replace(ht, &it, key_hash(k), match_key, &k, &o->node);
			if (m->n[k] == 0) {
				cr_assert_eq(ret, -ENOENT, "%s: key absent, returned %d", what, ret);
				obj_free_now(o);
			} else {
				cr_assert_eq(ret, 0, "%s: returned %d", what, ret);
				struct obj *old = obj_of(it.node);
				cr_assert(rcu_lfht_is_node_deleted(&old->node) && !rcu_lfht_is_node_deleted(&o->node));
				struct obj *o2 = obj_new(k);
				cr_assert_eq(rcu_lfht_replace(ht, &it, key_hash(k), match_key, &k, &o2->node), -ENOENT,
					     "%s: replacing the replaced node again", what);
				obj_free_now(o2);
				model_del(m, old);
				obj_retire(old);
				model_add(m, o);
			}
		} else if (op < 75 && m->n[k] > 0) {
			/* replace with a key or hash that is not the old node's: refused */
			struct obj *o = obj_new(k);
			rcu_lfht_lookup(ht, key_hash(k), match_key, &k, &it);
			unsigned long other = (k + 5) % MODEL_KEYS; /* same hash when the hash is bad */
			snprintf(what, sizeof what, "op %ld: replace(key %lu) with key %lu", i, k, other);
			cr_assert_eq(rcu_lfht_replace(ht, &it, key_hash(other), match_key, &other, &o->node), -EINVAL, "%s", what);
			cr_assert_eq(rcu_lfht_replace(ht, &it, key_hash(k) + 1, match_key, &k, &o->node), -EINVAL, "%s", what);
			obj_free_now(o);
		} else if (op < 95) {
			snprintf(what, sizeof what, "op %ld: del(key %lu)", i, k);
			if (m->n[k] > 0 && test_rand(&seed) % 2) {
				struct obj *o = m->at[k][test_rand(&seed) % (unsigned)m->n[k]];
				cr_assert_eq(rcu_lfht_del(ht, &o->node), 0, "%s: a node of the model", what);
				cr_assert_eq(rcu_lfht_del(ht, &o->node), -ENOENT, "%s: twice", what);
				cr_assert(rcu_lfht_is_node_deleted(&o->node));
				model_del(m, o);
				obj_retire(o);
			} else {
				rcu_lfht_lookup(ht, key_hash(k), match_key, &k, &it);
				if (m->n[k] == 0) {
					cr_assert_null(it.node, "%s: key absent, lookup found a node", what);
					cr_assert_eq(rcu_lfht_del(ht, it.node), -ENOENT);
				} else {
					cr_assert(it.node && !rcu_lfht_is_node_deleted(it.node));
					cr_assert_eq(rcu_lfht_del(ht, it.node), 0, "%s", what);
					model_del(m, obj_of(it.node));
					obj_retire(obj_of(it.node));
				}
			}
		} else {
			snprintf(what, sizeof what, "op %ld: lookup(key %lu)", i, k);
			rcu_lfht_lookup(ht, key_hash(k), match_key, &k, &it);
			cr_assert_eq(it.node != NULL, m->n[k] > 0, "%s", what);
		}
		model_check(ht, m, what);
		rcu_read_unlock();
		quiescent();
	}
	rcu_read_lock();
	for (unsigned long k = 0; k < MODEL_KEYS; k++)
		while (m->n[k] > 0) {
			struct obj *o = m->at[k][0];
			cr_assert_eq(rcu_lfht_del(ht, &o->node), 0);
			model_del(m, o);
			obj_retire(o);
		}
	model_check(ht, m, "deleting everything");
	rcu_read_unlock();
	cr_assert_eq(rcu_lfht_destroy(ht), 0);
	rcu_unregister_thread();
	rcu_barrier();
	rcu_barrier(); /* the poison callbacks queue the frees */
	cr_assert_eq(atomic_load(&objs_live), 0, "%ld nodes never freed", atomic_load(&objs_live));
	free(m);
}

/* Under RCU_DEBUG_DELAY (test/lfht_delay.c) the tests of one thread, and the long ones, add nothing. */
#if defined(RCU_DEBUG_DELAY)
#define SKIP_UNDER_DELAY() cr_skip_test("nothing races here: run by test/lfht.c")
#else
#define SKIP_UNDER_DELAY() ((void)0)
#endif

Test(lfht, model_random_against_multimap, .timeout = 120)
{
	SKIP_UNDER_DELAY();
	struct {
		unsigned long init, min_alloc, max;
		int flags;
		bool bad;
	} cfg[] = {
		{ 1, 1, 0, 0, false },
		{ 8, 1, 64, RCU_LFHT_ACCOUNTING, true },
		{ 1, 1, 0, RCU_LFHT_AUTO_RESIZE, false },
		{ 1, 4, 0, RCU_LFHT_AUTO_RESIZE | RCU_LFHT_ACCOUNTING, true },
		{ 256, 64, 1024, RCU_LFHT_AUTO_RESIZE | RCU_LFHT_ACCOUNTING, false },
		{ 2, 2, 4, 0, true },
	};
	for (unsigned c = 0; c < sizeof cfg / sizeof cfg[0]; c++)
		model_run(0x1234567ull + c, cfg[c].init, cfg[c].min_alloc, cfg[c].max, cfg[c].flags, cfg[c].bad,
			  test_rounds(3000));
}

Test(lfht, new_rejects_bad_arguments)
{
	cr_assert_null(rcu_lfht_new(0, 1, 0, 0));
	cr_assert_null(rcu_lfht_new(3, 1, 0, 0));
	cr_assert_null(rcu_lfht_new(1, 0, 0, 0));
	cr_assert_null(rcu_lfht_new(1, 6, 0, 0));
	cr_assert_null(rcu_lfht_new(1, 1, 12, 0));
	cr_assert_null(rcu_lfht_new(1, 1, 0, 8));
	struct rcu_lfht *ht = rcu_lfht_new(64, 1, 16, 0); /* init above max: clamped, as liburcu */
	cr_assert(ht);
	cr_assert_eq(rcu_lfht_buckets(ht), 16);
	cr_assert_eq(rcu_lfht_destroy(ht), 0);
}

/* >>torture: readers, updaters and a resizer at once */

#define T_STABLE 256ul     /* keys [0, T_STABLE): present all the time */
#define T_VOLATILE 2048ul  /* keys [T_STABLE, T_STABLE + T_VOLATILE): come and go */
#define T_READERS 2
#define T_UPDATERS 2

static struct rcu_lfht *t_ht;
static _Atomic int t_stop;
static _Atomic long t_lookups, t_iterations, t_updates, t_resizes, t_replaced;

static void *t_reader(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	rcu_register_thread();
	long lookups = 0, iterations = 0;
	while (!atomic_load_explicit(&t_stop, memory_order_relaxed)) {
		rcu_read_lock();
		unsigned op = (unsigned)(test_rand(&seed) % 64);
		struct rcu_lfht_iter it;
		if (op == 0) {
			/* iterate: each stable key exactly once, every node live */
			static _Thread_local unsigned char seen[T_STABLE];
			memset(seen, 0, sizeof seen);
			struct obj *o;
			rcu_lfht_for_each_entry(t_ht, &it, o, node) {
				check_live(o, "iteration");
				if (o->key < T_STABLE && seen[o->key]++)
					thread_fail("iteration met stable key %lu twice", o->key);
			}
			for (unsigned long k = 0; k < T_STABLE; k++)
				if (!seen[k])
					thread_fail("iteration missed stable key %lu", k);
			iterations++;
		} else {
			unsigned long k = op & 1 ? test_rand(&seed) % T_STABLE
						  : T_STABLE + test_rand(&seed) % T_VOLATILE;
			rcu_lfht_lookup(t_ht, key_hash(k), match_key, &k, &it);
			if (it.node) {
				struct obj *o = obj_of(it.node);
				check_live(o, "lookup");
				if (o->key != k)
					thread_fail("lookup of key %lu found key %lu", k, o->key);
			}
			if (k < T_STABLE) {
				if (!it.node) {
					thread_fail("lookup missed stable key %lu (%lu buckets)", k, rcu_lfht_buckets(t_ht));
				} else {
					test_widen(&seed, 50);
					rcu_lfht_next_duplicate(t_ht, match_key, &k, &it);
					if (it.node)
						thread_fail("stable key %lu found twice (lookup, then next_duplicate)", k);
				}
			}
			lookups++;
		}
		rcu_read_unlock();
		quiescent();
	}
	atomic_fetch_add(&t_lookups, lookups);
	atomic_fetch_add(&t_iterations, iterations);
	rcu_unregister_thread();
	return NULL;
}

static void *t_updater(void *arg)
{
	int me = (int)((uintptr_t)arg % T_UPDATERS);
	uint64_t seed = (uintptr_t)arg;
	unsigned char own[T_VOLATILE / T_UPDATERS] = { 0 }; /* nodes of each volatile key of ours */
	rcu_register_thread();
	long updates = 0, replaced = 0;
	while (!atomic_load_explicit(&t_stop, memory_order_relaxed)) {
		unsigned op = (unsigned)(test_rand(&seed) % 16);
		rcu_read_lock();
		struct rcu_lfht_iter it;
		if (op < 2) {
			/* a stable key: replace it (it never disappears) */
			unsigned long k = test_rand(&seed) % T_STABLE;
			struct obj *o = obj_new(k);
			if (op == 0) {
				struct rcu_lfht_node *r = rcu_lfht_add_replace(t_ht, key_hash(k), match_key, &k, &o->node);
				if (!r)
					thread_fail("add_replace of stable key %lu replaced nothing", k);
				else
					obj_retire(obj_of(r));
			} else {
				rcu_lfht_lookup(t_ht, key_hash(k), match_key, &k, &it);
				int ret = it.node ? rcu_lfht_replace(t_ht, &it, key_hash(k), match_key, &k, &o->node) : -1;
				if (ret == 0) {
					obj_retire(obj_of(it.node));
				} else {
					if (ret != -ENOENT)
						thread_fail("replace of stable key %lu: %d", k, ret);
					obj_free_now(o);
				}
			}
			replaced++;
		} else {
			/* a volatile key of this updater's own: its model says how many nodes it has */
			unsigned long j = test_rand(&seed) % (T_VOLATILE / T_UPDATERS);
			unsigned long k = T_STABLE + j * T_UPDATERS + (unsigned long)me;
			unsigned char *have = &own[j];
			if (op < 6) {
				struct obj *o = obj_new(k);
				struct rcu_lfht_node *r = rcu_lfht_add_unique(t_ht, key_hash(k), match_key, &k, &o->node);
				if (r == &o->node) {
					if (*have)
						thread_fail("add_unique of key %lu added a node; it had %d", k, *have);
					*have = 1;
				} else {
					check_live(obj_of(r), "add_unique's winner");
					if (!*have)
						thread_fail("add_unique of absent key %lu found node %llu", k,
							    (unsigned long long)obj_of(r)->id);
					obj_free_now(o);
				}
			} else if (op < 8) {
				struct obj *o = obj_new(k);
				struct rcu_lfht_node *r = rcu_lfht_add_replace(t_ht, key_hash(k), match_key, &k, &o->node);
				if (!r != !*have)
					thread_fail("add_replace of key %lu (%d nodes) replaced %p", k, *have, (void *)r);
				if (r)
					obj_retire(obj_of(r));
				else
					*have = 1;
			} else if (op < 9 && *have < 3) {
				struct obj *o = obj_new(k);
				rcu_lfht_add(t_ht, key_hash(k), &o->node);
				(*have)++;
			} else {
				rcu_lfht_lookup(t_ht, key_hash(k), match_key, &k, &it);
				if (!it.node != !*have)
					thread_fail("lookup of key %lu (%d nodes) found %p (%lu buckets)", k, *have,
						    (void *)it.node, rcu_lfht_buckets(t_ht));
				if (it.node) {
					if (rcu_lfht_del(t_ht, it.node) != 0)
						thread_fail("del of key %lu, which only this thread deletes, failed", k);
					obj_retire(obj_of(it.node));
					(*have)--;
				}
			}
		}
		rcu_read_unlock();
		quiescent();
		updates++;
	}
	atomic_fetch_add(&t_updates, updates);
	atomic_fetch_add(&t_replaced, replaced);
	rcu_unregister_thread();
	return NULL;
}

static void *t_resizer(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	rcu_register_thread();
	long resizes = 0;
	while (!atomic_load_explicit(&t_stop, memory_order_relaxed)) {
		rcu_lfht_resize(t_ht, 1ul << (test_rand(&seed) % 15));
		resizes++;
		test_block_begin();
		test_sleep_us((long)(test_rand(&seed) % 500));
		test_block_end();
	}
	atomic_fetch_add(&t_resizes, resizes);
	rcu_unregister_thread();
	return NULL;
}

static void torture_run(bool bad, long ms)
{
	bad_hash = bad;
	atomic_store(&t_stop, 0);
	t_ht = rcu_lfht_new(1, 1, 0, RCU_LFHT_AUTO_RESIZE | RCU_LFHT_ACCOUNTING);
	cr_assert(t_ht);
	rcu_register_thread();
	rcu_read_lock();
	for (unsigned long k = 0; k < T_STABLE; k++) {
		struct obj *o = obj_new(k);
		cr_assert_eq(rcu_lfht_add_unique(t_ht, key_hash(k), match_key, &k, &o->node), &o->node);
	}
	rcu_read_unlock();
	pthread_t r[T_READERS], u[T_UPDATERS], z;
	for (int i = 0; i < T_READERS; i++)
		cr_assert_eq(pthread_create(&r[i], NULL, t_reader, (void *)(uintptr_t)(11 + i)), 0);
	for (int i = 0; i < T_UPDATERS; i++)
		cr_assert_eq(pthread_create(&u[i], NULL, t_updater, (void *)(uintptr_t)(100 * T_UPDATERS + i)), 0);
	cr_assert_eq(pthread_create(&z, NULL, t_resizer, (void *)(uintptr_t)7), 0);
	test_block_begin();
	test_sleep_us(ms * 1000);
	atomic_store(&t_stop, 1);
	for (int i = 0; i < T_READERS; i++)
		pthread_join(r[i], NULL);
	for (int i = 0; i < T_UPDATERS; i++)
		pthread_join(u[i], NULL);
	pthread_join(z, NULL);
	test_block_end();
	assert_no_thread_failures();
	/* Quiet now: the table holds each stable key once, and the counters agree with a walk. */
	rcu_read_lock();
	long before, after;
	unsigned long count, volatile_nodes = 0;
	rcu_lfht_count_nodes(t_ht, &before, &count, &after);
	cr_assert_eq(before, (long)count, "counters %ld, walk %lu", before, count);
	struct rcu_lfht_iter it;
	struct obj *o;
	unsigned char seen[T_STABLE] = { 0 };
	rcu_lfht_for_each_entry(t_ht, &it, o, node) {
		if (o->key < T_STABLE)
			seen[o->key]++;
		else
			volatile_nodes++;
		cr_assert_eq(rcu_lfht_del(t_ht, &o->node), 0);
		obj_retire(o);
	}
	for (unsigned long k = 0; k < T_STABLE; k++)
		cr_assert_eq(seen[k], 1, "stable key %lu is in the table %d times", k, seen[k]);
	cr_assert_eq(count, T_STABLE + volatile_nodes);
	rcu_read_unlock();
	cr_log_info("lfht torture (%s, %s hash): %ld ms, %ld lookups, %ld iterations, %ld updates (%ld on stable "
		    "keys), %ld explicit resizes, %lu buckets at the end",
		    TEST_FLAVOUR, bad ? "bad" : "good", ms, atomic_load(&t_lookups), atomic_load(&t_iterations),
		    atomic_load(&t_updates), atomic_load(&t_replaced), atomic_load(&t_resizes), rcu_lfht_buckets(t_ht));
	cr_assert(atomic_load(&t_lookups) > 0 && atomic_load(&t_iterations) > 0 && atomic_load(&t_updates) > 0 &&
		  atomic_load(&t_resizes) > 0);
	cr_assert_eq(rcu_lfht_destroy(t_ht), 0);
	rcu_unregister_thread();
	rcu_barrier();
	rcu_barrier(); /* the poison callbacks queue the frees */
	cr_assert_eq(atomic_load(&objs_live), 0, "%ld nodes never freed", atomic_load(&objs_live));
	assert_no_thread_failures();
}

static long torture_ms(void)
{
	const char *s = getenv("RCU_LFHT_TORTURE_MS");
	return s && atol(s) > 0 ? atol(s) : 1000;
}

Test(lfht, torture_lookups_iterations_updates_resizes, .timeout = 120)
{
	torture_run(false, torture_ms());
}

Test(lfht, torture_with_colliding_hashes, .timeout = 120)
{
	torture_run(true, torture_ms() / 2);
}

/* >>races: add_unique and add_replace of one key at the same moment */

#define R_THREADS 4

static struct rcu_lfht *r_ht;
static _Atomic long r_round, r_arrived, r_done;
static struct rcu_lfht_node *r_ret[R_THREADS];
static struct obj *r_mine[R_THREADS];
static bool r_replace_mode;

static void *r_thread(void *arg)
{
	int me = (int)(uintptr_t)arg;
	rcu_register_thread();
	for (long round = 1;; round++) {
		/* wait for the round to open (reporting quiescent states: a resize may wait for us) */
		while (atomic_load(&r_round) < round) {
			quiescent();
			sched_yield();
			if (atomic_load(&r_round) < 0)
				goto out;
		}
		unsigned long k = (unsigned long)round;
		struct obj *o = r_mine[me];
		atomic_fetch_add(&r_arrived, 1);
		while (atomic_load(&r_arrived) < R_THREADS * round)
			sched_yield(); /* 2 CPUs are shared by more threads: let the late ones arrive */
		rcu_read_lock();
		r_ret[me] = r_replace_mode ? rcu_lfht_add_replace(r_ht, key_hash(k), match_key, &k, &o->node)
					   : rcu_lfht_add_unique(r_ht, key_hash(k), match_key, &k, &o->node);
		rcu_read_unlock();
		quiescent();
		atomic_fetch_add(&r_done, 1);
	}
out:
	rcu_unregister_thread();
	return NULL;
}

static void race_run(bool replace_mode, bool bad, long rounds)
{
	bad_hash = bad;
	r_replace_mode = replace_mode;
	atomic_store(&r_round, 0);
	atomic_store(&r_arrived, 0);
	atomic_store(&r_done, 0);
	r_ht = rcu_lfht_new(1, 1, 0, RCU_LFHT_AUTO_RESIZE);
	cr_assert(r_ht);
	rcu_register_thread();
	pthread_t th[R_THREADS];
	for (int i = 0; i < R_THREADS; i++)
		cr_assert_eq(pthread_create(&th[i], NULL, r_thread, (void *)(uintptr_t)i), 0);
	long wins = 0;
	for (long round = 1; round <= rounds; round++) {
		for (int i = 0; i < R_THREADS; i++)
			r_mine[i] = obj_new((unsigned long)round);
		atomic_store(&r_round, round);
		while (atomic_load(&r_done) < R_THREADS * round) {
			quiescent();
			sched_yield();
		}
		unsigned long k = (unsigned long)round;
		if (!replace_mode) {
			int won = -1;
			for (int i = 0; i < R_THREADS; i++)
				if (r_ret[i] == &r_mine[i]->node) {
					cr_assert_eq(won, -1, "round %ld: threads %d and %d both added key %lu", round, won, i, k);
					won = i;
				}
			cr_assert_neq(won, -1, "round %ld: nobody added key %lu", round, k);
			for (int i = 0; i < R_THREADS; i++)
				if (i != won) {
					cr_assert_eq(r_ret[i], &r_mine[won]->node, "round %ld: thread %d got %p, not the winner",
						     round, i, (void *)r_ret[i]);
					obj_free_now(r_mine[i]);
				}
			wins++;
		} else {
			/* exactly one returned NULL (it added); each other node was returned exactly once,
			 * and the node left in the table is the one nobody returned */
			int nulls = 0, returned[R_THREADS] = { 0 };
			for (int i = 0; i < R_THREADS; i++) {
				if (!r_ret[i]) {
					nulls++;
					continue;
				}
				int j = 0;
				while (j < R_THREADS && r_ret[i] != &r_mine[j]->node)
					j++;
				cr_assert_lt(j, R_THREADS, "round %ld: add_replace returned a stranger", round);
				returned[j]++;
			}
			cr_assert_eq(nulls, 1, "round %ld: %d add_replace calls found no node", round, nulls);
			int left = -1;
			for (int j = 0; j < R_THREADS; j++) {
				cr_assert_leq(returned[j], 1, "round %ld: node of thread %d returned twice", round, j);
				if (returned[j])
					obj_retire(r_mine[j]);
				else
					left = j;
			}
			rcu_read_lock();
			struct rcu_lfht_iter it;
			rcu_lfht_lookup(r_ht, key_hash(k), match_key, &k, &it);
			cr_assert_eq(it.node, &r_mine[left]->node, "round %ld: the table holds another node", round);
			rcu_read_unlock();
			wins++;
		}
		/* the key is in the table once */
		rcu_read_lock();
		int n = 0;
		struct rcu_lfht_iter it;
		struct rcu_lfht_node *node;
		rcu_lfht_for_each_duplicate(r_ht, key_hash(k), match_key, &k, &it, node)
			n++;
		cr_assert_eq(n, 1, "round %ld: key %lu is in the table %d times", round, k, n);
		rcu_read_unlock();
		if (round % 64 == 0) {
			rcu_lfht_resize(r_ht, 1ul << (round / 64 % 8));
		}
		quiescent();
	}
	atomic_store(&r_round, -1);
	test_block_begin();
	for (int i = 0; i < R_THREADS; i++)
		pthread_join(th[i], NULL);
	test_block_end();
	assert_no_thread_failures();
	cr_assert_eq(wins, rounds);
	rcu_read_lock();
	struct rcu_lfht_iter it;
	struct obj *o;
	rcu_lfht_for_each_entry(r_ht, &it, o, node) {
		cr_assert_eq(rcu_lfht_del(r_ht, &o->node), 0);
		obj_retire(o);
	}
	rcu_read_unlock();
	cr_assert_eq(rcu_lfht_destroy(r_ht), 0);
	rcu_unregister_thread();
	rcu_barrier();
	rcu_barrier();
	cr_assert_eq(atomic_load(&objs_live), 0);
}

#if defined(RCU_DEBUG_DELAY)
#define RACE_ROUNDS 300 /* each round waits out the delays of every thread */
#else
#define RACE_ROUNDS 1500
#endif

Test(lfht, add_unique_race_exactly_one_wins, .timeout = 120)
{
	race_run(false, false, test_rounds(RACE_ROUNDS));
	race_run(false, true, test_rounds(RACE_ROUNDS / 3));
}

Test(lfht, add_replace_race_each_node_replaced_once, .timeout = 120)
{
	race_run(true, false, test_rounds(RACE_ROUNDS));
	race_run(true, true, test_rounds(RACE_ROUNDS / 3));
}

/*
 * The end of a test that registered and filled a table from objs[0, n) (malloc'ed): delete and
 * retire them, destroy the table, unregister, and check that every object was freed.
 */
static void teardown_table(struct rcu_lfht *ht, struct obj **objs, unsigned long n)
{
	rcu_read_lock();
	for (unsigned long k = 0; k < n; k++) {
		cr_assert_eq(rcu_lfht_del(ht, &objs[k]->node), 0);
		obj_retire(objs[k]);
	}
	rcu_read_unlock();
	cr_assert_eq(rcu_lfht_destroy(ht), 0);
	rcu_unregister_thread();
	rcu_barrier();
	rcu_barrier();
	free(objs);
	cr_assert_eq(atomic_load(&objs_live), 0);
}

/* >>auto_resize: growth and shrinking by the counters, with readers running */

static struct rcu_lfht *a_ht;
static _Atomic int a_stop;

static void *a_reader(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	rcu_register_thread();
	while (!atomic_load_explicit(&a_stop, memory_order_relaxed)) {
		unsigned long k = test_rand(&seed) % 64; /* keys [0, 64) stay */
		struct rcu_lfht_iter it;
		rcu_read_lock();
		rcu_lfht_lookup(a_ht, key_hash(k), match_key, &k, &it);
		if (!it.node)
			thread_fail("auto_resize: lookup missed key %lu (%lu buckets)", k, rcu_lfht_buckets(a_ht));
		rcu_read_unlock();
		quiescent();
	}
	rcu_unregister_thread();
	return NULL;
}

Test(lfht, auto_resize_grows_and_shrinks_under_readers, .timeout = 120)
{
	SKIP_UNDER_DELAY();
	bad_hash = false;
	atomic_store(&a_stop, 0);
	a_ht = rcu_lfht_new(1, 1, 0, RCU_LFHT_AUTO_RESIZE | RCU_LFHT_ACCOUNTING);
	cr_assert(a_ht);
	unsigned long slots = a_ht->slot_mask + 1;
	if (slots > 64)
		cr_skip_test("%lu counter slots: the shrink threshold needs more nodes than this test adds", slots);
	/*
	 * C nodes per commit, S slots; this thread counts in one slot, so the count is exact at each
	 * commit. 12 C S nodes grow the table to 8 or 16 C S buckets (a commit asks for the power of
	 * two at or above the count once it finds 2 nodes per bucket: which one depends on when the
	 * callback ran). Deleting down to C S commits a count of C S or less per 8 buckets, which is
	 * trusted (at least C S), and asks for at most 4 C S buckets.
	 */
	unsigned long n = 12 * RCU__LFHT_COMMIT * slots, keep = RCU__LFHT_COMMIT * slots - 64;
	struct obj **objs = calloc(n, sizeof *objs);
	cr_assert(objs);
	rcu_register_thread();
	rcu_read_lock();
	for (unsigned long k = 0; k < 64; k++) {
		objs[k] = obj_new(k);
		rcu_lfht_add(a_ht, key_hash(k), &objs[k]->node);
	}
	rcu_read_unlock();
	pthread_t r[2];
	for (int i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&r[i], NULL, a_reader, (void *)(uintptr_t)(3 + i)), 0);
	/* Chain-length growth first (small table), then the counters. */
	for (unsigned long k = 64; k < n; k++) {
		rcu_read_lock();
		objs[k] = obj_new(k);
		rcu_lfht_add(a_ht, key_hash(k), &objs[k]->node);
		rcu_read_unlock();
		quiescent();
	}
	rcu_barrier(); /* the resize callback has run */
	rcu_barrier();
	unsigned long grown = rcu_lfht_buckets(a_ht);
	cr_assert_geq(grown, n / 2, "after %lu adds: %lu buckets", n, grown);
	for (unsigned long k = n; k-- > keep;) {
		rcu_read_lock();
		cr_assert_eq(rcu_lfht_del(a_ht, &objs[k]->node), 0);
		rcu_read_unlock();
		obj_retire(objs[k]);
		quiescent();
	}
	rcu_barrier();
	rcu_barrier();
	unsigned long shrunk = rcu_lfht_buckets(a_ht);
	cr_log_info("lfht auto resize (%s): %lu counter slots; %lu nodes: %lu buckets; %lu nodes: %lu buckets",
		    TEST_FLAVOUR, slots, n, grown, keep, shrunk);
	cr_assert_lt(shrunk, grown / 2, "after deleting down to %lu nodes: %lu buckets (had %lu)", keep, shrunk, grown);
	atomic_store(&a_stop, 1);
	test_block_begin();
	for (int i = 0; i < 2; i++)
		pthread_join(r[i], NULL);
	test_block_end();
	assert_no_thread_failures();
	teardown_table(a_ht, objs, keep);
}

/*
 * >>growth without a grace period: a reader holds one section (QSBR: stays online without a
 * quiescent state) for the whole test, so no grace period ends and the resize callback that the
 * adds queue cannot run. The table must grow anyway: the adds that ask for growth link bucket
 * nodes themselves (help(), under a trylock, in batches). Before they did, the table stayed at
 * 1 bucket until the reader left, and each add walked every node added before it.
 */
#define G_NODES 4096ul

static void growth_under_a_held_section(int flags)
{
	bad_hash = false;
	rcu_register_thread();
	struct rcu_lfht *ht = rcu_lfht_new(1, 1, 0, RCU_LFHT_AUTO_RESIZE | flags);
	cr_assert(ht);
	pthread_t holder;
	test_block_begin();
	cr_assert(test_holder_start(&holder));
	test_block_end();
	struct obj **objs = calloc(G_NODES, sizeof *objs);
	cr_assert(objs);
	for (unsigned long k = 0; k < G_NODES; k++) {
		rcu_read_lock();
		objs[k] = obj_new(k);
		rcu_lfht_add(ht, key_hash(k), &objs[k]->node);
		rcu_read_unlock();
		quiescent();
	}
	/* Still inside the holder's section: no grace period has ended since it began. */
	unsigned long buckets = rcu_lfht_buckets(ht);
	bool queued = (rcu__load(&ht->resize_state, RCU__RELAXED) & RCU__LFHT_QUEUED) != 0;
	rcu_read_lock();
	unsigned long linked = check_split_order(ht);
	unsigned long missed = 0;
	for (unsigned long k = 0; k < G_NODES; k++) {
		struct rcu_lfht_iter it;
		rcu_lfht_lookup(ht, key_hash(k), match_key, &k, &it);
		missed += it.node != &objs[k]->node;
	}
	rcu_read_unlock();
	cr_log_info("lfht growth under a held section (%s, flags %d): %lu nodes, %lu buckets, %lu bucket nodes linked, callback %s",
		    TEST_FLAVOUR, flags, G_NODES, buckets, linked, queued ? "still queued" : "not queued");
	cr_assert(queued, "the resize callback ran: a grace period ended while the reader held its section");
	/*
	 * A level of more than RCU__LFHT_HELP_BATCH bucket nodes takes several helpers in turn, each
	 * resuming from grow_next: [2048, 4096) is the first such (with the default batch, 1,024),
	 * so the table must pass it. Helpers that only began levels stalled at 2,048 buckets.
	 */
	cr_assert_geq(G_NODES, 4 * RCU__LFHT_HELP_BATCH);
	cr_assert_geq(buckets, 4 * RCU__LFHT_HELP_BATCH,
		      "%lu adds while a reader held its section: the table has %lu buckets (a level larger "
		      "than one helper's batch, %lu, was never completed)", G_NODES, buckets, RCU__LFHT_HELP_BATCH);
	cr_assert_geq(linked, buckets, "%lu buckets published, %lu bucket nodes linked", buckets, linked);
	cr_assert_eq(missed, 0, "%lu keys not found", missed);
	test_block_begin();
	test_holder_stop(holder);
	test_block_end();
	assert_no_thread_failures();
	teardown_table(ht, objs, G_NODES);
}

Test(lfht, auto_resize_grows_while_a_reader_holds_its_section, .timeout = 120)
{
	growth_under_a_held_section(0);
	growth_under_a_held_section(RCU_LFHT_ACCOUNTING);
}

/*
 * A level half built by an updater (white-box: help() once, with a target twice the size, links
 * RCU__LFHT_HELP_BATCH of its bucket nodes) is resumed where it stopped by whoever takes the lock
 * next, and finished before a shrink. A resizer that began the level again would link its
 * bucket nodes twice (the split order breaks, or the count of bucket nodes is wrong); a shrink
 * that ignored it would leave them linked below a smaller count. `rewind`: the cursor is moved
 * back over the last bucket nodes linked, as a holder leaves it that stops between a link and the
 * cursor's store (a fork): the next holder must skip them, not link them again (a bucket node
 * linked behind itself is a loop: the resize never returns).
 */
static void half_built_level(unsigned long resize_to, unsigned long rewind)
{
	const unsigned long b = RCU__LFHT_HELP_BATCH;
	bad_hash = false;
	rcu_register_thread();
	struct rcu_lfht *ht = rcu_lfht_new(2 * b, 1, 0, 0);
	cr_assert(ht);
	struct obj *objs[256];
	rcu_read_lock();
	for (unsigned long k = 0; k < 256; k++) {
		objs[k] = obj_new(k);
		rcu_lfht_add(ht, key_hash(k), &objs[k]->node);
	}
	rcu__store(&ht->resize_target, 4 * b, RCU__RELAXED);
	RCU__LFHT_SYM(help)(ht);
	cr_assert_eq(rcu_lfht_buckets(ht), 2 * b, "help() published a level it had not finished");
	cr_assert_eq(ht->grow_next, 3 * b, "help() linked up to bucket %lu, not %lu", ht->grow_next, 3 * b);
	cr_assert_eq(check_split_order(ht), 3 * b);
	rcu_read_unlock();
	ht->grow_next -= rewind;
	rcu_lfht_resize(ht, resize_to);
	cr_assert_eq(rcu_lfht_buckets(ht), resize_to);
	cr_assert_eq(ht->grow_next, 0);
	rcu_read_lock();
	cr_assert_eq(check_split_order(ht), resize_to, "%lu buckets", resize_to);
	for (unsigned long k = 0; k < 256; k++) {
		struct rcu_lfht_iter it;
		rcu_lfht_lookup(ht, key_hash(k), match_key, &k, &it);
		cr_assert_eq(it.node, &objs[k]->node, "key %lu after resizing to %lu", k, resize_to);
		cr_assert_eq(rcu_lfht_del(ht, &objs[k]->node), 0);
		obj_retire(objs[k]);
	}
	rcu_read_unlock();
	assert_no_thread_failures();
	cr_assert_eq(rcu_lfht_destroy(ht), 0);
	rcu_unregister_thread();
	rcu_barrier();
	rcu_barrier();
	cr_assert_eq(atomic_load(&objs_live), 0);
}

Test(lfht, a_half_built_level_is_resumed)
{
	SKIP_UNDER_DELAY();
	half_built_level(4 * RCU__LFHT_HELP_BATCH, 0);
	half_built_level(8 * RCU__LFHT_HELP_BATCH, 0);
}

Test(lfht, a_bucket_node_linked_already_is_skipped, .timeout = 60)
{
	SKIP_UNDER_DELAY();
	half_built_level(4 * RCU__LFHT_HELP_BATCH, 1);
	half_built_level(4 * RCU__LFHT_HELP_BATCH, 3);
}

Test(lfht, a_half_built_level_is_finished_before_a_shrink)
{
	SKIP_UNDER_DELAY();
	half_built_level(1, 0);
	half_built_level(RCU__LFHT_HELP_BATCH, 0);
	half_built_level(2 * RCU__LFHT_HELP_BATCH, 0); /* the size it has: grows, then shrinks back */
}

/*
 * One update helps a growth at most once: RCU__LFHT_HELP_BATCH links (white-box). The add below
 * asks for growth twice, by insert()'s chain rule (3 distinct hashes before it in its bucket)
 * and by the commit that its slot's 1,024th addition makes (the count set to two nodes per
 * bucket); the level [2048, 4096) is two batches. Helping twice completed it in one add.
 */
enum update_kind { UPDATE_ADD, UPDATE_ADD_UNIQUE, UPDATE_ADD_REPLACE };

static void one_update_helps_once(enum update_kind kind)
{
	const unsigned long b = RCU__LFHT_HELP_BATCH, size = 2 * b;
	bad_hash = false;
	rcu_register_thread();
	struct rcu_lfht *ht = rcu_lfht_new(size, 1, 0, RCU_LFHT_AUTO_RESIZE | RCU_LFHT_ACCOUNTING);
	cr_assert(ht);
	const unsigned long commit_all = RCU__LFHT_COMMIT * (ht->slot_mask + 1); /* the chain rule's limit */
	cr_assert_geq(commit_all / 2, size);
	/* Keys hash to key * size: bucket 0; reversed, 2, 1, 3 come before 7. */
	static const unsigned long keys[4] = { 1, 2, 3, 7 };
	struct obj *objs[4];
	rcu_read_lock();
	for (int k = 0; k < 3; k++) {
		objs[k] = obj_new(keys[k]);
		rcu_lfht_add(ht, keys[k] * size, &objs[k]->node);
	}
	cr_assert_eq(rcu_lfht_buckets(ht), size, "the table grew before the update (the chain rule needs 3 hashes)");
	rcu__store(&ht->count, (long)(commit_all - RCU__LFHT_COMMIT), RCU__RELAXED);
	struct rcu__lfht_slot *slot = rcu__lfht_my_slot(ht);
	rcu__store(&slot->add, RCU__LFHT_COMMIT - 1, RCU__RELAXED);
	objs[3] = obj_new(keys[3]);
	unsigned long k7 = keys[3];
	if (kind == UPDATE_ADD)
		rcu_lfht_add(ht, k7 * size, &objs[3]->node);
	else if (kind == UPDATE_ADD_UNIQUE)
		cr_assert_eq(rcu_lfht_add_unique(ht, k7 * size, match_key, &k7, &objs[3]->node), &objs[3]->node);
	else
		cr_assert_null(rcu_lfht_add_replace(ht, k7 * size, match_key, &k7, &objs[3]->node));
	/* Still in the section: the resize callback the requests queued cannot have run. */
	unsigned long buckets = rcu_lfht_buckets(ht), next = ht->grow_next;
	cr_assert_eq(rcu__load(&ht->count, RCU__RELAXED), (long)commit_all, "the update did not commit");
	cr_assert_eq(buckets, size, "update %d completed a level of two batches: it helped twice", kind);
	cr_assert_eq(next, size + b, "update %d linked up to bucket %lu, not %lu", kind, next, size + b);
	for (int k = 0; k < 4; k++) {
		cr_assert_eq(rcu_lfht_del(ht, &objs[k]->node), 0);
		obj_retire(objs[k]);
	}
	rcu_read_unlock();
	cr_assert_eq(rcu_lfht_destroy(ht), 0);
	rcu_unregister_thread();
	rcu_barrier();
	rcu_barrier();
	assert_no_thread_failures();
}

Test(lfht, one_update_helps_a_growth_once)
{
	SKIP_UNDER_DELAY();
	one_update_helps_once(UPDATE_ADD);
	one_update_helps_once(UPDATE_ADD_UNIQUE);
	one_update_helps_once(UPDATE_ADD_REPLACE);
}

/*
 * >>no memory: an updater helping a growth (help()), or rcu_lfht_resize(), that cannot allocate
 * the level's array changes nothing: the count stays, no level is begun (grow_next 0: a level
 * begun without its array would have the next holder link bucket nodes into memory nobody
 * allocated), the target falls back to the count (else later requests would find their growth
 * asked for already and never help again), and the lock is free; a later request grows. A
 * request that raises the target while the allocation fails keeps its target (a request is never
 * lost: the failing resizer may not overwrite it).
 */
static struct rcu_lfht *no_memory_table;

static void raise_the_target(void)
{
	rcu__store(&no_memory_table->resize_target, 64ul, RCU__RELAXED); /* as a request() would */
}

static void assert_nothing_begun(struct rcu_lfht *ht, unsigned long size, unsigned long target, const char *who)
{
	cr_assert_eq(rcu_lfht_buckets(ht), size, "%s without memory: %lu buckets, not %lu", who, rcu_lfht_buckets(ht), size);
	cr_assert_eq(ht->grow_next, 0, "%s without memory began a level (grow_next %lu)", who, ht->grow_next);
	unsigned long t = rcu__load(&ht->resize_target, RCU__RELAXED);
	cr_assert_eq(t, target, "%s without memory: the target is %lu, not %lu", who, t, target);
	cr_assert_eq(pthread_mutex_trylock(&ht->resize_lock), 0, "%s without memory left the resize lock held", who);
	pthread_mutex_unlock(&ht->resize_lock);
	rcu_read_lock();
	cr_assert_eq(check_split_order(ht), size);
	rcu_read_unlock();
}

Test(lfht, growth_without_memory_changes_nothing)
{
	SKIP_UNDER_DELAY();
	rcu_register_thread();
	struct rcu_lfht *ht = rcu_lfht_new(2, 2, 0, 0); /* 2 buckets in the first array: growing allocates */
	cr_assert(ht);
	no_memory_table = ht;

	/* An updater helps, with the target as a request leaves it (white-box). */
	rcu_read_lock();
	rcu__store(&ht->resize_target, 4ul, RCU__RELAXED);
	malloc_fails = true;
	RCU__LFHT_SYM(help)(ht);
	malloc_fails = false;
	rcu_read_unlock();
	assert_nothing_begun(ht, 2, 2, "help()");

	rcu_read_lock();
	rcu__store(&ht->resize_target, 4ul, RCU__RELAXED);
	malloc_fail_hook = raise_the_target;
	malloc_fails = true;
	RCU__LFHT_SYM(help)(ht);
	malloc_fails = false;
	malloc_fail_hook = NULL;
	rcu_read_unlock();
	assert_nothing_begun(ht, 2, 64, "help(), while a request raised the target,");

	/* A later request (its growth asked for already: it only helps) grows. */
	rcu_read_lock();
	RCU__LFHT_SYM(request)(ht, 2, 4, true);
	rcu_read_unlock();
	cr_assert_eq(rcu_lfht_buckets(ht), 4, "a request after the failure did not grow the table");

	/* rcu_lfht_resize() likewise. */
	malloc_fails = true;
	rcu_lfht_resize(ht, 8);
	malloc_fails = false;
	assert_nothing_begun(ht, 4, 4, "rcu_lfht_resize()");
	malloc_fail_hook = raise_the_target;
	malloc_fails = true;
	rcu_lfht_resize(ht, 8);
	malloc_fails = false;
	malloc_fail_hook = NULL;
	assert_nothing_begun(ht, 4, 64, "rcu_lfht_resize(), while a request raised the target,");
	rcu_lfht_resize(ht, 8);
	cr_assert_eq(rcu_lfht_buckets(ht), 8);

	cr_assert_eq(rcu_lfht_destroy(ht), 0);
	rcu_unregister_thread();
	assert_no_thread_failures();
}

/* >>destroy */

Test(lfht, destroy_refuses_a_table_with_nodes)
{
	bad_hash = false;
	struct rcu_lfht *ht = rcu_lfht_new(4, 1, 0, 0);
	cr_assert(ht);
	rcu_register_thread();
	struct obj *o = obj_new(1);
	rcu_read_lock();
	rcu_lfht_add(ht, key_hash(1), &o->node);
	rcu_read_unlock();
	cr_assert_eq(rcu_lfht_destroy(ht), -EPERM);
	rcu_read_lock();
	cr_assert_eq(rcu_lfht_destroy(ht), -EPERM, "inside a section too");
	struct rcu_lfht_iter it;
	unsigned long k = 1;
	rcu_lfht_lookup(ht, key_hash(1), match_key, &k, &it); /* still usable */
	cr_assert_eq(it.node, &o->node);
	cr_assert_eq(rcu_lfht_del(ht, &o->node), 0);
	rcu_read_unlock();
	obj_retire(o);
	cr_assert_eq(rcu_lfht_destroy(ht), 0);
	rcu_unregister_thread();
	rcu_barrier();
	rcu_barrier();
}

/*
 * A reader holds a section, so no grace period ends: the resize callback that the adds queue
 * cannot run, and destroy finds it queued. The table goes to the callback, which frees it once
 * the reader leaves (the ASan build fails on a leak or a double free). Half the destroys are
 * called inside a section.
 */
Test(lfht, destroy_with_a_resize_pending, .timeout = 60)
{
	bad_hash = true; /* one hash: every add's chain is long, so resizes are asked for */
	rcu_register_thread();
	for (int round = 0; round < 8; round++) {
		struct rcu_lfht *ht = rcu_lfht_new(1, 1, 0, RCU_LFHT_AUTO_RESIZE);
		cr_assert(ht);
		pthread_t holder;
		test_block_begin();
		cr_assert(test_holder_start(&holder));
		test_block_end();
		struct obj *objs[64];
		rcu_read_lock();
		for (unsigned long k = 0; k < 64; k++) {
			objs[k] = obj_new(k);
			rcu_lfht_add(ht, key_hash(k), &objs[k]->node);
		}
		for (unsigned long k = 0; k < 64; k++)
			cr_assert_eq(rcu_lfht_del(ht, &objs[k]->node), 0);
		rcu_read_unlock();
		cr_assert(rcu__load(&ht->resize_state, RCU__RELAXED) & RCU__LFHT_QUEUED, "no resize was queued");
		if (round % 2) {
			rcu_read_lock();
			cr_assert_eq(rcu_lfht_destroy(ht), 0);
			rcu_read_unlock();
		} else {
			cr_assert_eq(rcu_lfht_destroy(ht), 0);
		}
		test_block_begin();
		test_holder_stop(holder);
		test_block_end();
		for (unsigned long k = 0; k < 64; k++)
			obj_retire(objs[k]);
		rcu_barrier(); /* the callback ran and freed the table */
	}
	rcu_unregister_thread();
	rcu_barrier();
	rcu_barrier();
	cr_assert_eq(atomic_load(&objs_live), 0);
}
