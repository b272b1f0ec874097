/* SPDX-License-Identifier: 0BSD */
/*
 * test/symbols/check.c: does a pair of rcu.h users (translation units, libraries, plugins) share
 * one RCU state, or not? Knows rcu.h only through the two tables (peer.h), so it serves hosts
 * that do not include rcu.h as well. No timed assertions: a grace period is checked to be still
 * waiting while a reader of the other user holds its section (a correct RCU cannot have ended
 * it, however long we looked), never to have taken less than some time.
 */
#define _GNU_SOURCE 1
#include "peer.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int failures;

#define CHECK(cond, ...) \
	do { \
		if (!(cond)) { \
			failures++; \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__); \
			fputc('\n', stderr); \
		} \
	} while (0)

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* A reader that registers and holds a section through `ops` until released. */
struct holder {
	const struct peer_ops *ops;
	_Atomic int inside;
	_Atomic int release;
};

static void *hold_section(void *arg)
{
	struct holder *h = arg;
	h->ops->reg();
	h->ops->lock(); /* QSBR: the registered thread is online, which is what holds grace periods */
	atomic_store(&h->inside, 1);
	while (!atomic_load(&h->release))
		sleep_ms(1);
	h->ops->unlock();
	h->ops->unreg();
	return NULL;
}

struct updater {
	const struct peer_ops *ops;
	_Atomic int done;
};

static void *run_synchronize(void *arg)
{
	struct updater *u = arg;
	u->ops->synchronize();
	atomic_store(&u->done, 1);
	return NULL;
}

static void start_holder(pthread_t *t, struct holder *h, const struct peer_ops *ops)
{
	h->ops = ops;
	atomic_store(&h->inside, 0);
	atomic_store(&h->release, 0);
	if (pthread_create(t, NULL, hold_section, h) != 0) {
		perror("pthread_create");
		_exit(1);
	}
	while (!atomic_load(&h->inside))
		sleep_ms(1);
}

/* One state: a grace period started through `up` waits for a reader registered through `rd`. */
static void grace_period_is_shared(const struct peer_ops *rd, const struct peer_ops *up)
{
	pthread_t tr, tu;
	struct holder h;
	struct updater u = { .ops = up };
	start_holder(&tr, &h, rd);
	uint64_t cookie = up->snapshot();
	pthread_create(&tu, NULL, run_synchronize, &u);
	sleep_ms(100);
	CHECK(!atomic_load(&u.done), "synchronize_rcu() through the %s returned while a reader of the %s was inside",
		up->who, rd->who);
	CHECK(!rd->poll(cookie), "the %s sees the grace period of the %s's cookie passed while its own reader holds it",
		rd->who, up->who);
	atomic_store(&h.release, 1);
	pthread_join(tu, NULL);
	pthread_join(tr, NULL);
	CHECK(atomic_load(&u.done), "synchronize_rcu() returned");
	CHECK(up->poll(cookie) && rd->poll(cookie), "after synchronize_rcu() through the %s, both see the cookie passed",
		up->who);
}

/* Two states: a grace period through `up` ignores a reader of `rd`, whose own state has none. */
static void grace_period_is_separate(const struct peer_ops *rd, const struct peer_ops *up)
{
	pthread_t tr;
	struct holder h;
	start_holder(&tr, &h, rd);
	uint64_t up_cookie = up->snapshot();
	up->synchronize(); /* returns although a reader of the other user is inside (alarm otherwise) */
	CHECK(atomic_load(&h.inside) && !atomic_load(&h.release), "the reader of the %s is still inside", rd->who);
	CHECK(up->poll(up_cookie), "the %s's own grace period passed", up->who);
	uint64_t rd_cookie = rd->snapshot();
	CHECK(!rd->poll(rd_cookie), "the %s's state ran no grace period for the %s's synchronize_rcu()",
		rd->who, up->who);
	atomic_store(&h.release, 1);
	pthread_join(tr, NULL);
}

/* One state: a section opened through one user is the section the other sees and closes. */
static void sections_are_shared(const struct peer_ops *a, const struct peer_ops *b)
{
	if (strcmp(a->flavour, "qsbr") == 0) {
		/* QSBR: the section is "online"; registration and offline/online cross the users. */
		a->reg();
		CHECK(b->ongoing(), "registered through the %s: online as the %s sees it", a->who, b->who);
		b->offline();
		CHECK(!a->ongoing(), "offline through the %s: offline as the %s sees it", b->who, a->who);
		a->online();
		CHECK(b->ongoing(), "online through the %s: online as the %s sees it", a->who, b->who);
		b->unreg(); /* a registration made through a, ended through b */
		CHECK(!a->ongoing(), "unregistered through the %s", b->who);
		return;
	}
	a->reg();
	a->lock();
	CHECK(b->ongoing(), "a section opened through the %s is ongoing for the %s", a->who, b->who);
	b->unlock();
	CHECK(!a->ongoing(), "the section closed through the %s is over for the %s", b->who, a->who);
	b->lock();
	b->lock();
	a->unlock();
	CHECK(b->ongoing(), "one level of a nest opened through the %s closed through the %s: still inside", b->who, a->who);
	a->unlock();
	CHECK(!b->ongoing(), "the nest is closed");
	b->unreg();
}

int check_pair(const struct peer_ops *a, const struct peer_ops *b, bool expect_same)
{
	alarm(60); /* a grace period that waits for a reader it should not see fails, not hangs */
	fprintf(stderr, "%s (%s): state %p, reader %p; %s (%s): state %p, reader %p; expect %s\n", a->who,
		a->flavour, a->state(), a->reader(), b->who, b->flavour, b->state(), b->reader(),
		expect_same ? "one state" : "two states");
	if (expect_same) {
		CHECK(strcmp(a->flavour, b->flavour) == 0, "one flavour");
		CHECK(a->state() == b->state(), "one grace-period state in the process");
		CHECK(a->reader() == b->reader(), "one reader record per thread");
		if (failures) /* two states: crossing sections would unbalance both */
			goto out;
		sections_are_shared(a, b);
		sections_are_shared(b, a);
		grace_period_is_shared(b, a);
		grace_period_is_shared(a, b);
		/* One callback queue: a barrier through one user waits for callbacks of the other. */
		b->defer();
		a->barrier();
		CHECK(b->deferred_runs() == 1, "rcu_barrier() through the %s waited for call_rcu() through the %s", a->who, b->who);
		a->defer();
		b->barrier();
		CHECK(a->deferred_runs() == 1, "rcu_barrier() through the %s waited for call_rcu() through the %s", b->who, a->who);
		struct peer_stats sa, sb;
		a->stats(&sa);
		b->stats(&sb);
		CHECK(memcmp(&sa, &sb, sizeof sa) == 0, "one set of statistics");
		CHECK(sa.callbacks_queued == 2 && sa.callbacks_invoked == 2 && sa.callbacks_pending == 0,
			"queued %llu, invoked %llu, pending %llu (want 2, 2, 0)", (unsigned long long)sa.callbacks_queued,
			(unsigned long long)sa.callbacks_invoked, (unsigned long long)sa.callbacks_pending);
		CHECK(sa.grace_periods >= 4, "grace periods counted: %llu", (unsigned long long)sa.grace_periods);
	} else {
		CHECK(a->state() != b->state(), "two grace-period states in the process");
		CHECK(a->reader() != b->reader(), "two reader records per thread");
		if (failures) /* one state after all: the grace periods below would wait forever */
			goto out;
		grace_period_is_separate(b, a);
		grace_period_is_separate(a, b);
	}
out:
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	else
		fprintf(stderr, "ok\n");
	return failures != 0;
}
