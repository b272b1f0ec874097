/* SPDX-License-Identifier: 0BSD */
/* test/lfht.c with RCU_DEBUG_DELAY: random delays in the table's racy windows (and rcu.h's). */
#define RCU_DEBUG_DELAY 1
#include "lfht.c"
