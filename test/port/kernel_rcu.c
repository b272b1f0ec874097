/* SPDX-License-Identifier: 0BSD */
/*
 * test/port/kernel_rcu.c: kernel code that uses RCU the way Documentation/RCU/whatisRCU.rst and
 * the kernel's drivers do (written here, not copied): an RCU-protected pointer declared
 * `struct foo __rcu *`, updated under a spinlock with rcu_dereference_protected() and
 * rcu_replace_pointer(), reclaimed with synchronize_rcu(), call_rcu() and kfree_rcu(); lookups that
 * hand the object over to a reference count (rcu_pointer_handoff()); a path shared by readers and
 * the updater (rcu_dereference_check()); the _bh and _sched read sides; an SRCU domain.
 *
 * The port: the kernel's RCU includes stay and find rcu.h's through the build's -I compat/kernel
 * (test/port/meson.build); the kernel's other headers (locks, allocation, refcounts) are replaced
 * by the user's own kernel_shim.h, which defines no RCU name. The
 * kernel code is unchanged; after it, a user-space harness (threads, registration, checks) drives
 * it. Valid C and C++; exits 0 when every check passes.
 */
#include <linux/rcupdate.h>
#include <linux/srcu.h>
#include "kernel_shim.h"    /* was <linux/slab.h>, <linux/spinlock.h>, <linux/refcount.h> */

/* ---- the kernel code ------------------------------------------------------------------------ */

struct foo {
	int a;
	long c;                 /* 3 * a, always: a reader that sees otherwise saw a torn copy */
	refcount_t ref;
	struct rcu_head rcu;
};

static DEFINE_SPINLOCK(foo_lock);
static struct foo __rcu *gbl_foo;
static int foo_reclaimed;

static void foo_reclaim(struct rcu_head *rp)
{
	struct foo *fp = container_of(rp, struct foo, rcu);

	fp->c = -1;
	kfree(fp);
	__atomic_fetch_add(&foo_reclaimed, 1, __ATOMIC_RELAXED);
}

static void foo_put(struct foo *fp)
{
	if (refcount_dec_and_test(&fp->ref))
		call_rcu(&fp->rcu, foo_reclaim);
}

/* Copy, update, publish; the old version goes after a grace period, one of three ways. */
static int foo_update_a(int new_a, int how)
{
	struct foo *new_fp, *old_fp;

	new_fp = (struct foo *)kmalloc(sizeof(*new_fp), GFP_KERNEL);
	if (!new_fp)
		return -1;
	spin_lock(&foo_lock);
	old_fp = rcu_dereference_protected(gbl_foo, lockdep_is_held(&foo_lock));
	BUG_ON(old_fp->a != new_a - 1); /* the harness counts a up from 0 */
	/* Field by field, not `*new_fp = *old_fp`: readers change old_fp->ref meanwhile. */
	new_fp->a = new_a;
	new_fp->c = 3L * new_a;
	refcount_set(&new_fp->ref, 1);
	if (how == 0) {
		rcu_assign_pointer(gbl_foo, new_fp);
	} else {
		old_fp = rcu_replace_pointer(gbl_foo, new_fp, lockdep_is_held(&foo_lock));
	}
	spin_unlock(&foo_lock);
	if (how == 0) {
		synchronize_rcu();
		foo_put(old_fp);
	} else if (how == 1) {
		foo_put(old_fp);
	} else {
		synchronize_rcu_expedited();
		foo_put(old_fp);
	}
	return 0;
}

/* Readers and the updater alike may call it: a section, or the lock, protects the load. */
static int foo_peek_a(void)
{
	return rcu_dereference_check(gbl_foo, lockdep_is_held(&foo_lock))->a;
}

static int foo_get_a(long *c)
{
	int retval;

	rcu_read_lock();
	BUG_ON(!rcu_read_lock_held());
	struct foo *fp = rcu_dereference(gbl_foo);
	retval = fp->a;
	*c = fp->c;
	BUG_ON(foo_peek_a() < 0);
	rcu_read_unlock();
	return retval;
}

/* A lookup that keeps the object past the section: a reference, then rcu_pointer_handoff(). */
static struct foo *foo_get(void)
{
	struct foo *fp, *ret = NULL;

	rcu_read_lock();
	fp = rcu_dereference(gbl_foo);
	if (fp && refcount_inc_not_zero(&fp->ref))
		ret = rcu_pointer_handoff(fp);
	rcu_read_unlock();
	return ret;
}

static int foo_get_a_bh(void)
{
	int a;

	rcu_read_lock_bh();
	a = rcu_dereference_bh(gbl_foo)->a;
	rcu_read_unlock_bh();
	rcu_read_lock_sched();
	a += rcu_dereference_sched(gbl_foo)->a - a;
	rcu_read_unlock_sched();
	return a;
}

static int foo_init(void)
{
	struct foo *fp = (struct foo *)kzalloc(sizeof(*fp), GFP_KERNEL);

	if (!fp)
		return -1;
	refcount_set(&fp->ref, 1);
	RCU_INIT_POINTER(gbl_foo, fp);
	return 0;
}

static void foo_exit(void)
{
	struct foo *fp;

	spin_lock(&foo_lock);
	fp = rcu_dereference_protected(gbl_foo, lockdep_is_held(&foo_lock));
	RCU_INIT_POINTER(gbl_foo, NULL);
	spin_unlock(&foo_lock);
	if (fp)
		kfree_rcu(fp, rcu);
	rcu_barrier();
}

/* SRCU: readers that may sleep, in a domain of their own. */
DEFINE_STATIC_SRCU(cfg_srcu);
struct cfg {
	int version;
	struct rcu_head rcu;
};
static struct cfg __rcu *gbl_cfg;
static int cfg_reclaimed;

static void cfg_reclaim(struct rcu_head *rp)
{
	kfree(container_of(rp, struct cfg, rcu));
	__atomic_fetch_add(&cfg_reclaimed, 1, __ATOMIC_RELAXED);
}

static int cfg_version(void)
{
	int idx, v;

	idx = srcu_read_lock(&cfg_srcu);
	v = srcu_dereference(gbl_cfg, &cfg_srcu)->version;
	srcu_read_unlock(&cfg_srcu, idx);
	return v;
}

static void cfg_set(int version)
{
	struct cfg *c = (struct cfg *)kmalloc(sizeof(*c), GFP_KERNEL), *old;

	c->version = version;
	spin_lock(&foo_lock);
	old = rcu_replace_pointer(gbl_cfg, c, lockdep_is_held(&foo_lock));
	spin_unlock(&foo_lock);
	if (old)
		call_srcu(&cfg_srcu, &old->rcu, cfg_reclaim);
}

/* ---- the user-space harness ----------------------------------------------------------------- */

static int stop;
static long reads, torn, handoffs;

static void *reader(void *arg)
{
	(void)arg;
	rcu_register_thread(); /* user space: readers register (a no-op in BP) */
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		long c;
		int a = foo_get_a(&c);
		if (c != 3L * a)
			__atomic_fetch_add(&torn, 1, __ATOMIC_RELAXED);
		struct foo *fp = foo_get();
		if (fp) {
			if (fp->c != 3L * fp->a)
				__atomic_fetch_add(&torn, 1, __ATOMIC_RELAXED);
			foo_put(fp);
			__atomic_fetch_add(&handoffs, 1, __ATOMIC_RELAXED);
		}
		(void)foo_get_a_bh();
		(void)cfg_version();
		__atomic_fetch_add(&reads, 1, __ATOMIC_RELAXED);
		rcu_quiescent_state();
	}
	rcu_unregister_thread();
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	int updates = 0;

	BUG_ON(foo_init() != 0);
	cfg_set(1);
	for (int i = 0; i < 2; i++)
		BUG_ON(pthread_create(&t[i], NULL, reader, NULL) != 0);
	for (int a = 1; a <= 300; a++) {
		BUG_ON(foo_update_a(a, a % 3) != 0);
		updates++;
		if (a % 30 == 0) {
			cfg_set(a);
			BUG_ON(cfg_version() != a);
		}
		spin_lock(&foo_lock);
		BUG_ON(foo_peek_a() != a);
		spin_unlock(&foo_lock);
	}
	while (__atomic_load_n(&reads, __ATOMIC_RELAXED) < 20)
		sched_yield();
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);

	BUG_ON(!rcu_access_pointer(gbl_foo));
	foo_exit();
	BUG_ON(rcu_access_pointer(gbl_foo) != NULL);
	/* Every replaced version went through foo_reclaim(); the last one through kfree_rcu(). */
	BUG_ON(__atomic_load_n(&foo_reclaimed, __ATOMIC_RELAXED) != updates);
	BUG_ON(torn != 0);
	srcu_barrier(&cfg_srcu);
	BUG_ON(__atomic_load_n(&cfg_reclaimed, __ATOMIC_RELAXED) != 10);
	spin_lock(&foo_lock);
	kfree(rcu_replace_pointer(gbl_cfg, NULL, lockdep_is_held(&foo_lock)));
	spin_unlock(&foo_lock);
	pr_info("kernel_rcu: %d updates, %ld reads, %ld handoffs\n", updates, reads, handoffs);
	return 0;
}
