/* SPDX-License-Identifier: 0BSD */
/*
 * test/port/pointers.c: RCU-protected pointers may be declared as the kernel and liburcu declare
 * them (`struct foo *gp`) or as C11 atomics (`struct foo *_Atomic gp`): every pointer macro
 * takes both, returns the same values, evaluates its arguments once, and orders a publication
 * the same way (the race tests: under ThreadSanitizer a wrong order is a reported data race;
 * test/compile's `cxx` group checks the orders in the compilers' output). The same checks run
 * on C++'s kinds in test/cxx/pointers.cpp.
 */
#include "rcu.h"
#include "../harness.h"

#define PB_CHECK(cond) cr_assert(cond)
#define PB_NULL NULL

#define PB_KIND plain
#define PB_PTR(T) T *
#include "pointers_body.h"
#undef PB_KIND
#undef PB_PTR

#define PB_KIND atomic
#define PB_PTR(T) T *_Atomic
#include "pointers_body.h"
#undef PB_KIND
#undef PB_PTR

Test(pointers, plain_values)
{
	plain_run_values();
}

Test(pointers, atomic_values)
{
	atomic_run_values();
}

Test(pointers, plain_publish_race, .timeout = 60)
{
	plain_run_race();
}

Test(pointers, atomic_publish_race, .timeout = 60)
{
	atomic_run_race();
}
