/* SPDX-License-Identifier: 0BSD */
/*
 * compat/liburcu/urcu/wfstack.h: liburcu's <urcu/wfstack.h> (cds_wfs_*), mapped onto
 * rcu_wfstack.h. Names only (docs/queues.md has the table and the differences).
 *
 * liburcu's two stack types, struct cds_wfs_stack (with the pop mutex) and struct
 * __cds_wfs_stack (without), are one type here, struct rcu_wfs_stack, which carries the mutex;
 * cds_wfs_stack_ptr_t is a plain pointer. __cds_wfs_init() leaves the mutex alone.
 */
#ifndef RCU_COMPAT_URCU_WFSTACK_H
#define RCU_COMPAT_URCU_WFSTACK_H

#include "../../../rcu_wfstack.h"
#if defined(__has_include)
#if __has_include("compiler.h")
#include "compiler.h"
#endif
#endif

#define cds_wfs_node rcu_wfs_node
#define cds_wfs_head rcu_wfs_head
#define cds_wfs_stack rcu_wfs_stack
#define __cds_wfs_stack rcu_wfs_stack
typedef struct rcu_wfs_stack *cds_wfs_stack_ptr_t;
typedef const struct rcu_wfs_stack *cds_wfs_stack_const_ptr_t;
#define cds_wfs_state rcu_wfs_state
#define CDS_WFS_WOULDBLOCK RCU_WFS_WOULDBLOCK
/* The empty stack's head, for static initialisers as liburcu's own urcu-wait.h writes them. */
#define CDS_WFS_END RCU__WFS_END
#define CDS_WFS_STATE_LAST RCU_WFS_STATE_LAST

#define cds_wfs_node_init rcu_wfs_node_init
#define cds_wfs_init rcu_wfs_init
#define __cds_wfs_init rcu_wfs_init_unlocked
#define cds_wfs_destroy rcu_wfs_destroy
#define cds_wfs_empty rcu_wfs_empty
#define cds_wfs_push rcu_wfs_push

/* The stack's mutex, and the calls that take it. */
#define cds_wfs_pop_lock rcu_wfs_pop_lock
#define cds_wfs_pop_unlock rcu_wfs_pop_unlock
#define cds_wfs_pop_blocking rcu_wfs_pop_blocking
#define cds_wfs_pop_with_state_blocking rcu_wfs_pop_with_state_blocking
#define cds_wfs_pop_all_blocking rcu_wfs_pop_all_blocking

/* Walking a popped list. */
#define cds_wfs_first rcu_wfs_first
#define cds_wfs_next_blocking rcu_wfs_next_blocking
#define cds_wfs_next_nonblocking rcu_wfs_next_nonblocking
#define cds_wfs_for_each_blocking rcu_wfs_for_each_blocking
#define cds_wfs_for_each_blocking_safe rcu_wfs_for_each_blocking_safe

/* The caller synchronises: RCU read-side section, a mutex, or one thread (rcu_wfstack.h's >>doc). */
#define __cds_wfs_pop_blocking rcu_wfs_pop_blocking_unlocked
#define __cds_wfs_pop_with_state_blocking rcu_wfs_pop_with_state_blocking_unlocked
#define __cds_wfs_pop_nonblocking rcu_wfs_pop_nonblocking_unlocked
#define __cds_wfs_pop_with_state_nonblocking rcu_wfs_pop_with_state_nonblocking_unlocked
#define __cds_wfs_pop_all rcu_wfs_pop_all_unlocked

static inline struct rcu_wfs_stack *cds_wfs_stack_cast(struct rcu_wfs_stack *s)
{
	return s;
}

static inline const struct rcu_wfs_stack *cds_wfs_stack_const_cast(const struct rcu_wfs_stack *s)
{
	return s;
}

#endif /* RCU_COMPAT_URCU_WFSTACK_H */
