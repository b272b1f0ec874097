/* SPDX-License-Identifier: 0BSD */
/*
 * bench/peer_urcu.c: liburcu under test, one flavour per build of this file
 * (-DBENCH_URCU_QSBR, _MEMB, _MB or _BP); with -DBENCH_SO it goes into librcu-bench-so.so.
 *
 * _LGPL_SOURCE inlines liburcu's read-side fast paths, as a program that cares about them builds
 * it; URCU_API_MAP keeps the generic names (rcu_read_lock -> urcu_memb_read_lock, ...) defined
 * after the include, so that bench/rcu_body.h is the same source as for rcu.h.
 */
#define _LGPL_SOURCE
#define URCU_API_MAP

#if defined(BENCH_SO)
#define BENCH_NAME(x) bench_so_##x
#else
#define BENCH_NAME(x) bench_##x
#endif

#if defined(BENCH_URCU_QSBR)
#include <urcu/urcu-qsbr.h>
#define BENCH_IMPL BENCH_NAME(urcu_qsbr)
#define BENCH_FLAVOUR "qsbr"
#elif defined(BENCH_URCU_MB)
#include <urcu/urcu-mb.h>
#define BENCH_IMPL BENCH_NAME(urcu_mb)
#define BENCH_FLAVOUR "mb"
#elif defined(BENCH_URCU_BP)
#include <urcu/urcu-bp.h>
#define BENCH_IMPL BENCH_NAME(urcu_bp)
#define BENCH_FLAVOUR "bp"
#elif defined(BENCH_URCU_MEMB)
#include <urcu/urcu-memb.h>
#define BENCH_IMPL BENCH_NAME(urcu_memb)
#define BENCH_FLAVOUR "memb"
#else
#error "bench/peer_urcu.c: define one of BENCH_URCU_QSBR, _MEMB, _MB, _BP"
#endif

#define BENCH_LABEL "liburcu"
#define BENCH_PTR_QUAL
#define BENCH_HAVE_STATS 0
#include "rcu_body.h"
