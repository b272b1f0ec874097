/* SPDX-License-Identifier: 0BSD */
/*
 * test/compile/cxx_domain_unlock.cpp: the default domain and an SRCU domain locked with the
 * standard's RAII locks, next to a mutex, compiled at -O2 with -Wall -Wextra -Wpedantic -Werror
 * (check.sh group `lang`, checks `cxx-domain-unlock-*`). rcu::rcu_domain::unlock() must not make
 * the optimiser see an out-of-bounds slot once it is inlined (g++ -Warray-bounds).
 */
#include "rcu.h"

#include <mutex>

static std::mutex m;
DEFINE_STATIC_SRCU(s);

void domains(void);
void domains(void)
{
#if __cplusplus >= 201703L
	std::scoped_lock a(m, rcu::rcu_default_domain());
#else
	std::lock_guard<std::mutex> a(m);
	std::lock_guard<rcu::rcu_domain> a2(rcu::rcu_default_domain());
#endif
	rcu::rcu_domain view(s);
	std::lock_guard<rcu::rcu_domain> b(view);
}
