/* SPDX-License-Identifier: 0BSD */
/*
 * test/lists.c: RCU lists (rcu_list, rcu_hlist) and the read-mostly map of examples/rcu_map.h.
 *
 * - Single-threaded: random sequences of every list operation checked against a model (a plain
 *   array in list order): order both ways, the links readers follow, emptiness, first entry.
 * - Concurrent: readers traverse while an updater adds, deletes, replaces and moves entries. The
 *   list holds NSLOTS "permanent slots", entries that are never removed (only replaced in place by
 *   a fresh entry with the same slot): every traversal must terminate, see every slot exactly once
 *   and in order, never see a reclaimed entry (reclaimed entries are poisoned and kept, so a late
 *   reader would find the poison), and see each entry (unique id) at most once.
 * - The map under two readers and two updaters, each updater owning its own keys and model, with
 *   everything checked against the models at barriers.
 */
#include "rcu.h"
#include "harness.h"
#include "../examples/rcu_map.h"

#include <stdarg.h>
#include <stdbool.h>
#include <sched.h>

/* >>items */

#define ITEM_LIVE   0x4954454du /* "ITEM" */
#define ITEM_POISON 0xdeaddeadu

struct item {
	struct rcu_list link;
	struct rcu_hlist_node hnode;
	uint64_t id;            /* unique over the whole test */
	int slot;               /* >= 0: a permanent slot; -1: transient */
	_Atomic uint32_t magic; /* relaxed atomic: a reader racing a (buggy) early poison has no UB */
	_Atomic uint32_t moves; /* bumped by a move after its grace period, before re-linking */
	struct rcu_head rcu;
	struct item *grave_next;
};

static uint64_t next_item_id;

static struct item *item_new(int slot)
{
	struct item *it = calloc(1, sizeof *it);
	if (!it)
		abort();
	it->id = ++next_item_id;
	it->slot = slot;
	atomic_store_explicit(&it->magic, ITEM_LIVE, memory_order_relaxed);
	return it;
}

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

/* >>list-model: single-threaded rcu_list against an array */

#define MODEL_MAX 48

static void check_list(struct rcu_list *head, struct item **model, int n)
{
	struct item *it;
	int i = 0;

	rcu_read_lock();
	rcu_list_for_each_entry(it, head, link) {
		cr_assert_lt(i, n, "reader traversal longer than the model (%d)", n);
		cr_assert_eq(it, model[i], "reader traversal: entry %d is id %llu, model has id %llu", i,
			(unsigned long long)it->id, (unsigned long long)model[i]->id);
		i++;
	}
	cr_assert_eq(i, n, "reader traversal saw %d entries, model has %d", i, n);
	struct item *first = rcu_list_first_entry_or_null(head, struct item, link);
	cr_assert_eq(first, n ? model[0] : NULL, "rcu_list_first_entry_or_null()");
	rcu_read_unlock();

	i = 0;
	rcu_list_for_each_entry_locked(it, head, link) {
		cr_assert_lt(i, n);
		cr_assert_eq(it, model[i], "locked traversal differs from the model at %d", i);
		i++;
	}
	cr_assert_eq(i, n);

	/* Backwards through prev, and each link's two ends agree. */
	struct rcu_list *p = head->prev;
	for (i = n - 1; i >= 0; i--) {
		cr_assert_eq(p, &model[i]->link, "prev chain differs from the model at %d", i);
		p = p->prev;
	}
	cr_assert_eq(p, head, "prev chain does not end at the head");
	for (i = 0; i < n; i++)
		cr_assert_eq(model[i]->link.prev, i ? &model[i - 1]->link : head);
	cr_assert_eq(rcu_list_empty(head), n == 0, "rcu_list_empty() with %d entries", n);
}

static void model_insert(struct item **model, int *n, int at, struct item *it)
{
	memmove(&model[at + 1], &model[at], (size_t)(*n - at) * sizeof *model);
	model[at] = it;
	(*n)++;
}

static void model_remove(struct item **model, int *n, int at)
{
	memmove(&model[at], &model[at + 1], (size_t)(*n - at - 1) * sizeof *model);
	(*n)--;
}

Test(lists, list_static_init_and_empty)
{
	static struct rcu_list head = RCU_LIST_HEAD_INIT(head);
	struct rcu_list h2;
	rcu_list_init(&h2);
	rcu_register_thread();
	cr_assert(rcu_list_empty(&head));
	cr_assert(rcu_list_empty(&h2));
	check_list(&head, NULL, 0);
	struct item *a = item_new(-1);
	rcu_list_add(&a->link, &head);
	cr_assert_not(rcu_list_empty(&head));
	check_list(&head, &a, 1);
	rcu_list_del(&a->link);
	cr_assert(rcu_list_empty(&head));
	cr_assert_eq(atomic_load_explicit(&a->link.next, memory_order_relaxed), &head,
		"a deleted entry's next must still lead readers on (here: back to the head)");
	check_list(&head, NULL, 0);
	rcu_list_add_tail(&a->link, &h2);
	check_list(&h2, &a, 1);
	rcu_unregister_thread();
	free(a);
}

static void list_random_run(uint64_t seed, long ops)
{
	struct rcu_list head;
	struct item *model[MODEL_MAX];
	int n = 0;
	rcu_list_init(&head);
	for (long op = 0; op < ops; op++) {
		uint64_t r = test_rand(&seed);
		int kind = (int)(r % 6);
		int j = n ? (int)((r >> 8) % (uint64_t)n) : 0;
		if (n == MODEL_MAX && kind < 4)
			kind = 4;
		if (n == 0 && kind >= 2)
			kind = (int)(r % 2);
		struct item *it;
		switch (kind) {
		case 0: /* at the front */
			it = item_new(-1);
			rcu_list_add(&it->link, &head);
			model_insert(model, &n, 0, it);
			break;
		case 1: /* at the back */
			it = item_new(-1);
			rcu_list_add_tail(&it->link, &head);
			model_insert(model, &n, n, it);
			break;
		case 2: /* after entry j: rcu_list_add() takes any node as the "head" */
			it = item_new(-1);
			rcu_list_add(&it->link, &model[j]->link);
			model_insert(model, &n, j + 1, it);
			break;
		case 3: /* before entry j */
			it = item_new(-1);
			rcu_list_add_tail(&it->link, &model[j]->link);
			model_insert(model, &n, j, it);
			break;
		case 4: { /* delete entry j */
			struct rcu_list *succ = j + 1 < n ? &model[j + 1]->link : &head;
			it = model[j];
			rcu_list_del(&it->link);
			cr_assert_eq(atomic_load_explicit(&it->link.next, memory_order_relaxed), succ,
				"after rcu_list_del() the entry's next must still be its old successor");
			model_remove(model, &n, j);
			free(it);
			break;
		}
		default: { /* replace entry j by a fresh one */
			struct rcu_list *succ = j + 1 < n ? &model[j + 1]->link : &head;
			struct item *old = model[j];
			it = item_new(-1);
			rcu_list_replace(&old->link, &it->link);
			cr_assert_eq(atomic_load_explicit(&old->link.next, memory_order_relaxed), succ,
				"after rcu_list_replace() the old entry's next must still be its successor");
			model[j] = it;
			free(old);
			break;
		}
		}
		check_list(&head, model, n);
	}
	/* Empty it with the _safe iterator, which may delete the entry it stands on. */
	struct item *pos, *tmp;
	int i = 0;
	rcu_list_for_each_entry_safe(pos, tmp, &head, link) {
		cr_assert_lt(i, n);
		cr_assert_eq(pos, model[i], "_safe iteration differs from the model at %d", i);
		i++;
		rcu_list_del(&pos->link);
		free(pos);
	}
	cr_assert_eq(i, n, "_safe iteration visited %d of %d entries", i, n);
	cr_assert(rcu_list_empty(&head));
}

Test(lists, list_random_against_model)
{
	rcu_register_thread();
	for (uint64_t s = 1; s <= 8; s++)
		list_random_run(s * 0x9e3779b97f4a7c15u, test_rounds(1500));
	rcu_unregister_thread();
}

/* >>hlist-model: single-threaded rcu_hlist against an array */

static void check_hlist(struct rcu_hlist_head *head, struct item **model, int n)
{
	struct item *it;
	int i = 0;

	rcu_read_lock();
	rcu_hlist_for_each_entry(it, head, hnode) {
		cr_assert_lt(i, n, "reader traversal longer than the model (%d)", n);
		cr_assert_eq(it, model[i], "reader traversal: entry %d is id %llu, model has id %llu", i,
			(unsigned long long)it->id, (unsigned long long)model[i]->id);
		i++;
	}
	cr_assert_eq(i, n, "reader traversal saw %d entries, model has %d", i, n);
	rcu_read_unlock();

	i = 0;
	rcu_hlist_for_each_entry_locked(it, head, hnode) {
		cr_assert_lt(i, n);
		cr_assert_eq(it, model[i], "locked traversal differs from the model at %d", i);
		i++;
	}
	cr_assert_eq(i, n);

	/* pprev points at the link that points at the node; the last next is NULL. */
	cr_assert_eq(atomic_load_explicit(&head->first, memory_order_relaxed),
		n ? &model[0]->hnode : NULL);
	for (i = 0; i < n; i++) {
		struct rcu_hlist_node *nd = &model[i]->hnode;
		cr_assert_eq(nd->pprev, i ? &model[i - 1]->hnode.next : &head->first,
			"pprev of entry %d does not point at its predecessor's link", i);
		cr_assert_eq(atomic_load_explicit(nd->pprev, memory_order_relaxed), nd);
		cr_assert_eq(atomic_load_explicit(&nd->next, memory_order_relaxed),
			i + 1 < n ? &model[i + 1]->hnode : NULL);
		cr_assert_not(rcu_hlist_unhashed(nd), "entry %d in a list reads as unhashed", i);
	}
}

Test(lists, hlist_static_init_and_unhashed)
{
	static struct rcu_hlist_head head = RCU_HLIST_HEAD_INIT;
	struct rcu_hlist_head h2;
	rcu_hlist_init(&h2);
	rcu_register_thread();
	check_hlist(&head, NULL, 0);
	check_hlist(&h2, NULL, 0);
	struct item *a = item_new(-1); /* calloc: a zeroed node has never been hashed */
	cr_assert(rcu_hlist_unhashed(&a->hnode), "a zeroed node must read as unhashed");
	rcu_hlist_add_head(&a->hnode, &head);
	cr_assert_not(rcu_hlist_unhashed(&a->hnode));
	check_hlist(&head, &a, 1);
	rcu_hlist_del(&a->hnode);
	check_hlist(&head, NULL, 0);
	cr_assert_null(atomic_load_explicit(&a->hnode.next, memory_order_relaxed));

	/* rcu_hlist_del_init() (rcu.h's addition) leaves the node unhashed, and is idempotent. */
	struct item *b = item_new(-1);
	rcu_hlist_add_head(&b->hnode, &head);
	rcu_hlist_add_head(&a->hnode, &head);
	struct item *both[2] = { a, b };
	check_hlist(&head, both, 2);
	rcu_hlist_del_init(&a->hnode);
	cr_assert(rcu_hlist_unhashed(&a->hnode), "rcu_hlist_del_init() must leave the node unhashed");
	cr_assert_eq(atomic_load_explicit(&a->hnode.next, memory_order_relaxed), &b->hnode,
		"rcu_hlist_del_init() must keep the forward link for readers on the node");
	check_hlist(&head, &b, 1);
	rcu_hlist_del_init(&a->hnode); /* unhashed: nothing to do, the list is untouched */
	check_hlist(&head, &b, 1);
	rcu_hlist_del_init(&b->hnode);
	check_hlist(&head, NULL, 0);
	rcu_unregister_thread();
	free(a);
	free(b);
}

static void hlist_random_run(uint64_t seed, long ops)
{
	struct rcu_hlist_head head;
	struct item *model[MODEL_MAX];
	int n = 0;
	rcu_hlist_init(&head);
	for (long op = 0; op < ops; op++) {
		uint64_t r = test_rand(&seed);
		int kind = (int)(r % 5);
		int j = n ? (int)((r >> 8) % (uint64_t)n) : 0;
		if (n == MODEL_MAX && kind < 3)
			kind = 3;
		if (n == 0)
			kind = 0;
		struct item *it;
		switch (kind) {
		case 0:
			it = item_new(-1);
			rcu_hlist_add_head(&it->hnode, &head);
			model_insert(model, &n, 0, it);
			break;
		case 1: /* before entry j */
			it = item_new(-1);
			rcu_hlist_add_before(&it->hnode, &model[j]->hnode);
			model_insert(model, &n, j, it);
			break;
		case 2: /* behind entry j */
			it = item_new(-1);
			rcu_hlist_add_behind(&it->hnode, &model[j]->hnode);
			model_insert(model, &n, j + 1, it);
			break;
		case 3: { /* delete entry j */
			struct rcu_hlist_node *succ = j + 1 < n ? &model[j + 1]->hnode : NULL;
			it = model[j];
			rcu_hlist_del(&it->hnode);
			cr_assert_eq(atomic_load_explicit(&it->hnode.next, memory_order_relaxed), succ,
				"after rcu_hlist_del() the node's next must still be its old successor");
			model_remove(model, &n, j);
			free(it);
			break;
		}
		default: { /* replace entry j */
			struct rcu_hlist_node *succ = j + 1 < n ? &model[j + 1]->hnode : NULL;
			struct item *old = model[j];
			it = item_new(-1);
			cr_assert(rcu_hlist_unhashed(&it->hnode));
			rcu_hlist_replace(&old->hnode, &it->hnode);
			cr_assert_eq(atomic_load_explicit(&old->hnode.next, memory_order_relaxed), succ,
				"after rcu_hlist_replace() the old node's next must still be its successor");
			model[j] = it;
			free(old);
			break;
		}
		}
		check_hlist(&head, model, n);
	}
	struct item *pos, *tmp; /* rcu.h's tmp is an entry, as for rcu_list (the kernel's is a node) */
	int i = 0;
	rcu_hlist_for_each_entry_safe(pos, tmp, &head, hnode) {
		cr_assert_lt(i, n);
		cr_assert_eq(pos, model[i], "_safe iteration differs from the model at %d", i);
		i++;
		rcu_hlist_del(&pos->hnode);
		free(pos);
	}
	cr_assert_eq(i, n, "_safe iteration visited %d of %d entries", i, n);
	cr_assert_null(atomic_load_explicit(&head.first, memory_order_relaxed));
}

Test(lists, hlist_random_against_model)
{
	rcu_register_thread();
	for (uint64_t s = 1; s <= 8; s++)
		hlist_random_run(s * 0xc2b2ae3d27d4eb4fu, test_rounds(1500));
	rcu_unregister_thread();
}

/* >>concurrent: readers traverse while an updater changes the list */

enum { KIND_LIST, KIND_HLIST };

#define NSLOTS 16            /* permanent slots */
#define MAX_TRANSIENT 48
#define READERS 2
#define TRAVERSAL_CAP 65536  /* more entries than this in one traversal: it does not terminate */

static struct {
	int kind;
	struct rcu_list lhead;
	struct rcu_hlist_head hhead;
	pthread_mutex_t lock;          /* the updater's lock (one updater, but written as if many) */
	_Atomic bool stop;
	_Atomic int readers_ready;
	_Atomic long traversals;
	struct item *_Atomic graveyard; /* reclaimed entries, poisoned and kept until the end */
	_Atomic long reclaimed;
	long retired;                  /* updater: entries handed to call_rcu */
	long moves, grace_periods;     /* updater: for the record */
	struct item *slots[NSLOTS];    /* updater: the current entry of each slot */
	struct item *trans[MAX_TRANSIENT]; /* updater: the transient entries in the list */
	int ntrans;
} C;

static void item_reclaim(struct rcu_head *head)
{
	struct item *it = rcu_container_of(head, struct item, rcu);
	it->id = UINT64_MAX;
	it->slot = -2;
	atomic_store_explicit(&it->magic, ITEM_POISON, memory_order_relaxed);
	struct item *top = atomic_load_explicit(&C.graveyard, memory_order_relaxed);
	do
		it->grave_next = top;
	while (!atomic_compare_exchange_weak_explicit(&C.graveyard, &top, it, memory_order_release,
		memory_order_relaxed));
	atomic_fetch_add_explicit(&C.reclaimed, 1, memory_order_relaxed);
}

static void retire(struct item *it)
{
	C.retired++;
	call_rcu(&it->rcu, item_reclaim);
}

struct traversal {
	uint64_t *ids;
	struct item **seen;     /* the entries visited, in order */
	uint32_t *moves;        /* their move counts when visited */
	size_t n;
	int next_slot;
	uint64_t seed;
	bool bad;
};

static bool visit(struct traversal *t, struct item *it)
{
	uint32_t magic = atomic_load_explicit(&it->magic, memory_order_relaxed);
	if (magic != ITEM_LIVE) {
		thread_fail("reader reached entry %p with magic 0x%08x: it was reclaimed while a "
			"reader could still see it", (void *)it, magic);
		return t->bad = true, false;
	}
	if (t->n == TRAVERSAL_CAP) {
		thread_fail("a traversal visited more than %d entries: it does not terminate",
			TRAVERSAL_CAP);
		return t->bad = true, false;
	}
	t->seen[t->n] = it;
	t->moves[t->n] = atomic_load_explicit(&it->moves, memory_order_relaxed);
	t->ids[t->n++] = it->id;
	if (it->slot >= 0) {
		if (it->slot != t->next_slot) {
			thread_fail("reader saw permanent slot %d where slot %d was due: a slot that "
				"stayed in the list was skipped or seen twice", it->slot, t->next_slot);
			return t->bad = true, false;
		}
		t->next_slot++;
	}
	if ((test_rand(&t->seed) & 7) == 0)
		test_widen(&t->seed, 300);
	return true;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static void *conc_reader(void *arg)
{
	struct traversal t = { .seed = (uint64_t)(uintptr_t)arg * 0x9e3779b97f4a7c15u + 1 };
	t.ids = malloc(TRAVERSAL_CAP * sizeof *t.ids);
	t.seen = malloc(TRAVERSAL_CAP * sizeof *t.seen);
	t.moves = malloc(TRAVERSAL_CAP * sizeof *t.moves);
	if (!t.ids || !t.seen || !t.moves) {
		thread_fail("reader: out of memory");
		atomic_fetch_add_explicit(&C.readers_ready, 1, memory_order_relaxed);
		return NULL;
	}
	rcu_register_thread();
	bool first = true;
	do {
		t.n = 0;
		t.next_slot = 0;
		t.bad = false;
		rcu_read_lock();
		struct item *it;
		if (C.kind == KIND_LIST) {
			rcu_list_for_each_entry(it, &C.lhead, link)
				if (!visit(&t, it))
					break;
		} else {
			rcu_hlist_for_each_entry(it, &C.hhead, hnode)
				if (!visit(&t, it))
					break;
		}
		/* Still inside the section: nothing it visited may have been reclaimed yet, however
		 * long ago it was removed. This catches a grace period that ends early, not only one
		 * that ends while the reader stands on the entry. */
		for (size_t i = 0; i < t.n && !t.bad; i++) {
			uint32_t magic = atomic_load_explicit(&t.seen[i]->magic, memory_order_relaxed);
			if (magic != ITEM_LIVE) {
				thread_fail("entry id %llu, visited earlier in a read-side section that is "
					"still running, has been reclaimed (magic 0x%08x)",
					(unsigned long long)t.ids[i], magic);
				t.bad = true;
			} else if (atomic_load_explicit(&t.seen[i]->moves, memory_order_relaxed) != t.moves[i]) {
				thread_fail("entry id %llu was moved (its grace period ended) while a "
					"read-side section that visited it was still running",
					(unsigned long long)t.ids[i]);
				t.bad = true;
			}
		}
		rcu_read_unlock();
		if (!t.bad && t.next_slot != NSLOTS)
			thread_fail("a traversal saw %d of the %d permanent slots", t.next_slot, NSLOTS);
		if (!t.bad) {
			qsort(t.ids, t.n, sizeof *t.ids, cmp_u64);
			for (size_t i = 1; i < t.n; i++)
				if (t.ids[i] == t.ids[i - 1]) {
					thread_fail("a traversal saw entry id %llu twice",
						(unsigned long long)t.ids[i]);
					break;
				}
		}
		atomic_fetch_add_explicit(&C.traversals, 1, memory_order_relaxed);
		if (first) {
			atomic_fetch_add_explicit(&C.readers_ready, 1, memory_order_relaxed);
			first = false;
		}
		rcu_quiescent_state();
	} while (!atomic_load_explicit(&C.stop, memory_order_relaxed));
	rcu_unregister_thread();
	free(t.ids);
	free(t.seen);
	free(t.moves);
	return NULL;
}

/* Updater helpers; all under C.lock. Position k in [0, NSLOTS + ntrans) names the k-th entry. */
static struct item *conc_nth(int k)
{
	struct item *it;
	if (C.kind == KIND_LIST) {
		rcu_list_for_each_entry_locked(it, &C.lhead, link)
			if (k-- == 0)
				return it;
	} else {
		rcu_hlist_for_each_entry_locked(it, &C.hhead, hnode)
			if (k-- == 0)
				return it;
	}
	thread_fail("conc_nth: position %d past the end of the list", k);
	return C.slots[0];
}

static void conc_insert_random(struct item *it, uint64_t *seed)
{
	uint64_t r = test_rand(seed);
	int len = NSLOTS + C.ntrans;
	struct item *at = conc_nth((int)((r >> 8) % (uint64_t)len));
	if (C.kind == KIND_LIST) {
		switch (r % 4) {
		case 0: rcu_list_add(&it->link, &C.lhead); break;
		case 1: rcu_list_add_tail(&it->link, &C.lhead); break;
		case 2: rcu_list_add(&it->link, &at->link); break;
		default: rcu_list_add_tail(&it->link, &at->link); break;
		}
	} else {
		switch (r % 3) {
		case 0: rcu_hlist_add_head(&it->hnode, &C.hhead); break;
		case 1: rcu_hlist_add_before(&it->hnode, &at->hnode); break;
		default: rcu_hlist_add_behind(&it->hnode, &at->hnode); break;
		}
	}
}

static void conc_unlink(struct item *it)
{
	if (C.kind == KIND_LIST)
		rcu_list_del(&it->link);
	else
		rcu_hlist_del(&it->hnode);
}

static void conc_replace(struct item *old, struct item *it)
{
	if (C.kind == KIND_LIST)
		rcu_list_replace(&old->link, &it->link);
	else
		rcu_hlist_replace(&old->hnode, &it->hnode);
}

static struct item *take_transient(int j)
{
	struct item *it = C.trans[j];
	C.trans[j] = C.trans[--C.ntrans];
	return it;
}

static void *conc_updater(void *arg)
{
	long ops = (long)(intptr_t)arg;
	uint64_t seed = 0x5eed;
	rcu_register_thread();
	for (long op = 0; op < ops; op++) {
		uint64_t r = test_rand(&seed);
		int choice = (int)(r % 32);
		int j = C.ntrans ? (int)((r >> 16) % (uint64_t)C.ntrans) : 0;
		pthread_mutex_lock(&C.lock);
		if (choice < 10 && C.ntrans < MAX_TRANSIENT) {          /* add a fresh entry */
			struct item *it = item_new(-1);
			conc_insert_random(it, &seed);
			C.trans[C.ntrans++] = it;
		} else if (choice < 18 && C.ntrans > 0) {               /* delete */
			struct item *it = take_transient(j);
			conc_unlink(it);
			retire(it);
		} else if (choice < 24 && C.ntrans > 0) {               /* replace a transient */
			struct item *it = item_new(-1), *old = C.trans[j];
			conc_replace(old, it);
			C.trans[j] = it;
			retire(old);
		} else if (choice < 31) {                              /* replace a permanent slot */
			int s = (int)((r >> 24) % NSLOTS);
			struct item *it = item_new(s), *old = C.slots[s];
			conc_replace(old, it);
			C.slots[s] = it;
			retire(old);
		} else if (C.ntrans > 0) {                             /* move a few entries */
			struct item *moving[3];
			int k = 1 + (int)((r >> 32) % 3);
			if (k > C.ntrans)
				k = C.ntrans;
			for (int i = 0; i < k; i++) {
				moving[i] = take_transient((int)(test_rand(&seed) % (uint64_t)C.ntrans));
				conc_unlink(moving[i]);
			}
			/* No reader may still stand on them when their links change. */
			synchronize_rcu();
			C.grace_periods++;
			for (int i = 0; i < k; i++) {
				atomic_fetch_add_explicit(&moving[i]->moves, 1, memory_order_relaxed);
				conc_insert_random(moving[i], &seed);
				C.trans[C.ntrans++] = moving[i];
			}
			C.moves += k;
		}
		pthread_mutex_unlock(&C.lock);
		rcu_quiescent_state();
	}
	rcu_unregister_thread();
	return NULL;
}

static void run_concurrent(int kind, long ops)
{
	memset(&C, 0, sizeof C);
	C.kind = kind;
	pthread_mutex_init(&C.lock, NULL);
	rcu_list_init(&C.lhead);
	rcu_hlist_init(&C.hhead);
	struct item *prev = NULL;
	for (int s = 0; s < NSLOTS; s++) {
		struct item *it = item_new(s);
		if (kind == KIND_LIST)
			rcu_list_add_tail(&it->link, &C.lhead);
		else if (prev)
			rcu_hlist_add_behind(&it->hnode, &prev->hnode);
		else
			rcu_hlist_add_head(&it->hnode, &C.hhead);
		C.slots[s] = prev = it;
	}

	pthread_t readers[READERS], updater;
	for (int i = 0; i < READERS; i++)
		cr_assert_eq(pthread_create(&readers[i], NULL, conc_reader, (void *)(uintptr_t)(i + 1)), 0);
	while (atomic_load_explicit(&C.readers_ready, memory_order_relaxed) < READERS)
		sched_yield();
	cr_assert_eq(pthread_create(&updater, NULL, conc_updater, (void *)(intptr_t)ops), 0);
	pthread_join(updater, NULL);
	atomic_store_explicit(&C.stop, true, memory_order_relaxed);
	for (int i = 0; i < READERS; i++)
		pthread_join(readers[i], NULL);
	assert_no_thread_failures();

	rcu_barrier();
	long reclaimed = atomic_load_explicit(&C.reclaimed, memory_order_relaxed);
	cr_assert_eq(reclaimed, C.retired, "after rcu_barrier() %ld of %ld callbacks have run",
		reclaimed, C.retired);
	long buried = 0;
	struct item *g = atomic_load_explicit(&C.graveyard, memory_order_acquire);
	while (g) {
		struct item *next = g->grave_next;
		cr_assert_eq(atomic_load_explicit(&g->magic, memory_order_relaxed), ITEM_POISON);
		free(g);
		g = next;
		buried++;
	}
	cr_assert_eq(buried, C.retired);

	/* What is left is exactly the updater's view: the slots in order and its transients. */
	int count = 0, next_slot = 0, ntrans = 0;
	struct item *it, *tmp;
	if (kind == KIND_LIST) {
		rcu_list_for_each_entry_safe(it, tmp, &C.lhead, link) {
			if (it->slot >= 0) {
				cr_assert_eq(it->slot, next_slot++);
				cr_assert_eq(it, C.slots[it->slot]);
			} else {
				ntrans++;
			}
			count++;
			rcu_list_del(&it->link);
			free(it);
		}
	} else {
		rcu_hlist_for_each_entry_safe(it, tmp, &C.hhead, hnode) {
			if (it->slot >= 0) {
				cr_assert_eq(it->slot, next_slot++);
				cr_assert_eq(it, C.slots[it->slot]);
			} else {
				ntrans++;
			}
			count++;
			rcu_hlist_del(&it->hnode);
			free(it);
		}
	}
	cr_assert_eq(next_slot, NSLOTS);
	cr_assert_eq(ntrans, C.ntrans);
	cr_assert_eq(count, NSLOTS + C.ntrans);
	cr_log_info("%s: %ld ops, %ld retired, %ld moved (%ld grace periods), %ld traversals",
		kind == KIND_LIST ? "rcu_list" : "rcu_hlist", ops, C.retired, C.moves,
		C.grace_periods, atomic_load_explicit(&C.traversals, memory_order_relaxed));
}

Test(lists, list_concurrent_readers_and_updater, .timeout = 90)
{
	run_concurrent(KIND_LIST, test_rounds(20000));
}

Test(lists, hlist_concurrent_readers_and_updater, .timeout = 90)
{
	run_concurrent(KIND_HLIST, test_rounds(20000));
}

/* >>map: examples/rcu_map.h */

#define VTAG_SHIFT 24 /* value = key << VTAG_SHIFT | version (version > 0) */

static uint64_t map_value(uint64_t key, uint64_t version)
{
	return key << VTAG_SHIFT | (version & ((1u << VTAG_SHIFT) - 1)) | 1;
}

Test(lists, map_single_thread_against_model)
{
	enum { KEYS = 64 };
	uint64_t model[KEYS] = { 0 }; /* 0: absent */
	struct rcu_map m;
	uint64_t seed = 99;
	cr_assert_eq(rcu_map_init(&m, 5), 0); /* 8 buckets: long chains */
	rcu_register_thread();
	for (long op = 0; op < test_rounds(20000); op++) {
		uint64_t r = test_rand(&seed), k = (r >> 8) % KEYS, v = map_value(k, (uint64_t)op), old = 0;
		bool found;
		switch (r % 5) {
		case 0:
			if (model[k]) {
				cr_assert_eq(rcu_map_insert(&m, k, v), EEXIST);
			} else {
				cr_assert_eq(rcu_map_insert(&m, k, v), 0);
				model[k] = v;
			}
			break;
		case 1:
			if (model[k]) {
				cr_assert_eq(rcu_map_replace(&m, k, v, &old), 0);
				cr_assert_eq(old, model[k]);
				model[k] = v;
			} else {
				cr_assert_eq(rcu_map_replace(&m, k, v, &old), ENOENT);
			}
			break;
		case 2:
			found = rcu_map_delete(&m, k, &old);
			cr_assert_eq(found, model[k] != 0);
			if (found)
				cr_assert_eq(old, model[k]);
			model[k] = 0;
			break;
		case 3: {
			rcu_read_lock();
			const struct rcu_map_entry *e = rcu_map_find(&m, k);
			cr_assert_eq(e != NULL, model[k] != 0);
			if (e)
				cr_assert_eq(e->value, model[k]);
			rcu_read_unlock();
			break;
		}
		default:
			old = 0;
			found = rcu_map_lookup(&m, k, &old);
			cr_assert_eq(found, model[k] != 0, "lookup of key %llu", (unsigned long long)k);
			cr_assert_eq(old, model[k]);
			break;
		}
		rcu_quiescent_state();
	}
	long present = 0;
	for (uint64_t k = 0; k < KEYS; k++)
		present += model[k] != 0;
	rcu_unregister_thread();
	cr_assert_geq(rcu_map_live_entries(), present);
	rcu_map_destroy(&m);
	rcu_barrier();
	cr_assert_eq(rcu_map_live_entries(), 0, "%ld map entries never freed", rcu_map_live_entries());
}

#define MAP_UPDATERS 2
#define MAP_READERS 2
#define MAP_KEYS_PER_UPDATER 256
#define MAP_KEYS (MAP_UPDATERS * MAP_KEYS_PER_UPDATER)

static struct {
	struct rcu_map map;
	pthread_barrier_t barrier;
	long phases, ops_per_phase;
	_Atomic long updaters_done;      /* updater phases finished */
	uint64_t model[MAP_KEYS];        /* key k is written only by updater k / MAP_KEYS_PER_UPDATER */
	_Atomic long lookups;
} M;

/* Every key against the models; called by every thread while no one updates. */
static void map_check_all(const char *who)
{
	for (uint64_t k = 0; k < MAP_KEYS; k++) {
		uint64_t v = 0;
		bool found = rcu_map_lookup(&M.map, k, &v);
		if (found != (M.model[k] != 0) || v != M.model[k]) {
			thread_fail("%s at a barrier: key %llu %s value %llx, model %llx", who,
				(unsigned long long)k, found ? "has" : "lacks", (unsigned long long)v,
				(unsigned long long)M.model[k]);
			return;
		}
	}
}

static void map_barrier(void)
{
	test_block_begin();
	pthread_barrier_wait(&M.barrier);
	test_block_end();
}

static void *map_updater(void *arg)
{
	int u = (int)(intptr_t)arg;
	uint64_t base = (uint64_t)u * MAP_KEYS_PER_UPDATER, seed = (uint64_t)u * 7919 + 13;
	uint64_t *model = &M.model[base];
	uint64_t version = 0;
	rcu_register_thread();
	for (long ph = 0; ph < M.phases; ph++) {
		for (long op = 0; op < M.ops_per_phase; op++) {
			uint64_t r = test_rand(&seed), i = (r >> 8) % MAP_KEYS_PER_UPDATER, k = base + i;
			uint64_t v = map_value(k, ++version), old = 0;
			int rc;
			bool found;
			switch (r % 5) {
			case 0:
				rc = rcu_map_insert(&M.map, k, v);
				if (rc != (model[i] ? EEXIST : 0))
					thread_fail("insert of key %llu returned %d", (unsigned long long)k, rc);
				if (rc == 0)
					model[i] = v;
				break;
			case 1:
				rc = rcu_map_replace(&M.map, k, v, &old);
				if (rc != (model[i] ? 0 : ENOENT) || (rc == 0 && old != model[i]))
					thread_fail("replace of key %llu returned %d", (unsigned long long)k, rc);
				if (rc == 0)
					model[i] = v;
				break;
			case 2:
				found = rcu_map_delete(&M.map, k, &old);
				if (found != (model[i] != 0) || (found && old != model[i]))
					thread_fail("delete of key %llu disagrees with the model", (unsigned long long)k);
				model[i] = 0;
				break;
			case 3: { /* read-to-write upgrade: look up in a section, update without leaving it */
				rcu_read_lock();
				const struct rcu_map_entry *e = rcu_map_find(&M.map, k);
				if ((e != NULL) != (model[i] != 0) || (e && e->value != model[i]))
					thread_fail("find of own key %llu disagrees with the model", (unsigned long long)k);
				if (e) {
					rc = rcu_map_replace(&M.map, k, v, &old);
					if (rc != 0 || old != model[i])
						thread_fail("replace inside a section failed: %d", rc);
					model[i] = v;
				}
				rcu_read_unlock();
				break;
			}
			default:
				found = rcu_map_lookup(&M.map, k, &old);
				if (found != (model[i] != 0) || (found && old != model[i]))
					thread_fail("lookup of own key %llu disagrees with the model", (unsigned long long)k);
				break;
			}
			rcu_quiescent_state();
		}
		atomic_fetch_add_explicit(&M.updaters_done, 1, memory_order_relaxed);
		map_barrier();             /* A: no one updates; the models are published */
		map_check_all("updater");
		map_barrier();             /* B: everyone has checked */
	}
	rcu_unregister_thread();
	return NULL;
}

static void *map_reader(void *arg)
{
	uint64_t seed = (uint64_t)(uintptr_t)arg * 0x2545f4914f6cdd1du;
	long n = 0;
	rcu_register_thread();
	for (long ph = 0; ph < M.phases; ph++) {
		long target = (ph + 1) * MAP_UPDATERS;
		while (atomic_load_explicit(&M.updaters_done, memory_order_relaxed) < target) {
			uint64_t k = test_rand(&seed) % MAP_KEYS, v = 0;
			if (rcu_map_lookup(&M.map, k, &v) && (v >> VTAG_SHIFT != k || !(v & 1)))
				thread_fail("reader: key %llu gave value %llx of another key",
					(unsigned long long)k, (unsigned long long)v);
			n++;
			rcu_quiescent_state();
		}
		map_barrier();
		map_check_all("reader");
		map_barrier();
	}
	rcu_unregister_thread();
	atomic_fetch_add_explicit(&M.lookups, n, memory_order_relaxed);
	return NULL;
}

Test(lists, map_concurrent_against_models, .timeout = 90)
{
	memset(&M, 0, sizeof M);
	M.phases = 20;
	M.ops_per_phase = test_rounds(2000);
	cr_assert_eq(rcu_map_init(&M.map, 64), 0);
	cr_assert_eq(pthread_barrier_init(&M.barrier, NULL, MAP_UPDATERS + MAP_READERS), 0);
	pthread_t t[MAP_UPDATERS + MAP_READERS];
	for (int i = 0; i < MAP_UPDATERS; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, map_updater, (void *)(intptr_t)i), 0);
	for (int i = 0; i < MAP_READERS; i++)
		cr_assert_eq(pthread_create(&t[MAP_UPDATERS + i], NULL, map_reader,
			(void *)(uintptr_t)(i + 1)), 0);
	for (int i = 0; i < MAP_UPDATERS + MAP_READERS; i++)
		pthread_join(t[i], NULL);
	assert_no_thread_failures();

	rcu_register_thread();
	map_check_all("main");
	rcu_unregister_thread();
	assert_no_thread_failures();
	rcu_map_destroy(&M.map);
	pthread_barrier_destroy(&M.barrier);
	rcu_barrier();
	cr_assert_eq(rcu_map_live_entries(), 0, "%ld map entries never freed", rcu_map_live_entries());
	cr_log_info("map: %ld phases x %ld ops x %d updaters, %ld reader lookups", M.phases,
		M.ops_per_phase, MAP_UPDATERS, atomic_load_explicit(&M.lookups, memory_order_relaxed));
}
