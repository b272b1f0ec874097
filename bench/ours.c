/* SPDX-License-Identifier: 0BSD */
/*
 * bench/ours.c: rcu.h under test, one flavour per build of this file (-DRCU_FLAVOUR_*, as the
 * tests do); bench/meson.build names the exported table (-DBENCH_IMPL=bench_ours_<flavour>, or
 * bench_so_ours_<flavour> when the same file goes into the -fPIC shared object).
 */
#include "rcu.h"

#ifndef BENCH_IMPL
#error "bench/ours.c: bench/meson.build defines BENCH_IMPL, the name of the exported table"
#endif

#ifndef BENCH_LABEL
#define BENCH_LABEL "ours" /* another label lets a modified rcu.h be measured beside this one */
#endif
#define BENCH_FLAVOUR RCU_FLAVOUR_NAME
#define BENCH_PTR_QUAL _Atomic

static inline uint64_t ours_stats_gp(void)
{
	struct rcu_stats s;
	rcu_get_stats(&s);
	return s.grace_periods;
}

static inline uint64_t ours_stats_pending_max(void)
{
	struct rcu_stats s;
	rcu_get_stats(&s);
	return s.callbacks_pending_max;
}

#define BENCH_GP_READ() ours_stats_gp()
#define BENCH_PENDING_MAX() ours_stats_pending_max()
#define BENCH_SRCU 1
#include "rcu_body.h"
