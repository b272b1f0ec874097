/* SPDX-License-Identifier: 0BSD */
/*
 * bench/queues/driver.c: rcu_wfcqueue.h, rcu_wfstack.h and rcu_lfstack.h against liburcu's
 * wfcqueue, wfstack and lfstack (the newest, when configured, and the system's). Prints a
 * Markdown table: nanoseconds per item (per enqueue+dequeue, push+pop), the median of the runs
 * with their min and max, and ours / each liburcu (below 1: ours is faster). A benchmark, not a
 * test: it asserts nothing about time.
 *
 *   qbench [--runs R] [--items N] [--only SCENARIO]   the table (defaults: 7 runs, N = 2,000,000)
 *   qbench --list                                     the implementations and scenarios
 *   qbench --insn IMPL SCENARIO N                     run one single-threaded scenario once (for
 *                                                     callgrind: bench/queues/callgrind.sh)
 * The runs of the implementations are interleaved (run 1 of each, then run 2 of each, ...), so
 * that a change in the machine's load falls on all of them alike.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "qbench.h"

extern const struct qb_impl qb_impl_ours;
#if defined(QB_HAVE_NEW)
extern const struct qb_impl qb_impl_new;
#endif
#if defined(QB_HAVE_SYS)
extern const struct qb_impl qb_impl_sys;
#endif

static const struct qb_impl *impls[] = {
	&qb_impl_ours,
#if defined(QB_HAVE_NEW)
	&qb_impl_new,
#endif
#if defined(QB_HAVE_SYS)
	&qb_impl_sys,
#endif
};
#define NIMPL (sizeof impls / sizeof impls[0])

static const char *const names[QB_N] = {
	"wfcq_pair", "wfcq_pair_mutex", "wfcq_batch", "wfs_pair", "wfs_batch", "lfs_pair", "lfs_batch",
	"wfcq_mpsc", "wfcq_splice", "wfs_mpsc", "lfs_mpsc",
};
static const char *const what[QB_N] = {
	"wfcqueue: enqueue + dequeue (caller excludes), queue empty between",
	"wfcqueue: enqueue + dequeue under the queue's mutex",
	"wfcqueue: 64 enqueues, then 64 dequeues (caller excludes)",
	"wfstack: push + pop (caller excludes)",
	"wfstack: 64 pushes, then pop_all and a walk",
	"lfstack: push + pop (caller excludes)",
	"lfstack: 64 pushes, then pop_all and a walk",
	"wfcqueue: 2 producers, 1 consumer dequeuing",
	"wfcqueue: 2 producers, 1 consumer splicing and walking",
	"wfstack: 2 pushers, 1 consumer doing pop_all and walks",
	"lfstack: 2 pushers, 1 consumer popping",
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int scenario_of(const char *s)
{
	for (int i = 0; i < QB_N; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	fprintf(stderr, "qbench: no scenario %s (--list)\n", s);
	exit(2);
}

int main(int argc, char **argv)
{
	int runs = 7, only = -1;
	unsigned long long items = 2000000;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
			runs = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--items") == 0 && i + 1 < argc) {
			items = strtoull(argv[++i], NULL, 10);
		} else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
			only = scenario_of(argv[++i]);
		} else if (strcmp(argv[i], "--list") == 0) {
			for (size_t k = 0; k < NIMPL; k++)
				printf("impl %s: %s\n", impls[k]->name, impls[k]->version);
			for (int s = 0; s < QB_N; s++)
				printf("scenario %s: %s%s\n", names[s], what[s], s < QB_SINGLE_END ? " (single thread)" : "");
			return 0;
		} else if (strcmp(argv[i], "--insn") == 0 && i + 3 < argc) {
			const struct qb_impl *im = NULL;
			for (size_t k = 0; k < NIMPL; k++)
				if (strcmp(impls[k]->name, argv[i + 1]) == 0)
					im = impls[k];
			int s = scenario_of(argv[i + 2]);
			if (!im || s >= QB_SINGLE_END) {
				fprintf(stderr, "qbench: --insn IMPL SCENARIO N takes an implementation of --list and a single-threaded scenario\n");
				return 2;
			}
			im->run((enum qb_scenario)s, strtoull(argv[i + 3], NULL, 10)); /* no warm-up: counted whole */
			return 0;
		} else {
			fprintf(stderr, "usage: %s [--runs R] [--items N] [--only SCENARIO] | --list | --insn IMPL SCENARIO N\n", argv[0]);
			return 2;
		}
	}
	if (runs < 1)
		runs = 1;
	items -= items % 128; /* whole batches, an even split between the producers */

	printf("Nanoseconds per item, median of %d interleaved runs (min-max), %llu items a run:\n\n", runs, items);
	for (size_t k = 0; k < NIMPL; k++)
		printf("- %s: %s\n", impls[k]->name, impls[k]->version);
	printf("\n| scenario | ours (ns) |");
	for (size_t k = 1; k < NIMPL; k++)
		printf(" %s (ns) | ours / %s |", impls[k]->name, impls[k]->name);
	printf("\n| --- | ---: |");
	for (size_t k = 1; k < NIMPL; k++)
		printf(" ---: | ---: |");
	printf("\n");
	double *t = calloc(NIMPL * (size_t)runs, sizeof *t);
	if (!t)
		return 1;
	for (int s = 0; s < QB_N; s++) {
		if (only >= 0 && s != only)
			continue;
		for (size_t k = 0; k < NIMPL; k++)
			impls[k]->run((enum qb_scenario)s, s < QB_SINGLE_END ? items / 16 : items / 16); /* warm-up */
		for (int r = 0; r < runs; r++)
			for (size_t k = 0; k < NIMPL; k++)
				t[k * (size_t)runs + (size_t)r] = (double)impls[k]->run((enum qb_scenario)s, items) / (double)items;
		double med[8];
		printf("| `%s` |", names[s]);
		for (size_t k = 0; k < NIMPL; k++) {
			double *v = &t[k * (size_t)runs];
			qsort(v, (size_t)runs, sizeof *v, cmp_double);
			med[k] = v[runs / 2];
			printf(" %.2f (%.2f-%.2f) |", med[k], v[0], v[runs - 1]);
			if (k > 0)
				printf(" %.2f |", med[0] / med[k]);
		}
		printf("\n");
	}
	printf("\nScenarios:\n");
	for (int s = 0; s < QB_N; s++)
		if (only < 0 || s == only)
			printf("- `%s`: %s\n", names[s], what[s]);
	free(t);
	return 0;
}
