/* SPDX-License-Identifier: 0BSD */
/*
 * <urcu/rculist.h> of the compat folder: the RCU list functions and walks (cds_list_*_rcu).
 * rcu.h with liburcu's names (compat/liburcu/rcu_liburcu_names.h has them all).
 */
#include "../rcu_liburcu.h"
