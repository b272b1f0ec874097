/* SPDX-License-Identifier: 0BSD */
/* test/cxx/p2545.h: the test bodies of p2545.cpp, for the C driver p2545_main.c. */
#ifndef RCU_TEST_P2545_H
#define RCU_TEST_P2545_H

#ifdef __cplusplus
extern "C" {
#endif
#if !defined(RCU_FLAVOUR_QSBR)
void cxx_p2545_guard_unregistered_holds(void);
void cxx_p2545_domain_lock_unregistered_holds(void);
void cxx_p2545_nested_guards_unregistered(void);
void cxx_p2545_retire_waits_for_unregistered(void);
void cxx_p2545_thread_exit_leaves_registry(void);
void cxx_p2545_register_after_guard(void);
void cxx_p2545_readers_never_register(void);
#else
void cxx_p2545_qsbr_registered_guard_holds(void);
#endif
/* In a new thread that never registers: an rcu::rcu_read_guard; rcu_default_domain().lock(). */
void cxx_p2545_guard_in_new_thread(void *arg);
void cxx_p2545_domain_lock_in_new_thread(void *arg);
/* In a new thread that registers and goes offline (QSBR): a guard. */
void cxx_p2545_guard_offline(void *arg);
#ifdef __cplusplus
}
#endif

#endif /* RCU_TEST_P2545_H */
