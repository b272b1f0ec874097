/* SPDX-License-Identifier: 0BSD */
/* Stall warnings: built with RCU_STALL_TIMEOUT_MS=200 and RCU_DEBUG (see test/meson.build). */
#include "rcu.h"
#include "harness.h"

#include <sys/syscall.h>

static _Atomic int reader_inside;
static _Atomic long reader_tid;
static _Atomic int reader_line;
static long hold_ms;

static void *stalling_reader(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "stall-reader");
	rcu_register_thread();
	atomic_store(&reader_tid, (long)syscall(SYS_gettid));
	atomic_store(&reader_line, __LINE__ + 1);
	rcu_read_lock();
	atomic_store(&reader_inside, 1);
	test_sleep_us(hold_ms * 1000); /* a long section: QSBR too stays online, without reporting */
	rcu_read_unlock();
	rcu_unregister_thread();
	return NULL;
}

/* In a child: a synchronize_rcu() against a reader holding its section for hold_ms. */
static void scenario(void *arg)
{
	(void)arg;
	pthread_t t;
	pthread_create(&t, NULL, stalling_reader, NULL);
	while (!atomic_load(&reader_inside))
		test_sleep_us(1000);
	synchronize_rcu();
	pthread_join(t, NULL);
	fprintf(stderr, "tid=%ld line=%d\n", atomic_load(&reader_tid), atomic_load(&reader_line));
}

/* Run the scenario with a section of `ms`; its stderr goes to out. */
static void run_scenario(long ms, char *out, size_t size)
{
	hold_ms = ms;
	int status = test_run_captured(scenario, NULL, out, size);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "scenario failed (status %d): %s", status, out);
}

static int count(const char *hay, const char *needle)
{
	int k = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		k++;
	return k;
}

Test(stall, long_reader_is_reported_once_with_its_thread)
{
	char out[8192];
	run_scenario(900, out, sizeof out);
	long tid = 0;
	int line = 0;
	const char *tail = strstr(out, "tid=");
	cr_assert(tail && sscanf(tail, "tid=%ld line=%d", &tid, &line) == 2, "%s", out);
	cr_assert_eq(count(out, "rcu.h: stall: grace period"), 1, "one report per stall: %s", out);
	char who[64];
	snprintf(who, sizeof who, "thread %ld \"stall-reader\"", tid);
	cr_assert(strstr(out, who), "the report names the reader (%s): %s", who, out);
#if !defined(RCU_FLAVOUR_QSBR)
	char where[64];
	snprintf(where, sizeof where, "stall.c:%d", line);
	cr_assert(strstr(out, where), "the report says where the section began (%s): %s", where, out);
#endif
}

Test(stall, short_reader_is_not_reported)
{
	char out[8192];
	run_scenario(20, out, sizeof out);
	cr_assert_eq(count(out, "rcu.h: stall"), 0, "no stall, no report: %s", out);
}
