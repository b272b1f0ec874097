/* SPDX-License-Identifier: 0BSD */
/* <urcu-flavor.h> of the compat folder: see <urcu/flavor.h>. */
#include "urcu/flavor.h"
