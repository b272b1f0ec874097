/* SPDX-License-Identifier: 0BSD */
/* <urcu-memb.h> of the compat folder: not a liburcu header (liburcu names the flavour with <urcu.h> or <urcu/urcu-memb.h>): rcu.h in the MEMB flavour, and liburcu's unprefixed names
 * (rcu_read_lock(), synchronize_rcu(), ...) for it, which a unit has for its first flavour only. */
#include "urcu/urcu-memb.h"
#if !defined(RCU_FLAVOUR_MEMB)
#error "compat/liburcu: <urcu-memb.h> maps the unprefixed names (rcu_read_lock(), synchronize_rcu(), ...) to MEMB, but an earlier header gave this unit another first flavour, which has them: include <urcu-memb.h> before the other urcu headers (a further flavour has its urcu_<flavour>_*() names only)"
#endif
