/* SPDX-License-Identifier: 0BSD */
/*
 * test/symbols/peer_impl.h: the table of one rcu.h user, made of its own inline rcu.h calls.
 * Include after rcu.h with PEER_TABLE (the table's name and linkage) and PEER_WHO defined.
 */
#include "peer.h"

#include <stdatomic.h>

static const void *peer_state(void)
{
	return &RCU__SYM(state); /* private name, for this test only: the state's address */
}

static const void *peer_reader(void)
{
	return &RCU__SYM(reader);
}

static void peer_reg(void) { rcu_register_thread(); }
static void peer_unreg(void) { rcu_unregister_thread(); }
static void peer_lock(void) { rcu_read_lock(); }
static void peer_unlock(void) { rcu_read_unlock(); }
static bool peer_ongoing(void) { return rcu_read_ongoing(); }
static void peer_offline(void) { rcu_thread_offline(); }
static void peer_online(void) { rcu_thread_online(); }
static void peer_synchronize(void) { synchronize_rcu(); }
static uint64_t peer_snapshot(void) { return get_state_synchronize_rcu(); }
static bool peer_poll(uint64_t cookie) { return poll_state_synchronize_rcu(cookie); }
static void peer_barrier(void) { rcu_barrier(); }

static struct rcu_head peer_head;
static _Atomic int peer_runs;

static void peer_cb(struct rcu_head *head)
{
	(void)head;
	atomic_fetch_add(&peer_runs, 1);
}

static void peer_defer(void) { call_rcu(&peer_head, peer_cb); }
static int peer_deferred_runs(void) { return atomic_load(&peer_runs); }

static void peer_stats(struct peer_stats *out)
{
	struct rcu_stats s;
	rcu_get_stats(&s);
	out->grace_periods = s.grace_periods;
	out->callbacks_queued = s.callbacks_queued;
	out->callbacks_invoked = s.callbacks_invoked;
	out->callbacks_pending = s.callbacks_pending;
}

PEER_TABLE = {
	.who = PEER_WHO,
	.flavour = RCU_FLAVOUR_NAME,
	.state = peer_state,
	.reader = peer_reader,
	.reg = peer_reg,
	.unreg = peer_unreg,
	.lock = peer_lock,
	.unlock = peer_unlock,
	.ongoing = peer_ongoing,
	.offline = peer_offline,
	.online = peer_online,
	.synchronize = peer_synchronize,
	.snapshot = peer_snapshot,
	.poll = peer_poll,
	.defer = peer_defer,
	.deferred_runs = peer_deferred_runs,
	.barrier = peer_barrier,
	.stats = peer_stats,
};
