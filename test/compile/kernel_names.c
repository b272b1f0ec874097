/* SPDX-License-Identifier: 0BSD */
/*
 * test/compile/kernel_names.c: names of the kernel's RCU API that kernel code ported to user space
 * meets and that rcu.h (RCU_KERNEL_NAMES) is missing or gives another shape, each used as kernel
 * code uses it: `__rcu` on every RCU-protected pointer, container_of() in every callback,
 * rcu_callback_t, list_for_each_entry_rcu() and hlist_for_each_entry_rcu() without the optional
 * lockdep condition (a variadic macro that draws -Wpedantic's "at least one argument" in C11 and
 * C17), the SRCU iterators, and the updater-side list helpers that RCU list code uses. check.sh
 * (group `lang`, checks `kernel-names-*`) compiles it with gcc and clang as C11 with -Wpedantic;
 * it fails while any is missing. docs/api.md's "Porting from the Linux kernel" says what each is.
 */
#define RCU_KERNEL_NAMES
#include "rcu.h"

struct foo {
	int a;
	struct list_head list;
	struct hlist_node node;
	struct rcu_head rcu;
};

static struct foo __rcu *gbl_foo;
static LIST_HEAD(foo_list);
static struct hlist_head foo_hash[4];
DEFINE_STATIC_SRCU(foo_srcu);

static void foo_reclaim(struct rcu_head *rp)
{
	struct foo *fp = container_of(rp, struct foo, rcu);
	free(fp);
}

static rcu_callback_t foo_cb = foo_reclaim;

int names_kernel(struct foo *fp);
int names_kernel(struct foo *fp)
{
	struct foo *pos, *n;
	int sum = 0, idx;

	rcu_read_lock();
	list_for_each_entry_rcu(pos, &foo_list, list)
		sum += pos->a;
	hlist_for_each_entry_rcu(pos, &foo_hash[0], node)
		sum += pos->a;
	pos = list_next_or_null_rcu(&foo_list, &fp->list, struct foo, list);
	pos = list_first_or_null_rcu(&foo_list, struct foo, list);
	if (pos) {
		list_for_each_entry_continue_rcu(pos, &foo_list, list)
			sum += pos->a;
	}
	pos = unrcu_pointer(gbl_foo);
	rcu_read_unlock();

	idx = srcu_read_lock(&foo_srcu);
	list_for_each_entry_srcu(pos, &foo_list, list, srcu_read_lock_held(&foo_srcu))
		sum += pos->a;
	hlist_for_each_entry_srcu(pos, &foo_hash[1], node, srcu_read_lock_held(&foo_srcu))
		sum += pos->a;
	srcu_read_unlock(&foo_srcu, idx);

	/* Updater-side helpers of <linux/list.h> that RCU list code uses under its lock. */
	list_for_each_entry_safe(pos, n, &foo_list, list) {
		list_del_init(&pos->list);
		list_move(&pos->list, &foo_list);
	}
	pos = list_first_entry_or_null(&foo_list, struct foo, list);
	pos = list_last_entry(&foo_list, struct foo, list);
	hlist_add_head(&fp->node, &foo_hash[2]);
	hlist_del_init(&fp->node);
	hlist_add_tail_rcu(&fp->node, &foo_hash[3]);
	sum += rcu_dereference(hlist_first_rcu(&foo_hash[3])) != NULL;

	sum += rcu_read_lock_any_held() + rcu_read_lock_bh_held() + rcu_read_lock_sched_held();
	(void)get_completed_synchronize_rcu();
	call_rcu_hurry(&fp->rcu, foo_cb);
	kvfree_rcu(fp, rcu);
	return sum;
}
