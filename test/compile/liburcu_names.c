/* SPDX-License-Identifier: 0BSD */
/*
 * test/compile/liburcu_names.c: the names of liburcu's API that a port of a liburcu program
 * meets and that rcu.h (RCU_LIBURCU_NAMES) is missing or gives another shape, each used the way
 * liburcu declares it (the urcu/ headers of liburcu 0.13 and 0.15): as a function where liburcu
 * has a function (pthread_atfork() takes the fork handlers), with liburcu's return types, with
 * liburcu's optional memory-order argument. check.sh (group `lang`, checks `liburcu-names-*`)
 * compiles it with gcc and clang in every flavour; it fails while any of them is missing, and
 * the compiler's messages are the list. docs/api.md's "Porting from liburcu" says what each is.
 */
#define RCU_LIBURCU_NAMES
#include "rcu.h"

#include <pthread.h>

struct node {
	int v;
	struct cds_list_head list;
	struct cds_hlist_node hnode;
	struct rcu_head rcu_head;
};

/* liburcu's annotation of RCU-protected pointers (urcu/compiler.h). */
static struct node __rcu *names_gp;

/* urcu/hlist.h: a list head defined and initialised in one go, and the NULL-keeping entry. */
static CDS_HLIST_HEAD(names_bucket);
static struct cds_hlist_head names_bucket2 = CDS_HLIST_HEAD_INIT(names_bucket2);

static DEFINE_URCU_TLS(int, names_tls);
static void names_release(struct urcu_ref *ref)
{
	(void)ref;
}

int names_liburcu(struct node *a, struct node *b);
int names_liburcu(struct node *a, struct node *b)
{
	struct node *pos, *p;
	struct cds_list_head *lp, *lq;
	CDS_LIST_HEAD(other);
	int r = 0;

	/* call_rcu's fork handlers, as pthread_atfork() handlers (README.md "Interaction with fork()"). */
	r |= pthread_atfork(call_rcu_before_fork, call_rcu_after_fork_parent, call_rcu_after_fork_child);
	/* defer: rcu_defer_register_thread() returns int (urcu/defer.h). */
	r |= rcu_defer_register_thread();
	/* Polled grace periods (0.14+): liburcu's unprefixed names take the struct. */
	struct urcu_gp_poll_state st = start_poll_synchronize_rcu();
	r |= poll_state_synchronize_rcu(st);

	/* urcu/list.h: the rest of it. */
	cds_list_splice(&other, &a->list);
	cds_list_replace_init(&a->list, &b->list);
	cds_list_for_each_prev_safe(lp, lq, &other)
		r++;
	pos = a;
	cds_list_for_each_entry_safe_from(pos, p, &other, list)
		r++;
	pos = cds_hlist_entry_safe(names_bucket.next, struct node, hnode);
	r += pos != NULL;
	r += names_bucket2.next != NULL;

	/* urcu/compiler.h, urcu/arch.h, urcu/uatomic.h (0.15: the optional memory order). */
	r = caa_max(r, 1) + caa_min(r, 2);
	CAA_BUILD_BUG_ON(sizeof(r) != sizeof(int));
	CMM_ACCESS_ONCE(r) = r + 1;
	cmm_mb();
	cmm_rmb();
	cmm_wmb();
	cmm_smp_read_barrier_depends();
	r += uatomic_load(&r);
	uatomic_store(&r, r + 1);
	r += uatomic_load(&r, CMM_ACQUIRE);
	uatomic_store(&r, 2, CMM_RELEASE);
	r += uatomic_read(&r, CMM_RELAXED);
	r += uatomic_add_return(&r, 1, CMM_SEQ_CST);
	cmm_smp_mb__before_uatomic_or();
	uatomic_or(&r, 1);
	cmm_smp_mb__after_uatomic_or();

	/* liburcu 0.15's explicit-order forms, cmpxchg's optional orders, the lock-free sizes. */
	unsigned char byte = 0;
	unsigned short half = 0;
	r += uatomic_load_mo(&r, CMM_ACQUIRE);
	uatomic_store_mo(&r, 3, CMM_SEQ_CST_FENCE);
	uatomic_add_mo(&byte, 1, CMM_RELAXED);
	uatomic_inc_mo(&half, CMM_RELEASE);
	r += uatomic_xchg_mo(&r, 4, CMM_ACQ_REL);
	r += uatomic_cmpxchg(&r, 4, 5, CMM_ACQUIRE);
	r += uatomic_cmpxchg(&r, 5, 6, CMM_ACQ_REL, CMM_ACQUIRE);
	r += uatomic_cmpxchg_mo(&r, 6, 7, CMM_SEQ_CST_FENCE, CMM_RELAXED);
	r += uatomic_sub_return_mo(&r, 1, CMM_RELEASE);
	uatomic_and_mo(&r, 0xff, CMM_RELAXED);
	enum cmm_memorder mo = CMM_CONSUME;
	r += uatomic_load(&r, mo);
#if !defined(UATOMIC_HAS_ATOMIC_BYTE) || !defined(UATOMIC_HAS_ATOMIC_SHORT) || !defined(UATOMIC_HAS_ATOMIC_INT)
#error "UATOMIC_HAS_ATOMIC_BYTE, _SHORT and _INT: liburcu's test_uatomic runs its byte and short checks only with them"
#endif
	r += byte + half;
	/* urcu/arch.h's cycle counter and cache line, urcu/tls-compat.h, urcu/assert.h, urcu/ref.h. */
	caa_cycles_t t0 = caa_get_cycles();
	static int aligned[2] __attribute__((aligned(CAA_CACHE_LINE_SIZE)));
	r += (int)(caa_get_cycles() != t0 - 1) + aligned[0];
	URCU_TLS(names_tls)++;
	urcu_posix_assert(r >= 0);
	struct urcu_ref ref;
	urcu_ref_init(&ref);
	urcu_ref_get(&ref);
	r += urcu_ref_get_unless_zero(&ref);
	urcu_ref_put(&ref, names_release);
	/* urcu/call-rcu.h's workers and urcu/flavor.h's table, as liburcu-cds code calls them. */
	struct call_rcu_data *crdp = get_call_rcu_data();
	set_thread_call_rcu_data(create_call_rcu_data(URCU_CALL_RCU_RT, -1));
	r |= set_cpu_call_rcu_data(0, NULL) | create_all_cpu_call_rcu_data(0);
	call_rcu_data_free(get_cpu_call_rcu_data(0));
	free_all_cpu_call_rcu_data();
	r += crdp == get_default_call_rcu_data();
	const struct rcu_flavor_struct *flavor = &rcu_flavor;
	flavor->read_lock();
	r += flavor->read_ongoing();
	flavor->read_unlock();
	struct urcu_gp_poll_state ps = flavor->update_start_poll_synchronize_rcu();
	r += flavor->update_poll_state_synchronize_rcu(ps);
	/* poll_state_synchronize_rcu() takes rcu.h's integer cookie as well as liburcu's struct. */
	r += poll_state_synchronize_rcu(get_state_synchronize_rcu());

	rcu_assign_pointer(names_gp, a);

	/* The flavour-prefixed names that liburcu declares for every flavour. */
#if defined(RCU_FLAVOUR_QSBR)
	urcu_qsbr_init();
	r |= urcu_qsbr_defer_register_thread();
	urcu_qsbr_defer_barrier();
	urcu_qsbr_defer_barrier_thread();
	urcu_qsbr_defer_unregister_thread();
	r |= pthread_atfork(urcu_qsbr_call_rcu_before_fork, urcu_qsbr_call_rcu_after_fork_parent,
		urcu_qsbr_call_rcu_after_fork_child);
#elif defined(RCU_FLAVOUR_MEMB)
	urcu_memb_init();
	urcu_memb_quiescent_state();
	urcu_memb_thread_offline();
	urcu_memb_thread_online();
	r |= urcu_memb_defer_register_thread();
	urcu_memb_defer_barrier();
	urcu_memb_defer_barrier_thread();
	urcu_memb_defer_unregister_thread();
	r |= pthread_atfork(urcu_memb_call_rcu_before_fork, urcu_memb_call_rcu_after_fork_parent,
		urcu_memb_call_rcu_after_fork_child);
#elif defined(RCU_FLAVOUR_MB)
	urcu_mb_init();
	urcu_mb_quiescent_state();
	urcu_mb_thread_offline();
	urcu_mb_thread_online();
	r |= urcu_mb_defer_register_thread();
	urcu_mb_defer_barrier();
	urcu_mb_defer_barrier_thread();
	urcu_mb_defer_unregister_thread();
	r |= pthread_atfork(urcu_mb_call_rcu_before_fork, urcu_mb_call_rcu_after_fork_parent,
		urcu_mb_call_rcu_after_fork_child);
#else
	urcu_bp_init();
	urcu_bp_quiescent_state();
	urcu_bp_thread_offline();
	urcu_bp_thread_online();
	r |= urcu_bp_defer_register_thread();
	urcu_bp_defer_barrier();
	urcu_bp_defer_barrier_thread();
	urcu_bp_defer_unregister_thread();
	r |= pthread_atfork(urcu_bp_call_rcu_before_fork, urcu_bp_call_rcu_after_fork_parent,
		urcu_bp_call_rcu_after_fork_child);
	r |= pthread_atfork(urcu_bp_before_fork, urcu_bp_after_fork_parent, urcu_bp_after_fork_child);
	pos = urcu_bp_dereference(names_gp);
	urcu_bp_set_pointer(&names_gp, b);
	pos = urcu_bp_xchg_pointer(&names_gp, a);
	pos = urcu_bp_cmpxchg_pointer(&names_gp, a, b);
#endif
	(void)pos;
	return r;
}
