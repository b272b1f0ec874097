/* SPDX-License-Identifier: 0BSD */
/*
 * bench/options.c: the run's settings, which every part of the driver reads: the options and the
 * flavour list. main (rcu-bench.c) fills them before the first section runs.
 *
 * They live here and not in rcu-bench.c so that the parts read them from a file that calls none
 * of them instead of reaching back into main: the driver's files form no cycle (the order is in
 * bench/driver.h).
 */
#include "driver.h"

#include <string.h>

/* bench/meson.build passes the flavour list of rcu_flavours/meson.build. */
#ifndef BENCH_FLAVOURS
#error "bench/options.c: bench/meson.build defines BENCH_FLAVOURS, the flavour list"
#endif

struct options opt;
const char *const *flavour_names;
int nflavours;

bool in_list(const char *list, const char *name)
{
	size_t len = strlen(name);
	for (const char *s = list; *s;) {
		const char *e = strchr(s, ',');
		size_t l = e ? (size_t)(e - s) : strlen(s);
		if (l == len && strncmp(s, name, len) == 0)
			return true;
		s += l + (e ? 1 : 0);
	}
	return false;
}

void flavours_parse(void)
{
	static char list[] = BENCH_FLAVOURS;
	static const char *names[64];
	for (char *save = NULL, *f = strtok_r(list, ",", &save); f && nflavours < 64; f = strtok_r(NULL, ",", &save))
		names[nflavours++] = f;
	flavour_names = names;
}
