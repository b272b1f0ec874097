/* SPDX-License-Identifier: 0BSD */
/*
 * test/symbols/host_plain.c: a host that does not include rcu.h and loads two plugins that do.
 * argv: plugin-a plugin-b local|global same|separate. With RTLD_GLOBAL the second plugin binds
 * to the first one's state; with RTLD_LOCAL (dlopen's usual mode) each has its own, unless the
 * host links a shared library that includes rcu.h (HOST_OWNER): its state, in the global scope,
 * is the one both plugins bind to.
 */
#include "peer.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static const struct peer_ops *load(const char *path, int mode)
{
	void *h = dlopen(path, RTLD_NOW | mode);
	if (!h) {
		fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
		return NULL;
	}
	const struct peer_ops *ops = dlsym(h, PEER_SYMBOL);
	if (!ops)
		fprintf(stderr, "dlsym: %s\n", dlerror());
	return ops;
}

#if defined(HOST_OWNER)
extern const struct peer_ops rcu_test_peer_ops; /* referenced, so the library stays needed */
#endif

int main(int argc, char **argv)
{
#if defined(HOST_OWNER)
	fprintf(stderr, "the host links the %s, which owns the state\n", rcu_test_peer_ops.who);
#endif
	if (argc < 5) {
		fprintf(stderr, "usage: %s plugin-a plugin-b local|global same|separate\n", argv[0]);
		return 2;
	}
	int mode = strcmp(argv[3], "global") == 0 ? RTLD_GLOBAL : RTLD_LOCAL;
	const struct peer_ops *a = load(argv[1], mode), *b = load(argv[2], mode);
	if (!a || !b)
		return 1;
	return check_pair(a, b, strcmp(argv[4], "same") == 0);
}
