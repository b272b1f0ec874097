/* SPDX-License-Identifier: 0BSD */
/*
 * test/compile/deref_debug.c: rcu_dereference() under RCU_DEBUG + RCU_DEBUG_DEREFERENCE (a per
 * translation unit setting, hence its own program). argv[1] "inside": a dereference inside a
 * section and rcu_dereference_protected() outside, which must run and exit 0; "outside": a
 * dereference outside any section, which must abort naming rcu_dereference() (check.sh checks).
 */
#include "rcu.h"

#include <stdio.h>
#include <string.h>

static int target = 42;
static int *_Atomic shared = RCU_INITIALIZER(&target);

int main(int argc, char **argv)
{
	int *p;
	rcu_register_thread();
	if (argc > 1 && strcmp(argv[1], "inside") == 0) {
		rcu_read_lock();
		p = rcu_dereference(shared);
		rcu_read_unlock();
		int *q = rcu_dereference_protected(shared, 1);
		rcu_unregister_thread();
		return !(p == &target && q == &target && *p == 42);
	}
	rcu_thread_offline(); /* QSBR: an online thread is inside a section; elsewhere a no-op */
	p = rcu_dereference(shared);
	printf("not caught: %d\n", *p);
	return 0;
}
