/* SPDX-License-Identifier: 0BSD */
/* <urcu.h> of the compat folder: rcu.h in the MEMB flavour, or MB when RCU_MB is defined (<urcu/urcu.h>), and liburcu's unprefixed names
 * (rcu_read_lock(), synchronize_rcu(), ...) for it, which a unit has for its first flavour only. */
#include "urcu/urcu.h"
#if (defined(RCU_MB) && !defined(RCU_MEMBARRIER) && !defined(RCU_FLAVOUR_MB)) || ((!defined(RCU_MB) || defined(RCU_MEMBARRIER)) && !defined(RCU_FLAVOUR_MEMB))
#error "compat/liburcu: <urcu.h> maps the unprefixed names (rcu_read_lock(), synchronize_rcu(), ...) to MEMB (MB with RCU_MB), but an earlier header gave this unit another first flavour, which has them: include <urcu.h> before the other urcu headers (a further flavour has its urcu_<flavour>_*() names only)"
#endif
