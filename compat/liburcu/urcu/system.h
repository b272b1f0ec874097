/* SPDX-License-Identifier: 0BSD */
/*
 * <urcu/system.h> of the compat folder: liburcu's shared-variable accesses. No flavour, no rcu.h.
 */
#ifndef RCU__COMPAT_URCU_SYSTEM_H
#define RCU__COMPAT_URCU_SYSTEM_H

#include "compiler.h"
#include "arch.h"

/* One relaxed atomic load of the lvalue x (liburcu: a volatile access). */
#define CMM_LOAD_SHARED(x) RCU__COMPAT_LOAD(x)
/* One relaxed atomic store of v into the lvalue x; the expression's value is v. */
#define CMM_STORE_SHARED(x, v) RCU__COMPAT_STORE(x, v)

#endif /* RCU__COMPAT_URCU_SYSTEM_H */
