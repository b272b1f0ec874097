/* SPDX-License-Identifier: 0BSD */
/*
 * bench/queues/qbench.h: what bench/queues/impl.c exports once per implementation (ours through
 * compat/liburcu, each liburcu version through its own headers) and bench/queues/driver.c runs.
 */
#ifndef QBENCH_H
#define QBENCH_H

#include <stdint.h>

/* The scenarios: single-threaded first (instruction paths), then producers and one consumer. */
enum qb_scenario {
	QB_WFCQ_PAIR,       /* enqueue + dequeue (caller excludes), the queue empty in between */
	QB_WFCQ_PAIR_MUTEX, /* enqueue + dequeue under the queue's mutex */
	QB_WFCQ_BATCH,      /* 64 enqueues, then 64 dequeues (caller excludes) */
	QB_WFS_PAIR,        /* wfstack push + pop (caller excludes) */
	QB_WFS_BATCH,       /* 64 pushes, then pop_all and a walk of the 64 */
	QB_LFS_PAIR,        /* lfstack push + pop (caller excludes) */
	QB_LFS_BATCH,       /* 64 pushes, then pop_all and a walk of the 64 */
	QB_SINGLE_END,
	QB_WFCQ_MPSC = QB_SINGLE_END, /* 2 producers, 1 consumer dequeuing (no lock) */
	QB_WFCQ_SPLICE,     /* 2 producers, 1 consumer splicing into a private queue and walking it */
	QB_WFS_MPSC,        /* 2 pushers, 1 consumer doing pop_all and walks */
	QB_LFS_MPSC,        /* 2 pushers, 1 consumer popping (one thread: no lock) */
	QB_N
};

struct qb_impl {
	const char *name;    /* ours, liburcu-new, liburcu-sys */
	const char *version; /* what it is, for the report */
	/* Run scenario s over n items; returns the elapsed nanoseconds. */
	uint64_t (*run)(enum qb_scenario s, uint64_t n);
};

#endif
