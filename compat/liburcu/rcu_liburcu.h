/* SPDX-License-Identifier: 0BSD */
/*
 * compat/liburcu/rcu_liburcu.h: rcu.h with liburcu's names, for the headers of this folder that
 * need RCU (urcu.h, urcu-qsbr.h, urcu/rculist.h, ...); the others (urcu/arch.h, urcu/uatomic.h,
 * ...) need no flavour and do not include it.
 *
 * The flavour. A translation unit has one (rcu.h's rule). A flavour header of this folder asks for
 * its own by defining RCU__URCU_ASK_<FLAVOUR> before including this file; if rcu.h was already
 * included with another flavour (an earlier header of this folder, or -DRCU_FLAVOUR_...), the
 * build stops here with a sentence. A header that asks for none (urcu/rculist.h, urcu/list.h, ...)
 * keeps the flavour already chosen, or takes it from the macros liburcu's programs are built with
 * (RCU_QSBR, RCU_BP, RCU_MB, RCU_MEMBARRIER), MEMB by default as liburcu's <urcu.h>.
 */
#if defined(RCU__URCU_ASK_QSBR)
#undef RCU__URCU_ASK_QSBR
#if !defined(RCU_FLAVOUR_QSBR) && (defined(RCU_H) || defined(RCU_FLAVOUR_MEMB) || defined(RCU_FLAVOUR_MB) || defined(RCU_FLAVOUR_BP))
#error "compat/liburcu: <urcu-qsbr.h> asks for the QSBR flavour, but rcu.h has another (chosen by -DRCU_FLAVOUR_* or by an earlier header of compat/liburcu): one translation unit has one flavour; include <urcu-qsbr.h> before the other urcu headers, or build with -DRCU_FLAVOUR_QSBR"
#endif
#ifndef RCU_FLAVOUR_QSBR
#define RCU_FLAVOUR_QSBR 1
#endif
#elif defined(RCU__URCU_ASK_MEMB)
#undef RCU__URCU_ASK_MEMB
#if !defined(RCU_FLAVOUR_MEMB) && (defined(RCU_H) || defined(RCU_FLAVOUR_QSBR) || defined(RCU_FLAVOUR_MB) || defined(RCU_FLAVOUR_BP))
#error "compat/liburcu: <urcu.h> or <urcu/urcu-memb.h> asks for the MEMB flavour, but rcu.h has another (chosen by -DRCU_FLAVOUR_* or by an earlier header of compat/liburcu): one translation unit has one flavour; include the flavour's header before the other urcu headers, or build with -DRCU_FLAVOUR_MEMB"
#endif
#ifndef RCU_FLAVOUR_MEMB
#define RCU_FLAVOUR_MEMB 1
#endif
#elif defined(RCU__URCU_ASK_MB)
#undef RCU__URCU_ASK_MB
#if !defined(RCU_FLAVOUR_MB) && (defined(RCU_H) || defined(RCU_FLAVOUR_QSBR) || defined(RCU_FLAVOUR_MEMB) || defined(RCU_FLAVOUR_BP))
#error "compat/liburcu: <urcu/urcu-mb.h> (or <urcu.h> with RCU_MB) asks for the MB flavour, but rcu.h has another (chosen by -DRCU_FLAVOUR_* or by an earlier header of compat/liburcu): one translation unit has one flavour; include the flavour's header before the other urcu headers, or build with -DRCU_FLAVOUR_MB"
#endif
#ifndef RCU_FLAVOUR_MB
#define RCU_FLAVOUR_MB 1
#endif
#elif defined(RCU__URCU_ASK_BP)
#undef RCU__URCU_ASK_BP
#if !defined(RCU_FLAVOUR_BP) && (defined(RCU_H) || defined(RCU_FLAVOUR_QSBR) || defined(RCU_FLAVOUR_MEMB) || defined(RCU_FLAVOUR_MB))
#error "compat/liburcu: <urcu-bp.h> asks for the BP flavour, but rcu.h has another (chosen by -DRCU_FLAVOUR_* or by an earlier header of compat/liburcu): one translation unit has one flavour; include <urcu-bp.h> before the other urcu headers, or build with -DRCU_FLAVOUR_BP"
#endif
#ifndef RCU_FLAVOUR_BP
#define RCU_FLAVOUR_BP 1
#endif
#elif !defined(RCU_H) && !defined(RCU_FLAVOUR_QSBR) && !defined(RCU_FLAVOUR_MEMB) && !defined(RCU_FLAVOUR_MB) && \
	!defined(RCU_FLAVOUR_BP)
#if defined(RCU_QSBR)
#define RCU_FLAVOUR_QSBR 1
#elif defined(RCU_BP)
#define RCU_FLAVOUR_BP 1
#elif defined(RCU_MB)
#define RCU_FLAVOUR_MB 1
#else
#define RCU_FLAVOUR_MEMB 1
#endif
#endif

#ifndef RCU__COMPAT_LIBURCU_H
#define RCU__COMPAT_LIBURCU_H
#include "../../rcu.h"
#include "rcu_liburcu_names.h"
#endif
