/* SPDX-License-Identifier: 0BSD */
/*
 * test/port/multiflavour_units.c: a further flavour of a unit (compat/liburcu/rcu_instance.h) is
 * the same RCU as that flavour in every other unit of the program, as liburcu's are.
 *
 * This unit's first flavour is another one (-DRCU_FLAVOUR_*, test/port/meson.build); it includes
 * the four flavour headers of liburcu and reaches the flavour under test (PEER: qsbr, memb, mb or
 * bp) through its prefixed names only. The other unit, multiflavour_peer.c, is rcu.h in that
 * flavour, as its first. Checked:
 *   - urcu_<PEER>_synchronize_rcu() here waits for a reader that the peer unit started (one
 *     state, one registry across units);
 *   - this unit's own synchronize_rcu() does not wait for it (another flavour, another RCU);
 *   - urcu_<PEER>_call_rcu() here queues on the callback queue that the peer's rcu_barrier()
 *     drains.
 * Exits 0 when every check passes; an alarm ends a grace period that never ends, with a message.
 */
#include <urcu/urcu-qsbr.h>
#include <urcu/urcu-memb.h>
#include <urcu/urcu-mb.h>
#include <urcu/urcu-bp.h>

#include "multiflavour_peer.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "port_check.h"

#define PEER_NAME3(f, n) urcu_##f##_##n
#define PEER_NAME2(f, n) PEER_NAME3(f, n)
#define PEER_NAME(n) PEER_NAME2(PEER, n)
#define STR2(x) #x
#define STR(x) STR2(x)

static void *releaser_main(void *arg)
{
	struct peer_reader *r = (struct peer_reader *)arg;
	usleep(50 * 1000);
	__atomic_store_n(&r->release, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static int called;
static void callback(struct rcu_head *head)
{
	(void)head;
	__atomic_fetch_add(&called, 1, __ATOMIC_SEQ_CST);
}

static void stuck(int sig)
{
	(void)sig;
	static const char msg[] = "multiflavour_units: a grace period never ended\n";
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(2);
}

int main(void)
{
	struct peer_reader r;
	pthread_t lt;

	signal(SIGALRM, stuck);
	alarm(60);
	CHECK(strcmp(peer_flavour(), STR(PEER)) == 0);
	CHECK(strcmp(RCU_FLAVOUR_NAME, STR(PEER)) != 0);

	/* The peer's reader holds up this unit's grace period of the peer's flavour. */
	memset(&r, 0, sizeof(r));
	CHECK(peer_reader_start(&r) == 0);
	CHECK(pthread_create(&lt, NULL, releaser_main, &r) == 0);
	PEER_NAME(synchronize_rcu)();
	CHECK(__atomic_load_n(&r.left, __ATOMIC_SEQ_CST));
	CHECK(pthread_join(lt, NULL) == 0);
	CHECK(pthread_join(r.thread, NULL) == 0);

	/* Not this unit's own flavour's. */
	memset(&r, 0, sizeof(r));
	CHECK(peer_reader_start(&r) == 0);
	synchronize_rcu();
	CHECK(!__atomic_load_n(&r.left, __ATOMIC_SEQ_CST));
	__atomic_store_n(&r.release, 1, __ATOMIC_SEQ_CST);
	CHECK(pthread_join(r.thread, NULL) == 0);

	/* One callback queue: queued here, drained by the peer's barrier. */
	struct rcu_head head;
	PEER_NAME(call_rcu)(&head, callback);
	peer_barrier();
	CHECK(__atomic_load_n(&called, __ATOMIC_SEQ_CST) == 1);

	printf("multiflavour_units: %s here (a further flavour of a %s unit) is the peer unit's %s\n", STR(PEER),
	       RCU_FLAVOUR_NAME, peer_flavour());
	return 0;
}
