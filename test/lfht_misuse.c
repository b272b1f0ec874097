/* SPDX-License-Identifier: 0BSD */
/*
 * test/lfht_misuse.c: misuse of rcu_lfht.h under RCU_DEBUG (test/meson.build builds this file
 * with -DRCU_DEBUG=1): each aborts with rcu.h's line "rcu.h: <call> in thread <tid> "<name>":
 * <rule>". Each death test runs in a forked child; the last test runs the correct counterparts
 * in-process, so a check that fires always would fail there.
 */
#include "rcu_lfht.h"
#include "harness.h"

#include <sys/prctl.h>
#include <sys/resource.h>

#if !defined(RCU_DEBUG)
#error "test/lfht_misuse.c needs RCU_DEBUG (see test/meson.build)"
#endif

#define CHILD_NAME "lfht-misuse"

struct obj {
	struct rcu_lfht_node node;
	unsigned long key;
};

static int match(struct rcu_lfht_node *n, const void *key)
{
	return rcu_lfht_entry(n, struct obj, node)->key == *(const unsigned long *)key;
}

static struct rcu_lfht *table(void)
{
	struct rcu_lfht *ht = rcu_lfht_new(4, 1, 0, 0);
	if (!ht)
		abort();
	return ht;
}

static void child_main(void *arg)
{
	void (*misuse)(void) = (void (*)(void))(uintptr_t)arg;
	struct rlimit none = { 0, 0 };
	setrlimit(RLIMIT_CORE, &none);
	alarm(20); /* a missed check may deadlock: SIGALRM reads as a failure */
	prctl(PR_SET_NAME, CHILD_NAME, 0, 0, 0);
	rcu_register_thread();
	misuse();
}

static void expect_misuse(void (*misuse)(void), const char *call, const char *rule)
{
	char who[160];
	snprintf(who, sizeof who, "rcu.h: %s in thread ", call);
	void *arg = (void *)(uintptr_t)misuse;
	test_expect_abort(child_main, arg, who);
	test_expect_abort(child_main, arg, "\"" CHILD_NAME "\": ");
	test_expect_abort(child_main, arg, rule);
}

/* Outside a section: QSBR offline, elsewhere no rcu_read_lock(). */
static void leave_sections(void)
{
#if defined(RCU_FLAVOUR_QSBR)
	rcu_thread_offline();
#endif
}

static void lookup_outside(void)
{
	struct rcu_lfht *ht = table();
	struct rcu_lfht_iter it;
	unsigned long k = 1;
	leave_sections();
	rcu_lfht_lookup(ht, 1, match, &k, &it);
}

static void add_outside(void)
{
	struct rcu_lfht *ht = table();
	static struct obj o = { .key = 1 };
	leave_sections();
	rcu_lfht_add(ht, 1, &o.node);
}

static void del_outside(void)
{
	struct rcu_lfht *ht = table();
	static struct obj o = { .key = 1 };
	rcu_read_lock();
	rcu_lfht_add(ht, 1, &o.node);
	rcu_read_unlock();
	leave_sections();
	rcu_lfht_del(ht, &o.node);
}

static void first_outside(void)
{
	struct rcu_lfht *ht = table();
	struct rcu_lfht_iter it;
	leave_sections();
	rcu_lfht_first(ht, &it);
}

static void resize_inside(void)
{
	struct rcu_lfht *ht = table();
	rcu_read_lock();
	rcu_lfht_resize(ht, 64);
}

#define OUTSIDE "called outside a read-side critical section"

Test(lfht_misuse, lookup_outside_a_section)
{
	expect_misuse(lookup_outside, "rcu_lfht_lookup()", OUTSIDE);
}

Test(lfht_misuse, add_outside_a_section)
{
	expect_misuse(add_outside, "rcu_lfht_add()", OUTSIDE);
}

Test(lfht_misuse, del_outside_a_section)
{
	expect_misuse(del_outside, "rcu_lfht_del()", OUTSIDE);
}

Test(lfht_misuse, first_outside_a_section)
{
	expect_misuse(first_outside, "rcu_lfht_first()", OUTSIDE);
}

Test(lfht_misuse, resize_inside_a_section)
{
	expect_misuse(resize_inside, "rcu_lfht_resize()", "deadlock");
}

/* The correct counterparts, in-process: none of the checks above fires. */
Test(lfht_misuse, correct_use_passes)
{
	rcu_register_thread();
	struct rcu_lfht *ht = table();
	static struct obj o = { .key = 1 };
	struct rcu_lfht_iter it;
	unsigned long k = 1;
	rcu_read_lock();
	rcu_lfht_add(ht, 1, &o.node);
	rcu_lfht_lookup(ht, 1, match, &k, &it);
	cr_assert_eq(it.node, &o.node);
	rcu_lfht_first(ht, &it);
	cr_assert_eq(it.node, &o.node);
	rcu_read_unlock();
	rcu_lfht_resize(ht, 64);
	cr_assert_eq(rcu_lfht_buckets(ht), 64);
	rcu_read_lock();
	cr_assert_eq(rcu_lfht_del(ht, &o.node), 0);
	rcu_read_unlock();
	synchronize_rcu();
	cr_assert_eq(rcu_lfht_destroy(ht), 0);
	rcu_unregister_thread();
}
