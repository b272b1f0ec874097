/* SPDX-License-Identifier: 0BSD */
/*
 * test/srcu_stall.c: stall warnings of SRCU domains, built with RCU_STALL_TIMEOUT_MS=200 and
 * RCU_DEBUG (see test/meson.build), in every flavour. A grace period of a domain that waits longer
 * than the timeout prints one report that names the domain, and lists the threads inside sections
 * of that domain (and only those) with where each section began. Each scenario runs in a forked
 * child whose stderr the test reads.
 */
#include "rcu.h"
#include "srcu_helpers.h"

#include <sys/syscall.h>

DEFINE_STATIC_SRCU(slow_domain);
DEFINE_STATIC_SRCU(other_domain);

static struct srcu_struct cache_domain; /* named by init_srcu_struct()'s argument */

enum { R_SLOW, R_OTHER, R_DEFAULT, NREADERS };
static const char *const reader_name[NREADERS] = { "slow-reader", "other-reader", "rcu-reader" };

static struct {
	struct srcu_struct *ssp; /* NULL: a default-domain reader */
	long hold_ms;
	_Atomic int in;
	_Atomic long tid;
	_Atomic int line;
	pthread_t t;
} rd[NREADERS];

static void *reader_main(void *arg)
{
	int k = (int)(intptr_t)arg;
	pthread_setname_np(pthread_self(), reader_name[k]);
	atomic_store(&rd[k].tid, (long)syscall(SYS_gettid));
	if (!rd[k].ssp) {
		rcu_register_thread();
		atomic_store(&rd[k].line, __LINE__ + 1);
		rcu_read_lock();
		atomic_store(&rd[k].in, 1);
		test_sleep_us(rd[k].hold_ms * 1000); /* QSBR too: online, not reporting */
		rcu_read_unlock();
		rcu_unregister_thread();
		return NULL;
	}
	atomic_store(&rd[k].line, __LINE__ + 1);
	int i = srcu_read_lock(rd[k].ssp);
	atomic_store(&rd[k].in, 1);
	test_sleep_us(rd[k].hold_ms * 1000);
	srcu_read_unlock(rd[k].ssp, i);
	return NULL;
}

static void start_reader(int k, struct srcu_struct *ssp, long hold_ms)
{
	rd[k].ssp = ssp;
	rd[k].hold_ms = hold_ms;
	pthread_create(&rd[k].t, NULL, reader_main, (void *)(intptr_t)k);
	while (!atomic_load(&rd[k].in))
		test_sleep_us(1000);
}

enum wait_kind { WAIT_SYNC, WAIT_BARRIER, WAIT_SYNC_RCU };
static enum wait_kind waiting;
static struct srcu_struct *waited;
static long slow_ms;
static bool others; /* also a reader of another domain and a default reader, both as long */

static void noop_cb(struct rcu_head *h)
{
	(void)h;
}

/* In the child: readers, then the wait that stalls; then "reader K tid=T line=L" lines. */
static void scenario(void *arg)
{
	(void)arg;
	init_srcu_struct(&cache_domain);
	start_reader(R_SLOW, waited, slow_ms);
	if (others) {
		start_reader(R_OTHER, &other_domain, slow_ms);
		start_reader(R_DEFAULT, NULL, slow_ms);
	}
	static struct rcu_head h;
	switch (waiting) {
	case WAIT_SYNC:
		synchronize_srcu(waited);
		break;
	case WAIT_BARRIER:
		call_srcu(waited, &h, noop_cb);
		srcu_barrier(waited);
		break;
	case WAIT_SYNC_RCU:
		synchronize_rcu();
		break;
	}
	for (int k = 0; k < NREADERS; k++) {
		if (!rd[k].hold_ms)
			continue;
		pthread_join(rd[k].t, NULL);
		fprintf(stderr, "reader %d tid=%ld line=%d\n", k, atomic_load(&rd[k].tid), atomic_load(&rd[k].line));
	}
}

static void run(enum wait_kind w, struct srcu_struct *ssp, long ms, bool with_others, char *out, size_t size)
{
	waiting = w;
	waited = ssp;
	slow_ms = ms;
	others = with_others;
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

/* "thread <tid> "<name>"" of reader k, from the child's closing lines. */
static void who(const char *out, int k, char *buf, size_t size, int *line)
{
	char key[32];
	snprintf(key, sizeof key, "reader %d tid=", k);
	const char *p = strstr(out, key);
	long tid = 0;
	*line = 0;
	cr_assert(p && sscanf(p + strlen(key), "%ld line=%d", &tid, line) == 2, "%s", out);
	snprintf(buf, size, "thread %ld \"%s\"", tid, reader_name[k]);
}

Test(srcu_stall, a_domains_stall_names_the_domain_and_its_reader, .timeout = 60)
{
	char out[8192], w[96], where[64];
	int line;
	run(WAIT_SYNC, &slow_domain, 900, true, out, sizeof out);
	cr_assert_eq(count(out, "rcu.h: stall: grace period"), 1, "one report per stall: %s", out);
	cr_assert(strstr(out, "of SRCU domain \"slow_domain\""), "the report names the domain: %s", out);
	who(out, R_SLOW, w, sizeof w, &line);
	cr_assert(strstr(out, w), "the report names the reader (%s): %s", w, out);
	cr_assert(strstr(out, "srcu_read_lock(slow_domain)"), "the report says which domain's section: %s", out);
	snprintf(where, sizeof where, "srcu_stall.c:%d", line);
	cr_assert(strstr(out, where), "the report says where the section began (%s): %s", where, out);
	/* Readers of another domain and of the default domain hold up nothing here. */
	who(out, R_OTHER, w, sizeof w, &line);
	cr_assert(!strstr(out, w), "a reader of another domain is listed (%s): %s", w, out);
	who(out, R_DEFAULT, w, sizeof w, &line);
	cr_assert(!strstr(out, w), "a default-domain reader is listed (%s): %s", w, out);
}

Test(srcu_stall, a_domain_set_up_by_init_srcu_struct_is_named_after_its_argument, .timeout = 60)
{
	char out[8192];
	run(WAIT_SYNC, &cache_domain, 500, false, out, sizeof out);
	cr_assert_eq(count(out, "rcu.h: stall: grace period"), 1, "one report per stall: %s", out);
	cr_assert(strstr(out, "cache_domain\""), "the report names the domain: %s", out);
}

Test(srcu_stall, the_default_domains_stall_lists_no_srcu_reader, .timeout = 60)
{
	char out[8192], w[96];
	int line;
	/* The default reader holds the default grace period; the slow one is a reader of a domain. */
	run(WAIT_SYNC_RCU, &slow_domain, 900, true, out, sizeof out);
	cr_assert_eq(count(out, "rcu.h: stall: grace period"), 1, "one report per stall: %s", out);
	cr_assert(!strstr(out, "SRCU domain"), "the default domain's report names a domain: %s", out);
	who(out, R_DEFAULT, w, sizeof w, &line);
	cr_assert(strstr(out, w), "the report names the default reader (%s): %s", w, out);
	who(out, R_SLOW, w, sizeof w, &line);
	cr_assert(!strstr(out, w), "an SRCU reader is listed in the default domain's report (%s): %s", w, out);
}

/*
 * A grace period that the callback worker drives (call_srcu(), srcu_barrier(),
 * start_poll_synchronize_srcu()) stalls as much as synchronize_srcu()'s does, and the default
 * domain reports the same situation for rcu_barrier(); it must be reported too.
 */
Test(srcu_stall, a_stalled_srcu_barrier_is_reported, .timeout = 60)
{
	char out[8192], w[96];
	int line;
	run(WAIT_BARRIER, &slow_domain, 900, false, out, sizeof out);
	cr_assert_eq(count(out, "rcu.h: stall: grace period"), 1, "one report per stall: %s", out);
	cr_assert(strstr(out, "of SRCU domain \"slow_domain\""), "the report names the domain: %s", out);
	who(out, R_SLOW, w, sizeof w, &line);
	cr_assert(strstr(out, w), "the report names the reader (%s): %s", w, out);
}

Test(srcu_stall, a_short_reader_is_not_reported, .timeout = 60)
{
	char out[8192];
	run(WAIT_SYNC, &slow_domain, 20, true, out, sizeof out);
	cr_assert_eq(count(out, "rcu.h: stall"), 0, "no stall, no report: %s", out);
	run(WAIT_BARRIER, &slow_domain, 20, false, out, sizeof out);
	cr_assert_eq(count(out, "rcu.h: stall"), 0, "no stall, no report: %s", out);
}
