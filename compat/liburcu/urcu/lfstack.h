/* SPDX-License-Identifier: 0BSD */
/*
 * compat/liburcu/urcu/lfstack.h: liburcu's <urcu/lfstack.h> (cds_lfs_*), mapped onto
 * rcu_lfstack.h. Names only (docs/queues.md has the table and the differences).
 *
 * liburcu's two stack types, struct cds_lfs_stack (with the pop mutex) and struct
 * __cds_lfs_stack (without), are one type here, struct rcu_lfs_stack, which carries the mutex;
 * cds_lfs_stack_ptr_t is a plain pointer. __cds_lfs_init() leaves the mutex alone.
 */
#ifndef RCU_COMPAT_URCU_LFSTACK_H
#define RCU_COMPAT_URCU_LFSTACK_H

#include "../../../rcu_lfstack.h"

#define cds_lfs_node rcu_lfs_node
#define cds_lfs_head rcu_lfs_head
#define cds_lfs_stack rcu_lfs_stack
#define __cds_lfs_stack rcu_lfs_stack
typedef struct rcu_lfs_stack *cds_lfs_stack_ptr_t;
typedef const struct rcu_lfs_stack *cds_lfs_stack_const_ptr_t;

#define cds_lfs_node_init rcu_lfs_node_init
#define cds_lfs_init rcu_lfs_init
#define __cds_lfs_init rcu_lfs_init_unlocked
#define cds_lfs_destroy rcu_lfs_destroy
#define cds_lfs_empty rcu_lfs_empty
#define cds_lfs_push rcu_lfs_push

/* The stack's mutex, and the calls that take it. */
#define cds_lfs_pop_lock rcu_lfs_pop_lock
#define cds_lfs_pop_unlock rcu_lfs_pop_unlock
#define cds_lfs_pop_blocking rcu_lfs_pop_blocking
#define cds_lfs_pop_all_blocking rcu_lfs_pop_all_blocking

/* The caller synchronises: RCU read-side section, a mutex, or one thread (rcu_lfstack.h's >>doc). */
#define __cds_lfs_pop rcu_lfs_pop_unlocked
#define __cds_lfs_pop_all rcu_lfs_pop_all_unlocked

#define cds_lfs_for_each rcu_lfs_for_each
#define cds_lfs_for_each_safe rcu_lfs_for_each_safe

static inline struct rcu_lfs_stack *cds_lfs_stack_cast(struct rcu_lfs_stack *s)
{
	return s;
}

static inline const struct rcu_lfs_stack *cds_lfs_stack_const_cast(const struct rcu_lfs_stack *s)
{
	return s;
}

#endif /* RCU_COMPAT_URCU_LFSTACK_H */
