/* SPDX-License-Identifier: 0BSD */
/*
 * test/port/multiflavour_peer.c: the other translation unit of multiflavour-units-<flavour>
 * (multiflavour_units.c): rcu.h itself, in the flavour under test, as its own first flavour.
 * It runs a reader of that flavour for the main unit, and counts callbacks.
 */
#include "rcu.h"

#include "multiflavour_peer.h"

#include <unistd.h>

static void *reader_main(void *arg)
{
	struct peer_reader *r = (struct peer_reader *)arg;
	rcu_register_thread();
	rcu_read_lock();
	__atomic_store_n(&r->inside, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&r->release, __ATOMIC_SEQ_CST))
		usleep(1000);
	__atomic_store_n(&r->left, 1, __ATOMIC_SEQ_CST);
	rcu_read_unlock();
#if defined(RCU_FLAVOUR_QSBR)
	rcu_quiescent_state();
#endif
	rcu_unregister_thread();
	return NULL;
}

int peer_reader_start(struct peer_reader *r)
{
	if (pthread_create(&r->thread, NULL, reader_main, r) != 0)
		return -1;
	while (!__atomic_load_n(&r->inside, __ATOMIC_SEQ_CST))
		usleep(1000);
	return 0;
}

const char *peer_flavour(void)
{
	return RCU_FLAVOUR_NAME;
}

void peer_barrier(void)
{
	rcu_barrier();
}
