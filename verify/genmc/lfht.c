/* SPDX-License-Identifier: 0BSD */
/*
 * verify/genmc/lfht.c: the ordering points of rcu_lfht.h (H1..H9), run by GenMC on the header's
 * own code, as harness.c does for rcu.h. One test per build: -DTEST_<name>; -DRCU_FLAVOUR_MB
 * (the table's orders do not depend on the flavour; model.h's shims are the same).
 * verify/genmc/lfht.sh runs them with a broken copy of rcu_lfht.h per label.
 *
 * Nodes carry plain (non-atomic) fields, written before the node is added and read by readers
 * that reach it: under RC11 a reader's read that the table does not order after the write is a
 * data race, and a read of memory nobody wrote (a bucket node not yet linked) is an
 * uninitialised read. RCU__LFHT_NO_CALLER_MB leaves out the full barriers that the table adds
 * around an update's commit for its callers (liburcu's guarantee): with them GenMC would check a
 * stronger program, and no label's own order could be shown necessary.
 *
 * Keys hash to themselves, so with one bucket the list is: bucket 0, then the keys in
 * bit-reversed order (2 = 0x40..., 1 = 0x80..., 3 = 0xc0... on 64 bits).
 *
 * -DPROBE=<n>: a coverage probe (must FAIL): something the test is about does not happen.
 * PROBE 99 (every test): main() never gets past joining every thread.
 */
#define RCU__LFHT_NO_CALLER_MB 1
/* An updater that helps a growth links one bucket node: `help` splits a level between two. */
#define RCU__LFHT_MODEL_HELP_BATCH 1ul
#include "model.h"
#include "rcu_lfht.h"

#ifndef PROBE
#define PROBE 0
#endif
#define PROBE_END 99

#define LIVE 42
#define POISON 0xdead

struct obj {
	struct rcu_lfht_node node;
	int key; /* plain */
	int val; /* plain: LIVE from initialisation until the poison */
	struct rcu_head rcu;
};

static struct obj *obj_new(int key)
{
	struct obj *o = malloc(sizeof *o);
	o->key = key;
	o->val = LIVE;
	return o;
}

static int match(struct rcu_lfht_node *n, const void *key)
{
	struct obj *o = rcu_lfht_entry(n, struct obj, node);
	return o->key == *(const int *)key;
}

static struct rcu_lfht *ht;
static pthread_t threads[MODEL_THREADS];
static int nthreads;

static void spawn(void *(*fn)(void *))
{
	assert(nthreads < MODEL_THREADS - 1);
	pthread_create(&threads[nthreads++], NULL, fn, NULL);
}

/*
 * Threads register, then wait here until every one of n has: registration racing the table's
 * operations multiplies the executions by the orders of the registry lock, and harness.c's
 * `register` checks registration.
 */
static _Atomic int ready;

static void start_together(int n)
{
	atomic_fetch_add_explicit(&ready, 1, memory_order_release);
	__VERIFIER_assume(atomic_load_explicit(&ready, memory_order_acquire) >= n);
}

static void join_all(void)
{
	for (int i = 0; i < nthreads; i++)
		pthread_join(threads[i], NULL);
	assert(PROBE != PROBE_END);
}

/* A reader's lookup of key, inside a section: the node it finds is initialised and live. */
static struct obj *lookup(int key)
{
	struct rcu_lfht_iter it;
	rcu_lfht_lookup(ht, (unsigned long)key, match, &key, &it);
	struct obj *o = it.node ? rcu_lfht_entry(it.node, struct obj, node) : NULL;
	if (o)
		assert(o->val == LIVE);
	return o;
}

static void add(int key)
{
	struct obj *o = obj_new(key);
	rcu_read_lock();
	rcu_lfht_add(ht, (unsigned long)key, &o->node);
	rcu_read_unlock();
}

/* ---- insert: an add published to a concurrent lookup (H1, H2) ------------------------------- */
#if defined(TEST_insert)
/*
 * thread: lookup(1); main: add(1). A reader that finds the node sees its key and value as written
 * before the add (H1's release, H2's consume).
 * PROBE 1: the reader finds the node.
 */
static void *reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	start_together(2);
	rcu_read_lock();
	struct obj *o = lookup(1);
	rcu_read_unlock();
	rcu_unregister_thread();
	if (PROBE == 1)
		assert(!o);
	return NULL;
}

int main(void)
{
	ht = rcu_lfht_new(1, 1, 4, 0);
	spawn(reader);
	rcu_register_thread();
	start_together(2);
	add(1);
	rcu_unregister_thread();
	join_all();
	return 0;
}
#endif

/* ---- unlink: a node reached through the unlink of its predecessor (H7) ------------------------- */
#if defined(TEST_unlink)
/*
 * The list starts as bucket 0 -> 2. A thread adds 1 (behind 2: H1) and deletes 2 (marks it, H6,
 * and unlinks it: bucket 0's link now leads to 1, H7). A reader looks up 1: when it reaches 1
 * straight from bucket 0, through the link the unlink wrote, it must see 1 initialised: H7's
 * release passes on what the updater wrote before (the delta from insdel: one updater, so that
 * the check runs in seconds).
 * PROBE 1: the reader reaches 1 directly from bucket 0 (through the unlink).
 */
static struct obj *two;

static void *updater(void *arg)
{
	(void)arg;
	rcu_register_thread();
	start_together(2);
	add(1);
	rcu_read_lock();
	assert(rcu_lfht_del(ht, &two->node) == 0);
	rcu_read_unlock();
	rcu_unregister_thread();
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	start_together(2);
	rcu_read_lock();
	struct rcu_lfht_node *first = NULL;
	if (PROBE == 1)
		first = rcu__lfht_ptr(rcu__load(&rcu__lfht_bucket(ht, 0)->next, RCU__RELAXED));
	struct obj *o = lookup(1);
	rcu_read_unlock();
	rcu_unregister_thread();
	if (PROBE == 1)
		assert(!(o && first == &o->node));
	return NULL;
}

int main(void)
{
	ht = rcu_lfht_new(1, 1, 4, 0);
	rcu_register_thread();
	two = obj_new(2);
	rcu_read_lock();
	rcu_lfht_add(ht, 2, &two->node);
	rcu_read_unlock();
	rcu_unregister_thread();
	spawn(updater);
	spawn(reader);
	join_all();
	return 0;
}
#endif

/* ---- unlink_race: an unlink whose CAS loses to an insert (H7's reload) ---------------------- */
#if defined(TEST_unlink_race)
/*
 * The list starts as bucket 0 -> 1. A thread deletes 1 (marks it, H6, then unlinks it: a CAS of
 * bucket 0's link from 1 to 1's successor, H7) while main adds 2, which goes in front of 1 (a
 * CAS of bucket 0's link from 1 to 2, H1). When the add wins, the unlink's CAS fails and reads
 * bucket 0's new link, 2, relaxed; the deleter goes on from it and reads 2's fields: it must
 * load the link again with H2's order (H7's reload), or nothing orders main's writes to 2
 * before them. Afterwards 2 is in the table and 1 is not.
 */
static struct obj *one;

static void *deleter(void *arg)
{
	(void)arg;
	rcu_register_thread();
	start_together(2);
	rcu_read_lock();
	assert(rcu_lfht_del(ht, &one->node) == 0);
	rcu_read_unlock();
	rcu_unregister_thread();
	return NULL;
}

int main(void)
{
	ht = rcu_lfht_new(1, 1, 4, 0);
	rcu_register_thread();
	one = obj_new(1);
	rcu_read_lock();
	rcu_lfht_add(ht, 1, &one->node);
	rcu_read_unlock();
	spawn(deleter);
	start_together(2);
	add(2);
	rcu_unregister_thread();
	join_all();
	rcu_register_thread();
	rcu_read_lock();
	assert(lookup(2));
	int k = 1;
	struct rcu_lfht_iter it;
	rcu_lfht_lookup(ht, 1, match, &k, &it);
	assert(!it.node);
	rcu_read_unlock();
	rcu_unregister_thread();
	return 0;
}
#endif

/* ---- replace: a replace whose CAS loses to an insert behind the old node (H5's failure) ------ */
#if defined(TEST_replace)
/*
 * The list starts as bucket 0 -> 2. A thread looks 2 up and replaces it with a new node of key 2
 * (links the new node behind old 2 and marks old 2 in one CAS of old 2's link, H5, then unlinks
 * old 2: a CAS of bucket 0's link, H7), while main adds 1, which goes behind 2 (a CAS of old 2's
 * link, H1). When the add wins, the replace's CAS fails, reads 1 as old 2's new link, copies it
 * into the new node and tries again; its own unlink then walks from the new node to 1 and reads
 * 1's fields: H5's failure must be an acquire, or nothing orders main's writes to 1 before them
 * (nor before the H7 that leads every later walker to the new node, then 1). Afterwards the
 * table holds the new 2 and 1, and the lookup of 2 meets the new node only.
 */
static struct obj *two;

static void *replacer(void *arg)
{
	(void)arg;
	rcu_register_thread();
	start_together(2);
	struct obj *o = obj_new(2);
	o->val = LIVE + 1;
	rcu_read_lock();
	int k = 2;
	struct rcu_lfht_iter it;
	rcu_lfht_lookup(ht, 2, match, &k, &it);
	assert(it.node == &two->node);
	assert(rcu_lfht_replace(ht, &it, 2, match, &k, &o->node) == 0);
	rcu_read_unlock();
	rcu_unregister_thread();
	return NULL;
}

int main(void)
{
	ht = rcu_lfht_new(1, 1, 4, 0);
	rcu_register_thread();
	two = obj_new(2);
	rcu_read_lock();
	rcu_lfht_add(ht, 2, &two->node);
	rcu_read_unlock();
	spawn(replacer);
	start_together(2);
	add(1);
	rcu_unregister_thread();
	join_all();
	rcu_register_thread();
	rcu_read_lock();
	assert(lookup(1));
	int k = 2;
	struct rcu_lfht_iter it;
	rcu_lfht_lookup(ht, 2, match, &k, &it);
	assert(it.node && it.node != &two->node);
	assert(rcu_lfht_entry(it.node, struct obj, node)->val == LIVE + 1);
	rcu_lfht_next_duplicate(ht, match, &k, &it);
	assert(!it.node);
	rcu_read_unlock();
	rcu_unregister_thread();
	return 0;
}
#endif

/* ---- insdel: a delete racing an insert at the neighbouring node (H1, H6, H7) ----------------- */
#if defined(TEST_insdel)
/*
 * The list starts as bucket 0 -> 2. main adds 1 (behind 2: a CAS of 2's link, H1) while a thread
 * deletes 2 (marks 2's link, H6, then unlinks it: a CAS of bucket 0's link to 2's successor, H7);
 * the add either links 1 behind 2 before the mark, or fails, helps unlink 2 and links 1 behind
 * the bucket. A reader looks up 1: it may reach 1 through bucket 0's link as the delete left it,
 * and must see it initialised (H7's release passes on what the deleter saw through 2's link).
 * Afterwards 1 is in the table and 2 is not. (Three threads: --deep only, minutes under RC11.)
 * PROBE 1: the reader reaches 1 directly from bucket 0 (through the unlink).
 */
static struct obj *two;

static void *deleter(void *arg)
{
	(void)arg;
	rcu_register_thread();
	start_together(3);
	rcu_read_lock();
	assert(rcu_lfht_del(ht, &two->node) == 0);
	rcu_read_unlock();
	rcu_unregister_thread();
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	start_together(3);
	rcu_read_lock();
	struct rcu_lfht_node *first = NULL;
	if (PROBE == 1)
		first = rcu__lfht_ptr(rcu__load(&rcu__lfht_bucket(ht, 0)->next, RCU__RELAXED));
	struct obj *o = lookup(1);
	rcu_read_unlock();
	rcu_unregister_thread();
	if (PROBE == 1)
		assert(!(o && first == &o->node));
	return NULL;
}

int main(void)
{
	ht = rcu_lfht_new(1, 1, 4, 0);
	rcu_register_thread();
	two = obj_new(2);
	rcu_read_lock();
	rcu_lfht_add(ht, 2, &two->node);
	rcu_read_unlock();
	spawn(deleter);
	spawn(reader);
	start_together(3);
	add(1);
	rcu_unregister_thread();
	join_all();
	rcu_register_thread();
	rcu_read_lock();
	int k = 1;
	assert(lookup(1));
	k = 2;
	struct rcu_lfht_iter it;
	rcu_lfht_lookup(ht, 2, match, &k, &it);
	assert(!it.node);
	rcu_read_unlock();
	rcu_unregister_thread();
	return 0;
}
#endif

/* ---- delete: del then a grace period, racing a lookup: never a reclaimed node ---------------- */
#if defined(TEST_delete)
/*
 * thread: lookup(1); main: del(1), synchronize_rcu(), poison and free. The reader meets the node
 * live, or not at all: del makes it unreachable before it returns, and the grace period waits
 * for readers that reached it before.
 * PROBE 1: the reader finds the node.
 */
static void *reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	start_together(2);
	rcu_read_lock();
	struct obj *o = lookup(1);
	rcu_read_unlock();
	rcu_unregister_thread();
	if (PROBE == 1)
		assert(!o);
	return NULL;
}

int main(void)
{
	ht = rcu_lfht_new(1, 1, 4, 0);
	rcu_register_thread();
	struct obj *o = obj_new(1);
	rcu_read_lock();
	rcu_lfht_add(ht, 1, &o->node);
	rcu_read_unlock();
	spawn(reader);
	start_together(2);
	rcu_read_lock();
	assert(rcu_lfht_del(ht, &o->node) == 0);
	rcu_read_unlock();
	synchronize_rcu();
	o->val = POISON;
	free(o);
	rcu_unregister_thread();
	join_all();
	return 0;
}
#endif

/* ---- grow: a lookup while the bucket count doubles (H3, H4, H1 for a bucket node) ------------ */
#if defined(TEST_grow)
/*
 * One bucket (the first array holds two, the second not yet linked) and key 1, which bucket 1
 * will hold. A thread doubles the buckets; a reader looks up 1: it finds it, whichever count it
 * read; with the doubled count it starts at bucket node 1, which must be linked and initialised
 * (H3 before the count, H4 after reading it).
 * PROBE 1: the reader reads the doubled count.
 */
static _Atomic int saw_two;

static void *resizer(void *arg)
{
	(void)arg;
	rcu_register_thread();
	start_together(2);
	rcu_lfht_resize(ht, 2);
	rcu_unregister_thread();
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	start_together(2);
	rcu_read_lock();
	if (rcu__load(&ht->size, RCU__RELAXED) == 2)
		atomic_store_explicit(&saw_two, 1, memory_order_relaxed);
	struct obj *o = lookup(1);
	rcu_read_unlock();
	rcu_unregister_thread();
	assert(o); /* present for the whole lookup: never missed */
	return NULL;
}

int main(void)
{
	ht = rcu_lfht_new(1, 2, 4, 0);
	rcu_register_thread();
	add(1);
	rcu_unregister_thread();
	spawn(resizer);
	spawn(reader);
	join_all();
	assert(rcu_lfht_buckets(ht) == 2);
	if (PROBE == 1)
		assert(!atomic_load_explicit(&saw_two, memory_order_relaxed));
	return 0;
}
#endif

/* ---- help: a level built by two updaters in turn, published by the second (H10, H3, H4) ----- */
#if defined(TEST_help)
/*
 * Two buckets (the first array holds four: no allocation), key 2, and a target of four buckets,
 * as a request leaves it. Two updaters help, inside their sections: each that gets the resize
 * lock links one bucket node of the level [2, 4), resuming from grow_next: the first links bucket
 * node 2, the second bucket node 3 and publishes four (H3). A reader looks up 2: with the doubled
 * count it starts at bucket node 2, linked by the other updater: H10 (its unlock, release, and
 * the publisher's trylock, acquire) orders that work before the count's release.
 * With MODEL_RELAXED_MUTEX the resize lock orders nothing: the second updater's reads of
 * grow_next and of the level race with the first's writes (GenMC takes about ten minutes to
 * reach the race: lfht.sh --deep).
 * The end state is one of exactly two: both helped (four buckets, no level begun), or one found
 * the lock taken and returned (two buckets, bucket node 2 linked: grow_next 3). A help() that
 * linked nothing, or linked without moving the cursor, ends in neither.
 * PROBE 1: the reader reads the doubled count (so the level was split between the two).
 * PROBE 2: the second end state happens (a helper's trylock fails).
 */
static _Atomic int saw_four;

static void *helper(void *arg)
{
	(void)arg;
	rcu_register_thread();
	start_together(3);
	rcu_read_lock();
	RCU__LFHT_SYM(help)(ht);
	rcu_read_unlock();
	rcu_unregister_thread();
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	start_together(3);
	rcu_read_lock();
	if (rcu__load(&ht->size, RCU__RELAXED) == 4)
		atomic_store_explicit(&saw_four, 1, memory_order_relaxed);
	struct obj *two = lookup(2);
	rcu_read_unlock();
	rcu_unregister_thread();
	assert(two); /* present for the whole lookup: never missed */
	return NULL;
}

int main(void)
{
	ht = rcu_lfht_new(2, 4, 4, 0);
	rcu_register_thread();
	add(2);
	rcu_unregister_thread();
	rcu__store(&ht->resize_target, 4, RCU__RELAXED);
#if defined(MODEL_RELAXED_MUTEX)
	model_relaxed_mutex = &ht->resize_lock;
#endif
	spawn(helper);
	spawn(helper);
	spawn(reader);
	join_all();
	unsigned long size = rcu_lfht_buckets(ht);
	assert(size == 4 ? ht->grow_next == 0 : size == 2 && ht->grow_next == 3);
	if (PROBE == 1)
		assert(!atomic_load_explicit(&saw_four, memory_order_relaxed));
	if (PROBE == 2)
		assert(size == 4);
	return 0;
}
#endif

/* ---- shrink: an add while the bucket count halves (the grace period before unlinking) --------- */
#if defined(TEST_shrink)
/*
 * Two buckets. A thread halves them (publishes 1, waits for a grace period, unlinks bucket node 1)
 * while main adds key 3, which the two-bucket table puts behind bucket node 1. The add may read
 * either count; afterwards key 3 is in the table (not linked behind a bucket node that is gone).
 * PROBE 1: the add reads two buckets.
 */
static void *resizer(void *arg)
{
	(void)arg;
	rcu_register_thread();
	start_together(2);
	rcu_lfht_resize(ht, 1);
	rcu_unregister_thread();
	return NULL;
}

int main(void)
{
	ht = rcu_lfht_new(2, 2, 4, 0);
	spawn(resizer);
	rcu_register_thread();
	start_together(2);
	struct obj *o = obj_new(3);
	rcu_read_lock();
	unsigned long size = rcu__load(&ht->size, RCU__RELAXED);
	rcu_lfht_add(ht, 3, &o->node);
	rcu_read_unlock();
	rcu_unregister_thread();
	join_all();
	rcu_register_thread();
	rcu_read_lock();
	assert(lookup(3));
	rcu_read_unlock();
	rcu_unregister_thread();
	assert(rcu_lfht_buckets(ht) == 1);
	if (PROBE == 1)
		assert(size != 2);
	return 0;
}
#endif

/* ---- destroy: destroy against the resize callback (H9) --------------------------------------- */
#if defined(TEST_destroy)
/*
 * The resize callback is queued (QUEUED set, as a request leaves it) and runs on a thread while
 * main destroys the empty table: the table is freed exactly once, after the callback's last
 * access (GenMC reports a double free, an access to freed memory, or a race).
 */
static void *callback(void *arg)
{
	(void)arg;
	rcu_register_thread();
	start_together(2);
	RCU__LFHT_SYM(resize_cb)(&ht->resize_head);
	rcu_unregister_thread();
	return NULL;
}

int main(void)
{
	ht = rcu_lfht_new(1, 1, 4, RCU_LFHT_AUTO_RESIZE);
	rcu__store(&ht->resize_state, RCU__LFHT_QUEUED | RCU__LFHT_AGAIN, RCU__RELAXED);
	spawn(callback);
	start_together(2);
	assert(rcu_lfht_destroy(ht) == 0);
	join_all();
	return 0;
}
#endif
