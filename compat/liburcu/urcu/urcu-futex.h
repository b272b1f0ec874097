/* SPDX-License-Identifier: 0BSD */
/* <urcu/urcu-futex.h> of the compat folder: liburcu's old name of <urcu/futex.h>. */
#include "futex.h"
