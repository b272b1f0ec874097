/* SPDX-License-Identifier: 0BSD */
/*
 * <urcu/ref.h> of the compat folder: liburcu's reference counts. No flavour, no rcu.h.
 * urcu_ref_get() aborts when the count would overflow; urcu_ref_put() calls release() when it
 * drops the last reference (seq_cst, with a full fence: what came before every put is visible to
 * release()).
 */
#ifndef RCU__COMPAT_URCU_REF_H
#define RCU__COMPAT_URCU_REF_H

#include "assert.h"
#include "uatomic.h"
#include <limits.h>
#include <stdlib.h>
#if !defined(__cplusplus)
#include <stdbool.h>
#endif

struct urcu_ref {
	long refcount; /* (atomic) */
};

static inline void urcu_ref_set(struct urcu_ref *ref, long val)
{
	uatomic_store(&ref->refcount, val);
}

static inline void urcu_ref_init(struct urcu_ref *ref)
{
	urcu_ref_set(ref, 1);
}

/* One more reference unless the count is at `floor` or LONG_MAX: true if taken. */
static inline bool rcu__urcu_ref_take(struct urcu_ref *ref, long floor)
{
	long cur = uatomic_load(&ref->refcount);
	while (cur != floor && cur != LONG_MAX) {
		long seen = uatomic_cmpxchg(&ref->refcount, cur, cur + 1);
		if (seen == cur)
			return true;
		cur = seen;
	}
	return false;
}

static inline bool __attribute__((__warn_unused_result__)) urcu_ref_get_safe(struct urcu_ref *ref)
{
	return rcu__urcu_ref_take(ref, LONG_MIN);
}

static inline void urcu_ref_get(struct urcu_ref *ref)
{
	if (!urcu_ref_get_safe(ref))
		abort();
}

static inline void urcu_ref_put(struct urcu_ref *ref, void (*release)(struct urcu_ref *))
{
	long left = uatomic_sub_return(&ref->refcount, 1);
	urcu_posix_assert(left >= 0);
	if (left == 0)
		release(ref);
}

static inline bool urcu_ref_get_unless_zero(struct urcu_ref *ref)
{
	return rcu__urcu_ref_take(ref, 0);
}

#endif /* RCU__COMPAT_URCU_REF_H */
