/* SPDX-License-Identifier: 0BSD */
/*
 * <urcu/arch.h> of the compat folder: liburcu's memory barriers, cache-line size, spin hint and
 * cycle counter, on GCC and Clang builtins. Needs no flavour and does not include rcu.h.
 */
#ifndef RCU__COMPAT_URCU_ARCH_H
#define RCU__COMPAT_URCU_ARCH_H

#include "compiler.h"
#include <stdint.h>
#include <time.h>

/* The architecture, by liburcu's names. */
#if defined(__x86_64__)
#define URCU_ARCH_X86 1
#define URCU_ARCH_AMD64 1
#elif defined(__i386__)
#define URCU_ARCH_X86 1
#elif defined(__aarch64__)
#define URCU_ARCH_AARCH64 1
#elif defined(__arm__)
#define URCU_ARCH_ARM 1
#elif defined(__powerpc64__)
#define URCU_ARCH_PPC 1
#define URCU_ARCH_PPC64 1
#elif defined(__powerpc__)
#define URCU_ARCH_PPC 1
#elif defined(__s390__)
#define URCU_ARCH_S390 1
#elif defined(__riscv)
#define URCU_ARCH_RISCV 1
#elif defined(__loongarch__)
#define URCU_ARCH_LOONGARCH 1
#elif defined(__mips__)
#define URCU_ARCH_MIPS 1
#elif defined(__sparc__) && defined(__arch64__)
#define URCU_ARCH_SPARC64 1
#endif

/* Alignment that keeps hot words of different threads apart (liburcu's values). */
#if defined(__x86_64__) || defined(__i386__) || defined(__s390__)
#define CAA_CACHE_LINE_SIZE 128
#elif defined(__powerpc__)
#define CAA_CACHE_LINE_SIZE 256
#else
#define CAA_CACHE_LINE_SIZE 64
#endif

/* Barriers. The cmm_*mc() ones order against cache coherence on machines without coherent caches;
 * every machine GCC's atomics target is coherent, so they are compiler barriers, as in liburcu. */
#define cmm_mb() RCU__COMPAT_MB()
#define cmm_rmb() RCU__COMPAT_RMB()
#define cmm_wmb() RCU__COMPAT_WMB()
#define cmm_smp_mb() RCU__COMPAT_MB()
#define cmm_smp_rmb() RCU__COMPAT_RMB()
#define cmm_smp_wmb() RCU__COMPAT_WMB()
#define cmm_mc() cmm_barrier()
#define cmm_rmc() cmm_barrier()
#define cmm_wmc() cmm_barrier()
#define cmm_smp_mc() cmm_barrier()
#define cmm_smp_rmc() cmm_barrier()
#define cmm_smp_wmc() cmm_barrier()
#define cmm_read_barrier_depends() ((void)0)
#define cmm_smp_read_barrier_depends() ((void)0)
#define cmm_emit_legacy_smp_mb() ((void)0)
#define caa_cpu_relax() rcu__compat_cpu_relax()

/* A counter that only goes up, for timing loops: the time-stamp counter on x86, the virtual
 * counter on aarch64, nanoseconds of the C11 clock elsewhere. */
typedef uint64_t caa_cycles_t;
#define HAS_CAA_GET_CYCLES 1
static inline caa_cycles_t caa_get_cycles(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return (caa_cycles_t)__builtin_ia32_rdtsc();
#elif defined(__aarch64__)
	uint64_t v;
	__asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
	return (caa_cycles_t)v;
#else
	struct timespec ts;
	if (timespec_get(&ts, TIME_UTC) != TIME_UTC)
		return 0;
	return (caa_cycles_t)ts.tv_sec * 1000000000u + (caa_cycles_t)ts.tv_nsec;
#endif
}

#endif /* RCU__COMPAT_URCU_ARCH_H */
