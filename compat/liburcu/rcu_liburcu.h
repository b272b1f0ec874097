/* SPDX-License-Identifier: 0BSD */
/*
 * compat/liburcu/rcu_liburcu.h: rcu.h with liburcu's names, for the headers of this folder that
 * need RCU (urcu.h, urcu-qsbr.h, urcu/rculist.h, ...); the others (urcu/arch.h, urcu/uatomic.h,
 * ...) need no flavour and do not include it.
 *
 * The flavour. A translation unit's first flavour is the one rcu.h is included with: the one a
 * flavour header of this folder asks for (it defines RCU__URCU_ASK_<FLAVOUR> before including
 * this file), unless -DRCU_FLAVOUR_* chose it or an earlier header did; a header that asks for
 * none (urcu/rculist.h, urcu/list.h, ...) takes it from the macros liburcu's programs are built
 * with (RCU_QSBR, RCU_BP, RCU_MB, RCU_MEMBARRIER), MEMB by default as liburcu's <urcu.h>. The
 * first flavour has rcu.h's names and liburcu's unprefixed ones. A flavour header that asks for
 * another flavour after that adds it as liburcu's <urcu/urcu-<flavour>.h> does: its
 * urcu_<flavour>_*() names only, over a further reading of rcu.h (rcu_instance.h). liburcu's
 * top-level headers (<urcu-qsbr.h>, ...), which map the unprefixed names, stop the build instead
 * when their flavour is not the first.
 */
#if defined(RCU__URCU_ASK_QSBR)
#undef RCU__URCU_ASK_QSBR
#if defined(RCU_H) || defined(RCU_FLAVOUR_MEMB) || defined(RCU_FLAVOUR_MB) || defined(RCU_FLAVOUR_BP)
#if !defined(RCU_FLAVOUR_QSBR)
#define RCU__URCU_FURTHER_QSBR 1 /* <urcu/urcu-qsbr.h>: a further flavour */
#endif
#elif !defined(RCU_FLAVOUR_QSBR)
#define RCU_FLAVOUR_QSBR 1
#endif
#endif
#if defined(RCU__URCU_ASK_MEMB)
#undef RCU__URCU_ASK_MEMB
#if defined(RCU_H) || defined(RCU_FLAVOUR_QSBR) || defined(RCU_FLAVOUR_MB) || defined(RCU_FLAVOUR_BP)
#if !defined(RCU_FLAVOUR_MEMB)
#define RCU__URCU_FURTHER_MEMB 1 /* <urcu/urcu-memb.h> (or <urcu.h>): a further flavour */
#endif
#elif !defined(RCU_FLAVOUR_MEMB)
#define RCU_FLAVOUR_MEMB 1
#endif
#endif
#if defined(RCU__URCU_ASK_MB)
#undef RCU__URCU_ASK_MB
#if defined(RCU_H) || defined(RCU_FLAVOUR_QSBR) || defined(RCU_FLAVOUR_MEMB) || defined(RCU_FLAVOUR_BP)
#if !defined(RCU_FLAVOUR_MB)
#define RCU__URCU_FURTHER_MB 1 /* <urcu/urcu-mb.h> (or <urcu.h> with RCU_MB): a further flavour */
#endif
#elif !defined(RCU_FLAVOUR_MB)
#define RCU_FLAVOUR_MB 1
#endif
#endif
#if defined(RCU__URCU_ASK_BP)
#undef RCU__URCU_ASK_BP
#if defined(RCU_H) || defined(RCU_FLAVOUR_QSBR) || defined(RCU_FLAVOUR_MEMB) || defined(RCU_FLAVOUR_MB)
#if !defined(RCU_FLAVOUR_BP)
#define RCU__URCU_FURTHER_BP 1 /* <urcu/urcu-bp.h>: a further flavour */
#endif
#elif !defined(RCU_FLAVOUR_BP)
#define RCU_FLAVOUR_BP 1
#endif
#endif

#if !defined(RCU_H) && !defined(RCU_FLAVOUR_QSBR) && !defined(RCU_FLAVOUR_MEMB) && !defined(RCU_FLAVOUR_MB) && \
	!defined(RCU_FLAVOUR_BP)
#if defined(RCU_QSBR)
#define RCU_FLAVOUR_QSBR 1
#elif defined(RCU_BP)
#define RCU_FLAVOUR_BP 1
#elif defined(RCU_MB)
#define RCU_FLAVOUR_MB 1
#else
#define RCU_FLAVOUR_MEMB 1
#define RCU__URCU_DEFAULTED 1 /* no header, macro or selector named it */
#endif
#endif

#ifndef RCU__COMPAT_LIBURCU_H
#define RCU__COMPAT_LIBURCU_H
#include "../../rcu.h"
#include "rcu_liburcu_names.h"
#endif

/* A further flavour (once per unit: its header has an include guard). */
#if defined(RCU__URCU_FURTHER_QSBR)
#undef RCU__URCU_FURTHER_QSBR
#define RCU__INSTANCE_QSBR 1
#include "rcu_instance.h"
#endif
#if defined(RCU__URCU_FURTHER_MEMB)
#undef RCU__URCU_FURTHER_MEMB
#define RCU__INSTANCE_MEMB 1
#include "rcu_instance.h"
#endif
#if defined(RCU__URCU_FURTHER_MB)
#undef RCU__URCU_FURTHER_MB
#define RCU__INSTANCE_MB 1
#include "rcu_instance.h"
#endif
#if defined(RCU__URCU_FURTHER_BP)
#undef RCU__URCU_FURTHER_BP
#define RCU__INSTANCE_BP 1
#include "rcu_instance.h"
#endif

/*
 * After a further flavour: rcu_dereference()'s check under RCU_DEBUG_DEREFERENCE accepts a
 * section of any flavour of the unit. And when no header named the first flavour (a header that
 * names none came first: MEMB, liburcu's default), the names that stand for the first flavour
 * unprefixed, rcu_flavor and cds_lfht_new(), stop the build where the program uses them: liburcu
 * has them only from a top-level flavour header (<urcu.h>, <urcu-qsbr.h>, ...), which names it.
 */
#if defined(RCU__URCU_SEVERAL)
#if defined(RCU_DEBUG_DEREFERENCE)
#undef RCU__IN_SECTION
#define RCU__IN_SECTION() \
	(rcu_read_ongoing() || RCU__URCU_ONGOING_QSBR() || RCU__URCU_ONGOING_MEMB() || RCU__URCU_ONGOING_MB() || \
	 RCU__URCU_ONGOING_BP())
#endif
#if defined(RCU__URCU_DEFAULTED) && !defined(RCU__URCU_UNBOUND)
#define RCU__URCU_UNBOUND 1
#undef rcu_flavor
#define rcu_flavor (*rcu__urcu_unbound_flavor())
#undef RCU__URCU_FIRST_USE
#define RCU__URCU_FIRST_USE() ((void)rcu__urcu_unbound())
#endif
#endif
