/* SPDX-License-Identifier: 0BSD */
/*
 * test/compile/both_names.c: liburcu's names and the kernel's in one translation unit
 * (RCU_LIBURCU_NAMES and RCU_KERNEL_NAMES), each meaning what it means in its own layer, in C and
 * C++. check.sh (group `lang`, checks `both-names-*`) builds and runs it in every flavour; it
 * exits 0 when every check holds.
 *
 * Where one name has two meanings: poll_state_synchronize_rcu() takes both the kernel's integer
 * cookie and liburcu's struct urcu_gp_poll_state (C11 _Generic, C++ overloads), and
 * start_poll_synchronize_rcu(), which can return one shape only, returns the kernel's (rcu.h's
 * uint64_t) when both layers are on; liburcu's struct stays available from
 * urcu_<flavour>_start_poll_synchronize_rcu() (docs/api.md, "Porting from liburcu").
 * BOTH_NAMES_REVERSED includes the two layers in the other order (through the compat folders'
 * headers), which must give the same names.
 */
#if defined(BOTH_NAMES_REVERSED)
#include <linux/rcupdate.h>
#include <linux/rculist.h>
#include <urcu/urcu-poll.h>
#include <urcu/rculist.h>
#else
#define RCU_LIBURCU_NAMES
#define RCU_KERNEL_NAMES
#include "rcu.h"
#endif

#include <stdio.h>
#include <stdlib.h>

#if defined(RCU_FLAVOUR_QSBR)
#define URCU_START_POLL urcu_qsbr_start_poll_synchronize_rcu
#define URCU_POLL urcu_qsbr_poll_state_synchronize_rcu
#elif defined(RCU_FLAVOUR_MB)
#define URCU_START_POLL urcu_mb_start_poll_synchronize_rcu
#define URCU_POLL urcu_mb_poll_state_synchronize_rcu
#elif defined(RCU_FLAVOUR_BP)
#define URCU_START_POLL urcu_bp_start_poll_synchronize_rcu
#define URCU_POLL urcu_bp_poll_state_synchronize_rcu
#else
#define URCU_START_POLL urcu_memb_start_poll_synchronize_rcu
#define URCU_POLL urcu_memb_poll_state_synchronize_rcu
#endif

struct item {
	int key;
	struct cds_list_head clist; /* liburcu's list link */
	struct list_head klist;     /* the kernel's */
	struct rcu_head rcu;
};

static int failures;
#define CHECK(cond) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "both_names.c:%d: %s\n", __LINE__, #cond); \
			failures++; \
		} \
	} while (0)

int main(void)
{
	rcu_register_thread();

	/* The kernel's polled API: integer cookies; "completed" has always passed. */
	CHECK(poll_state_synchronize_rcu(get_completed_synchronize_rcu()));
	uint64_t cookie = start_poll_synchronize_rcu();
	uint64_t snap = get_state_synchronize_rcu();
	synchronize_rcu();
	CHECK(poll_state_synchronize_rcu(cookie));
	CHECK(poll_state_synchronize_rcu(snap));
	cond_synchronize_rcu(cookie);

	/* liburcu's polled API: the struct, through the flavour-prefixed start and either poll. */
	struct urcu_gp_poll_state st = URCU_START_POLL();
	synchronize_rcu();
	CHECK(poll_state_synchronize_rcu(st));
	CHECK(URCU_POLL(st));

	/* A cookie taken inside a section has not passed while the section lasts (QSBR: the thread
	 * is online, always inside one; its next quiescent state ends it). */
	rcu_read_lock();
	uint64_t inside = get_state_synchronize_rcu();
	struct urcu_gp_poll_state inside_st = URCU_START_POLL();
	CHECK(!poll_state_synchronize_rcu(inside));
	CHECK(!poll_state_synchronize_rcu(inside_st));
	rcu_read_unlock();
	synchronize_rcu();
	CHECK(poll_state_synchronize_rcu(inside));
	CHECK(poll_state_synchronize_rcu(inside_st));

	/* One list type and one set of helpers under both names. */
	CDS_LIST_HEAD(clist);
	LIST_HEAD(klist);
	struct item a, b;
	a.key = 1;
	b.key = 2;
	cds_list_add_rcu(&a.clist, &clist);
	list_add_tail_rcu(&b.clist, &clist); /* struct cds_list_head is struct list_head */
	list_add(&a.klist, &klist);
	cds_list_add_tail(&b.klist, &klist);
	int sum = 0;
	struct item *pos;
	rcu_read_lock();
	list_for_each_entry_rcu(pos, &clist, clist)
		sum += pos->key;
	cds_list_for_each_entry_rcu(pos, &klist, klist)
		sum += 10 * pos->key;
	rcu_read_unlock();
	CHECK(sum == 33);
	list_del_init(&a.clist);
	CHECK(cds_list_empty(&a.clist));
	cds_list_del_init(&b.klist);
	CHECK(list_empty(&b.klist));
	CHECK(!list_empty(&klist) && !cds_list_empty(&clist));

	/* The barriers of both layers, and READ_ONCE / CMM_LOAD_SHARED on one word. */
	int word = 0;
	WRITE_ONCE(word, 3);
	CHECK(CMM_LOAD_SHARED(word) == 3);
	CMM_STORE_SHARED(word, 4);
	CHECK(READ_ONCE(word) == 4);
	smp_mb();
	cmm_smp_mb();
	barrier();
	cmm_barrier();
	CHECK(uatomic_add_return(&word, 1) == 5);

	rcu_unregister_thread();
	if (failures)
		return 1;
	puts("both_names: every check passed");
	return 0;
}
