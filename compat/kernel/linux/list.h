/* SPDX-License-Identifier: 0BSD */
/* <linux/list.h> of the compat folder (compat/kernel): struct list_head, struct hlist_head and the list functions rcu.h maps (see docs/api.md).
 * See <linux/rcupdate.h>. */
#include "../rcu_kernel.h"
