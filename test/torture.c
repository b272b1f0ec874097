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

struct elem {
	_Atomic int age;          /* 0 current, 1 retired, +1 per grace period observed since */
	_Atomic uint32_t magic;   /* relaxed atomics: a reader racing a (buggy) early poison has no UB */
	struct rcu_head rcu;
	uint64_t cookie;          /* polled route: the grace period to wait for next */
	struct elem *next;        /* updater's lists of retired elements */
};

static struct elem *_Atomic current;

/* Figures, shared by every thread; workers add their own counts once, when they finish. */
static struct {
	_Atomic bool stop;
	_Atomic uint64_t sections, reads, bad_age, bad_poison;
	_Atomic uint64_t ages[PIPE_LEN + 2];
	_Atomic uint64_t updates, by_sync, by_call, by_poll;
	_Atomic uint64_t sync_gps, cb_gps, poll_gps, fake_gps;
	_Atomic uint64_t threads, offline;
	_Atomic int64_t live;             /* elements allocated and not freed */
	_Atomic int64_t in_callbacks;     /* elements on the call_rcu() route */
} T;

/* The updater's lists (after the run, the test thread's). */
static struct elem *sync_list;
static struct elem *poll_head, *poll_tail;
static long poll_len;

static struct elem *elem_new(void)
{
	struct elem *e = calloc(1, sizeof *e);
	if (!e)
		abort();
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
};

struct seen {
	struct elem *e[MAX_SEEN];
	int max_age[MAX_SEEN];
	int n;
	uint64_t reads, bad_poison;
};

/* Re-read every element obtained in this section: its age, its poison. */
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

static void obtain(struct seen *s)
{
	struct elem *e = rcu_dereference(current);
	if (s->n < MAX_SEEN) {
		s->e[s->n] = e;
		s->max_age[s->n] = 0;
		s->n++;
	}
	observe(s);
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	uint64_t seed = r->seed;
	uint64_t ages[PIPE_LEN + 2] = { 0 };
	uint64_t sections = 0, reads = 0, bad_age = 0, bad_poison = 0, offline = 0;
	rcu_register_thread();
	for (long n = 0; n < r->lifetime && !atomic_load_explicit(&T.stop, memory_order_relaxed); n++) {
		/* One outermost section: a random walk of nested locks and unlocks, each lock obtaining
		 * the current element, with random delays; then the final look before it ends. */
		struct seen s = { .n = 0 };
		uint64_t x = test_rand(&seed);
		int depth = 1, steps = (int)(x % 8);
		rcu_read_lock();
		obtain(&s);
		for (int i = 0; i < steps; i++) {
			x = test_rand(&seed);
			if (depth < MAX_DEPTH && (depth == 1 || (x & 1))) {
				rcu_read_lock();
				depth++;
				obtain(&s);
			} else {
				rcu_read_unlock();
				depth--;
				observe(&s);
			}
			test_widen(&seed, (x >> 8) % 16 == 0 ? 4000 : 100);
		}
		observe(&s);
		while (depth-- > 0)
			rcu_read_unlock();
		for (int i = 0; i < s.n; i++) {
			int a = s.max_age[i];
			ages[a < 0 ? 0 : a > PIPE_LEN + 1 ? PIPE_LEN + 1 : a]++;
			if (a >= 2)
				bad_age++;
		}
		sections++;
		reads += s.reads;
		bad_poison += s.bad_poison;
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
	/* Half the threads unregister; the others end registered (the exit hook unregisters). */
	if (seed & 1)
		rcu_unregister_thread();
	atomic_store_explicit(&r->done, true, memory_order_release);
	return NULL;
}

/* ---- the updater --------------------------------------------------------------------------- */

static void elem_cb(struct rcu_head *head)
{
	struct elem *e = rcu_container_of(head, struct elem, rcu);
	int age = atomic_fetch_add_explicit(&e->age, 1, memory_order_relaxed) + 1;
	atomic_fetch_add_explicit(&T.cb_gps, 1, memory_order_relaxed);
	if (age >= PIPE_LEN) {
		atomic_fetch_sub_explicit(&T.in_callbacks, 1, memory_order_relaxed);
		elem_free(e);
	} else {
		call_rcu(&e->rcu, elem_cb);
	}
}

/* A grace period has passed for every element on the synchronous route: age them. */
static void age_sync_list(void)
{
	struct elem **pp = &sync_list;
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
static void age_poll_list(uint64_t *seed)
{
	struct elem **pp = &poll_head, *last = NULL;
	while (*pp) {
		struct elem *e = *pp;
		if (poll_state_synchronize_rcu(e->cookie)) {
			atomic_fetch_add_explicit(&T.poll_gps, 1, memory_order_relaxed);
			int age = atomic_fetch_add_explicit(&e->age, 1, memory_order_relaxed) + 1;
			if (age >= PIPE_LEN) {
				*pp = e->next;
				poll_len--;
				elem_free(e);
				continue;
			}
			e->cookie = test_rand(seed) & 1 ? start_poll_synchronize_rcu() : get_state_synchronize_rcu();
		}
		last = e;
		pp = &e->next;
	}
	poll_tail = last;
}

static void *updater_main(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	while (!atomic_load_explicit(&T.stop, memory_order_relaxed)) {
		struct elem *n = elem_new();
		struct elem *old = rcu_dereference_protected(current, 1 /* the only updater */);
		rcu_assign_pointer(current, n);
		atomic_store_explicit(&old->age, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&T.updates, 1, memory_order_relaxed);
		uint64_t x = test_rand(&seed);
		switch (x % 3) {
		case 0:
			old->next = sync_list;
			sync_list = old;
			if ((x >> 8) & 1)
				synchronize_rcu();
			else
				cond_synchronize_rcu(get_state_synchronize_rcu());
			age_sync_list();
			atomic_fetch_add_explicit(&T.by_sync, 1, memory_order_relaxed);
			break;
		case 1:
			atomic_fetch_add_explicit(&T.in_callbacks, 1, memory_order_relaxed);
			call_rcu(&old->rcu, elem_cb);
			atomic_fetch_add_explicit(&T.by_call, 1, memory_order_relaxed);
			break;
		default:
			old->cookie = (x >> 8) & 1 ? start_poll_synchronize_rcu() : get_state_synchronize_rcu();
			old->next = NULL;
			if (poll_tail)
				poll_tail->next = old;
			else
				poll_head = old;
			poll_tail = old;
			poll_len++;
			atomic_fetch_add_explicit(&T.by_poll, 1, memory_order_relaxed);
			break;
		}
		if (poll_len > POLL_MAX)
			cond_synchronize_rcu(poll_head->cookie);
		age_poll_list(&seed);
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
		switch (x % 4) {
		case 0:
			synchronize_rcu();
			break;
		case 1:
			cond_synchronize_rcu(get_state_synchronize_rcu());
			break;
		case 2: {
			uint64_t cookie = start_poll_synchronize_rcu();
			while (!poll_state_synchronize_rcu(cookie) && !atomic_load_explicit(&T.stop, memory_order_relaxed)) {
				test_block_begin();
				test_sleep_us(20);
				test_block_end();
			}
			break;
		}
		default: {
			struct seen s = { .n = 0 };
			rcu_read_lock();
			obtain(&s);
			test_widen(&seed, 1000);
			observe(&s);
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

static void reader_start(struct reader *r, uint64_t *seed)
{
	r->seed = test_rand(seed) | 2u; /* never 0 */
	r->lifetime = 200 + (long)(test_rand(seed) % 20000);
	atomic_store_explicit(&r->done, false, memory_order_relaxed);
	cr_assert_eq(pthread_create(&r->thread, NULL, reader_main, r), 0);
	r->started = true;
	atomic_fetch_add_explicit(&T.threads, 1, memory_order_relaxed);
}

static void torture_run(double seconds, const char *what)
{
	static struct reader readers[MAX_READERS];
	int nreaders = env_readers();
	uint64_t seed = 0x5eed0f7012u ^ test_now_ns();
	memset(&T, 0, sizeof T);
	sync_list = poll_head = poll_tail = NULL;
	poll_len = 0;
	struct rcu_stats before, after;
	rcu_get_stats(&before);
	rcu_init_pointer(current, elem_new());

	pthread_t updater, fakes[FAKE_UPDATERS];
	cr_assert_eq(pthread_create(&updater, NULL, updater_main, (void *)(uintptr_t)test_rand(&seed)), 0);
	for (int i = 0; i < FAKE_UPDATERS; i++)
		cr_assert_eq(pthread_create(&fakes[i], NULL, fake_main, (void *)(uintptr_t)test_rand(&seed)), 0);
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
	pthread_join(updater, NULL);
	for (int i = 0; i < FAKE_UPDATERS; i++)
		pthread_join(fakes[i], NULL);
	double elapsed = (double)(test_now_ns() - start) / 1e9;

	/* No reader is left: reclaim the rest. The call_rcu() route needs a barrier per age. */
	synchronize_rcu();
	while (sync_list) {
		struct elem *e = sync_list;
		sync_list = e->next;
		elem_free(e);
	}
	while (poll_head) {
		struct elem *e = poll_head;
		poll_head = e->next;
		elem_free(e);
	}
	poll_tail = NULL;
	int barriers = 0;
	while (atomic_load_explicit(&T.in_callbacks, memory_order_relaxed) > 0 && barriers < 4 * PIPE_LEN) {
		rcu_barrier();
		barriers++;
	}
	struct elem *last = rcu_dereference_protected(current, 1);
	rcu_init_pointer(current, NULL);
	elem_free(last);
	rcu_get_stats(&after);

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
		"%llu poisoned",
		what, TEST_FLAVOUR, TORTURE_VARIANT, elapsed, nreaders, U(T.threads), U(T.offline), U(T.sections),
		U(T.reads), hist, U(T.updates), U(T.by_sync), U(T.by_call), U(T.by_poll),
		(unsigned long long)(after.grace_periods - before.grace_periods), U(T.sync_gps), U(T.cb_gps),
		U(T.poll_gps), U(T.fake_gps), barriers, U(T.bad_age), U(T.bad_poison));
#undef U

	cr_expect_eq(atomic_load(&T.bad_age), 0, "%llu reads saw an element age by 2 or more inside one section",
		(unsigned long long)atomic_load(&T.bad_age));
	cr_expect_eq(atomic_load(&T.bad_poison), 0, "%llu reads saw a poisoned (reclaimed) element",
		(unsigned long long)atomic_load(&T.bad_poison));
	cr_expect_eq(atomic_load(&T.in_callbacks), 0, "callbacks still pending after %d rcu_barrier() calls", barriers);
	cr_expect_eq(atomic_load(&T.live), 0, "%lld elements never freed", (long long)atomic_load(&T.live));
	cr_expect_gt(atomic_load(&T.updates), 0);
	cr_expect_gt(atomic_load(&T.sections), 0);
}

Test(torture, pipeline, .timeout = 120)
{
	torture_run(2.0, "pipeline");
}

Test(slow, torture, .timeout = 0)
{
	const char *s = getenv("RCU_TORTURE_SECONDS");
	if (!s)
		cr_skip_test("set RCU_TORTURE_SECONDS to run the long torture test");
	double seconds = atof(s);
	torture_run(seconds > 0 ? seconds : 30.0, "long");
}
