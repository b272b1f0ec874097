/* SPDX-License-Identifier: 0BSD */
/* Written by scripts/instance-names.py from rcu.h and rcu_liburcu_names.h: do not edit. */
/*
 * compat/liburcu/rcu_instance_names.h, read twice by rcu_instance.h around each further flavour
 * of a unit: with RCU__INSTANCE_ON it saves and clears the macros of the flavour's code (121)
 * and renames its identifiers (140) to RCU__I(name); without, it brings all of them back.
 */
#if defined(RCU__INSTANCE_ON)
#pragma push_macro("DEFINE_SRCU")
#undef DEFINE_SRCU
#pragma push_macro("DEFINE_STATIC_SRCU")
#undef DEFINE_STATIC_SRCU
#pragma push_macro("RCU_FLAVOUR_NAME")
#undef RCU_FLAVOUR_NAME
#pragma push_macro("RCU__ABI")
#undef RCU__ABI
#pragma push_macro("RCU__ACQUIRE")
#undef RCU__ACQUIRE
#pragma push_macro("RCU__ACQ_REL")
#undef RCU__ACQ_REL
#pragma push_macro("RCU__ALIGNAS")
#undef RCU__ALIGNAS
#pragma push_macro("RCU__ALIGNOF")
#undef RCU__ALIGNOF
#pragma push_macro("RCU__BARRIER_RECHECK_NS")
#undef RCU__BARRIER_RECHECK_NS
#pragma push_macro("RCU__BARRIER_TAG")
#undef RCU__BARRIER_TAG
#pragma push_macro("RCU__CALLBACK")
#undef RCU__CALLBACK
#pragma push_macro("RCU__CALLBACK_MIN")
#undef RCU__CALLBACK_MIN
#pragma push_macro("RCU__CAST")
#undef RCU__CAST
#pragma push_macro("RCU__CFG_C11_FENCES")
#undef RCU__CFG_C11_FENCES
#pragma push_macro("RCU__CFG_DEBUG")
#undef RCU__CFG_DEBUG
#pragma push_macro("RCU__CFG_DEBUG_DELAY")
#undef RCU__CFG_DEBUG_DELAY
#pragma push_macro("RCU__CFG_MB_EXIT_FENCE")
#undef RCU__CFG_MB_EXIT_FENCE
#pragma push_macro("RCU__CFG_NO_FUTEX")
#undef RCU__CFG_NO_FUTEX
#pragma push_macro("RCU__CFG_NO_MEMBARRIER")
#undef RCU__CFG_NO_MEMBARRIER
#pragma push_macro("RCU__CHECK")
#undef RCU__CHECK
#pragma push_macro("RCU__CHECK_QSBR_WAIT")
#undef RCU__CHECK_QSBR_WAIT
#pragma push_macro("RCU__CLEANUP_RECHECK_NS")
#undef RCU__CLEANUP_RECHECK_NS
#pragma push_macro("RCU__CLOCK_MONOTONIC")
#undef RCU__CLOCK_MONOTONIC
#pragma push_macro("RCU__CLOCK_REALTIME")
#undef RCU__CLOCK_REALTIME
#pragma push_macro("RCU__COLD")
#undef RCU__COLD
#pragma push_macro("RCU__CONSUME")
#undef RCU__CONSUME
#pragma push_macro("RCU__DELAY")
#undef RCU__DELAY
#pragma push_macro("RCU__DELAY_SPINS")
#undef RCU__DELAY_SPINS
#pragma push_macro("RCU__DELAY_YIELD_EVERY")
#undef RCU__DELAY_YIELD_EVERY
#pragma push_macro("RCU__EXIT_FENCE")
#undef RCU__EXIT_FENCE
#pragma push_macro("RCU__EXIT_WAIT_NS")
#undef RCU__EXIT_WAIT_NS
#pragma push_macro("RCU__EXTERN_C_BEGIN")
#undef RCU__EXTERN_C_BEGIN
#pragma push_macro("RCU__EXTERN_C_END")
#undef RCU__EXTERN_C_END
#pragma push_macro("RCU__FCODE")
#undef RCU__FCODE
#pragma push_macro("RCU__FLAVOUR_AGAIN")
#undef RCU__FLAVOUR_AGAIN
#pragma push_macro("RCU__FREE_OFFSET_MAX")
#undef RCU__FREE_OFFSET_MAX
#pragma push_macro("RCU__FTAG")
#undef RCU__FTAG
#pragma push_macro("RCU__FUPPER")
#undef RCU__FUPPER
#pragma push_macro("RCU__FUTEX_WAIT_PRIVATE")
#undef RCU__FUTEX_WAIT_PRIVATE
#pragma push_macro("RCU__FUTEX_WAKE_PRIVATE")
#undef RCU__FUTEX_WAKE_PRIVATE
#pragma push_macro("RCU__GATHER_MAX")
#undef RCU__GATHER_MAX
#pragma push_macro("RCU__GATHER_NS")
#undef RCU__GATHER_NS
#pragma push_macro("RCU__GP")
#undef RCU__GP
#pragma push_macro("RCU__HAVE_FUTEX")
#undef RCU__HAVE_FUTEX
#pragma push_macro("RCU__HAVE_MEMBARRIER")
#undef RCU__HAVE_MEMBARRIER
#pragma push_macro("RCU__HEAD_QUEUED")
#undef RCU__HEAD_QUEUED
#pragma push_macro("RCU__INLINE")
#undef RCU__INLINE
#pragma push_macro("RCU__IS_USER_CALLBACK")
#undef RCU__IS_USER_CALLBACK
#pragma push_macro("RCU__LAZY_WAKE_NS")
#undef RCU__LAZY_WAKE_NS
#pragma push_macro("RCU__LIKELY")
#undef RCU__LIKELY
#pragma push_macro("RCU__LINE_ALIGNED")
#undef RCU__LINE_ALIGNED
#pragma push_macro("RCU__LINK_SPINS")
#undef RCU__LINK_SPINS
#pragma push_macro("RCU__MEMBARRIER_CMD_PRIVATE_EXPEDITED")
#undef RCU__MEMBARRIER_CMD_PRIVATE_EXPEDITED
#pragma push_macro("RCU__MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED")
#undef RCU__MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED
#pragma push_macro("RCU__MEMB_READER")
#undef RCU__MEMB_READER
#pragma push_macro("RCU__NOEXCEPT")
#undef RCU__NOEXCEPT
#pragma push_macro("RCU__NOINLINE")
#undef RCU__NOINLINE
#pragma push_macro("RCU__NS_PER_MS")
#undef RCU__NS_PER_MS
#pragma push_macro("RCU__NS_PER_S")
#undef RCU__NS_PER_S
#pragma push_macro("RCU__ONCE")
#undef RCU__ONCE
#pragma push_macro("RCU__OWN_POSIX")
#undef RCU__OWN_POSIX
#pragma push_macro("RCU__OWN_TIME")
#undef RCU__OWN_TIME
#pragma push_macro("RCU__QSBR")
#undef RCU__QSBR
#pragma push_macro("RCU__RELAXED")
#undef RCU__RELAXED
#pragma push_macro("RCU__RELEASE")
#undef RCU__RELEASE
#pragma push_macro("RCU__REQUIRE")
#undef RCU__REQUIRE
#pragma push_macro("RCU__RULE_EXIT_IN_SECTION")
#undef RCU__RULE_EXIT_IN_SECTION
#pragma push_macro("RCU__RULE_IN_SECTION")
#undef RCU__RULE_IN_SECTION
#pragma push_macro("RCU__RULE_QS_IN_SECTION")
#undef RCU__RULE_QS_IN_SECTION
#pragma push_macro("RCU__SELF_REGISTER")
#undef RCU__SELF_REGISTER
#pragma push_macro("RCU__SEQ_CST")
#undef RCU__SEQ_CST
#pragma push_macro("RCU__SHARE_SPIN")
#undef RCU__SHARE_SPIN
#pragma push_macro("RCU__SIG_SETMASK")
#undef RCU__SIG_SETMASK
#pragma push_macro("RCU__SLOW")
#undef RCU__SLOW
#pragma push_macro("RCU__SPIN_MIN")
#undef RCU__SPIN_MIN
#pragma push_macro("RCU__SPIN_PROBE_EVERY")
#undef RCU__SPIN_PROBE_EVERY
#pragma push_macro("RCU__SPIN_SCANS")
#undef RCU__SPIN_SCANS
#pragma push_macro("RCU__SRCU_DEFINE")
#undef RCU__SRCU_DEFINE
#pragma push_macro("RCU__SRCU_INITIALIZER")
#undef RCU__SRCU_INITIALIZER
#pragma push_macro("RCU__STALL_CHECK_NS")
#undef RCU__STALL_CHECK_NS
#pragma push_macro("RCU__STALL_HOLDER")
#undef RCU__STALL_HOLDER
#pragma push_macro("RCU__STALL_SECTION")
#undef RCU__STALL_SECTION
#pragma push_macro("RCU__STATE")
#undef RCU__STATE
#pragma push_macro("RCU__STATE_MAGIC")
#undef RCU__STATE_MAGIC
#pragma push_macro("RCU__STATIC_ASSERT")
#undef RCU__STATIC_ASSERT
#pragma push_macro("RCU__STR")
#undef RCU__STR
#pragma push_macro("RCU__STR2")
#undef RCU__STR2
#pragma push_macro("RCU__SYM")
#undef RCU__SYM
#pragma push_macro("RCU__SYM2")
#undef RCU__SYM2
#pragma push_macro("RCU__SYM3")
#undef RCU__SYM3
#pragma push_macro("RCU__TEST_HOOK")
#undef RCU__TEST_HOOK
#pragma push_macro("RCU__THREAD_LOCAL")
#undef RCU__THREAD_LOCAL
#pragma push_macro("RCU__TSAN")
#undef RCU__TSAN
#pragma push_macro("RCU__UNLIKELY")
#undef RCU__UNLIKELY
#pragma push_macro("RCU__UNUSED")
#undef RCU__UNUSED
#pragma push_macro("RCU__URCU_API")
#undef RCU__URCU_API
#pragma push_macro("RCU__URCU_DEFINE_R")
#undef RCU__URCU_DEFINE_R
#pragma push_macro("RCU__URCU_DEFINE_V")
#undef RCU__URCU_DEFINE_V
#pragma push_macro("RCU__URCU_FLAVOR_EXTERN")
#undef RCU__URCU_FLAVOR_EXTERN
#pragma push_macro("RCU__URCU_NAME")
#undef RCU__URCU_NAME
#pragma push_macro("RCU__URCU_NAME2")
#undef RCU__URCU_NAME2
#pragma push_macro("RCU__URCU_NAME3")
#undef RCU__URCU_NAME3
#pragma push_macro("RCU__URCU_SYM")
#undef RCU__URCU_SYM
#pragma push_macro("RCU__WEAK")
#undef RCU__WEAK
#pragma push_macro("rcu__cas")
#undef rcu__cas
#pragma push_macro("rcu__cas_weak")
#undef rcu__cas_weak
#pragma push_macro("rcu__clock_gettime")
#undef rcu__clock_gettime
#pragma push_macro("rcu__fence_compiler")
#undef rcu__fence_compiler
#pragma push_macro("rcu__fence_full")
#undef rcu__fence_full
#pragma push_macro("rcu__fence_release")
#undef rcu__fence_release
#pragma push_macro("rcu__fetch_add")
#undef rcu__fetch_add
#pragma push_macro("rcu__fetch_and")
#undef rcu__fetch_and
#pragma push_macro("rcu__fetch_sub")
#undef rcu__fetch_sub
#pragma push_macro("rcu__load")
#undef rcu__load
#pragma push_macro("rcu__nanosleep")
#undef rcu__nanosleep
#pragma push_macro("rcu__pthread_sigmask")
#undef rcu__pthread_sigmask
#pragma push_macro("rcu__sigfillset")
#undef rcu__sigfillset
#pragma push_macro("rcu__sigset_t")
#undef rcu__sigset_t
#pragma push_macro("rcu__store")
#undef rcu__store
#pragma push_macro("rcu__xchg")
#undef rcu__xchg
#pragma push_macro("rcu_free")
#undef rcu_free
#pragma push_macro("RCU__CB_DEFAULT")
#undef RCU__CB_DEFAULT
#define RCU__CB_DEFAULT RCU__I(RCU__CB_DEFAULT)
#pragma push_macro("RCU__CB_NONE")
#undef RCU__CB_NONE
#define RCU__CB_NONE RCU__I(RCU__CB_NONE)
#pragma push_macro("RCU__CB_SRCU")
#undef RCU__CB_SRCU
#define RCU__CB_SRCU RCU__I(RCU__CB_SRCU)
#pragma push_macro("RCU__DONE_BUMP")
#undef RCU__DONE_BUMP
#define RCU__DONE_BUMP RCU__I(RCU__DONE_BUMP)
#pragma push_macro("RCU__DONE_WAITERS")
#undef RCU__DONE_WAITERS
#define RCU__DONE_WAITERS RCU__I(RCU__DONE_WAITERS)
#pragma push_macro("RCU__SPIN_LOST")
#undef RCU__SPIN_LOST
#define RCU__SPIN_LOST RCU__I(RCU__SPIN_LOST)
#pragma push_macro("RCU__SPIN_PAID")
#undef RCU__SPIN_PAID
#define RCU__SPIN_PAID RCU__I(RCU__SPIN_PAID)
#pragma push_macro("RCU__SPIN_UNTRIED")
#undef RCU__SPIN_UNTRIED
#define RCU__SPIN_UNTRIED RCU__I(RCU__SPIN_UNTRIED)
#pragma push_macro("RCU__STEP_DONE")
#undef RCU__STEP_DONE
#define RCU__STEP_DONE RCU__I(RCU__STEP_DONE)
#pragma push_macro("RCU__STEP_IDLE")
#undef RCU__STEP_IDLE
#define RCU__STEP_IDLE RCU__I(RCU__STEP_IDLE)
#pragma push_macro("RCU__STEP_WAITING")
#undef RCU__STEP_WAITING
#define RCU__STEP_WAITING RCU__I(RCU__STEP_WAITING)
#pragma push_macro("call_rcu")
#undef call_rcu
#define call_rcu RCU__I(call_rcu)
#pragma push_macro("call_rcu_after_fork_child")
#undef call_rcu_after_fork_child
#define call_rcu_after_fork_child RCU__I(call_rcu_after_fork_child)
#pragma push_macro("call_rcu_after_fork_parent")
#undef call_rcu_after_fork_parent
#define call_rcu_after_fork_parent RCU__I(call_rcu_after_fork_parent)
#pragma push_macro("call_rcu_before_fork")
#undef call_rcu_before_fork
#define call_rcu_before_fork RCU__I(call_rcu_before_fork)
#pragma push_macro("call_rcu_data_free")
#undef call_rcu_data_free
#define call_rcu_data_free RCU__I(call_rcu_data_free)
#pragma push_macro("call_srcu")
#undef call_srcu
#define call_srcu RCU__I(call_srcu)
#pragma push_macro("cleanup_srcu_struct")
#undef cleanup_srcu_struct
#define cleanup_srcu_struct RCU__I(cleanup_srcu_struct)
#pragma push_macro("cond_synchronize_rcu")
#undef cond_synchronize_rcu
#define cond_synchronize_rcu RCU__I(cond_synchronize_rcu)
#pragma push_macro("create_all_cpu_call_rcu_data")
#undef create_all_cpu_call_rcu_data
#define create_all_cpu_call_rcu_data RCU__I(create_all_cpu_call_rcu_data)
#pragma push_macro("create_call_rcu_data")
#undef create_call_rcu_data
#define create_call_rcu_data RCU__I(create_call_rcu_data)
#pragma push_macro("defer_rcu")
#undef defer_rcu
#define defer_rcu RCU__I(defer_rcu)
#pragma push_macro("free_all_cpu_call_rcu_data")
#undef free_all_cpu_call_rcu_data
#define free_all_cpu_call_rcu_data RCU__I(free_all_cpu_call_rcu_data)
#pragma push_macro("get_call_rcu_data")
#undef get_call_rcu_data
#define get_call_rcu_data RCU__I(get_call_rcu_data)
#pragma push_macro("get_cpu_call_rcu_data")
#undef get_cpu_call_rcu_data
#define get_cpu_call_rcu_data RCU__I(get_cpu_call_rcu_data)
#pragma push_macro("get_default_call_rcu_data")
#undef get_default_call_rcu_data
#define get_default_call_rcu_data RCU__I(get_default_call_rcu_data)
#pragma push_macro("get_state_synchronize_rcu")
#undef get_state_synchronize_rcu
#define get_state_synchronize_rcu RCU__I(get_state_synchronize_rcu)
#pragma push_macro("get_state_synchronize_srcu")
#undef get_state_synchronize_srcu
#define get_state_synchronize_srcu RCU__I(get_state_synchronize_srcu)
#pragma push_macro("get_thread_call_rcu_data")
#undef get_thread_call_rcu_data
#define get_thread_call_rcu_data RCU__I(get_thread_call_rcu_data)
#pragma push_macro("init_srcu_struct")
#undef init_srcu_struct
#define init_srcu_struct RCU__I(init_srcu_struct)
#pragma push_macro("poll_state_synchronize_rcu")
#undef poll_state_synchronize_rcu
#define poll_state_synchronize_rcu RCU__I(poll_state_synchronize_rcu)
#pragma push_macro("poll_state_synchronize_srcu")
#undef poll_state_synchronize_srcu
#define poll_state_synchronize_srcu RCU__I(poll_state_synchronize_srcu)
#pragma push_macro("rcu__after_enqueue")
#undef rcu__after_enqueue
#define rcu__after_enqueue RCU__I(rcu__after_enqueue)
#pragma push_macro("rcu__barrier")
#undef rcu__barrier
#define rcu__barrier RCU__I(rcu__barrier)
#pragma push_macro("rcu__barrier_done")
#undef rcu__barrier_done
#define rcu__barrier_done RCU__I(rcu__barrier_done)
#pragma push_macro("rcu__callback_state")
#undef rcu__callback_state
#define rcu__callback_state RCU__I(rcu__callback_state)
#pragma push_macro("rcu__cbq_detach")
#undef rcu__cbq_detach
#define rcu__cbq_detach RCU__I(rcu__cbq_detach)
#pragma push_macro("rcu__cbq_empty")
#undef rcu__cbq_empty
#define rcu__cbq_empty RCU__I(rcu__cbq_empty)
#pragma push_macro("rcu__cbq_first")
#undef rcu__cbq_first
#define rcu__cbq_first RCU__I(rcu__cbq_first)
#pragma push_macro("rcu__cbq_next")
#undef rcu__cbq_next
#define rcu__cbq_next RCU__I(rcu__cbq_next)
#pragma push_macro("rcu__cbq_pending")
#undef rcu__cbq_pending
#define rcu__cbq_pending RCU__I(rcu__cbq_pending)
#pragma push_macro("rcu__cbq_take")
#undef rcu__cbq_take
#define rcu__cbq_take RCU__I(rcu__cbq_take)
#pragma push_macro("rcu__chain_end")
#undef rcu__chain_end
#define rcu__chain_end RCU__I(rcu__chain_end)
#pragma push_macro("rcu__child_domain")
#undef rcu__child_domain
#define rcu__child_domain RCU__I(rcu__child_domain)
#pragma push_macro("rcu__config_value")
#undef rcu__config_value
#define rcu__config_value RCU__I(rcu__config_value)
#pragma push_macro("rcu__congestion_ask")
#undef rcu__congestion_ask
#define rcu__congestion_ask RCU__I(rcu__congestion_ask)
#pragma push_macro("rcu__constructor")
#undef rcu__constructor
#define rcu__constructor RCU__I(rcu__constructor)
#pragma push_macro("rcu__copies")
#undef rcu__copies
#define rcu__copies RCU__I(rcu__copies)
#pragma push_macro("rcu__cpu_relax")
#undef rcu__cpu_relax
#define rcu__cpu_relax RCU__I(rcu__cpu_relax)
#pragma push_macro("rcu__done_announce")
#undef rcu__done_announce
#define rcu__done_announce RCU__I(rcu__done_announce)
#pragma push_macro("rcu__done_count")
#undef rcu__done_count
#define rcu__done_count RCU__I(rcu__done_count)
#pragma push_macro("rcu__enqueue")
#undef rcu__enqueue
#define rcu__enqueue RCU__I(rcu__enqueue)
#pragma push_macro("rcu__gettid")
#undef rcu__gettid
#define rcu__gettid RCU__I(rcu__gettid)
#pragma push_macro("rcu__gp_advance")
#undef rcu__gp_advance
#define rcu__gp_advance RCU__I(rcu__gp_advance)
#pragma push_macro("rcu__gp_alone")
#undef rcu__gp_alone
#define rcu__gp_alone RCU__I(rcu__gp_alone)
#pragma push_macro("rcu__gp_complete")
#undef rcu__gp_complete
#define rcu__gp_complete RCU__I(rcu__gp_complete)
#pragma push_macro("rcu__gp_completed_wake")
#undef rcu__gp_completed_wake
#define rcu__gp_completed_wake RCU__I(rcu__gp_completed_wake)
#pragma push_macro("rcu__gp_done_bump")
#undef rcu__gp_done_bump
#define rcu__gp_done_bump RCU__I(rcu__gp_done_bump)
#pragma push_macro("rcu__gp_ready")
#undef rcu__gp_ready
#define rcu__gp_ready RCU__I(rcu__gp_ready)
#pragma push_macro("rcu__gp_snapshot")
#undef rcu__gp_snapshot
#define rcu__gp_snapshot RCU__I(rcu__gp_snapshot)
#pragma push_macro("rcu__gp_sync")
#undef rcu__gp_sync
#define rcu__gp_sync RCU__I(rcu__gp_sync)
#pragma push_macro("rcu__gp_unwatched")
#undef rcu__gp_unwatched
#define rcu__gp_unwatched RCU__I(rcu__gp_unwatched)
#pragma push_macro("rcu__gp_unwatched_end")
#undef rcu__gp_unwatched_end
#define rcu__gp_unwatched_end RCU__I(rcu__gp_unwatched_end)
#pragma push_macro("rcu__in_section")
#undef rcu__in_section
#define rcu__in_section RCU__I(rcu__in_section)
#pragma push_macro("rcu__in_srcu_section")
#undef rcu__in_srcu_section
#define rcu__in_srcu_section RCU__I(rcu__in_srcu_section)
#pragma push_macro("rcu__init_srcu_named")
#undef rcu__init_srcu_named
#define rcu__init_srcu_named RCU__I(rcu__init_srcu_named)
#pragma push_macro("rcu__invoke_batch")
#undef rcu__invoke_batch
#define rcu__invoke_batch RCU__I(rcu__invoke_batch)
#pragma push_macro("rcu__lazy_wake")
#undef rcu__lazy_wake
#define rcu__lazy_wake RCU__I(rcu__lazy_wake)
#pragma push_macro("rcu__link_reader")
#undef rcu__link_reader
#define rcu__link_reader RCU__I(rcu__link_reader)
#pragma push_macro("rcu__may_help")
#undef rcu__may_help
#define rcu__may_help RCU__I(rcu__may_help)
#pragma push_macro("rcu__may_read")
#undef rcu__may_read
#define rcu__may_read RCU__I(rcu__may_read)
#pragma push_macro("rcu__membarrier")
#undef rcu__membarrier
#define rcu__membarrier RCU__I(rcu__membarrier)
#pragma push_macro("rcu__now_ns")
#undef rcu__now_ns
#define rcu__now_ns RCU__I(rcu__now_ns)
#pragma push_macro("rcu__online")
#undef rcu__online
#define rcu__online RCU__I(rcu__online)
#pragma push_macro("rcu__other_readers")
#undef rcu__other_readers
#define rcu__other_readers RCU__I(rcu__other_readers)
#pragma push_macro("rcu__poll_state")
#undef rcu__poll_state
#define rcu__poll_state RCU__I(rcu__poll_state)
#pragma push_macro("rcu__qs_offline")
#undef rcu__qs_offline
#define rcu__qs_offline RCU__I(rcu__qs_offline)
#pragma push_macro("rcu__qs_online")
#undef rcu__qs_online
#define rcu__qs_online RCU__I(rcu__qs_online)
#pragma push_macro("rcu__qs_quiescent")
#undef rcu__qs_quiescent
#define rcu__qs_quiescent RCU__I(rcu__qs_quiescent)
#pragma push_macro("rcu__qsbr_leave")
#undef rcu__qsbr_leave
#define rcu__qsbr_leave RCU__I(rcu__qsbr_leave)
#pragma push_macro("rcu__qsbr_return")
#undef rcu__qsbr_return
#define rcu__qsbr_return RCU__I(rcu__qsbr_return)
#pragma push_macro("rcu__read_lock_at")
#undef rcu__read_lock_at
#define rcu__read_lock_at RCU__I(rcu__read_lock_at)
#pragma push_macro("rcu__read_unlock_of")
#undef rcu__read_unlock_of
#define rcu__read_unlock_of RCU__I(rcu__read_unlock_of)
#pragma push_macro("rcu__reader_holds")
#undef rcu__reader_holds
#define rcu__reader_holds RCU__I(rcu__reader_holds)
#pragma push_macro("rcu__readers_done")
#undef rcu__readers_done
#define rcu__readers_done RCU__I(rcu__readers_done)
#pragma push_macro("rcu__readers_wait")
#undef rcu__readers_wait
#define rcu__readers_wait RCU__I(rcu__readers_wait)
#pragma push_macro("rcu__register_online")
#undef rcu__register_online
#define rcu__register_online RCU__I(rcu__register_online)
#pragma push_macro("rcu__self")
#undef rcu__self
#define rcu__self RCU__I(rcu__self)
#pragma push_macro("rcu__slot_enter")
#undef rcu__slot_enter
#define rcu__slot_enter RCU__I(rcu__slot_enter)
#pragma push_macro("rcu__slot_exit")
#undef rcu__slot_exit
#define rcu__slot_exit RCU__I(rcu__slot_exit)
#pragma push_macro("rcu__spin_adapt")
#undef rcu__spin_adapt
#define rcu__spin_adapt RCU__I(rcu__spin_adapt)
#pragma push_macro("rcu__spin_outcome")
#undef rcu__spin_outcome
#define rcu__spin_outcome RCU__I(rcu__spin_outcome)
#pragma push_macro("rcu__srcu_enlist")
#undef rcu__srcu_enlist
#define rcu__srcu_enlist RCU__I(rcu__srcu_enlist)
#pragma push_macro("rcu__srcu_enter")
#undef rcu__srcu_enter
#define rcu__srcu_enter RCU__I(rcu__srcu_enter)
#pragma push_macro("rcu__srcu_has_readers")
#undef rcu__srcu_has_readers
#define rcu__srcu_has_readers RCU__I(rcu__srcu_has_readers)
#pragma push_macro("rcu__srcu_has_work")
#undef rcu__srcu_has_work
#define rcu__srcu_has_work RCU__I(rcu__srcu_has_work)
#pragma push_macro("rcu__srcu_lock_at")
#undef rcu__srcu_lock_at
#define rcu__srcu_lock_at RCU__I(rcu__srcu_lock_at)
#pragma push_macro("rcu__srcu_ready")
#undef rcu__srcu_ready
#define rcu__srcu_ready RCU__I(rcu__srcu_ready)
#pragma push_macro("rcu__step")
#undef rcu__step
#define rcu__step RCU__I(rcu__step)
#pragma push_macro("rcu__thread_name")
#undef rcu__thread_name
#define rcu__thread_name RCU__I(rcu__thread_name)
#pragma push_macro("rcu__tsan_fence_word")
#undef rcu__tsan_fence_word
#define rcu__tsan_fence_word RCU__I(rcu__tsan_fence_word)
#pragma push_macro("rcu__unit_config")
#undef rcu__unit_config
#define rcu__unit_config RCU__I(rcu__unit_config)
#pragma push_macro("rcu__unlink_reader")
#undef rcu__unlink_reader
#define rcu__unlink_reader RCU__I(rcu__unlink_reader)
#pragma push_macro("rcu__updater_fence")
#undef rcu__updater_fence
#define rcu__updater_fence RCU__I(rcu__updater_fence)
#pragma push_macro("rcu__urcu_poll_state")
#undef rcu__urcu_poll_state
#define rcu__urcu_poll_state RCU__I(rcu__urcu_poll_state)
#pragma push_macro("rcu__urcu_start_poll")
#undef rcu__urcu_start_poll
#define rcu__urcu_start_poll RCU__I(rcu__urcu_start_poll)
#pragma push_macro("rcu__wake_worker")
#undef rcu__wake_worker
#define rcu__wake_worker RCU__I(rcu__wake_worker)
#pragma push_macro("rcu__word_wait")
#undef rcu__word_wait
#define rcu__word_wait RCU__I(rcu__word_wait)
#pragma push_macro("rcu__word_wake")
#undef rcu__word_wake
#define rcu__word_wake RCU__I(rcu__word_wake)
#pragma push_macro("rcu__worker_gather")
#undef rcu__worker_gather
#define rcu__worker_gather RCU__I(rcu__worker_gather)
#pragma push_macro("rcu__yield_first")
#undef rcu__yield_first
#define rcu__yield_first RCU__I(rcu__yield_first)
#pragma push_macro("rcu_barrier")
#undef rcu_barrier
#define rcu_barrier RCU__I(rcu_barrier)
#pragma push_macro("rcu_defer_barrier")
#undef rcu_defer_barrier
#define rcu_defer_barrier RCU__I(rcu_defer_barrier)
#pragma push_macro("rcu_defer_barrier_thread")
#undef rcu_defer_barrier_thread
#define rcu_defer_barrier_thread RCU__I(rcu_defer_barrier_thread)
#pragma push_macro("rcu_defer_register_thread")
#undef rcu_defer_register_thread
#define rcu_defer_register_thread RCU__I(rcu_defer_register_thread)
#pragma push_macro("rcu_defer_unregister_thread")
#undef rcu_defer_unregister_thread
#define rcu_defer_unregister_thread RCU__I(rcu_defer_unregister_thread)
#pragma push_macro("rcu_get_stats")
#undef rcu_get_stats
#define rcu_get_stats RCU__I(rcu_get_stats)
#pragma push_macro("rcu_quiescent_state")
#undef rcu_quiescent_state
#define rcu_quiescent_state RCU__I(rcu_quiescent_state)
#pragma push_macro("rcu_read_lock")
#undef rcu_read_lock
#define rcu_read_lock RCU__I(rcu_read_lock)
#pragma push_macro("rcu_read_lock_held")
#undef rcu_read_lock_held
#define rcu_read_lock_held RCU__I(rcu_read_lock_held)
#pragma push_macro("rcu_read_ongoing")
#undef rcu_read_ongoing
#define rcu_read_ongoing RCU__I(rcu_read_ongoing)
#pragma push_macro("rcu_read_unlock")
#undef rcu_read_unlock
#define rcu_read_unlock RCU__I(rcu_read_unlock)
#pragma push_macro("rcu_register_thread")
#undef rcu_register_thread
#define rcu_register_thread RCU__I(rcu_register_thread)
#pragma push_macro("rcu_thread_offline")
#undef rcu_thread_offline
#define rcu_thread_offline RCU__I(rcu_thread_offline)
#pragma push_macro("rcu_thread_online")
#undef rcu_thread_online
#define rcu_thread_online RCU__I(rcu_thread_online)
#pragma push_macro("rcu_unregister_thread")
#undef rcu_unregister_thread
#define rcu_unregister_thread RCU__I(rcu_unregister_thread)
#pragma push_macro("set_cpu_call_rcu_data")
#undef set_cpu_call_rcu_data
#define set_cpu_call_rcu_data RCU__I(set_cpu_call_rcu_data)
#pragma push_macro("set_thread_call_rcu_data")
#undef set_thread_call_rcu_data
#define set_thread_call_rcu_data RCU__I(set_thread_call_rcu_data)
#pragma push_macro("srcu_barrier")
#undef srcu_barrier
#define srcu_barrier RCU__I(srcu_barrier)
#pragma push_macro("srcu_batches_completed")
#undef srcu_batches_completed
#define srcu_batches_completed RCU__I(srcu_batches_completed)
#pragma push_macro("srcu_get_stats")
#undef srcu_get_stats
#define srcu_get_stats RCU__I(srcu_get_stats)
#pragma push_macro("srcu_read_lock")
#undef srcu_read_lock
#define srcu_read_lock RCU__I(srcu_read_lock)
#pragma push_macro("srcu_read_lock_held")
#undef srcu_read_lock_held
#define srcu_read_lock_held RCU__I(srcu_read_lock_held)
#pragma push_macro("srcu_read_unlock")
#undef srcu_read_unlock
#define srcu_read_unlock RCU__I(srcu_read_unlock)
#pragma push_macro("start_poll_synchronize_rcu")
#undef start_poll_synchronize_rcu
#define start_poll_synchronize_rcu RCU__I(start_poll_synchronize_rcu)
#pragma push_macro("start_poll_synchronize_srcu")
#undef start_poll_synchronize_srcu
#define start_poll_synchronize_srcu RCU__I(start_poll_synchronize_srcu)
#pragma push_macro("synchronize_rcu")
#undef synchronize_rcu
#define synchronize_rcu RCU__I(synchronize_rcu)
#pragma push_macro("synchronize_rcu_expedited")
#undef synchronize_rcu_expedited
#define synchronize_rcu_expedited RCU__I(synchronize_rcu_expedited)
#pragma push_macro("synchronize_srcu")
#undef synchronize_srcu
#define synchronize_srcu RCU__I(synchronize_srcu)
#pragma push_macro("synchronize_srcu_expedited")
#undef synchronize_srcu_expedited
#define synchronize_srcu_expedited RCU__I(synchronize_srcu_expedited)
#else
#pragma pop_macro("DEFINE_SRCU")
#pragma pop_macro("DEFINE_STATIC_SRCU")
#pragma pop_macro("RCU_FLAVOUR_NAME")
#pragma pop_macro("RCU__ABI")
#pragma pop_macro("RCU__ACQUIRE")
#pragma pop_macro("RCU__ACQ_REL")
#pragma pop_macro("RCU__ALIGNAS")
#pragma pop_macro("RCU__ALIGNOF")
#pragma pop_macro("RCU__BARRIER_RECHECK_NS")
#pragma pop_macro("RCU__BARRIER_TAG")
#pragma pop_macro("RCU__CALLBACK")
#pragma pop_macro("RCU__CALLBACK_MIN")
#pragma pop_macro("RCU__CAST")
#pragma pop_macro("RCU__CFG_C11_FENCES")
#pragma pop_macro("RCU__CFG_DEBUG")
#pragma pop_macro("RCU__CFG_DEBUG_DELAY")
#pragma pop_macro("RCU__CFG_MB_EXIT_FENCE")
#pragma pop_macro("RCU__CFG_NO_FUTEX")
#pragma pop_macro("RCU__CFG_NO_MEMBARRIER")
#pragma pop_macro("RCU__CHECK")
#pragma pop_macro("RCU__CHECK_QSBR_WAIT")
#pragma pop_macro("RCU__CLEANUP_RECHECK_NS")
#pragma pop_macro("RCU__CLOCK_MONOTONIC")
#pragma pop_macro("RCU__CLOCK_REALTIME")
#pragma pop_macro("RCU__COLD")
#pragma pop_macro("RCU__CONSUME")
#pragma pop_macro("RCU__DELAY")
#pragma pop_macro("RCU__DELAY_SPINS")
#pragma pop_macro("RCU__DELAY_YIELD_EVERY")
#pragma pop_macro("RCU__EXIT_FENCE")
#pragma pop_macro("RCU__EXIT_WAIT_NS")
#pragma pop_macro("RCU__EXTERN_C_BEGIN")
#pragma pop_macro("RCU__EXTERN_C_END")
#pragma pop_macro("RCU__FCODE")
#pragma pop_macro("RCU__FLAVOUR_AGAIN")
#pragma pop_macro("RCU__FREE_OFFSET_MAX")
#pragma pop_macro("RCU__FTAG")
#pragma pop_macro("RCU__FUPPER")
#pragma pop_macro("RCU__FUTEX_WAIT_PRIVATE")
#pragma pop_macro("RCU__FUTEX_WAKE_PRIVATE")
#pragma pop_macro("RCU__GATHER_MAX")
#pragma pop_macro("RCU__GATHER_NS")
#pragma pop_macro("RCU__GP")
#pragma pop_macro("RCU__HAVE_FUTEX")
#pragma pop_macro("RCU__HAVE_MEMBARRIER")
#pragma pop_macro("RCU__HEAD_QUEUED")
#pragma pop_macro("RCU__INLINE")
#pragma pop_macro("RCU__IS_USER_CALLBACK")
#pragma pop_macro("RCU__LAZY_WAKE_NS")
#pragma pop_macro("RCU__LIKELY")
#pragma pop_macro("RCU__LINE_ALIGNED")
#pragma pop_macro("RCU__LINK_SPINS")
#pragma pop_macro("RCU__MEMBARRIER_CMD_PRIVATE_EXPEDITED")
#pragma pop_macro("RCU__MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED")
#pragma pop_macro("RCU__MEMB_READER")
#pragma pop_macro("RCU__NOEXCEPT")
#pragma pop_macro("RCU__NOINLINE")
#pragma pop_macro("RCU__NS_PER_MS")
#pragma pop_macro("RCU__NS_PER_S")
#pragma pop_macro("RCU__ONCE")
#pragma pop_macro("RCU__OWN_POSIX")
#pragma pop_macro("RCU__OWN_TIME")
#pragma pop_macro("RCU__QSBR")
#pragma pop_macro("RCU__RELAXED")
#pragma pop_macro("RCU__RELEASE")
#pragma pop_macro("RCU__REQUIRE")
#pragma pop_macro("RCU__RULE_EXIT_IN_SECTION")
#pragma pop_macro("RCU__RULE_IN_SECTION")
#pragma pop_macro("RCU__RULE_QS_IN_SECTION")
#pragma pop_macro("RCU__SELF_REGISTER")
#pragma pop_macro("RCU__SEQ_CST")
#pragma pop_macro("RCU__SHARE_SPIN")
#pragma pop_macro("RCU__SIG_SETMASK")
#pragma pop_macro("RCU__SLOW")
#pragma pop_macro("RCU__SPIN_MIN")
#pragma pop_macro("RCU__SPIN_PROBE_EVERY")
#pragma pop_macro("RCU__SPIN_SCANS")
#pragma pop_macro("RCU__SRCU_DEFINE")
#pragma pop_macro("RCU__SRCU_INITIALIZER")
#pragma pop_macro("RCU__STALL_CHECK_NS")
#pragma pop_macro("RCU__STALL_HOLDER")
#pragma pop_macro("RCU__STALL_SECTION")
#pragma pop_macro("RCU__STATE")
#pragma pop_macro("RCU__STATE_MAGIC")
#pragma pop_macro("RCU__STATIC_ASSERT")
#pragma pop_macro("RCU__STR")
#pragma pop_macro("RCU__STR2")
#pragma pop_macro("RCU__SYM")
#pragma pop_macro("RCU__SYM2")
#pragma pop_macro("RCU__SYM3")
#pragma pop_macro("RCU__TEST_HOOK")
#pragma pop_macro("RCU__THREAD_LOCAL")
#pragma pop_macro("RCU__TSAN")
#pragma pop_macro("RCU__UNLIKELY")
#pragma pop_macro("RCU__UNUSED")
#pragma pop_macro("RCU__URCU_API")
#pragma pop_macro("RCU__URCU_DEFINE_R")
#pragma pop_macro("RCU__URCU_DEFINE_V")
#pragma pop_macro("RCU__URCU_FLAVOR_EXTERN")
#pragma pop_macro("RCU__URCU_NAME")
#pragma pop_macro("RCU__URCU_NAME2")
#pragma pop_macro("RCU__URCU_NAME3")
#pragma pop_macro("RCU__URCU_SYM")
#pragma pop_macro("RCU__WEAK")
#pragma pop_macro("rcu__cas")
#pragma pop_macro("rcu__cas_weak")
#pragma pop_macro("rcu__clock_gettime")
#pragma pop_macro("rcu__fence_compiler")
#pragma pop_macro("rcu__fence_full")
#pragma pop_macro("rcu__fence_release")
#pragma pop_macro("rcu__fetch_add")
#pragma pop_macro("rcu__fetch_and")
#pragma pop_macro("rcu__fetch_sub")
#pragma pop_macro("rcu__load")
#pragma pop_macro("rcu__nanosleep")
#pragma pop_macro("rcu__pthread_sigmask")
#pragma pop_macro("rcu__sigfillset")
#pragma pop_macro("rcu__sigset_t")
#pragma pop_macro("rcu__store")
#pragma pop_macro("rcu__xchg")
#pragma pop_macro("rcu_free")
#pragma pop_macro("RCU__CB_DEFAULT")
#pragma pop_macro("RCU__CB_NONE")
#pragma pop_macro("RCU__CB_SRCU")
#pragma pop_macro("RCU__DONE_BUMP")
#pragma pop_macro("RCU__DONE_WAITERS")
#pragma pop_macro("RCU__SPIN_LOST")
#pragma pop_macro("RCU__SPIN_PAID")
#pragma pop_macro("RCU__SPIN_UNTRIED")
#pragma pop_macro("RCU__STEP_DONE")
#pragma pop_macro("RCU__STEP_IDLE")
#pragma pop_macro("RCU__STEP_WAITING")
#pragma pop_macro("call_rcu")
#pragma pop_macro("call_rcu_after_fork_child")
#pragma pop_macro("call_rcu_after_fork_parent")
#pragma pop_macro("call_rcu_before_fork")
#pragma pop_macro("call_rcu_data_free")
#pragma pop_macro("call_srcu")
#pragma pop_macro("cleanup_srcu_struct")
#pragma pop_macro("cond_synchronize_rcu")
#pragma pop_macro("create_all_cpu_call_rcu_data")
#pragma pop_macro("create_call_rcu_data")
#pragma pop_macro("defer_rcu")
#pragma pop_macro("free_all_cpu_call_rcu_data")
#pragma pop_macro("get_call_rcu_data")
#pragma pop_macro("get_cpu_call_rcu_data")
#pragma pop_macro("get_default_call_rcu_data")
#pragma pop_macro("get_state_synchronize_rcu")
#pragma pop_macro("get_state_synchronize_srcu")
#pragma pop_macro("get_thread_call_rcu_data")
#pragma pop_macro("init_srcu_struct")
#pragma pop_macro("poll_state_synchronize_rcu")
#pragma pop_macro("poll_state_synchronize_srcu")
#pragma pop_macro("rcu__after_enqueue")
#pragma pop_macro("rcu__barrier")
#pragma pop_macro("rcu__barrier_done")
#pragma pop_macro("rcu__callback_state")
#pragma pop_macro("rcu__cbq_detach")
#pragma pop_macro("rcu__cbq_empty")
#pragma pop_macro("rcu__cbq_first")
#pragma pop_macro("rcu__cbq_next")
#pragma pop_macro("rcu__cbq_pending")
#pragma pop_macro("rcu__cbq_take")
#pragma pop_macro("rcu__chain_end")
#pragma pop_macro("rcu__child_domain")
#pragma pop_macro("rcu__config_value")
#pragma pop_macro("rcu__congestion_ask")
#pragma pop_macro("rcu__constructor")
#pragma pop_macro("rcu__copies")
#pragma pop_macro("rcu__cpu_relax")
#pragma pop_macro("rcu__done_announce")
#pragma pop_macro("rcu__done_count")
#pragma pop_macro("rcu__enqueue")
#pragma pop_macro("rcu__gettid")
#pragma pop_macro("rcu__gp_advance")
#pragma pop_macro("rcu__gp_alone")
#pragma pop_macro("rcu__gp_complete")
#pragma pop_macro("rcu__gp_completed_wake")
#pragma pop_macro("rcu__gp_done_bump")
#pragma pop_macro("rcu__gp_ready")
#pragma pop_macro("rcu__gp_snapshot")
#pragma pop_macro("rcu__gp_sync")
#pragma pop_macro("rcu__gp_unwatched")
#pragma pop_macro("rcu__gp_unwatched_end")
#pragma pop_macro("rcu__in_section")
#pragma pop_macro("rcu__in_srcu_section")
#pragma pop_macro("rcu__init_srcu_named")
#pragma pop_macro("rcu__invoke_batch")
#pragma pop_macro("rcu__lazy_wake")
#pragma pop_macro("rcu__link_reader")
#pragma pop_macro("rcu__may_help")
#pragma pop_macro("rcu__may_read")
#pragma pop_macro("rcu__membarrier")
#pragma pop_macro("rcu__now_ns")
#pragma pop_macro("rcu__online")
#pragma pop_macro("rcu__other_readers")
#pragma pop_macro("rcu__poll_state")
#pragma pop_macro("rcu__qs_offline")
#pragma pop_macro("rcu__qs_online")
#pragma pop_macro("rcu__qs_quiescent")
#pragma pop_macro("rcu__qsbr_leave")
#pragma pop_macro("rcu__qsbr_return")
#pragma pop_macro("rcu__read_lock_at")
#pragma pop_macro("rcu__read_unlock_of")
#pragma pop_macro("rcu__reader_holds")
#pragma pop_macro("rcu__readers_done")
#pragma pop_macro("rcu__readers_wait")
#pragma pop_macro("rcu__register_online")
#pragma pop_macro("rcu__self")
#pragma pop_macro("rcu__slot_enter")
#pragma pop_macro("rcu__slot_exit")
#pragma pop_macro("rcu__spin_adapt")
#pragma pop_macro("rcu__spin_outcome")
#pragma pop_macro("rcu__srcu_enlist")
#pragma pop_macro("rcu__srcu_enter")
#pragma pop_macro("rcu__srcu_has_readers")
#pragma pop_macro("rcu__srcu_has_work")
#pragma pop_macro("rcu__srcu_lock_at")
#pragma pop_macro("rcu__srcu_ready")
#pragma pop_macro("rcu__step")
#pragma pop_macro("rcu__thread_name")
#pragma pop_macro("rcu__tsan_fence_word")
#pragma pop_macro("rcu__unit_config")
#pragma pop_macro("rcu__unlink_reader")
#pragma pop_macro("rcu__updater_fence")
#pragma pop_macro("rcu__urcu_poll_state")
#pragma pop_macro("rcu__urcu_start_poll")
#pragma pop_macro("rcu__wake_worker")
#pragma pop_macro("rcu__word_wait")
#pragma pop_macro("rcu__word_wake")
#pragma pop_macro("rcu__worker_gather")
#pragma pop_macro("rcu__yield_first")
#pragma pop_macro("rcu_barrier")
#pragma pop_macro("rcu_defer_barrier")
#pragma pop_macro("rcu_defer_barrier_thread")
#pragma pop_macro("rcu_defer_register_thread")
#pragma pop_macro("rcu_defer_unregister_thread")
#pragma pop_macro("rcu_get_stats")
#pragma pop_macro("rcu_quiescent_state")
#pragma pop_macro("rcu_read_lock")
#pragma pop_macro("rcu_read_lock_held")
#pragma pop_macro("rcu_read_ongoing")
#pragma pop_macro("rcu_read_unlock")
#pragma pop_macro("rcu_register_thread")
#pragma pop_macro("rcu_thread_offline")
#pragma pop_macro("rcu_thread_online")
#pragma pop_macro("rcu_unregister_thread")
#pragma pop_macro("set_cpu_call_rcu_data")
#pragma pop_macro("set_thread_call_rcu_data")
#pragma pop_macro("srcu_barrier")
#pragma pop_macro("srcu_batches_completed")
#pragma pop_macro("srcu_get_stats")
#pragma pop_macro("srcu_read_lock")
#pragma pop_macro("srcu_read_lock_held")
#pragma pop_macro("srcu_read_unlock")
#pragma pop_macro("start_poll_synchronize_rcu")
#pragma pop_macro("start_poll_synchronize_srcu")
#pragma pop_macro("synchronize_rcu")
#pragma pop_macro("synchronize_rcu_expedited")
#pragma pop_macro("synchronize_srcu")
#pragma pop_macro("synchronize_srcu_expedited")
#endif
