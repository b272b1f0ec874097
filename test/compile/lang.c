/* SPDX-License-Identifier: 0BSD */
/*
 * test/compile/lang.c: one translation unit, valid C and C++, that uses what a port uses: every
 * pointer macro on the pointer kinds the language has (C: `T *` and `T *_Atomic`; C++: `T *`,
 * `std::atomic<T *>`, C++23's `_Atomic(T *)`), the list and hash-list iterators, the names of
 * RCU_LIBURCU_NAMES and RCU_KERNEL_NAMES that rcu.h defines, and in C++ the namespace rcu layer.
 * check.sh (group `lang`) compiles it as C11, C17, C2x and GNU C11 with gcc and clang, and as
 * C++11 to C++23 with g++ and clang++, each flavour, with and without RCU_DEBUG, at -O2 with
 * -Wall -Wextra -Wpedantic -Werror: a port must build without a warning in every one.
 * What rcu.h does not yet provide is in liburcu_names.c and kernel_names.c, not here.
 */
#define RCU_LIBURCU_NAMES
#define RCU_KERNEL_NAMES
#include "rcu.h"

#if defined(__cplusplus)
#include <mutex>
#if __cplusplus > 202002L && defined(__has_include)
#if __has_include(<stdatomic.h>)
#include <stdatomic.h>
#define LANG_C23_ATOMIC 1
#endif
#endif
#define LANG_NULL nullptr
#else
#define LANG_NULL NULL
#endif

#if defined(__cplusplus)
#define LANG_EXTERN extern "C"
#else
#define LANG_EXTERN
#endif

struct item {
	int key;
	struct item *next;                  /* a plain RCU pointer inside an object */
	struct rcu_list list;
	struct cds_list_head clist;
	struct list_head klist;
	struct rcu_hlist_node hnode;
	struct cds_hlist_node chnode;
	struct hlist_node khnode;
	struct rcu_head rh;
};

/* Every pointer macro on one pointer lvalue P of a kind; T is the pointee type. */
#define LANG_POINTER_MACROS(P, T) \
	do { \
		T *v_ = (T *)0, *o_; \
		rcu_assign_pointer(P, v_); \
		rcu_assign_pointer(P, LANG_NULL); \
		rcu_init_pointer(P, v_); \
		RCU_INIT_POINTER(P, v_); \
		rcu_set_pointer(&(P), v_); \
		o_ = rcu_dereference(P); \
		o_ = rcu_dereference_check(P, 1); \
		o_ = rcu_dereference_raw(P); \
		o_ = rcu_dereference_protected(P, 1); \
		o_ = rcu_access_pointer(P); \
		o_ = rcu_dereference_bh(P); \
		o_ = rcu_dereference_sched(P); \
		o_ = srcu_dereference(P, &lang_srcu); \
		o_ = rcu_xchg_pointer(&(P), v_); \
		o_ = rcu_cmpxchg_pointer(&(P), v_, o_); \
		o_ = rcu_replace_pointer(P, v_, 1); \
		o_ = rcu_pointer_handoff(o_); \
		(void)o_; \
	} while (0)

DEFINE_STATIC_SRCU(lang_srcu);
static struct item *lang_plain;
static const struct item *lang_const;
#if defined(__cplusplus)
static std::atomic<struct item *> lang_atomic;
#if defined(LANG_C23_ATOMIC)
static _Atomic(struct item *) lang_c23;
#endif
#else
static struct item *_Atomic lang_atomic;
static const struct item *_Atomic lang_const_atomic;
#endif

LANG_EXTERN void lang_pointers(struct item *it);
LANG_EXTERN void lang_pointers(struct item *it)
{
	int idx = srcu_read_lock(&lang_srcu);
	LANG_POINTER_MACROS(lang_plain, struct item);
	LANG_POINTER_MACROS(lang_atomic, struct item);
	LANG_POINTER_MACROS(it->next, struct item);
	LANG_POINTER_MACROS(lang_const, const struct item);
#if defined(__cplusplus)
#if defined(LANG_C23_ATOMIC)
	LANG_POINTER_MACROS(lang_c23, struct item);
#endif
#else
	LANG_POINTER_MACROS(lang_const_atomic, const struct item);
#endif
	srcu_read_unlock(&lang_srcu, idx);
}

static struct rcu_list lang_list = RCU_LIST_HEAD_INIT(lang_list);
static CDS_LIST_HEAD(lang_clist);
static LIST_HEAD(lang_klist);
static struct rcu_hlist_head lang_bucket = RCU_HLIST_HEAD_INIT;
static struct cds_hlist_head lang_cbucket;
static HLIST_HEAD(lang_kbucket);
static int lang_array[3];

static void lang_free_item(struct rcu_head *head)
{
	free(caa_container_of(head, struct item, rh));
}

LANG_EXTERN int lang_lists(struct item *a, struct item *b);
LANG_EXTERN int lang_lists(struct item *a, struct item *b)
{
	struct item *pos, *tmp;
	struct cds_list_head *cp, *cq;
	struct cds_hlist_node *hp, *hq;
	struct hlist_node *kn;
	int sum = 0;

	rcu_list_add(&a->list, &lang_list);
	rcu_list_add_tail(&b->list, &lang_list);
	cds_list_add_rcu(&a->clist, &lang_clist);
	cds_list_add_tail_rcu(&b->clist, &lang_clist);
	list_add_rcu(&a->klist, &lang_klist);
	list_add_tail_rcu(&b->klist, &lang_klist);
	rcu_hlist_add_head(&a->hnode, &lang_bucket);
	CDS_INIT_HLIST_HEAD(&lang_cbucket);
	cds_hlist_add_head_rcu(&a->chnode, &lang_cbucket);
	hlist_add_head_rcu(&a->khnode, &lang_kbucket);
	hlist_add_behind_rcu(&b->khnode, &a->khnode);

	rcu_read_lock();
	rcu_list_for_each_entry(pos, &lang_list, list)
		sum += pos->key;
	cds_list_for_each_entry_rcu(pos, &lang_clist, clist)
		sum += pos->key;
	cds_list_for_each_rcu(cp, &lang_clist)
		sum += cds_list_entry(cp, struct item, clist)->key;
	list_for_each_entry_rcu(pos, &lang_klist, klist, 1)
		sum += pos->key;
	rcu_hlist_for_each_entry(pos, &lang_bucket, hnode)
		sum += pos->key;
	cds_hlist_for_each_entry_rcu(pos, hp, &lang_cbucket, chnode)
		sum += pos->key;
	cds_hlist_for_each_entry_rcu_2(pos, &lang_cbucket, chnode)
		sum += pos->key;
	cds_hlist_for_each_rcu(hp, &lang_cbucket)
		sum += cds_hlist_entry(hp, struct item, chnode)->key;
	hlist_for_each_entry_rcu(pos, &lang_kbucket, khnode, 1)
		sum += pos->key;
	pos = rcu_list_first_entry_or_null(&lang_list, struct item, list);
	pos = list_first_or_null_rcu(&lang_klist, struct item, klist);
	rcu_read_unlock();

	rcu_list_for_each_entry_locked(pos, &lang_list, list)
		sum += pos->key;
	cds_list_for_each_entry(pos, &lang_clist, clist)
		sum += pos->key;
	cds_list_for_each_entry_reverse(pos, &lang_clist, clist)
		sum += pos->key;
	cds_list_for_each(cp, &lang_clist)
		sum++;
	cds_list_for_each_prev(cp, &lang_clist)
		sum++;
	cds_list_for_each_safe(cp, cq, &lang_clist)
		sum++;
	cds_hlist_for_each_entry(pos, hp, &lang_cbucket, chnode)
		sum += pos->key;
	cds_hlist_for_each_entry_2(pos, &lang_cbucket, chnode)
		sum += pos->key;
	cds_hlist_for_each(hp, &lang_cbucket)
		sum++;
	cds_hlist_for_each_safe(hp, hq, &lang_cbucket)
		sum++;
	cds_hlist_for_each_entry_safe(pos, hp, hq, &lang_cbucket, chnode)
		cds_hlist_del_rcu(&pos->chnode);
	cds_hlist_for_each_entry_safe_2(pos, tmp, &lang_cbucket, chnode)
		cds_hlist_del(&pos->chnode);
	hlist_for_each_entry(pos, &lang_kbucket, khnode)
		sum += pos->key;
	hlist_for_each_entry_safe(pos, kn, &lang_kbucket, khnode)
		hlist_del_rcu(&pos->khnode);
	list_for_each_entry(pos, &lang_klist, klist)
		sum += pos->key;
	list_for_each_entry_safe(pos, tmp, &lang_klist, klist)
		list_del_rcu(&pos->klist);
	cds_list_for_each_entry_safe(pos, tmp, &lang_clist, clist)
		cds_list_del_rcu(&pos->clist);
	rcu_list_for_each_entry_safe(pos, tmp, &lang_list, list)
		rcu_list_del(&pos->list);
	lang_array[0] = sum;
	sum += (int)CAA_ARRAY_SIZE(lang_array) + cds_list_empty(&lang_clist) + list_empty(&lang_klist);
	call_rcu(&a->rh, lang_free_item);
	kfree_rcu(b, rh);
	return sum;
}

/* The rest of the opt-in names that rcu.h defines. */
static int lang_counter;
static void lang_deferred(void *p)
{
	free(p);
}

LANG_EXTERN void lang_names(void);
LANG_EXTERN void lang_names(void)
{
	int x = CMM_LOAD_SHARED(lang_counter);
	CMM_STORE_SHARED(lang_counter, x + 1);
	uatomic_set(&lang_counter, uatomic_read(&lang_counter));
	uatomic_add(&lang_counter, 2);
	uatomic_inc(&lang_counter);
	uatomic_dec(&lang_counter);
	uatomic_sub(&lang_counter, 1);
	uatomic_or(&lang_counter, 4);
	uatomic_and(&lang_counter, 7);
	x = uatomic_add_return(&lang_counter, 1) + uatomic_sub_return(&lang_counter, 1);
	x += uatomic_xchg(&lang_counter, 3) + uatomic_cmpxchg(&lang_counter, 3, 4);
	cmm_smp_mb();
	cmm_smp_rmb();
	cmm_smp_wmb();
	cmm_barrier();
	cmm_smp_mb__before_uatomic_inc();
	cmm_smp_mb__after_uatomic_inc();
	if (caa_likely(x) || caa_unlikely(!x))
		caa_cpu_relax();
	WRITE_ONCE(lang_counter, READ_ONCE(lang_counter) + x);
	smp_store_release(&lang_counter, smp_load_acquire(&lang_counter));
	smp_mb();
	smp_rmb();
	smp_wmb();
	barrier();
	rcu_init();
	rcu_defer_register_thread();
	defer_rcu(lang_deferred, malloc(1));
	rcu_defer_barrier();
	rcu_defer_barrier_thread();
	rcu_defer_unregister_thread();
	rcu_read_lock_bh();
	rcu_read_unlock_bh();
	rcu_read_lock_sched();
	rcu_read_unlock_sched();
	(void)rcu_read_lock_held();
	synchronize_rcu_expedited();
#if defined(RCU_FLAVOUR_QSBR)
	urcu_qsbr_register_thread();
	urcu_qsbr_read_lock();
	(void)urcu_qsbr_read_ongoing();
	urcu_qsbr_read_unlock();
	urcu_qsbr_quiescent_state();
	urcu_qsbr_thread_offline();
	urcu_qsbr_thread_online();
	struct urcu_gp_poll_state s = urcu_qsbr_start_poll_synchronize_rcu();
	(void)urcu_qsbr_poll_state_synchronize_rcu(s);
	urcu_qsbr_synchronize_rcu();
	urcu_qsbr_barrier();
	urcu_qsbr_defer_rcu(lang_deferred, malloc(1));
	urcu_qsbr_unregister_thread();
#elif defined(RCU_FLAVOUR_MEMB)
	urcu_memb_register_thread();
	urcu_memb_read_lock();
	(void)urcu_memb_read_ongoing();
	urcu_memb_read_unlock();
	struct urcu_gp_poll_state s = urcu_memb_start_poll_synchronize_rcu();
	(void)urcu_memb_poll_state_synchronize_rcu(s);
	urcu_memb_synchronize_rcu();
	urcu_memb_barrier();
	urcu_memb_defer_rcu(lang_deferred, malloc(1));
	urcu_memb_unregister_thread();
#elif defined(RCU_FLAVOUR_MB)
	urcu_mb_register_thread();
	urcu_mb_read_lock();
	(void)urcu_mb_read_ongoing();
	urcu_mb_read_unlock();
	struct urcu_gp_poll_state s = urcu_mb_start_poll_synchronize_rcu();
	(void)urcu_mb_poll_state_synchronize_rcu(s);
	urcu_mb_synchronize_rcu();
	urcu_mb_barrier();
	urcu_mb_defer_rcu(lang_deferred, malloc(1));
	urcu_mb_unregister_thread();
#else
	urcu_bp_register();
	urcu_bp_register_thread();
	urcu_bp_read_lock();
	(void)urcu_bp_read_ongoing();
	urcu_bp_read_unlock();
	struct urcu_gp_poll_state s = urcu_bp_start_poll_synchronize_rcu();
	(void)urcu_bp_poll_state_synchronize_rcu(s);
	urcu_bp_synchronize_rcu();
	urcu_bp_barrier();
	urcu_bp_defer_rcu(lang_deferred, malloc(1));
	urcu_bp_unregister_thread();
#endif
	(void)x;
}

#if defined(__cplusplus)
/* The C++ layer, as code written against C++26's <rcu> (P2545) uses it. */
namespace stdx = rcu;

struct config : stdx::rcu_obj_base<config> {
	int value = 0;
};

static std::atomic<config *> lang_config;

extern "C" int lang_cxx(void);
extern "C" int lang_cxx(void)
{
	int v = 0;
	{
		stdx::rcu_read_guard g;
		config *c = rcu_dereference(lang_config);
		v = c ? c->value : 0;
	}
	{
		std::lock_guard<stdx::rcu_domain> lk(stdx::rcu_default_domain());
		v += rcu_dereference(lang_config) != nullptr;
	}
#if __cplusplus >= 201703L
	{
		std::scoped_lock lk(stdx::rcu_default_domain());
	}
#endif
	{
		std::unique_lock<stdx::rcu_domain> lk(stdx::rcu_default_domain(), std::try_to_lock);
		v += lk.owns_lock();
	}
	config *n = new config;
	config *old = rcu_xchg_pointer(&lang_config, n);
	if (old)
		old->retire();
	stdx::rcu_retire(new int(3));
	stdx::rcu_retire(new int(4), std::default_delete<int>(), stdx::rcu_default_domain());
	stdx::rcu_synchronize();
	stdx::rcu_barrier();
	stdx::srcu_domain dom("lang");
	{
		stdx::srcu_read_guard g(dom.srcu_struct());
	}
	{
		std::lock_guard<stdx::rcu_domain> lk(dom);
	}
	stdx::rcu_domain view(lang_srcu);
	view.lock();
	view.unlock();
	stdx::rcu_synchronize(dom);
	stdx::rcu_barrier(view);
	static struct rcu_head head;
	call_rcu(&head, [](struct rcu_head *) {});
	return v;
}
#endif
