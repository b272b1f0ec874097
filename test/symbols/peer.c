/* SPDX-License-Identifier: 0BSD */
/*
 * test/symbols/peer.c: the "other" user of rcu.h: a second translation unit, a shared library or
 * a plugin, depending on how test/symbols/meson.build builds it. Exports its table by name.
 */
#include "rcu.h"

#ifndef PEER_WHO
#define PEER_WHO "peer"
#endif
/* weak: two plugins loaded RTLD_GLOBAL both define it, and ASan counts a strong pair as an ODR violation */
#define PEER_TABLE __attribute__((weak, visibility("default"))) const struct peer_ops rcu_test_peer_ops
#include "peer_impl.h"
