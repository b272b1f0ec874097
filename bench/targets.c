/* SPDX-License-Identifier: 0BSD */
/*
 * bench/targets.c: the targets rcu.h is held to (issue #15), checked on the medians of one run.
 *
 * Each target is a ratio of medians, ours over the same flavour of the newest liburcu (or over
 * the unsynchronized floor for the QSBR read side), with a limit. The ratio against the system's
 * liburcu (0.13 on Debian 12) is printed beside it, for comparison with older figures. A target
 * whose figures are missing (the newest liburcu absent, a section not run) says "not measured".
 * The metric names are those bench/sections.c records.
 */
#include "driver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PRIMARY "liburcu-new"
#define SECONDARY "liburcu-sys"

struct target_def {
	const char *metric;
	const char *flavour; /* NULL: every flavour of the list */
	const char *against; /* PRIMARY (same flavour; SECONDARY beside it) or "floor" */
	double limit;
	bool at_most;
	const char *what;
};

static const struct target_def defs[] = {
	{ "upd_r1_u1_ups", NULL, PRIMARY, 1.0, false, "grace periods/s, 1 updater + 1 reader" },
	{ "upd_r2_u1_ups", NULL, PRIMARY, 1.0, false, "grace periods/s, 1 updater + 2 readers" },
	{ "upd_r1_u2_ups", NULL, PRIMARY, 1.0, false, "updates/s, 2 concurrent updaters + 1 reader" },
	{ "upd_r1_u4_ups", NULL, PRIMARY, 1.0, false, "updates/s, 4 concurrent updaters + 1 reader" },
	{ "cb_total", NULL, PRIMARY, 0.5, true, "call_rcu + rcu_barrier, per callback" },
	{ "sync_idle", NULL, PRIMARY, 1.0, true, "synchronize_rcu(), no readers" },
	{ "read_ns", "memb", PRIMARY, 0.6, true, "read side" },
	{ "read_ns", "bp", PRIMARY, 0.6, true, "read side" },
	{ "read_ns", "mb", PRIMARY, 0.3, true, "read side" },
	{ "read_ns", "qsbr", "floor", 1.05, true, "read side / the unsynchronized floor" },
	{ "read_so_ns", "memb", PRIMARY, 0.6, true, "read side in a -fPIC shared object" },
	{ "read_so_ns", "bp", PRIMARY, 0.6, true, "read side in a -fPIC shared object" },
	{ "read_so_ns", "mb", PRIMARY, 0.3, true, "read side in a -fPIC shared object" },
	{ "read_so_ns", "qsbr", "floor", 1.05, true, "read side in a -fPIC shared object / its floor" },
};

struct target *targets;
int ntargets;

static double ratio_of(const char *metric, const char *flavour, const char *name, const char *peer_flavour)
{
	const struct result *x = result_find(metric, "ours", flavour);
	const struct result *y = result_find(metric, name, peer_flavour);
	return x && y && y->med != 0 ? x->med / y->med : NAN;
}

static void add(const struct target_def *d, const char *flavour)
{
	targets = xrealloc(targets, (size_t)(ntargets + 1) * sizeof *targets);
	struct target *t = &targets[ntargets++];
	bool floor = !strcmp(d->against, "floor");
	snprintf(t->what, sizeof t->what, "%s: %s, ours/%s %s %.2f", flavour, d->what,
		floor ? "floor" : "liburcu new", d->at_most ? "<=" : ">=", d->limit);
	t->flavour = flavour;
	t->limit = d->limit;
	t->at_most = d->at_most;
	t->against = d->against;
	t->ratio = floor ? ratio_of(d->metric, flavour, "floor", "") : ratio_of(d->metric, flavour, PRIMARY, flavour);
	t->ratio_sys = floor ? NAN : ratio_of(d->metric, flavour, SECONDARY, flavour);
}

void targets_evaluate(void)
{
	for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
		for (int f = 0; f < nflavours; f++)
			if (!defs[i].flavour || !strcmp(defs[i].flavour, flavour_names[f]))
				add(&defs[i], flavour_names[f]);
}

bool target_known(double ratio)
{
	return !isnan(ratio);
}

bool target_met(const struct target *t, double ratio)
{
	return target_known(ratio) && (t->at_most ? ratio <= t->limit : ratio >= t->limit);
}
