/* SPDX-License-Identifier: 0BSD */
/*
 * compat/liburcu/rcu_liburcu_names.h: liburcu's names over rcu.h, the one copy of them.
 *
 * Two ways in, one set of names:
 *   - a liburcu program adds `-I compat/liburcu` and keeps its includes (<urcu.h>, <urcu-qsbr.h>,
 *     <urcu/rculist.h>, ...): the headers of this folder include rcu.h with the flavour they
 *     stand for, then this file;
 *   - code that includes rcu.h itself defines RCU_LIBURCU_NAMES first: rcu.h includes this file
 *     at its end (>>names), found relative to rcu.h.
 * Each name is defined in terms of rcu.h's API (no other semantics) and of the flavour-free
 * headers of urcu/ (compiler.h, arch.h, system.h, uatomic.h, ...), which need no flavour and can
 * come first. docs/api.md, "Porting from liburcu", lists every name, mapped or left out, and why.
 *
 * The flavour-prefixed API (urcu_memb_read_lock(), urcu_qsbr_synchronize_rcu(), ...) is
 * generated from one list, RCU__URCU_API below, for the flavour rcu.h was included with. A unit
 * whose liburcu headers name several flavours (<urcu/urcu-mb.h> and <urcu/urcu-qsbr.h>) reads
 * this file again for each further one, as it reads rcu.h again (rcu_instance.h, RCU__INSTANCE):
 * then only the blocks that call a flavour are read, for that flavour; those marked
 * `#if !defined(RCU__INSTANCE)` are the unit's once (types, macros, the unprefixed names).
 */
#ifndef RCU_H
#error "compat/liburcu/rcu_liburcu_names.h: include rcu.h (or a liburcu header of compat/liburcu) first"
#endif
#if !defined(RCU__COMPAT_LIBURCU_NAMES_H) || defined(RCU__INSTANCE)
#if !defined(RCU__INSTANCE)
#define RCU__COMPAT_LIBURCU_NAMES_H

#include "../rcu_compat.h"
#include "urcu/compiler.h"
#include "urcu/arch.h"
#include "urcu/system.h"
#include "urcu/uatomic.h"
#include "urcu/tls-compat.h"
#include "urcu/assert.h"
#include "urcu/debug.h"
#include "urcu/ref.h"
#include <errno.h>
#include <pthread.h>
#endif /* !RCU__INSTANCE */

#if !defined(RCU__INSTANCE)

/* >>liburcu-lists: urcu/list.h (updaters, under their lock) and urcu/rculist.h. ------------------ */

/* struct cds_list_head is rcu.h's struct rcu_list (next, prev). */
#define cds_list_head rcu_list
#define CDS_LIST_HEAD_INIT(name) RCU_LIST_HEAD_INIT(name)
#define CDS_LIST_HEAD(name) struct rcu_list name = RCU_LIST_HEAD_INIT(name)
#define CDS_INIT_LIST_HEAD(ptr) rcu_list_init(ptr)
#define cds_list_add(newp, head) rcu_list_add((newp), (head))
#define cds_list_add_tail(newp, head) rcu_list_add_tail((newp), (head))
#define cds_list_del(elem) rcu_list_del(elem)
#define cds_list_del_init(elem) rcu__compat_list_del_init(elem)
#define cds_list_move(elem, head) rcu__compat_list_move((elem), (head))
#define cds_list_splice(add, head) rcu__compat_list_splice((add), (head))
#define cds_list_replace_init(old, newp) rcu__compat_list_replace_init((old), (newp))
#define cds_list_replace(old, newp) rcu_list_replace((old), (newp))
#define cds_list_empty(head) rcu_list_empty(head)
#define cds_list_entry(ptr, type, member) rcu_list_entry(ptr, type, member)
#define cds_list_first_entry(ptr, type, member) RCU__COMPAT_LIST_FIRST_ENTRY(ptr, type, member)
#define cds_list_for_each(pos, head) RCU__COMPAT_LIST_FOR_EACH(pos, head)
#define cds_list_for_each_prev(pos, head) RCU__COMPAT_LIST_FOR_EACH_PREV(pos, head)
#define cds_list_for_each_safe(pos, p, head) RCU__COMPAT_LIST_FOR_EACH_SAFE(pos, p, head)
#define cds_list_for_each_prev_safe(pos, p, head) RCU__COMPAT_LIST_FOR_EACH_PREV_SAFE(pos, p, head)
#define cds_list_for_each_entry(pos, head, member) rcu_list_for_each_entry_locked(pos, head, member)
#define cds_list_for_each_entry_reverse(pos, head, member) RCU__COMPAT_LIST_FOR_EACH_ENTRY_REVERSE(pos, head, member)
#define cds_list_for_each_entry_safe(pos, p, head, member) rcu_list_for_each_entry_safe(pos, p, head, member)
#define cds_list_for_each_entry_safe_from(pos, p, head, member) \
	for (p = rcu_list_entry((pos)->member.next, __typeof__(*(pos)), member); &(pos)->member != (head); \
	     pos = p, p = rcu_list_entry((pos)->member.next, __typeof__(*(pos)), member))
#define cds_list_add_rcu(newp, head) rcu_list_add((newp), (head))
#define cds_list_add_tail_rcu(newp, head) rcu_list_add_tail((newp), (head))
#define cds_list_replace_rcu(old, newp) rcu_list_replace((old), (newp))
#define cds_list_del_rcu(elem) rcu_list_del(elem)
#define cds_list_for_each_rcu(pos, head) RCU__COMPAT_LIST_FOR_EACH_RCU(pos, head)
#define cds_list_for_each_entry_rcu(pos, head, member) rcu_list_for_each_entry(pos, head, member)

/* >>liburcu-hlists: urcu/hlist.h and urcu/rcuhlist.h. A bucket is struct rcu_hlist_head, whose first
 * link is named both `next` (liburcu) and `first` (the kernel). -------------------------------- */

#define cds_hlist_head rcu_hlist_head
#define cds_hlist_node rcu_hlist_node
#define CDS_INIT_HLIST_HEAD(ptr) rcu_hlist_init(ptr)
#define CDS_HLIST_HEAD_INIT(name) RCU_HLIST_HEAD_INIT
#define CDS_HLIST_HEAD(name) struct rcu_hlist_head name = RCU_HLIST_HEAD_INIT
#define cds_hlist_entry_safe(ptr, type, member) rcu__hlist_entry_or_null(ptr, type, member)
#define cds_hlist_entry(ptr, type, member) rcu_hlist_entry(ptr, type, member)
#define cds_hlist_add_head(newp, head) rcu_hlist_add_head((newp), (head))
#define cds_hlist_del(elem) rcu_hlist_del(elem)
#define cds_hlist_add_head_rcu(newp, head) rcu_hlist_add_head((newp), (head))
#define cds_hlist_del_rcu(elem) rcu_hlist_del(elem)
#define cds_hlist_for_each(pos, head) RCU__COMPAT_HLIST_FOR_EACH(pos, head)
#define cds_hlist_for_each_safe(pos, p, head) RCU__COMPAT_HLIST_FOR_EACH_SAFE(pos, p, head)
#define cds_hlist_for_each_rcu(pos, head) \
	for (pos = rcu_dereference((head)->first); pos; pos = rcu_dereference((pos)->next))
#define cds_hlist_for_each_entry(entry, pos, head, member) \
	for (pos = (head)->first; pos && ((entry = rcu_hlist_entry(pos, __typeof__(*(entry)), member)), 1); \
	     pos = (pos)->next)
#define cds_hlist_for_each_entry_safe(entry, pos, p, head, member) \
	for (pos = (head)->first; \
	     pos && ((p = (pos)->next), (entry = rcu_hlist_entry(pos, __typeof__(*(entry)), member)), 1); pos = p)
#define cds_hlist_for_each_entry_rcu(entry, pos, head, member) \
	for (pos = rcu_dereference((head)->first); \
	     pos && ((entry = rcu_hlist_entry(pos, __typeof__(*(entry)), member)), 1); pos = rcu_dereference((pos)->next))
#define cds_hlist_for_each_entry_2(entry, head, member) rcu_hlist_for_each_entry_locked(entry, head, member)
#define cds_hlist_for_each_entry_safe_2(entry, e, head, member) rcu_hlist_for_each_entry_safe(entry, e, head, member)
#define cds_hlist_for_each_entry_rcu_2(entry, head, member) rcu_hlist_for_each_entry(entry, head, member)

#endif /* !RCU__INSTANCE */

/* >>liburcu-defer: urcu/defer.h. defer_rcu(fct, p) is fct(p) after a grace period, on the callback
 * worker (a node from malloc() carries it through call_rcu()). ------------------------------------ */

#if !defined(RCU__INSTANCE)
struct rcu__defer {
	struct rcu_head head;
	void (*fct)(void *p);
	void *p;
};
static inline void rcu__defer_run(struct rcu_head *head)
{
	struct rcu__defer *d = rcu_container_of(head, struct rcu__defer, head);
	d->fct(d->p);
	free(d);
}
#endif /* !RCU__INSTANCE */
/* Outside read-side sections: when its node cannot be allocated it waits for a grace period and
 * calls fct(p) itself. */
static inline void defer_rcu(void (*fct)(void *p), void *p)
{
	struct rcu__defer *d = (struct rcu__defer *)malloc(sizeof *d);
	if (!d) {
		synchronize_rcu();
		fct(p);
		return;
	}
	d->fct = fct;
	d->p = p;
	call_rcu(&d->head, rcu__defer_run);
}
static inline int rcu_defer_register_thread(void)
{
	return 0; /* nothing to register; liburcu's returns 0 on success */
}
static inline void rcu_defer_unregister_thread(void)
{
}
static inline void rcu_defer_barrier(void)
{
	rcu_barrier();
}
static inline void rcu_defer_barrier_thread(void)
{
	rcu_barrier();
}

/* >>liburcu-call-rcu: urcu/call-rcu.h. ----------------------------------------------------------- */

/*
 * call_rcu_data: liburcu lets a program create callback workers and give them to threads or CPUs.
 * rcu.h has one callback worker per flavour and process ("rcu-callbacks"), so this API says so:
 * the default call_rcu_data is that worker; creating another one fails (NULL, errno ENOTSUP), as
 * do per-CPU workers (create_all_cpu_call_rcu_data() returns -ENOTSUP), and every thread's and
 * CPU's callbacks go to the one worker. A program that checks the results (liburcu's tests do)
 * reports that the workers are unavailable; none is claimed that does not exist.
 */
#if !defined(RCU__INSTANCE)
#define URCU_CALL_RCU_RT (1U << 0)
#define URCU_CALL_RCU_RUNNING (1U << 1)
#define URCU_CALL_RCU_STOP (1U << 2)
#define URCU_CALL_RCU_STOPPED (1U << 3)
#define URCU_CALL_RCU_PAUSE (1U << 4)
#define URCU_CALL_RCU_PAUSED (1U << 5)

struct call_rcu_data {
	char rcu__worker; /* the flavour's one worker: nothing to configure */
};
#endif /* !RCU__INSTANCE */
/* The default call_rcu_data, one per flavour and process, and each thread's choice (NULL or it). */
#define RCU__URCU_SYM(n) RCU__SYM(urcu_##n)
RCU__WEAK struct call_rcu_data RCU__URCU_SYM(default_crdp);
RCU__WEAK RCU__THREAD_LOCAL struct call_rcu_data *RCU__URCU_SYM(thread_crdp)
	__attribute__((tls_model(RCU_TLS_MODEL)));

static inline struct call_rcu_data *get_default_call_rcu_data(void)
{
	return &RCU__URCU_SYM(default_crdp);
}
/* Per-thread and per-CPU workers do not exist: NULL, errno ENOTSUP. */
static inline struct call_rcu_data *create_call_rcu_data(unsigned long flags, int cpu_affinity)
{
	(void)flags;
	(void)cpu_affinity;
	errno = ENOTSUP;
	return NULL;
}
/* NULL and the default call_rcu_data are not freed (liburcu refuses the default too). */
static inline void call_rcu_data_free(struct call_rcu_data *crdp)
{
	(void)crdp;
}
static inline struct call_rcu_data *get_cpu_call_rcu_data(int cpu)
{
	(void)cpu;
	return NULL;
}
/* The thread's call_rcu_data as set_thread_call_rcu_data() left it (NULL at first). */
static inline struct call_rcu_data *get_thread_call_rcu_data(void)
{
	return RCU__URCU_SYM(thread_crdp);
}
/* NULL (the default) or the default call_rcu_data: both mean the one worker. */
static inline void set_thread_call_rcu_data(struct call_rcu_data *crdp)
{
	RCU__URCU_SYM(thread_crdp) = crdp;
}
static inline struct call_rcu_data *get_call_rcu_data(void)
{
	struct call_rcu_data *crdp = get_thread_call_rcu_data();
	return crdp ? crdp : get_default_call_rcu_data();
}
/* NULL removes nothing (0); a per-CPU worker cannot be set (-ENOTSUP, errno ENOTSUP). */
static inline int set_cpu_call_rcu_data(int cpu, struct call_rcu_data *crdp)
{
	(void)cpu;
	if (!crdp)
		return 0;
	errno = ENOTSUP;
	return -ENOTSUP;
}
static inline int create_all_cpu_call_rcu_data(unsigned long flags)
{
	(void)flags;
	errno = ENOTSUP;
	return -ENOTSUP;
}
static inline void free_all_cpu_call_rcu_data(void)
{
}

/* call_rcu's fork handlers, for pthread_atfork() or a call: rcu.h installs its own at load time,
 * so a child may use RCU after fork() whether or not the program calls these. */
static inline void call_rcu_before_fork(void)
{
}
static inline void call_rcu_after_fork_parent(void)
{
}
static inline void call_rcu_after_fork_child(void)
{
}

/* >>liburcu-poll: urcu/urcu-poll.h. liburcu's polled grace periods take a struct. ---------------- */

#if !defined(RCU__INSTANCE)
struct urcu_gp_poll_state {
	unsigned long grace_period_id;
};
#endif /* !RCU__INSTANCE */
static inline struct urcu_gp_poll_state rcu__urcu_start_poll(void)
{
	struct urcu_gp_poll_state s;
	s.grace_period_id = (unsigned long)(start_poll_synchronize_rcu)();
	return s;
}
static inline bool rcu__urcu_poll_state(struct urcu_gp_poll_state s)
{
	uint64_t cookie = (uint64_t)s.grace_period_id;
	if (sizeof(unsigned long) < sizeof(uint64_t)) {
		/*
		 * 32-bit: the struct kept the cookie's low half. The cookie is the latest value at or
		 * below today's snapshot with that low half (exact unless 2^32 grace periods passed
		 * since; then it comes out later than it was, and the poll errs on "not yet").
		 */
		uint64_t now = get_state_synchronize_rcu();
		uint64_t low = (uint64_t)(unsigned long)-1;
		cookie |= now & ~low;
		if (cookie > now)
			cookie -= low + 1;
	}
	return (poll_state_synchronize_rcu)(cookie);
}
/*
 * The unprefixed names take both shapes where they can: poll_state_synchronize_rcu() takes
 * liburcu's struct or rcu.h's (and the kernel's) integer cookie (C11 _Generic; C++ overloads).
 * start_poll_synchronize_rcu() can return only one: liburcu's struct, unless the kernel's names
 * are on too (RCU_KERNEL_NAMES, compat/kernel), where it stays rcu.h's uint64_t function (see the
 * end of this file). urcu_<flavour>_start_poll_synchronize_rcu() always returns the struct.
 */
#if defined(__cplusplus)
static inline bool poll_state_synchronize_rcu(struct urcu_gp_poll_state s) noexcept
{
	return rcu__urcu_poll_state(s);
}
#elif !defined(RCU__INSTANCE)
#define poll_state_synchronize_rcu(s) \
	_Generic((s), struct urcu_gp_poll_state: rcu__urcu_poll_state, default: (poll_state_synchronize_rcu))(s)
#endif
#if !defined(RCU__INSTANCE)
#define start_poll_synchronize_rcu() rcu__urcu_start_poll()
#endif

/* >>liburcu-flavor: urcu/flavor.h. ---------------------------------------------------------------- */

#if !defined(RCU__INSTANCE)

struct urcu_atfork {
	void (*before_fork)(void *priv);
	void (*after_fork_parent)(void *priv);
	void (*after_fork_child)(void *priv);
	void *priv;
};
/*
 * liburcu-cds's hash table registers these so that call_rcu's fork handlers pause its resize
 * workers around fork(). rcu.h's fork handling is its own (installed at load time); a data
 * structure over rcu.h handles its workers itself, so these record nothing.
 */
static inline void urcu_register_rculfhash_atfork(struct urcu_atfork *atfork)
{
	(void)atfork;
}
static inline void urcu_unregister_rculfhash_atfork(struct urcu_atfork *atfork)
{
	(void)atfork;
}

/* The table that liburcu-cds's data structures call a flavour through (cds_lfht_new_flavor()). */
struct rcu_flavor_struct {
	void (*read_lock)(void);
	void (*read_unlock)(void);
	int (*read_ongoing)(void);
	void (*read_quiescent_state)(void);
	void (*update_call_rcu)(struct rcu_head *head, void (*func)(struct rcu_head *head));
	void (*update_synchronize_rcu)(void);
	void (*update_defer_rcu)(void (*fct)(void *p), void *p);
	void (*thread_offline)(void);
	void (*thread_online)(void);
	void (*register_thread)(void);
	void (*unregister_thread)(void);
	void (*barrier)(void);
	void (*register_rculfhash_atfork)(struct urcu_atfork *atfork);
	void (*unregister_rculfhash_atfork)(struct urcu_atfork *atfork);
	struct urcu_gp_poll_state (*update_start_poll_synchronize_rcu)(void);
	bool (*update_poll_state_synchronize_rcu)(struct urcu_gp_poll_state state);
};
#endif /* !RCU__INSTANCE */

/* >>liburcu-prefixed: urcu/urcu-<flavour>.h, the flavour-prefixed API. ------------------------------ */

/*
 * One list of liburcu's per-flavour functions: RCU__URCU_API(V, R) calls V(name, parameters,
 * statement) for those that return nothing and R(type, name, parameters, expression) for the
 * others. It defines urcu_<flavour>_<name>() for the flavour of this translation unit: as liburcu
 * declares them (read_ongoing returns int), each a function, so that its address can be taken
 * (the flavour table below holds them).
 */
#define RCU__URCU_API(V, R) \
	V(read_lock, (void), rcu_read_lock()) \
	V(read_unlock, (void), rcu_read_unlock()) \
	R(int, read_ongoing, (void), rcu_read_ongoing()) \
	V(quiescent_state, (void), rcu_quiescent_state()) \
	V(thread_offline, (void), rcu_thread_offline()) \
	V(thread_online, (void), rcu_thread_online()) \
	V(register_thread, (void), rcu_register_thread()) \
	V(unregister_thread, (void), rcu_unregister_thread()) \
	V(register, (void), rcu_register_thread()) \
	V(init, (void), (void)0) \
	V(synchronize_rcu, (void), synchronize_rcu()) \
	V(call_rcu, (struct rcu_head *head, void (*func)(struct rcu_head *head)), call_rcu(head, func)) \
	V(barrier, (void), rcu_barrier()) \
	R(struct urcu_gp_poll_state, start_poll_synchronize_rcu, (void), rcu__urcu_start_poll()) \
	R(bool, poll_state_synchronize_rcu, (struct urcu_gp_poll_state state), rcu__urcu_poll_state(state)) \
	V(defer_rcu, (void (*fct)(void *p), void *p), defer_rcu(fct, p)) \
	R(int, defer_register_thread, (void), rcu_defer_register_thread()) \
	V(defer_unregister_thread, (void), rcu_defer_unregister_thread()) \
	V(defer_barrier, (void), rcu_defer_barrier()) \
	V(defer_barrier_thread, (void), rcu_defer_barrier_thread()) \
	R(struct call_rcu_data *, create_call_rcu_data, (unsigned long flags, int cpu_affinity), \
	  create_call_rcu_data(flags, cpu_affinity)) \
	V(call_rcu_data_free, (struct call_rcu_data * crdp), call_rcu_data_free(crdp)) \
	R(struct call_rcu_data *, get_default_call_rcu_data, (void), get_default_call_rcu_data()) \
	R(struct call_rcu_data *, get_cpu_call_rcu_data, (int cpu), get_cpu_call_rcu_data(cpu)) \
	R(struct call_rcu_data *, get_thread_call_rcu_data, (void), get_thread_call_rcu_data()) \
	R(struct call_rcu_data *, get_call_rcu_data, (void), get_call_rcu_data()) \
	V(set_thread_call_rcu_data, (struct call_rcu_data * crdp), set_thread_call_rcu_data(crdp)) \
	R(int, set_cpu_call_rcu_data, (int cpu, struct call_rcu_data *crdp), set_cpu_call_rcu_data(cpu, crdp)) \
	R(int, create_all_cpu_call_rcu_data, (unsigned long flags), create_all_cpu_call_rcu_data(flags)) \
	V(free_all_cpu_call_rcu_data, (void), free_all_cpu_call_rcu_data()) \
	V(call_rcu_before_fork, (void), call_rcu_before_fork()) \
	V(call_rcu_after_fork_parent, (void), call_rcu_after_fork_parent()) \
	V(call_rcu_after_fork_child, (void), call_rcu_after_fork_child()) \
	V(before_fork, (void), call_rcu_before_fork()) \
	V(after_fork_parent, (void), call_rcu_after_fork_parent()) \
	V(after_fork_child, (void), call_rcu_after_fork_child()) \
	V(register_rculfhash_atfork, (struct urcu_atfork * atfork), urcu_register_rculfhash_atfork(atfork)) \
	V(unregister_rculfhash_atfork, (struct urcu_atfork * atfork), urcu_unregister_rculfhash_atfork(atfork))

#define RCU__URCU_NAME3(f, n) urcu_##f##n
#define RCU__URCU_NAME2(f, n) RCU__URCU_NAME3(f, n)
/* urcu_<flavour>_<n>. Wherever a name is a macro's parameter it is pasted at once (_##n), so
 * that it is never replaced by a name that a further flavour's reading renames (call_rcu,
 * synchronize_rcu, ...: rcu_instance.h). */
#define RCU__URCU_NAME(n) RCU__URCU_NAME2(RCU__FTAG, _##n)
#define RCU__URCU_DEFINE_V(name, params, stmt) \
	static inline void RCU__URCU_NAME2(RCU__FTAG, _##name) params RCU__NOEXCEPT \
	{ \
		stmt; \
	}
#define RCU__URCU_DEFINE_R(type, name, params, expr) \
	static inline type RCU__URCU_NAME2(RCU__FTAG, _##name) params RCU__NOEXCEPT \
	{ \
		return expr; \
	}
RCU__URCU_API(RCU__URCU_DEFINE_V, RCU__URCU_DEFINE_R)

/* The flavour's table, urcu_<flavour>_flavor (and, for the unit's first flavour, its unprefixed
 * name): one object per flavour and program (weak), so that its address names the flavour in
 * every unit, as liburcu's does (cds_lfht_new_flavor() compares it); its functions are those of
 * the unit the linker keeps, which are every unit's. Its symbol is rcu.h's
 * (rcu__<flavour>_v<ABI>_urcu_flavor), not liburcu's, so that a liburcu loaded into the same
 * process keeps its own table. */
#if defined(__cplusplus)
#define RCU__URCU_FLAVOR_EXTERN extern /* a C++ const has internal linkage otherwise */
#else
#define RCU__URCU_FLAVOR_EXTERN
#endif
extern const struct rcu_flavor_struct RCU__URCU_NAME(flavor) __asm__(RCU__STR(RCU__SYM(urcu_flavor)));
RCU__WEAK RCU__URCU_FLAVOR_EXTERN const struct rcu_flavor_struct RCU__URCU_NAME(flavor) = {
	RCU__URCU_NAME(read_lock),
	RCU__URCU_NAME(read_unlock),
	RCU__URCU_NAME(read_ongoing),
	RCU__URCU_NAME(quiescent_state),
	RCU__URCU_NAME(call_rcu),
	RCU__URCU_NAME(synchronize_rcu),
	RCU__URCU_NAME(defer_rcu),
	RCU__URCU_NAME(thread_offline),
	RCU__URCU_NAME(thread_online),
	RCU__URCU_NAME(register_thread),
	RCU__URCU_NAME(unregister_thread),
	RCU__URCU_NAME(barrier),
	RCU__URCU_NAME(register_rculfhash_atfork),
	RCU__URCU_NAME(unregister_rculfhash_atfork),
	RCU__URCU_NAME(start_poll_synchronize_rcu),
	RCU__URCU_NAME(poll_state_synchronize_rcu),
};

#if !defined(RCU__INSTANCE)
#define rcu_flavor RCU__URCU_NAME(flavor)
/* What a use of the first flavour's unprefixed rcu_flavor or cds_lfht_new() expands to besides, and
 * what it calls instead when rcu_liburcu.h finds that no header named that flavour although the
 * unit has several: a compile-time error with this sentence. */
#define RCU__URCU_FIRST_USE() ((void)0)
#define RCU__URCU_UNBOUND_RULE \
	"compat/liburcu: this unit has several flavours, and no header named its first one (MEMB, liburcu's default, because a header that names none, such as <urcu/rculist.h>, <urcu/call-rcu.h> or <urcu/rculfhash.h>, came first): rcu_flavor and cds_lfht_new() would be MEMB's; include the flavour header of the flavour you mean before the other urcu headers, or build with -DRCU_FLAVOUR_<NAME>"
extern int rcu__urcu_unbound(void) __attribute__((error(RCU__URCU_UNBOUND_RULE)));
extern const struct rcu_flavor_struct *rcu__urcu_unbound_flavor(void) __attribute__((error(RCU__URCU_UNBOUND_RULE)));
/* Each further flavour's read_ongoing(), once rcu_liburcu.h has added it (RCU__IN_SECTION()). */
#define RCU__URCU_ONGOING_QSBR() 0
#define RCU__URCU_ONGOING_MEMB() 0
#define RCU__URCU_ONGOING_MB() 0
#define RCU__URCU_ONGOING_BP() 0

/* liburcu's inline names under _LGPL_SOURCE (the urcu/static/ headers), which its programs may call: the
 * same functions and macros here (rcu.h is all inline). */
#define _rcu_read_lock rcu_read_lock
#define _rcu_read_unlock rcu_read_unlock
#define _rcu_read_ongoing rcu_read_ongoing
#define _rcu_quiescent_state rcu_quiescent_state
#define _rcu_dereference rcu_dereference
#define _rcu_set_pointer rcu_set_pointer
#define _rcu_assign_pointer rcu_assign_pointer
#define _rcu_xchg_pointer rcu_xchg_pointer
#define _rcu_cmpxchg_pointer rcu_cmpxchg_pointer

/* The rest of urcu.h: rcu_init() does nothing (rcu.h sets up at load time). */
static inline void rcu_init(void)
{
}

#endif /* !RCU__INSTANCE */

#if defined(RCU_FLAVOUR_BP)
/* liburcu-bp's pointer names (urcu/urcu-bp.h), for BP as the unit's first flavour or a further
 * one: a further flavour's reading keeps its urcu_<flavour>_ macros (scripts/instance-names.py). */
#define urcu_bp_dereference(p) rcu_dereference(p)
#define urcu_bp_set_pointer(pp, v) rcu_set_pointer(pp, v)
#define urcu_bp_xchg_pointer(pp, v) rcu_xchg_pointer(pp, v)
#define urcu_bp_cmpxchg_pointer(pp, old, v) rcu_cmpxchg_pointer(pp, old, v)
#endif

#endif /* !RCU__COMPAT_LIBURCU_NAMES_H || RCU__INSTANCE */

/*
 * Both name layers in one unit (this file and compat/kernel/rcu_kernel_names.h, in either order):
 * start_poll_synchronize_rcu() returns rcu.h's uint64_t, which is the kernel's shape and rcu.h's
 * own entry; liburcu code there gets the struct from urcu_<flavour>_start_poll_synchronize_rcu().
 * Whichever file comes second applies this, so the order of the includes does not matter.
 */
#if defined(RCU__COMPAT_LIBURCU_NAMES_H) && defined(RCU__COMPAT_KERNEL_NAMES_H) && !defined(RCU__INSTANCE)
#undef start_poll_synchronize_rcu
#endif
