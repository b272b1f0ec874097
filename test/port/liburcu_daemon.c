/* SPDX-License-Identifier: 0BSD */
/*
 * test/port/liburcu_daemon.c: the rest of liburcu's classic API that a long-running service uses
 * around its RCU data, written as liburcu documents it (doc/rcu-api.md, README.md):
 *   - the call_rcu fork handlers installed with pthread_atfork(), as README.md asks of programs
 *     that fork() without exec() (the child here queues callbacks and waits for them);
 *   - defer_rcu() from a thread registered with rcu_defer_register_thread(), whose int result a
 *     careful program checks, and rcu_defer_barrier();
 *   - call_rcu workers of its own (create_call_rcu_data(), set_thread_call_rcu_data(),
 *     create_all_cpu_call_rcu_data()), used where they can be created and reported as they are.
 * (liburcu_poll.c has the polled grace periods.)
 *
 * Unchanged liburcu code: the port is the build's -I compat/liburcu (test/port/meson.build), and
 * the same file is built against liburcu as the control.
 * Valid C and C++; exits 0 when every check passes.
 */
#if defined(RCU_FLAVOUR_QSBR)
#include <urcu-qsbr.h>
#elif defined(RCU_FLAVOUR_BP)
#include <urcu-bp.h>
#elif defined(RCU_FLAVOUR_MB)
#define RCU_MB
#include <urcu.h>
#else
#include <urcu.h>
#endif
#include <urcu/compiler.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "port_check.h"

struct zone {
	int serial;
	struct rcu_head rcu_head;
};

static struct zone *active_zone; /* RCU-protected */
static int zones_freed, deferred_runs;

static void zone_free_rcu(struct rcu_head *head)
{
	free(caa_container_of(head, struct zone, rcu_head));
	__atomic_fetch_add(&zones_freed, 1, __ATOMIC_RELAXED);
}

/* The thread a callback ran on: a worker that exists runs its callbacks on a thread of its own. */
struct marker {
	pthread_t ran_on;
	int ran;
	struct rcu_head rcu_head;
};

static void mark_thread(struct rcu_head *head)
{
	struct marker *m = caa_container_of(head, struct marker, rcu_head);
	m->ran_on = pthread_self();
	__atomic_store_n(&m->ran, 1, __ATOMIC_RELEASE);
}

static void deferred(void *p)
{
	free(p);
	__atomic_fetch_add(&deferred_runs, 1, __ATOMIC_RELAXED);
}

static void zone_publish(int serial)
{
	struct zone *z = (struct zone *)malloc(sizeof(*z));
	CHECK(z != NULL);
	z->serial = serial;
	struct zone *old = rcu_xchg_pointer(&active_zone, z);
	if (old)
		call_rcu(&old->rcu_head, zone_free_rcu);
}

int main(void)
{
	CHECK(pthread_atfork(call_rcu_before_fork, call_rcu_after_fork_parent, call_rcu_after_fork_child) == 0);

	/* Callbacks, then a fork: the child queues its own and waits for them. The parent's are done
	 * before the fork (rcu_barrier()): a worker inside free() at the fork would leave the child
	 * a locked allocator under ASan and TSan, whose allocators have no fork handlers. */
	rcu_register_thread();
	zone_publish(1);
	zone_publish(2);
	rcu_barrier();
	CHECK(__atomic_load_n(&zones_freed, __ATOMIC_RELAXED) == 1); /* zone 1 */
	rcu_unregister_thread(); /* liburcu: no registered reader across fork() (README.md) */
	fflush(NULL);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		rcu_register_thread();
		zone_publish(3);
		rcu_barrier();
		rcu_read_lock();
		int serial = rcu_dereference(active_zone)->serial;
		rcu_read_unlock();
		rcu_unregister_thread();
		_exit(serial == 3 && __atomic_load_n(&zones_freed, __ATOMIC_RELAXED) == 2 ? 0 : 1);
	}
	int status = 0;
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	rcu_register_thread();
	rcu_barrier();
	CHECK(__atomic_load_n(&zones_freed, __ATOMIC_RELAXED) == 1); /* the child's are its own */

	/* defer_rcu() from a registered thread. */
	if (rcu_defer_register_thread() != 0) {
		fprintf(stderr, "rcu_defer_register_thread() failed\n");
		return 1;
	}
	for (int i = 0; i < 100; i++)
		defer_rcu(deferred, malloc(16));
	rcu_defer_barrier();
	CHECK(__atomic_load_n(&deferred_runs, __ATOMIC_RELAXED) == 100);
	rcu_defer_unregister_thread();

	/* Callback workers (urcu/call-rcu.h), as rcutorture uses them: a worker of this thread's own
	 * where the library can create one, the default worker where it cannot (then NULL and errno
	 * ENOTSUP); the program says which, and its callbacks run either way. */
	struct marker on_default, on_own;
	on_default.ran = on_own.ran = 0;
	call_rcu(&on_default.rcu_head, mark_thread);
	rcu_barrier();
	CHECK(__atomic_load_n(&on_default.ran, __ATOMIC_ACQUIRE));
	struct call_rcu_data *crdp = create_call_rcu_data(0, -1);
	if (crdp) {
		set_thread_call_rcu_data(crdp);
		CHECK(get_thread_call_rcu_data() == crdp && get_call_rcu_data() == crdp);
	} else {
		CHECK(errno == ENOTSUP);
		set_thread_call_rcu_data(NULL);
		CHECK(get_thread_call_rcu_data() == NULL && get_call_rcu_data() == get_default_call_rcu_data());
	}
	CHECK(get_default_call_rcu_data() != NULL && get_default_call_rcu_data() == get_default_call_rcu_data());
	int before = __atomic_load_n(&zones_freed, __ATOMIC_RELAXED);
	zone_publish(4);
	zone_publish(5);
	rcu_barrier();
	CHECK(__atomic_load_n(&zones_freed, __ATOMIC_RELAXED) == before + 2); /* zones 2 and 4 */
	call_rcu(&on_own.rcu_head, mark_thread);
	rcu_barrier();
	CHECK(__atomic_load_n(&on_own.ran, __ATOMIC_ACQUIRE));
	/* A worker reported as created is another thread than the default worker. */
	CHECK(!crdp || !pthread_equal(on_own.ran_on, on_default.ran_on));
	if (crdp) {
		set_thread_call_rcu_data(NULL);
		synchronize_rcu();
		call_rcu_data_free(crdp);
	}
	int per_cpu = create_all_cpu_call_rcu_data(0) == 0;
	if (per_cpu) {
		CHECK(get_cpu_call_rcu_data(0) != NULL);
		free_all_cpu_call_rcu_data();
	} else {
		CHECK(get_cpu_call_rcu_data(0) == NULL);
	}
	printf("liburcu_daemon: call_rcu workers: per-thread %s, per-CPU %s\n", crdp ? "created" : "unavailable",
	       per_cpu ? "created" : "unavailable");

	struct zone *last = rcu_xchg_pointer(&active_zone, NULL);
	synchronize_rcu();
	free(last);

	rcu_unregister_thread();
	printf("liburcu_daemon: fork handlers and defer_rcu work\n");
	return 0;
}
