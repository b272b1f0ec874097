/* SPDX-License-Identifier: 0BSD */
/*
 * test/cxx/mixed_host.cpp: a C++ executable (peer_cxx.cpp's table, compiled into it) linked with
 * a C shared library (test/symbols/peer.c): test/symbols/check.c proves that they share one RCU.
 */
#define PEER_CXX_TABLE rcu_test_host_ops
#define PEER_WHO "C++ executable"
#include "peer_cxx.cpp"

extern "C" const struct peer_ops rcu_test_peer_ops; /* the C shared library */

int main()
{
	return check_pair(&rcu_test_host_ops, &rcu_test_peer_ops, true);
}
