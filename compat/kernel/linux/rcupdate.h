/* SPDX-License-Identifier: 0BSD */
/*
 * <linux/rcupdate.h> of the compat folder (compat/kernel): rcu.h with the kernel's names. The
 * flavour is the build's (-DRCU_FLAVOUR_...), MEMB by default on Linux.
 * compat/kernel/rcu_kernel_names.h has the names; docs/api.md, "Porting from the Linux kernel".
 */
#include "../rcu_kernel.h"
