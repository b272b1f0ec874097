/* SPDX-License-Identifier: 0BSD */
/*
 * test/compile/cxx_null.cpp: the null pointer constants C++ code publishes and compares with, in
 * every pointer macro: NULL (what ported C and kernel code writes), 0 and nullptr, into a plain
 * `T *` and a `std::atomic<T *>`, as in `rcu_assign_pointer(gp, NULL)` or
 * `old = rcu_xchg_pointer(&gp, NULL)`. check.sh group `lang`, checks `cxx-null-*`: must compile
 * with -Wall -Wextra -Wpedantic -Werror (-Wno-zero-as-null-pointer-constant is not asked for:
 * it is not in -Wall or -Wextra).
 */
#include "rcu.h"

struct foo {
	int a;
};
static struct foo *gp;
static std::atomic<struct foo *> ga;

#define NULLS(P) \
	do { \
		struct foo *o; \
		rcu_assign_pointer(P, NULL); \
		rcu_assign_pointer(P, 0); \
		rcu_assign_pointer(P, nullptr); \
		rcu_init_pointer(P, NULL); \
		RCU_INIT_POINTER(P, NULL); \
		rcu_set_pointer(&(P), NULL); \
		o = rcu_xchg_pointer(&(P), NULL); \
		o = rcu_cmpxchg_pointer(&(P), NULL, o); \
		o = rcu_cmpxchg_pointer(&(P), o, NULL); \
		o = rcu_replace_pointer(P, NULL, true); \
		(void)o; \
	} while (0)

void cxx_null(void);
void cxx_null(void)
{
	NULLS(gp);
	NULLS(ga);
}
