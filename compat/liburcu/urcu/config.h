/* SPDX-License-Identifier: 0BSD */
/*
 * <urcu/config.h> of the compat folder: what liburcu's configure step records, as it is here.
 * rcu.h has no configure step; these say what the compat headers do.
 */
#ifndef RCU__COMPAT_URCU_CONFIG_H
#define RCU__COMPAT_URCU_CONFIG_H

#define CONFIG_RCU_SMP 1                 /* barriers are real: multiprocessor memory ordering */
#define CONFIG_RCU_TLS 1                 /* DEFINE_URCU_TLS() is compiler TLS (__thread) */
#define CONFIG_RCU_USE_ATOMIC_BUILTINS 1 /* uatomic_* are GCC's __atomic builtins */
#define CONFIG_RCU_HAVE_FUTEX 1          /* futex_async() (a yield loop where there is no futex) */

#endif /* RCU__COMPAT_URCU_CONFIG_H */
