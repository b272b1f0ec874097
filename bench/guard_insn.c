/* SPDX-License-Identifier: 0BSD */
/*
 * bench/guard_insn.c: the loops bench/guard_insn.sh counts with callgrind. Built as C (the
 * plain rcu_read_lock() section) and as C++ (the same section, rcu::rcu_read_guard, and
 * rcu_default_domain().lock()/unlock()). Each loop runs N sections of the default domain:
 * lock, a load through an RCU-protected pointer, unlock, as bench/callgrind.sh's read loop.
 *
 *   guard_insn c|guard|domain N [register]
 *
 * `register`: the thread calls rcu_register_thread() first (a C reader must, outside BP; a
 * C++ guard in MEMB, MB and BP need not).
 */
#include "rcu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct guard_node {
	long value;
};
static struct guard_node guard_one = { 1 };
static struct guard_node *guard_ptr = &guard_one;

#if defined(__cplusplus)
extern "C" {
#endif
__attribute__((noinline)) long guard_loop_c(long n);
#if defined(__cplusplus)
}
#endif

__attribute__((noinline)) long guard_loop_c(long n)
{
	long sum = 0;
	for (long i = 0; i < n; i++) {
		rcu_read_lock();
		sum += rcu_dereference(guard_ptr)->value;
		rcu_read_unlock();
	}
	return sum;
}

#if defined(__cplusplus)
__attribute__((noinline)) long guard_loop_guard(long n)
{
	long sum = 0;
	for (long i = 0; i < n; i++) {
		rcu::rcu_read_guard g;
		sum += rcu_dereference(guard_ptr)->value;
	}
	return sum;
}

__attribute__((noinline)) long guard_loop_domain(long n)
{
	rcu::rcu_domain &d = rcu::rcu_default_domain();
	long sum = 0;
	for (long i = 0; i < n; i++) {
		d.lock();
		sum += rcu_dereference(guard_ptr)->value;
		d.unlock();
	}
	return sum;
}
#endif

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	long n = atol(argv[2]);
	if (argc > 3 && strcmp(argv[3], "register") == 0)
		rcu_register_thread();
	long sum = -1;
	if (strcmp(argv[1], "c") == 0) {
		guard_loop_c(1); /* warm-up: BP registers, the C++ layer adopts, outside the count */
		sum = guard_loop_c(n);
	}
#if defined(__cplusplus)
	else if (strcmp(argv[1], "guard") == 0) {
		guard_loop_guard(1);
		sum = guard_loop_guard(n);
	} else if (strcmp(argv[1], "domain") == 0) {
		guard_loop_domain(1);
		sum = guard_loop_domain(n);
	}
#endif
	printf("%ld\n", sum);
	return sum == n ? 0 : 1;
}
