/* SPDX-License-Identifier: 0BSD */
/*
 * <urcu/annotate.h> of the compat folder: liburcu's annotations for ThreadSanitizer, which tell it
 * of orderings that fences give. Accepted and ignored here: the compat headers use atomic
 * operations with orders, which ThreadSanitizer understands. No flavour, no rcu.h.
 */
#ifndef RCU__COMPAT_URCU_ANNOTATE_H
#define RCU__COMPAT_URCU_ANNOTATE_H

#include "compiler.h"

enum cmm_annotate { CMM_ANNOTATE_VOID, CMM_ANNOTATE_LOAD, CMM_ANNOTATE_STORE, CMM_ANNOTATE_MB };
typedef enum cmm_annotate cmm_annotate_t;
#define cmm_annotate_define(name) cmm_annotate_t name __attribute__((__unused__)) = CMM_ANNOTATE_VOID
#define cmm_annotate_group_mb_acquire(group) ((void)(group))
#define cmm_annotate_group_mb_release(group) ((void)(group))
#define cmm_annotate_group_mem_acquire(group, mem) ((void)(group), (void)(mem))
#define cmm_annotate_group_mem_release(group, mem) ((void)(group), (void)(mem))
#define cmm_annotate_mem_acquire(mem) ((void)(mem))
#define cmm_annotate_mem_release(mem) ((void)(mem))

#endif /* RCU__COMPAT_URCU_ANNOTATE_H */
