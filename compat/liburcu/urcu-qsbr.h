/* SPDX-License-Identifier: 0BSD */
/* <urcu-qsbr.h> of the compat folder: rcu.h in the QSBR flavour (<urcu/urcu-qsbr.h>), and liburcu's unprefixed names
 * (rcu_read_lock(), synchronize_rcu(), ...) for it, which a unit has for its first flavour only. */
#include "urcu/urcu-qsbr.h"
#if !defined(RCU_FLAVOUR_QSBR)
#error "compat/liburcu: <urcu-qsbr.h> maps the unprefixed names (rcu_read_lock(), synchronize_rcu(), ...) to QSBR, but an earlier header gave this unit another first flavour, which has them: include <urcu-qsbr.h> before the other urcu headers (a further flavour has its urcu_<flavour>_*() names only)"
#endif
