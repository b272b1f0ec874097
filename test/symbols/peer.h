/* SPDX-License-Identifier: 0BSD */
/*
 * test/symbols/peer.h: what one user of rcu.h (a translation unit, a shared library, a plugin)
 * offers to the checker. Each user wraps its own inline copies of the rcu.h calls in a table, so
 * that check.c (which does not include rcu.h) can open a section through one user and close it
 * through another, or hold a grace period of one from the other.
 */
#ifndef RCU_TEST_PEER_H
#define RCU_TEST_PEER_H

#include <stdbool.h>
#include <stdint.h>

struct peer_stats {
	uint64_t grace_periods, callbacks_queued, callbacks_invoked, callbacks_pending;
};

struct peer_ops {
	const char *who;                 /* for messages: "host", "plugin", ... */
	const char *flavour;             /* the flavour this user was compiled with */
	const void *(*state)(void);      /* the address of the process-wide state it uses */
	const void *(*reader)(void);     /* the address of the calling thread's reader record */
	void (*reg)(void);
	void (*unreg)(void);
	void (*lock)(void);
	void (*unlock)(void);
	bool (*ongoing)(void);
	void (*offline)(void);
	void (*online)(void);
	void (*synchronize)(void);
	uint64_t (*snapshot)(void);
	bool (*poll)(uint64_t cookie);
	void (*defer)(void);             /* call_rcu() of a head whose callback counts its runs */
	int (*deferred_runs)(void);
	void (*barrier)(void);
	void (*stats)(struct peer_stats *out);
};

/* The table a peer translation unit, library or plugin exports (see peer.c). */
#define PEER_SYMBOL "rcu_test_peer_ops"

/* check.c: 0 when a and b share (expect_same) or do not share (!expect_same) one RCU state. */
int check_pair(const struct peer_ops *a, const struct peer_ops *b, bool expect_same);

#endif
