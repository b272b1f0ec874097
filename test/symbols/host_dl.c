/* SPDX-License-Identifier: 0BSD */
/*
 * test/symbols/host_dl.c: a host that includes rcu.h and loads a plugin that includes it too.
 * argv[1]: the plugin; argv[2]: "same" or "separate", what the build shape is expected to give
 * (a host built with export_dynamic shares its state; one that does not export it cannot).
 */
#include "rcu.h"

#include <dlfcn.h>
#include <string.h>

#define PEER_WHO "host"
#define PEER_TABLE static const struct peer_ops self_ops
#include "peer_impl.h"

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s plugin.so same|separate\n", argv[0]);
		return 2;
	}
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "dlopen %s: %s\n", argv[1], dlerror());
		return 1;
	}
	const struct peer_ops *plugin = dlsym(h, PEER_SYMBOL);
	if (!plugin) {
		fprintf(stderr, "dlsym: %s\n", dlerror());
		return 1;
	}
	return check_pair(&self_ops, plugin, strcmp(argv[2], "same") == 0);
}
