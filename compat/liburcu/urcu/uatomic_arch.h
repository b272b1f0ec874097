/* SPDX-License-Identifier: 0BSD */
/* <urcu/uatomic_arch.h> of the compat folder: liburcu's old name of <urcu/uatomic.h>. */
#include "uatomic.h"
