/* SPDX-License-Identifier: 0BSD */
/* <urcu/urcu-mb.h> of the compat folder: rcu.h in the MB flavour with liburcu's names: urcu_mb_*, and the unprefixed ones when it is the unit's first flavour (rcu_liburcu.h). */
#ifndef RCU__COMPAT_URCU_URCU_MB_H
#define RCU__COMPAT_URCU_URCU_MB_H
#define RCU__URCU_ASK_MB 1
#include "../rcu_liburcu.h"
#endif
