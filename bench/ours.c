/* SPDX-License-Identifier: 0BSD */
/*
 * bench/ours.c: rcu.h under test, one flavour per build of this file (-DRCU_FLAVOUR_*, as the
 * tests do); with -DBENCH_SO the same file goes into the shared object librcu-bench-so.so.
 */
#include "rcu.h"

#if defined(BENCH_SO)
#define BENCH_NAME(x) bench_so_##x
#else
#define BENCH_NAME(x) bench_##x
#endif

#if defined(RCU_FLAVOUR_QSBR)
#define BENCH_IMPL BENCH_NAME(ours_qsbr)
#define BENCH_FLAVOUR "qsbr"
#elif defined(RCU_FLAVOUR_MB)
#define BENCH_IMPL BENCH_NAME(ours_mb)
#define BENCH_FLAVOUR "mb"
#elif defined(RCU_FLAVOUR_BP)
#define BENCH_IMPL BENCH_NAME(ours_bp)
#define BENCH_FLAVOUR "bp"
#else
#define BENCH_IMPL BENCH_NAME(ours_memb)
#define BENCH_FLAVOUR "memb"
#endif

#define BENCH_LABEL "ours"
#define BENCH_PTR_QUAL _Atomic
#define BENCH_HAVE_STATS 1
#include "rcu_body.h"
