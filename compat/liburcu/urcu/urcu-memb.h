/* SPDX-License-Identifier: 0BSD */
/* <urcu/urcu-memb.h> of the compat folder: rcu.h in the MEMB flavour with liburcu's names: urcu_memb_*, and the unprefixed ones when it is the unit's first flavour (rcu_liburcu.h). */
#ifndef RCU__COMPAT_URCU_URCU_MEMB_H
#define RCU__COMPAT_URCU_URCU_MEMB_H
#define RCU__URCU_ASK_MEMB 1
#include "../rcu_liburcu.h"
#endif
