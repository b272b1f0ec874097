/* SPDX-License-Identifier: 0BSD */
/*
 * test/symbols/main_linked.c: an executable that includes rcu.h and is linked at build time with
 * the peer (a second translation unit, a static or a shared library). argv[1]: "same" (default)
 * or "separate", what the build shape is expected to give.
 */
#include "rcu.h"

#include <string.h>

#define PEER_WHO "executable"
#define PEER_TABLE static const struct peer_ops self_ops
#include "peer_impl.h"

extern const struct peer_ops rcu_test_peer_ops;

int main(int argc, char **argv)
{
	bool same = argc < 2 || strcmp(argv[1], "separate") != 0;
	return check_pair(&self_ops, &rcu_test_peer_ops, same);
}
