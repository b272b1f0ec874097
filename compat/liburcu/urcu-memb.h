/* SPDX-License-Identifier: 0BSD */
/* <urcu-memb.h> of the compat folder (not a liburcu header: liburcu names the flavour with RCU_MB
 * or <urcu/urcu-memb.h>): see <urcu/urcu-memb.h>. */
#include "urcu/urcu-memb.h"
