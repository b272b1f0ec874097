/* SPDX-License-Identifier: 0BSD */
/* <urcu-bp.h> of the compat folder: rcu.h in the BP flavour (<urcu/urcu-bp.h>), and liburcu's unprefixed names
 * (rcu_read_lock(), synchronize_rcu(), ...) for it, which a unit has for its first flavour only. */
#include "urcu/urcu-bp.h"
#if !defined(RCU_FLAVOUR_BP)
#error "compat/liburcu: <urcu-bp.h> maps the unprefixed names (rcu_read_lock(), synchronize_rcu(), ...) to BP, but an earlier header gave this unit another first flavour, which has them: include <urcu-bp.h> before the other urcu headers (a further flavour has its urcu_<flavour>_*() names only)"
#endif
