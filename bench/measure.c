/* SPDX-License-Identifier: 0BSD */
/*
 * bench/measure.c: every measurement of one implementation (see bench/measure.h). Linked into
 * each server executable; it calls the implementation only through struct bench_impl.
 *
 * Contents
 *   >>threads        a crew of worker threads with roles, started together and stopped together
 *   >>read           read side, one thread                                       (read)
 *   >>scale          reader scaling                                              (scale)
 *   >>update         readers against 1..N updaters: replace + synchronize + free (update)
 *   >>sync           synchronize_rcu() latency, alone, with short readers (percentiles), with a
 *                    long reader; overlapping callers                   (sync_idle sync_short ...)
 *   >>callbacks      call_rcu + rcu_barrier; call_rcu at full rate with readers; peak RSS
 *   >>domains        a domain's grace periods while another domain's readers sleep (isolation);
 *                    the read side and synchronize of a domain are read and sync_idle, domain=1
 *   >>map            the read-mostly map
 *   >>table          the command table the server looks measurements up in
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "measure.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile uint64_t bench_sink; /* every read loop's sum ends here, so no loop is dead */

/* >>threads ----------------------------------------------------------------------------------- */

static struct {
	bool pin;
	int ncpu;
	int *cpu; /* the allowed CPUs, in order */
} where;

void measure_set_pinning(bool pin)
{
	cpu_set_t allowed;
	where.pin = pin;
	where.ncpu = 0;
	free(where.cpu);
	where.cpu = NULL;
	if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
		return;
	where.cpu = calloc((size_t)CPU_COUNT(&allowed) + 1, sizeof *where.cpu);
	if (!where.cpu)
		return;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed))
			where.cpu[where.ncpu++] = c;
}

enum role {
	ROLE_READ,       /* read_loop(BENCH_CHUNK) until stopped */
	ROLE_UPDATE,     /* update() until stopped */
	ROLE_SYNC,       /* synchronize() until stopped; each call's latency (max; samples if kept) */
	ROLE_HOLD,       /* read_hold(BENCH_HOLD_NS) until stopped */
	ROLE_SYNC_HOLD,  /* synchronize() until stopped, timing the calls that began in a long section */
	ROLE_PRODUCE,    /* call_malloc(BENCH_CHUNK, ...) until stopped, sampling the pending count */
	ROLE_MAP_READ,
	ROLE_MAP_UPDATE,
	ROLE_NAP,        /* nap(crew's nap_ns, crew's nap_inside) until stopped */
};

struct crew;

struct worker {
	pthread_t tid;
	struct crew *crew;
	enum role role;
	uint64_t ops;
	uint64_t t_start, t_end;
	uint64_t cpu_ns;           /* the thread's CPU time over the run (not while preempted) */
	uint64_t lat_sum, lat_n;   /* ROLE_SYNC_HOLD: calls that began inside the long section */
	uint64_t wake_sum, wake_n; /* and of those, the time from the section's end to the return */
	uint64_t lat_max;          /* ROLE_SYNC: the longest call */
	uint32_t *lat;             /* ROLE_SYNC: every call's latency in ns, when lat_cap > 0 */
	size_t lat_cap, lat_len;
	uint64_t pending_max;      /* ROLE_PRODUCE: most callbacks seen queued and not yet run */
};

struct crew {
	const struct bench_impl *im;
	const struct bench_map_impl *mp;
	pthread_barrier_t go;
	atomic_int stop;
	struct bench_hold hold;
	_Atomic uint64_t queued; /* ROLE_PRODUCE: callbacks queued by all producers so far */
	uint64_t done0;          /* malloc_done() when the crew was made */
	bool domain;             /* ROLE_READ and ROLE_SYNC use the implementation's own domain */
	uint64_t nap_ns;         /* ROLE_NAP */
	bool nap_inside;
	int n, cap;
	struct worker *w;
};

static void die(const char *what)
{
	fprintf(stderr, "rcu-bench server: %s: %s\n", what, strerror(errno));
	exit(1);
}

static struct crew *crew_new(const struct bench_impl *im, const struct bench_map_impl *mp)
{
	struct crew *c = calloc(1, sizeof *c);
	if (!c)
		die("calloc");
	c->im = im;
	c->mp = mp;
	if (im && im->malloc_done)
		c->done0 = im->malloc_done();
	return c;
}

static struct worker *crew_add(struct crew *c, enum role role)
{
	if (c->n == c->cap) {
		int cap = c->cap ? 2 * c->cap : 8;
		struct worker *w = realloc(c->w, (size_t)cap * sizeof *w);
		if (!w)
			die("realloc");
		c->w = w;
		c->cap = cap;
	}
	struct worker *w = &c->w[c->n++];
	memset(w, 0, sizeof *w);
	w->role = role;
	return w;
}

static void crew_free(struct crew *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->w[i].lat);
	free(c->w);
	free(c);
}

static bool crew_stopped(struct crew *c)
{
	return atomic_load_explicit(&c->stop, memory_order_relaxed) != 0;
}

static void worker_sync_sample(struct worker *w, uint64_t d)
{
	if (d > w->lat_max)
		w->lat_max = d;
	if (w->lat_len < w->lat_cap)
		w->lat[w->lat_len++] = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct crew *c = w->crew;
	const struct bench_impl *im = c->im;
	const struct bench_map_impl *mp = c->mp;
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
	uint64_t cpu0 = thread_cpu_ns();
	uint64_t (*read_loop)(uint64_t) = im && c->domain ? im->domain_read_loop : im ? im->read_loop : NULL;
	void (*synchronize)(void) = im && c->domain ? im->domain_synchronize : im ? im->synchronize : NULL;
	w->t_start = bench_now_ns();
	switch (w->role) {
	case ROLE_READ:
		while (!crew_stopped(c)) {
			bench_sink += read_loop(BENCH_CHUNK);
			ops += BENCH_CHUNK;
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
			synchronize();
			worker_sync_sample(w, bench_now_ns() - a);
			ops++;
		}
		break;
	case ROLE_NAP:
		while (!crew_stopped(c)) {
			im->nap(c->nap_ns, c->nap_inside);
			ops++;
		}
		break;
	case ROLE_HOLD:
		while (!crew_stopped(c)) {
			im->read_hold(BENCH_HOLD_NS, &c->hold);
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
	case ROLE_PRODUCE:
		while (!crew_stopped(c)) {
			im->call_malloc(BENCH_CHUNK, BENCH_NODE_BYTES, false);
			ops += BENCH_CHUNK;
			uint64_t q = atomic_fetch_add_explicit(&c->queued, BENCH_CHUNK, memory_order_relaxed) +
				BENCH_CHUNK;
			uint64_t done = im->malloc_done() - c->done0;
			if (q > done && q - done > w->pending_max)
				w->pending_max = q - done;
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
	w->cpu_ns = thread_cpu_ns() - cpu0;
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

/* Start every worker together, let them run for ms, stop them and wait for them to end. */
static void crew_run(struct crew *c, double ms)
{
	atomic_store(&c->stop, 0);
	atomic_store(&c->hold.inside, 0);
	atomic_store(&c->hold.exit_ns, 0);
	if (pthread_barrier_init(&c->go, NULL, (unsigned)c->n + 1) != 0)
		die("pthread_barrier_init");
	for (int i = 0; i < c->n; i++) {
		pthread_attr_t attr;
		pthread_attr_init(&attr);
		if (where.pin && where.ncpu > 0) {
			cpu_set_t set;
			CPU_ZERO(&set);
			CPU_SET(where.cpu[i % where.ncpu], &set);
			pthread_attr_setaffinity_np(&attr, sizeof set, &set);
		}
		c->w[i].crew = c;
		if (pthread_create(&c->w[i].tid, &attr, worker_main, &c->w[i]) != 0)
			die("pthread_create");
		pthread_attr_destroy(&attr);
	}
	pthread_barrier_wait(&c->go);
	sleep_ms(ms);
	atomic_store(&c->stop, 1);
	for (int i = 0; i < c->n; i++)
		pthread_join(c->w[i].tid, NULL);
	pthread_barrier_destroy(&c->go);
}

/* Operations per second of the workers of one role, each over its own time. */
static double crew_rate(const struct crew *c, enum role role)
{
	double rate = 0;
	for (int i = 0; i < c->n; i++) {
		const struct worker *w = &c->w[i];
		if (w->role == role && w->t_end > w->t_start)
			rate += (double)w->ops * 1e9 / (double)(w->t_end - w->t_start);
	}
	return rate;
}

/* The CPU time of the workers of one role per operation, in ns: what an operation costs the
 * threads doing it, whatever share of the CPUs other processes left them. */
static double crew_cpu_per_op(const struct crew *c, enum role role)
{
	uint64_t cpu = 0, ops = 0;
	for (int i = 0; i < c->n; i++)
		if (c->w[i].role == role) {
			cpu += c->w[i].cpu_ns;
			ops += c->w[i].ops;
		}
	return ops ? (double)cpu / (double)ops : NAN;
}

static uint64_t crew_ops(const struct crew *c, enum role role)
{
	uint64_t n = 0;
	for (int i = 0; i < c->n; i++)
		if (c->w[i].role == role)
			n += c->w[i].ops;
	return n;
}

/* Run fn(arg) in a fresh thread and wait for it (a measurement never runs in the main thread). */
static void in_thread(void *(*fn)(void *), void *arg)
{
	pthread_t t;
	if (pthread_create(&t, NULL, fn, arg) != 0)
		die("pthread_create");
	pthread_join(t, NULL);
}

static double param(const struct figures *in, const char *key, double dflt)
{
	return figures_get(in, key, dflt);
}

static int param_count(const struct figures *in, const char *key, int dflt, int max)
{
	double v = param(in, key, dflt);
	if (!(v >= 0))
		return dflt;
	return v > max ? max : (int)v;
}

/* >>read -------------------------------------------------------------------------------------- */

struct read_args {
	const struct bench_impl *im;
	uint64_t (*loop)(uint64_t n); /* read_loop, or domain_read_loop */
	double ms;
	uint64_t ns, ops;
};

static void *read_main(void *arg)
{
	struct read_args *a = arg;
	const struct bench_impl *im = a->im;
	uint64_t (*loop)(uint64_t) = a->loop;
	im->thread_init();
	bench_sink += loop(10000); /* warm up (BP registers here, a domain's slot is taken here) */
	/* Look at the clock about every 50 us, so that reading it costs nothing measurable. */
	uint64_t t0 = bench_now_ns();
	bench_sink += loop(8 * BENCH_CHUNK);
	uint64_t per_chunk = (bench_now_ns() - t0) / 8 + 1;
	uint64_t k = 50000 / per_chunk + 1, ops = 0, limit = (uint64_t)(a->ms * 1e6), t;
	uint64_t start = bench_now_ns();
	do {
		for (uint64_t i = 0; i < k; i++)
			bench_sink += loop(BENCH_CHUNK);
		ops += k * BENCH_CHUNK;
		t = bench_now_ns();
	} while (t - start < limit);
	a->ns = t - start;
	a->ops = ops;
	im->thread_fini();
	return NULL;
}

/* read ms=M domain=0|1: read sections (domain=1: of the implementation's own domain, BENCH_DOMAIN)
 * for about M ms in one fresh thread -> ns (total), ops (sections). */
static bool m_read(const struct bench_impl *im, const struct figures *in, struct figures *out)
{
	bool domain = param(in, "domain", 0) != 0;
	if (domain && !(im->caps & BENCH_DOMAIN))
		return false;
	struct read_args a = { .im = im, .loop = domain ? im->domain_read_loop : im->read_loop, .ms = param(in, "ms", 10) };
	in_thread(read_main, &a);
	figures_set(out, "ns", (double)a.ns);
	figures_set(out, "ops", (double)a.ops);
	return true;
}

/* >>scale ------------------------------------------------------------------------------------- */

/* scale threads=T ms=W: T reader threads -> mreads (total million sections per second). */
static bool m_scale(const struct bench_impl *im, const struct figures *in, struct figures *out)
{
	struct crew *c = crew_new(im, NULL);
	int t = param_count(in, "threads", 1, 1024);
	for (int k = 0; k < t; k++)
		crew_add(c, ROLE_READ);
	crew_run(c, param(in, "ms", 100));
	figures_set(out, "mreads", crew_rate(c, ROLE_READ) / 1e6);
	crew_free(c);
	return true;
}

/* >>update ------------------------------------------------------------------------------------ */

/*
 * update readers=R updaters=U ms=W: R readers and U updaters, each updater replacing the
 * published node, waiting (synchronize_rcu) and freeing the old one in a loop -> mreads (readers'
 * total), kups (updates per second, all updaters; with one updater, grace periods per second),
 * gpu (grace periods per update, where the library counts them), ucpu (the updaters' CPU time per
 * update, us), rcpu (the readers' CPU time per section, ns).
 */
static bool m_update(const struct bench_impl *im, const struct figures *in, struct figures *out)
{
	if (!(im->caps & BENCH_UPDATE))
		return false;
	struct crew *c = crew_new(im, NULL);
	int readers = param_count(in, "readers", 1, 1024), updaters = param_count(in, "updaters", 1, 1024);
	for (int k = 0; k < readers; k++)
		crew_add(c, ROLE_READ);
	for (int k = 0; k < updaters; k++)
		crew_add(c, ROLE_UPDATE);
	uint64_t gp0 = im->grace_periods ? im->grace_periods() : 0;
	crew_run(c, param(in, "ms", 100));
	uint64_t gp1 = im->grace_periods ? im->grace_periods() : 0;
	uint64_t ups = crew_ops(c, ROLE_UPDATE);
	figures_set(out, "mreads", readers ? crew_rate(c, ROLE_READ) / 1e6 : NAN);
	figures_set(out, "kups", crew_rate(c, ROLE_UPDATE) / 1e3);
	figures_set(out, "gpu", (im->caps & BENCH_GP_COUNT) && ups ? (double)(gp1 - gp0) / (double)ups : NAN);
	figures_set(out, "ucpu", crew_cpu_per_op(c, ROLE_UPDATE) / 1e3);
	figures_set(out, "rcpu", crew_cpu_per_op(c, ROLE_READ));
	crew_free(c);
	return true;
}

/* >>sync -------------------------------------------------------------------------------------- */

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* The q-quantile (0 < q <= 1) of n sorted samples: the smallest sample with at least q*n at or
 * below it. */
static double quantile(const uint32_t *v, size_t n, double q)
{
	if (n == 0)
		return NAN;
	size_t i = (size_t)ceil(q * (double)n);
	return v[i ? i - 1 : 0];
}

/* sync_idle ms=W domain=0|1: one thread calling synchronize_rcu() (domain=1: the implementation's
 * own domain's synchronize, BENCH_DOMAIN) with no reader -> us (mean per call), max, cpu (the
 * caller's CPU time per call, us). */
static bool m_sync_idle(const struct bench_impl *im, const struct figures *in, struct figures *out)
{
	bool domain = param(in, "domain", 0) != 0;
	if (!(im->caps & BENCH_SYNC) || (domain && !(im->caps & BENCH_DOMAIN)))
		return false;
	struct crew *c = crew_new(im, NULL);
	c->domain = domain;
	crew_add(c, ROLE_SYNC);
	crew_run(c, param(in, "ms", 100));
	const struct worker *w = &c->w[0];
	figures_set(out, "us", w->ops ? (double)(w->t_end - w->t_start) / (double)w->ops / 1e3 : NAN);
	figures_set(out, "max", (double)w->lat_max / 1e3);
	figures_set(out, "cpu", crew_cpu_per_op(c, ROLE_SYNC) / 1e3);
	crew_free(c);
	return true;
}

/*
 * sync_short readers=R ms=W domain=0|1: one synchronize_rcu() caller against R readers in
 * back-to-back short sections (domain=1: the implementation's own domain's synchronize and
 * sections, BENCH_DOMAIN) -> us (mean per call), p50, p99, max (microseconds, over every call of
 * the run), cpu (the caller's CPU time per call, us), calls.
 */
static bool m_sync_short(const struct bench_impl *im, const struct figures *in, struct figures *out)
{
	bool domain = param(in, "domain", 0) != 0;
	if (!(im->caps & BENCH_SYNC) || (domain && !(im->caps & BENCH_DOMAIN)))
		return false;
	double ms = param(in, "ms", 100);
	struct crew *c = crew_new(im, NULL);
	c->domain = domain;
	int readers = param_count(in, "readers", 1, 1024);
	for (int k = 0; k < readers; k++)
		crew_add(c, ROLE_READ);
	struct worker *s = crew_add(c, ROLE_SYNC);
	/* Room for one call every 50 ns of the window, at most 4 M samples (16 MiB). */
	double cap = ms * 1e6 / 50;
	s->lat_cap = cap > (double)(4u << 20) ? (size_t)4u << 20 : (size_t)cap + 16;
	s->lat = malloc(s->lat_cap * sizeof *s->lat);
	if (!s->lat)
		die("malloc");
	memset(s->lat, 0, s->lat_cap * sizeof *s->lat); /* fault the pages in untimed */
	crew_run(c, ms);
	s = &c->w[c->n - 1];
	qsort(s->lat, s->lat_len, sizeof *s->lat, cmp_u32);
	figures_set(out, "us", s->ops ? (double)(s->t_end - s->t_start) / (double)s->ops / 1e3 : NAN);
	figures_set(out, "p50", quantile(s->lat, s->lat_len, 0.50) / 1e3);
	figures_set(out, "p99", quantile(s->lat, s->lat_len, 0.99) / 1e3);
	figures_set(out, "max", (double)s->lat_max / 1e3);
	figures_set(out, "calls", (double)s->ops);
	figures_set(out, "cpu", crew_cpu_per_op(c, ROLE_SYNC) / 1e3);
	crew_free(c);
	return true;
}

/*
 * sync_long ms=W: one caller against one reader in back-to-back 1 ms sections -> us (mean latency
 * of the calls that began inside a section), wake (of those, mean time from the reader's unlock to
 * the call's return).
 */
static bool m_sync_long(const struct bench_impl *im, const struct figures *in, struct figures *out)
{
	if (!(im->caps & BENCH_SYNC))
		return false;
	struct crew *c = crew_new(im, NULL);
	crew_add(c, ROLE_SYNC_HOLD);
	crew_add(c, ROLE_HOLD);
	double ms = param(in, "ms", 100);
	crew_run(c, ms < 20 ? 20 : ms);
	const struct worker *w = &c->w[0];
	figures_set(out, "us", w->lat_n ? (double)w->lat_sum / (double)w->lat_n / 1e3 : NAN);
	figures_set(out, "wake", w->wake_n ? (double)w->wake_sum / (double)w->wake_n / 1e3 : NAN);
	crew_free(c);
	return true;
}

/*
 * sync4 hold=0|1 ms=W: BENCH_SYNC_CALLERS threads calling synchronize_rcu() in a loop, with no
 * reader or (hold=1) one reader in 1 ms sections -> calls (per second, all callers), gpc (grace
 * periods per call, where counted), worst (the longest call, ms). Without readers a grace period
 * is so short that callers rarely overlap; with the long reader every caller waits long enough
 * for the others to arrive, which shows the sharing.
 */
static bool m_sync4(const struct bench_impl *im, const struct figures *in, struct figures *out)
{
	if (!(im->caps & BENCH_SYNC))
		return false;
	bool hold = param(in, "hold", 0) != 0;
	double ms = param(in, "ms", 100);
	struct crew *c = crew_new(im, NULL);
	for (int k = 0; k < BENCH_SYNC_CALLERS; k++)
		crew_add(c, ROLE_SYNC);
	if (hold)
		crew_add(c, ROLE_HOLD);
	uint64_t gp0 = im->grace_periods ? im->grace_periods() : 0;
	crew_run(c, hold && ms < 50 ? 50 : ms);
	uint64_t gp1 = im->grace_periods ? im->grace_periods() : 0;
	uint64_t n = crew_ops(c, ROLE_SYNC), worst = 0;
	for (int k = 0; k < c->n; k++)
		if (c->w[k].role == ROLE_SYNC && c->w[k].lat_max > worst)
			worst = c->w[k].lat_max;
	figures_set(out, "calls", crew_rate(c, ROLE_SYNC));
	figures_set(out, "gpc", (im->caps & BENCH_GP_COUNT) && n ? (double)(gp1 - gp0) / (double)n : NAN);
	figures_set(out, "worst", (double)worst / 1e6);
	crew_free(c);
	return true;
}

/* >>callbacks --------------------------------------------------------------------------------- */

struct callrcu_args {
	const struct bench_impl *im;
	size_t n;
	double enq, bar, total, gps;
	bool short_count;
};

static void *callrcu_main(void *arg)
{
	struct callrcu_args *s = arg;
	const struct bench_impl *im = s->im;
	size_t n = s->n;
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
	s->gps = im->grace_periods ? (double)(gp1 - gp0) * 1e6 / (double)n : NAN;
	im->thread_fini();
	return NULL;
}

/*
 * callrcu n=N: call_rcu() on N preallocated heads whose callback counts, then rcu_barrier(), from
 * one thread -> total (ns per callback, both), enq (ns per call_rcu), bar (the barrier, ms), gps
 * (grace periods per 10^6 callbacks, where counted), short (1 if the barrier returned before
 * every callback had run: a bug).
 */
static bool m_callrcu(const struct bench_impl *im, const struct figures *in, struct figures *out)
{
	if (!(im->caps & BENCH_CALL))
		return false;
	double n = param(in, "n", 1000000);
	struct callrcu_args s = { .im = im, .n = n >= 1 ? (size_t)n : 1 };
	in_thread(callrcu_main, &s);
	figures_set(out, "total", s.total);
	figures_set(out, "enq", s.enq);
	figures_set(out, "bar", s.bar);
	figures_set(out, "gps", s.gps);
	figures_set(out, "short", s.short_count);
	return true;
}

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

/* Reset the peak resident set (VmHWM) to the current one (Linux >= 4.0); false if refused. */
static bool reset_peak_rss(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");
	if (!f)
		return false;
	bool ok = fputs("5", f) >= 0;
	return fclose(f) == 0 && ok;
}

/*
 * callrate producers=P readers=R ms=W: P threads queue call_rcu() on fresh 16-byte nodes whose
 * callback frees them, as fast as they can, while R readers run -> kqueued (callbacks queued per
 * second, all producers), kdone (callbacks that ran during the window, per second: the rate the
 * implementation sustained), pending (the most queued and not yet run, sampled every 1024
 * enqueues), rss (peak resident set growth, MiB), mreads (readers). Meant for a fresh process:
 * the peak resident set and the heap are the process's.
 */
static bool m_callrate(const struct bench_impl *im, const struct figures *in, struct figures *out)
{
	if (!(im->caps & BENCH_CALL) || !im->malloc_done)
		return false;
	struct crew *c = crew_new(im, NULL);
	int readers = param_count(in, "readers", 1, 1024), producers = param_count(in, "producers", 1, 1024);
	for (int k = 0; k < readers; k++)
		crew_add(c, ROLE_READ);
	for (int k = 0; k < producers; k++)
		crew_add(c, ROLE_PRODUCE);
	bool reset = reset_peak_rss();
	long base = status_kib("VmRSS");
	uint64_t d0 = im->malloc_done();
	uint64_t t0 = bench_now_ns();
	crew_run(c, param(in, "ms", 100));
	uint64_t t1 = bench_now_ns();
	uint64_t d1 = im->malloc_done();
	long peak = status_kib("VmHWM");
	uint64_t pending = 0;
	for (int k = 0; k < c->n; k++)
		if (c->w[k].pending_max > pending)
			pending = c->w[k].pending_max;
	figures_set(out, "kqueued", crew_rate(c, ROLE_PRODUCE) / 1e3);
	figures_set(out, "kdone", (double)(d1 - d0) * 1e6 / (double)(t1 - t0));
	figures_set(out, "pending", (double)pending);
	figures_set(out, "rss", reset && base >= 0 && peak >= base ? (double)(peak - base) / 1024.0 : NAN);
	figures_set(out, "mreads", readers ? crew_rate(c, ROLE_READ) / 1e6 : NAN);
	crew_free(c);
	return true;
}

struct rss_args {
	const struct bench_impl *im;
	size_t n;
	bool held;
	long kib;
	double pending_max;
};

static void *rss_main(void *arg)
{
	struct rss_args *a = arg;
	const struct bench_impl *im = a->im;
	im->thread_init();
	reset_peak_rss();
	long base = status_kib("VmRSS");
	im->call_malloc(a->n, BENCH_NODE_BYTES, a->held);
	long peak_pending = status_kib("VmHWM");
	im->block_begin();
	im->barrier();
	im->block_end();
	long peak = status_kib("VmHWM");
	a->pending_max = im->pending_max ? (double)im->pending_max() : NAN;
	long top = peak_pending > peak ? peak_pending : peak;
	a->kib = base >= 0 && top >= base ? top - base : -1;
	im->thread_fini();
	return NULL;
}

/*
 * rss n=N held=0|1: one thread mallocs N nodes (a head and 16 bytes) and queues each with a
 * callback that frees it, as fast as it can (held=1: all inside one read-side section, so that
 * none can run before the end), then rcu_barrier() -> mib (peak resident set growth),
 * pending_max (the library's own count, where it keeps one). Meant for a fresh process.
 */
static bool m_rss(const struct bench_impl *im, const struct figures *in, struct figures *out)
{
	if (!(im->caps & BENCH_CALL))
		return false;
	double n = param(in, "n", 1000000);
	struct rss_args a = { .im = im, .n = n >= 1 ? (size_t)n : 1, .held = param(in, "held", 0) != 0 };
	in_thread(rss_main, &a);
	figures_set(out, "mib", a.kib >= 0 ? (double)a.kib / 1024.0 : NAN);
	figures_set(out, "pending_max", a.pending_max);
	return true;
}

/* >>domains ----------------------------------------------------------------------------------- */

/* One phase of isolation: the updater against `sleepers` nappers, for ms. */
static void isolation_phase(const struct bench_impl *im, bool domain, int sleepers, uint64_t nap_ns, bool inside,
	double ms, double *mean_us, double *max_us, double *naps)
{
	struct crew *c = crew_new(im, NULL);
	c->domain = domain;
	c->nap_ns = nap_ns;
	c->nap_inside = inside;
	crew_add(c, ROLE_SYNC);
	for (int k = 0; k < sleepers; k++)
		crew_add(c, ROLE_NAP);
	crew_run(c, ms);
	const struct worker *w = &c->w[0];
	*mean_us = w->ops ? (double)(w->t_end - w->t_start) / (double)w->ops / 1e3 : NAN;
	*max_us = (double)w->lat_max / 1e3;
	*naps = (double)crew_ops(c, ROLE_NAP);
	crew_free(c);
}

/*
 * isolation domain=0|1 sleepers=S sleep_us=U ms=W: the motivating scenario of domains. One thread
 * calls synchronize() (domain=1: domain_synchronize(), BENCH_DOMAIN) in a loop while S threads
 * read another domain (BENCH_NAP; an implementation without domains: its only one) and sleep U
 * us per section: first right after each section, then inside it, W ms each, the same threads
 * in both phases. -> base, slept (mean latency of the calls, us, sleeping outside, then inside
 * the sections), ratio (slept / base: 1 when the sleeping readers do not hold the grace periods
 * up), base_max, slept_max (the longest call, us), naps (sections slept in, second phase).
 */
static bool m_isolation(const struct bench_impl *im, const struct figures *in, struct figures *out)
{
	bool domain = param(in, "domain", 1) != 0;
	if (!(im->caps & BENCH_SYNC) || !(im->caps & BENCH_NAP) || (domain && !(im->caps & BENCH_DOMAIN)))
		return false;
	int sleepers = param_count(in, "sleepers", 2, 64);
	uint64_t nap_ns = (uint64_t)(param(in, "sleep_us", 1000) * 1e3);
	double ms = param(in, "ms", 100), base, slept, base_max, slept_max, naps_out, naps_in;
	isolation_phase(im, domain, sleepers, nap_ns, false, ms, &base, &base_max, &naps_out);
	isolation_phase(im, domain, sleepers, nap_ns, true, ms, &slept, &slept_max, &naps_in);
	figures_set(out, "base", base);
	figures_set(out, "slept", slept);
	figures_set(out, "ratio", base > 0 ? slept / base : NAN);
	figures_set(out, "base_max", base_max);
	figures_set(out, "slept_max", slept_max);
	figures_set(out, "naps", naps_in);
	return true;
}

/* >>map --------------------------------------------------------------------------------------- */

/* map readers=R ms=W: R readers looking up random keys, 1 updater replacing random keys' values
 * -> mlookups (readers' total per second, millions), kups (replacements per second, thousands). */
bool measure_map(const struct bench_map_impl *mp, const struct figures *in, struct figures *out)
{
	static const struct bench_map_impl *ready; /* set up once per process */
	if (ready != mp) {
		mp->setup(BENCH_MAP_KEYS);
		ready = mp;
	}
	struct crew *c = crew_new(NULL, mp);
	int readers = param_count(in, "readers", 2, 1024);
	for (int k = 0; k < readers; k++)
		crew_add(c, ROLE_MAP_READ);
	crew_add(c, ROLE_MAP_UPDATE);
	crew_run(c, param(in, "ms", 100));
	figures_set(out, "mlookups", crew_rate(c, ROLE_MAP_READ) / 1e6);
	figures_set(out, "kups", crew_rate(c, ROLE_MAP_UPDATE) / 1e3);
	crew_free(c);
	return true;
}

/* >>callgrind --------------------------------------------------------------------------------- */

/* noinline and external: bench/callgrind.sh toggles instruction collection on these names. */
__attribute__((noinline)) uint64_t bench_insn_measure(const struct bench_impl *im, uint64_t n)
{
	return im->read_loop(n);
}

__attribute__((noinline)) uint64_t bench_insn_domain(const struct bench_impl *im, uint64_t n)
{
	return im->domain_read_loop(n);
}

__attribute__((noinline)) void bench_insn_gp(const struct bench_impl *im, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		im->synchronize();
}

/* >>table ------------------------------------------------------------------------------------- */

const struct measurement measurements[] = {
	{ "read", 0, "ms=10 domain=0", "read sections (domain=1: of the own domain) in one thread for ms -> ns ops",
		m_read },
	{ "scale", 0, "threads=1 ms=100", "reader threads -> mreads", m_scale },
	{ "update", BENCH_UPDATE, "readers=1 updaters=1 ms=100",
		"readers + updaters (replace, synchronize, free) -> mreads kups gpu ucpu rcpu", m_update },
	{ "sync_idle", BENCH_SYNC, "ms=100 domain=0",
		"synchronize_rcu() (domain=1: the own domain's) with no reader -> us max cpu", m_sync_idle },
	{ "sync_short", BENCH_SYNC, "readers=1 ms=100 domain=0",
		"synchronize_rcu() against readers in short sections -> us p50 p99 max calls cpu", m_sync_short },
	{ "sync_long", BENCH_SYNC, "ms=100",
		"synchronize_rcu() against one reader in 1 ms sections -> us wake", m_sync_long },
	{ "sync4", BENCH_SYNC, "hold=0 ms=100", "4 overlapping synchronize_rcu() callers -> calls gpc worst",
		m_sync4 },
	{ "callrcu", BENCH_CALL, "n=1000000", "call_rcu() x n, then rcu_barrier() -> total enq bar gps short",
		m_callrcu },
	{ "callrate", BENCH_CALL, "producers=1 readers=1 ms=100",
		"call_rcu() at full rate with readers -> kqueued kdone pending rss mreads", m_callrate },
	{ "rss", BENCH_CALL, "n=1000000 held=0", "peak RSS of n call_rcu(free) -> mib pending_max", m_rss },
	{ "isolation", BENCH_SYNC | BENCH_NAP, "domain=1 sleepers=2 sleep_us=1000 ms=100",
		"synchronize against readers of another domain sleeping beside, then inside their sections -> "
		"base slept ratio base_max slept_max naps", m_isolation },
	{ NULL, 0, NULL, NULL, NULL },
};

const struct measurement *measurement_find(const char *name)
{
	for (const struct measurement *m = measurements; m->name; m++)
		if (strcmp(m->name, name) == 0)
			return m;
	return NULL;
}
