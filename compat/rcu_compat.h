/* SPDX-License-Identifier: 0BSD */
/*
 * compat/rcu_compat.h: the helpers that both name layers share (compat/liburcu/ and
 * compat/kernel/), so that each exists once: liburcu's cds_list_del_init() and the kernel's
 * list_del_init() are one function here, cmm_smp_mb() and smp_mb() one fence. Private: every name
 * starts with rcu__ or RCU__; programs use the layers' names.
 *
 * Two parts, each included once:
 *   - the base (fences, relaxed accesses, the spin hint), which needs nothing: liburcu's
 *     urcu/arch.h, urcu/compiler.h, urcu/system.h are included before any flavour is chosen
 *     (a liburcu program may never include one), so they cannot include rcu.h;
 *   - the list helpers, over rcu.h's struct rcu_list and struct rcu_hlist_node: present once
 *     rcu.h has been included (this file is included again after it by the names layers).
 */
#ifndef RCU__COMPAT_BASE_H
#define RCU__COMPAT_BASE_H

#if !defined(__GNUC__)
#error "compat/rcu_compat.h: needs GCC or Clang (as rcu.h does)"
#endif

/* POSIX declarations: ask for them if no system header has been read yet (as rcu.h does). */
#if defined(__linux__) && !defined(_FEATURES_H) && !defined(_DEFAULT_SOURCE) && \
	!defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE) && !defined(_XOPEN_SOURCE)
#define _DEFAULT_SOURCE 1
#endif

/* A compiler barrier: no memory access moves across it at compile time. */
#define RCU__COMPAT_BARRIER() __asm__ __volatile__("" ::: "memory")
/*
 * A full fence: stores before it are visible before loads after it (store-load ordering). Read
 * and write barriers are acquire and release fences (at least as strong as rmb and wmb).
 * ThreadSanitizer does not model fences (GCC warns, -Wtsan): there, as in rcu.h, a seq_cst
 * read-modify-write of one word stands for each, which it does model.
 */
#if defined(__SANITIZE_THREAD__)
#define RCU__COMPAT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RCU__COMPAT_TSAN 1
#endif
#endif
#if defined(RCU__COMPAT_TSAN)
static int rcu__compat_tsan_word __attribute__((unused));
#define RCU__COMPAT_MB() ((void)__atomic_fetch_add(&rcu__compat_tsan_word, 0, __ATOMIC_SEQ_CST))
#define RCU__COMPAT_RMB() RCU__COMPAT_MB()
#define RCU__COMPAT_WMB() RCU__COMPAT_MB()
#else
#define RCU__COMPAT_MB() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define RCU__COMPAT_RMB() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define RCU__COMPAT_WMB() __atomic_thread_fence(__ATOMIC_RELEASE)
#endif
/* One relaxed atomic load or store of the lvalue x (READ_ONCE, CMM_LOAD_SHARED, ...). */
#define RCU__COMPAT_LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define RCU__COMPAT_STORE(x, v) \
	__extension__({ \
		__typeof__(x) rcu__compat_v = (v); \
		__atomic_store_n(&(x), rcu__compat_v, __ATOMIC_RELAXED); \
		rcu__compat_v; \
	})

/* The spin-wait hint (pause on x86, yield on Arm). */
static inline void rcu__compat_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__) || (defined(__arm__) && defined(__ARM_ARCH) && __ARM_ARCH >= 7)
	__asm__ __volatile__("yield" ::: "memory");
#else
	RCU__COMPAT_BARRIER();
#endif
}

#endif /* RCU__COMPAT_BASE_H */

#if defined(RCU_H) && !defined(RCU__COMPAT_LISTS_H)
#define RCU__COMPAT_LISTS_H

/*
 * List helpers over rcu.h's lists. Updaters' (under their lock): none of them may run on a list
 * that readers walk, except where the comment says otherwise. Functions, so that each argument is
 * evaluated once, as by liburcu's and the kernel's functions.
 */
static inline void rcu__compat_list_del_init(struct rcu_list *entry)
{
	rcu_list_del(entry);
	rcu_list_init(entry);
}

static inline void rcu__compat_list_move(struct rcu_list *entry, struct rcu_list *head)
{
	rcu_list_del(entry);
	rcu_list_add(entry, head);
}

static inline void rcu__compat_list_move_tail(struct rcu_list *entry, struct rcu_list *head)
{
	rcu_list_del(entry);
	rcu_list_add_tail(entry, head);
}

/* Moves the entries of list `add` to the front of `head`; `add` is left as it was. */
static inline void rcu__compat_list_splice(struct rcu_list *add, struct rcu_list *head)
{
	if (add != add->next) {
		add->next->prev = head;
		add->prev->next = head->next;
		head->next->prev = add->prev;
		head->next = add->next;
	}
}

/* Puts n where old is and makes old an empty list. */
static inline void rcu__compat_list_replace_init(struct rcu_list *old, struct rcu_list *n)
{
	struct rcu_list *head = old->next;
	rcu_list_del(old);
	rcu_list_add_tail(n, head);
	rcu_list_init(old);
}

/* Inserts n last in bucket h: a walk to the last node (safe for readers: rcu_hlist_add_behind()). */
static inline void rcu__compat_hlist_add_tail(struct rcu_hlist_node *n, struct rcu_hlist_head *h)
{
	struct rcu_hlist_node *last = NULL, *i;
	for (i = h->first; i; i = i->next)
		last = i;
	if (last)
		rcu_hlist_add_behind(n, last);
	else
		rcu_hlist_add_head(n, h);
}

/* Updaters' walks over the links (pos, p: struct rcu_list *); _safe may delete pos. */
#define RCU__COMPAT_LIST_FOR_EACH(pos, head) for (pos = (head)->next; pos != (head); pos = (pos)->next)
#define RCU__COMPAT_LIST_FOR_EACH_PREV(pos, head) for (pos = (head)->prev; pos != (head); pos = (pos)->prev)
#define RCU__COMPAT_LIST_FOR_EACH_SAFE(pos, p, head) \
	for (pos = (head)->next, p = (pos)->next; pos != (head); pos = p, p = (pos)->next)
#define RCU__COMPAT_LIST_FOR_EACH_PREV_SAFE(pos, p, head) \
	for (pos = (head)->prev, p = (pos)->prev; pos != (head); pos = p, p = (pos)->prev)
/* Updaters' walk over the entries from the last to the first. */
#define RCU__COMPAT_LIST_FOR_EACH_ENTRY_REVERSE(pos, head, member) \
	for (pos = rcu_list_entry((head)->prev, __typeof__(*(pos)), member); &(pos)->member != (head); \
	     pos = rcu_list_entry((pos)->member.prev, __typeof__(*(pos)), member))
/* The first entry of a list that is not empty (updaters' and readers' alike: no dereference). */
#define RCU__COMPAT_LIST_FIRST_ENTRY(ptr, type, member) rcu_list_entry((ptr)->next, type, member)
/* Updaters': the first entry, or NULL on an empty list (head evaluated once). */
#define RCU__COMPAT_LIST_FIRST_ENTRY_OR_NULL(head, type, member) \
	__extension__({ \
		struct rcu_list *rcu__h = (head), *rcu__n = rcu__h->next; \
		rcu__n != rcu__h ? rcu_list_entry(rcu__n, type, member) : (type *)NULL; \
	})
/* Readers' walk over the links, inside a section. */
#define RCU__COMPAT_LIST_FOR_EACH_RCU(pos, head) \
	for (pos = rcu_dereference((head)->next); pos != (head); pos = rcu_dereference((pos)->next))

/* Updaters' walks over bucket nodes (pos, p: struct rcu_hlist_node *). */
#define RCU__COMPAT_HLIST_FOR_EACH(pos, head) for (pos = (head)->first; pos; pos = (pos)->next)
#define RCU__COMPAT_HLIST_FOR_EACH_SAFE(pos, p, head) \
	for (pos = (head)->first; pos && ((p = (pos)->next), 1); pos = p)

#endif /* RCU_H && !RCU__COMPAT_LISTS_H */
