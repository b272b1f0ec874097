/* SPDX-License-Identifier: 0BSD */
/*
 * test/compile/const_init.cpp: a C++ translation unit that includes rcu.h and uses its C++ layer
 * (the default domain, the guards). check.sh group `lang`, checks `const-init-*`: its object
 * must hold no dynamic initialiser (no _GLOBAL__sub_I_ function) and no guarded static (no
 * reference to __cxa_guard_acquire): rcu.h's process state and rcu_default_domain() are
 * constant-initialised, so C and C++ units that run before main() (constructors of other units,
 * other shared objects) find them ready, as in C. CONST_INIT_CONTROL adds a dynamic initialiser
 * of the test's own, which the check must then find.
 */
#include "rcu.h"

#if defined(CONST_INIT_CONTROL)
#include <cstdlib>
static int dynamic_value = std::rand();
int read_dynamic(void);
int read_dynamic(void)
{
	return dynamic_value;
}
#endif

bool use_layer(void);
bool use_layer(void)
{
	rcu::rcu_read_guard g;
	rcu::rcu_domain &d = rcu::rcu_default_domain();
	return d.srcu() == nullptr && rcu_read_ongoing();
}
