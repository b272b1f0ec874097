/* SPDX-License-Identifier: 0BSD */
/* <urcu.h> of the compat folder: rcu.h in the MEMB flavour, or MB when RCU_MB is defined, with liburcu's names. */
#include "urcu/urcu.h"
