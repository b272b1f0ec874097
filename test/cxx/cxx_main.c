/* SPDX-License-Identifier: 0BSD */
/*
 * test/cxx/cxx_main.c: registers the C++ test bodies (api.cpp, pointers.cpp) as tests. C, so that
 * the same tests run under Criterion and under test/runner.h (the ThreadSanitizer build), which
 * is C; a body fails by aborting (cxx_check.h). The program is itself C and C++ translation units
 * of one process using one RCU.
 */
#include "rcu.h"
#include "../harness.h"

#include "cxx_check.h"

Test(cxx, guard_holds_grace_periods, .timeout = 60) { cxx_guard_holds_grace_periods(); }
Test(cxx, guard_nests_and_unwinds, .timeout = 60) { cxx_guard_nests_and_unwinds(); }
Test(cxx, domain_is_lockable, .timeout = 60) { cxx_domain_is_lockable(); }
Test(cxx, domain_with_a_mutex, .timeout = 60) { cxx_domain_with_a_mutex(); }
Test(cxx, srcu_guard_and_domain, .timeout = 60) { cxx_srcu_guard_and_domain(); }
Test(cxx, srcu_view, .timeout = 60) { cxx_srcu_view(); }
Test(cxx, obj_base_retire, .timeout = 60) { cxx_obj_base_retire(); }
Test(cxx, obj_base_retire_srcu, .timeout = 60) { cxx_obj_base_retire_srcu(); }
Test(cxx, rcu_retire, .timeout = 60) { cxx_rcu_retire(); }
Test(cxx, callbacks_and_barrier, .timeout = 60) { cxx_callbacks_and_barrier(); }
Test(cxx, default_domain, .timeout = 60) { cxx_default_domain(); }
Test(cxx, pointers_plain_values, .timeout = 60) { cxx_pointers_plain_values(); }
Test(cxx, pointers_plain_race, .timeout = 60) { cxx_pointers_plain_race(); }
Test(cxx, pointers_std_atomic_values, .timeout = 60) { cxx_pointers_std_atomic_values(); }
Test(cxx, pointers_std_atomic_race, .timeout = 60) { cxx_pointers_std_atomic_race(); }
Test(cxx, pointers_c23_atomic_values, .timeout = 60) { cxx_pointers_c23_atomic_values(); }
Test(cxx, pointers_c23_atomic_race, .timeout = 60) { cxx_pointers_c23_atomic_race(); }
Test(cxx, pointers_conversions, .timeout = 60) { cxx_pointers_conversions(); }
