/* test/harness.h: small helpers shared by the tests (under Criterion, or test/runner.h under TSan).
 * Each test file includes rcu.h (its flavour comes from -DRCU_FLAVOUR_* on the command line) and
 * then this file.
 *
 * Flavour-neutral habits the tests follow, so that one source serves all four flavours:
 * - every thread that reads registers (rcu_register_thread(); a no-op in BP) and unregisters;
 * - a registered thread that blocks (join, barrier, sleep, condvar) brackets the wait with
 *   test_block_begin()/test_block_end(): in QSBR an online thread that blocks stalls grace
 *   periods, elsewhere the two calls are no-ops;
 * - reader loops call rcu_quiescent_state() between sections (a no-op outside QSBR).
 */
#ifndef RCU_TEST_HARNESS_H
#define RCU_TEST_HARNESS_H

#if defined(RCU_TEST_OWN_RUNNER)
#include "runner.h" /* the TSan build: Criterion cannot start under TSan */
#else
#include <criterion/criterion.h>
#endif
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The flavour under test, as rcu.h names it (the names of rcu_flavours/flavours.txt). */
#define TEST_FLAVOUR RCU_FLAVOUR_NAME

/* Which sanitizer the program is built with (gcc defines __SANITIZE_*__, clang has __has_feature). */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__SANITIZE_THREAD__)
#define TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#elif __has_feature(thread_sanitizer)
#define TEST_TSAN 1
#endif
#endif

/* Rounds for the racy tests: RCU_TEST_SCALE (default 1) multiplies them for long runs. */
static inline long test_rounds(long base)
{
	const char *s = getenv("RCU_TEST_SCALE");
	long k = s ? atol(s) : 1;
	return base * (k > 0 ? k : 1);
}

static inline uint64_t test_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void test_sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Wait until *flag is set, sleeping between looks; false after limit_ms (a liveness bound, not a timing check). */
static inline bool test_wait_flag(_Atomic int *flag, long limit_ms)
{
	uint64_t end = test_now_ns() + (uint64_t)limit_ms * 1000000u;
	while (!atomic_load_explicit(flag, memory_order_acquire)) {
		if (test_now_ns() > end)
			return false;
		test_sleep_us(100);
	}
	return true;
}

/* A cheap per-thread pseudo-random generator (xorshift64*), seeded per thread. */
static inline uint64_t test_rand(uint64_t *state)
{
	uint64_t x = *state ? *state : 0x9e3779b97f4a7c15u;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1du;
}

/* Spin for a random few hundred iterations: widens the racy windows the tests aim at. */
static inline void test_widen(uint64_t *state, unsigned max_spins)
{
	unsigned n = (unsigned)(test_rand(state) % (max_spins + 1u));
	for (volatile unsigned i = 0; i < n; i++)
		;
}

/* Bracket a blocking wait in a registered thread (QSBR: go offline; elsewhere nothing). */
static inline void test_block_begin(void)
{
#if defined(RCU_FLAVOUR_QSBR)
	rcu_thread_offline();
#endif
}

static inline void test_block_end(void)
{
#if defined(RCU_FLAVOUR_QSBR)
	rcu_thread_online();
#endif
}

/*
 * A reader that holds one section until released (QSBR: online, not reporting). One per program
 * at a time. test_holder_start() returns once it is inside (false if it could not start: usable
 * in fork children, which do not assert); `out` is set after it has unregistered.
 */
#define TEST_LIVENESS_MS 10000

static struct {
	_Atomic int in, release, out;
} test_holder __attribute__((unused));

static inline void *test_holder_main(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	atomic_store(&test_holder.in, 1);
	while (!atomic_load(&test_holder.release))
		test_sleep_us(200);
	rcu_read_unlock();
	rcu_quiescent_state();
	rcu_unregister_thread();
	atomic_store(&test_holder.out, 1);
	return NULL;
}

static inline bool test_holder_start(pthread_t *t)
{
	atomic_store(&test_holder.in, 0);
	atomic_store(&test_holder.release, 0);
	atomic_store(&test_holder.out, 0);
	return pthread_create(t, NULL, test_holder_main, NULL) == 0 &&
	       test_wait_flag(&test_holder.in, TEST_LIVENESS_MS);
}

/* Its exit waits for no grace period, so a registered caller may join it online. */
static inline void test_holder_stop(pthread_t t)
{
	atomic_store(&test_holder.release, 1);
	pthread_join(t, NULL);
}

/*
 * Readers that keep entering and leaving short sections (QSBR: reporting in between) until
 * test_busy_stop is set; arg is the seed. test_busy_started counts those that have registered.
 */
static _Atomic int test_busy_stop __attribute__((unused));
static _Atomic int test_busy_started __attribute__((unused));

static inline void *test_busy_reader(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	rcu_register_thread();
	atomic_fetch_add(&test_busy_started, 1);
	while (!atomic_load_explicit(&test_busy_stop, memory_order_relaxed)) {
		rcu_read_lock();
		test_widen(&seed, 300);
		rcu_read_unlock();
		rcu_quiescent_state();
		if (test_rand(&seed) % 8 == 0)
			sched_yield();
	}
	rcu_unregister_thread();
	return NULL;
}

/* synchronize_rcu() in a thread of its own (unregistered), so that the test can watch it. */
struct test_async_sync {
	pthread_t thread;
	_Atomic int calling; /* set just before synchronize_rcu() */
	_Atomic int returned;
};

static inline void *test_async_sync_main(void *arg)
{
	struct test_async_sync *s = arg;
	atomic_store_explicit(&s->calling, 1, memory_order_release);
	synchronize_rcu();
	atomic_store_explicit(&s->returned, 1, memory_order_release);
	return NULL;
}

/* Start it, wait until it is about to call, then sleep settle_us (to let it start its grace period). */
static inline void test_async_sync_start(struct test_async_sync *s, long settle_us)
{
	atomic_init(&s->calling, 0);
	atomic_init(&s->returned, 0);
	cr_assert_eq(pthread_create(&s->thread, NULL, test_async_sync_main, s), 0);
	cr_assert(test_wait_flag(&s->calling, TEST_LIVENESS_MS));
	if (settle_us > 0)
		test_sleep_us(settle_us);
}

/*
 * In a forked child: die of SIGALRM after `seconds`, so that a hang fails instead of blocking the
 * suite, and first print every thread's stack (gdb attached to the child, when the machine has
 * it), so that a hang seen once in many loaded runs says where each thread was. Everything the
 * handler uses is prepared here; the handler itself only makes async-signal-safe calls, and forks
 * with the raw system call, as a hung thread may hold a lock that fork()'s handlers take.
 */
#include <sys/prctl.h>
#include <sys/syscall.h>

static struct {
	char pid[24];
	char *argv[10];
	bool have_gdb;
} test_hang __attribute__((unused));

static inline void test_hang_handler(int sig)
{
	static const char head[] = "hung: a forked child ran past its alarm; its threads:\n";
	static const char none[] = "hung: (no /usr/bin/gdb to print the threads)\n";
	ssize_t w = write(2, head, sizeof head - 1);
	if (!test_hang.have_gdb) {
		w = write(2, none, sizeof none - 1);
	} else {
		prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0); /* Yama: let gdb attach to us */
#if defined(SYS_fork)
		long g = syscall(SYS_fork);
#else
		long g = syscall(SYS_clone, (unsigned long)SIGCHLD, 0L, 0L, 0L, 0L);
#endif
		if (g == 0) {
			dup2(2, 1);
			execve("/usr/bin/gdb", test_hang.argv, environ);
			_exit(127);
		}
		for (int i = 0; g > 0 && i < 1200; i++) { /* a minute at most */
			if (waitpid((pid_t)g, NULL, WNOHANG) == (pid_t)g)
				break;
			struct timespec ts = { 0, 50000000 };
			nanosleep(&ts, NULL);
		}
	}
	(void)w;
	signal(sig, SIG_DFL); /* delivered when the handler returns: the parent sees SIGALRM */
	raise(sig);
}

static inline void test_child_alarm(unsigned seconds)
{
	snprintf(test_hang.pid, sizeof test_hang.pid, "%ld", (long)getpid());
	test_hang.have_gdb = access("/usr/bin/gdb", X_OK) == 0;
	char **a = test_hang.argv;
	*a++ = (char *)"gdb";
	*a++ = (char *)"-batch";
	*a++ = (char *)"-nx";
	*a++ = (char *)"-p";
	*a++ = test_hang.pid;
	*a++ = (char *)"-ex";
	*a++ = (char *)"thread apply all bt";
	*a = NULL;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = test_hang_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(seconds);
}

/*
 * Run fn(arg) in a forked child whose stderr goes to `out` (NUL-terminated, truncated to size);
 * returns the child's wait status. The child leaves with _exit(0) when fn returns, dies of
 * SIGABRT if it aborts, and of SIGALRM if it runs past 30 s.
 */
static inline int test_run_captured(void (*fn)(void *), void *arg, char *out, size_t size)
{
	int fds[2];
	cr_assert_eq(pipe(fds), 0);
	fflush(NULL);
	pid_t pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		signal(SIGABRT, SIG_DFL);
		alarm(30);
		fn(arg);
		_exit(0);
	}
	close(fds[1]);
	size_t len = 0;
	ssize_t n;
	while (len < size - 1 && (n = read(fds[0], out + len, size - 1 - len)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		len += (size_t)n;
	}
	out[len] = '\0';
	close(fds[0]);
	int status = 0;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	return status;
}

/*
 * Death test: run fn(arg) in a forked child (test_run_captured); assert that the child was
 * killed by SIGABRT and that what it printed contains `needle`. Fails the test on mismatch and
 * shows the child's message.
 */
static inline void test_expect_abort(void (*fn)(void *), void *arg, const char *needle)
{
	char buf[4096];
	int status = test_run_captured(fn, arg, buf, sizeof buf);
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
		"expected abort containing \"%s\"; child status %d, said: %s", needle, status, buf);
	cr_assert(strstr(buf, needle) != NULL, "abort message lacks \"%s\": %s", needle, buf);
}

/*
 * The threads of this process named `name` (their comm): returns how many, and stores up to
 * max of their ids in tids (may be NULL with max 0); *all (if not NULL) gets how many threads
 * there are in all. -1 if /proc cannot be read.
 */
static inline int test_find_tasks(const char *name, long *tids, int max, int *all)
{
	DIR *d = opendir("/proc/self/task");
	if (!d)
		return -1;
	int n = 0, total = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		total++;
		char path[300], comm[64] = "";
		snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof comm, f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
		if (strcmp(comm, name) == 0) {
			if (n < max)
				tids[n] = atol(e->d_name);
			n++;
		}
	}
	closedir(d);
	if (all)
		*all = total;
	return n;
}

#endif /* RCU_TEST_HARNESS_H */
