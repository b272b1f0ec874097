/* SPDX-License-Identifier: 0BSD */
/*
 * bench/rcu-bench.c: the benchmark driver. Runs every measurement for every flavour of rcu.h and
 * every installed peer (liburcu memb/mb/qsbr/bp, ck_epoch, a pthread rwlock, an unsynchronized
 * floor), several runs each, and prints one table per measurement: the median (min-max) for us,
 * for the peer of the same flavour, and our ratio to it. Writes the figures as CSV, JSON and a
 * Markdown copy of the tables (rcu-bench.csv/.json/.md) into --out DIR (default: the directory
 * of this executable, i.e. the build tree). It asserts nothing about time.
 *
 *   rcu-bench [--quick] [--runs N] [--window-ms MS] [--callbacks N] [--only LIST] [--impl IDS]
 *             [--no-pin] [--out DIR]
 *   rcu-bench --list                  the implementation ids
 *   rcu-bench --insn ID N             run N read-side sections of ID (bench/callgrind.sh)
 *
 * LIST is a comma-separated subset of: read so scale update sync sync4 callrcu rss map.
 * IDS is a comma-separated list of implementation ids (ours-memb,liburcu-memb,...): only those.
 * The threads of a multi-threaded measurement are pinned round robin to the allowed CPUs (so that
 * a reader and the updater it holds up never share one while the other idles); --no-pin lets the
 * scheduler place them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "bench.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define CHUNK 1024            /* read sections between two looks at the stop flag (and QSBR reports) */
#define MAX_THREADS 64
#define MAX_RUNS 64
#define HOLD_NS 1000000u      /* the long read-side section: 1 ms */
#define SYNC_CALLERS 4
#define MAP_KEYS 4096
#define MAP_READERS 2
#define RSS_NODE_BYTES 16     /* payload of each node queued in the RSS measurement */

static volatile uint64_t bench_sink; /* every read loop's sum ends here, so no loop is dead */

/* ------------------------------------------------------------------ options */

static struct {
	int runs;
	double window_ms;
	size_t callbacks;
	int rss_runs;
	const char *only;
	const char *impl_filter;
	char out[PATH_MAX];
	bool quick;
	bool pin;     /* pin worker k of a crew to the k-th allowed CPU (round robin) */
	int ncpu_set; /* the allowed CPUs, for pinning */
	int cpu_set[256];
	int cpus;
	int readers; /* readers beside one updater or one synchronize caller */
	int max_threads;
	char command[1024];
} opt;

static bool in_list(const char *list, const char *name)
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

static bool section_on(const char *name)
{
	return !opt.only || in_list(opt.only, name);
}

/* ------------------------------------------------------------------ implementations */

#ifndef BENCH_HAVE_URCU
#define BENCH_HAVE_URCU 1
#endif
#ifndef BENCH_HAVE_CK
#define BENCH_HAVE_CK 1
#endif
#ifndef BENCH_HAVE_MAP
#define BENCH_HAVE_MAP 1
#endif

static const struct bench_impl *const impls[] = {
#if BENCH_HAVE_URCU
	&bench_ours_qsbr, &bench_urcu_qsbr, &bench_ours_memb, &bench_urcu_memb,
	&bench_ours_mb, &bench_urcu_mb, &bench_ours_bp, &bench_urcu_bp,
#else
	&bench_ours_qsbr, &bench_ours_memb, &bench_ours_mb, &bench_ours_bp,
#endif
#if BENCH_HAVE_CK
	&bench_ck_epoch,
#endif
	&bench_rwlock, &bench_floor,
};
#define NIMPLS (sizeof impls / sizeof impls[0])

static const struct bench_impl *const so_impls[] = {
#if BENCH_HAVE_URCU
	&bench_so_ours_qsbr, &bench_so_urcu_qsbr, &bench_so_ours_memb, &bench_so_urcu_memb,
	&bench_so_ours_mb, &bench_so_urcu_mb, &bench_so_ours_bp, &bench_so_urcu_bp,
#else
	&bench_so_ours_qsbr, &bench_so_ours_memb, &bench_so_ours_mb, &bench_so_ours_bp,
#endif
	&bench_so_floor,
};
#define NSOIMPLS (sizeof so_impls / sizeof so_impls[0])

#if BENCH_HAVE_MAP
static const struct bench_map_impl *const map_impls[] = {
	&bench_map_qsbr, &bench_map_memb, &bench_map_mb, &bench_map_bp, &bench_map_rwlock,
};
#define NMAPIMPLS (sizeof map_impls / sizeof map_impls[0])
#else
static const struct bench_map_impl *const map_impls[1];
#define NMAPIMPLS 0
#endif

static const char *const flavours[] = { "qsbr", "memb", "mb", "bp" };

static void impl_id(char *buf, size_t len, const char *prefix, const struct bench_impl *im)
{
	snprintf(buf, len, "%s%s%s%s", prefix, im->name, im->flavour[0] ? "-" : "", im->flavour);
}

static const struct bench_impl *find_impl(const char *id)
{
	char buf[64];
	for (size_t i = 0; i < NIMPLS; i++) {
		impl_id(buf, sizeof buf, "", impls[i]);
		if (strcmp(buf, id) == 0)
			return impls[i];
	}
	for (size_t i = 0; i < NSOIMPLS; i++) {
		impl_id(buf, sizeof buf, "so:", so_impls[i]);
		if (strcmp(buf, id) == 0)
			return so_impls[i];
	}
	return NULL;
}

/* --impl: measure only the implementations listed (ids as --list prints them, without "so:"). */
static bool skip(const struct bench_impl *im)
{
	char id[64];
	if (!opt.impl_filter)
		return false;
	impl_id(id, sizeof id, "", im);
	return !in_list(opt.impl_filter, id);
}

/* ------------------------------------------------------------------ results */

struct result {
	char metric[32];
	char name[16];
	char flavour[8];
	char unit[16];
	double med, min, max;
	int runs;
};

static struct result results[2048];
static int nresults;

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void record(const char *metric, const char *name, const char *flavour, const char *unit,
	double *v, int n)
{
	if (n <= 0 || nresults == (int)(sizeof results / sizeof results[0]))
		return;
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	struct result *r = &results[nresults++];
	snprintf(r->metric, sizeof r->metric, "%s", metric);
	snprintf(r->name, sizeof r->name, "%s", name);
	snprintf(r->flavour, sizeof r->flavour, "%s", flavour);
	snprintf(r->unit, sizeof r->unit, "%s", unit);
	r->med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	r->min = v[0];
	r->max = v[n - 1];
	r->runs = n;
}

static const struct result *lookup(const char *metric, const char *name, const char *flavour)
{
	for (int i = 0; i < nresults; i++)
		if (!strcmp(results[i].metric, metric) && !strcmp(results[i].name, name) &&
			!strcmp(results[i].flavour, flavour))
			return &results[i];
	return NULL;
}

/* ------------------------------------------------------------------ threads */

enum role {
	ROLE_READ,       /* read_loop(CHUNK) until stopped */
	ROLE_UPDATE,     /* update() until stopped */
	ROLE_SYNC,       /* synchronize() until stopped */
	ROLE_HOLD,       /* read_hold(HOLD_NS) until stopped */
	ROLE_SYNC_HOLD,  /* synchronize() until stopped, timing the calls that began in a long section */
	ROLE_MAP_READ,
	ROLE_MAP_UPDATE,
};

struct crew;

struct worker {
	pthread_t tid;
	struct crew *crew;
	const struct bench_impl *impl;
	const struct bench_map_impl *map;
	enum role role;
	uint64_t ops;
	uint64_t t_start, t_end;
	uint64_t lat_sum, lat_n;   /* ROLE_SYNC_HOLD: calls that began inside the long section */
	uint64_t wake_sum, wake_n; /* and of those, the time from the section's end to the return */
	uint64_t lat_max;          /* ROLE_SYNC: the longest call */
};

struct crew {
	pthread_barrier_t go;
	atomic_int stop;
	struct bench_hold hold;
	int n;
	struct worker w[MAX_THREADS];
};

static bool crew_stopped(struct crew *c)
{
	return atomic_load_explicit(&c->stop, memory_order_relaxed) != 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct crew *c = w->crew;
	const struct bench_impl *im = w->impl;
	const struct bench_map_impl *mp = w->map;
	uint64_t ops = 0, rng = (uint64_t)(uintptr_t)w * 0x9e3779b97f4a7c15u;

	if (im) {
		im->thread_init();
		im->block_begin();
	} else {
		mp->thread_init();
		mp->block_begin();
	}
	pthread_barrier_wait(&c->go);
	if (im)
		im->block_end();
	else
		mp->block_end();
	w->t_start = bench_now_ns();
	switch (w->role) {
	case ROLE_READ:
		while (!crew_stopped(c)) {
			bench_sink += im->read_loop(CHUNK);
			ops += CHUNK;
		}
		break;
	case ROLE_UPDATE:
		while (!crew_stopped(c)) {
			im->update();
			ops++;
		}
		break;
	case ROLE_SYNC:
		while (!crew_stopped(c)) {
			uint64_t a = bench_now_ns();
			im->synchronize();
			uint64_t d = bench_now_ns() - a;
			if (d > w->lat_max)
				w->lat_max = d;
			ops++;
		}
		break;
	case ROLE_HOLD:
		while (!crew_stopped(c)) {
			im->read_hold(HOLD_NS, &c->hold);
			ops++;
		}
		break;
	case ROLE_SYNC_HOLD:
		while (!crew_stopped(c)) {
			int inside = atomic_load_explicit(&c->hold.inside, memory_order_acquire);
			uint64_t a = bench_now_ns();
			im->synchronize();
			uint64_t b = bench_now_ns();
			uint64_t e = atomic_load_explicit(&c->hold.exit_ns, memory_order_relaxed);
			ops++;
			if (!inside)
				continue;
			w->lat_sum += b - a;
			w->lat_n++;
			if (e > a && e <= b) {
				w->wake_sum += b - e;
				w->wake_n++;
			}
		}
		break;
	case ROLE_MAP_READ:
		while (!crew_stopped(c)) {
			bench_sink += mp->lookup_loop(256, &rng);
			ops += 256;
		}
		break;
	case ROLE_MAP_UPDATE:
		while (!crew_stopped(c)) {
			mp->update_loop(16, &rng);
			ops += 16;
		}
		break;
	}
	w->t_end = bench_now_ns();
	w->ops = ops;
	if (im)
		im->thread_fini();
	else
		mp->thread_fini();
	return NULL;
}

static void sleep_ms(double ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(fmod(ms, 1000.0) * 1e6) };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static void crew_add(struct crew *c, const struct bench_impl *im, const struct bench_map_impl *mp,
	enum role role)
{
	struct worker *w = &c->w[c->n++];
	memset(w, 0, sizeof *w);
	w->crew = c;
	w->impl = im;
	w->map = mp;
	w->role = role;
}

/* Start every worker together, let them run for ms, stop them and wait for them to end. */
static void crew_run(struct crew *c, double ms)
{
	atomic_store(&c->stop, 0);
	atomic_store(&c->hold.inside, 0);
	atomic_store(&c->hold.exit_ns, 0);
	pthread_barrier_init(&c->go, NULL, (unsigned)c->n + 1);
	for (int i = 0; i < c->n; i++) {
		pthread_attr_t attr;
		pthread_attr_init(&attr);
		if (opt.pin && opt.ncpu_set > 0) {
			cpu_set_t set;
			CPU_ZERO(&set);
			CPU_SET(opt.cpu_set[i % opt.ncpu_set], &set);
			pthread_attr_setaffinity_np(&attr, sizeof set, &set);
		}
		if (pthread_create(&c->w[i].tid, &attr, worker_main, &c->w[i]) != 0) {
			perror("rcu-bench: pthread_create");
			exit(1);
		}
		pthread_attr_destroy(&attr);
	}
	pthread_barrier_wait(&c->go);
	sleep_ms(ms);
	atomic_store(&c->stop, 1);
	for (int i = 0; i < c->n; i++)
		pthread_join(c->w[i].tid, NULL);
	pthread_barrier_destroy(&c->go);
}

/* Operations per second of workers [from, to), each over its own time. */
static double crew_rate(const struct crew *c, int from, int to)
{
	double rate = 0;
	for (int i = from; i < to; i++) {
		const struct worker *w = &c->w[i];
		if (w->t_end > w->t_start)
			rate += (double)w->ops * 1e9 / (double)(w->t_end - w->t_start);
	}
	return rate;
}

/* Nanoseconds per operation of worker i. */
static double crew_latency_ns(const struct crew *c, int i)
{
	const struct worker *w = &c->w[i];
	return w->ops ? (double)(w->t_end - w->t_start) / (double)w->ops : NAN;
}

/* Run fn(arg) in a fresh thread and wait for it: a measurement never runs in the main thread, so
 * that every measured thread registers and unregisters as a real one would. */
static void in_thread(void *(*fn)(void *), void *arg)
{
	pthread_t t;
	if (pthread_create(&t, NULL, fn, arg) != 0) {
		perror("rcu-bench: pthread_create");
		exit(1);
	}
	pthread_join(t, NULL);
}

/*
 * Every measurement interleaves its implementations: run r of every implementation, then run r+1
 * of every one, so that a noisy moment (other processes share the CPUs) lands on all of them
 * instead of on one implementation's block of runs, and the ratios stay comparable.
 */
struct series {
	double v[MAX_RUNS];
	int n;
};

static void series_add(struct series *s, double v)
{
	if (s->n < MAX_RUNS && !isnan(v))
		s->v[s->n++] = v;
}

static void record_series(const char *metric, const struct bench_impl *im, const char *unit,
	struct series *s)
{
	record(metric, im->name, im->flavour, unit, s->v, s->n);
}

static void progress_run(const char *what, int r, int runs)
{
	if (!isatty(2))
		return;
	if (r < 0)
		fprintf(stderr, "  %-10s warm-up\n", what);
	else
		fprintf(stderr, "  %-10s run %d/%d\n", what, r + 1, runs);
}

/* ------------------------------------------------------------------ read side, one thread */

/*
 * One thread registers with every implementation of the list and measures them in turn, in
 * SLICES short slices per run with the order rotated each slice: each run's figure of one
 * implementation is the sum over its slices, so that a disturbance lasting a few milliseconds
 * is spread over all of them instead of landing on one.
 */
#define SLICES 10

struct single_pass {
	const char *metric;
	const struct bench_impl *const *list;
	size_t n;
	struct series *v;
};

static void *single_read_main(void *arg)
{
	struct single_pass *p = arg;
	uint64_t chunks[NIMPLS + NSOIMPLS] = { 0 };
	for (size_t i = 0; i < p->n; i++) {
		const struct bench_impl *im = p->list[i];
		if (skip(im))
			continue;
		im->thread_init();
		bench_sink += im->read_loop(10000); /* warm up (BP registers here) */
		uint64_t t0 = bench_now_ns(), ops = 0;
		while (bench_now_ns() - t0 < 2000000u) {
			bench_sink += im->read_loop(CHUNK);
			ops += CHUNK;
		}
		double per_op = (double)(bench_now_ns() - t0) / (double)ops;
		chunks[i] = (uint64_t)(opt.window_ms * 1e6 / SLICES / per_op / CHUNK) + 1;
	}
	for (int r = 0; r < opt.runs; r++) {
		progress_run(p->metric, r, opt.runs);
		uint64_t ns[NIMPLS + NSOIMPLS] = { 0 };
		for (int sl = 0; sl < SLICES; sl++)
			for (size_t k = 0; k < p->n; k++) {
				size_t i = (k + (size_t)sl) % p->n;
				if (!chunks[i])
					continue;
				const struct bench_impl *im = p->list[i];
				uint64_t a = bench_now_ns();
				for (uint64_t c = 0; c < chunks[i]; c++)
					bench_sink += im->read_loop(CHUNK);
				ns[i] += bench_now_ns() - a;
			}
		for (size_t i = 0; i < p->n; i++)
			if (chunks[i])
				series_add(&p->v[i], (double)ns[i] / (double)(chunks[i] * CHUNK * SLICES));
	}
	for (size_t i = 0; i < p->n; i++)
		if (chunks[i])
			p->list[i]->thread_fini();
	return NULL;
}

static void bench_read_single(const char *metric, const struct bench_impl *const *list, size_t n)
{
	struct series v[NIMPLS + NSOIMPLS];
	memset(v, 0, sizeof v);
	struct single_pass p = { metric, list, n, v };
	in_thread(single_read_main, &p);
	for (size_t i = 0; i < n; i++)
		record_series(metric, list[i], "ns", &v[i]);
}

/* ------------------------------------------------------------------ reader scaling */

static void bench_scale(void)
{
	static struct series v[NIMPLS][MAX_THREADS + 1];
	memset(v, 0, sizeof v);
	for (int r = 0; r < opt.runs; r++) {
		progress_run("scale", r, opt.runs);
		for (size_t i = 0; i < NIMPLS; i++)
			for (int t = 1; t <= opt.max_threads && !skip(impls[i]); t++) {
				struct crew c = { .n = 0 };
				for (int k = 0; k < t; k++)
					crew_add(&c, impls[i], NULL, ROLE_READ);
				crew_run(&c, opt.window_ms);
				series_add(&v[i][t], crew_rate(&c, 0, c.n) / 1e6);
			}
	}
	for (size_t i = 0; i < NIMPLS; i++)
		for (int t = 1; t <= opt.max_threads; t++) {
			char metric[32];
			snprintf(metric, sizeof metric, "scale_t%d", t);
			record_series(metric, impls[i], "Mreads/s", &v[i][t]);
		}
}

/* ------------------------------------------------------------------ readers against an updater */

static void bench_update(void)
{
	struct series reads[NIMPLS], ups[NIMPLS];
	memset(reads, 0, sizeof reads);
	memset(ups, 0, sizeof ups);
	for (int r = 0; r < opt.runs; r++) {
		progress_run("update", r, opt.runs);
		for (size_t i = 0; i < NIMPLS; i++) {
			const struct bench_impl *im = impls[i];
			if (skip(im))
				continue;
			if (!(im->caps & BENCH_UPDATE))
				continue;
			struct crew c = { .n = 0 };
			for (int k = 0; k < opt.readers; k++)
				crew_add(&c, im, NULL, ROLE_READ);
			crew_add(&c, im, NULL, ROLE_UPDATE);
			crew_run(&c, opt.window_ms);
			series_add(&reads[i], crew_rate(&c, 0, opt.readers) / 1e6);
			series_add(&ups[i], crew_rate(&c, opt.readers, c.n) / 1e3);
		}
	}
	for (size_t i = 0; i < NIMPLS; i++) {
		record_series("upd_reads", impls[i], "Mreads/s", &reads[i]);
		record_series("upd_gps", impls[i], "k/s", &ups[i]);
	}
}

/* ------------------------------------------------------------------ synchronize latency */

static void bench_sync(void)
{
	struct series idle[NIMPLS], shrt[NIMPLS], lng[NIMPLS], wake[NIMPLS];
	memset(idle, 0, sizeof idle);
	memset(shrt, 0, sizeof shrt);
	memset(lng, 0, sizeof lng);
	memset(wake, 0, sizeof wake);
	for (int r = 0; r < opt.runs; r++) {
		progress_run("sync", r, opt.runs);
		for (size_t i = 0; i < NIMPLS; i++) {
			const struct bench_impl *im = impls[i];
			if (skip(im))
				continue;
			if (!(im->caps & BENCH_SYNC))
				continue;
			struct crew c = { .n = 0 };
			crew_add(&c, im, NULL, ROLE_SYNC);
			crew_run(&c, opt.window_ms);
			series_add(&idle[i], crew_latency_ns(&c, 0) / 1e3);

			c.n = 0;
			crew_add(&c, im, NULL, ROLE_SYNC);
			for (int k = 0; k < opt.readers; k++)
				crew_add(&c, im, NULL, ROLE_READ);
			crew_run(&c, opt.window_ms);
			series_add(&shrt[i], crew_latency_ns(&c, 0) / 1e3);

			c.n = 0;
			crew_add(&c, im, NULL, ROLE_SYNC_HOLD);
			crew_add(&c, im, NULL, ROLE_HOLD);
			crew_run(&c, opt.window_ms < 20 ? 20 : opt.window_ms);
			const struct worker *w = &c.w[0];
			series_add(&lng[i], w->lat_n ? (double)w->lat_sum / (double)w->lat_n / 1e3 : NAN);
			series_add(&wake[i], w->wake_n ? (double)w->wake_sum / (double)w->wake_n / 1e3 : NAN);
		}
	}
	for (size_t i = 0; i < NIMPLS; i++) {
		record_series("sync_idle", impls[i], "us", &idle[i]);
		record_series("sync_short", impls[i], "us", &shrt[i]);
		record_series("sync_long", impls[i], "us", &lng[i]);
		record_series("sync_wake", impls[i], "us", &wake[i]);
	}
}

/*
 * Overlapping synchronize callers: calls per second, and (ours) grace periods per call. Without
 * readers a grace period is so short that callers rarely overlap; with one reader in 1 ms
 * sections every caller waits long enough for the others to arrive, which shows the sharing.
 */
static void bench_sync4(void)
{
	struct series calls[2][NIMPLS], gpc[2][NIMPLS], worst[2][NIMPLS];
	memset(calls, 0, sizeof calls);
	memset(gpc, 0, sizeof gpc);
	memset(worst, 0, sizeof worst);
	for (int r = 0; r < opt.runs; r++) {
		progress_run("sync4", r, opt.runs);
		for (size_t i = 0; i < NIMPLS; i++) {
			const struct bench_impl *im = impls[i];
			if (skip(im))
				continue;
			if (!(im->caps & BENCH_SYNC))
				continue;
			for (int hold = 0; hold < 2; hold++) {
				struct crew c = { .n = 0 };
				for (int k = 0; k < SYNC_CALLERS; k++)
					crew_add(&c, im, NULL, ROLE_SYNC);
				if (hold)
					crew_add(&c, im, NULL, ROLE_HOLD);
				uint64_t gp0 = im->grace_periods ? im->grace_periods() : 0;
				crew_run(&c, hold && opt.window_ms < 50 ? 50 : opt.window_ms);
				uint64_t gp1 = im->grace_periods ? im->grace_periods() : 0;
				uint64_t n = 0, mx = 0;
				for (int k = 0; k < SYNC_CALLERS; k++) {
					n += c.w[k].ops;
					if (c.w[k].lat_max > mx)
						mx = c.w[k].lat_max;
				}
				series_add(&worst[hold][i], (double)mx / 1e6);
				series_add(&calls[hold][i], crew_rate(&c, 0, SYNC_CALLERS) / 1e3);
				if (im->caps & BENCH_GP_COUNT)
					series_add(&gpc[hold][i], n ? (double)(gp1 - gp0) / (double)n : NAN);
			}
		}
	}
	for (size_t i = 0; i < NIMPLS; i++) {
		record_series("sync4_calls", impls[i], "k/s", &calls[0][i]);
		record_series("sync4_gp_per_call", impls[i], "GP/call", &gpc[0][i]);
		record_series("sync4_worst", impls[i], "ms", &worst[0][i]);
		record_series("sync4h_calls", impls[i], "calls/s", &calls[1][i]);
		record_series("sync4h_gp_per_call", impls[i], "GP/call", &gpc[1][i]);
		record_series("sync4h_worst", impls[i], "ms", &worst[1][i]);
	}
}

/* ------------------------------------------------------------------ call_rcu and rcu_barrier */

struct callrcu {
	const struct bench_impl *impl;
	double enq, bar, total, gps;
	bool short_count;
};

static void *callrcu_main(void *arg)
{
	struct callrcu *s = arg;
	const struct bench_impl *im = s->impl;
	size_t n = opt.callbacks;
	im->thread_init();
	uint64_t done0 = im->callbacks_done();
	uint64_t gp0 = im->grace_periods ? im->grace_periods() : 0;
	uint64_t t0 = bench_now_ns();
	im->call_array(n);
	uint64_t t1 = bench_now_ns();
	im->block_begin();
	im->barrier();
	im->block_end();
	uint64_t t2 = bench_now_ns();
	uint64_t gp1 = im->grace_periods ? im->grace_periods() : 0;
	s->short_count = im->callbacks_done() - done0 != n;
	s->enq = (double)(t1 - t0) / (double)n;
	s->bar = (double)(t2 - t1) / 1e6;
	s->total = (double)(t2 - t0) / (double)n;
	s->gps = (double)(gp1 - gp0) * 1e6 / (double)n;
	im->thread_fini();
	return NULL;
}

static void bench_callrcu(void)
{
	struct series enq[NIMPLS], bar[NIMPLS], total[NIMPLS], gps[NIMPLS];
	memset(enq, 0, sizeof enq);
	memset(bar, 0, sizeof bar);
	memset(total, 0, sizeof total);
	memset(gps, 0, sizeof gps);
	for (int r = -1; r < opt.runs; r++) { /* run -1 warms up: the nodes' pages, worker threads */
		progress_run("callrcu", r, opt.runs);
		for (size_t i = 0; i < NIMPLS; i++) {
			const struct bench_impl *im = impls[i];
			if (skip(im))
				continue;
			if (!(im->caps & BENCH_CALL))
				continue;
			struct callrcu s = { .impl = im };
			in_thread(callrcu_main, &s);
			if (s.short_count) {
				char id[64];
				impl_id(id, sizeof id, "", im);
				fprintf(stderr, "rcu-bench: %s: rcu_barrier() returned before every "
					"callback had run\n", id);
			}
			if (r < 0)
				continue;
			series_add(&enq[i], s.enq);
			series_add(&bar[i], s.bar);
			series_add(&total[i], s.total);
			if (im->caps & BENCH_GP_COUNT)
				series_add(&gps[i], s.gps);
		}
	}
	for (size_t i = 0; i < NIMPLS; i++) {
		record_series("cb_enqueue", impls[i], "ns/cb", &enq[i]);
		record_series("cb_barrier", impls[i], "ms", &bar[i]);
		record_series("cb_total", impls[i], "ns/cb", &total[i]);
		record_series("cb_gps", impls[i], "GP/1e6 cb", &gps[i]);
	}
}

/* ------------------------------------------------------------------ peak RSS, callbacks pending */

static long status_kib(const char *field)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long v = -1;
	size_t len = strlen(field);
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, field, len) == 0 && line[len] == ':') {
			v = atol(line + len + 1);
			break;
		}
	fclose(f);
	return v;
}

/*
 * The child side: queue n callbacks on fresh nodes from the main thread, print the growth of the
 * peak resident set over the baseline, then let them run. held: queue them all inside one
 * read-side section, so that none can run before the end (all n pending at once); otherwise
 * queue them as fast as possible and let the implementation keep up as it can.
 */
static int rss_child(const char *id, size_t n, bool held)
{
	const struct bench_impl *im = find_impl(id);
	if (!im || !(im->caps & BENCH_CALL))
		return 2;
	im->setup();
	im->thread_init();
	long base = status_kib("VmRSS");
	im->call_malloc(n, RSS_NODE_BYTES, held);
	long peak_pending = status_kib("VmHWM");
	im->block_begin();
	im->barrier();
	im->block_end();
	long peak = status_kib("VmHWM");
	uint64_t pmax = im->pending_max ? im->pending_max() : 0;
	printf("%ld %ld %llu\n", peak_pending - base, peak - base, (unsigned long long)pmax);
	im->thread_fini();
	return 0;
}

static bool rss_spawn(const char *id, bool held, long *kib, unsigned long long *pmax)
{
	int fds[2];
	if (pipe(fds) != 0)
		return false;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	char nbuf[32], self[PATH_MAX];
	ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
	if (sl <= 0)
		return false;
	self[sl] = '\0';
	snprintf(nbuf, sizeof nbuf, "%zu", opt.callbacks);
	char *argv[] = { self, held ? "--rss-child-held" : "--rss-child", (char *)id, nbuf, NULL };
	pid_t pid;
	int rc = posix_spawn(&pid, self, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		return false;
	}
	char buf[128] = "";
	ssize_t len = read(fds[0], buf, sizeof buf - 1);
	close(fds[0]);
	int status;
	waitpid(pid, &status, 0);
	long pending, after;
	if (len <= 0 || sscanf(buf, "%ld %ld %llu", &pending, &after, pmax) != 3 ||
		!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return false;
	*kib = pending > after ? pending : after;
	return true;
}

static void bench_rss(void)
{
	struct series v[NIMPLS], p[NIMPLS], h[NIMPLS];
	memset(v, 0, sizeof v);
	memset(p, 0, sizeof p);
	memset(h, 0, sizeof h);
	for (int r = 0; r < opt.rss_runs; r++) {
		progress_run("rss", r, opt.rss_runs);
		for (size_t i = 0; i < NIMPLS; i++) {
			const struct bench_impl *im = impls[i];
			if (skip(im))
				continue;
			if (!(im->caps & BENCH_CALL))
				continue;
			char id[64];
			impl_id(id, sizeof id, "", im);
			long kib;
			unsigned long long pmax;
			if (rss_spawn(id, false, &kib, &pmax)) {
				series_add(&v[i], (double)kib / 1024.0);
				if (im->pending_max)
					series_add(&p[i], (double)pmax);
			} else {
				fprintf(stderr, "rcu-bench: rss child for %s failed\n", id);
			}
			if (rss_spawn(id, true, &kib, &pmax))
				series_add(&h[i], (double)kib / 1024.0);
			else
				fprintf(stderr, "rcu-bench: rss child (held) for %s failed\n", id);
		}
	}
	for (size_t i = 0; i < NIMPLS; i++) {
		record_series("rss_peak", impls[i], "MiB", &v[i]);
		record_series("rss_pending_max", impls[i], "callbacks", &p[i]);
		record_series("rss_held", impls[i], "MiB", &h[i]);
	}
}

/* ------------------------------------------------------------------ the map */

static void bench_map(void)
{
	struct series look[NMAPIMPLS + 1], ups[NMAPIMPLS + 1];
	memset(look, 0, sizeof look);
	memset(ups, 0, sizeof ups);
	for (size_t i = 0; i < NMAPIMPLS; i++)
		map_impls[i]->setup(MAP_KEYS);
	for (int r = 0; r < opt.runs; r++) {
		progress_run("map", r, opt.runs);
		for (size_t i = 0; i < NMAPIMPLS; i++) {
			const struct bench_map_impl *mp = map_impls[i];
			struct crew c = { .n = 0 };
			for (int k = 0; k < MAP_READERS; k++)
				crew_add(&c, NULL, mp, ROLE_MAP_READ);
			crew_add(&c, NULL, mp, ROLE_MAP_UPDATE);
			crew_run(&c, opt.window_ms);
			series_add(&look[i], crew_rate(&c, 0, MAP_READERS) / 1e6);
			series_add(&ups[i], crew_rate(&c, MAP_READERS, c.n) / 1e3);
		}
	}
	for (size_t i = 0; i < NMAPIMPLS; i++) {
		const struct bench_map_impl *mp = map_impls[i];
		mp->teardown();
		record("map_lookups", mp->name, mp->flavour, "Mlookups/s", look[i].v, look[i].n);
		record("map_updates", mp->name, mp->flavour, "k/s", ups[i].v, ups[i].n);
	}
}

/* ------------------------------------------------------------------ tables */

#define TCOLS 10
#define TROWS 24
#define CELL 64

struct table {
	char title[200];
	int ncols, nrows;
	char cell[TROWS][TCOLS][CELL];
};

static struct table tables[32];
static int ntables;

static struct table *table_new(const char *title, int ncols, const char *const *head)
{
	struct table *t = &tables[ntables++];
	memset(t, 0, sizeof *t);
	snprintf(t->title, sizeof t->title, "%s", title);
	t->ncols = ncols;
	for (int c = 0; c < ncols; c++)
		snprintf(t->cell[0][c], sizeof t->cell[0][c], "%s", head[c]);
	t->nrows = 1;
	return t;
}

static char (*table_row(struct table *t))[CELL]
{
	return t->cell[t->nrows++];
}

static void fmt_num(char *buf, size_t len, double v)
{
	double a = fabs(v);
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.2f", v);
	else if (a >= 0.01 || a == 0)
		snprintf(buf, len, "%.3f", v);
	else
		snprintf(buf, len, "%.2g", v);
}

static void fmt_result(char *buf, size_t len, const struct result *r)
{
	if (!r) {
		snprintf(buf, len, "-");
		return;
	}
	char a[20], b[20], c[20];
	fmt_num(a, sizeof a, r->med);
	fmt_num(b, sizeof b, r->min);
	fmt_num(c, sizeof c, r->max);
	snprintf(buf, len, "%s (%s-%s)", a, b, c);
}

static void fmt_ratio(char *buf, size_t len, const struct result *x, const struct result *y)
{
	if (!x || !y || y->med == 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", x->med / y->med);
}

/*
 * One measurement: rows qsbr/memb/mb/bp with ours, liburcu and our ratio (and our ratio to the
 * floor when asked), then one row per other peer that has the metric.
 */
static void table_metric(const char *metric, const char *title, bool with_floor)
{
	const struct result *any = NULL;
	for (int i = 0; i < nresults && !any; i++)
		if (!strcmp(results[i].metric, metric))
			any = &results[i];
	if (!any)
		return;
	char full[200];
	snprintf(full, sizeof full, "%s [%s; median (min-max) of %d]", title, any->unit, any->runs);
	const char *head[] = { "flavour", "ours", "liburcu", "ours/liburcu", "ours/floor" };
	struct table *t = table_new(full, with_floor ? 5 : 4, head);
	const struct result *fl = lookup(metric, "floor", "");
	for (int f = 0; f < 4; f++) {
		const struct result *o = lookup(metric, "ours", flavours[f]);
		const struct result *u = lookup(metric, "liburcu", flavours[f]);
		if (!o && !u)
			continue;
		char (*row)[CELL] = table_row(t);
		snprintf(row[0], CELL, "%s", flavours[f]);
		fmt_result(row[1], CELL, o);
		fmt_result(row[2], CELL, u);
		fmt_ratio(row[3], CELL, o, u);
		if (with_floor)
			fmt_ratio(row[4], CELL, o, fl);
	}
	const char *others[] = { "ck_epoch", "rwlock", "floor" };
	for (int k = 0; k < 3; k++) {
		const struct result *r = lookup(metric, others[k], "");
		if (!r)
			continue;
		char (*row)[CELL] = table_row(t);
		snprintf(row[0], CELL, "%s", others[k]);
		fmt_result(row[1], CELL, r);
		snprintf(row[2], CELL, "%s", "");
		snprintf(row[3], CELL, "%s", "");
	}
}

static void table_scale(void)
{
	if (!lookup("scale_t1", "floor", ""))
		return;
	char title[200];
	snprintf(title, sizeof title,
		"reader scaling [total Mreads/s by reader threads, median of %d; %d CPUs]", opt.runs,
		opt.cpus);
	const char *head[TCOLS] = { "implementation" };
	static char names[TCOLS][16];
	int ncols = 1;
	for (int th = 1; th <= opt.max_threads && ncols < TCOLS - 1; th++) {
		snprintf(names[ncols], sizeof names[ncols], "%d", th);
		head[ncols] = names[ncols];
		ncols++;
	}
	head[ncols++] = "2t/1t";
	struct table *t = table_new(title, ncols, head);
	for (size_t i = 0; i < NIMPLS; i++) {
		char (*row)[CELL] = table_row(t);
		impl_id(row[0], CELL, "", impls[i]);
		const struct result *r1 = NULL, *r2 = NULL;
		for (int c = 1; c < ncols - 1; c++) {
			char metric[32];
			snprintf(metric, sizeof metric, "scale_t%d", c);
			const struct result *r = lookup(metric, impls[i]->name, impls[i]->flavour);
			if (c == 1)
				r1 = r;
			if (c == 2)
				r2 = r;
			if (r)
				fmt_num(row[c], CELL, r->med);
			else
				snprintf(row[c], CELL, "-");
		}
		fmt_ratio(row[ncols - 1], CELL, r2, r1);
	}
}

static void table_map(void)
{
	if (!lookup("map_lookups", "rwlock_map", ""))
		return;
	char title[200];
	snprintf(title, sizeof title,
		"read-mostly map, %d keys, %d readers + 1 updater replacing values [median (min-max) of %d]",
		MAP_KEYS, MAP_READERS, opt.runs);
	const char *head[] = { "map", "Mlookups/s", "k updates/s", "lookups vs rwlock_map" };
	struct table *t = table_new(title, 4, head);
	const struct result *base = lookup("map_lookups", "rwlock_map", "");
	for (size_t i = 0; i < NMAPIMPLS; i++) {
		const struct result *l = lookup("map_lookups", map_impls[i]->name, map_impls[i]->flavour);
		const struct result *u = lookup("map_updates", map_impls[i]->name, map_impls[i]->flavour);
		if (!l)
			continue;
		char (*row)[CELL] = table_row(t);
		snprintf(row[0], CELL, "%s%s%s", map_impls[i]->name, map_impls[i]->flavour[0] ? "-" : "",
			map_impls[i]->flavour);
		fmt_result(row[1], CELL, l);
		fmt_result(row[2], CELL, u);
		fmt_ratio(row[3], CELL, l, base);
	}
}

/* ------------------------------------------------------------------ targets */

struct target {
	char what[120];
	double value, limit;
	bool below; /* met when value <= limit (else value >= limit) */
	bool known;
};

static struct target targets[32];
static int ntargets;

static void target(const char *what, const struct result *x, const struct result *y, double limit,
	bool below)
{
	struct target *t = &targets[ntargets++];
	snprintf(t->what, sizeof t->what, "%s", what);
	t->limit = limit;
	t->below = below;
	t->known = x && y && y->med != 0;
	t->value = t->known ? x->med / y->med : NAN;
}

static void evaluate_targets(void)
{
	const struct result *fl = lookup("read_ns", "floor", "");
	target("QSBR read side / floor <= 1.05", lookup("read_ns", "ours", "qsbr"), fl, 1.05, true);
	for (int f = 1; f < 4; f++) {
		char what[120];
		const struct result *o = lookup("read_ns", "ours", flavours[f]);
		snprintf(what, sizeof what, "%s read side / liburcu %s <= 0.5", flavours[f], flavours[f]);
		target(what, o, lookup("read_ns", "liburcu", flavours[f]), 0.5, true);
		if (f != 2) {
			snprintf(what, sizeof what, "%s read side / floor <= 2", flavours[f]);
			target(what, o, fl, 2.0, true);
		}
	}
	for (int f = 0; f < 4; f++) {
		char what[120];
		snprintf(what, sizeof what, "%s synchronize_rcu() no readers / liburcu <= 1", flavours[f]);
		target(what, lookup("sync_idle", "ours", flavours[f]),
			lookup("sync_idle", "liburcu", flavours[f]), 1.0, true);
	}
	for (int f = 0; f < 4; f++) {
		char what[120];
		snprintf(what, sizeof what, "%s GPs/s under readers / liburcu >= 1", flavours[f]);
		target(what, lookup("upd_gps", "ours", flavours[f]),
			lookup("upd_gps", "liburcu", flavours[f]), 1.0, false);
	}
	for (int f = 0; f < 4; f++) {
		char what[120];
		snprintf(what, sizeof what, "%s call_rcu+rcu_barrier per callback / liburcu <= 0.5",
			flavours[f]);
		target(what, lookup("cb_total", "ours", flavours[f]),
			lookup("cb_total", "liburcu", flavours[f]), 0.5, true);
	}
	for (int f = 0; f < 4; f++) {
		char what[120];
		snprintf(what, sizeof what, "%s 2 reader threads / 1 thread >= 1.9", flavours[f]);
		target(what, lookup("scale_t2", "ours", flavours[f]),
			lookup("scale_t1", "ours", flavours[f]), 1.9, false);
	}
}

static bool target_met(const struct target *t)
{
	return t->known && (t->below ? t->value <= t->limit : t->value >= t->limit);
}

/* ------------------------------------------------------------------ output */

static void render_text(FILE *f, const struct table *t)
{
	int w[TCOLS] = { 0 };
	for (int r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++) {
			int l = (int)strlen(t->cell[r][c]);
			if (l > w[c])
				w[c] = l;
		}
	fprintf(f, "\n%s\n", t->title);
	for (int r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++)
			fprintf(f, c ? "  %-*s" : "  %-*s", w[c], t->cell[r][c]);
		fputc('\n', f);
	}
}

static void render_md(FILE *f, const struct table *t)
{
	fprintf(f, "\n**%s**\n\n", t->title);
	for (int r = 0; r < t->nrows; r++) {
		fputc('|', f);
		for (int c = 0; c < t->ncols; c++)
			fprintf(f, " %s |", t->cell[r][c]);
		fputc('\n', f);
		if (r == 0) {
			fputc('|', f);
			for (int c = 0; c < t->ncols; c++)
				fputs(c ? " ---: |" : " --- |", f);
			fputc('\n', f);
		}
	}
}

static void render_targets(FILE *f, bool md)
{
	if (!ntargets)
		return;
	fprintf(f, md ? "\n**targets (ratios of medians in this run)**\n\n| target | ratio | |\n| --- | ---: | --- |\n"
		: "\ntargets (ratios of medians in this run)\n");
	for (int i = 0; i < ntargets; i++) {
		const struct target *t = &targets[i];
		char v[16];
		fmt_num(v, sizeof v, t->value);
		const char *s = !t->known ? "not measured" : target_met(t) ? "met" : "MISSED";
		if (md)
			fprintf(f, "| %s | %s | %s |\n", t->what, v, s);
		else
			fprintf(f, "  %-58s %6s  %s\n", t->what, v, s);
	}
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

static double load_start, load_end;

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void json_num(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else
		fprintf(f, "%.6g", v);
}

static FILE *open_out(const char *name, char *path, size_t len)
{
	if (mkdir(opt.out, 0777) != 0 && errno != EEXIST)
		fprintf(stderr, "rcu-bench: cannot make %s: %s\n", opt.out, strerror(errno));
	snprintf(path, len, "%s/%s", opt.out, name);
	FILE *f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "rcu-bench: cannot write %s: %s\n", path, strerror(errno));
	return f;
}

static void write_outputs(const char *date, const char *cpu, double secs)
{
	char path[PATH_MAX + 32];
	FILE *f = open_out("rcu-bench.csv", path, sizeof path);
	if (f) {
		fprintf(f, "metric,impl,flavour,unit,median,min,max,runs\n");
		for (int i = 0; i < nresults; i++) {
			const struct result *r = &results[i];
			fprintf(f, "%s,%s,%s,%s,%.6g,%.6g,%.6g,%d\n", r->metric, r->name, r->flavour,
				r->unit, r->med, r->min, r->max, r->runs);
		}
		fclose(f);
		fprintf(stderr, "wrote %s\n", path);
	}
	f = open_out("rcu-bench.json", path, sizeof path);
	if (f) {
		fprintf(f, "{\n  \"date\": ");
		json_str(f, date);
		fprintf(f, ",\n  \"machine\": ");
		json_str(f, cpu);
		fprintf(f, ",\n  \"cpus\": %d,\n  \"command\": ", opt.cpus);
		json_str(f, opt.command);
		fprintf(f, ",\n  \"runs\": %d,\n  \"window_ms\": %g,\n  \"callbacks\": %zu,\n"
			"  \"seconds\": %.1f,\n  \"load_start\": %.2f,\n  \"load_end\": %.2f,\n"
			"  \"results\": [\n", opt.runs, opt.window_ms, opt.callbacks, secs, load_start,
			load_end);
		for (int i = 0; i < nresults; i++) {
			const struct result *r = &results[i];
			fprintf(f, "    {\"metric\": \"%s\", \"impl\": \"%s\", \"flavour\": \"%s\", "
				"\"unit\": \"%s\", \"median\": ", r->metric, r->name, r->flavour, r->unit);
			json_num(f, r->med);
			fputs(", \"min\": ", f);
			json_num(f, r->min);
			fputs(", \"max\": ", f);
			json_num(f, r->max);
			fprintf(f, ", \"runs\": %d}%s\n", r->runs, i + 1 < nresults ? "," : "");
		}
		fprintf(f, "  ],\n  \"targets\": [\n");
		for (int i = 0; i < ntargets; i++) {
			const struct target *t = &targets[i];
			fputs("    {\"target\": ", f);
			json_str(f, t->what);
			fputs(", \"ratio\": ", f);
			json_num(f, t->value);
			fputs(", \"limit\": ", f);
			json_num(f, t->limit);
			fprintf(f, ", \"met\": %s}%s\n", !t->known ? "null" : target_met(t) ? "true" : "false",
				i + 1 < ntargets ? "," : "");
		}
		fprintf(f, "  ]\n}\n");
		fclose(f);
		fprintf(stderr, "wrote %s\n", path);
	}
	f = open_out("rcu-bench.md", path, sizeof path);
	if (f) {
		fprintf(f, "Measured %s on %s (%d CPUs) with `%s` (%.0f s; 1-minute load average "
			"%.2f at the start, %.2f at the end).\n", date, cpu, opt.cpus, opt.command, secs,
			load_start, load_end);
		for (int i = 0; i < ntables; i++)
			render_md(f, &tables[i]);
		render_targets(f, true);
		fclose(f);
		fprintf(stderr, "wrote %s\n", path);
	}
}

/* ------------------------------------------------------------------ main */

__attribute__((noinline)) uint64_t bench_insn_measure(const struct bench_impl *im, uint64_t n);
__attribute__((noinline)) uint64_t bench_insn_measure(const struct bench_impl *im, uint64_t n)
{
	return im->read_loop(n);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: rcu-bench [--quick] [--runs N] [--window-ms MS] [--callbacks N] [--only LIST]\n"
		"                 [--impl IDS] [--no-pin] [--out DIR]\n"
		"       rcu-bench --list | --insn ID N\n"
		"LIST: comma-separated of read so scale update sync sync4 callrcu rss map\n");
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
	cpu_set_t allowed;
	if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
		for (int c = 0; c < CPU_SETSIZE && opt.ncpu_set < 256; c++)
			if (CPU_ISSET(c, &allowed))
				opt.cpu_set[opt.ncpu_set++] = c;

	size_t cl = 0;
	for (int i = 0; i < argc && cl < sizeof opt.command - 2; i++)
		cl += (size_t)snprintf(opt.command + cl, sizeof opt.command - cl, "%s%s", i ? " " : "",
			argv[i]);

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--list")) {
			char id[64];
			for (size_t k = 0; k < NIMPLS; k++) {
				impl_id(id, sizeof id, "", impls[k]);
				printf("%s\n", id);
			}
			for (size_t k = 0; k < NSOIMPLS; k++) {
				impl_id(id, sizeof id, "so:", so_impls[k]);
				printf("%s\n", id);
			}
			return 0;
		} else if (!strcmp(a, "--insn") && i + 2 < argc) {
			const struct bench_impl *im = find_impl(argv[i + 1]);
			uint64_t n = strtoull(argv[i + 2], NULL, 10);
			if (!im)
				usage();
			im->setup();
			im->thread_init();
			bench_sink += im->read_loop(1000); /* first use: BP registers, TLS is set up */
			bench_sink += bench_insn_measure(im, n);
			im->thread_fini();
			return 0;
		} else if (!strncmp(a, "--rss-child", 11) && i + 2 < argc) {
			return rss_child(argv[i + 1], strtoull(argv[i + 2], NULL, 10),
				!strcmp(a, "--rss-child-held"));
		} else if (!strcmp(a, "--no-pin")) {
			opt.pin = false;
		} else if (!strcmp(a, "--quick")) {
			opt.quick = true;
		} else if (!strcmp(a, "--runs") && i + 1 < argc) {
			opt.runs = atoi(argv[++i]);
		} else if (!strcmp(a, "--window-ms") && i + 1 < argc) {
			opt.window_ms = atof(argv[++i]);
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
		bool runs_given = false, window_given = false;
		for (int i = 1; i < argc; i++) {
			runs_given |= !strcmp(argv[i], "--runs");
			window_given |= !strcmp(argv[i], "--window-ms");
		}
		if (!window_given)
			opt.window_ms = 25;
		if (!runs_given)
			opt.runs = 5;
		opt.rss_runs = 3;
	}
	if (opt.runs < 1 || opt.runs > MAX_RUNS || opt.window_ms <= 0 || opt.callbacks < 1)
		usage();
	opt.readers = opt.cpus > 1 ? opt.cpus - 1 : 1;
	opt.max_threads = 2 * opt.cpus;
	if (opt.max_threads > 8)
		opt.max_threads = 8;

	for (size_t i = 0; i < NIMPLS; i++)
		impls[i]->setup();
	for (size_t i = 0; i < NSOIMPLS; i++)
		so_impls[i]->setup();

	char date[64], cpu[160];
	time_t now = time(NULL);
	strftime(date, sizeof date, "%Y-%m-%d %H:%M %Z", localtime(&now));
	machine(cpu, sizeof cpu);
	if (isatty(2))
		fprintf(stderr, "rcu-bench: %s, %d CPUs, %d runs of %g ms, %zu callbacks\n", cpu,
			opt.cpus, opt.runs, opt.window_ms, opt.callbacks);
	uint64_t t0 = bench_now_ns();
	load_start = loadavg();

	if (section_on("read"))
		bench_read_single("read_ns", impls, NIMPLS);
	if (section_on("so"))
		bench_read_single("read_so_ns", so_impls, NSOIMPLS);
	if (section_on("scale"))
		bench_scale();
	if (section_on("update"))
		bench_update();
	if (section_on("sync"))
		bench_sync();
	if (section_on("sync4"))
		bench_sync4();
	if (section_on("callrcu"))
		bench_callrcu();
	if (section_on("rss"))
		bench_rss();
	if (section_on("map"))
		bench_map();
	double secs = (double)(bench_now_ns() - t0) / 1e9;
	load_end = loadavg();

	char title[200];
	table_metric("read_ns", "read side, 1 thread: lock + dereference + field + unlock", true);
	table_metric("read_so_ns", "read side, 1 thread, loop inside a -fPIC shared object", true);
	table_scale();
	snprintf(title, sizeof title, "%d reader thread(s) against 1 updater: reads", opt.readers);
	table_metric("upd_reads", title, false);
	snprintf(title, sizeof title,
		"%d reader thread(s) against 1 updater: updates (replace, synchronize, free) per second",
		opt.readers);
	table_metric("upd_gps", title, false);
	table_metric("sync_idle", "synchronize_rcu() latency, no readers", false);
	snprintf(title, sizeof title, "synchronize_rcu() latency, %d reader thread(s) in short sections",
		opt.readers);
	table_metric("sync_short", title, false);
	table_metric("sync_long",
		"synchronize_rcu() latency, 1 reader in back-to-back 1 ms sections (calls that began inside one)",
		false);
	table_metric("sync_wake", "of which: from the reader's unlock to synchronize_rcu()'s return", false);
	table_metric("sync4_calls", "4 overlapping synchronize_rcu() callers: calls", false);
	table_metric("sync4_gp_per_call", "4 overlapping synchronize_rcu() callers: grace periods per call",
		false);
	table_metric("sync4_worst", "4 overlapping synchronize_rcu() callers: the longest call", false);
	table_metric("sync4h_calls",
		"4 overlapping synchronize_rcu() callers and 1 reader in 1 ms sections: calls", false);
	table_metric("sync4h_gp_per_call",
		"4 overlapping synchronize_rcu() callers and 1 reader in 1 ms sections: grace periods per call",
		false);
	table_metric("sync4h_worst",
		"4 overlapping synchronize_rcu() callers and 1 reader in 1 ms sections: the longest call",
		false);
	snprintf(title, sizeof title, "call_rcu() + rcu_barrier(), %zu callbacks: per callback, total",
		opt.callbacks);
	table_metric("cb_total", title, false);
	table_metric("cb_enqueue", "call_rcu() alone: per callback", false);
	table_metric("cb_barrier", "rcu_barrier() after the call_rcu()s", false);
	table_metric("cb_gps", "grace periods per 10^6 callbacks", false);
	snprintf(title, sizeof title,
		"peak RSS growth, %zu x (malloc(head + %d bytes) + call_rcu(free)) from one thread, no readers",
		opt.callbacks, RSS_NODE_BYTES);
	table_metric("rss_peak", title, false);
	table_metric("rss_pending_max", "most callbacks pending at once during it", false);
	snprintf(title, sizeof title,
		"peak RSS growth, the same %zu queued inside one read-side section (all pending at once)",
		opt.callbacks);
	table_metric("rss_held", title, false);
	table_map();
	evaluate_targets();

	printf("rcu-bench: %s, %d CPUs, %s; %d runs of %g ms each; %.0f s; load average %.2f -> %.2f\n",
		cpu, opt.cpus, date, opt.runs, opt.window_ms, secs, load_start, load_end);
	for (int i = 0; i < ntables; i++)
		render_text(stdout, &tables[i]);
	render_targets(stdout, false);
	fflush(stdout);
	write_outputs(date, cpu, secs);
	return 0;
}
