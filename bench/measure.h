/* SPDX-License-Identifier: 0BSD */
/*
 * bench/measure.h: the measurements. Each one is a single run of one implementation, inside the
 * server process that holds it (bench/server.c), and answers with named figures (bench/figures.h).
 * The driver (bench/rcu-bench.c) asks for run after run, interleaving implementations, and keeps
 * the medians; nothing here knows about other implementations, runs or medians.
 *
 * Every measurement runs its threads fresh (a measured thread registers and unregisters as a
 * real one would) and never in the server's main thread. Multi-threaded measurements pin their
 * threads round robin to the allowed CPUs in the order they are listed (readers first), unless
 * the server was started with --no-pin.
 */
#ifndef RCU_BENCH_MEASURE_H
#define RCU_BENCH_MEASURE_H

#include "bench.h"
#include "figures.h"

#define BENCH_CHUNK 1024          /* read sections between two looks at the stop flag */
#define BENCH_HOLD_NS 1000000u    /* the long read-side section: 1 ms */
#define BENCH_SYNC_CALLERS 4      /* overlapping synchronize_rcu() callers (sync4) */
#define BENCH_MAP_KEYS 4096
#define BENCH_NODE_BYTES 16       /* payload of each node queued by call_malloc() measurements */

/* Where measured threads may run (set once by the server). */
void measure_set_pinning(bool pin);

/*
 * One measurement: its command name, the capabilities it needs (BENCH_*; 0: only read_loop),
 * what it does, and the function. The function reads its parameters from `in` (missing ones
 * take the defaults named in `params`), fills `out`, and returns false when the implementation
 * cannot do it.
 */
struct measurement {
	const char *name;
	unsigned needs;
	const char *params; /* "key=default ..." as documentation and defaults */
	const char *doc;
	bool (*run)(const struct bench_impl *im, const struct figures *in, struct figures *out);
};

extern const struct measurement measurements[]; /* ends with a NULL name */

const struct measurement *measurement_find(const char *name);

/* The read-mostly map: map readers=R ms=W -> mlookups, kups. */
bool measure_map(const struct bench_map_impl *mp, const struct figures *in, struct figures *out);

/* For bench/callgrind.sh: n read-side sections (of the default domain, of the implementation's
 * own domain), and n grace periods with no other reader. */
uint64_t bench_insn_measure(const struct bench_impl *im, uint64_t n);
uint64_t bench_insn_domain(const struct bench_impl *im, uint64_t n);
void bench_insn_gp(const struct bench_impl *im, uint64_t n);

#endif /* RCU_BENCH_MEASURE_H */
