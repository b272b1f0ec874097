/* SPDX-License-Identifier: 0BSD */
/* <urcu-mb.h> of the compat folder: not a liburcu header (liburcu names the flavour with RCU_MB or <urcu/urcu-mb.h>): rcu.h in the MB flavour, and liburcu's unprefixed names
 * (rcu_read_lock(), synchronize_rcu(), ...) for it, which a unit has for its first flavour only. */
#include "urcu/urcu-mb.h"
#if !defined(RCU_FLAVOUR_MB)
#error "compat/liburcu: <urcu-mb.h> maps the unprefixed names (rcu_read_lock(), synchronize_rcu(), ...) to MB, but an earlier header gave this unit another first flavour, which has them: include <urcu-mb.h> before the other urcu headers (a further flavour has its urcu_<flavour>_*() names only)"
#endif
