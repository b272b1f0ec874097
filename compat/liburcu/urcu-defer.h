/* SPDX-License-Identifier: 0BSD */
/* <urcu-defer.h> of the compat folder: see <urcu/defer.h>. */
#include "urcu/defer.h"
