/* SPDX-License-Identifier: 0BSD */
/*
 * <urcu/hlist.h> of the compat folder: struct cds_hlist_head / cds_hlist_node and the updaters' functions, over rcu.h's hash lists.
 * rcu.h with liburcu's names (compat/liburcu/rcu_liburcu_names.h has them all).
 */
#include "../rcu_liburcu.h"
