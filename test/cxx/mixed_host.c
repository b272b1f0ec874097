/* SPDX-License-Identifier: 0BSD */
/*
 * test/cxx/mixed_host.c: one program of three parts that include rcu.h: this C executable, a C++
 * translation unit linked into it (peer_cxx.cpp as rcu_test_cxx_ops) and a C++ shared library
 * (peer_cxx.cpp as rcu_test_peer_ops). test/symbols/check.c proves that each pair shares one RCU:
 * one state, one reader record per thread, sections opened in one part and closed in the other,
 * grace periods of one part waiting for readers of the other, one callback queue and barrier.
 * check_pair() counts callbacks from a fresh process, so each pair runs in a child of its own.
 */
#include "rcu.h"

#include <sys/wait.h>

#define PEER_WHO "C executable"
#define PEER_TABLE static const struct peer_ops self_ops
#include "../symbols/peer_impl.h"

extern const struct peer_ops rcu_test_cxx_ops;  /* the C++ translation unit */
extern const struct peer_ops rcu_test_peer_ops; /* the C++ shared library */

static int in_child(const struct peer_ops *a, const struct peer_ops *b)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0)
		_exit(check_pair(a, b, true));
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

int main(void)
{
	int bad = in_child(&self_ops, &rcu_test_cxx_ops);
	bad |= in_child(&rcu_test_cxx_ops, &rcu_test_peer_ops);
	bad |= in_child(&rcu_test_peer_ops, &self_ops);
	return bad;
}
