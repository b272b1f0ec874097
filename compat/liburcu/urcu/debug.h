/* SPDX-License-Identifier: 0BSD */
/* <urcu/debug.h> of the compat folder: urcu_assert(), checked only with DEBUG_RCU (as liburcu's). */
#ifndef RCU__COMPAT_URCU_DEBUG_H
#define RCU__COMPAT_URCU_DEBUG_H

#include "assert.h"

#define urcu_assert(cond) urcu_assert_debug(cond)

#endif /* RCU__COMPAT_URCU_DEBUG_H */
