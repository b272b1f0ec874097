/* SPDX-License-Identifier: 0BSD */
/*
 * bench/peer_urcu.c: liburcu under test, one version and flavour per build of this file.
 * bench/meson.build defines:
 *   BENCH_IMPL          the exported table's name (bench_urcu_sys_memb, bench_so_urcu_new_qsbr, ...)
 *   BENCH_LABEL         "liburcu-sys" (the distribution's package) or "liburcu-new" (-Dliburcu_new)
 *   BENCH_FLAVOUR       the flavour's name, as in rcu_flavours/meson.build
 *   BENCH_URCU_HEADER   that flavour's liburcu header, e.g. "urcu/urcu-memb.h"
 * and the include path of the version to build against. The two versions export the same
 * symbols: each is linked into its own executable (rcu-bench-liburcu-sys, rcu-bench-liburcu-new).
 *
 * _LGPL_SOURCE inlines liburcu's read-side fast paths, as a program that cares about them builds
 * it; URCU_API_MAP keeps the generic names (rcu_read_lock -> urcu_memb_read_lock, ...) defined
 * after the include, so that bench/rcu_body.h is the same source as for rcu.h. Nothing of
 * liburcu's (LGPL) is copied here: it is only included and linked.
 */
#define _LGPL_SOURCE
#define URCU_API_MAP

#if !defined(BENCH_IMPL) || !defined(BENCH_LABEL) || !defined(BENCH_FLAVOUR) || !defined(BENCH_URCU_HEADER)
#error "bench/peer_urcu.c: bench/meson.build defines BENCH_IMPL, BENCH_LABEL, BENCH_FLAVOUR and BENCH_URCU_HEADER"
#endif
#include BENCH_URCU_HEADER

/*
 * QSBR on a 64-bit machine advances urcu_qsbr_gp.ctr by URCU_QSBR_GP_CTR once per grace period,
 * so grace periods can be counted there. The other flavours flip a phase bit instead and keep
 * no count: their grace periods per update are not measurable from outside.
 */
#if defined(URCU_QSBR_GP_CTR) && CAA_BITS_PER_LONG == 64
#define BENCH_GP_READ() (__atomic_load_n(&urcu_qsbr_gp.ctr, __ATOMIC_RELAXED) / URCU_QSBR_GP_CTR)
#endif

#define BENCH_PTR_QUAL
#include "rcu_body.h"
