/* SPDX-License-Identifier: 0BSD */
/*
 * <urcu/defer.h> of the compat folder: defer_rcu() and the rcu_defer_*() functions.
 * rcu.h with liburcu's names (compat/liburcu/rcu_liburcu_names.h has them all).
 */
#include "../rcu_liburcu.h"
