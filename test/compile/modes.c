/* SPDX-License-Identifier: 0BSD */
/*
 * test/compile/modes.c: rcu.h under the user's language mode, feature macros and include order
 * (check.sh's `modes` group), compiled as C and as C++.
 *
 *   MODES_SYSTEM_FIRST   the system headers rcu.h uses are read before rcu.h (the feature macros
 *                        are fixed by the first one, so rcu.h can no longer ask for POSIX);
 *                        otherwise they are read after it.
 *
 * main() takes the paths that reach the C library calls strict modes hide: clock_gettime() (the
 * spin budget), the futex syscall(), sigfillset() and pthread_sigmask() (the callback worker's
 * start), nanosleep() (cleanup_srcu_struct()), readlink() (split-state detection, when
 * RCU_CHECK_STATE is set), so that a run proves the declarations rcu.h makes for them link to
 * the right functions.
 */
#if defined(MODES_SYSTEM_FIRST)
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#endif

#include "rcu.h"

#if !defined(MODES_SYSTEM_FIRST)
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#endif

struct modes_node {
	struct rcu_head rcu;
	int value;
};
static struct modes_node *modes_ptr;
static struct srcu_struct modes_srcu;

static void modes_free(struct rcu_head *head)
{
	free(head);
}

#if defined(__cplusplus)
struct modes_obj : rcu::rcu_obj_base<modes_obj> {
	int value = 3;
};
#endif

int main(void)
{
	rcu_register_thread();
	struct modes_node *n = (struct modes_node *)malloc(sizeof *n);
	if (!n)
		return 1;
	n->value = 1;
	rcu_assign_pointer(modes_ptr, n);
	rcu_read_lock();
	int v = rcu_dereference(modes_ptr)->value;
	rcu_read_unlock();
	synchronize_rcu();
	call_rcu(&rcu_xchg_pointer(&modes_ptr, (struct modes_node *)NULL)->rcu, modes_free);
	rcu_barrier();

	init_srcu_struct(&modes_srcu);
	int idx = srcu_read_lock(&modes_srcu);
	srcu_read_unlock(&modes_srcu, idx);
	synchronize_srcu(&modes_srcu);
	cleanup_srcu_struct(&modes_srcu);
#if defined(__cplusplus)
	{
		rcu::rcu_read_guard g;
		v += 1;
	}
	rcu::rcu_default_domain().lock();
	v += 1;
	rcu::rcu_default_domain().unlock();
	(new modes_obj)->retire();
	rcu::rcu_retire(new int(4));
	rcu::rcu_synchronize();
	rcu::rcu_barrier();
#endif
	rcu_unregister_thread();
	printf("modes: ran (%d)\n", v);
	return 0;
}
