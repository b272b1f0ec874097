/* SPDX-License-Identifier: 0BSD */
/*
 * <urcu/urcu-poll.h> of the compat folder: struct urcu_gp_poll_state.
 * rcu.h with liburcu's names (compat/liburcu/rcu_liburcu_names.h has them all).
 */
#include "../rcu_liburcu.h"
