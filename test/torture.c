/* SPDX-License-Identifier: 0BSD */
/*
 * test/torture.c: an rcutorture-style stress test, in every flavour.
 *
 * A pipeline of elements. The updater publishes a fresh element in `current` and retires the one
 * it replaced (age 1), by one of three routes chosen at random:
 *   - synchronize_rcu() or cond_synchronize_rcu(): after it returns, every element retired that
 *     way ages by one;
 *   - call_rcu(): the callback ages its element by one and queues it again;
 *   - the polled API (start_poll_/get_state_synchronize_rcu()): each time poll_state_...() says a
 *     grace period has passed since the element's cookie, the element ages by one and takes a
 *     new cookie.
 * So an element's age is at most one more than the number of full grace periods since it was
 * retired. At age PIPE_LEN it is poisoned, then freed. Readers, inside nested sections of random
 * depth and length, dereference `current` at every level and re-read the age and poison of every
 * element they obtained in the section: a reader that saw an element while it was current or
 * just retired must never see it reach age 2 before its outermost section ends (that would take
 * a whole grace period inside the section), and must never see poison.
 *
 * Around that: reader threads live for a random number of sections and exit (some unregister,
 * some leave it to the thread-exit hook), and the test thread replaces them, so threads register
 * and unregister throughout the run; QSBR readers go offline and online at random; two fake
 * updaters that also read call synchronize_rcu(), cond_synchronize_rcu() and poll concurrently.
 *
 * Workers never assert: they count, and the test thread asserts on the counts and logs the
 * figures (the age histogram, reads, updates, grace periods).
 *
 * SRCU (torture/srcu_pipeline): the same pipeline runs a second time on an SRCU domain, with its
 * own updater (synchronize_srcu(), call_srcu(), the polled API), at the same time as the default
 * domain's. Readers walk sections of both at random, nested within a domain and interleaved
 * across the two in any order (not last in, first out); an element is checked while the
 * sections of its own pipeline's domain are open. One more reader never registers and reads the
 * domain only; a third domain's readers sleep inside their sections now and then (noise in the
 * slots every scan looks at); the fake updaters call the domain's grace periods too.
 *
 * Environment: RCU_TORTURE_THREADS readers (default 4, at most MAX_READERS). The default test
 * runs 2 s; RCU_TORTURE_SECONDS=<s> also runs slow/torture for that long (30 if not a number),
 * which is skipped otherwise. Built with -DRCU_DEBUG_DELAY (rcu.h's random delays in its racy
 * windows) the same tests run with the delays; the log line says so.
 *   RCU_TORTURE_SECONDS=60 RCU_TORTURE_THREADS=8 build/test/torture-memb --filter 'slow/torture'
 */
#include "rcu.h"
#include "harness.h"

#include <sched.h>
#include <stdbool.h>

#define PIPE_LEN 10       /* retired elements are poisoned and freed at this age */
#define MAX_READERS 64
#define MAX_DEPTH 4       /* nesting of a reader's sections */
#define MAX_SEEN 8        /* elements obtained in one outermost section */
#define FAKE_UPDATERS 2
#define POLL_MAX 64       /* more polled elements than this: wait for the oldest */
#define ELEM_LIVE 0x4c495645u   /* "LIVE" */
#define ELEM_POISON 0xdeaddeadu

#if defined(RCU_DEBUG_DELAY)
#define TORTURE_VARIANT " with RCU_DEBUG_DELAY"
#else
#define TORTURE_VARIANT ""
#endif

struct pipe;

struct elem {
	_Atomic int age;          /* 0 current, 1 retired, +1 per grace period observed since */
	_Atomic uint32_t magic;   /* relaxed atomics: a reader racing a (buggy) early poison has no UB */
	struct rcu_head rcu;
	uint64_t cookie;          /* polled route: the grace period to wait for next */
	uint64_t call_cookie;     /* call_rcu() route: a cookie taken just before the call_rcu() */
	struct elem *next;        /* updater's lists of retired elements */
	struct pipe *pipe;        /* the pipeline it belongs to */
};

/*
 * A pipeline: the default domain's (ssp NULL) or an SRCU domain's. Its updater's lists (after
 * the run, the test thread's). The grace-period primitives of either, by one name.
 */
struct pipe {
	struct elem *_Atomic current;
	struct srcu_struct *ssp;
	struct elem *sync_list;
	struct elem *poll_head, *poll_tail;
	long poll_len;
};

DEFINE_STATIC_SRCU(torture_srcu);
DEFINE_STATIC_SRCU(torture_noise); /* the sleeping readers' domain */

enum { PIPE_RCU, PIPE_SRCU, NPIPES };
static struct pipe pipes[NPIPES] = { { .ssp = NULL }, { .ssp = &torture_srcu } };
static bool with_srcu; /* this run also tortures the SRCU pipeline */

static void p_synchronize(struct pipe *p)
{
	if (p->ssp)
		synchronize_srcu(p->ssp);
	else
		synchronize_rcu();
}

static uint64_t p_get_state(struct pipe *p)
{
	return p->ssp ? get_state_synchronize_srcu(p->ssp) : get_state_synchronize_rcu();
}

static uint64_t p_start_poll(struct pipe *p)
{
	return p->ssp ? start_poll_synchronize_srcu(p->ssp) : start_poll_synchronize_rcu();
}

static bool p_poll(struct pipe *p, uint64_t cookie)
{
	return p->ssp ? poll_state_synchronize_srcu(p->ssp, cookie) : poll_state_synchronize_rcu(cookie);
}

/* SRCU has no cond_synchronize_srcu() (nor has the kernel): poll, then synchronize. */
static void p_cond_synchronize(struct pipe *p, uint64_t cookie)
{
	if (!p->ssp)
		cond_synchronize_rcu(cookie);
	else if (!poll_state_synchronize_srcu(p->ssp, cookie))
		synchronize_srcu(p->ssp);
}

/*
 * The call_rcu() route queues through here. The cookie taken just before the call names the first
 * grace period that can begin after the call; its callback must see it completed (a batch that ran
 * after an older grace period, one that began before its call_rcu(), would not). Checked in every
 * callback, not only when a reader happens to look: an early batch fails every run.
 */
static void p_call(struct pipe *p, struct rcu_head *head, void (*func)(struct rcu_head *));

static void p_call_elem(struct pipe *p, struct elem *e, void (*func)(struct rcu_head *))
{
	e->call_cookie = p_get_state(p);
	p_call(p, &e->rcu, func);
}

static void p_call(struct pipe *p, struct rcu_head *head, void (*func)(struct rcu_head *))
{
	if (p->ssp)
		call_srcu(p->ssp, head, func);
	else
		call_rcu(head, func);
}

/* Figures, shared by every thread; workers add their own counts once, when they finish. */
static struct {
	_Atomic bool stop;
	_Atomic uint64_t sections, reads, bad_age, bad_poison, bad_early;
	_Atomic uint64_t ages[PIPE_LEN + 2];
	_Atomic uint64_t updates, by_sync, by_call, by_poll;
	_Atomic uint64_t sync_gps, cb_gps, poll_gps, fake_gps;
	_Atomic uint64_t threads, offline;
	_Atomic int64_t live;             /* elements allocated and not freed */
	_Atomic int64_t in_callbacks;     /* elements on the call_rcu() route */
	_Atomic uint64_t srcu_sections, srcu_reads, srcu_updates, noise_sleeps;
} T;

static struct elem *elem_new(struct pipe *p)
{
	struct elem *e = calloc(1, sizeof *e);
	if (!e)
		abort();
	e->pipe = p;
	atomic_store_explicit(&e->magic, ELEM_LIVE, memory_order_relaxed);
	atomic_fetch_add_explicit(&T.live, 1, memory_order_relaxed);
	return e;
}

static void elem_free(struct elem *e)
{
	atomic_store_explicit(&e->magic, ELEM_POISON, memory_order_relaxed);
	atomic_store_explicit(&e->age, PIPE_LEN + 1, memory_order_relaxed);
	atomic_fetch_sub_explicit(&T.live, 1, memory_order_relaxed);
	free(e);
}

/* ---- readers ------------------------------------------------------------------------------- */

struct reader {
	pthread_t thread;
	bool started;
	_Atomic bool done;
	uint64_t seed;
	long lifetime;            /* sections before the thread exits */
	bool srcu_only;           /* never registers; reads the SRCU pipeline only */
};

/* Elements obtained in the open sections, each under its own pipeline's domain. */
struct seen {
	struct elem *e[MAX_SEEN];
	int max_age[MAX_SEEN];
	int kind[MAX_SEEN];       /* PIPE_RCU or PIPE_SRCU */
	int n;
	uint64_t reads, bad_poison;
};

/* Re-read every element obtained in the open sections: its age, its poison. */
static void observe(struct seen *s)
{
	for (int i = 0; i < s->n; i++) {
		struct elem *e = s->e[i];
		if (atomic_load_explicit(&e->magic, memory_order_relaxed) != ELEM_LIVE)
			s->bad_poison++;
		int age = atomic_load_explicit(&e->age, memory_order_relaxed);
		if (age > s->max_age[i])
			s->max_age[i] = age;
		s->reads++;
	}
}

static void obtain(struct seen *s, int kind)
{
	struct pipe *p = &pipes[kind];
	struct elem *e = kind == PIPE_RCU ? rcu_dereference(p->current) : srcu_dereference(p->current, p->ssp);
	if (s->n < MAX_SEEN) {
		s->e[s->n] = e;
		s->max_age[s->n] = 0;
		s->kind[s->n] = kind;
		s->n++;
	}
	observe(s);
}

/* The last section of `kind` has ended: its elements go into the histogram and out of the set. */
static void settle(struct seen *s, int kind, uint64_t *ages, uint64_t *bad_age)
{
	int k = 0;
	for (int i = 0; i < s->n; i++) {
		if (s->kind[i] != kind) {
			s->e[k] = s->e[i];
			s->max_age[k] = s->max_age[i];
			s->kind[k] = s->kind[i];
			k++;
			continue;
		}
		int a = s->max_age[i];
		ages[a < 0 ? 0 : a > PIPE_LEN + 1 ? PIPE_LEN + 1 : a]++;
		if (a >= 2)
			(*bad_age)++;
	}
	s->n = k;
}

/* One reader's sections of both kinds: the depth of each, the SRCU index. */
struct walk {
	int depth[NPIPES];
	int idx;
};

static void walk_lock(struct walk *w, struct seen *s, int kind)
{
	if (kind == PIPE_RCU)
		rcu_read_lock();
	else
		w->idx = srcu_read_lock(&torture_srcu); /* nested: the same index */
	w->depth[kind]++;
	obtain(s, kind);
}

static void walk_unlock(struct walk *w, struct seen *s, int kind, uint64_t *ages, uint64_t *bad_age)
{
	observe(s);
	if (kind == PIPE_RCU)
		rcu_read_unlock();
	else
		srcu_read_unlock(&torture_srcu, w->idx);
	if (--w->depth[kind] == 0)
		settle(s, kind, ages, bad_age);
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	uint64_t seed = r->seed;
	uint64_t ages[PIPE_LEN + 2] = { 0 };
	uint64_t sections = 0, reads = 0, bad_age = 0, bad_poison = 0, offline = 0, srcu_sections = 0;
	if (!r->srcu_only)
		rcu_register_thread();
	for (long n = 0; n < r->lifetime && !atomic_load_explicit(&T.stop, memory_order_relaxed); n++) {
		/*
		 * One outermost section: a random walk of nested locks and unlocks, each lock obtaining
		 * the current element of its pipeline, with random delays; then the final look before it
		 * ends. With SRCU, each step picks a domain: sections of the two nest within each and
		 * interleave across them, and either may end first.
		 */
		struct seen s = { .n = 0 };
		struct walk w = { { 0, 0 }, 0 };
		uint64_t x = test_rand(&seed);
		int steps = (int)(x % 8);
		int first = r->srcu_only || (with_srcu && (x >> 4) & 1) ? PIPE_SRCU : PIPE_RCU;
		walk_lock(&w, &s, first);
		bool used_srcu = first == PIPE_SRCU;
		for (int i = 0; i < steps; i++) {
			x = test_rand(&seed);
			int kind = r->srcu_only || (with_srcu && (x >> 12) & 1) ? PIPE_SRCU : PIPE_RCU;
			int depth = w.depth[PIPE_RCU] + w.depth[PIPE_SRCU];
			if (depth < MAX_DEPTH && (depth == 1 || (x & 1))) {
				used_srcu |= kind == PIPE_SRCU;
				walk_lock(&w, &s, kind);
			} else {
				if (!w.depth[kind])
					kind = 1 - kind;
				walk_unlock(&w, &s, kind, ages, &bad_age);
			}
			test_widen(&seed, (x >> 8) % 16 == 0 ? 4000 : 100);
			if (with_srcu && (x >> 24) % 8 == 0) {
				/* A short section of a third domain inside: one more slot in use. */
				int i = srcu_read_lock(&torture_noise);
				test_widen(&seed, 200);
				srcu_read_unlock(&torture_noise, i);
				observe(&s);
			}
		}
		observe(&s);
		x = test_rand(&seed);
		for (int k = (x & 1); w.depth[PIPE_RCU] + w.depth[PIPE_SRCU] > 0; k = 1 - k)
			while (w.depth[k] > 0)
				walk_unlock(&w, &s, k, ages, &bad_age);
		sections++;
		srcu_sections += used_srcu;
		reads += s.reads;
		bad_poison += s.bad_poison;
		if (r->srcu_only) {
			if (x % 64 == 0)
				sched_yield();
			continue;
		}
		rcu_quiescent_state();
		x = test_rand(&seed);
		if (x % 64 == 0) {
			/* QSBR: leave the reader set for a moment (elsewhere: no-ops around a pause). */
			rcu_thread_offline();
			if ((x >> 8) % 4 == 0)
				test_sleep_us((long)((x >> 16) % 100));
			else
				sched_yield();
			rcu_thread_online();
			offline++;
		}
	}
	for (int i = 0; i < PIPE_LEN + 2; i++)
		atomic_fetch_add_explicit(&T.ages[i], ages[i], memory_order_relaxed);
	atomic_fetch_add_explicit(&T.sections, sections, memory_order_relaxed);
	atomic_fetch_add_explicit(&T.reads, reads, memory_order_relaxed);
	atomic_fetch_add_explicit(&T.bad_age, bad_age, memory_order_relaxed);
	atomic_fetch_add_explicit(&T.bad_poison, bad_poison, memory_order_relaxed);
	atomic_fetch_add_explicit(&T.offline, offline, memory_order_relaxed);
	atomic_fetch_add_explicit(&T.srcu_sections, srcu_sections, memory_order_relaxed);
	/* Half the threads unregister; the others end registered (the exit hook unregisters). */
	if ((seed & 1) && !r->srcu_only)
		rcu_unregister_thread();
	atomic_store_explicit(&r->done, true, memory_order_release);
	return NULL;
}

/* ---- the updater --------------------------------------------------------------------------- */

static void elem_cb(struct rcu_head *head)
{
	struct elem *e = rcu_container_of(head, struct elem, rcu);
	if (!p_poll(e->pipe, e->call_cookie))
		atomic_fetch_add_explicit(&T.bad_early, 1, memory_order_relaxed);
	int age = atomic_fetch_add_explicit(&e->age, 1, memory_order_relaxed) + 1;
	atomic_fetch_add_explicit(&T.cb_gps, 1, memory_order_relaxed);
	if (age >= PIPE_LEN) {
		atomic_fetch_sub_explicit(&T.in_callbacks, 1, memory_order_relaxed);
		elem_free(e);
	} else {
		p_call_elem(e->pipe, e, elem_cb);
	}
}

/* A grace period has passed for every element on the synchronous route: age them. */
static void age_sync_list(struct pipe *p)
{
	struct elem **pp = &p->sync_list;
	atomic_fetch_add_explicit(&T.sync_gps, 1, memory_order_relaxed);
	while (*pp) {
		struct elem *e = *pp;
		int age = atomic_fetch_add_explicit(&e->age, 1, memory_order_relaxed) + 1;
		if (age >= PIPE_LEN) {
			*pp = e->next;
			elem_free(e);
		} else {
			pp = &e->next;
		}
	}
}

/* Age every polled element whose cookie has passed; give it a new cookie or free it. */
static void age_poll_list(struct pipe *p, uint64_t *seed)
{
	struct elem **pp = &p->poll_head, *last = NULL;
	while (*pp) {
		struct elem *e = *pp;
		if (p_poll(p, e->cookie)) {
			atomic_fetch_add_explicit(&T.poll_gps, 1, memory_order_relaxed);
			int age = atomic_fetch_add_explicit(&e->age, 1, memory_order_relaxed) + 1;
			if (age >= PIPE_LEN) {
				*pp = e->next;
				p->poll_len--;
				elem_free(e);
				continue;
			}
			e->cookie = test_rand(seed) & 1 ? p_start_poll(p) : p_get_state(p);
		}
		last = e;
		pp = &e->next;
	}
	p->poll_tail = last;
}

/* The updater of one pipeline (arg: its seed; the pipeline is pipes[seed & 1]). */
static void *updater_main(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	struct pipe *p = &pipes[seed & 1];
	while (!atomic_load_explicit(&T.stop, memory_order_relaxed)) {
		struct elem *n = elem_new(p);
		struct elem *old = rcu_dereference_protected(p->current, 1 /* the only updater */);
		rcu_assign_pointer(p->current, n);
		atomic_store_explicit(&old->age, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&T.updates, 1, memory_order_relaxed);
		if (p->ssp)
			atomic_fetch_add_explicit(&T.srcu_updates, 1, memory_order_relaxed);
		uint64_t x = test_rand(&seed);
		switch (x % 3) {
		case 0:
			old->next = p->sync_list;
			p->sync_list = old;
			if ((x >> 8) & 1)
				p_synchronize(p);
			else
				p_cond_synchronize(p, p_get_state(p));
			age_sync_list(p);
			atomic_fetch_add_explicit(&T.by_sync, 1, memory_order_relaxed);
			break;
		case 1:
			atomic_fetch_add_explicit(&T.in_callbacks, 1, memory_order_relaxed);
			p_call_elem(p, old, elem_cb);
			atomic_fetch_add_explicit(&T.by_call, 1, memory_order_relaxed);
			break;
		default:
			old->cookie = (x >> 8) & 1 ? p_start_poll(p) : p_get_state(p);
			old->next = NULL;
			if (p->poll_tail)
				p->poll_tail->next = old;
			else
				p->poll_head = old;
			p->poll_tail = old;
			p->poll_len++;
			atomic_fetch_add_explicit(&T.by_poll, 1, memory_order_relaxed);
			break;
		}
		if (p->poll_len > POLL_MAX)
			p_cond_synchronize(p, p->poll_head->cookie);
		age_poll_list(p, &seed);
		/* Give readers a chance to see each element (and the worker to run, on 2 cores). */
		x = test_rand(&seed);
		if (x % 4 == 0)
			test_sleep_us((long)((x >> 8) % 50));
		else
			test_widen(&seed, 2000);
	}
	return NULL;
}

/* ---- fake updaters: concurrent grace periods, from threads that also read ---------------------- */

static void *fake_main(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	rcu_register_thread();
	while (!atomic_load_explicit(&T.stop, memory_order_relaxed)) {
		uint64_t x = test_rand(&seed);
		struct pipe *p = &pipes[with_srcu && (x >> 20) & 1 ? PIPE_SRCU : PIPE_RCU];
		switch (x % 4) {
		case 0:
			p_synchronize(p);
			break;
		case 1:
			p_cond_synchronize(p, p_get_state(p));
			break;
		case 2: {
			uint64_t cookie = p_start_poll(p);
			while (!p_poll(p, cookie) && !atomic_load_explicit(&T.stop, memory_order_relaxed)) {
				test_block_begin();
				test_sleep_us(20);
				test_block_end();
			}
			break;
		}
		default: {
			struct seen s = { .n = 0 };
			int idx = 0;
			if (p->ssp)
				idx = srcu_read_lock(p->ssp);
			else
				rcu_read_lock();
			obtain(&s, p->ssp ? PIPE_SRCU : PIPE_RCU);
			test_widen(&seed, 1000);
			observe(&s);
			if (p->ssp)
				srcu_read_unlock(p->ssp, idx);
			else
				rcu_read_unlock();
			atomic_fetch_add_explicit(&T.bad_poison, s.bad_poison, memory_order_relaxed);
			atomic_fetch_add_explicit(&T.bad_age, s.max_age[0] >= 2, memory_order_relaxed);
			break;
		}
		}
		atomic_fetch_add_explicit(&T.fake_gps, 1, memory_order_relaxed);
		rcu_quiescent_state();
		test_block_begin();
		test_sleep_us((long)((x >> 8) % 200));
		test_block_end();
	}
	rcu_unregister_thread();
	return NULL;
}

/* ---- the run ------------------------------------------------------------------------------- */

static int env_readers(void)
{
	const char *s = getenv("RCU_TORTURE_THREADS");
	int n = s ? atoi(s) : 0;
	if (n <= 0)
		n = 4;
	return n > MAX_READERS ? MAX_READERS : n;
}

/* Readers of a third domain that sleep inside their sections now and then. */
static void *noise_main(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	uint64_t sleeps = 0;
	while (!atomic_load_explicit(&T.stop, memory_order_relaxed)) {
		uint64_t x = test_rand(&seed);
		int i = srcu_read_lock(&torture_noise);
		if (x % 8 == 0) {
			test_sleep_us((long)((x >> 8) % 2000));
			sleeps++;
		} else {
			test_widen(&seed, 500);
		}
		srcu_read_unlock(&torture_noise, i);
		test_sleep_us((long)((x >> 20) % 100));
	}
	atomic_fetch_add_explicit(&T.noise_sleeps, sleeps, memory_order_relaxed);
	return NULL;
}

static void reader_start(struct reader *r, uint64_t *seed)
{
	r->seed = test_rand(seed) | 2u; /* never 0 */
	r->lifetime = 200 + (long)(test_rand(seed) % 20000);
	atomic_store_explicit(&r->done, false, memory_order_relaxed);
	cr_assert_eq(pthread_create(&r->thread, NULL, reader_main, r), 0);
	r->started = true;
	atomic_fetch_add_explicit(&T.threads, 1, memory_order_relaxed);
}

static void torture_run(double seconds, const char *what, bool srcu)
{
	static struct reader readers[MAX_READERS + 1];
	int nreaders = env_readers();
	uint64_t seed = 0x5eed0f7012u ^ test_now_ns();
	memset(&T, 0, sizeof T);
	with_srcu = srcu;
	for (int k = 0; k < NPIPES; k++) {
		pipes[k].sync_list = pipes[k].poll_head = pipes[k].poll_tail = NULL;
		pipes[k].poll_len = 0;
	}
	struct rcu_stats before, after, sbefore, safter;
	rcu_get_stats(&before);
	srcu_get_stats(&torture_srcu, &sbefore);
	int npipes = srcu ? NPIPES : 1;
	for (int k = 0; k < npipes; k++)
		rcu_init_pointer(pipes[k].current, elem_new(&pipes[k]));

	pthread_t updater[NPIPES], fakes[FAKE_UPDATERS], noise = 0;
	for (int k = 0; k < npipes; k++)
		cr_assert_eq(pthread_create(&updater[k], NULL, updater_main,
			(void *)(uintptr_t)((test_rand(&seed) & ~(uint64_t)1) | (uint64_t)k)), 0);
	for (int i = 0; i < FAKE_UPDATERS; i++)
		cr_assert_eq(pthread_create(&fakes[i], NULL, fake_main, (void *)(uintptr_t)test_rand(&seed)), 0);
	if (srcu) {
		readers[nreaders].srcu_only = true; /* one more reader: never registered, SRCU only */
		nreaders++;
		cr_assert_eq(pthread_create(&noise, NULL, noise_main, (void *)(uintptr_t)test_rand(&seed)), 0);
	}
	for (int i = 0; i < nreaders; i++)
		reader_start(&readers[i], &seed);

	/* Replace readers as they exit, until the time is up. */
	uint64_t start = test_now_ns(), end = start + (uint64_t)(seconds * 1e9);
	while (test_now_ns() < end) {
		test_sleep_us(1000);
		for (int i = 0; i < nreaders; i++) {
			if (atomic_load_explicit(&readers[i].done, memory_order_acquire)) {
				pthread_join(readers[i].thread, NULL);
				reader_start(&readers[i], &seed);
			}
		}
	}
	atomic_store_explicit(&T.stop, true, memory_order_relaxed);
	for (int i = 0; i < nreaders; i++)
		pthread_join(readers[i].thread, NULL);
	for (int k = 0; k < npipes; k++)
		pthread_join(updater[k], NULL);
	for (int i = 0; i < FAKE_UPDATERS; i++)
		pthread_join(fakes[i], NULL);
	if (srcu) {
		pthread_join(noise, NULL);
		readers[--nreaders].srcu_only = false;
	}
	double elapsed = (double)(test_now_ns() - start) / 1e9;

	/* No reader is left: reclaim the rest. The call_rcu() route needs a barrier per age. */
	for (int k = 0; k < npipes; k++) {
		struct pipe *p = &pipes[k];
		p_synchronize(p);
		while (p->sync_list) {
			struct elem *e = p->sync_list;
			p->sync_list = e->next;
			elem_free(e);
		}
		while (p->poll_head) {
			struct elem *e = p->poll_head;
			p->poll_head = e->next;
			elem_free(e);
		}
		p->poll_tail = NULL;
	}
	int barriers = 0;
	while (atomic_load_explicit(&T.in_callbacks, memory_order_relaxed) > 0 && barriers < 4 * PIPE_LEN) {
		rcu_barrier();
		if (srcu)
			srcu_barrier(&torture_srcu);
		barriers++;
	}
	for (int k = 0; k < npipes; k++) {
		struct elem *last = rcu_dereference_protected(pipes[k].current, 1);
		rcu_init_pointer(pipes[k].current, NULL);
		elem_free(last);
	}
	rcu_get_stats(&after);
	srcu_get_stats(&torture_srcu, &safter);

	uint64_t a[PIPE_LEN + 2];
	for (int i = 0; i < PIPE_LEN + 2; i++)
		a[i] = atomic_load_explicit(&T.ages[i], memory_order_relaxed);
	char hist[512];
	int len = 0;
	for (int i = 0; i < PIPE_LEN + 2; i++)
		len += snprintf(hist + len, sizeof hist - (size_t)len, "%s%d:%llu", i ? " " : "", i, (unsigned long long)a[i]);
#define U(x) (unsigned long long)atomic_load_explicit(&(x), memory_order_relaxed)
	cr_log_info("torture %s (%s%s): %.1f s, %d readers (%llu threads over the run, %llu offline spells), "
		"%llu sections, %llu element reads; ages seen [%s]; %llu updates (synchronize %llu, call_rcu %llu, "
		"polled %llu); %llu grace periods (rcu_get_stats), observed by the updater: %llu synchronize, "
		"%llu callbacks, %llu polls; %llu fake-updater calls; %d final barriers; failures: %llu age >= 2, "
		"%llu poisoned, %llu callbacks before their grace period",
		what, TEST_FLAVOUR, TORTURE_VARIANT, elapsed, nreaders, U(T.threads), U(T.offline), U(T.sections),
		U(T.reads), hist, U(T.updates), U(T.by_sync), U(T.by_call), U(T.by_poll),
		(unsigned long long)(after.grace_periods - before.grace_periods), U(T.sync_gps), U(T.cb_gps),
		U(T.poll_gps), U(T.fake_gps), barriers, U(T.bad_age), U(T.bad_poison), U(T.bad_early));
	if (srcu)
		cr_log_info("torture %s (%s%s), SRCU: %llu of the outermost sections held sections of the domain, "
			"%llu updates of its pipeline, %llu of its grace periods, %llu sleeps inside the noise domain",
			what, TEST_FLAVOUR, TORTURE_VARIANT, U(T.srcu_sections), U(T.srcu_updates),
			(unsigned long long)(safter.grace_periods - sbefore.grace_periods), U(T.noise_sleeps));
#undef U

	cr_expect_eq(atomic_load(&T.bad_age), 0, "%llu reads saw an element age by 2 or more inside one section",
		(unsigned long long)atomic_load(&T.bad_age));
	cr_expect_eq(atomic_load(&T.bad_poison), 0, "%llu reads saw a poisoned (reclaimed) element",
		(unsigned long long)atomic_load(&T.bad_poison));
	cr_expect_eq(atomic_load(&T.bad_early), 0,
		"%llu callbacks ran before a grace period that began after their call_rcu() had ended "
		"(poll_state of a cookie taken just before the call was false)",
		(unsigned long long)atomic_load(&T.bad_early));
	cr_expect_eq(atomic_load(&T.in_callbacks), 0, "callbacks still pending after %d rcu_barrier() calls", barriers);
	cr_expect_eq(atomic_load(&T.live), 0, "%lld elements never freed", (long long)atomic_load(&T.live));
	cr_expect_gt(atomic_load(&T.updates), 0);
	cr_expect_gt(atomic_load(&T.sections), 0);
	if (srcu) {
		cr_expect_gt(atomic_load(&T.srcu_updates), 0);
		cr_expect_gt(atomic_load(&T.srcu_sections), 0);
	}
}

Test(torture, pipeline, .timeout = 120)
{
	torture_run(2.0, "pipeline", false);
}

Test(torture, srcu_pipeline, .timeout = 120)
{
	torture_run(2.0, "srcu pipeline", true);
}

Test(slow, torture, .timeout = 0)
{
	const char *s = getenv("RCU_TORTURE_SECONDS");
	if (!s)
		cr_skip_test("set RCU_TORTURE_SECONDS to run the long torture test");
	double seconds = atof(s);
	torture_run(seconds > 0 ? seconds : 30.0, "long", true);
}
