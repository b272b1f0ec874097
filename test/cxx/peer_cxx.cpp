/* SPDX-License-Identifier: 0BSD */
/*
 * test/cxx/peer_cxx.cpp: a C++ user of rcu.h for test/symbols/check.c: a translation unit or a
 * shared library of a program whose other parts are C (mixed_host.c) or whose host is C++ with
 * a C library (mixed_host.cpp). Its table is made of the C++ spelling where there is one:
 * sections through rcu::rcu_default_domain() (what std::scoped_lock calls), grace periods and
 * barriers through rcu::rcu_synchronize() and rcu::rcu_barrier(), a callback that is a lambda.
 * PEER_CXX_TABLE names the table (default rcu_test_peer_ops, what a peer library exports).
 */
#include "rcu.h"

#include <atomic>

extern "C" {
#include "../symbols/peer.h"
}

#ifndef PEER_CXX_TABLE
#define PEER_CXX_TABLE rcu_test_peer_ops
#endif
#ifndef PEER_WHO
#define PEER_WHO "C++ unit"
#endif

namespace {

struct rcu_head head;
std::atomic<int> runs(0);

const void *peer_state() { return &RCU__SYM(state); } /* private name, for this test only */
const void *peer_reader() { return &RCU__SYM(reader); }
void peer_reg() { rcu_register_thread(); }
void peer_unreg() { rcu_unregister_thread(); }
void peer_lock() { rcu::rcu_default_domain().lock(); }
void peer_unlock() { rcu::rcu_default_domain().unlock(); }
bool peer_ongoing() { return rcu_read_ongoing(); }
void peer_offline() { rcu_thread_offline(); }
void peer_online() { rcu_thread_online(); }
void peer_synchronize() { rcu::rcu_synchronize(); }
uint64_t peer_snapshot() { return get_state_synchronize_rcu(); }
bool peer_poll(uint64_t cookie) { return poll_state_synchronize_rcu(cookie); }
void peer_defer() { call_rcu(&head, [](struct rcu_head *) { runs.fetch_add(1); }); }
int peer_deferred_runs() { return runs.load(); }
void peer_barrier() { rcu::rcu_barrier(); }
void peer_get_stats(struct peer_stats *out)
{
	struct rcu_stats s;
	rcu_get_stats(&s);
	out->grace_periods = s.grace_periods;
	out->callbacks_queued = s.callbacks_queued;
	out->callbacks_invoked = s.callbacks_invoked;
	out->callbacks_pending = s.callbacks_pending;
}

} /* namespace */

/* weak, as test/symbols/peer.c's: ASan would count two strong copies as an ODR violation */
extern "C" __attribute__((weak, visibility("default"))) const struct peer_ops PEER_CXX_TABLE = {
	PEER_WHO, RCU_FLAVOUR_NAME, peer_state, peer_reader, peer_reg, peer_unreg, peer_lock,
	peer_unlock, peer_ongoing, peer_offline, peer_online, peer_synchronize, peer_snapshot,
	peer_poll, peer_defer, peer_deferred_runs, peer_barrier, peer_get_stats,
};
