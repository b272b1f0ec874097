/* SPDX-License-Identifier: 0BSD */
/*
 * bench/driver.h: what the parts of the driver (the executable rcu-bench) share.
 *
 *   rcu-bench.c   main: the command line, finding the servers, the order of the sections, the outputs
 *   report.c      results -> tables (text, Markdown), CSV, JSON, the README's table
 *   targets.c     the targets of the issues, as ratios of medians (against both liburcu versions;
 *                 a domain's against the default domain)
 *   sections.c    each section's runs: which measurement, which implementations, how many runs,
 *                 interleaved round robin; every run's figure goes into a series
 *   child.c       starting server processes and asking them for one run (bench/figures.h)
 *   results.c     series of runs -> results (median, min, max), looked up by metric and peer;
 *                 the allocation helpers
 *   options.c     the options (main fills them) and the flavour list, which every part reads
 *
 * A file calls only files below it in this list, never one above: the parts form no cycle, so
 * that each can be read, changed and tested knowing only what is below it. A part that needs a
 * setting of main's reads it from options.c, not from rcu-bench.c. The test bench-driver-units
 * (bench/check_units.py) fails on a cycle.
 *
 * The measurements themselves run in the servers (bench/measure.c, bench/server.c).
 */
#ifndef RCU_BENCH_DRIVER_H
#define RCU_BENCH_DRIVER_H

#include "figures.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ------------------------------------------------------------------ options (options.c) */

struct options {
	int runs;
	double window_ms;
	size_t callbacks;
	int rss_runs;
	const char *only;        /* --only: sections to run */
	const char *impl_filter; /* --impl: implementation ids to measure */
	char out[PATH_MAX];
	bool quick;
	bool pin;
	int cpus;
	int readers;      /* readers beside one synchronize caller in the older tables: cpus - 1 */
	int max_threads;  /* reader scaling goes up to this many threads */
	char command[1024];
};
extern struct options opt; /* filled by main (rcu-bench.c) from the command line */

bool in_list(const char *list, const char *name); /* name is an item of "a,b,c" */

/* The flavour list of rcu_flavours/meson.build, in its order (bench/meson.build passes it). */
extern const char *const *flavour_names;
extern int nflavours;
void flavours_parse(void); /* fills flavour_names and nflavours */

/* ------------------------------------------------------------------ groups and servers (child.c) */

enum impl_kind { KIND_EXE, KIND_SO, KIND_MAP };

/* A server executable and what it holds. */
struct group {
	char name[32];      /* "ours", "others", "liburcu-sys", "liburcu-new" */
	char version[512];  /* what it measures, with versions (its --list) */
	char exe[PATH_MAX + 64];
	bool present;
	char absent[PATH_MAX + 512]; /* why not, when not present */
};

struct child; /* a running server */

/* One implementation, as a server lists it. */
struct impl {
	char id[96];        /* ours-memb, so:liburcu-new-mb, ck_epoch, map:rcu_map-qsbr, ... */
	char name[32];      /* ours, liburcu-new, liburcu-sys, ck_epoch, rwlock, floor, rcu_map, rwlock_map */
	char flavour[16];   /* "" for none */
	enum impl_kind kind;
	unsigned caps;      /* BENCH_* (bench/bench.h) */
	struct group *group;
	struct child *child; /* its long-lived server, once started */
};

extern struct group **groups;
extern int ngroups;
extern struct impl *impls;
extern int nimpls;

/* Find the server executables beside rcu-bench and ask each for its list. */
void groups_discover(void);
struct group *group_find(const char *name);

/*
 * Ask impl's server for one run of a measurement: cmd is "measurement key=value ...". fresh: in a
 * new process of its own (peak RSS), else in the implementation's long-lived server. Returns
 * false when the server answered "na" or failed (a failure is reported on stderr).
 */
bool child_ask(struct impl *im, const char *cmd, bool fresh, struct figures *out);
void children_stop(void);
int child_failures(void); /* answers that were failures (not "na") so far */

/* ------------------------------------------------------------------ series and results (results.c) */

struct result {
	char *metric, *name, *flavour, *unit;
	double med, min, max;
	int runs;
};

/* Add one run's value v of metric for implementation im (NaN is dropped). */
void collect(const char *metric, const struct impl *im, const char *unit, double v);
/* Turn the collected series into results (median, min, max), in the order they were created. */
void collect_flush(void);

const struct result *result_find(const char *metric, const char *name, const char *flavour);
const struct result *result_any(const char *metric); /* any result of that metric */
extern struct result *results;
extern int nresults;

/* ------------------------------------------------------------------ sections (sections.c) */

struct section {
	const char *name; /* for --only */
	const char *doc;
	void (*run)(void);
};
extern const struct section sections[]; /* ends with a NULL name */

/* The scenarios' thread counts, for titles: the i-th value, or -1 past the end. */
int section_update_readers(int i);  /* (a): readers beside 1 updater */
int section_update_updaters(int i); /* (b): updaters beside 1 reader */
int section_sync_readers(int i);    /* (d): readers beside the synchronize_rcu() caller */
int section_rate_producers(int i);  /* (c): call_rcu() producers */
int section_map_readers(void);
int section_nap_sleepers(void);     /* domains: readers of another domain that sleep */
int section_nap_us(void);           /* and how long, per section */

/* ------------------------------------------------------------------ report (report.c) */

struct run_info {
	char date[64], machine[160], kernel[128];
	double secs, load_start, load_end;
	bool busy; /* the load average exceeded the CPU count at the start or the end */
};
extern struct run_info run;

/* After report_build(): the name shown for a peer in tables ("liburcu 0.13.2", "liburcu new"),
 * and the short one in ratio headings ("0.13.2", "new"). */
const char *peer_label(const char *name);
const char *peer_tag(const char *name);
void report_build(void);  /* every table, from the results */
void report_print(FILE *f);
void report_write(void);  /* rcu-bench.csv, .json, .md, -readme.md into opt.out */

/* ------------------------------------------------------------------ targets (targets.c) */

struct target {
	char what[160];
	const char *flavour;
	double limit;
	bool at_most;         /* met when ratio <= limit (else >= limit) */
	double ratio;         /* against the primary peer (liburcu new; the floor for QSBR read) */
	const char *against;  /* the primary peer's name */
	double ratio_sys;     /* the same against liburcu-sys, when it applies, else NaN */
};
extern struct target *targets;
extern int ntargets;
void targets_evaluate(void);
bool target_known(double ratio);
bool target_met(const struct target *t, double ratio);

/* ------------------------------------------------------------------ small helpers */

void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

#endif /* RCU_BENCH_DRIVER_H */
