/* SPDX-License-Identifier: 0BSD */
/* test/port/multiflavour_peer.h: what multiflavour_peer.c gives multiflavour_units.c. */
#include <pthread.h>

struct peer_reader {
	pthread_t thread;
	int inside;  /* set by the reader once in its section */
	int release; /* set by the main unit: leave now */
	int left;    /* set by the reader just before it leaves */
};

/* Starts a reader of the peer's flavour, registered with rcu.h's own names, and returns once it
 * is inside its section (QSBR: online, with no quiescent state until it is released). */
int peer_reader_start(struct peer_reader *r);
/* The peer's flavour: "qsbr", "memb", "mb" or "bp". */
const char *peer_flavour(void);
/* rcu_barrier() of the peer's flavour, called in the peer. */
void peer_barrier(void);
