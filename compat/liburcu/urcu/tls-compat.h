/* SPDX-License-Identifier: 0BSD */
/*
 * <urcu/tls-compat.h> of the compat folder: liburcu's thread-local variables, as the compiler's
 * __thread (liburcu's CONFIG_RCU_TLS build). No flavour, no rcu.h.
 */
#ifndef RCU__COMPAT_URCU_TLS_COMPAT_H
#define RCU__COMPAT_URCU_TLS_COMPAT_H

#include "config.h"
#include "compiler.h"

#define URCU_TLS_STORAGE_CLASS __thread
#define DECLARE_URCU_TLS(type, name) URCU_TLS_STORAGE_CLASS type name
#define DEFINE_URCU_TLS(type, name) URCU_TLS_STORAGE_CLASS type name
#define DEFINE_URCU_TLS_INIT(type, name, init) URCU_TLS_STORAGE_CLASS type name = (init)
#define URCU_TLS(name) (name)

#endif /* RCU__COMPAT_URCU_TLS_COMPAT_H */
