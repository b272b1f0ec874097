/* SPDX-License-Identifier: 0BSD */
/*
 * bench/rcu-bench.c: the benchmark driver. Runs every section (bench/sections.c) for every
 * flavour of rcu.h and every peer that was built (liburcu from the system and the newest liburcu,
 * each in the four flavours; ck_epoch, a pthread rwlock, an unsynchronized floor), several runs
 * each, interleaved, every implementation in a server process of its own; prints one table per
 * measurement and the targets (bench/report.c, bench/targets.c), and writes rcu-bench.csv, .json,
 * .md and -readme.md into --out DIR (default: the directory of this executable, the build tree).
 * It asserts nothing about time; it exits 1 when a measurement failed (a server crashed or
 * answered an error), so that a smoke run proves every step works.
 *
 *   rcu-bench [--quick] [--runs N] [--window-ms MS] [--callbacks N] [--only LIST] [--impl IDS]
 *             [--no-pin] [--out DIR]
 *   rcu-bench --list                  every implementation id and the executable that serves it
 *   rcu-bench --insn ID N             N read-side sections of ID (runs ID's server; callgrind.sh)
 *
 * LIST is a comma-separated subset of the sections (rcu-bench --help lists them). IDS is a
 * comma-separated list of implementation ids (ours-memb,liburcu-new-memb,...): only those.
 * The threads of a multi-threaded measurement are pinned round robin to the allowed CPUs (so that
 * a reader and the updater it holds up never share one while the other idles); --no-pin lets the
 * scheduler place them.
 *
 * Where the parts are: bench/driver.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "driver.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static bool section_on(const char *name)
{
	return !opt.only || in_list(opt.only, name);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: rcu-bench [--quick] [--runs N] [--window-ms MS] [--callbacks N] [--only LIST]\n"
		"                 [--impl IDS] [--no-pin] [--out DIR]\n"
		"       rcu-bench --list | --insn ID N\n"
		"LIST: comma-separated sections:\n");
	for (const struct section *s = sections; s->name; s++)
		fprintf(stderr, "  %-9s %s\n", s->name, s->doc);
	exit(2);
}

static void default_out(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0) {
		snprintf(opt.out, sizeof opt.out, ".");
		return;
	}
	self[n] = '\0';
	char *slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	snprintf(opt.out, sizeof opt.out, "%s", self);
}

static void machine(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "model name", 10)) {
			char *p = strchr(line, ':');
			if (p) {
				p++;
				while (*p == ' ')
					p++;
				p[strcspn(p, "\n")] = '\0';
				snprintf(buf, len, "%s", p);
			}
			break;
		}
	fclose(f);
}

/* The 1-minute load average: other processes that shared the CPUs during the run. */
static double loadavg(void)
{
	double v = NAN;
	FILE *f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%lf", &v) != 1)
			v = NAN;
		fclose(f);
	}
	return v;
}

/* --list: "ID EXE" per implementation, then "absent GROUP why" per missing group. */
static int list_impls(void)
{
	for (int i = 0; i < nimpls; i++)
		printf("%s %s\n", impls[i].id, impls[i].group->exe);
	for (int i = 0; i < ngroups; i++)
		if (!groups[i]->present)
			printf("absent %s %s\n", groups[i]->name, groups[i]->absent);
	return 0;
}

static int insn(const char *id, const char *n)
{
	for (int i = 0; i < nimpls; i++)
		if (!strcmp(impls[i].id, id)) {
			char *argv[] = { impls[i].group->exe, "--insn", (char *)id, (char *)n, NULL };
			execv(argv[0], argv);
			fprintf(stderr, "rcu-bench: cannot run %s: %s\n", argv[0], strerror(errno));
			return 1;
		}
	fprintf(stderr, "rcu-bench: no implementation %s (rcu-bench --list)\n", id);
	return 2;
}

int main(int argc, char **argv)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	opt.cpus = cpus > 0 ? (int)cpus : 1;
	opt.runs = 7;
	opt.window_ms = 100;
	opt.callbacks = 1000000;
	opt.rss_runs = 5;
	opt.pin = true;
	default_out();
	flavours_parse();

	size_t cl = 0;
	for (int i = 0; i < argc && cl < sizeof opt.command - 2; i++)
		cl += (size_t)snprintf(opt.command + cl, sizeof opt.command - cl, "%s%s", i ? " " : "", argv[i]);

	groups_discover();
	bool runs_given = false, window_given = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--list")) {
			return list_impls();
		} else if (!strcmp(a, "--insn") && i + 2 < argc) {
			return insn(argv[i + 1], argv[i + 2]);
		} else if (!strcmp(a, "--no-pin")) {
			opt.pin = false;
		} else if (!strcmp(a, "--quick")) {
			opt.quick = true;
		} else if (!strcmp(a, "--runs") && i + 1 < argc) {
			opt.runs = atoi(argv[++i]);
			runs_given = true;
		} else if (!strcmp(a, "--window-ms") && i + 1 < argc) {
			opt.window_ms = atof(argv[++i]);
			window_given = true;
		} else if (!strcmp(a, "--callbacks") && i + 1 < argc) {
			opt.callbacks = strtoull(argv[++i], NULL, 10);
		} else if (!strcmp(a, "--impl") && i + 1 < argc) {
			opt.impl_filter = argv[++i];
		} else if (!strcmp(a, "--only") && i + 1 < argc) {
			opt.only = argv[++i];
		} else if (!strcmp(a, "--out") && i + 1 < argc) {
			snprintf(opt.out, sizeof opt.out, "%s", argv[++i]);
		} else {
			usage();
		}
	}
	if (opt.quick) {
		/* --quick: shorter windows, 5 runs; an explicit --runs or --window-ms still wins. */
		if (!window_given)
			opt.window_ms = 25;
		if (!runs_given)
			opt.runs = 5;
		opt.rss_runs = 3;
	}
	if (opt.runs < 1 || opt.runs > 1000 || !(opt.window_ms > 0) || opt.callbacks < 1)
		usage();
	if (opt.rss_runs > opt.runs)
		opt.rss_runs = opt.runs;
	if (opt.only)
		for (const char *s = opt.only; *s;) {
			size_t l = strcspn(s, ",");
			bool known = false;
			for (const struct section *sec = sections; sec->name && !known; sec++)
				known = strlen(sec->name) == l && !strncmp(sec->name, s, l);
			if (!known) {
				fprintf(stderr, "rcu-bench: no section \"%.*s\"\n", (int)l, s);
				usage();
			}
			s += l + (s[l] == ',');
		}
	opt.readers = opt.cpus > 1 ? opt.cpus - 1 : 1;
	opt.max_threads = 2 * opt.cpus;
	if (opt.max_threads > 8)
		opt.max_threads = 8;

	int failed = 0;
	const struct group *ours = group_find("ours");
	if (!ours || !ours->present) {
		fprintf(stderr, "rcu-bench: the server of rcu.h itself is missing: %s\n",
			ours ? ours->absent : "not built");
		return 1;
	}
	time_t now = time(NULL);
	strftime(run.date, sizeof run.date, "%Y-%m-%d %H:%M %Z", localtime(&now));
	machine(run.machine, sizeof run.machine);
	struct utsname u;
	snprintf(run.kernel, sizeof run.kernel, "%s", uname(&u) == 0 ? u.release : "unknown");
	run.load_start = loadavg();
	fprintf(stderr, "rcu-bench: %s, %d CPUs, %d runs of %g ms, %zu callbacks; load average %.2f%s\n",
		run.machine, opt.cpus, opt.runs, opt.window_ms, opt.callbacks, run.load_start,
		run.load_start > opt.cpus ? ": busier than its CPUs, the figures will be noisy" : "");
	for (int i = 0; i < ngroups; i++)
		if (!groups[i]->present)
			fprintf(stderr, "rcu-bench: %s absent: %s\n", groups[i]->name, groups[i]->absent);
	uint64_t t0 = bench_now_ns();
	for (const struct section *s = sections; s->name; s++)
		if (section_on(s->name))
			s->run();
	children_stop();
	run.secs = (double)(bench_now_ns() - t0) / 1e9;
	run.load_end = loadavg();
	run.busy = run.load_start > opt.cpus || run.load_end > opt.cpus;
	failed = child_failures();

	report_build();
	targets_evaluate();
	report_print(stdout);
	fflush(stdout);
	report_write();
	if (failed)
		fprintf(stderr, "rcu-bench: %d measurement(s) failed (see above)\n", failed);
	return failed ? 1 : 0;
}
