/* SPDX-License-Identifier: 0BSD */
/*
 * compat/liburcu/rcu_instance.h: a further flavour in a translation unit that already has one,
 * for liburcu programs that name several (liburcu's test_urcu_multiflavor_single_unit calls
 * urcu_mb_synchronize_rcu() and urcu_qsbr_synchronize_rcu() from one file). Included by
 * rcu_liburcu.h with RCU__INSTANCE_<FLAVOUR> defined, once per flavour; not a user header.
 *
 * It reads rcu.h and rcu_liburcu_names.h again with RCU__INSTANCE defined and only that flavour
 * selected, and around that reading:
 *   - every macro the reading defines or undefines is saved first and brought back after
 *     (push_macro and pop_macro), except the public configuration (RCU_SPIN_SCANS, ...: the
 *     program's, the same for every flavour) and urcu_<flavour>_* (what the reading is for), so
 *     the unit's own flavour keeps its RCU__FTAG, RCU__QSBR, ... and the macros the program
 *     calls (rcu_read_lock() under RCU_DEBUG, call_rcu(), ...) stay the unit's;
 *   - every identifier of the flavour's code is renamed rcu__i_<flavour>_<name> while it is
 *     read, so its static inline functions, types and enumerators do not collide with the unit's
 *     own; the two lists are rcu_instance_names.h, written by scripts/instance-names.py.
 * What the reading leaves is urcu_<flavour>_*() (rcu_liburcu_names.h's prefixed API) and
 * urcu_<flavour>_flavor over the flavour's own code. Its external symbols are named after its
 * flavour as always (rcu__<flavour>_v<ABI>_*), so it shares one state with every other unit of
 * the process that uses the flavour, as liburcu's do: a urcu_qsbr_synchronize_rcu() here waits
 * for the QSBR readers of a unit whose flavour is QSBR. What every flavour shares (struct
 * rcu_head, the pointer macros, the lists, liburcu's types) is read once, with the unit's
 * flavour; C++'s namespace rcu and the unprefixed names are the unit's flavour only.
 */
#if !defined(RCU_H)
#error "compat/liburcu/rcu_instance.h: rcu.h first (rcu_liburcu.h includes this file)"
#endif

#pragma push_macro("RCU_FLAVOUR_QSBR")
#pragma push_macro("RCU_FLAVOUR_MEMB")
#pragma push_macro("RCU_FLAVOUR_MB")
#pragma push_macro("RCU_FLAVOUR_BP")
#undef RCU_FLAVOUR_QSBR
#undef RCU_FLAVOUR_MEMB
#undef RCU_FLAVOUR_MB
#undef RCU_FLAVOUR_BP
#if defined(RCU__INSTANCE_QSBR)
#define RCU_FLAVOUR_QSBR 1
#define RCU__ITAG qsbr
#elif defined(RCU__INSTANCE_MEMB)
#define RCU_FLAVOUR_MEMB 1
#define RCU__ITAG memb
#elif defined(RCU__INSTANCE_MB)
#define RCU_FLAVOUR_MB 1
#define RCU__ITAG mb
#elif defined(RCU__INSTANCE_BP)
#define RCU_FLAVOUR_BP 1
#define RCU__ITAG bp
#else
#error "compat/liburcu/rcu_instance.h: define RCU__INSTANCE_<FLAVOUR> first"
#endif

/* rcu__i_<flavour>_<name>: the name of `name` in this reading. */
#define RCU__I3(t, n) rcu__i_##t##_##n
#define RCU__I2(t, n) RCU__I3(t, n)
#define RCU__I(n) RCU__I2(RCU__ITAG, n)

#define RCU__INSTANCE 1
#define RCU__INSTANCE_ON 1
#include "rcu_instance_names.h"
#include "../../rcu.h"
#include "rcu_liburcu_names.h"
#undef RCU__INSTANCE_ON
#include "rcu_instance_names.h"
#undef RCU__INSTANCE

#undef RCU__I
#undef RCU__I2
#undef RCU__I3
#undef RCU__ITAG
#undef RCU_FLAVOUR_QSBR
#undef RCU_FLAVOUR_MEMB
#undef RCU_FLAVOUR_MB
#undef RCU_FLAVOUR_BP
#pragma pop_macro("RCU_FLAVOUR_QSBR")
#pragma pop_macro("RCU_FLAVOUR_MEMB")
#pragma pop_macro("RCU_FLAVOUR_MB")
#pragma pop_macro("RCU_FLAVOUR_BP")

/* The flavour's sections count for rcu_dereference()'s check (rcu_liburcu.h, RCU__IN_SECTION()). */
#if defined(RCU__INSTANCE_QSBR)
#undef RCU__URCU_ONGOING_QSBR
#define RCU__URCU_ONGOING_QSBR() urcu_qsbr_read_ongoing()
#elif defined(RCU__INSTANCE_MEMB)
#undef RCU__URCU_ONGOING_MEMB
#define RCU__URCU_ONGOING_MEMB() urcu_memb_read_ongoing()
#elif defined(RCU__INSTANCE_MB)
#undef RCU__URCU_ONGOING_MB
#define RCU__URCU_ONGOING_MB() urcu_mb_read_ongoing()
#else
#undef RCU__URCU_ONGOING_BP
#define RCU__URCU_ONGOING_BP() urcu_bp_read_ongoing()
#endif
#undef RCU__INSTANCE_QSBR
#undef RCU__INSTANCE_MEMB
#undef RCU__INSTANCE_MB
#undef RCU__INSTANCE_BP
#define RCU__URCU_SEVERAL 1
