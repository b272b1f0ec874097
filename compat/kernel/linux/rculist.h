/* SPDX-License-Identifier: 0BSD */
/* <linux/rculist.h> of the compat folder (compat/kernel): the RCU lists and hash lists (list_*_rcu, hlist_*_rcu).
 * See <linux/rcupdate.h>. */
#include "../rcu_kernel.h"
