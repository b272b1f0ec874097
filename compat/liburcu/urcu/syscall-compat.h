/* SPDX-License-Identifier: 0BSD */
/* <urcu/syscall-compat.h> of the compat folder: the system's syscall() declaration, as liburcu's. */
#ifndef RCU__COMPAT_URCU_SYSCALL_COMPAT_H
#define RCU__COMPAT_URCU_SYSCALL_COMPAT_H

#include "../../rcu_compat.h"
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#endif /* RCU__COMPAT_URCU_SYSCALL_COMPAT_H */
