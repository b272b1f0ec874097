/* SPDX-License-Identifier: 0BSD */
/* <urcu-pointer.h> of the compat folder: see <urcu/pointer.h>. */
#include "urcu/pointer.h"
