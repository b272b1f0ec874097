/* SPDX-License-Identifier: 0BSD */
/* <urcu-bp.h> of the compat folder: see <urcu/urcu-bp.h>. */
#include "urcu/urcu-bp.h"
