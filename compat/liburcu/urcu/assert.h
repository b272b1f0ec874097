/* SPDX-License-Identifier: 0BSD */
/*
 * <urcu/assert.h> of the compat folder: liburcu's assertions. urcu_posix_assert() is assert()
 * (nothing under NDEBUG, but its argument is still compiled); urcu_assert_debug() checks only
 * when DEBUG_RCU or CONFIG_RCU_DEBUG is defined, as liburcu's. No flavour, no rcu.h.
 */
#ifndef RCU__COMPAT_URCU_ASSERT_H
#define RCU__COMPAT_URCU_ASSERT_H

#include "config.h"

#define RCU__URCU_UNUSED_EXPR(e) ((void)sizeof((void)(e), 0))
#if defined(NDEBUG)
#define urcu_posix_assert(cond) RCU__URCU_UNUSED_EXPR(cond)
#else
#include <assert.h>
#define urcu_posix_assert(cond) assert(cond)
#endif
#if defined(DEBUG_RCU) || defined(CONFIG_RCU_DEBUG)
#define urcu_assert_debug(cond) urcu_posix_assert(cond)
#else
#define urcu_assert_debug(cond) RCU__URCU_UNUSED_EXPR(cond)
#endif

#endif /* RCU__COMPAT_URCU_ASSERT_H */
