/* SPDX-License-Identifier: 0BSD */
/* <urcu-mb.h> of the compat folder (not a liburcu header: liburcu names the flavour with RCU_MB
 * or <urcu/urcu-mb.h>): see <urcu/urcu-mb.h>. */
#include "urcu/urcu-mb.h"
