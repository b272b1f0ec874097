/* SPDX-License-Identifier: 0BSD */
/*
 * test/port/liburcu_multiflavour.c: a liburcu program that uses all four flavours from one
 * translation unit, through their prefixed names (<urcu/urcu-qsbr.h>, <urcu/urcu-memb.h>,
 * <urcu/urcu-mb.h>, <urcu/urcu-bp.h>), as liburcu's test_urcu_multiflavor_single_unit does, and
 * checks what that test does not: that each flavour is an RCU of its own. For each flavour F:
 *   - urcu_F_synchronize_rcu() waits for a reader of F that entered its section before it (QSBR:
 *     a registered online thread, until its quiescent state);
 *   - it does not wait for a reader of any other flavour: a reader of F holds its section while
 *     the other three flavours' grace periods run to their end (a unit whose flavours shared one
 *     state would block here: the alarm below ends the run with a message);
 *   - urcu_F_call_rcu() then urcu_F_barrier() runs the callback, and urcu_F_flavor's functions
 *     are F's (its synchronize waits for F's reader). liburcu declares these three for the first
 *     flavour header of a unit only (its urcu/call-rcu.h and urcu/flavor.h are read once), so
 *     the control, built against liburcu (PORT_LIBURCU), leaves them out.
 * And rcu.h's hash table, whose grace periods are the unit's first flavour's, takes that
 * flavour's table (or NULL) in cds_lfht_new_flavor() and refuses the others': NULL, and under
 * RCU_DEBUG an abort with a sentence (liburcu's takes any: not in the control). Under
 * RCU_DEBUG_DEREFERENCE, rcu_dereference() inside a section of any flavour does not abort.
 * The build's flavour (RCU_FLAVOUR_*, test/port/meson.build) is the unit's first flavour with
 * rcu.h (the three others are its further flavours, compat/liburcu/rcu_instance.h); liburcu,
 * the control, ignores it. Valid C and C++; exits 0 when every check passes.
 */
#include <urcu/urcu-qsbr.h>
#include <urcu/urcu-memb.h>
#include <urcu/urcu-mb.h>
#include <urcu/urcu-bp.h>
#if !defined(PORT_LIBURCU)
#include <urcu/rculfhash.h>
#endif

#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "port_check.h"

enum { QSBR, MEMB, MB, BP, FLAVOURS };
static const char *const names[FLAVOURS] = { "qsbr", "memb", "mb", "bp" };

/* Each flavour's API, gathered from its prefixed names. */
struct api {
	void (*register_thread)(void);
	void (*unregister_thread)(void);
	void (*read_lock)(void);
	void (*read_unlock)(void);
	void (*quiescent_state)(void); /* QSBR's; the others' is a no-op here */
	void (*synchronize_rcu)(void);
#if !defined(PORT_LIBURCU)
	void (*call)(struct rcu_head *head, void (*func)(struct rcu_head *head));
	void (*barrier)(void);
	const struct rcu_flavor_struct *flavor;
#endif
};
static void no_qs(void)
{
}
#if !defined(PORT_LIBURCU)
#define API(f, qs) \
	{ urcu_##f##_register_thread, urcu_##f##_unregister_thread, urcu_##f##_read_lock, urcu_##f##_read_unlock, \
	  qs, urcu_##f##_synchronize_rcu, urcu_##f##_call_rcu, urcu_##f##_barrier, &urcu_##f##_flavor }
#else
#define API(f, qs) \
	{ urcu_##f##_register_thread, urcu_##f##_unregister_thread, urcu_##f##_read_lock, urcu_##f##_read_unlock, \
	  qs, urcu_##f##_synchronize_rcu }
#endif
static const struct api apis[FLAVOURS] = {
	API(qsbr, urcu_qsbr_quiescent_state), API(memb, no_qs), API(mb, no_qs), API(bp, no_qs),
};

/* One reader thread: enters a section of its flavour, says so, holds it until told to leave,
 * marks that it is leaving, leaves (QSBR: and reports a quiescent state). */
struct reader {
	int flavour;
	int inside;  /* set by the reader once in its section */
	int release; /* set by main: leave now */
	int left;    /* set by the reader just before it leaves */
};

static void *reader_main(void *arg)
{
	struct reader *r = (struct reader *)arg;
	const struct api *a = &apis[r->flavour];
	a->register_thread();
	a->read_lock();
	__atomic_store_n(&r->inside, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&r->release, __ATOMIC_SEQ_CST))
		usleep(1000);
	__atomic_store_n(&r->left, 1, __ATOMIC_SEQ_CST);
	a->read_unlock();
	a->quiescent_state();
	a->unregister_thread();
	return NULL;
}

static void start_reader(struct reader *r, pthread_t *t, int flavour)
{
	memset(r, 0, sizeof(*r));
	r->flavour = flavour;
	CHECK(pthread_create(t, NULL, reader_main, r) == 0);
	while (!__atomic_load_n(&r->inside, __ATOMIC_SEQ_CST))
		usleep(1000);
}

/* Lets a reader go 50 ms after the grace period began (or right away, if it never waits). */
static void *releaser_main(void *arg)
{
	struct reader *r = (struct reader *)arg;
	usleep(50 * 1000);
	__atomic_store_n(&r->release, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

#if !defined(PORT_LIBURCU)
static int callbacks[FLAVOURS];
#define CALLBACK(f, i) \
	static void cb_##f(struct rcu_head *h) \
	{ \
		(void)h; \
		__atomic_fetch_add(&callbacks[i], 1, __ATOMIC_SEQ_CST); \
	}
CALLBACK(qsbr, QSBR)
CALLBACK(memb, MEMB)
CALLBACK(mb, MB)
CALLBACK(bp, BP)
static void (*const cbs[FLAVOURS])(struct rcu_head *) = { cb_qsbr, cb_memb, cb_mb, cb_bp };
#endif

static void stuck(int sig)
{
	(void)sig;
	static const char msg[] = "liburcu_multiflavour: a grace period waited for a reader of another flavour (or "
				  "never ended): the flavours of this unit are not independent RCUs\n";
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(2);
}

static int value = 42;
static int *published = &value;

int main(void)
{
	signal(SIGALRM, stuck);
	/* <urcu/urcu-bp.h>'s pointer names, whichever flavour is the unit's first. */
	urcu_bp_read_lock();
	CHECK(*urcu_bp_dereference(published) == 42);
	urcu_bp_read_unlock();
	urcu_bp_set_pointer(&published, &value);
	for (int f = 0; f < FLAVOURS; f++) {
		const struct api *a = &apis[f];
		struct reader r;
		pthread_t rt, lt;

		/* Waits for its own flavour's reader, through the prefixed name and through the table. */
		for (int via_table = 0; via_table < 2; via_table++) {
			alarm(30);
			start_reader(&r, &rt, f);
			CHECK(pthread_create(&lt, NULL, releaser_main, &r) == 0);
#if !defined(PORT_LIBURCU)
			if (via_table)
				a->flavor->update_synchronize_rcu();
			else
#endif
				a->synchronize_rcu();
			CHECK(__atomic_load_n(&r.left, __ATOMIC_SEQ_CST));
			CHECK(pthread_join(lt, NULL) == 0);
			CHECK(pthread_join(rt, NULL) == 0);
		}

		/* rcu_dereference() in a section of f (RCU_DEBUG_DEREFERENCE: no abort). */
		a->register_thread();
		a->read_lock();
		CHECK(*rcu_dereference(published) == 42);
		a->read_unlock();
		a->quiescent_state();
		a->unregister_thread();

		/* Does not wait for the others' readers: a reader of f holds its section throughout. */
		alarm(30);
		start_reader(&r, &rt, f);
		for (int g = 0; g < FLAVOURS; g++)
			if (g != f)
				apis[g].synchronize_rcu();
		CHECK(!__atomic_load_n(&r.left, __ATOMIC_SEQ_CST));
		__atomic_store_n(&r.release, 1, __ATOMIC_SEQ_CST);
		CHECK(pthread_join(rt, NULL) == 0);

#if !defined(PORT_LIBURCU)
		/* Callbacks: queued, and run by the flavour's barrier. */
		struct rcu_head h;
		a->call(&h, cbs[f]);
		a->barrier();
		CHECK(__atomic_load_n(&callbacks[f], __ATOMIC_SEQ_CST) == 1);
#endif
		alarm(0);
		printf("liburcu_multiflavour: %s: waits for its own readers only\n", names[f]);
	}
#if !defined(PORT_LIBURCU)
	int first = 0;
	for (int f = 0; f < FLAVOURS; f++) {
		if (apis[f].flavor == &rcu_flavor) {
			struct cds_lfht *ht = cds_lfht_new_flavor(1, 1, 0, 0, apis[f].flavor, NULL);
			CHECK(strcmp(names[f], RCU_FLAVOUR_NAME) == 0);
			CHECK(ht != NULL);
			CHECK(cds_lfht_destroy(ht, NULL) == 0);
			first++;
			continue;
		}
#if defined(RCU_DEBUG)
		fflush(stdout);
		pid_t pid = fork();
		CHECK(pid >= 0);
		if (pid == 0) {
			(void)cds_lfht_new_flavor(1, 1, 0, 0, apis[f].flavor, NULL);
			_exit(0);
		}
		int status;
		CHECK(waitpid(pid, &status, 0) == pid);
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
#else
		CHECK(cds_lfht_new_flavor(1, 1, 0, 0, apis[f].flavor, NULL) == NULL);
#endif
	}
	CHECK(first == 1);
	struct cds_lfht *ht = cds_lfht_new_flavor(1, 1, 0, 0, NULL, NULL); /* NULL: the unit's */
	CHECK(ht != NULL);
	CHECK(cds_lfht_destroy(ht, NULL) == 0);
	printf("liburcu_multiflavour: cds_lfht_new_flavor() takes the first flavour's (%s) table only\n",
	       RCU_FLAVOUR_NAME);
#endif
	return 0;
}
