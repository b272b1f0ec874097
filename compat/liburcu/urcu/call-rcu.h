/* SPDX-License-Identifier: 0BSD */
/*
 * <urcu/call-rcu.h> of the compat folder: call_rcu(), rcu_barrier(), the call_rcu_data API and the fork handlers.
 * rcu.h with liburcu's names (compat/liburcu/rcu_liburcu_names.h has them all).
 */
#include "../rcu_liburcu.h"
