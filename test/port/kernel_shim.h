/* SPDX-License-Identifier: 0BSD */
/*
 * test/port/kernel_shim.h: what a user-space port of kernel code supplies itself: the kernel's
 * names that are not RCU's (locks, allocation, reference counts, lockdep, printk, BUG_ON), in
 * their simplest user-space form. It defines no RCU name: those come from rcu.h's kernel names
 * (compat/kernel's <linux/rcupdate.h>, ...), which is what test/port/kernel_*.c test. It stands
 * where <linux/slab.h>, <linux/spinlock.h> and <linux/refcount.h> stood; include it after them.
 */
#ifndef RCU_TEST_KERNEL_SHIM_H
#define RCU_TEST_KERNEL_SHIM_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef pthread_mutex_t spinlock_t;
#define DEFINE_SPINLOCK(x) spinlock_t x = PTHREAD_MUTEX_INITIALIZER
#define spin_lock(l) pthread_mutex_lock(l)
#define spin_unlock(l) pthread_mutex_unlock(l)
/* lockdep: nothing to check in user space (rcu.h does not evaluate the condition anyway). */
#define lockdep_is_held(l) ((void)(l), 1)

#define GFP_KERNEL 0
#define kmalloc(size, gfp) malloc(size)
#define kzalloc(size, gfp) calloc(1, (size))
#define kfree(p) free(p)

typedef struct {
	int refs;
} refcount_t;
static inline void refcount_set(refcount_t *r, int n)
{
	__atomic_store_n(&r->refs, n, __ATOMIC_RELAXED);
}
static inline int refcount_inc_not_zero(refcount_t *r)
{
	int old = __atomic_load_n(&r->refs, __ATOMIC_RELAXED);
	while (old != 0)
		if (__atomic_compare_exchange_n(&r->refs, &old, old + 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return 1;
	return 0;
}
static inline int refcount_dec_and_test(refcount_t *r)
{
	return __atomic_sub_fetch(&r->refs, 1, __ATOMIC_ACQ_REL) == 0;
}

#define pr_info(...) printf(__VA_ARGS__)
#define BUG_ON(c) \
	do { \
		if (c) { \
			fprintf(stderr, "%s:%d: BUG_ON(%s)\n", __FILE__, __LINE__, #c); \
			abort(); \
		} \
	} while (0)

#endif
