/* SPDX-License-Identifier: 0BSD */
/* <urcu/urcu-qsbr.h> of the compat folder: rcu.h in the QSBR flavour with liburcu's names: urcu_qsbr_*, and the unprefixed ones when it is the unit's first flavour (rcu_liburcu.h). */
#ifndef RCU__COMPAT_URCU_URCU_QSBR_H
#define RCU__COMPAT_URCU_URCU_QSBR_H
#define RCU__URCU_ASK_QSBR 1
#include "../rcu_liburcu.h"
#endif
