/* SPDX-License-Identifier: 0BSD */
/* The torture test with RCU_DEBUG_DELAY: random delays in the algorithm's racy windows. */
#define RCU_DEBUG_DELAY 1
#include "torture.c"
