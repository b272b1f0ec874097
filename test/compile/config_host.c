/* SPDX-License-Identifier: 0BSD */
/*
 * test/compile/config_host.c: a host that includes rcu.h, linked with -rdynamic (so that a plugin
 * shares its RCU state), and dlopen()s argv[1], config_unit.c built as a plugin. A plugin whose
 * per-program settings differ from the host's must stop the program inside dlopen(): "dlopen()
 * returned" must not be printed.
 */
#include "config.h"

#include <dlfcn.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	rcu_register_thread();
	rcu_unregister_thread();
	fprintf(stderr, "config: host started, dlopen() of the plugin\n");
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "config: dlopen %s: %s\n", argv[1], dlerror());
		return 1;
	}
	fprintf(stderr, "config: dlopen() returned\n");
	int (*run)(void);
	const void *(*state)(void);
	*(void **)&run = dlsym(h, "cfg_run_unit"); /* POSIX's way around ISO C's object/function split */
	*(void **)&state = dlsym(h, "cfg_state_unit");
	if (!run || !state)
		return 1;
	if (state() != (const void *)&RCU__SYM(state)) {
		fprintf(stderr, "config: the host and the plugin use two states\n");
		return 2;
	}
	return run();
}
