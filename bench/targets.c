/* SPDX-License-Identifier: 0BSD */
/*
 * bench/targets.c: the targets rcu.h is held to (issue #15), checked on the medians of one run.
 *
 * Each target is a ratio of medians, ours over the same flavour of the newest liburcu (or over
 * the unsynchronized floor for the QSBR read side), with a limit. Domains (issue #14) compare
 * ours with ours: a domain's read side against the default domain's MEMB read side measured in
 * the same slices, and the isolation ratio (a grace period with another domain's readers asleep
 * inside their sections, over the same with them asleep between sections). The ratio against the system's
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
	const char *against; /* PRIMARY (same flavour; SECONDARY beside it), "floor", or for the
				domains "ours:METRIC:FLAVOUR" (ours over ours), or "value" (the
				metric is a ratio already) */
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
	/* MEMB and BP: a domain's readers fence as the default domain's do (not at all); MB and QSBR
	 * domain readers fence on entry, which the table shows beside. */
	{ "dom_read_ns", "memb", "ours:dom_read_default_ns:memb", 2.0, true,
		"a domain's read side / the default domain's memb read side" },
	{ "dom_read_ns", "bp", "ours:dom_read_default_ns:memb", 2.0, true,
		"a domain's read side / the default domain's memb read side" },
	{ "iso_dom_ratio", NULL, "value", 1.5, true,
		"a domain's grace period, another domain's readers asleep inside / between their sections" },
	{ "iso_def_ratio", NULL, "value", 1.5, true,
		"the default grace period, a domain's readers asleep inside / between their sections" },
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
	if (!strncmp(d->against, "ours:", 5) || !strcmp(d->against, "value")) {
		const struct result *x = result_find(d->metric, "ours", flavour);
		char base[64] = "", base_flavour[16] = "";
		if (d->against[0] == 'o')
			sscanf(d->against + 5, "%63[^:]:%15s", base, base_flavour);
		const struct result *y = base[0] ? result_find(base, "ours", base_flavour) : NULL;
		snprintf(t->what, sizeof t->what, "%s: %s %s %.2f", flavour, d->what, d->at_most ? "<=" : ">=", d->limit);
		t->flavour = flavour;
		t->limit = d->limit;
		t->at_most = d->at_most;
		t->against = "ours";
		t->ratio = !x ? NAN : base[0] ? (y && y->med != 0 ? x->med / y->med : NAN) : x->med;
		t->ratio_sys = NAN;
		return;
	}
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
