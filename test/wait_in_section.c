/* SPDX-License-Identifier: 0BSD */
/*
 * A wait for the caller's own domain inside a section of that domain, in a release build (no
 * RCU_DEBUG; test/meson.build builds this file without it): synchronize_rcu(),
 * cond_synchronize_rcu() (a cookie that has passed or not), rcu_barrier(), and
 * synchronize_srcu() and srcu_barrier() of the same SRCU domain each abort with the sentence
 * RCU_DEBUG prints, in every flavour, whether the caller is the only reader or 1 or 3 other
 * readers keep reading (issue #19: the first returned at once, the others hung). QSBR's
 * rcu_read_lock() records nothing in release builds: there the default domain's waits cannot
 * see it, and the test pins down what docs/api.md says happens instead. The last tests run the
 * same calls outside sections, so a check that fired always would fail here.
 */
#include "rcu.h"
#include "harness.h"

#include <sys/prctl.h>
#include <sys/resource.h>

#if defined(RCU_DEBUG)
#error "test/wait_in_section.c checks release builds (see test/meson.build)"
#endif

#define CHILD_NAME "rcu-wait-in-sec"
#define RULE_DEFAULT "called inside a read-side critical section, which it would wait for forever (deadlock)"
#define RULE_SRCU                                                                                   \
	"called inside a read-side critical section of the same SRCU domain, which it would wait for " \
	"forever (deadlock)"

enum wait_call { SYNC, COND_NEW, COND_PASSED, BARRIER, SRCU_SYNC, SRCU_BARRIER };
static const char *const call_name[] = {
	"synchronize_rcu()", "cond_synchronize_rcu()", "cond_synchronize_rcu()",
	"rcu_barrier()",     "synchronize_srcu()",     "srcu_barrier()",
};

DEFINE_STATIC_SRCU(dom); /* set up on first use, in each child */

struct wait_case {
	enum wait_call call;
	int others;      /* readers that keep reading in other threads */
	bool in_section; /* false: the control, outside every section */
};

static void wait_for_own_domain(enum wait_call call, bool in_section)
{
	uint64_t cookie = get_state_synchronize_rcu();
	if (call == COND_PASSED)
		synchronize_rcu();
	int idx = 0;
	if (call == SRCU_SYNC || call == SRCU_BARRIER) {
		if (in_section)
			idx = srcu_read_lock(&dom);
	} else if (in_section) {
		rcu_read_lock();
		if (call == COND_NEW)
			cookie = get_state_synchronize_rcu();
	}
	switch (call) {
	case SYNC:
		synchronize_rcu();
		break;
	case COND_NEW:
	case COND_PASSED:
		cond_synchronize_rcu(cookie);
		break;
	case BARRIER:
		rcu_barrier();
		break;
	case SRCU_SYNC:
		synchronize_srcu(&dom);
		break;
	case SRCU_BARRIER:
		srcu_barrier(&dom);
		break;
	}
	if (!in_section)
		return;
	if (call == SRCU_SYNC || call == SRCU_BARRIER)
		srcu_read_unlock(&dom, idx);
	else
		rcu_read_unlock();
}

/* Other readers (test_busy_reader), then the call; test_busy_stop ends the readers. */
static void run_case(const struct wait_case *c)
{
	pthread_t t[3];
	atomic_store(&test_busy_stop, 0);
	atomic_store(&test_busy_started, 0);
	for (int i = 0; i < c->others; i++)
		if (pthread_create(&t[i], NULL, test_busy_reader, (void *)(uintptr_t)(i + 1)) != 0)
			abort();
	while (atomic_load(&test_busy_started) < c->others)
		sched_yield();
	rcu_register_thread();
	wait_for_own_domain(c->call, c->in_section);
	rcu_unregister_thread();
	atomic_store(&test_busy_stop, 1);
	for (int i = 0; i < c->others; i++)
		pthread_join(t[i], NULL);
}

static void child_main(void *arg)
{
	struct rlimit none = { 0, 0 };
	setrlimit(RLIMIT_CORE, &none);
	alarm(10); /* SIGALRM, not SIGABRT: a wait that hangs reads as a failure */
	prctl(PR_SET_NAME, CHILD_NAME, 0, 0, 0);
	run_case((const struct wait_case *)arg);
}

/* In a child: the call must abort with "rcu.h: <call> in thread <tid> "rcu-wait-in-sec": <rule>". */
static void expect_abort(enum wait_call call, int others)
{
	struct wait_case c = { call, others, true };
	char who[160];
	snprintf(who, sizeof who, "rcu.h: %s in thread ", call_name[call]);
	test_expect_abort(child_main, &c, who);
	snprintf(who, sizeof who, "\"%s\": %s", CHILD_NAME,
		 call == SRCU_SYNC || call == SRCU_BARRIER ? RULE_SRCU : RULE_DEFAULT);
	test_expect_abort(child_main, &c, who);
}

#define ABORT_TESTS(call, tag)                                   \
	Test(wait_in_section, tag##_alone)                       \
	{                                                        \
		expect_abort(call, 0);                           \
	}                                                        \
	Test(wait_in_section, tag##_beside_one_reader)           \
	{                                                        \
		expect_abort(call, 1);                           \
	}                                                        \
	Test(wait_in_section, tag##_beside_three_readers)        \
	{                                                        \
		expect_abort(call, 3);                           \
	}                                                        \
	Test(wait_in_section, tag##_outside_a_section_returns)   \
	{                                                        \
		expect_return(call);                             \
	}

/* The control: outside every section the same call returns, alone and beside 3 readers. */
static void expect_return(enum wait_call call)
{
	for (int others = 0; others <= 3; others += 3) {
		struct wait_case c = { call, others, false };
		char buf[4096];
		int status = test_run_captured(child_main, &c, buf, sizeof buf);
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			  "%s outside a section, %d other readers: status %d, said: %s", call_name[call], others,
			  status, buf);
	}
}

/* QSBR release builds cannot see rcu_read_lock() (qsbr_release_does_not_see_rcu_read_lock). */
#if !defined(RCU_FLAVOUR_QSBR)
ABORT_TESTS(SYNC, synchronize_rcu)
ABORT_TESTS(COND_NEW, cond_synchronize_rcu)
ABORT_TESTS(COND_PASSED, cond_synchronize_rcu_cookie_passed)
ABORT_TESTS(BARRIER, rcu_barrier)
#endif
ABORT_TESTS(SRCU_SYNC, synchronize_srcu)
ABORT_TESTS(SRCU_BARRIER, srcu_barrier)

#if defined(RCU_FLAVOUR_QSBR)
/*
 * QSBR release builds: rcu_read_lock() records nothing, so synchronize_rcu() and rcu_barrier()
 * inside it cannot tell. As docs/api.md says, the call is a quiescent state: it returns after a
 * grace period (it does not hang), beside readers too, and the thread is online again after it.
 */
static void qsbr_unseen(void *arg)
{
	int others = (int)(uintptr_t)arg;
	alarm(10);
	for (enum wait_call call = SYNC; call <= BARRIER; call++) {
		struct wait_case c = { call, others, true };
		run_case(&c);
	}
	rcu_register_thread();
	rcu_read_lock();
	synchronize_rcu();
	bool online = rcu_read_ongoing();
	rcu_read_unlock();
	rcu_unregister_thread();
	if (!online)
		abort();
}

Test(wait_in_section, qsbr_release_does_not_see_rcu_read_lock)
{
	for (int others = 0; others <= 3; others += 3) {
		char buf[4096];
		int status = test_run_captured(qsbr_unseen, (void *)(uintptr_t)others, buf, sizeof buf);
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			  "QSBR release, %d other readers: status %d, said: %s", others, status, buf);
	}
}
#endif
