/* SPDX-License-Identifier: 0BSD */
/*
 * test/cxx/static_domain.cpp: an SRCU domain object with static storage duration, as C++
 * programs declare their domains (a global, or a function-local static), that has had callbacks:
 * its destructor retires the domain at exit, after rcu.h's own exit handler has parked the
 * workers. The program must still exit (SIGALRM after 10 s fails it). argv[1]: "global" or
 * "local" (a function-local static, constructed on first use).
 */
#include "rcu.h"

#include <cstring>
#include <unistd.h>

namespace {

rcu::srcu_domain global_domain("global domain");

rcu::srcu_domain &local_domain()
{
	static rcu::srcu_domain d("function-local domain");
	return d;
}

struct object : rcu::rcu_obj_base<object> {
	int value = 1;
};

} /* namespace */

int main(int argc, char **argv)
{
	alarm(10);
	bool local = argc > 1 && std::strcmp(argv[1], "local") == 0;
	rcu::srcu_domain &dom = local ? local_domain() : global_domain;
	(new object)->retire(std::default_delete<object>(), dom);
	rcu::rcu_barrier(dom);
	return 0; /* the destructor runs now, during exit */
}
