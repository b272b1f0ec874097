/* SPDX-License-Identifier: 0BSD */
/*
 * compat/kernel/rcu_kernel.h: rcu.h with the kernel's names, for the <linux/...> headers of this
 * folder. The flavour is the build's choice (-DRCU_FLAVOUR_...), rcu.h's default otherwise.
 */
#ifndef RCU__COMPAT_KERNEL_H
#define RCU__COMPAT_KERNEL_H
#include "../../rcu.h"
#include "rcu_kernel_names.h"
#endif
