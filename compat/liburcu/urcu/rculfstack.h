/* SPDX-License-Identifier: 0BSD */
/*
 * compat/liburcu/urcu/rculfstack.h: liburcu's deprecated <urcu/rculfstack.h>
 * (cds_lfs_*_rcu), as a thin layer over rcu_lfstack.h, whose push and pop are the same
 * algorithm: cds_lfs_pop_rcu() is rcu_lfs_pop_unlocked(), to be called inside an RCU read-side
 * section, and what it returns may be freed, pushed again or have its node written only after a
 * grace period. As in liburcu, the calls are marked deprecated unless CDS_LFS_RCU_DEPRECATED is
 * defined first (empty, to silence the warnings).
 */
#ifndef RCU_COMPAT_URCU_RCULFSTACK_H
#define RCU_COMPAT_URCU_RCULFSTACK_H

#include "../../../rcu_lfstack.h"
#if defined(__has_include)
#if __has_include("compiler.h")
#include "compiler.h"
#endif
#endif

#ifndef CDS_LFS_RCU_DEPRECATED
#define CDS_LFS_RCU_DEPRECATED \
	__attribute__((deprecated("urcu/rculfstack.h is deprecated. Please use urcu/lfstack.h instead.")))
#endif

#if defined(__cplusplus)
extern "C" {
#endif

#define cds_lfs_node_rcu rcu_lfs_node
#define cds_lfs_stack_rcu rcu_lfs_stack

static inline CDS_LFS_RCU_DEPRECATED void cds_lfs_node_init_rcu(struct rcu_lfs_node *node)
{
	rcu_lfs_node_init(node);
}

/* Not marked deprecated: liburcu's inline form is not either. */
static inline void cds_lfs_init_rcu(struct rcu_lfs_stack *s)
{
	rcu_lfs_init_unlocked(s);
}

static inline CDS_LFS_RCU_DEPRECATED int cds_lfs_push_rcu(struct rcu_lfs_stack *s, struct rcu_lfs_node *node)
{
	return rcu_lfs_push(s, node);
}

static inline CDS_LFS_RCU_DEPRECATED struct rcu_lfs_node *cds_lfs_pop_rcu(struct rcu_lfs_stack *s)
{
	return rcu_lfs_pop_unlocked(s);
}

#if defined(__cplusplus)
}
#endif

#endif /* RCU_COMPAT_URCU_RCULFSTACK_H */
