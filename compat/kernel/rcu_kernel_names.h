/* SPDX-License-Identifier: 0BSD */
/*
 * compat/kernel/rcu_kernel_names.h: the Linux kernel's RCU names over rcu.h, the one copy of them.
 *
 * Two ways in, one set of names:
 *   - kernel code adds `-I compat/kernel` and keeps its includes (<linux/rcupdate.h>,
 *     <linux/rculist.h>, <linux/srcu.h>, <linux/list.h>): each includes rcu.h (the flavour the
 *     build chooses with -DRCU_FLAVOUR_..., MEMB by default on Linux), then this file;
 *   - code that includes rcu.h itself defines RCU_KERNEL_NAMES first: rcu.h includes this file at
 *     its end (>>names), found relative to rcu.h.
 * Each name is defined in terms of rcu.h's API (no other semantics); the helpers the liburcu names
 * share (list_del_init() is cds_list_del_init()) are in ../rcu_compat.h. docs/api.md, "Porting
 * from the Linux kernel", lists every name, mapped or left out, and why.
 */
#ifndef RCU_H
#error "compat/kernel/rcu_kernel_names.h: include rcu.h (or a header of compat/kernel) first"
#endif
#ifndef RCU__COMPAT_KERNEL_NAMES_H
#define RCU__COMPAT_KERNEL_NAMES_H

#include "../rcu_compat.h"

/* >>kernel-rcupdate: include/linux/rcupdate.h, compiler.h, barrier.h, types.h. ------------------ */

#ifndef __rcu
#define __rcu /* the kernel's sparse annotation of RCU-protected pointers: nothing here */
#endif
#ifndef container_of
#define container_of(ptr, type, member) rcu_container_of(ptr, type, member)
#endif
typedef void (*rcu_callback_t)(struct rcu_head *head);
#define unrcu_pointer(p) rcu_access_pointer(p)
#define kvfree_rcu(ptr, field) rcu_free(ptr, field)
#define kfree_rcu(ptr, field) rcu_free(ptr, field)
#define call_rcu_hurry(head, func) call_rcu((head), (func))
#define rcu_read_lock_bh_held() rcu_read_lock_held()
#define rcu_read_lock_sched_held() rcu_read_lock_held()
#define rcu_read_lock_any_held() rcu_read_lock_held()
static inline uint64_t get_completed_synchronize_rcu(void)
{
	return 0; /* a cookie that every poll sees completed */
}
#define READ_ONCE(x) RCU__COMPAT_LOAD(x)
#define WRITE_ONCE(x, v) ((void)RCU__COMPAT_STORE(x, v))
#define barrier() RCU__COMPAT_BARRIER()
#define smp_mb() RCU__COMPAT_MB()
#define smp_rmb() RCU__COMPAT_RMB()
#define smp_wmb() RCU__COMPAT_WMB()
#define smp_store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define smp_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define rcu_read_lock_bh() rcu_read_lock()
#define rcu_read_unlock_bh() rcu_read_unlock()
#define rcu_read_lock_sched() rcu_read_lock()
#define rcu_read_unlock_sched() rcu_read_unlock()
#define rcu_dereference_bh(p) rcu_dereference(p)
#define rcu_dereference_sched(p) rcu_dereference(p)

/* >>kernel-lists: include/linux/list.h and rculist.h (struct list_head is struct rcu_list). ------- */

#define list_head rcu_list
#define LIST_HEAD_INIT(name) RCU_LIST_HEAD_INIT(name)
#define LIST_HEAD(name) struct rcu_list name = RCU_LIST_HEAD_INIT(name)
#define INIT_LIST_HEAD(ptr) rcu_list_init(ptr)
#define list_add(newp, head) rcu_list_add((newp), (head))
#define list_add_tail(newp, head) rcu_list_add_tail((newp), (head))
#define list_del(entry) rcu_list_del(entry)
#define list_del_init(entry) rcu__compat_list_del_init(entry)
#define list_move(entry, head) rcu__compat_list_move((entry), (head))
#define list_empty(head) rcu_list_empty(head)
#define list_entry(ptr, type, member) rcu_list_entry(ptr, type, member)
#define list_first_entry(ptr, type, member) RCU__COMPAT_LIST_FIRST_ENTRY(ptr, type, member)
#define list_first_entry_or_null(head, type, member) RCU__COMPAT_LIST_FIRST_ENTRY_OR_NULL(head, type, member)
#define list_last_entry(head, type, member) rcu_list_entry((head)->prev, type, member)
#define list_for_each_entry(pos, head, member) rcu_list_for_each_entry_locked(pos, head, member)
#define list_for_each_entry_safe(pos, n, head, member) rcu_list_for_each_entry_safe(pos, n, head, member)
#define list_add_rcu(newp, head) rcu_list_add((newp), (head))
#define list_add_tail_rcu(newp, head) rcu_list_add_tail((newp), (head))
#define list_del_rcu(entry) rcu_list_del(entry)
#define list_replace_rcu(old, newp) rcu_list_replace((old), (newp))
#define list_entry_rcu(ptr, type, member) rcu_list_entry(rcu_dereference(ptr), type, member)
#define list_first_or_null_rcu(head, type, member) rcu_list_first_entry_or_null(head, type, member)
#define list_next_or_null_rcu(head, ptr, type, member) \
	__extension__({ \
		struct rcu_list *rcu__h = (head), *rcu__n = rcu_dereference((ptr)->next); \
		rcu__n != rcu__h ? rcu_list_entry(rcu__n, type, member) : (type *)NULL; \
	})
#define list_for_each_entry_continue_rcu(pos, head, member) \
	for (pos = rcu_list_entry(rcu_dereference((pos)->member.next), __typeof__(*(pos)), member); \
	     &(pos)->member != (head); \
	     pos = rcu_list_entry(rcu_dereference((pos)->member.next), __typeof__(*(pos)), member))
#define list_for_each_entry_srcu(pos, head, member, cond) rcu_list_for_each_entry(pos, head, member)
/* The kernel's optional lockdep condition: taken and ignored, with or without it (a `...` that
 * may be empty would draw -Wpedantic's "requires at least one argument" before C23/C++20). */
#define RCU__FIRST_OF(member, ...) member
#define list_for_each_entry_rcu(pos, head, ...) \
	rcu_list_for_each_entry(pos, head, RCU__FIRST_OF(__VA_ARGS__, ~))

#define hlist_head rcu_hlist_head
#define hlist_node rcu_hlist_node
#define HLIST_HEAD_INIT RCU_HLIST_HEAD_INIT
#define HLIST_HEAD(name) struct rcu_hlist_head name = RCU_HLIST_HEAD_INIT
#define INIT_HLIST_HEAD(ptr) rcu_hlist_init(ptr)
#define INIT_HLIST_NODE(n) ((void)((n)->next = NULL, (n)->pprev = NULL))
#define hlist_unhashed(n) rcu_hlist_unhashed(n)
#define hlist_empty(h) (rcu_access_pointer((h)->first) == NULL)
#define hlist_entry(ptr, type, member) rcu_hlist_entry(ptr, type, member)
#define hlist_add_head_rcu(n, h) rcu_hlist_add_head((n), (h))
#define hlist_add_before_rcu(n, next) rcu_hlist_add_before((n), (next))
#define hlist_add_behind_rcu(n, prev) rcu_hlist_add_behind((n), (prev))
#define hlist_del_rcu(n) rcu_hlist_del(n)
#define hlist_add_head(n, h) rcu_hlist_add_head((n), (h))
#define hlist_del_init(n) rcu_hlist_del_init(n)
#define hlist_first_rcu(h) ((h)->first) /* the link itself, as the kernel's: rcu_dereference(hlist_first_rcu(h)) */
#define hlist_add_tail_rcu(n, h) rcu__compat_hlist_add_tail((n), (h))
#define hlist_for_each_entry_srcu(pos, head, member, cond) rcu_hlist_for_each_entry(pos, head, member)
#define hlist_del_init_rcu(n) rcu_hlist_del_init(n)
#define hlist_replace_rcu(old, n) rcu_hlist_replace((old), (n))
#define hlist_for_each_entry_rcu(pos, head, ...) \
	rcu_hlist_for_each_entry(pos, head, RCU__FIRST_OF(__VA_ARGS__, ~))
#define hlist_for_each_entry(pos, head, member) rcu_hlist_for_each_entry_locked(pos, head, member)
#define hlist_for_each_entry_safe(pos, n, head, member) \
	for (pos = rcu__hlist_entry_or_null((head)->first, __typeof__(*(pos)), member); \
	     pos && ((n = (pos)->member.next), 1); pos = rcu__hlist_entry_or_null(n, __typeof__(*(pos)), member))

#endif /* RCU__COMPAT_KERNEL_NAMES_H */

/* Both name layers in one unit: see the end of compat/liburcu/rcu_liburcu_names.h. */
#if defined(RCU__COMPAT_LIBURCU_NAMES_H) && defined(RCU__COMPAT_KERNEL_NAMES_H)
#undef start_poll_synchronize_rcu
#endif
