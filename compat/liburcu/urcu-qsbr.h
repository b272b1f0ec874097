/* SPDX-License-Identifier: 0BSD */
/* <urcu-qsbr.h> of the compat folder: see <urcu/urcu-qsbr.h>. */
#include "urcu/urcu-qsbr.h"
