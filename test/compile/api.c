/* SPDX-License-Identifier: 0BSD */
/*
 * test/compile/api.c: uses every public name of the API (/tmp/rcu-api-spec.md, docs/api.md) with
 * the types the spec gives, so that a missing or mistyped name fails to compile under
 * -Wall -Wextra -Wpedantic -Werror. api_exercise() also runs them once (check.sh links and runs
 * it). No system header before rcu.h and no _GNU_SOURCE: rcu.h must ask for what it needs.
 */
#if defined(API_CUSTOM_FREE)
void api_free(void *p);
#define RCU_FREE(p) api_free(p)
#endif
#if defined(API_SELECTOR_QSBR)
#include "rcu_flavours/qsbr.h"
#elif defined(API_SELECTOR_MEMB)
#include "rcu_flavours/memb.h"
#elif defined(API_SELECTOR_MB)
#include "rcu_flavours/mb.h"
#elif defined(API_SELECTOR_BP)
#include "rcu_flavours/bp.h"
#else
#include "rcu.h"
#endif

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#if defined(API_CUSTOM_FREE)
/* Weak: check.sh links two objects of this file; RCU_FREE must be one function per program. */
extern int api_frees;
__attribute__((weak)) int api_frees;
__attribute__((weak)) void api_free(void *p)
{
	api_frees++;
	free(p);
}
#endif

#ifndef API_FN
#define API_FN api_exercise
#endif
int API_FN(void);

/* Every function with the signature the spec gives (an incompatible pointer is an error). */
static void (*const api_void_fns[])(void) = {
	rcu_register_thread, rcu_unregister_thread, rcu_quiescent_state, rcu_thread_offline,
	rcu_thread_online, (rcu_read_lock), rcu_read_unlock, synchronize_rcu, rcu_barrier,
};
static bool (*const api_ongoing)(void) = rcu_read_ongoing;
static uint64_t (*const api_get_state)(void) = get_state_synchronize_rcu;
static uint64_t (*const api_start_poll)(void) = start_poll_synchronize_rcu;
static bool (*const api_poll)(uint64_t) = poll_state_synchronize_rcu;
static void (*const api_cond)(uint64_t) = cond_synchronize_rcu;
static void (*const api_call_rcu)(struct rcu_head *, void (*)(struct rcu_head *)) = call_rcu;
static void (*const api_get_stats)(struct rcu_stats *) = rcu_get_stats;
static void (*const api_list_init)(struct rcu_list *) = rcu_list_init;
static void (*const api_list_add)(struct rcu_list *, struct rcu_list *) = rcu_list_add;
static void (*const api_list_add_tail)(struct rcu_list *, struct rcu_list *) = rcu_list_add_tail;
static void (*const api_list_del)(struct rcu_list *) = rcu_list_del;
static void (*const api_list_replace)(struct rcu_list *, struct rcu_list *) = rcu_list_replace;
static bool (*const api_list_empty)(const struct rcu_list *) = rcu_list_empty;
static void (*const api_hlist_init)(struct rcu_hlist_head *) = rcu_hlist_init;
static bool (*const api_hlist_unhashed)(const struct rcu_hlist_node *) = rcu_hlist_unhashed;
static void (*const api_hlist_add_head)(struct rcu_hlist_node *, struct rcu_hlist_head *) = rcu_hlist_add_head;
static void (*const api_hlist_add_before)(struct rcu_hlist_node *, struct rcu_hlist_node *) = rcu_hlist_add_before;
static void (*const api_hlist_add_behind)(struct rcu_hlist_node *, struct rcu_hlist_node *) = rcu_hlist_add_behind;
static void (*const api_hlist_del)(struct rcu_hlist_node *) = rcu_hlist_del;
static void (*const api_hlist_replace)(struct rcu_hlist_node *, struct rcu_hlist_node *) = rcu_hlist_replace;

/* The struct members the spec names. */
_Static_assert(sizeof(((struct rcu_stats *)0)->grace_periods) == 8, "rcu_stats.grace_periods");
_Static_assert(sizeof(((struct rcu_stats *)0)->callbacks_queued) == 8, "rcu_stats.callbacks_queued");
_Static_assert(sizeof(((struct rcu_stats *)0)->callbacks_invoked) == 8, "rcu_stats.callbacks_invoked");
_Static_assert(sizeof(((struct rcu_stats *)0)->callbacks_pending) == 8, "rcu_stats.callbacks_pending");
_Static_assert(sizeof(((struct rcu_stats *)0)->callbacks_pending_max) == 8, "rcu_stats.callbacks_pending_max");
_Static_assert(sizeof(((struct rcu_list *)0)->next) == sizeof(void *), "rcu_list.next");
_Static_assert(sizeof(((struct rcu_list *)0)->prev) == sizeof(void *), "rcu_list.prev");
_Static_assert(sizeof(((struct rcu_hlist_head *)0)->first) == sizeof(void *), "rcu_hlist_head.first");
_Static_assert(sizeof(((struct rcu_hlist_node *)0)->next) == sizeof(void *), "rcu_hlist_node.next");
_Static_assert(sizeof(((struct rcu_hlist_node *)0)->pprev) == sizeof(void *), "rcu_hlist_node.pprev");

struct item {
	int key;
	struct rcu_head rh;
	struct rcu_list link;
	struct rcu_hlist_node hnode;
};

static struct item first_item = { .key = 1 };
static struct item *_Atomic current = RCU_INITIALIZER(&first_item);
static struct rcu_list list = RCU_LIST_HEAD_INIT(list);
static struct rcu_hlist_head bucket = RCU_HLIST_HEAD_INIT;
static int callbacks_run;

static void item_cb(struct rcu_head *head)
{
	struct item *it = rcu_container_of(head, struct item, rh);
	callbacks_run += it->key > 0;
}

#define API_CHECK(cond) \
	do { \
		if (!(cond)) \
			return __LINE__; \
	} while (0)

int API_FN(void)
{
	for (unsigned i = 0; i < sizeof api_void_fns / sizeof api_void_fns[0]; i++)
		API_CHECK(api_void_fns[i] != NULL);
	API_CHECK(api_ongoing && api_get_state && api_start_poll && api_poll && api_cond && api_call_rcu);
	API_CHECK(api_get_stats && api_list_init && api_list_add && api_list_add_tail && api_list_del);
	API_CHECK(api_list_replace && api_list_empty && api_hlist_init && api_hlist_unhashed);
	API_CHECK(api_hlist_add_head && api_hlist_add_before && api_hlist_add_behind && api_hlist_del);
	API_CHECK(api_hlist_replace);

	rcu_register_thread();
	rcu_read_lock();
	API_CHECK(rcu_read_ongoing());
	struct item *seen = rcu_dereference(current);
	API_CHECK(seen->key == 1);
	rcu_read_unlock();
	rcu_quiescent_state();

	/* Publish / subscribe in each of the spec's forms. */
	static struct item a = { .key = 2 }, b = { .key = 3 }, c = { .key = 4 };
	struct item *_Atomic ptr;
	rcu_init_pointer(ptr, NULL);
	API_CHECK(rcu_access_pointer(ptr) == NULL);
	rcu_assign_pointer(ptr, &a);
	API_CHECK(rcu_xchg_pointer(&ptr, &b) == &a);
	API_CHECK(rcu_cmpxchg_pointer(&ptr, &b, &c) == &b);
	API_CHECK(rcu_cmpxchg_pointer(&ptr, &b, &a) == &c); /* fails: returns what it found */
	API_CHECK(rcu_replace_pointer(ptr, &a, true) == &c);
	API_CHECK(rcu_dereference_protected(ptr, true) == &a);

	/* Grace periods, blocking and polled. */
	synchronize_rcu();
	uint64_t cookie = get_state_synchronize_rcu();
	uint64_t started = start_poll_synchronize_rcu();
	cond_synchronize_rcu(cookie);
	API_CHECK(poll_state_synchronize_rcu(cookie));
	cond_synchronize_rcu(started);
	API_CHECK(poll_state_synchronize_rcu(started));

	/* Deferred reclamation. */
	static struct item cb_item = { .key = 5 };
	call_rcu(&cb_item.rh, item_cb);
#if defined(API_CUSTOM_FREE)
	int frees_before = api_frees;
#endif
	struct item *heap = malloc(sizeof *heap);
	API_CHECK(heap != NULL);
	rcu_free(heap, rh);
	rcu_barrier();
	API_CHECK(callbacks_run == 1);
#if defined(API_CUSTOM_FREE)
	API_CHECK(api_frees == frees_before + 1); /* rcu_free() went through RCU_FREE */
#endif
	struct rcu_stats st;
	rcu_get_stats(&st);
	API_CHECK(st.callbacks_queued >= 2 && st.callbacks_invoked >= 2 && st.grace_periods >= 1);
	/* callbacks_pending_max is sampled by call_rcu() after its enqueue: it may miss a callback the
	 * worker ran at once, so only its presence is checked here. */
	API_CHECK(st.callbacks_pending == 0 && st.callbacks_pending_max <= st.callbacks_queued);

	/* Lists: every operation and iterator. */
	static struct item l1 = { .key = 10 }, l2 = { .key = 20 }, l3 = { .key = 30 };
	struct item *pos, *tmp;
	API_CHECK(rcu_list_empty(&list));
	rcu_list_add(&l1.link, &list);
	rcu_list_add_tail(&l2.link, &list);
	rcu_list_replace(&l2.link, &l3.link);
	int sum = 0;
	rcu_read_lock();
	API_CHECK(rcu_list_first_entry_or_null(&list, struct item, link) == &l1);
	rcu_list_for_each_entry(pos, &list, link)
		sum += pos->key;
	rcu_read_unlock();
	API_CHECK(sum == 40);
	rcu_list_for_each_entry_locked(pos, &list, link)
		sum += pos->key;
	API_CHECK(sum == 80);
	rcu_list_for_each_entry_safe(pos, tmp, &list, link)
		rcu_list_del(&pos->link);
	API_CHECK(rcu_list_empty(&list));
	API_CHECK(rcu_list_entry(&l1.link, struct item, link) == &l1);
	struct rcu_list other;
	rcu_list_init(&other);
	API_CHECK(rcu_list_empty(&other));

	rcu_hlist_init(&bucket);
	API_CHECK(rcu_hlist_unhashed(&l1.hnode));
	rcu_hlist_add_head(&l1.hnode, &bucket);
	rcu_hlist_add_before(&l2.hnode, &l1.hnode);
	rcu_hlist_add_behind(&l3.hnode, &l1.hnode);
	static struct item l4 = { .key = 40 };
	rcu_hlist_replace(&l3.hnode, &l4.hnode);
	sum = 0;
	rcu_read_lock();
	rcu_hlist_for_each_entry(pos, &bucket, hnode)
		sum = sum * 100 + pos->key;
	rcu_read_unlock();
	API_CHECK(sum == 201040); /* l2, l1, l4 */
	rcu_hlist_for_each_entry_locked(pos, &bucket, hnode)
		sum += pos->key;
	API_CHECK(sum == 201110);
	rcu_hlist_for_each_entry_safe(pos, tmp, &bucket, hnode)
		rcu_hlist_del(&pos->hnode);
	API_CHECK(rcu_access_pointer(bucket.first) == NULL);
	API_CHECK(rcu_hlist_entry(&l1.hnode, struct item, hnode) == &l1);

	rcu_thread_offline();
	rcu_thread_online();
	rcu_unregister_thread();
	return 0;
}
