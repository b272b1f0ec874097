/* SPDX-License-Identifier: 0BSD */
/*
 * test/compile/orders.c: one small function per pointer macro and pointer kind, for orders.py,
 * which reads the compiler's own account of the atomic accesses in each (clang's LLVM IR, GCC's
 * optimized GIMPLE) and checks their memory orders against the table in orders.py: the same
 * order for a plain `T *`, a C `T *_Atomic`, a C++ `std::atomic<T *>` (and C++23's
 * `_Atomic(T *)`), a pointer inside an object, a pointer to const; the list primitives too.
 * Valid C and C++ (check.sh group `lang`, checks `orders-*`).
 *
 * Function names: o_<macro>__<kind>. Kinds: plain, atomic (C's _Atomic, C++'s std::atomic),
 * c23 (C++23's _Atomic(T *), when <stdatomic.h> has it), member, cplain (pointer to const).
 */
#define RCU_KERNEL_NAMES
#include "rcu.h"

#if defined(__cplusplus)
#if __cplusplus > 202002L && defined(__has_include)
#if __has_include(<stdatomic.h>)
#include <stdatomic.h>
#define O_C23 1
#endif
#endif
#define O_FN extern "C"
#define O_ATOMIC(T) std::atomic<T>
#else
#define O_FN
#define O_ATOMIC(T) T _Atomic
#endif

struct obj {
	int v;
	struct obj *next;
	struct rcu_list link;
	struct rcu_hlist_node hnode;
};

static DEFINE_SRCU(o_srcu);
struct obj *o_plain;
O_ATOMIC(struct obj *) o_atomic;
const struct obj *o_cplain;
struct obj o_holder;
#if defined(O_C23)
_Atomic(struct obj *) o_c23;
#endif

/* For each kind K with lvalue P of pointee type T: one function per macro. */
#define O_MACROS(K, P, T) \
	O_FN T *o_rcu_dereference__##K(void); \
	O_FN T *o_rcu_dereference__##K(void) { return rcu_dereference(P); } \
	O_FN T *o_rcu_dereference_check__##K(void); \
	O_FN T *o_rcu_dereference_check__##K(void) { return rcu_dereference_check(P, 1); } \
	O_FN T *o_rcu_dereference_raw__##K(void); \
	O_FN T *o_rcu_dereference_raw__##K(void) { return rcu_dereference_raw(P); } \
	O_FN T *o_rcu_dereference_bh__##K(void); \
	O_FN T *o_rcu_dereference_bh__##K(void) { return rcu_dereference_bh(P); } \
	O_FN T *o_srcu_dereference__##K(void); \
	O_FN T *o_srcu_dereference__##K(void) { return srcu_dereference(P, &o_srcu); } \
	O_FN T *o_rcu_dereference_protected__##K(void); \
	O_FN T *o_rcu_dereference_protected__##K(void) { return rcu_dereference_protected(P, 1); } \
	O_FN T *o_rcu_access_pointer__##K(void); \
	O_FN T *o_rcu_access_pointer__##K(void) { return rcu_access_pointer(P); } \
	O_FN void o_rcu_assign_pointer__##K(T *v); \
	O_FN void o_rcu_assign_pointer__##K(T *v) { rcu_assign_pointer(P, v); } \
	O_FN void o_rcu_set_pointer__##K(T *v); \
	O_FN void o_rcu_set_pointer__##K(T *v) { rcu_set_pointer(&(P), v); } \
	O_FN void o_rcu_init_pointer__##K(T *v); \
	O_FN void o_rcu_init_pointer__##K(T *v) { rcu_init_pointer(P, v); } \
	O_FN void o_RCU_INIT_POINTER__##K(T *v); \
	O_FN void o_RCU_INIT_POINTER__##K(T *v) { RCU_INIT_POINTER(P, v); } \
	O_FN T *o_rcu_xchg_pointer__##K(T *v); \
	O_FN T *o_rcu_xchg_pointer__##K(T *v) { return rcu_xchg_pointer(&(P), v); } \
	O_FN T *o_rcu_cmpxchg_pointer__##K(T *o, T *v); \
	O_FN T *o_rcu_cmpxchg_pointer__##K(T *o, T *v) { return rcu_cmpxchg_pointer(&(P), o, v); } \
	O_FN T *o_rcu_replace_pointer__##K(T *v); \
	O_FN T *o_rcu_replace_pointer__##K(T *v) { return rcu_replace_pointer(P, v, 1); }

O_MACROS(plain, o_plain, struct obj)
O_MACROS(atomic, o_atomic, struct obj)
O_MACROS(member, o_holder.next, struct obj)
O_MACROS(cplain, o_cplain, const struct obj)
#if defined(O_C23)
O_MACROS(c23, o_c23, struct obj)
#endif

/* The lists: insertions publish with a release store; walks load every link with consume. */
struct rcu_list o_list;
struct rcu_hlist_head o_bucket;

O_FN void o_list_add__list(struct obj *n);
O_FN void o_list_add__list(struct obj *n) { rcu_list_add(&n->link, &o_list); }
O_FN void o_list_add_tail__list(struct obj *n);
O_FN void o_list_add_tail__list(struct obj *n) { rcu_list_add_tail(&n->link, &o_list); }
O_FN void o_list_del__list(struct obj *n);
O_FN void o_list_del__list(struct obj *n) { rcu_list_del(&n->link); }
O_FN void o_list_replace__list(struct obj *o, struct obj *n);
O_FN void o_list_replace__list(struct obj *o, struct obj *n)
{
	rcu_list_replace(&o->link, &n->link);
}
O_FN int o_list_walk__list(void);
O_FN int o_list_walk__list(void)
{
	struct obj *pos;
	int s = 0;
	rcu_list_for_each_entry(pos, &o_list, link)
		s += pos->v;
	return s;
}
O_FN void o_hlist_add_head__list(struct obj *n);
O_FN void o_hlist_add_head__list(struct obj *n) { rcu_hlist_add_head(&n->hnode, &o_bucket); }
O_FN void o_hlist_del__list(struct obj *n);
O_FN void o_hlist_del__list(struct obj *n) { rcu_hlist_del(&n->hnode); }
O_FN int o_hlist_walk__list(void);
O_FN int o_hlist_walk__list(void)
{
	struct obj *pos;
	int s = 0;
	rcu_hlist_for_each_entry(pos, &o_bucket, hnode)
		s += pos->v;
	return s;
}
O_FN int o_list_for_each_entry_rcu__list(void);
O_FN int o_list_for_each_entry_rcu__list(void)
{
	struct obj *pos;
	int s = 0;
	list_for_each_entry_rcu(pos, &o_list, link, 1)
		s += pos->v;
	return s;
}
