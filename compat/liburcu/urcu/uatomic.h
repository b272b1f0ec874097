/* SPDX-License-Identifier: 0BSD */
/*
 * <urcu/uatomic.h> of the compat folder: liburcu's atomic operations, on GCC's __atomic builtins.
 * Needs no flavour and does not include rcu.h.
 *
 * Each operation has liburcu 0.15's two forms: uatomic_op_mo(addr, ..., mo) with an explicit
 * memory order, and uatomic_op(addr, ...[, mo]) whose last argument is optional and defaults to
 * liburcu's order for that operation (below). The orders are enum cmm_memorder, whose values are
 * GCC's __ATOMIC_* (as liburcu's are, where its toolchain supports C11), plus CMM_SEQ_CST_FENCE:
 * a seq_cst operation followed by a full fence, which is what liburcu's operations that "imply a
 * full barrier" (add_return, sub_return, xchg, cmpxchg) give by default.
 */
#ifndef RCU__COMPAT_URCU_UATOMIC_H
#define RCU__COMPAT_URCU_UATOMIC_H

#include "arch.h"
#include "compiler.h"
#include "config.h"

enum cmm_memorder {
	CMM_RELAXED = __ATOMIC_RELAXED,
	CMM_CONSUME = __ATOMIC_CONSUME,
	CMM_ACQUIRE = __ATOMIC_ACQUIRE,
	CMM_RELEASE = __ATOMIC_RELEASE,
	CMM_ACQ_REL = __ATOMIC_ACQ_REL,
	CMM_SEQ_CST = __ATOMIC_SEQ_CST,
	CMM_SEQ_CST_FENCE = __ATOMIC_SEQ_CST + 1
};

/* Sizes on which the operations are lock-free (liburcu's test_uatomic runs a check per size). */
#if __GCC_ATOMIC_CHAR_LOCK_FREE == 2
#define UATOMIC_HAS_ATOMIC_BYTE 1
#endif
#if __GCC_ATOMIC_SHORT_LOCK_FREE == 2
#define UATOMIC_HAS_ATOMIC_SHORT 1
#endif
#if __GCC_ATOMIC_INT_LOCK_FREE == 2
#define UATOMIC_HAS_ATOMIC_INT 1
#endif
#if __GCC_ATOMIC_LLONG_LOCK_FREE == 2
#define UATOMIC_HAS_ATOMIC_LLONG 1
#endif

/* The C11 order of a cmm order, and the fence that CMM_SEQ_CST_FENCE adds after the operation. */
#define RCU__CMM_C11(mo) ((int)(mo) == (int)CMM_SEQ_CST_FENCE ? __ATOMIC_SEQ_CST : (int)(mo))
#define RCU__CMM_FENCE_AFTER(mo) ((void)((int)(mo) == (int)CMM_SEQ_CST_FENCE ? (RCU__COMPAT_MB(), 0) : 0))
/* A failed compare-exchange only loads: release parts of its order do not apply. */
#define RCU__CMM_C11_FAIL(mo) \
	((int)(mo) == (int)CMM_RELEASE ? __ATOMIC_RELAXED \
	 : (int)(mo) == (int)CMM_ACQ_REL ? __ATOMIC_ACQUIRE : RCU__CMM_C11(mo))

/* The explicit-order forms. */
#define uatomic_load_mo(addr, mo) \
	__extension__({ \
		__typeof__(*(addr)) rcu__ua_v = __atomic_load_n((addr), RCU__CMM_C11(mo)); \
		RCU__CMM_FENCE_AFTER(mo); \
		rcu__ua_v; \
	})
#define uatomic_store_mo(addr, v, mo) \
	__extension__({ \
		__atomic_store_n((addr), (v), RCU__CMM_C11(mo)); \
		RCU__CMM_FENCE_AFTER(mo); \
	})
#define RCU__UA_RMW(fn, addr, v, mo) \
	__extension__({ \
		__typeof__(*(addr)) rcu__ua_r = fn((addr), (v), RCU__CMM_C11(mo)); \
		RCU__CMM_FENCE_AFTER(mo); \
		rcu__ua_r; \
	})
#define uatomic_add_return_mo(addr, v, mo) RCU__UA_RMW(__atomic_add_fetch, addr, v, mo)
#define uatomic_sub_return_mo(addr, v, mo) RCU__UA_RMW(__atomic_sub_fetch, addr, v, mo)
#define uatomic_xchg_mo(addr, v, mo) RCU__UA_RMW(__atomic_exchange_n, addr, v, mo)
#define uatomic_add_mo(addr, v, mo) ((void)RCU__UA_RMW(__atomic_add_fetch, addr, v, mo))
#define uatomic_sub_mo(addr, v, mo) ((void)RCU__UA_RMW(__atomic_sub_fetch, addr, v, mo))
#define uatomic_and_mo(addr, v, mo) ((void)RCU__UA_RMW(__atomic_and_fetch, addr, v, mo))
#define uatomic_or_mo(addr, v, mo) ((void)RCU__UA_RMW(__atomic_or_fetch, addr, v, mo))
#define uatomic_inc_mo(addr, mo) uatomic_add_mo(addr, 1, mo)
#define uatomic_dec_mo(addr, mo) uatomic_sub_mo(addr, 1, mo)
/* A strong compare-and-exchange: stores n if *addr equals old; the value found either way. */
#define uatomic_cmpxchg_mo(addr, old, n, mos, mof) \
	__extension__({ \
		__typeof__(*(addr)) rcu__ua_old = (__typeof__(*(addr)))(old); \
		if (__atomic_compare_exchange_n((addr), &rcu__ua_old, (n), 0, RCU__CMM_C11(mos), RCU__CMM_C11_FAIL(mof))) \
			RCU__CMM_FENCE_AFTER(mos); \
		else \
			RCU__CMM_FENCE_AFTER(mof); \
		rcu__ua_old; \
	})

/* The forms with an optional order (written without GNU's named variadic macros, so that they
 * pass -Wpedantic): the extra arguments supply the default when the caller gave none. */
#define RCU__UA_1(f, addr, mo, ...) f(addr, mo)
#define RCU__UA_2(f, addr, v, mo, ...) f(addr, v, mo)
#define uatomic_load(...) RCU__UA_1(uatomic_load_mo, __VA_ARGS__, CMM_RELAXED, ~)
#define uatomic_read(...) RCU__UA_1(uatomic_load_mo, __VA_ARGS__, CMM_RELAXED, ~)
#define uatomic_store(...) RCU__UA_2(uatomic_store_mo, __VA_ARGS__, CMM_RELAXED, ~)
#define uatomic_set(...) RCU__UA_2(uatomic_store_mo, __VA_ARGS__, CMM_RELAXED, ~)
#define uatomic_add(...) RCU__UA_2(uatomic_add_mo, __VA_ARGS__, CMM_RELAXED, ~)
#define uatomic_sub(...) RCU__UA_2(uatomic_sub_mo, __VA_ARGS__, CMM_RELAXED, ~)
#define uatomic_inc(...) RCU__UA_1(uatomic_inc_mo, __VA_ARGS__, CMM_RELAXED, ~)
#define uatomic_dec(...) RCU__UA_1(uatomic_dec_mo, __VA_ARGS__, CMM_RELAXED, ~)
#define uatomic_or(...) RCU__UA_2(uatomic_or_mo, __VA_ARGS__, CMM_RELAXED, ~)
#define uatomic_and(...) RCU__UA_2(uatomic_and_mo, __VA_ARGS__, CMM_SEQ_CST, ~)
#define uatomic_add_return(...) RCU__UA_2(uatomic_add_return_mo, __VA_ARGS__, CMM_SEQ_CST_FENCE, ~)
#define uatomic_sub_return(...) RCU__UA_2(uatomic_sub_return_mo, __VA_ARGS__, CMM_SEQ_CST_FENCE, ~)
#define uatomic_xchg(...) RCU__UA_2(uatomic_xchg_mo, __VA_ARGS__, CMM_SEQ_CST_FENCE, ~)
/* cmpxchg: no order (seq_cst + fence, relaxed on failure), one (for success; relaxed on failure)
 * or two (success, failure), as liburcu's. */
#define RCU__UA_CMPXCHG3(addr, old, n) uatomic_cmpxchg_mo(addr, old, n, CMM_SEQ_CST_FENCE, CMM_RELAXED)
#define RCU__UA_CMPXCHG4(addr, old, n, mos) uatomic_cmpxchg_mo(addr, old, n, mos, CMM_RELAXED)
#define RCU__UA_CMPXCHG5(addr, old, n, mos, mof) uatomic_cmpxchg_mo(addr, old, n, mos, mof)
#define RCU__UA_PICK6(a, b, c, d, e, f, ...) f
#define uatomic_cmpxchg(...) \
	RCU__UA_PICK6(__VA_ARGS__, RCU__UA_CMPXCHG5, RCU__UA_CMPXCHG4, RCU__UA_CMPXCHG3, ~)(__VA_ARGS__)

/* Barriers around the operations that return nothing (liburcu's: full barriers here). */
#define cmm_smp_mb__before_uatomic_add() cmm_smp_mb()
#define cmm_smp_mb__after_uatomic_add() cmm_smp_mb()
#define cmm_smp_mb__before_uatomic_sub() cmm_smp_mb()
#define cmm_smp_mb__after_uatomic_sub() cmm_smp_mb()
#define cmm_smp_mb__before_uatomic_inc() cmm_smp_mb()
#define cmm_smp_mb__after_uatomic_inc() cmm_smp_mb()
#define cmm_smp_mb__before_uatomic_dec() cmm_smp_mb()
#define cmm_smp_mb__after_uatomic_dec() cmm_smp_mb()
#define cmm_smp_mb__before_uatomic_and() cmm_smp_mb()
#define cmm_smp_mb__after_uatomic_and() cmm_smp_mb()
#define cmm_smp_mb__before_uatomic_or() cmm_smp_mb()
#define cmm_smp_mb__after_uatomic_or() cmm_smp_mb()

#endif /* RCU__COMPAT_URCU_UATOMIC_H */
