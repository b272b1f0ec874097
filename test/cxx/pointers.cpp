/* SPDX-License-Identifier: 0BSD */
/*
 * test/cxx/pointers.cpp: test/port/pointers_body.h's checks of every pointer macro, on the kinds
 * of RCU-protected pointer a C++ program declares: plain `T *` (the kernel's and liburcu's
 * declaration), `std::atomic<T *>`, and C++23's `_Atomic(T *)` from <stdatomic.h>. Also the
 * conversions a C++ program relies on: a derived-class pointer published through a base-class
 * pointer, a pointer to const, nullptr.
 *
 * The body publishes nullptr, not NULL: `rcu_assign_pointer(p, NULL)` does not compile in C++
 * with this rcu.h (NULL reaches the overloads as a `long`); the compile group `cxx` checks that
 * spelling (check cxx-null-*) and test/port's programs use it as ported code does.
 */
#include "rcu.h"

#include <cstdlib>
#include <pthread.h>
#include <sched.h>
#if __cplusplus > 202002L && defined(__has_include)
#if __has_include(<stdatomic.h>)
#include <stdatomic.h>
#define CXX_HAVE_C23_ATOMIC 1
#endif
#endif

#include "cxx_check.h"

#define PB_CHECK(cond) CXX_CHECK(cond)
#define PB_NULL nullptr

#define PB_KIND plain
#define PB_PTR(T) T *
#include "../port/pointers_body.h"
#undef PB_KIND
#undef PB_PTR

#define PB_KIND std_atomic
#define PB_PTR(T) std::atomic<T *>
#include "../port/pointers_body.h"
#undef PB_KIND
#undef PB_PTR

#if defined(CXX_HAVE_C23_ATOMIC)
#define PB_KIND c23_atomic
#define PB_PTR(T) _Atomic(T *)
#include "../port/pointers_body.h"
#undef PB_KIND
#undef PB_PTR
#endif

void cxx_pointers_plain_values(void) { plain_run_values(); }
void cxx_pointers_plain_race(void) { plain_run_race(); }
void cxx_pointers_std_atomic_values(void) { std_atomic_run_values(); }
void cxx_pointers_std_atomic_race(void) { std_atomic_run_race(); }
#if defined(CXX_HAVE_C23_ATOMIC)
void cxx_pointers_c23_atomic_values(void) { c23_atomic_run_values(); }
void cxx_pointers_c23_atomic_race(void) { c23_atomic_run_race(); }
#else
void cxx_pointers_c23_atomic_values(void) {}
void cxx_pointers_c23_atomic_race(void) {}
#endif

namespace {
struct base {
	int b;
};
struct derived : base {
	int d;
};
base *plain_base;
std::atomic<base *> atomic_base;
const derived *plain_const;
} /* namespace */

void cxx_pointers_conversions(void)
{
	static derived obj;
	obj.b = 1;
	obj.d = 2;
	rcu_register_thread();
	rcu_assign_pointer(plain_base, &obj); /* derived * -> base * */
	rcu_assign_pointer(atomic_base, &obj);
	rcu_init_pointer(plain_const, &obj);  /* T * -> const T * */
	{
		rcu::rcu_read_guard g;
		base *p = rcu_dereference(plain_base);
		base *q = rcu_dereference(atomic_base);
		const derived *c = rcu_dereference(plain_const);
		CXX_CHECK(p == &obj && q == &obj && c == &obj && p->b == 1 && c->d == 2);
	}
	base *old = rcu_xchg_pointer(&plain_base, nullptr);
	CXX_CHECK(old == &obj && rcu_access_pointer(plain_base) == nullptr);
	old = rcu_cmpxchg_pointer(&atomic_base, &obj, nullptr);
	CXX_CHECK(old == &obj && rcu_access_pointer(atomic_base) == nullptr);
	old = rcu_replace_pointer(atomic_base, &obj, true);
	CXX_CHECK(old == nullptr && rcu_access_pointer(atomic_base) == &obj);
	rcu_unregister_thread();
}
