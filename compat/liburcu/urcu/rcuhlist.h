/* SPDX-License-Identifier: 0BSD */
/*
 * <urcu/rcuhlist.h> of the compat folder: the RCU hash-list functions and walks (cds_hlist_*_rcu).
 * rcu.h with liburcu's names (compat/liburcu/rcu_liburcu_names.h has them all).
 */
#include "../rcu_liburcu.h"
