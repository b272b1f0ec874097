/* SPDX-License-Identifier: 0BSD */
/*
 * test/lfht.c under RCU_DEBUG: rcu.h's checks run inside the table's code. A resizer that broke
 * its caller's read-side section (a helping updater that left it, or in QSBR went offline: a
 * quiescent state inside rcu_read_lock()) aborts the test that made it help.
 */
#define RCU_DEBUG 1
#include "lfht.c"
