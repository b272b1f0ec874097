/* SPDX-License-Identifier: 0BSD */
/* <urcu/urcu_ref.h> of the compat folder: liburcu's old name of <urcu/ref.h>. */
#include "ref.h"
