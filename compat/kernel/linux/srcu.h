/* SPDX-License-Identifier: 0BSD */
/* <linux/srcu.h> of the compat folder (compat/kernel): SRCU domains (struct srcu_struct, srcu_read_lock(), ...), which are rcu.h's own names.
 * See <linux/rcupdate.h>. */
#include "../rcu_kernel.h"
