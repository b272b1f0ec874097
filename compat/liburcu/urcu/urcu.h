/* SPDX-License-Identifier: 0BSD */
/* <urcu/urcu.h> of the compat folder: MEMB, or MB when RCU_MB is defined (as liburcu's). */
#ifndef RCU__COMPAT_URCU_URCU_H
#define RCU__COMPAT_URCU_URCU_H
#if defined(RCU_MB) && !defined(RCU_MEMBARRIER)
#include "urcu-mb.h"
#else
#include "urcu-memb.h"
#endif
#endif
