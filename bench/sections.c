/* SPDX-License-Identifier: 0BSD */
/*
 * bench/sections.c: what each section of rcu-bench measures, run by run.
 *
 * A section asks the implementations' servers for runs of one or more measurements
 * (bench/measure.c) and collects every run's figures into series (bench/results.c). Runs are
 * interleaved: run r of every implementation (each in its own process), then run r+1, so that a
 * noisy moment on the machine lands on all of them instead of on one implementation's block of
 * runs, and the ratios of medians stay comparable. The one-thread read side goes further: each
 * run is SLICES short slices per implementation, in an order rotated every slice.
 *
 * Metric names (the CSV's first column) are built here; bench/report.c turns them into tables and
 * bench/targets.c checks the targets on them.
 */
#include "driver.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#define SLICES 10

/* Reader counts of the update-side scenarios, and updater / producer counts. */
static const int update_readers[] = { 1, 2 };     /* (a): 1 updater, R readers */
static const int update_updaters[] = { 2, 4 };    /* (b): N updaters, 1 reader (N = 1 is (a)) */
static const int sync_readers[] = { 1, 2 };       /* (d): latency percentiles, R readers */
static const int rate_producers[] = { 1, 2 };     /* (c): call_rcu producers, readers beside */
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void progress(const char *what, int r, int runs)
{
	if (!isatty(2))
		return;
	if (r < 0)
		fprintf(stderr, "  %-10s warm-up\n", what);
	else
		fprintf(stderr, "  %-10s run %d/%d\n", what, r + 1, runs);
}

/* --impl keeps only the ids listed (exe ids; a shared-object copy goes with its exe id). */
static bool selected(const struct impl *im)
{
	if (!opt.impl_filter || im->kind == KIND_MAP)
		return true;
	const char *id = im->id;
	if (im->kind == KIND_SO && !strncmp(id, "so:", 3))
		id += 3;
	return in_list(opt.impl_filter, id);
}

/* The implementations of a kind that can do what `needs` says and were selected. */
static int pick(enum impl_kind kind, unsigned needs, struct impl ***out)
{
	int n = 0;
	*out = xcalloc((size_t)nimpls, sizeof **out);
	for (int i = 0; i < nimpls; i++)
		if (impls[i].kind == kind && (impls[i].caps & needs) == needs && selected(&impls[i]))
			(*out)[n++] = &impls[i];
	return n;
}

static bool ask(struct impl *im, bool fresh, struct figures *out, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static bool ask(struct impl *im, bool fresh, struct figures *out, const char *fmt, ...)
{
	char cmd[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	out->n = 0;
	return child_ask(im, cmd, fresh, out);
}

static void collectf(const struct impl *im, const char *unit, double v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void collectf(const struct impl *im, const char *unit, double v, const char *fmt, ...)
{
	char metric[64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(metric, sizeof metric, fmt, ap);
	va_end(ap);
	collect(metric, im, unit, v);
}

/* ------------------------------------------------------------------ read side, one thread */

static void read_slices(const char *metric, enum impl_kind kind)
{
	struct impl **list;
	int n = pick(kind, 0, &list);
	double *ns = xcalloc((size_t)n, sizeof *ns), *ops = xcalloc((size_t)n, sizeof *ops);
	for (int r = 0; r < opt.runs; r++) {
		progress(metric, r, opt.runs);
		memset(ns, 0, (size_t)n * sizeof *ns);
		memset(ops, 0, (size_t)n * sizeof *ops);
		for (int sl = 0; sl < SLICES; sl++)
			for (int k = 0; k < n; k++) {
				int i = (k + sl) % n;
				struct figures f;
				if (ask(list[i], false, &f, "read ms=%g", opt.window_ms / SLICES)) {
					ns[i] += figures_get(&f, "ns", NAN);
					ops[i] += figures_get(&f, "ops", NAN);
				}
			}
		for (int i = 0; i < n; i++)
			collect(metric, list[i], "ns", ops[i] > 0 ? ns[i] / ops[i] : NAN);
	}
	collect_flush();
	free(ns);
	free(ops);
	free(list);
}

static void section_read(void)
{
	read_slices("read_ns", KIND_EXE);
}

static void section_so(void)
{
	read_slices("read_so_ns", KIND_SO);
}

/* ------------------------------------------------------------------ reader scaling */

static void section_scale(void)
{
	struct impl **list;
	int n = pick(KIND_EXE, 0, &list);
	for (int r = 0; r < opt.runs; r++) {
		progress("scale", r, opt.runs);
		for (int t = 1; t <= opt.max_threads; t++)
			for (int i = 0; i < n; i++) {
				struct figures f;
				if (ask(list[i], false, &f, "scale threads=%d ms=%g", t, opt.window_ms))
					collectf(list[i], "Mreads/s", figures_get(&f, "mreads", NAN), "scale_t%d", t);
			}
	}
	collect_flush();
	free(list);
}

/* ------------------------------------------------------------------ (a), (b): updaters and readers */

static void update_run(struct impl *im, int readers, int updaters)
{
	struct figures f;
	if (!ask(im, false, &f, "update readers=%d updaters=%d ms=%g", readers, updaters, opt.window_ms))
		return;
	collectf(im, "Mreads/s", figures_get(&f, "mreads", NAN), "upd_r%d_u%d_reads", readers, updaters);
	collectf(im, "k/s", figures_get(&f, "kups", NAN), "upd_r%d_u%d_ups", readers, updaters);
	collectf(im, "GP/update", figures_get(&f, "gpu", NAN), "upd_r%d_u%d_gpu", readers, updaters);
	collectf(im, "us CPU/update", figures_get(&f, "ucpu", NAN), "upd_r%d_u%d_ucpu", readers, updaters);
	collectf(im, "ns CPU/read", figures_get(&f, "rcpu", NAN), "upd_r%d_u%d_rcpu", readers, updaters);
}

static void section_update(void)
{
	struct impl **list;
	int n = pick(KIND_EXE, BENCH_UPDATE, &list);
	for (int r = 0; r < opt.runs; r++) {
		progress("update", r, opt.runs);
		for (int c = 0; c < COUNT(update_readers); c++)
			for (int i = 0; i < n; i++)
				update_run(list[i], update_readers[c], 1);
		for (int c = 0; c < COUNT(update_updaters); c++)
			for (int i = 0; i < n; i++)
				update_run(list[i], 1, update_updaters[c]);
	}
	collect_flush();
	free(list);
}

/* ------------------------------------------------------------------ synchronize_rcu() latency, (d) */

static void section_sync(void)
{
	struct impl **list;
	int n = pick(KIND_EXE, BENCH_SYNC, &list);
	for (int r = 0; r < opt.runs; r++) {
		progress("sync", r, opt.runs);
		for (int i = 0; i < n; i++) {
			struct figures f;
			if (!ask(list[i], false, &f, "sync_idle ms=%g", opt.window_ms))
				continue;
			collect("sync_idle", list[i], "us", figures_get(&f, "us", NAN));
			collect("sync_idle_cpu", list[i], "us CPU", figures_get(&f, "cpu", NAN));
		}
		for (int c = 0; c < COUNT(sync_readers); c++)
			for (int i = 0; i < n; i++) {
				struct figures f;
				int rd = sync_readers[c];
				if (!ask(list[i], false, &f, "sync_short readers=%d ms=%g", rd, opt.window_ms))
					continue;
				collectf(list[i], "us", figures_get(&f, "us", NAN), "sync_r%d_mean", rd);
				collectf(list[i], "us", figures_get(&f, "p50", NAN), "sync_r%d_p50", rd);
				collectf(list[i], "us", figures_get(&f, "p99", NAN), "sync_r%d_p99", rd);
				collectf(list[i], "us", figures_get(&f, "max", NAN), "sync_r%d_max", rd);
				collectf(list[i], "us CPU", figures_get(&f, "cpu", NAN), "sync_r%d_cpu", rd);
			}
		for (int i = 0; i < n; i++) {
			struct figures f;
			if (!ask(list[i], false, &f, "sync_long ms=%g", opt.window_ms))
				continue;
			collect("sync_long", list[i], "us", figures_get(&f, "us", NAN));
			collect("sync_wake", list[i], "us", figures_get(&f, "wake", NAN));
		}
	}
	collect_flush();
	free(list);
}

static void section_sync4(void)
{
	struct impl **list;
	int n = pick(KIND_EXE, BENCH_SYNC, &list);
	for (int r = 0; r < opt.runs; r++) {
		progress("sync4", r, opt.runs);
		for (int hold = 0; hold < 2; hold++)
			for (int i = 0; i < n; i++) {
				struct figures f;
				if (!ask(list[i], false, &f, "sync4 hold=%d ms=%g", hold, opt.window_ms))
					continue;
				const char *p = hold ? "sync4h" : "sync4";
				double calls = figures_get(&f, "calls", NAN);
				collectf(list[i], hold ? "calls/s" : "k/s", hold ? calls : calls / 1e3, "%s_calls", p);
				collectf(list[i], "GP/call", figures_get(&f, "gpc", NAN), "%s_gp_per_call", p);
				collectf(list[i], "ms", figures_get(&f, "worst", NAN), "%s_worst", p);
			}
	}
	collect_flush();
	free(list);
}

/* ------------------------------------------------------------------ call_rcu, (c), peak RSS */

static void section_callrcu(void)
{
	struct impl **list;
	int n = pick(KIND_EXE, BENCH_CALL, &list);
	for (int r = -1; r < opt.runs; r++) { /* run -1 warms up: the nodes' pages, worker threads */
		progress("callrcu", r, opt.runs);
		for (int i = 0; i < n; i++) {
			struct figures f;
			if (!ask(list[i], false, &f, "callrcu n=%zu", opt.callbacks))
				continue;
			if (figures_get(&f, "short", 0) != 0)
				fprintf(stderr, "rcu-bench: %s: rcu_barrier() returned before every callback had run\n",
					list[i]->id);
			if (r < 0)
				continue;
			collect("cb_total", list[i], "ns/cb", figures_get(&f, "total", NAN));
			collect("cb_enqueue", list[i], "ns/cb", figures_get(&f, "enq", NAN));
			collect("cb_barrier", list[i], "ms", figures_get(&f, "bar", NAN));
			collect("cb_gps", list[i], "GP/1e6 cb", figures_get(&f, "gps", NAN));
		}
	}
	collect_flush();
	free(list);
}

/* (c): each run in a fresh process, whose peak resident set and heap are the run's alone. */
static void section_callrate(void)
{
	struct impl **list;
	int n = pick(KIND_EXE, BENCH_CALL, &list);
	for (int r = 0; r < opt.runs; r++) {
		progress("callrate", r, opt.runs);
		for (int c = 0; c < COUNT(rate_producers); c++)
			for (int i = 0; i < n; i++) {
				struct figures f;
				int p = rate_producers[c];
				if (!ask(list[i], true, &f, "callrate producers=%d readers=%d ms=%g", p, opt.readers,
					    opt.window_ms))
					continue;
				collectf(list[i], "k/s", figures_get(&f, "kqueued", NAN), "rate_p%d_queued", p);
				collectf(list[i], "k/s", figures_get(&f, "kdone", NAN), "rate_p%d_done", p);
				collectf(list[i], "callbacks", figures_get(&f, "pending", NAN), "rate_p%d_pending", p);
				collectf(list[i], "MiB", figures_get(&f, "rss", NAN), "rate_p%d_rss", p);
				collectf(list[i], "Mreads/s", figures_get(&f, "mreads", NAN), "rate_p%d_reads", p);
			}
	}
	collect_flush();
	free(list);
}

static void section_rss(void)
{
	struct impl **list;
	int n = pick(KIND_EXE, BENCH_CALL, &list);
	for (int r = 0; r < opt.rss_runs; r++) {
		progress("rss", r, opt.rss_runs);
		for (int i = 0; i < n; i++) {
			struct figures f;
			if (ask(list[i], true, &f, "rss n=%zu held=0", opt.callbacks)) {
				collect("rss_peak", list[i], "MiB", figures_get(&f, "mib", NAN));
				collect("rss_pending_max", list[i], "callbacks", figures_get(&f, "pending_max", NAN));
			}
			if (ask(list[i], true, &f, "rss n=%zu held=1", opt.callbacks))
				collect("rss_held", list[i], "MiB", figures_get(&f, "mib", NAN));
		}
	}
	collect_flush();
	free(list);
}

/* ------------------------------------------------------------------ domains */

#define NAP_SLEEPERS 2 /* readers of another domain, each sleeping NAP_US per section */
#define NAP_US 1000

/* An RCU implementation with a default domain (rcu.h, liburcu), not a peer without one (ck). */
static bool has_default(const struct impl *im)
{
	return im->flavour[0] != '\0';
}

/*
 * A domain beside the default one: its read side and grace period against the default domain's
 * in the same slices and runs (rcu.h's struct srcu_struct; ck_epoch's epoch object, which is all
 * ck has), then the scenario that motivates domains: a grace period of one domain while readers
 * of another sleep 1 ms inside their sections, against the same readers sleeping between their
 * sections (bench/measure.c, isolation); liburcu, which has no domains, is measured with its
 * readers asleep in its only domain.
 */
static void section_domains(void)
{
	struct impl **list;
	int n = pick(KIND_EXE, BENCH_DOMAIN, &list);
	double *ns = xcalloc((size_t)n * 2, sizeof *ns), *ops = xcalloc((size_t)n * 2, sizeof *ops);
	for (int r = 0; r < opt.runs; r++) {
		progress("domains", r, opt.runs);
		memset(ns, 0, (size_t)n * 2 * sizeof *ns);
		memset(ops, 0, (size_t)n * 2 * sizeof *ops);
		for (int sl = 0; sl < SLICES; sl++)
			for (int k = 0; k < n; k++) {
				int i = (k + sl) % n;
				for (int d = 0; d < 2; d++) {
					int dom = (d + sl) % 2; /* which goes first alternates too */
					struct figures f;
					if (!dom && !has_default(list[i]))
						continue;
					if (ask(list[i], false, &f, "read ms=%g domain=%d", opt.window_ms / SLICES, dom)) {
						ns[2 * i + dom] += figures_get(&f, "ns", NAN);
						ops[2 * i + dom] += figures_get(&f, "ops", NAN);
					}
				}
			}
		for (int i = 0; i < n; i++) {
			collect("dom_read_ns", list[i], "ns", ops[2 * i + 1] > 0 ? ns[2 * i + 1] / ops[2 * i + 1] : NAN);
			if (has_default(list[i]))
				collect("dom_read_default_ns", list[i], "ns", ops[2 * i] > 0 ? ns[2 * i] / ops[2 * i] : NAN);
		}
		for (int i = 0; i < n; i++)
			for (int dom = 1; dom >= (has_default(list[i]) ? 0 : 1); dom--) {
				struct figures f;
				if (ask(list[i], false, &f, "sync_idle ms=%g domain=%d", opt.window_ms, dom))
					collect(dom ? "dom_sync_us" : "dom_sync_default_us", list[i], "us",
						figures_get(&f, "us", NAN));
				if (ask(list[i], false, &f, "sync_short readers=1 ms=%g domain=%d", opt.window_ms, dom)) {
					collect(dom ? "dom_sync_r1_us" : "dom_sync_r1_default_us", list[i], "us",
						figures_get(&f, "us", NAN));
					collect(dom ? "dom_sync_r1_p99" : "dom_sync_r1_default_p99", list[i], "us",
						figures_get(&f, "p99", NAN));
				}
			}
	}
	collect_flush();
	free(ns);
	free(ops);
	free(list);

	n = pick(KIND_EXE, BENCH_SYNC | BENCH_NAP, &list);
	double ms = opt.window_ms < 10 ? 10 : opt.window_ms;
	for (int r = 0; r < opt.runs; r++) {
		progress("isolation", r, opt.runs);
		for (int i = 0; i < n; i++)
			for (int dom = 1; dom >= 0; dom--) {
				struct figures f;
				if ((dom && !(list[i]->caps & BENCH_DOMAIN)) || (!dom && !has_default(list[i])))
					continue;
				if (!ask(list[i], false, &f, "isolation domain=%d sleepers=%d sleep_us=%d ms=%g", dom,
					    NAP_SLEEPERS, NAP_US, ms))
					continue;
				const char *p = dom ? "iso_dom" : "iso_def";
				collectf(list[i], "us", figures_get(&f, "base", NAN), "%s_base", p);
				collectf(list[i], "us", figures_get(&f, "slept", NAN), "%s_slept", p);
				collectf(list[i], "x", figures_get(&f, "ratio", NAN), "%s_ratio", p);
				collectf(list[i], "us", figures_get(&f, "slept_max", NAN), "%s_slept_max", p);
				collectf(list[i], "naps", figures_get(&f, "naps", NAN), "%s_naps", p);
			}
	}
	collect_flush();
	free(list);
}

int section_nap_sleepers(void)
{
	return NAP_SLEEPERS;
}

int section_nap_us(void)
{
	return NAP_US;
}

/* ------------------------------------------------------------------ the map */

#define MAP_READERS 2

static void section_map(void)
{
	struct impl **list;
	int n = pick(KIND_MAP, 0, &list);
	for (int r = 0; r < opt.runs; r++) {
		progress("map", r, opt.runs);
		for (int i = 0; i < n; i++) {
			struct figures f;
			if (!ask(list[i], false, &f, "map readers=%d ms=%g", MAP_READERS, opt.window_ms))
				continue;
			collect("map_lookups", list[i], "Mlookups/s", figures_get(&f, "mlookups", NAN));
			collect("map_updates", list[i], "k/s", figures_get(&f, "kups", NAN));
		}
	}
	collect_flush();
	free(list);
}

const struct section sections[] = {
	{ "read", "read side, one thread, in the executable", section_read },
	{ "so", "read side, one thread, inside a -fPIC shared object", section_so },
	{ "scale", "reader scaling, 1 to 2 x CPUs threads", section_scale },
	{ "update", "(a) 1 updater with 1 and 2 readers; (b) 2 and 4 updaters with 1 reader", section_update },
	{ "sync", "synchronize_rcu() latency: no readers; (d) percentiles with short readers; a long reader",
		section_sync },
	{ "sync4", "4 overlapping synchronize_rcu() callers", section_sync4 },
	{ "callrcu", "call_rcu() + rcu_barrier()", section_callrcu },
	{ "callrate", "(c) call_rcu() at full rate from 1 and 2 threads with readers, fresh processes",
		section_callrate },
	{ "rss", "peak RSS of 10^6 call_rcu(free), fresh processes", section_rss },
	{ "map", "the read-mostly map of examples/", section_map },
	{ "domains", "SRCU domains beside the default domain and ck_epoch: read side, synchronize, and a grace "
		"period while another domain's readers sleep", section_domains },
	{ NULL, NULL, NULL },
};

/* For report.c: the scenario parameters, so that titles and tables say what was run. */
int section_update_readers(int i)
{
	return i < COUNT(update_readers) ? update_readers[i] : -1;
}

int section_update_updaters(int i)
{
	return i < COUNT(update_updaters) ? update_updaters[i] : -1;
}

int section_sync_readers(int i)
{
	return i < COUNT(sync_readers) ? sync_readers[i] : -1;
}

int section_rate_producers(int i)
{
	return i < COUNT(rate_producers) ? rate_producers[i] : -1;
}

int section_map_readers(void)
{
	return MAP_READERS;
}
