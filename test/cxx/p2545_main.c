/* SPDX-License-Identifier: 0BSD */
/*
 * test/cxx/p2545_main.c: registers p2545.cpp's bodies as tests (C, so that Criterion and
 * test/runner.h both run them, as cxx_main.c does), and runs QSBR's death tests: a reader guard
 * or rcu_default_domain().lock() in a thread that is not online aborts with rcu.h's sentence,
 * in release and RCU_DEBUG builds alike. In MEMB, MB and BP the same bodies run to the end.
 */
#include "rcu.h"
#include "../harness.h"

#include "p2545.h"

#if !defined(RCU_FLAVOUR_QSBR)
Test(p2545, guard_unregistered_holds, .timeout = 60) { cxx_p2545_guard_unregistered_holds(); }
Test(p2545, domain_lock_unregistered_holds, .timeout = 60) { cxx_p2545_domain_lock_unregistered_holds(); }
Test(p2545, nested_guards_unregistered, .timeout = 60) { cxx_p2545_nested_guards_unregistered(); }
Test(p2545, retire_waits_for_unregistered, .timeout = 60) { cxx_p2545_retire_waits_for_unregistered(); }
Test(p2545, thread_exit_leaves_registry, .timeout = 60) { cxx_p2545_thread_exit_leaves_registry(); }
Test(p2545, register_after_guard, .timeout = 60) { cxx_p2545_register_after_guard(); }
Test(p2545, readers_never_register, .timeout = 60) { cxx_p2545_readers_never_register(); }

/* The death tests' bodies run to the end here: a child that exits 0. */
static void expect_runs(void (*fn)(void *), const char *what)
{
	char buf[4096];
	int status = test_run_captured(fn, NULL, buf, sizeof buf);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: status %d, said: %s", what, status, buf);
}

Test(p2545, guard_and_lock_in_a_thread_that_never_registers, .timeout = 60)
{
	expect_runs(cxx_p2545_guard_in_new_thread, "a guard");
	expect_runs(cxx_p2545_domain_lock_in_new_thread, "rcu_default_domain().lock()");
}
#else
#define RULE_UNREGISTERED "the thread is not registered: QSBR readers must call rcu_register_thread()"
#define RULE_OFFLINE "the thread is offline: call rcu_thread_online() first"

Test(p2545, qsbr_guard_in_an_unregistered_thread_aborts, .timeout = 60)
{
	test_expect_abort(cxx_p2545_guard_in_new_thread, NULL, "rcu.h: rcu::rcu_read_guard in thread ");
	test_expect_abort(cxx_p2545_guard_in_new_thread, NULL, RULE_UNREGISTERED);
	test_expect_abort(cxx_p2545_guard_in_new_thread, NULL, "needs RCU_FLAVOUR_MEMB, _MB or _BP");
}

Test(p2545, qsbr_domain_lock_in_an_unregistered_thread_aborts, .timeout = 60)
{
	test_expect_abort(cxx_p2545_domain_lock_in_new_thread, NULL, "rcu.h: rcu::rcu_domain::lock() in thread ");
	test_expect_abort(cxx_p2545_domain_lock_in_new_thread, NULL, RULE_UNREGISTERED);
}

Test(p2545, qsbr_guard_in_an_offline_thread_aborts, .timeout = 60)
{
	test_expect_abort(cxx_p2545_guard_offline, NULL, "rcu.h: rcu::rcu_read_guard in thread ");
	test_expect_abort(cxx_p2545_guard_offline, NULL, RULE_OFFLINE);
}

Test(p2545, qsbr_registered_guard_holds, .timeout = 60) { cxx_p2545_qsbr_registered_guard_holds(); }
#endif
