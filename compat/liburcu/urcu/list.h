/* SPDX-License-Identifier: 0BSD */
/*
 * <urcu/list.h> of the compat folder: struct cds_list_head and the updaters' list functions, over rcu.h's lists.
 * rcu.h with liburcu's names (compat/liburcu/rcu_liburcu_names.h has them all).
 */
#include "../rcu_liburcu.h"
