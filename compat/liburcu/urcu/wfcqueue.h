/* SPDX-License-Identifier: 0BSD */
/*
 * compat/liburcu/urcu/wfcqueue.h: liburcu's <urcu/wfcqueue.h> (cds_wfcq_*), mapped onto
 * rcu_wfcqueue.h. Names only: every cds_ name is the native one (docs/queues.md has the table
 * and the differences); nothing here has semantics of its own.
 *
 * liburcu has two head types, struct cds_wfcq_head (with the dequeue mutex) and struct
 * __cds_wfcq_head (without), and a transparent union so that one function takes either;
 * rcu_wfcqueue.h has one, which carries the mutex, so both names are struct rcu_wfcq_head and
 * cds_wfcq_head_ptr_t is a plain pointer. __cds_wfcq_init() leaves the mutex alone, as liburcu's
 * leaves it out. The _LGPL_SOURCE and the library forms are the same inline functions.
 */
#ifndef RCU_COMPAT_URCU_WFCQUEUE_H
#define RCU_COMPAT_URCU_WFCQUEUE_H

#include "../../../rcu_wfcqueue.h"
/* liburcu's header brings these in; so do we, once the compat folder has them. */
#if defined(__has_include)
#if __has_include("compiler.h")
#include "compiler.h"
#endif
#if __has_include("arch.h")
#include "arch.h"
#endif
#endif

#define cds_wfcq_node rcu_wfcq_node
#define cds_wfcq_head rcu_wfcq_head
#define __cds_wfcq_head rcu_wfcq_head
#define cds_wfcq_tail rcu_wfcq_tail
typedef struct rcu_wfcq_head *cds_wfcq_head_ptr_t;
typedef const struct rcu_wfcq_head *cds_wfcq_head_const_ptr_t;
#define cds_wfcq_ret rcu_wfcq_ret
#define cds_wfcq_state rcu_wfcq_state
#define CDS_WFCQ_WOULDBLOCK RCU_WFCQ_WOULDBLOCK
#define CDS_WFCQ_RET_WOULDBLOCK RCU_WFCQ_RET_WOULDBLOCK
#define CDS_WFCQ_RET_DEST_EMPTY RCU_WFCQ_RET_DEST_EMPTY
#define CDS_WFCQ_RET_DEST_NON_EMPTY RCU_WFCQ_RET_DEST_NON_EMPTY
#define CDS_WFCQ_RET_SRC_EMPTY RCU_WFCQ_RET_SRC_EMPTY
#define CDS_WFCQ_STATE_LAST RCU_WFCQ_STATE_LAST

#define cds_wfcq_node_init rcu_wfcq_node_init
#define cds_wfcq_init rcu_wfcq_init
#define __cds_wfcq_init rcu_wfcq_init_unlocked
#define cds_wfcq_destroy rcu_wfcq_destroy
#define cds_wfcq_empty rcu_wfcq_empty
#define cds_wfcq_enqueue rcu_wfcq_enqueue

/* The queue's mutex, and the calls that take it. */
#define cds_wfcq_dequeue_lock rcu_wfcq_dequeue_lock
#define cds_wfcq_dequeue_unlock rcu_wfcq_dequeue_unlock
#define cds_wfcq_dequeue_blocking rcu_wfcq_dequeue_blocking
#define cds_wfcq_dequeue_with_state_blocking rcu_wfcq_dequeue_with_state_blocking
#define cds_wfcq_splice_blocking rcu_wfcq_splice_blocking

/* The caller excludes (liburcu's synchronisation table; rcu_wfcqueue.h's >>doc). */
#define __cds_wfcq_dequeue_blocking rcu_wfcq_dequeue_blocking_unlocked
#define __cds_wfcq_dequeue_with_state_blocking rcu_wfcq_dequeue_with_state_blocking_unlocked
#define __cds_wfcq_dequeue_nonblocking rcu_wfcq_dequeue_nonblocking_unlocked
#define __cds_wfcq_dequeue_with_state_nonblocking rcu_wfcq_dequeue_with_state_nonblocking_unlocked
#define __cds_wfcq_splice_blocking rcu_wfcq_splice_blocking_unlocked
#define __cds_wfcq_splice_nonblocking rcu_wfcq_splice_nonblocking_unlocked
#define __cds_wfcq_first_blocking rcu_wfcq_first_blocking_unlocked
#define __cds_wfcq_first_nonblocking rcu_wfcq_first_nonblocking_unlocked
#define __cds_wfcq_next_blocking rcu_wfcq_next_blocking_unlocked
#define __cds_wfcq_next_nonblocking rcu_wfcq_next_nonblocking_unlocked
#define __cds_wfcq_for_each_blocking rcu_wfcq_for_each_blocking_unlocked
#define __cds_wfcq_for_each_blocking_safe rcu_wfcq_for_each_blocking_safe_unlocked

/* liburcu's casts between its two head types (one type here: the identity). */
static inline struct rcu_wfcq_head *cds_wfcq_head_cast(struct rcu_wfcq_head *head)
{
	return head;
}

static inline const struct rcu_wfcq_head *cds_wfcq_head_const_cast(const struct rcu_wfcq_head *head)
{
	return head;
}

#define __cds_wfcq_head_cast cds_wfcq_head_cast
#define __cds_wfcq_head_const_cast cds_wfcq_head_const_cast

#endif /* RCU_COMPAT_URCU_WFCQUEUE_H */
