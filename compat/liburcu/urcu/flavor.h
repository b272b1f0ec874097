/* SPDX-License-Identifier: 0BSD */
/*
 * <urcu/flavor.h> of the compat folder: struct rcu_flavor_struct, rcu_flavor and urcu_<flavour>_flavor.
 * rcu.h with liburcu's names (compat/liburcu/rcu_liburcu_names.h has them all).
 */
#include "../rcu_liburcu.h"
