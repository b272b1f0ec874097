/* SPDX-License-Identifier: 0BSD */
/* <urcu/urcu-bp.h> of the compat folder: rcu.h in the BP flavour with liburcu's names: urcu_bp_*, and the unprefixed ones when it is the unit's first flavour (rcu_liburcu.h). */
#ifndef RCU__COMPAT_URCU_URCU_BP_H
#define RCU__COMPAT_URCU_URCU_BP_H
#define RCU__URCU_ASK_BP 1
#include "../rcu_liburcu.h"
#endif
