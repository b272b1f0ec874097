/* SPDX-License-Identifier: 0BSD */
/*
 * <urcu/pointer.h> of the compat folder: rcu_dereference(), rcu_assign_pointer(), rcu_set_pointer(), rcu_xchg_pointer(), rcu_cmpxchg_pointer().
 * rcu.h with liburcu's names (compat/liburcu/rcu_liburcu_names.h has them all).
 */
#include "../rcu_liburcu.h"
