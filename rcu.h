/* SPDX-License-Identifier: 0BSD */
/*
 * rcu.h: read-copy update for C11 programs, in one header.
 *
 * Contents (grep for the anchors)
 *   >>doc            what RCU is, how to include, configuration macros, flavours, licence
 *   >>config         flavour selection and configuration checks
 *   >>portability    atomics, fences, cache lines, TLS, futex and membarrier wrappers
 *   >>types          struct rcu_head, the reader record, the grace-period state
 *   >>reader         read-side fast paths
 *   >>pointers       publish / subscribe
 *   >>grace-period   registration, synchronize_rcu, polled grace periods
 *   >>callbacks      call_rcu, rcu_free, rcu_barrier, the worker, statistics
 *   >>lists          RCU doubly linked lists and hash lists
 *   >>debug          misuse checks (compiled away unless RCU_DEBUG)
 *
 * >>doc
 *
 * What it is. Read-copy update lets readers traverse shared data with no locks, no atomic
 * read-modify-writes and no stores to shared lines, while updaters publish new versions with
 * rcu_assign_pointer() and reclaim old ones only after a grace period: synchronize_rcu() waits
 * until every reader that might hold a reference has left its read-side critical section, and
 * call_rcu() runs a function once that is so, without blocking the caller.
 *
 * How to include. Copy rcu.h into your tree and include it; nothing to build or link but
 * -pthread. Pick a flavour with a define before the include (or include rcu_flavours/<name>.h):
 *
 *     #define RCU_FLAVOUR_QSBR
 *     #include "rcu.h"
 *
 * Every translation unit of a program that shares RCU-protected data must use the same flavour:
 * the flavours keep separate state (their external symbols carry the flavour and ABI version in
 * their names), so two flavours in one process are two independent RCUs, never a silent mix.
 * Needs a C11 compiler with the GNU extensions that GCC and Clang share (__typeof__, statement
 * expressions, weak symbols) and POSIX threads.
 *
 * Flavours
 *   RCU_FLAVOUR_MEMB  default on Linux. Readers: a compiler barrier only; grace periods issue
 *                     membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) to force the barriers readers
 *                     omit. If the kernel refuses membarrier, readers fall back at run time to one
 *                     fence per section (as MB). Threads must register.
 *   RCU_FLAVOUR_MB    default elsewhere. Readers: one full fence on entry, a release store on exit.
 *                     No membarrier (seccomp, gVisor, other OSes); the fastest grace periods.
 *   RCU_FLAVOUR_QSBR  Readers: nothing at all. Registered threads are "online" (inside one long
 *                     read-side section) and report quiescent states with rcu_quiescent_state()
 *                     or go offline around blocking calls. For event loops and worker pools.
 *   RCU_FLAVOUR_BP    As MEMB, and threads register themselves on first use, so a library can
 *                     use RCU without its callers' cooperation.
 *
 * Configuration macros. "Per program" means: every translation unit of the process that uses
 * the same flavour must agree, since they share state and slow-path code.
 *   RCU_FLAVOUR_QSBR / _MEMB / _MB / _BP   flavour; at most one (default MEMB on Linux, else MB).
 *                                          Per translation unit, but see above.
 *   RCU_DEBUG                    misuse aborts with a sentence naming the call, the thread and the
 *                                rule; adds a word to struct rcu_head. Per program. Default off.
 *   RCU_DEBUG_DEREFERENCE        with RCU_DEBUG, rcu_dereference() outside a read-side section
 *                                aborts (use rcu_dereference_protected() under the update lock).
 *                                Per translation unit. Default off.
 *   RCU_DEBUG_DELAY              inserts random delays into the algorithm's racy windows so that
 *                                rare interleavings happen often (torture tests). Per program.
 *   RCU_NO_MEMBARRIER            MEMB/BP: never use membarrier; readers fence. Per program.
 *   RCU_NO_FUTEX                 sleep on a pthread condition variable instead of a futex (the
 *                                portable path, forced on Linux to test it). Per program.
 *   RCU_CALLBACK_HIGH_WATER      pending callbacks above which call_rcu() callers outside a
 *                                read-side section help reclaim (default 10000). Per program.
 *   RCU_STALL_TIMEOUT_MS         a grace period that waits longer prints which threads hold it up
 *                                (default 0: off). Per program.
 *   RCU_FREE(p)                  what rcu_free() calls (default free(p)). Per program.
 *   RCU_TLS_MODEL                the thread-local model of the reader record (default
 *                                "initial-exec": cheap also in shared objects; use
 *                                "global-dynamic" for a plugin that dlopen cannot give static TLS).
 *   RCU_CACHE_LINE               alignment of per-thread and shared hot words (default 64, 128 on
 *                                aarch64 and ppc64).
 *   RCU_C11_FENCES               full fences are atomic_thread_fence(memory_order_seq_cst)
 *                                instead of inline asm, spinning has no pause instruction, and the
 *                                compiler barrier is an empty asm: the generic C11 code, for model
 *                                checkers (verify/genmc). Per program. Default off.
 *
 * Licence: 0BSD. Permission to use, copy, modify, and/or distribute this software for any purpose
 * with or without fee is hereby granted. THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS
 * ALL WARRANTIES WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF MERCHANTABILITY
 * AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR ANY SPECIAL, DIRECT, INDIRECT, OR
 * CONSEQUENTIAL DAMAGES OR ANY DAMAGES WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS,
 * WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF OR IN
 * CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.
 */
#ifndef RCU_H
#define RCU_H

/* >>config ------------------------------------------------------------------------------------ */

#if defined(RCU_FLAVOUR_QSBR) && defined(RCU_FLAVOUR_MEMB)
#error "rcu.h: define at most one of RCU_FLAVOUR_QSBR, _MEMB, _MB, _BP (got QSBR and MEMB)"
#elif defined(RCU_FLAVOUR_QSBR) && defined(RCU_FLAVOUR_MB)
#error "rcu.h: define at most one of RCU_FLAVOUR_QSBR, _MEMB, _MB, _BP (got QSBR and MB)"
#elif defined(RCU_FLAVOUR_QSBR) && defined(RCU_FLAVOUR_BP)
#error "rcu.h: define at most one of RCU_FLAVOUR_QSBR, _MEMB, _MB, _BP (got QSBR and BP)"
#elif defined(RCU_FLAVOUR_MEMB) && defined(RCU_FLAVOUR_MB)
#error "rcu.h: define at most one of RCU_FLAVOUR_QSBR, _MEMB, _MB, _BP (got MEMB and MB)"
#elif defined(RCU_FLAVOUR_MEMB) && defined(RCU_FLAVOUR_BP)
#error "rcu.h: define at most one of RCU_FLAVOUR_QSBR, _MEMB, _MB, _BP (got MEMB and BP)"
#elif defined(RCU_FLAVOUR_MB) && defined(RCU_FLAVOUR_BP)
#error "rcu.h: define at most one of RCU_FLAVOUR_QSBR, _MEMB, _MB, _BP (got MB and BP)"
#endif

#if !defined(RCU_FLAVOUR_QSBR) && !defined(RCU_FLAVOUR_MEMB) && !defined(RCU_FLAVOUR_MB) && \
	!defined(RCU_FLAVOUR_BP)
#if defined(__linux__)
#define RCU_FLAVOUR_MEMB 1
#else
#define RCU_FLAVOUR_MB 1
#endif
#endif

/* The flavour's tag in external symbol names, and what the flavour's read side does.
 * RCU_FLAVOUR_NAME is public: the flavour as a string ("qsbr", "memb", "mb", "bp"). */
#if defined(RCU_FLAVOUR_QSBR)
#define RCU__FTAG qsbr
#define RCU__FNAME "qsbr"
#elif defined(RCU_FLAVOUR_MEMB)
#define RCU__FTAG memb
#define RCU__FNAME "memb"
#elif defined(RCU_FLAVOUR_MB)
#define RCU__FTAG mb
#define RCU__FNAME "mb"
#else
#define RCU__FTAG bp
#define RCU__FNAME "bp"
#endif
/* RCU__MEMB_READER: readers omit their fence when the kernel grants membarrier (MEMB, BP). */
#if defined(RCU_FLAVOUR_MEMB) || defined(RCU_FLAVOUR_BP)
#define RCU__MEMB_READER 1
#else
#define RCU__MEMB_READER 0
#endif

#define RCU_FLAVOUR_NAME RCU__FNAME

#define RCU__ABI 1
#define RCU__SYM3(f, v, n) rcu__##f##_v##v##_##n
#define RCU__SYM2(f, v, n) RCU__SYM3(f, v, n)
#define RCU__SYM(n) RCU__SYM2(RCU__FTAG, RCU__ABI, n)

#ifndef RCU_CALLBACK_HIGH_WATER
#define RCU_CALLBACK_HIGH_WATER 10000
#endif
#if RCU_CALLBACK_HIGH_WATER < 1
#error "rcu.h: RCU_CALLBACK_HIGH_WATER must be a positive number of callbacks"
#endif
#ifndef RCU_STALL_TIMEOUT_MS
#define RCU_STALL_TIMEOUT_MS 0
#endif
#if RCU_STALL_TIMEOUT_MS < 0
#error "rcu.h: RCU_STALL_TIMEOUT_MS must be 0 (off) or a positive number of milliseconds"
#endif
#ifndef RCU_FREE
#define RCU_FREE(p) free(p)
#endif
#ifndef RCU_TLS_MODEL
#define RCU_TLS_MODEL "initial-exec"
#endif
#ifndef RCU_CACHE_LINE
#if defined(__aarch64__) || defined(__powerpc64__)
#define RCU_CACHE_LINE 128
#else
#define RCU_CACHE_LINE 64
#endif
#endif
#if defined(RCU_DEBUG_DEREFERENCE) && !defined(RCU_DEBUG)
#error "rcu.h: RCU_DEBUG_DEREFERENCE needs RCU_DEBUG"
#endif
#if !defined(__GNUC__)
#error "rcu.h: needs GCC or Clang (or a compiler with their __typeof__, statement expressions and weak symbols)"
#endif

/* POSIX declarations: ask for them if no system header has been read yet. */
#if defined(__linux__) && !defined(_FEATURES_H) && !defined(_DEFAULT_SOURCE) && \
	!defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE) && !defined(_XOPEN_SOURCE)
#define _DEFAULT_SOURCE 1
#endif

/* >>portability ------------------------------------------------------------------------------- */

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

#if defined(__GLIBC__) && !defined(__USE_POSIX199506)
#error "rcu.h: needs POSIX declarations: include rcu.h before other headers, or compile with -D_DEFAULT_SOURCE (or _GNU_SOURCE, or _POSIX_C_SOURCE=200809L)"
#endif
#if defined(__linux__) && defined(__GLIBC__) && !defined(__USE_MISC)
extern long syscall(long number, ...); /* hidden by strict _POSIX_C_SOURCE; same as glibc's */
#endif

#define RCU__LIKELY(x) __builtin_expect(!!(x), 1)
#define RCU__UNLIKELY(x) __builtin_expect(!!(x), 0)
#define RCU__WEAK __attribute__((weak, visibility("default")))
#define RCU__NOINLINE __attribute__((noinline))
#define RCU__COLD __attribute__((cold, noinline))
#define RCU__UNUSED __attribute__((unused))

#if defined(__SANITIZE_THREAD__)
#define RCU__TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RCU__TSAN 1
#endif
#endif

/*
 * A full fence. Under ThreadSanitizer it stays a real fence that TSan does not see (inline asm):
 * TSan does not model fences, and we do not want it to guess. So in a TSan build every
 * happens-before edge must come from one of the explicit release/acquire pairs of
 * docs/ordering.md (R2/G2, Q1/G2, publish/subscribe, ...), and the suite under TSan checks just
 * that. Where there is no asm fence below, a TSan build falls back to a seq_cst read-modify-write
 * on one word, which TSan does see (GCC rejects atomic_thread_fence there) and which orders more
 * than a fence does.
 */
#if defined(RCU_C11_FENCES)
/* Model checking (verify/genmc): the C11 fence, which a checker of the C11 model can see. */
#define rcu__fence_full() atomic_thread_fence(memory_order_seq_cst)
#elif defined(__x86_64__)
/* A locked no-op on the stack: a full barrier on x86, and cheaper than the mfence clang emits. */
#define rcu__fence_full() __asm__ __volatile__("lock; orq $0, (%%rsp)" ::: "memory", "cc")
#elif defined(__i386__)
#define rcu__fence_full() __asm__ __volatile__("lock; orl $0, (%%esp)" ::: "memory", "cc")
#elif defined(RCU__TSAN) && defined(__aarch64__)
#define rcu__fence_full() __asm__ __volatile__("dmb ish" ::: "memory")
#elif defined(RCU__TSAN)
static _Atomic int rcu__tsan_fence_word RCU__UNUSED;
#define rcu__fence_full() ((void)atomic_fetch_add_explicit(&rcu__tsan_fence_word, 0, memory_order_seq_cst))
#else
#define rcu__fence_full() atomic_thread_fence(memory_order_seq_cst)
#endif
/*
 * A compiler barrier: orders this thread's accesses for the compiler only. RCU_C11_FENCES spells
 * it as an empty asm with a memory clobber, which a model checker skips, because GenMC models
 * atomic_signal_fence() as a full fence and would then check a stronger program than we ship.
 */
#if defined(RCU_C11_FENCES)
#define rcu__fence_compiler() __asm__ __volatile__("" ::: "memory")
#else
#define rcu__fence_compiler() atomic_signal_fence(memory_order_seq_cst)
#endif

static inline void rcu__cpu_relax(void)
{
#if defined(RCU_C11_FENCES)
	/* No pause or yield instruction: a model checker cannot run one. */
#elif defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	rcu__fence_compiler();
#endif
}

static inline uint64_t rcu__now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline long rcu__gettid(void)
{
#if defined(__linux__)
	return syscall(SYS_gettid);
#else
	return (long)getpid();
#endif
}

/* membarrier(2): the commands we use, spelled out so that old kernel headers do not matter. */
#if defined(__linux__) && defined(SYS_membarrier) && !defined(RCU_NO_MEMBARRIER)
#define RCU__HAVE_MEMBARRIER 1
#define RCU__MEMBARRIER_CMD_PRIVATE_EXPEDITED (1 << 3)
#define RCU__MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED (1 << 4)
static inline int rcu__membarrier(int cmd)
{
	return (int)syscall(SYS_membarrier, cmd, 0, 0);
}
#else
#define RCU__HAVE_MEMBARRIER 0
#endif

/*
 * Sleeping on a 32-bit word: rcu__word_wait() returns once *word may differ from `expected`
 * (spurious returns allowed; callers loop), or after timeout_ns if that is not negative.
 * rcu__word_wake() wakes every waiter of the word. Linux: futex. Elsewhere, or with
 * RCU_NO_FUTEX: one process-wide mutex and condition variable in the grace-period state; the
 * waker takes the mutex after changing the word, so a waiter that saw the old value under the
 * mutex is asleep before the broadcast.
 */
#if defined(__linux__) && defined(SYS_futex) && !defined(RCU_NO_FUTEX)
#define RCU__HAVE_FUTEX 1
#else
#define RCU__HAVE_FUTEX 0
#endif

/* >>types ------------------------------------------------------------------------------------- */

/**
 * struct rcu_head - embed one in an object to hand it to call_rcu() or rcu_free().
 *
 * The head belongs to RCU from call_rcu() until its callback starts; the callback may then free
 * the object or queue the head again.
 */
struct rcu_head {
	struct rcu_head *_Atomic next;
	void (*func)(struct rcu_head *head);
#if defined(RCU_DEBUG)
	uint64_t debug_state; /* RCU__HEAD_QUEUED while queued: catches a double call_rcu() */
#endif
};

/**
 * struct rcu_stats - counters a user can read cheaply with rcu_get_stats().
 *
 * callbacks_pending_max is the highest pending count seen by call_rcu() callers.
 */
struct rcu_stats {
	uint64_t grace_periods;        /* grace periods completed since the process started */
	uint64_t callbacks_queued;     /* call_rcu() and rcu_free() calls */
	uint64_t callbacks_invoked;    /* callbacks that have returned */
	uint64_t callbacks_pending;    /* queued - invoked */
	uint64_t callbacks_pending_max;
};

/*
 * The reader record: one per thread, in thread-local storage, one cache line. `seq` is the slot
 * that grace periods read: 0 outside a section (QSBR: offline), otherwise the grace-period
 * sequence number the thread saw when its outermost section began (QSBR: at its last quiescent
 * state). Everything else is the owner's, or the registry's under its lock.
 */
struct rcu__reader {
	_Alignas(RCU_CACHE_LINE) _Atomic uint64_t seq;
	unsigned nesting;          /* owner only: sections nested inside the outermost one (QSBR,
				      RCU_DEBUG only: the depth of rcu_read_lock()) */
	unsigned char registered;  /* owner writes, under registry lock: 0 no, 1 by the thread,
				      2 adopted by its first call_rcu() (outside sections, QSBR offline) */
	unsigned char in_callback; /* owner only: invoking RCU callbacks */
	struct rcu__reader *next;  /* registry list, under registry lock */
	struct rcu__reader *prev;
	long tid;
	struct rcu_head *enq_node; /* owner only: call_rcu() between its swap and its link, */
	struct rcu_head *enq_prev; /* for a fork child to mend the link (see >>callbacks) */
#if defined(RCU_DEBUG)
	const char *section_file;  /* where the outermost section began (stall reports) */
	int section_line;
	uint64_t section_start_ns;
#endif
};

/*
 * The callback queue: a wait-free multi-producer queue. A producer swaps itself into `tail` and
 * then links the previous tail to itself; the single consumer (whoever holds cb_consumer) takes
 * the whole chain at once. `stub` is the permanent first node.
 */
struct rcu__cbq {
	_Alignas(RCU_CACHE_LINE) struct rcu_head *_Atomic tail;
	_Atomic uint64_t queued;    /* on the producers' line: the swap already owns it */
	_Alignas(RCU_CACHE_LINE) struct rcu_head stub;
	_Atomic uint64_t invoked;   /* written once per batch by the consumer */
	_Atomic uint64_t pending_max;
};

/*
 * The grace-period state, one per process and flavour. Readers touch only the first line.
 * Slow paths take a pointer to it, so that further domains need no rewrite.
 */
struct rcu__state {
	/* Read by every reader. */
	_Alignas(RCU_CACHE_LINE) _Atomic uint64_t gp_seq; /* the last grace period started; from 1 */
	_Atomic int32_t gp_futex;      /* -1 while an updater sleeps waiting for readers */
	_Atomic int32_t use_membarrier; /* MEMB/BP: 1 once membarrier is registered; readers skip fences */
	_Atomic int32_t cb_congested;  /* QSBR: pending callbacks passed the high-water mark */

	/* Updaters. */
	_Alignas(RCU_CACHE_LINE) _Atomic uint64_t gp_completed; /* the last grace period completed */
	_Atomic uint64_t gp_count;     /* grace periods run (statistics) */
	_Atomic uint64_t gp_requested; /* the highest cookie start_poll_synchronize_rcu() asked for */
	_Atomic int32_t gp_done_word;  /* bumped at each completion: callers that wait sleep on it */
	_Atomic int32_t gp_done_waiters;
	pthread_mutex_t gp_lock;       /* one grace period at a time */
	pthread_mutex_t registry_lock;
	struct rcu__reader *readers;   /* registered readers, under registry_lock */
	_Atomic int32_t init_state;    /* 0 new, 2 ready (under registry_lock) */
	_Atomic int32_t atfork_state;  /* 0 none, 1 registering, 2 fork handlers installed */
	pthread_key_t exit_key;        /* its destructor unregisters exiting threads */
	pthread_mutex_t word_lock;     /* the portable sleep (no futex) */
	pthread_cond_t word_cond;

	/* Callbacks. */
	struct rcu__cbq cbq;
	pthread_mutex_t cb_consumer;   /* held while taking and invoking a batch */
	_Alignas(RCU_CACHE_LINE) _Atomic int32_t worker_sleeping; /* 1: the worker waits for work */
	_Atomic int32_t worker_state;  /* 0 none, 1 starting or running */
	_Atomic int32_t exiting;       /* process exit began: invoke nothing more */
	_Atomic int32_t invoking;      /* the worker is between callbacks of a batch */
};

/* The process-wide objects: weak, default visibility, one copy per process and flavour. */
extern struct rcu__state RCU__SYM(state);
RCU__WEAK struct rcu__state RCU__SYM(state) = {
	.gp_seq = 1,
	.gp_completed = 1,
	.gp_requested = 1,
	.gp_lock = PTHREAD_MUTEX_INITIALIZER,
	.registry_lock = PTHREAD_MUTEX_INITIALIZER,
	.word_lock = PTHREAD_MUTEX_INITIALIZER,
	.word_cond = PTHREAD_COND_INITIALIZER,
	.cbq = { .tail = &RCU__SYM(state).cbq.stub },
	.cb_consumer = PTHREAD_MUTEX_INITIALIZER,
};

#define RCU__STATE (&RCU__SYM(state))

/*
 * The calling thread's reader record. RCU_MODEL_SELF(), for model checking only (verify/genmc),
 * is an expression that gives it in place of a thread-local, which then does not exist: GenMC's
 * thread-locals cannot be read by other threads (the updater reads every reader's record), and it
 * cannot initialise a thread-local structure.
 */
#if defined(RCU_MODEL_SELF)
static inline struct rcu__reader *rcu__self(void)
{
	return RCU_MODEL_SELF();
}
#else
extern _Thread_local struct rcu__reader RCU__SYM(reader);
RCU__WEAK _Thread_local struct rcu__reader RCU__SYM(reader) __attribute__((tls_model(RCU_TLS_MODEL)));

static inline struct rcu__reader *rcu__self(void)
{
	struct rcu__reader *r = &RCU__SYM(reader);
#if defined(__SANITIZE_ADDRESS__) || defined(RCU__TSAN)
	/* GCC's -fsanitize=null misjudges the address of a weak thread-local as null: hide it. */
	__asm__("" : "+r"(r));
#endif
	return r;
}
#endif

/*
 * Is the thread inside rcu_read_lock()? MEMB/MB/BP: its slot is set exactly while it is (gp_seq
 * is never 0). QSBR: only RCU_DEBUG counts rcu_read_lock(); release builds answer false.
 */
static inline bool rcu__in_section(struct rcu__reader *r)
{
#if defined(RCU_FLAVOUR_QSBR)
	return r->nesting != 0;
#else
	return atomic_load_explicit(&r->seq, memory_order_relaxed) != 0;
#endif
}

/* Slow paths: weak functions, so that one copy serves every translation unit. */
void RCU__SYM(init)(struct rcu__state *gp);
void RCU__SYM(register)(struct rcu__state *gp, struct rcu__reader *r);
void RCU__SYM(unregister)(struct rcu__state *gp, struct rcu__reader *r);
void RCU__SYM(adopt)(struct rcu__state *gp, struct rcu__reader *r);
void RCU__SYM(wake_gp)(struct rcu__state *gp);
void RCU__SYM(qsbr_report)(struct rcu__state *gp, struct rcu__reader *r, uint64_t seq);
void RCU__SYM(synchronize)(struct rcu__state *gp);
void RCU__SYM(wait_readers)(struct rcu__state *gp, uint64_t target);
void RCU__SYM(gp_wait_for)(struct rcu__state *gp, uint64_t target);
uint64_t RCU__SYM(run_batch)(struct rcu__state *gp, struct rcu__reader *r);
void *RCU__SYM(worker_main)(void *arg);
void RCU__SYM(at_exit)(void);
bool RCU__SYM(start_worker)(struct rcu__state *gp);
uint64_t RCU__SYM(snapshot)(struct rcu__state *gp);
uint64_t RCU__SYM(start_poll)(struct rcu__state *gp);
void RCU__SYM(cond_synchronize)(struct rcu__state *gp, uint64_t cookie);
void RCU__SYM(call)(struct rcu__state *gp, struct rcu_head *head, void (*func)(struct rcu_head *));
void RCU__SYM(barrier)(struct rcu__state *gp);
void RCU__SYM(stats)(struct rcu__state *gp, struct rcu_stats *out);
RCU__COLD void RCU__SYM(die)(const char *call, const char *rule);
void RCU__SYM(debug_delay)(void);
void RCU__SYM(debug_enter)(struct rcu__reader *r, const char *file, int line);

/*
 * Debug hooks used by the fast paths below; the functions behind them are in >>debug. Without
 * RCU_DEBUG every check is ((void)0).
 */
#if defined(RCU_DEBUG)
#define RCU__CHECK(cond, call, rule) \
	do { \
		if (RCU__UNLIKELY(!(cond))) \
			RCU__SYM(die)(call, rule); \
	} while (0)
#else
#define RCU__CHECK(cond, call, rule) ((void)0)
#endif
#if defined(RCU_DEBUG_DELAY)
#define RCU__DELAY() RCU__SYM(debug_delay)()
#else
#define RCU__DELAY() ((void)0)
#endif
#define RCU__RULE_IN_SECTION "called inside a read-side critical section, which it would wait for forever (deadlock)"
#define RCU__RULE_QS_IN_SECTION "called inside rcu_read_lock(): a quiescent state ends every section, so this one would lose its protection"

/* >>reader ------------------------------------------------------------------------------------ */

/*
 * How a section is seen. A grace period advances gp_seq to a new number n and then waits until
 * every registered slot is 0 or at least n. A reader entering its outermost section copies gp_seq
 * into its slot; leaving, it stores 0. The reader's slot store and its later loads, against the
 * updater's advance and its later slot loads, are the store-buffering pattern: each side needs a
 * full barrier between its store and its load, or a reader could miss the advance while the
 * updater misses the slot. MB readers issue the fence (R1). MEMB and BP readers issue only a
 * compiler barrier and the updater makes every running thread execute the fence for them with
 * membarrier (G1). QSBR readers store their slot at quiescent states, where the fence is.
 */

#if !defined(RCU_FLAVOUR_QSBR)
/* The outermost rcu_read_lock(): publish this section in the slot. */
static inline void rcu__reader_enter(struct rcu__reader *r)
{
	struct rcu__state *gp = RCU__STATE;
#if defined(RCU_FLAVOUR_BP)
	if (RCU__UNLIKELY(!r->registered))
		RCU__SYM(register)(gp, r);
#endif
	/* R0: acquire: a reader that sees the new number sees what preceded the advance (G0). */
	uint64_t seq = atomic_load_explicit(&gp->gp_seq, memory_order_acquire);
	RCU__DELAY();
	atomic_store_explicit(&r->seq, seq, memory_order_relaxed);
	/* R1: our slot store before the section's loads; pairs with G1 in rcu__gp_wait_for(). */
#if RCU__MEMB_READER
	if (RCU__UNLIKELY(!atomic_load_explicit(&gp->use_membarrier, memory_order_relaxed)))
		rcu__fence_full();
	else
		rcu__fence_compiler();
#else
	rcu__fence_full();
#endif
}

/* The outermost rcu_read_unlock(): clear the slot, wake a sleeping updater. */
static inline void rcu__reader_exit(struct rcu__reader *r)
{
	struct rcu__state *gp = RCU__STATE;
	/* R2: release: the section's accesses before the clear; pairs with G2 (acquire scan). */
	atomic_store_explicit(&r->seq, 0, memory_order_release);
	/*
	 * R3: the clear before the futex check; pairs with G3. MEMB/BP: the updater's membarrier
	 * after arming the futex stands in for our fence. MB (and MEMB without membarrier): no fence
	 * here, so this check can miss an updater that armed concurrently; that updater sleeps with
	 * a timeout (RCU__LAZY_WAKE_NS) and rescans.
	 */
	rcu__fence_compiler();
	if (RCU__UNLIKELY(atomic_load_explicit(&gp->gp_futex, memory_order_relaxed) == -1))
		RCU__SYM(wake_gp)(gp);
}
#endif

/*
 * Nesting without a dependency chain: the outermost lock is the one that finds its slot clear,
 * and the outermost unlock the one that finds no nested section counted. In the common,
 * unnested case neither loads a value that it computed and stored itself a moment before, so
 * back-to-back sections do not wait on store-to-load forwarding.
 */
static inline void rcu__read_lock_at(const char *file, int line)
{
	struct rcu__reader *r = rcu__self();
	(void)file;
	(void)line;
#if defined(RCU_FLAVOUR_QSBR)
#if defined(RCU_DEBUG)
	if (r->nesting++ == 0)
		RCU__SYM(debug_enter)(r, file, line);
#endif
	(void)r;
#else
	if (RCU__LIKELY(atomic_load_explicit(&r->seq, memory_order_relaxed) == 0)) {
#if defined(RCU_DEBUG)
		RCU__SYM(debug_enter)(r, file, line);
#endif
		rcu__reader_enter(r);
	} else {
		r->nesting++;
	}
#endif
}

/**
 * rcu_read_lock() - begin a read-side critical section.
 *
 * Sections nest; a nest is one section. Never blocks, never fails, allocates nothing.
 * MEMB/MB: the thread must be registered. BP: registers the thread on first use. QSBR: costs
 * nothing; the thread must be online (the section is already implied).
 * Under RCU_DEBUG it records where the section began, for stall reports.
 */
static inline void (rcu_read_lock)(void)
{
	rcu__read_lock_at(NULL, 0);
}
#if defined(RCU_DEBUG)
#define rcu_read_lock() rcu__read_lock_at(__FILE__, __LINE__)
#endif

/**
 * rcu_read_unlock() - end a read-side critical section.
 *
 * Leaving the outermost section lets grace periods that wait for it end. RCU_DEBUG aborts on an
 * unlock without a lock.
 */
static inline void rcu_read_unlock(void)
{
	struct rcu__reader *r = rcu__self();
#if defined(RCU_FLAVOUR_QSBR)
#if defined(RCU_DEBUG)
	RCU__CHECK(r->nesting > 0, "rcu_read_unlock()", "no matching rcu_read_lock(): the unlock is unbalanced");
	r->nesting--;
#endif
	(void)r;
#else
	RCU__CHECK(rcu__in_section(r), "rcu_read_unlock()", "no matching rcu_read_lock(): the unlock is unbalanced");
	if (RCU__LIKELY(r->nesting == 0))
		rcu__reader_exit(r);
	else
		r->nesting--;
#endif
}

/**
 * rcu_read_ongoing() - is the calling thread inside a read-side critical section?
 *
 * QSBR: true while the thread is online (registered and not offline), since an online thread
 * is inside one long section between quiescent states.
 */
static inline bool rcu_read_ongoing(void)
{
#if defined(RCU_FLAVOUR_QSBR)
	return atomic_load_explicit(&rcu__self()->seq, memory_order_relaxed) != 0;
#else
	return rcu__in_section(rcu__self());
#endif
}

/**
 * rcu_quiescent_state() - QSBR: report that this thread holds no reference to RCU data.
 *
 * Every pointer obtained before the call may be reclaimed after it. Cheap when no grace period
 * has started since the last report (two loads and a compare); otherwise a release store and a
 * fence. Above RCU_CALLBACK_HIGH_WATER pending callbacks it also runs a batch of callbacks (it
 * waits for a grace period, offline). Other flavours: no-op. RCU_DEBUG aborts inside
 * rcu_read_lock().
 */
static inline void rcu_quiescent_state(void)
{
#if defined(RCU_FLAVOUR_QSBR)
	struct rcu__reader *r = rcu__self();
	struct rcu__state *gp = RCU__STATE;
	RCU__CHECK(r->nesting == 0, "rcu_quiescent_state()", RCU__RULE_QS_IN_SECTION);
	/* Q0: acquire: after reporting n, this thread sees what preceded the advance to n (G0). */
	uint64_t seq = atomic_load_explicit(&gp->gp_seq, memory_order_acquire);
	if (RCU__UNLIKELY(atomic_load_explicit(&r->seq, memory_order_relaxed) != seq ||
			  atomic_load_explicit(&gp->cb_congested, memory_order_relaxed)))
		RCU__SYM(qsbr_report)(gp, r, seq);
#endif
}

/**
 * rcu_thread_offline() - QSBR: leave the reader set; the thread may now block indefinitely.
 *
 * An offline thread holds up no grace period and must not read RCU data. Other flavours: no-op.
 * RCU_DEBUG aborts inside rcu_read_lock().
 */
static inline void rcu_thread_offline(void)
{
#if defined(RCU_FLAVOUR_QSBR)
	struct rcu__reader *r = rcu__self();
	RCU__CHECK(r->nesting == 0, "rcu_thread_offline()", RCU__RULE_QS_IN_SECTION);
	RCU__SYM(qsbr_report)(RCU__STATE, r, 0);
#endif
}

/**
 * rcu_thread_online() - QSBR: rejoin the reader set after rcu_thread_offline().
 *
 * Other flavours: no-op. RCU_DEBUG aborts in an unregistered thread.
 */
static inline void rcu_thread_online(void)
{
#if defined(RCU_FLAVOUR_QSBR)
	struct rcu__reader *r = rcu__self();
	RCU__CHECK(r->registered, "rcu_thread_online()", "the thread is not registered: call rcu_register_thread() first");
	RCU__SYM(qsbr_report)(RCU__STATE, r, UINT64_MAX);
#endif
}

/* >>pointers ---------------------------------------------------------------------------------- */

/**
 * rcu_assign_pointer(p, v) - publish v in the RCU-protected pointer p (an lvalue `T *_Atomic`).
 *
 * A release store: every write that initialised *v is visible to a reader that loads v with
 * rcu_dereference(). Updaters serialise among themselves (a lock); readers need nothing.
 */
#define rcu_assign_pointer(p, v) atomic_store_explicit(&(p), (v), memory_order_release)

/**
 * rcu_dereference(p) - load an RCU-protected pointer for dereferencing.
 *
 * Inside a read-side section (or where the update-side lock keeps p from changing). A consume
 * load, which compilers implement as acquire. The value must not be used after the outermost
 * section ends, unless the object was handed to another protection (a lock, a reference count).
 */
#if defined(RCU_DEBUG_DEREFERENCE)
#define rcu_dereference(p) \
	(rcu_read_ongoing() ? (void)0 \
			    : RCU__SYM(die)("rcu_dereference()", \
				"called outside a read-side critical section: use rcu_dereference_protected() where the update-side lock protects the pointer"), \
	 atomic_load_explicit(&(p), memory_order_consume))
#else
#define rcu_dereference(p) atomic_load_explicit(&(p), memory_order_consume)
#endif

/**
 * rcu_dereference_protected(p, c) - load p where the update-side lock keeps it from changing.
 *
 * c documents the lock (it is evaluated only to silence unused warnings, never checked). Relaxed.
 */
#define rcu_dereference_protected(p, c) ((void)sizeof(c), atomic_load_explicit(&(p), memory_order_relaxed))

/**
 * rcu_access_pointer(p) - the value of p, for comparison or testing against NULL only.
 *
 * Needs no section; the result must not be dereferenced.
 */
#define rcu_access_pointer(p) atomic_load_explicit(&(p), memory_order_relaxed)

/**
 * rcu_xchg_pointer(pp, v) - liburcu's form: store v in *pp, return the old value (acq_rel).
 */
#define rcu_xchg_pointer(pp, v) atomic_exchange_explicit((pp), (v), memory_order_acq_rel)

/**
 * rcu_cmpxchg_pointer(pp, old, v) - liburcu's form: if *pp == old store v; return what *pp held.
 *
 * The store is a release (and the load an acquire) on success; acquire on failure.
 */
#define rcu_cmpxchg_pointer(pp, old, v) \
	__extension__({ \
		__typeof__(atomic_load_explicit((pp), memory_order_relaxed)) rcu__expected = (old); \
		atomic_compare_exchange_strong_explicit((pp), &rcu__expected, (v), memory_order_acq_rel, \
			memory_order_acquire); \
		rcu__expected; \
	})

/**
 * rcu_replace_pointer(p, v, c) - the kernel's form: publish v in p, return the old value.
 *
 * For updaters holding the update-side lock that c names (c is not checked).
 */
#define rcu_replace_pointer(p, v, c) \
	__extension__({ \
		__typeof__(atomic_load_explicit(&(p), memory_order_relaxed)) rcu__old = \
			rcu_dereference_protected(p, c); \
		rcu_assign_pointer(p, v); \
		rcu__old; \
	})

/**
 * RCU_INITIALIZER(v) - static initialiser for an RCU-protected pointer.
 * rcu_init_pointer(p, v) - relaxed store: only for NULL, or before readers can reach p.
 */
#define RCU_INITIALIZER(v) (v)
#define rcu_init_pointer(p, v) atomic_store_explicit(&(p), (v), memory_order_relaxed)

/** rcu_container_of(ptr, type, member) - the object that holds *ptr as its member. */
#define rcu_container_of(ptr, type, member) ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* >>grace-period ------------------------------------------------------------------------------ */

/**
 * rcu_register_thread() - make the calling thread a reader.
 *
 * MEMB/MB/QSBR: before its first read-side section. QSBR: the thread is online afterwards.
 * Allocates nothing and cannot fail. BP: no-op (threads register on first use).
 * A thread that exits registered is unregistered automatically. RCU_DEBUG aborts on a second
 * registration.
 */
static inline void rcu_register_thread(void)
{
#if !defined(RCU_FLAVOUR_BP)
	RCU__SYM(register)(RCU__STATE, rcu__self());
#endif
}

/**
 * rcu_unregister_thread() - the calling thread stops being a reader.
 *
 * Outside any section (RCU_DEBUG aborts otherwise, in BP too). BP: no-op.
 */
static inline void rcu_unregister_thread(void)
{
	/* Checked in BP too, where the call is a no-op: code that passes there passes in MEMB. */
	struct rcu__reader *r = rcu__self();
	RCU__CHECK(!rcu__in_section(r), "rcu_unregister_thread()",
		"called inside a read-side critical section: leave the section before unregistering");
#if !defined(RCU_FLAVOUR_BP)
	RCU__SYM(unregister)(RCU__STATE, r);
#else
	(void)r;
#endif
}

/**
 * synchronize_rcu() - wait until every pre-existing reader has left its section.
 *
 * Readers that begin after the call may still be running when it returns. Executes a full memory
 * barrier before it returns (Quick Quiz 6). Concurrent callers share grace periods: callers that
 * overlap cost at most two. Must not be called inside a read-side section: that deadlocks
 * (RCU_DEBUG aborts). QSBR: an online caller is offline during the wait (the call is a quiescent
 * state). May be called from RCU callbacks.
 */
static inline void synchronize_rcu(void)
{
	RCU__CHECK(!rcu__in_section(rcu__self()), "synchronize_rcu()", RCU__RULE_IN_SECTION);
	RCU__SYM(synchronize)(RCU__STATE);
}

/**
 * get_state_synchronize_rcu() - a cookie for the grace period that must pass from now.
 *
 * Hand it to poll_state_synchronize_rcu() or cond_synchronize_rcu(). Starts nothing.
 * Cookies are 64-bit and never wrap.
 */
static inline uint64_t get_state_synchronize_rcu(void)
{
	return RCU__SYM(snapshot)(RCU__STATE);
}

/**
 * start_poll_synchronize_rcu() - as get_state_synchronize_rcu(), and make sure that grace
 * period will run even if nobody waits for it (the callback worker runs it).
 */
static inline uint64_t start_poll_synchronize_rcu(void)
{
	return RCU__SYM(start_poll)(RCU__STATE);
}

/**
 * poll_state_synchronize_rcu(cookie) - has a full grace period passed since the cookie?
 *
 * When true, every reader that was inside a section when the cookie was taken has left it, and
 * the caller has executed a full memory barrier. Never blocks; callable anywhere.
 */
static inline bool poll_state_synchronize_rcu(uint64_t cookie)
{
	/* P1: acquire: pairs with G4, the release of the completed number. */
	bool passed = atomic_load_explicit(&RCU__STATE->gp_completed, memory_order_acquire) >= cookie;
	if (passed)
		rcu__fence_full();
	return passed;
}

/**
 * cond_synchronize_rcu(cookie) - synchronize_rcu(), unless a grace period passed since the cookie.
 *
 * Same rules as synchronize_rcu().
 */
static inline void cond_synchronize_rcu(uint64_t cookie)
{
	RCU__CHECK(!rcu__in_section(rcu__self()), "cond_synchronize_rcu()", RCU__RULE_IN_SECTION);
	if (!poll_state_synchronize_rcu(cookie))
		RCU__SYM(cond_synchronize)(RCU__STATE, cookie);
}

/*
 * Grace periods, in prose. gp_seq is the number of the last grace period started and
 * gp_completed that of the last one finished; both start at 1 and only grow. A caller snapshots
 * s = gp_seq with a read-modify-write (so that whoever advances later reads from it, and the
 * caller's earlier writes happen before the advance, even on machines that are not multi-copy
 * atomic) and needs grace period s + 1: grace period s may already have started before the call
 * and missed readers that began after its scan. Holding gp_lock, a caller whose target has not
 * completed advances gp_seq to the target (nobody else advances while it holds the lock), forces
 * the readers' fences (G1), waits until every slot is 0 or at least the target, and publishes
 * the completion. Callers that arrived while it ran find their target completed when they get
 * the lock, or run the next grace period for all of them together: N overlapping callers cost
 * at most two grace periods.
 *
 * The updater spins for a few scans, then arms gp_futex (-1), forces the readers' fences again
 * (G3), rescans, and sleeps; the reader that leaves last sees -1 and wakes it (R3). Where readers
 * do not fence after their clear (MB, MEMB without membarrier), the updater sleeps at most
 * RCU__LAZY_WAKE_NS before it rescans.
 */
#ifndef RCU_SPIN_SCANS
#define RCU_SPIN_SCANS 100 /* scans, one pause apart, before the updater sleeps */
#endif
#if RCU_SPIN_SCANS < 0
#error "rcu.h: RCU_SPIN_SCANS must be 0 or a positive number of scans"
#endif
#define RCU__SPIN_SCANS RCU_SPIN_SCANS
#define RCU__LAZY_WAKE_NS 1000000

#if RCU__HAVE_FUTEX
#include <linux/futex.h>
static inline void rcu__word_wait(struct rcu__state *gp, _Atomic int32_t *word, int32_t expected, int64_t timeout_ns)
{
	(void)gp;
	struct timespec ts = { (time_t)(timeout_ns / 1000000000), (long)(timeout_ns % 1000000000) };
	syscall(SYS_futex, (int32_t *)(uintptr_t)word, FUTEX_WAIT_PRIVATE, expected, timeout_ns >= 0 ? &ts : NULL, NULL, 0);
}

static inline void rcu__word_wake(struct rcu__state *gp, _Atomic int32_t *word)
{
	(void)gp;
	syscall(SYS_futex, (int32_t *)(uintptr_t)word, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
}
#else
static inline void rcu__word_wait(struct rcu__state *gp, _Atomic int32_t *word, int32_t expected, int64_t timeout_ns)
{
	struct timespec ts;
	if (timeout_ns >= 0) {
		clock_gettime(CLOCK_REALTIME, &ts);
		int64_t ns = ts.tv_nsec + timeout_ns;
		ts.tv_sec += (time_t)(ns / 1000000000);
		ts.tv_nsec = (long)(ns % 1000000000);
	}
	pthread_mutex_lock(&gp->word_lock);
	/*
	 * S1: the caller's accesses before the check of the word, as futex_wait() orders them (the
	 * kernel's full barrier before it reads the word). Pairs with the wakers' SB halves: D2 (the
	 * bump, then the load of gp_done_waiters) against D1 (gp_done_waiters++, then this check).
	 * Without it a caller that failed the trylock while another ran a grace period can miss the
	 * bump and sleep for ever (GenMC, verify/genmc share test).
	 */
	rcu__fence_full();
	if (atomic_load_explicit(word, memory_order_relaxed) == expected) {
		if (timeout_ns >= 0)
			pthread_cond_timedwait(&gp->word_cond, &gp->word_lock, &ts);
		else
			pthread_cond_wait(&gp->word_cond, &gp->word_lock);
	}
	pthread_mutex_unlock(&gp->word_lock);
}

static inline void rcu__word_wake(struct rcu__state *gp, _Atomic int32_t *word)
{
	(void)word;
	pthread_mutex_lock(&gp->word_lock);
	pthread_cond_broadcast(&gp->word_cond);
	pthread_mutex_unlock(&gp->word_lock);
}
#endif

/* Readers' wake: the first to see the armed futex disarms it and wakes the updater. */
RCU__WEAK void RCU__SYM(wake_gp)(struct rcu__state *gp)
{
	if (atomic_exchange_explicit(&gp->gp_futex, 0, memory_order_relaxed) == -1)
		rcu__word_wake(gp, &gp->gp_futex);
}

/* Do readers fence after their slot clear? If not, a sleeping updater must not rely on a wake. */
static inline bool rcu__lazy_wake(struct rcu__state *gp)
{
#if defined(RCU_FLAVOUR_QSBR)
	(void)gp;
	return false;
#elif RCU__MEMB_READER
	return !atomic_load_explicit(&gp->use_membarrier, memory_order_relaxed);
#else
	(void)gp;
	return true;
#endif
}

/* The updater's half of the store-buffering pairs: G1 (after the advance), G3 (after arming). */
static inline void rcu__updater_fence(struct rcu__state *gp)
{
	rcu__fence_full();
#if RCU__MEMB_READER && RCU__HAVE_MEMBARRIER
	if (atomic_load_explicit(&gp->use_membarrier, memory_order_relaxed) &&
	    rcu__membarrier(RCU__MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0)
		RCU__SYM(die)("synchronize_rcu()", "membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed after it was registered");
#else
	(void)gp;
#endif
}

RCU__WEAK bool RCU__SYM(over_high_water)(struct rcu__state *gp);
RCU__WEAK void RCU__SYM(help)(struct rcu__state *gp, struct rcu__reader *r);
RCU__WEAK void RCU__SYM(prepare_fork)(void);
RCU__WEAK void RCU__SYM(parent_fork)(void);
RCU__WEAK void RCU__SYM(child_fork)(void);
RCU__WEAK void RCU__SYM(thread_exit)(void *arg);

/* One-time set-up: the thread-exit key, membarrier registration, the fork handlers. */
RCU__WEAK void RCU__SYM(init)(struct rcu__state *gp)
{
	if (RCU__LIKELY(atomic_load_explicit(&gp->init_state, memory_order_acquire) == 2))
		return;
	/*
	 * The fork handlers first, before any lock of ours is taken: a fork() while a lock is held
	 * and no handler exists would leave the child with a lock that nobody releases.
	 */
	int32_t none = 0;
	if (atomic_compare_exchange_strong_explicit(&gp->atfork_state, &none, 1, memory_order_acq_rel,
						    memory_order_acquire)) {
		pthread_atfork(RCU__SYM(prepare_fork), RCU__SYM(parent_fork), RCU__SYM(child_fork));
		atomic_store_explicit(&gp->atfork_state, 2, memory_order_release);
	}
	while (atomic_load_explicit(&gp->atfork_state, memory_order_acquire) != 2)
		sched_yield();
	pthread_mutex_lock(&gp->registry_lock);
	if (atomic_load_explicit(&gp->init_state, memory_order_relaxed) != 2) {
		if (pthread_key_create(&gp->exit_key, RCU__SYM(thread_exit)) != 0)
			RCU__SYM(die)("rcu_register_thread()", "pthread_key_create() failed: no thread-specific key is left for thread-exit unregistration");
#if RCU__MEMB_READER && RCU__HAVE_MEMBARRIER
		if (rcu__membarrier(RCU__MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0)
			atomic_store_explicit(&gp->use_membarrier, 1, memory_order_relaxed);
#endif
		/* I1: release: whoever sees 2 sees use_membarrier and exit_key. */
		atomic_store_explicit(&gp->init_state, 2, memory_order_release);
	}
	pthread_mutex_unlock(&gp->registry_lock);
}

/*
 * Set up at load time, while the program has one thread, so that the fork handlers exist before
 * any thread can hold one of our locks (a fork during a first registration would otherwise leave
 * the child a lock nobody releases). Costs one key and one membarrier registration per process.
 * RCU_NO_CONSTRUCTOR, for model checking only (verify/genmc), leaves it to the first call that
 * needs it: GenMC runs constructors before it has initialised the globals they read.
 */
#if !defined(RCU_NO_CONSTRUCTOR)
__attribute__((constructor)) static void rcu__constructor(void)
{
	RCU__SYM(init)(RCU__STATE);
}
#endif

/* Link r into the registry, outside any section (QSBR: offline). */
static inline void rcu__link_reader(struct rcu__state *gp, struct rcu__reader *r, unsigned char how)
{
	RCU__SYM(init)(gp);
	r->tid = rcu__gettid();
	atomic_store_explicit(&r->seq, 0, memory_order_relaxed);
	pthread_mutex_lock(&gp->registry_lock);
	r->prev = NULL;
	r->next = gp->readers;
	if (gp->readers)
		gp->readers->prev = r;
	gp->readers = r;
	r->registered = how;
	pthread_mutex_unlock(&gp->registry_lock);
	pthread_setspecific(gp->exit_key, r);
}

/*
 * A thread that queues callbacks without being registered joins the registry, outside any
 * section, so that a fork child can mend a link it left unfinished (see >>callbacks). It holds up
 * no grace period. rcu_register_thread() later makes it a reader proper.
 */
RCU__WEAK void RCU__SYM(adopt)(struct rcu__state *gp, struct rcu__reader *r)
{
	if (!r->registered)
		rcu__link_reader(gp, r, 2);
}

RCU__WEAK void RCU__SYM(register)(struct rcu__state *gp, struct rcu__reader *r)
{
	RCU__CHECK(r->registered != 1, "rcu_register_thread()", "the thread is already registered");
	if (r->registered == 1)
		return;
	if (r->registered == 2)
		r->registered = 1; /* adopted by call_rcu(): already linked */
	else
		rcu__link_reader(gp, r, 1);
#if defined(RCU_FLAVOUR_QSBR)
	RCU__SYM(qsbr_report)(gp, r, UINT64_MAX); /* online */
#endif
}

RCU__WEAK void RCU__SYM(unregister)(struct rcu__state *gp, struct rcu__reader *r)
{
	RCU__CHECK(r->registered, "rcu_unregister_thread()", "the thread is not registered");
	if (!r->registered)
		return;
	/* A thread that exits inside a section (release builds) drops its section here. */
	atomic_store_explicit(&r->seq, 0, memory_order_release);
	r->nesting = 0;
	pthread_mutex_lock(&gp->registry_lock);
	if (r->prev)
		r->prev->next = r->next;
	else
		gp->readers = r->next;
	if (r->next)
		r->next->prev = r->prev;
	r->next = r->prev = NULL;
	r->registered = 0;
	pthread_mutex_unlock(&gp->registry_lock);
	pthread_setspecific(gp->exit_key, NULL);
	/* An updater may sleep on this slot; its scans happened under the lock we just took. */
	RCU__SYM(wake_gp)(gp);
}

/* Thread-exit destructor of exit_key: unregister a thread that ends registered. */
RCU__WEAK void RCU__SYM(thread_exit)(void *arg)
{
	struct rcu__reader *r = arg;
#if defined(RCU_FLAVOUR_QSBR)
	RCU__CHECK(!rcu__in_section(r), "thread exit", "the thread ends inside rcu_read_lock(): every rcu_read_lock() needs its rcu_read_unlock() before the thread returns");
#else
	RCU__CHECK(!rcu__in_section(r), "thread exit", "the thread ends inside a read-side critical section: every rcu_read_lock() needs its rcu_read_unlock() before the thread returns");
#endif
	RCU__SYM(unregister)(RCU__STATE, r);
}

/* QSBR slot updates: seq 0 goes offline, UINT64_MAX comes online, else reports a quiescent state. */
RCU__WEAK void RCU__SYM(qsbr_report)(struct rcu__state *gp, struct rcu__reader *r, uint64_t seq)
{
	if (seq == UINT64_MAX) {
		seq = atomic_load_explicit(&gp->gp_seq, memory_order_acquire); /* Q0 */
		/* Release, as Q1: on an already online thread this store is a quiescent state. */
		atomic_store_explicit(&r->seq, seq, memory_order_release);
		/* Q3: our slot store before the loads that follow; pairs with G1. */
		rcu__fence_full();
		return;
	}
	if (seq != 0 && atomic_load_explicit(&r->seq, memory_order_relaxed) == 0)
		return; /* offline: no quiescent state to report */
	/* Q1: release: the thread's accesses before the quiescent state; pairs with G2. */
	atomic_store_explicit(&r->seq, seq, memory_order_release);
	/* Q2: the slot store before the futex check; pairs with G3. */
	rcu__fence_full();
	if (atomic_load_explicit(&gp->gp_futex, memory_order_relaxed) == -1)
		RCU__SYM(wake_gp)(gp);
#if defined(RCU_FLAVOUR_QSBR)
	/* An online QSBR thread never helps inside call_rcu(); it helps here, where it is quiescent. */
	if (seq != 0 && RCU__UNLIKELY(RCU__SYM(over_high_water)(gp)) && !r->in_callback)
		RCU__SYM(help)(gp, r);
#endif
}

/* QSBR: an online thread that waits for a grace period must be offline meanwhile. */
static inline bool rcu__qsbr_leave(struct rcu__state *gp, struct rcu__reader *r)
{
#if defined(RCU_FLAVOUR_QSBR)
	if (r->registered && atomic_load_explicit(&r->seq, memory_order_relaxed) != 0) {
		RCU__SYM(qsbr_report)(gp, r, 0);
		return true;
	}
#else
	(void)gp;
	(void)r;
#endif
	return false;
}

static inline void rcu__qsbr_return(struct rcu__state *gp, struct rcu__reader *r, bool was_online)
{
#if defined(RCU_FLAVOUR_QSBR)
	if (was_online && r->registered)
		RCU__SYM(qsbr_report)(gp, r, UINT64_MAX);
#else
	(void)gp;
	(void)r;
	(void)was_online;
#endif
}

RCU__COLD void RCU__SYM(report_stall)(struct rcu__state *gp, uint64_t target, uint64_t waited_ns);

/* Is every registered reader outside the sections that grace period `target` waits for? */
static inline bool rcu__readers_done(struct rcu__state *gp, uint64_t target)
{
	bool done = true;
	pthread_mutex_lock(&gp->registry_lock);
	for (struct rcu__reader *r = gp->readers; r; r = r->next) {
		/* G2: acquire: pairs with R2/Q1, the readers' release of their slots. */
		uint64_t seq = atomic_load_explicit(&r->seq, memory_order_acquire);
		if (seq != 0 && seq < target) {
			done = false;
			break;
		}
	}
	pthread_mutex_unlock(&gp->registry_lock);
	return done;
}

/* Is any thread registered besides `self`? */
static inline bool rcu__other_readers(struct rcu__state *gp, struct rcu__reader *self)
{
	pthread_mutex_lock(&gp->registry_lock);
	bool others = gp->readers && (gp->readers != self || self->next);
	pthread_mutex_unlock(&gp->registry_lock);
	return others;
}

RCU__WEAK void RCU__SYM(wait_readers)(struct rcu__state *gp, uint64_t target)
{
	uint64_t start = RCU_STALL_TIMEOUT_MS > 0 ? rcu__now_ns() : 0;
	bool reported = false;
	(void)start;
	(void)reported;
	for (unsigned scan = 0;; scan++) {
		if (rcu__readers_done(gp, target))
			return;
		if (scan < RCU__SPIN_SCANS) {
			rcu__cpu_relax();
			continue;
		}
		atomic_store_explicit(&gp->gp_futex, -1, memory_order_relaxed);
		/* G3: arming before the rescan; pairs with R3/Q2 (a reader's clear before its check). */
		rcu__updater_fence(gp);
		if (rcu__readers_done(gp, target)) {
			atomic_store_explicit(&gp->gp_futex, 0, memory_order_relaxed);
			return;
		}
		int64_t timeout = rcu__lazy_wake(gp) ? RCU__LAZY_WAKE_NS : -1;
#if RCU_STALL_TIMEOUT_MS > 0
		uint64_t waited = rcu__now_ns() - start, limit = (uint64_t)RCU_STALL_TIMEOUT_MS * 1000000u;
		if (!reported && waited >= limit) {
			RCU__SYM(report_stall)(gp, target, waited);
			reported = true;
		}
		if (!reported && (timeout < 0 || (uint64_t)timeout > limit - waited))
			timeout = (int64_t)(limit - waited);
#endif
		rcu__word_wait(gp, &gp->gp_futex, -1, timeout);
	}
}

/*
 * Make sure grace period `target` (at most gp_seq + 1) has completed: run it or share it. A caller
 * that finds another running a grace period does not queue on gp_lock (a mutex is not fair, and
 * its target may complete while it waits): it sleeps on gp_done_word and returns as soon as its
 * target has completed, or takes the lock when it is free.
 */
RCU__WEAK void RCU__SYM(gp_wait_for)(struct rcu__state *gp, uint64_t target)
{
	for (;;) {
		/* D1: read the word before the check; pairs with D2 (completion, then the bump). */
		int32_t word = atomic_load_explicit(&gp->gp_done_word, memory_order_seq_cst);
		if (atomic_load_explicit(&gp->gp_completed, memory_order_acquire) >= target)
			return;
		if (pthread_mutex_trylock(&gp->gp_lock) == 0)
			break;
		atomic_fetch_add_explicit(&gp->gp_done_waiters, 1, memory_order_seq_cst);
		if (atomic_load_explicit(&gp->gp_completed, memory_order_seq_cst) < target)
			rcu__word_wait(gp, &gp->gp_done_word, word, -1);
		atomic_fetch_sub_explicit(&gp->gp_done_waiters, 1, memory_order_relaxed);
	}
	if (atomic_load_explicit(&gp->gp_completed, memory_order_relaxed) < target) {
		uint64_t cur = atomic_load_explicit(&gp->gp_seq, memory_order_relaxed);
		/*
		 * G0: the advance, a read-modify-write: it reads from the snapshots' RMWs, so their
		 * callers' earlier accesses happen before any reader that sees the new number (R0).
		 * cur >= target without an advance only in a forked child whose parent was mid-period.
		 */
		if (cur < target)
			cur = atomic_fetch_add_explicit(&gp->gp_seq, 1, memory_order_acq_rel) + 1;
		RCU__DELAY();
		/*
		 * With no reader registered but the caller, there is nothing to wait for and no fence to
		 * force: a thread that registers later takes registry_lock after us, so it sees the
		 * advance and everything before it.
		 */
		if (rcu__other_readers(gp, rcu__self())) {
			/* G1: the advance before the scan; pairs with R1/Q3 (a reader's slot store before its loads). */
			rcu__updater_fence(gp);
			RCU__SYM(wait_readers)(gp, cur);
		}
		atomic_fetch_add_explicit(&gp->gp_count, 1, memory_order_relaxed);
		/*
		 * G4: release: the readers' sections (seen through G2) before the completion. Also
		 * seq_cst, for the store-buffering pair with a waiter (D1: waiters++, then the check).
		 */
		atomic_store_explicit(&gp->gp_completed, cur, memory_order_seq_cst);
	}
	pthread_mutex_unlock(&gp->gp_lock);
	/* D2: the bump after the completion and the unlock; waiters re-check and may take the lock. */
	atomic_fetch_add_explicit(&gp->gp_done_word, 1, memory_order_seq_cst);
	if (atomic_load_explicit(&gp->gp_done_waiters, memory_order_seq_cst))
		rcu__word_wake(gp, &gp->gp_done_word);
}

RCU__WEAK uint64_t RCU__SYM(snapshot)(struct rcu__state *gp)
{
	/*
	 * G5: a release RMW, so the advance that reads from it (G0) makes the caller's earlier
	 * accesses (its removal) happen before the scan's fence (G1), whichever caller runs that
	 * grace period. No fence of its own: G1 is the updater's half of R1/G1, and the caller's full
	 * barrier is G6 at the end (docs/ordering.md: "G5 and G1").
	 */
	return atomic_fetch_add_explicit(&gp->gp_seq, 0, memory_order_acq_rel) + 1;
}

RCU__WEAK void RCU__SYM(cond_synchronize)(struct rcu__state *gp, uint64_t cookie)
{
	struct rcu__reader *r = rcu__self();
	RCU__SYM(init)(gp);
	bool was_online = rcu__qsbr_leave(gp, r);
	RCU__SYM(gp_wait_for)(gp, cookie);
	/* G6: the barrier at the end: accesses after the return stay after the grace period. */
	rcu__fence_full();
	rcu__qsbr_return(gp, r, was_online);
}

RCU__WEAK void RCU__SYM(synchronize)(struct rcu__state *gp)
{
	RCU__SYM(cond_synchronize)(gp, RCU__SYM(snapshot)(gp));
}

/* >>callbacks --------------------------------------------------------------------------------- */

/*
 * Deferred reclamation, in prose. call_rcu() appends the head to one process-wide wait-free
 * queue (swap the tail, link the old tail: C1, C2) and returns. A worker thread, started on first
 * use, takes the whole queue as one batch, takes a grace-period cookie after the take, waits for
 * it unless it has already passed (cond_synchronize_rcu), and invokes the batch in queue order:
 * one grace period per batch, and callbacks queued by one thread run in the order queued. Whoever
 * takes and invokes a batch holds cb_consumer, so batches never overlap and rcu_barrier() only
 * has to queue a marker and wait for it to run.
 *
 * Memory bound: a call_rcu() caller outside a read-side section and outside a callback that
 * finds more than RCU_CALLBACK_HIGH_WATER callbacks pending takes cb_consumer and runs a batch
 * itself, so producers wait for reclamation instead of growing the queue. Pending callbacks then
 * stay at most RCU_CALLBACK_HIGH_WATER + one per concurrently queueing thread + those queued
 * from inside sections and callbacks (which only wake the worker).
 * QSBR: an online thread is always inside a section, so its call_rcu() never helps; it helps at
 * its next rcu_quiescent_state() instead: call_rcu() raises cb_congested, on the readers' line,
 * which sends quiescent states to their slow path until a batch brings pending below the mark. Offline
 * and unregistered QSBR threads help in call_rcu(). A helper is in the registry (adopted, if it
 * did not register), so that the callbacks it runs may read under rcu_read_lock().
 * QSBR: callbacks run online, so one that blocks holds up grace periods; go offline around it.
 *
 * fork(): the child keeps only the forking thread in the registry, forgets the worker (the next
 * call_rcu() or rcu_barrier() starts one) and puts the batch the worker held at the fork back at
 * the head of the queue, so callbacks pending at the fork run in the child as well. A registered
 * thread that was inside call_rcu() at the fork, between its swap and its link, left its head and
 * its predecessor in its reader record: the child mends that link, so the callbacks queued behind
 * it are not lost. (Only that thread's own callback may be lost, if the fork caught it before it
 * recorded its predecessor and the gap cannot be found.) A thread that queues callbacks without
 * being registered is adopted into the registry by its first call_rcu() for this reason.
 *
 * Process exit: an exit handler stops the worker before its next batch (waiting at most one
 * second for a batch in progress), so callbacks do not run on the worker while later exit
 * handlers tear the process down, and exit never hangs on RCU. (The worker may still finish a
 * grace period that start_poll_synchronize_rcu() asked for; it parks, holding no lock, at the
 * top of its loop.) Callbacks still pending are not
 * invoked; call rcu_barrier() first to run them (an rcu_barrier() during exit runs them on the
 * exiting thread). A plugin that queues callbacks must call rcu_barrier() before dlclose().
 */
#define RCU__HEAD_QUEUED 0x5243555155455545ull /* "RCUQUEUE" */
#define RCU__FREE_OFFSET_MAX 4095 /* rcu_free(): a callback "address" below this is an offset */
#define RCU__BARRIER_TAG 4095      /* rcu_barrier()'s marker: a tag, not an address, so that copies
				      of the code in several shared objects agree on it */
#define RCU__IS_USER_CALLBACK(f) ((uintptr_t)(f) != RCU__BARRIER_TAG)

struct rcu__barrier {
	struct rcu_head head;
	_Atomic int32_t done;
};

/**
 * call_rcu(head, func) - call func(head) after a grace period.
 *
 * Every reader inside a section when call_rcu() is called has left it before func starts. The
 * head must stay valid and untouched until then. The enqueue is wait-free; it allocates nothing
 * and cannot fail; callable from any thread, inside a read-side section, and from callbacks.
 * Above RCU_CALLBACK_HIGH_WATER pending callbacks, a caller outside any section runs a batch
 * itself (it waits for a grace period) before it returns: see the prose above. Callbacks run on
 * the worker thread "rcu-callbacks" (or on a call_rcu() caller that helps) and may block, read
 * RCU data inside rcu_read_lock(), call call_rcu() and synchronize_rcu(). RCU_DEBUG aborts on a
 * head that is already queued.
 */
static inline void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	RCU__SYM(call)(RCU__STATE, head, func);
}

/**
 * rcu_free(ptr, field) - the kernel's kfree_rcu(): RCU_FREE(ptr) after a grace period.
 *
 * field names the struct rcu_head member of *ptr (at most 4094 bytes into the object). A NULL
 * ptr does nothing, as kfree_rcu(NULL, field).
 */
#define rcu_free(ptr, field) \
	__extension__({ \
		__typeof__(*(ptr)) *rcu__p = (ptr); \
		(void)sizeof(char[offsetof(__typeof__(*(ptr)), field) < RCU__FREE_OFFSET_MAX ? 1 : -1]); \
		if (rcu__p) \
			call_rcu(&rcu__p->field, \
				(void (*)(struct rcu_head *))(uintptr_t)offsetof(__typeof__(*(ptr)), field)); \
	})

/**
 * rcu_barrier() - wait until every callback queued before the call has been invoked.
 *
 * Callbacks queued after it (by callbacks, say) may still be pending. Must not be called inside
 * a read-side section or from a callback: both deadlock (RCU_DEBUG aborts). QSBR: an online
 * caller is offline during the wait.
 */
static inline void rcu_barrier(void)
{
	RCU__SYM(barrier)(RCU__STATE);
}

/** rcu_get_stats(out) - grace-period and callback counters; a few loads, callable anywhere. */
static inline void rcu_get_stats(struct rcu_stats *out)
{
	RCU__SYM(stats)(RCU__STATE, out);
}

static inline void rcu__barrier_done(struct rcu_head *head)
{
	struct rcu__barrier *b = rcu_container_of(head, struct rcu__barrier, head);
	atomic_store_explicit(&b->done, 1, memory_order_release);
	/* The waiter may return at once; the wake uses the address as a key only. */
	rcu__word_wake(RCU__STATE, &b->done);
}

/* The next node of a taken chain; its producer may still be between its swap and its link. */
static inline struct rcu_head *rcu__cbq_next(struct rcu_head *h)
{
	struct rcu_head *next;
	/* C3: acquire: pairs with C2, the producer's link of its fully written head. */
	for (unsigned spins = 0; !(next = atomic_load_explicit(&h->next, memory_order_acquire)); spins++) {
		if (spins < 1000)
			rcu__cpu_relax();
		else
			sched_yield();
	}
	return next;
}

/* Fields of the batch being invoked, read by the fork child (see the prose above). */
struct rcu__inflight {
	struct rcu_head *_Atomic next; /* the first callback of the batch not yet started */
	struct rcu_head *_Atomic last;
};
extern struct rcu__inflight RCU__SYM(inflight);
RCU__WEAK struct rcu__inflight RCU__SYM(inflight);

/* Take the whole queue: false if empty. The caller holds cb_consumer. */
static inline bool rcu__cbq_take(struct rcu__cbq *q, struct rcu_head **first, struct rcu_head **last)
{
	if (atomic_load_explicit(&q->stub.next, memory_order_acquire) == NULL &&
	    atomic_load_explicit(&q->tail, memory_order_seq_cst) == &q->stub)
		return false;
	*first = rcu__cbq_next(&q->stub);
	atomic_store_explicit(&RCU__SYM(inflight).next, *first, memory_order_relaxed);
	atomic_store_explicit(&q->stub.next, NULL, memory_order_relaxed);
	/* C4: producers that swap after this link to the stub; acquire pairs with C1. */
	*last = atomic_exchange_explicit(&q->tail, &q->stub, memory_order_acq_rel);
	atomic_store_explicit(&RCU__SYM(inflight).last, *last, memory_order_relaxed);
	return true;
}

/*
 * Take one batch, wait for its grace period, invoke it. The caller holds cb_consumer and, in
 * QSBR, is offline; it is online (if registered) while callbacks run, so that they may read.
 * Returns the number of user callbacks invoked (rcu_barrier()'s markers are not counted).
 */
RCU__WEAK uint64_t RCU__SYM(run_batch)(struct rcu__state *gp, struct rcu__reader *r)
{
	struct rcu_head *h, *last;
	if (!rcu__cbq_take(&gp->cbq, &h, &last))
		return 0;
	RCU__SYM(gp_wait_for)(gp, RCU__SYM(snapshot)(gp));
	rcu__fence_full(); /* G6, as at the end of synchronize_rcu() */
	rcu__qsbr_return(gp, r, true);
	uint64_t n = 0;
	r->in_callback = 1;
	while (h) {
		struct rcu_head *next = h == last ? NULL : rcu__cbq_next(h);
		void (*func)(struct rcu_head *) = h->func;
		atomic_store_explicit(&RCU__SYM(inflight).next, next, memory_order_relaxed);
#if defined(RCU_DEBUG)
		h->debug_state = 0;
#endif
		if ((uintptr_t)func == RCU__BARRIER_TAG) {
			/* Everything before the marker counts as invoked before its waiter returns. */
			atomic_fetch_add_explicit(&gp->cbq.invoked, n, memory_order_release);
			n = 0;
			rcu__barrier_done(h);
		} else if ((uintptr_t)func < RCU__FREE_OFFSET_MAX) {
			RCU_FREE((void *)((char *)h - (uintptr_t)func));
			n++;
		} else {
			func(h);
			n++;
		}
		h = next;
	}
	r->in_callback = 0;
	atomic_store_explicit(&RCU__SYM(inflight).last, NULL, memory_order_relaxed);
	atomic_fetch_add_explicit(&gp->cbq.invoked, n, memory_order_release);
#if defined(RCU_FLAVOUR_QSBR)
	if (atomic_load_explicit(&gp->cb_congested, memory_order_relaxed) && !RCU__SYM(over_high_water)(gp))
		atomic_store_explicit(&gp->cb_congested, 0, memory_order_relaxed);
#endif
	rcu__qsbr_leave(gp, r);
	return n;
}

static inline bool rcu__cbq_empty(struct rcu__cbq *q)
{
	return atomic_load_explicit(&q->tail, memory_order_seq_cst) == &q->stub;
}

RCU__WEAK void *RCU__SYM(worker_main)(void *arg)
{
	struct rcu__state *gp = arg;
	struct rcu__reader *r = rcu__self();
#if defined(__linux__)
	prctl(PR_SET_NAME, "rcu-callbacks", 0, 0, 0);
#endif
#if !defined(RCU_FLAVOUR_BP)
	RCU__SYM(register)(gp, r);
#endif
	rcu__qsbr_leave(gp, r);
	for (;;) {
		/* X1: `invoking` before the check of `exiting`; the exit handler does the reverse. */
		atomic_store_explicit(&gp->invoking, 1, memory_order_seq_cst);
		if (atomic_load_explicit(&gp->exiting, memory_order_seq_cst)) {
			atomic_store_explicit(&gp->invoking, 0, memory_order_release);
			rcu__word_wake(gp, &gp->invoking);
			for (;;) /* parked, holding nothing, until the process ends */
				rcu__word_wait(gp, &gp->exiting, 1, -1);
		}
		pthread_mutex_lock(&gp->cb_consumer);
		uint64_t n = RCU__SYM(run_batch)(gp, r);
		pthread_mutex_unlock(&gp->cb_consumer);
		atomic_store_explicit(&gp->invoking, 0, memory_order_release);
		if (atomic_load_explicit(&gp->exiting, memory_order_relaxed))
			rcu__word_wake(gp, &gp->invoking);
		uint64_t want = atomic_load_explicit(&gp->gp_requested, memory_order_relaxed);
		if (want > atomic_load_explicit(&gp->gp_completed, memory_order_relaxed)) {
			RCU__SYM(gp_wait_for)(gp, want);
			continue;
		}
		if (n || !rcu__cbq_empty(&gp->cbq))
			continue;
		/* W1: sleeping flag before the emptiness check; pairs with C5 in call_rcu(). */
		atomic_store_explicit(&gp->worker_sleeping, 1, memory_order_seq_cst);
		if (rcu__cbq_empty(&gp->cbq) &&
		    atomic_load_explicit(&gp->gp_requested, memory_order_seq_cst) <=
			    atomic_load_explicit(&gp->gp_completed, memory_order_relaxed))
			rcu__word_wait(gp, &gp->worker_sleeping, 1, -1);
		atomic_store_explicit(&gp->worker_sleeping, 0, memory_order_relaxed);
	}
	return NULL;
}

/* Exit handler: the worker takes no batch after this returns (X1). */
RCU__WEAK void RCU__SYM(at_exit)(void)
{
	struct rcu__state *gp = RCU__STATE;
	atomic_store_explicit(&gp->exiting, 1, memory_order_seq_cst); /* X1 */
	rcu__word_wake(gp, &gp->worker_sleeping);
	uint64_t deadline = rcu__now_ns() + 1000000000u;
	while (atomic_load_explicit(&gp->invoking, memory_order_seq_cst) && rcu__now_ns() < deadline)
		rcu__word_wait(gp, &gp->invoking, 1, 1000000);
}

/* Start the worker if there is none: false if it cannot be started (then callers help). */
RCU__WEAK bool RCU__SYM(start_worker)(struct rcu__state *gp)
{
	int32_t none = 0;
	if (atomic_load_explicit(&gp->worker_state, memory_order_acquire) != 0)
		return true;
	if (!atomic_compare_exchange_strong_explicit(&gp->worker_state, &none, 1, memory_order_acq_rel,
						     memory_order_acquire))
		return true;
	RCU__SYM(init)(gp);
	static _Atomic int exit_handler_set; /* per translation unit is fine: at_exit is idempotent */
	if (!atomic_exchange_explicit(&exit_handler_set, 1, memory_order_relaxed))
		atexit(RCU__SYM(at_exit));
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old); /* the worker inherits "all blocked" */
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_t tid;
	int err = pthread_create(&tid, &attr, RCU__SYM(worker_main), gp);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err != 0) {
		atomic_store_explicit(&gp->worker_state, 0, memory_order_release);
		return false;
	}
	return true;
}

static inline void rcu__wake_worker(struct rcu__state *gp)
{
	/* C5: after the enqueue's seq_cst swap; pairs with W1. */
	if (atomic_load_explicit(&gp->worker_sleeping, memory_order_seq_cst) &&
	    atomic_exchange_explicit(&gp->worker_sleeping, 0, memory_order_relaxed))
		rcu__word_wake(gp, &gp->worker_sleeping);
}

RCU__WEAK bool RCU__SYM(over_high_water)(struct rcu__state *gp)
{
	uint64_t queued = atomic_load_explicit(&gp->cbq.queued, memory_order_relaxed);
	return (int64_t)(queued - atomic_load_explicit(&gp->cbq.invoked, memory_order_relaxed)) >
	       RCU_CALLBACK_HIGH_WATER;
}

/* May this thread block in call_rcu() to help? Not inside a section (QSBR: not online), not in a callback. */
static inline bool rcu__may_help(struct rcu__reader *r)
{
#if defined(RCU_FLAVOUR_QSBR)
	if (atomic_load_explicit(&r->seq, memory_order_relaxed) != 0)
		return false;
#endif
	return !rcu__in_section(r) && !r->in_callback;
}

/* Help reclaim: run one batch on the calling thread (QSBR: offline while it waits for the lock). */
RCU__WEAK void RCU__SYM(help)(struct rcu__state *gp, struct rcu__reader *r)
{
	RCU__SYM(adopt)(gp, r); /* callbacks may read: be a reader while they run */
	bool was_online = rcu__qsbr_leave(gp, r);
	pthread_mutex_lock(&gp->cb_consumer);
	RCU__SYM(run_batch)(gp, r);
	pthread_mutex_unlock(&gp->cb_consumer);
	rcu__qsbr_return(gp, r, was_online);
}

RCU__WEAK void RCU__SYM(call)(struct rcu__state *gp, struct rcu_head *head, void (*func)(struct rcu_head *))
{
#if defined(RCU_DEBUG)
	RCU__CHECK(head->debug_state != RCU__HEAD_QUEUED, "call_rcu()",
		"the rcu_head is already queued: it may be queued again only once its callback has begun");
	head->debug_state = RCU__HEAD_QUEUED;
#endif
	head->func = func;
	atomic_store_explicit(&head->next, NULL, memory_order_relaxed);
	bool user = RCU__IS_USER_CALLBACK(func);
	uint64_t queued = user ? atomic_fetch_add_explicit(&gp->cbq.queued, 1, memory_order_relaxed) + 1 : 0;
	struct rcu__reader *self = rcu__self();
	if (RCU__UNLIKELY(!self->registered))
		RCU__SYM(adopt)(gp, self); /* first use: so a fork child can mend our link */
	self->enq_node = head;
	/* C1: release: the head (and what the caller did before) to whoever takes the chain (C4). */
	struct rcu_head *prev = atomic_exchange_explicit(&gp->cbq.tail, head, memory_order_seq_cst);
	self->enq_prev = prev;
	/* C2: release: the link; pairs with C3. */
	atomic_store_explicit(&prev->next, head, memory_order_release);
	self->enq_node = self->enq_prev = NULL;
	if (RCU__UNLIKELY(atomic_load_explicit(&gp->worker_state, memory_order_relaxed) == 0) &&
	    !RCU__SYM(start_worker)(gp)) {
		if (rcu__may_help(self))
			RCU__SYM(help)(gp, self);
		return;
	}
	rcu__wake_worker(gp);
	if (!user)
		return;
	/*
	 * A true sample of the pending count, never an inflated one: `invoked` read after `queued`
	 * can only make it smaller than it was; and our own callback was pending at our swap.
	 */
	int64_t pending = (int64_t)(queued - atomic_load_explicit(&gp->cbq.invoked, memory_order_relaxed));
	if (pending < 1)
		pending = 1;
	uint64_t max = atomic_load_explicit(&gp->cbq.pending_max, memory_order_relaxed);
	while (pending > 0 && (uint64_t)pending > max &&
	       !atomic_compare_exchange_weak_explicit(&gp->cbq.pending_max, &max, (uint64_t)pending,
						      memory_order_relaxed, memory_order_relaxed))
		;
	if (RCU__UNLIKELY(pending > RCU_CALLBACK_HIGH_WATER)) {
#if defined(RCU_FLAVOUR_QSBR)
		/* Online threads help at their next quiescent state: make them look (X2). */
		if (!atomic_load_explicit(&gp->cb_congested, memory_order_relaxed))
			atomic_store_explicit(&gp->cb_congested, 1, memory_order_relaxed);
#endif
		if (rcu__may_help(self))
			RCU__SYM(help)(gp, self);
	}
}

RCU__WEAK void RCU__SYM(barrier)(struct rcu__state *gp)
{
	struct rcu__reader *r = rcu__self();
	RCU__CHECK(!rcu__in_section(r), "rcu_barrier()", RCU__RULE_IN_SECTION);
	RCU__CHECK(!r->in_callback, "rcu_barrier()", "called from an RCU callback, which would wait for its own batch forever (deadlock)");
	RCU__SYM(init)(gp);
	struct rcu__barrier b;
	memset(&b, 0, sizeof b);
	bool was_online = rcu__qsbr_leave(gp, r);
	RCU__SYM(call)(gp, &b.head, (void (*)(struct rcu_head *))(uintptr_t)RCU__BARRIER_TAG);
	while (!atomic_load_explicit(&b.done, memory_order_acquire)) {
		if (atomic_load_explicit(&gp->exiting, memory_order_relaxed) || !RCU__SYM(start_worker)(gp))
			RCU__SYM(help)(gp, r);
		else
			rcu__word_wait(gp, &b.done, 0, 100000000);
	}
	rcu__qsbr_return(gp, r, was_online);
}

RCU__WEAK uint64_t RCU__SYM(start_poll)(struct rcu__state *gp)
{
	uint64_t cookie = RCU__SYM(snapshot)(gp);
	uint64_t want = atomic_load_explicit(&gp->gp_requested, memory_order_relaxed);
	while (want < cookie && !atomic_compare_exchange_weak_explicit(&gp->gp_requested, &want, cookie,
								       memory_order_seq_cst, memory_order_relaxed))
		;
	if (RCU__SYM(start_worker)(gp))
		rcu__wake_worker(gp);
	else if (rcu__may_help(rcu__self()))
		RCU__SYM(cond_synchronize)(gp, cookie); /* no worker: run it here, where we may block */
	return cookie;
}

RCU__WEAK void RCU__SYM(stats)(struct rcu__state *gp, struct rcu_stats *out)
{
	uint64_t invoked = atomic_load_explicit(&gp->cbq.invoked, memory_order_acquire);
	uint64_t queued = atomic_load_explicit(&gp->cbq.queued, memory_order_relaxed);
	out->grace_periods = atomic_load_explicit(&gp->gp_count, memory_order_relaxed);
	out->callbacks_queued = queued;
	out->callbacks_invoked = invoked;
	out->callbacks_pending = queued > invoked ? queued - invoked : 0;
	out->callbacks_pending_max = atomic_load_explicit(&gp->cbq.pending_max, memory_order_relaxed);
}

/* fork(): keep the registry list and the callback queue whole across the fork. */
RCU__WEAK void RCU__SYM(prepare_fork)(void)
{
	struct rcu__state *gp = RCU__STATE;
	pthread_mutex_lock(&gp->registry_lock);
	pthread_mutex_lock(&gp->word_lock);
}

RCU__WEAK void RCU__SYM(parent_fork)(void)
{
	struct rcu__state *gp = RCU__STATE;
	pthread_mutex_unlock(&gp->word_lock);
	pthread_mutex_unlock(&gp->registry_lock);
}

/* Follow a chain from h until NULL or `stop`; returns its last node (NULL for an empty chain). */
static inline struct rcu_head *rcu__chain_end(struct rcu_head *h, struct rcu_head *stop)
{
	struct rcu_head *end = NULL;
	for (; h; h = h == stop ? NULL : atomic_load_explicit(&h->next, memory_order_relaxed))
		end = h;
	return end;
}

/* In a fork child: link `node` behind `prev`, or behind the first gap in the chains if unknown. */
static inline void rcu__child_mend(struct rcu__state *gp, struct rcu_head *node, struct rcu_head *prev)
{
	struct rcu__cbq *q = &gp->cbq;
	struct rcu_head *chains[2][2] = {
		{ atomic_load_explicit(&RCU__SYM(inflight).next, memory_order_relaxed),
		  atomic_load_explicit(&RCU__SYM(inflight).last, memory_order_relaxed) },
		{ atomic_load_explicit(&q->stub.next, memory_order_relaxed), atomic_load_explicit(&q->tail, memory_order_relaxed) },
	};
	if (!prev && !atomic_load_explicit(&q->stub.next, memory_order_relaxed) &&
	    atomic_load_explicit(&q->tail, memory_order_relaxed) != &q->stub)
		prev = &q->stub; /* caught swapping into an empty queue */
	for (int c = 0; !prev && c < 2; c++)
		for (struct rcu_head *h = chains[c][0]; h && h != chains[c][1] && h != node;
		     h = atomic_load_explicit(&h->next, memory_order_relaxed))
			if (!atomic_load_explicit(&h->next, memory_order_relaxed)) {
				prev = h;
				break;
			}
	if (prev && prev != node && !atomic_load_explicit(&prev->next, memory_order_relaxed))
		atomic_store_explicit(&prev->next, node, memory_order_relaxed);
}

RCU__WEAK void RCU__SYM(child_fork)(void)
{
	struct rcu__state *gp = RCU__STATE;
	struct rcu__reader *self = rcu__self();
	atomic_store_explicit(&gp->atfork_state, 2, memory_order_relaxed); /* we are its handler */
	/*
	 * Threads other than this one are gone: so are their locks, sections and the worker. The
	 * two locks prepare_fork took are this thread's, and it releases them as the parent does;
	 * the two it did not take may have died with their holders, and start afresh.
	 */
	pthread_mutex_unlock(&gp->word_lock);
	pthread_mutex_unlock(&gp->registry_lock);
	pthread_mutex_init(&gp->gp_lock, NULL);
	pthread_mutex_init(&gp->cb_consumer, NULL);
	pthread_cond_init(&gp->word_cond, NULL);
	/* Mend the links that threads caught between swap and link never stored (C1, C2). */
	for (struct rcu__reader *r = gp->readers; r; r = r->next)
		if (r != self && r->enq_node)
			rcu__child_mend(gp, r->enq_node, r->enq_prev);
	gp->readers = self->registered ? self : NULL;
	self->next = self->prev = NULL;
	atomic_store_explicit(&gp->gp_futex, 0, memory_order_relaxed);
	atomic_store_explicit(&gp->gp_done_waiters, 0, memory_order_relaxed);
	atomic_store_explicit(&gp->worker_state, 0, memory_order_relaxed);
	atomic_store_explicit(&gp->worker_sleeping, 0, memory_order_relaxed);
	atomic_store_explicit(&gp->invoking, 0, memory_order_relaxed);
	self->in_callback = 0;
#if RCU__MEMB_READER && RCU__HAVE_MEMBARRIER
	if (atomic_load_explicit(&gp->use_membarrier, memory_order_relaxed) &&
	    rcu__membarrier(RCU__MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) != 0)
		atomic_store_explicit(&gp->use_membarrier, 0, memory_order_relaxed); /* one thread: safe */
#endif
	/* The worker's batch (from its first unstarted callback), then the queue. */
	struct rcu__cbq *q = &gp->cbq;
	struct rcu_head *a = atomic_load_explicit(&RCU__SYM(inflight).next, memory_order_relaxed);
	struct rcu_head *a_end = rcu__chain_end(a, atomic_load_explicit(&RCU__SYM(inflight).last, memory_order_relaxed));
	struct rcu_head *b = atomic_load_explicit(&q->stub.next, memory_order_relaxed);
	if (b == a)
		b = NULL;
	struct rcu_head *b_end = rcu__chain_end(b, atomic_load_explicit(&q->tail, memory_order_relaxed));
	if (a_end) {
		atomic_store_explicit(&a_end->next, b, memory_order_relaxed);
	} else {
		a = b;
	}
	struct rcu_head *end = b_end ? b_end : a_end;
	uint64_t count = 0;
	for (struct rcu_head *h = a; h; h = h == end ? NULL : atomic_load_explicit(&h->next, memory_order_relaxed))
		count += RCU__IS_USER_CALLBACK(h->func);
	if (end)
		atomic_store_explicit(&end->next, NULL, memory_order_relaxed);
	atomic_store_explicit(&q->stub.next, a, memory_order_relaxed);
	atomic_store_explicit(&q->tail, end ? end : &q->stub, memory_order_relaxed);
	atomic_store_explicit(&RCU__SYM(inflight).next, NULL, memory_order_relaxed);
	atomic_store_explicit(&RCU__SYM(inflight).last, NULL, memory_order_relaxed);
	/* Callbacks lost with another thread's unfinished call_rcu() no longer count as pending. */
	atomic_store_explicit(&q->queued, atomic_load_explicit(&q->invoked, memory_order_relaxed) + count,
			      memory_order_relaxed);
}

/* >>lists ------------------------------------------------------------------------------------- */

/*
 * Lists with the kernel's semantics. Readers walk them inside a read-side section with the
 * rcu_*_for_each_entry iterators, which load every link with rcu_dereference(); updaters hold
 * their own lock, link with rcu_assign_pointer() (so a reader that reaches a new entry sees it
 * initialised) and must not reuse or free an unlinked entry before a grace period. Deletion
 * keeps the entry's forward link, so a reader standing on it still reaches the end; it poisons
 * only the backward link, which readers never follow.
 */
#define RCU__LIST_POISON ((void *)(uintptr_t)0x122)

/** struct rcu_list - a list head, or the link embedded in an entry (the kernel's list_head). */
struct rcu_list {
	struct rcu_list *_Atomic next;
	struct rcu_list *prev;
};

/** RCU_LIST_HEAD_INIT(name) - static initialiser of an empty list `struct rcu_list name`. */
#define RCU_LIST_HEAD_INIT(name) { &(name), &(name) }

/** rcu_list_init(head) - make head an empty list. Not while readers can reach it. */
static inline void rcu_list_init(struct rcu_list *head)
{
	atomic_store_explicit(&head->next, head, memory_order_relaxed);
	head->prev = head;
}

static inline void rcu__list_insert(struct rcu_list *n, struct rcu_list *prev, struct rcu_list *next)
{
	atomic_store_explicit(&n->next, next, memory_order_relaxed);
	n->prev = prev;
	rcu_assign_pointer(prev->next, n); /* L1: n (and the entry) before it is reachable */
	next->prev = n;
}

/** rcu_list_add(n, head) - insert n right after head (a stack). Updater, under its lock. */
static inline void rcu_list_add(struct rcu_list *n, struct rcu_list *head)
{
	rcu__list_insert(n, head, atomic_load_explicit(&head->next, memory_order_relaxed));
}

/** rcu_list_add_tail(n, head) - insert n right before head (a queue). Updater, under its lock. */
static inline void rcu_list_add_tail(struct rcu_list *n, struct rcu_list *head)
{
	rcu__list_insert(n, head->prev, head);
}

/**
 * rcu_list_del(entry) - unlink entry. Updater, under its lock.
 *
 * Readers already on the entry still reach the end of the list; free or reuse it only after a
 * grace period (call_rcu(), rcu_free(), synchronize_rcu()).
 */
static inline void rcu_list_del(struct rcu_list *entry)
{
	struct rcu_list *next = atomic_load_explicit(&entry->next, memory_order_relaxed);
	/* L2: release, so a reader reaching next through this link sees it initialised (free on x86). */
	rcu_assign_pointer(entry->prev->next, next);
	next->prev = entry->prev;
	entry->prev = RCU__LIST_POISON;
}

/** rcu_list_replace(old, n) - put n where old is, atomically for readers. Updater, under its lock. */
static inline void rcu_list_replace(struct rcu_list *old, struct rcu_list *n)
{
	struct rcu_list *next = atomic_load_explicit(&old->next, memory_order_relaxed);
	atomic_store_explicit(&n->next, next, memory_order_relaxed);
	n->prev = old->prev;
	rcu_assign_pointer(n->prev->next, n); /* L1 */
	next->prev = n;
	old->prev = RCU__LIST_POISON;
}

/** rcu_list_empty(head) - does the list hold no entry? Callable by readers and updaters. */
static inline bool rcu_list_empty(const struct rcu_list *head)
{
	return atomic_load_explicit(&head->next, memory_order_relaxed) == head;
}

/** rcu_list_entry(ptr, type, member) - the entry holding link ptr. */
#define rcu_list_entry(ptr, type, member) rcu_container_of(ptr, type, member)

/** rcu_list_first_entry_or_null(head, type, member) - the first entry, or NULL. Reader. */
#define rcu_list_first_entry_or_null(head, type, member) \
	__extension__({ \
		struct rcu_list *rcu__h = (head); \
		struct rcu_list *rcu__n = rcu_dereference(rcu__h->next); \
		rcu__n != rcu__h ? rcu_list_entry(rcu__n, type, member) : (type *)NULL; \
	})

/** rcu_list_for_each_entry(pos, head, member) - readers' walk, inside a read-side section. */
#define rcu_list_for_each_entry(pos, head, member) \
	for (pos = rcu_list_entry(rcu_dereference((head)->next), __typeof__(*(pos)), member); \
	     &(pos)->member != (head); \
	     pos = rcu_list_entry(rcu_dereference((pos)->member.next), __typeof__(*(pos)), member))

/** rcu_list_for_each_entry_locked(pos, head, member) - updaters' walk, under their lock. */
#define rcu_list_for_each_entry_locked(pos, head, member) \
	for (pos = rcu_list_entry(rcu_access_pointer((head)->next), __typeof__(*(pos)), member); \
	     &(pos)->member != (head); \
	     pos = rcu_list_entry(rcu_access_pointer((pos)->member.next), __typeof__(*(pos)), member))

/** rcu_list_for_each_entry_safe(pos, tmp, head, member) - updaters' walk that may delete pos. */
#define rcu_list_for_each_entry_safe(pos, tmp, head, member) \
	for (pos = rcu_list_entry(rcu_access_pointer((head)->next), __typeof__(*(pos)), member), \
	    tmp = rcu_list_entry(rcu_access_pointer((pos)->member.next), __typeof__(*(pos)), member); \
	     &(pos)->member != (head); \
	     pos = tmp, tmp = rcu_list_entry(rcu_access_pointer((tmp)->member.next), __typeof__(*(pos)), member))

/** struct rcu_hlist_head / rcu_hlist_node - hash-bucket lists (the kernel's hlist). */
struct rcu_hlist_node {
	struct rcu_hlist_node *_Atomic next;
	struct rcu_hlist_node *_Atomic *pprev; /* the link that points at this node */
};
struct rcu_hlist_head {
	struct rcu_hlist_node *_Atomic first;
};

#define RCU_HLIST_HEAD_INIT { NULL }

static inline void rcu_hlist_init(struct rcu_hlist_head *h)
{
	atomic_store_explicit(&h->first, NULL, memory_order_relaxed);
}

/** rcu_hlist_unhashed(n) - n is on no list (never added, or removed with rcu_hlist_del_init()). */
static inline bool rcu_hlist_unhashed(const struct rcu_hlist_node *n)
{
	return n->pprev == NULL;
}

/** rcu_hlist_add_head(n, h) - insert n first in bucket h. Updater, under its lock. */
static inline void rcu_hlist_add_head(struct rcu_hlist_node *n, struct rcu_hlist_head *h)
{
	struct rcu_hlist_node *first = atomic_load_explicit(&h->first, memory_order_relaxed);
	atomic_store_explicit(&n->next, first, memory_order_relaxed);
	n->pprev = &h->first;
	rcu_assign_pointer(h->first, n); /* L1 */
	if (first)
		first->pprev = &n->next;
}

/** rcu_hlist_add_before(n, next) - insert n before next (which is on a list). Updater. */
static inline void rcu_hlist_add_before(struct rcu_hlist_node *n, struct rcu_hlist_node *next)
{
	n->pprev = next->pprev;
	atomic_store_explicit(&n->next, next, memory_order_relaxed);
	rcu_assign_pointer(*n->pprev, n); /* L1 */
	next->pprev = &n->next;
}

/** rcu_hlist_add_behind(n, prev) - insert n after prev (which is on a list). Updater. */
static inline void rcu_hlist_add_behind(struct rcu_hlist_node *n, struct rcu_hlist_node *prev)
{
	struct rcu_hlist_node *next = atomic_load_explicit(&prev->next, memory_order_relaxed);
	atomic_store_explicit(&n->next, next, memory_order_relaxed);
	n->pprev = &prev->next;
	rcu_assign_pointer(prev->next, n); /* L1 */
	if (next)
		next->pprev = &n->next;
}

/** rcu_hlist_del(n) - unlink n; its forward link stays for readers on it. Updater. */
static inline void rcu_hlist_del(struct rcu_hlist_node *n)
{
	struct rcu_hlist_node *next = atomic_load_explicit(&n->next, memory_order_relaxed);
	atomic_store_explicit(n->pprev, next, memory_order_release); /* L2 */
	if (next)
		next->pprev = n->pprev;
	n->pprev = RCU__LIST_POISON;
}

/** rcu_hlist_del_init(n) - rcu_hlist_del(), leaving n unhashed (its link may be added again after a grace period). */
static inline void rcu_hlist_del_init(struct rcu_hlist_node *n)
{
	if (!rcu_hlist_unhashed(n)) {
		rcu_hlist_del(n);
		n->pprev = NULL;
	}
}

/** rcu_hlist_replace(old, n) - put n where old is, atomically for readers. Updater. */
static inline void rcu_hlist_replace(struct rcu_hlist_node *old, struct rcu_hlist_node *n)
{
	struct rcu_hlist_node *next = atomic_load_explicit(&old->next, memory_order_relaxed);
	atomic_store_explicit(&n->next, next, memory_order_relaxed);
	n->pprev = old->pprev;
	rcu_assign_pointer(*n->pprev, n); /* L1 */
	if (next)
		next->pprev = &n->next;
	old->pprev = RCU__LIST_POISON;
}

/** rcu_hlist_entry(ptr, type, member) - the entry holding node ptr. */
#define rcu_hlist_entry(ptr, type, member) rcu_container_of(ptr, type, member)
#define rcu__hlist_entry_or_null(ptr, type, member) \
	__extension__({ \
		struct rcu_hlist_node *rcu__p = (ptr); \
		rcu__p ? rcu_hlist_entry(rcu__p, type, member) : (type *)NULL; \
	})

/** rcu_hlist_for_each_entry(pos, head, member) - readers' walk, inside a read-side section. */
#define rcu_hlist_for_each_entry(pos, head, member) \
	for (pos = rcu__hlist_entry_or_null(rcu_dereference((head)->first), __typeof__(*(pos)), member); pos; \
	     pos = rcu__hlist_entry_or_null(rcu_dereference((pos)->member.next), __typeof__(*(pos)), member))

/** rcu_hlist_for_each_entry_locked(pos, head, member) - updaters' walk, under their lock. */
#define rcu_hlist_for_each_entry_locked(pos, head, member) \
	for (pos = rcu__hlist_entry_or_null(rcu_access_pointer((head)->first), __typeof__(*(pos)), member); pos; \
	     pos = rcu__hlist_entry_or_null(rcu_access_pointer((pos)->member.next), __typeof__(*(pos)), member))

/** rcu_hlist_for_each_entry_safe(pos, tmp, head, member) - updaters' walk that may delete pos. */
#define rcu_hlist_for_each_entry_safe(pos, tmp, head, member) \
	for (pos = rcu__hlist_entry_or_null(rcu_access_pointer((head)->first), __typeof__(*(pos)), member); \
	     pos && ((tmp = rcu__hlist_entry_or_null(rcu_access_pointer((pos)->member.next), __typeof__(*(pos)), member)), 1); \
	     pos = tmp)

/* >>debug ------------------------------------------------------------------------------------- */

/*
 * Misuse reports: one line naming the call, the thread and the rule, then abort(). The checks
 * themselves are RCU__CHECK() at the places they guard, and compile to nothing without RCU_DEBUG.
 */
static inline void rcu__thread_name(long tid, char *buf, size_t size)
{
	snprintf(buf, size, "?");
#if defined(__linux__)
	char path[64];
	snprintf(path, sizeof path, "/proc/self/task/%ld/comm", tid);
	FILE *f = fopen(path, "r");
	if (f) {
		if (fgets(buf, (int)size, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
#else
	(void)tid;
#endif
}

RCU__WEAK RCU__COLD void RCU__SYM(die)(const char *call, const char *rule)
{
	char name[32];
	long tid = rcu__gettid();
#if defined(__linux__)
	memset(name, 0, sizeof name);
	if (prctl(PR_GET_NAME, name, 0, 0, 0) != 0)
		snprintf(name, sizeof name, "?");
#else
	rcu__thread_name(tid, name, sizeof name);
#endif
	fprintf(stderr, "rcu.h: %s in thread %ld \"%s\": %s\n", call, tid, name, rule);
	fflush(stderr);
	abort();
}

/* The outermost rcu_read_lock() under RCU_DEBUG: is the thread a reader? where does it begin? */
RCU__WEAK void RCU__SYM(debug_enter)(struct rcu__reader *r, const char *file, int line)
{
#if defined(RCU_FLAVOUR_QSBR)
	RCU__CHECK(r->registered == 1, "rcu_read_lock()",
		"the thread is not registered: call rcu_register_thread() first, or grace periods will not wait for it");
	RCU__CHECK(atomic_load_explicit(&r->seq, memory_order_relaxed) != 0, "rcu_read_lock()",
		"the thread is offline: call rcu_thread_online() first, or grace periods will not wait for it");
#elif !defined(RCU_FLAVOUR_BP)
	RCU__CHECK(r->registered == 1, "rcu_read_lock()",
		"the thread is not registered: call rcu_register_thread() first, or grace periods will not wait for it");
#endif
#if defined(RCU_DEBUG)
	r->section_file = file;
	r->section_line = line;
	r->section_start_ns = rcu__now_ns();
#else
	(void)r;
	(void)file;
	(void)line;
#endif
}

/* RCU_STALL_TIMEOUT_MS: which readers hold grace period `target` up, printed once per stall. */
RCU__WEAK RCU__COLD void RCU__SYM(report_stall)(struct rcu__state *gp, uint64_t target, uint64_t waited_ns)
{
	uint64_t now = rcu__now_ns();
	(void)now;
	pthread_mutex_lock(&gp->registry_lock);
	fprintf(stderr, "rcu.h: stall: grace period %llu (" RCU__FNAME ") has waited %llu ms for:\n",
		(unsigned long long)target, (unsigned long long)(waited_ns / 1000000));
	for (struct rcu__reader *r = gp->readers; r; r = r->next) {
		uint64_t seq = atomic_load_explicit(&r->seq, memory_order_acquire);
		if (seq == 0 || seq >= target)
			continue;
		char name[32];
		rcu__thread_name(r->tid, name, sizeof name);
#if defined(RCU_DEBUG) && !defined(RCU_FLAVOUR_QSBR)
		if (r->section_file)
			fprintf(stderr, "rcu.h: stall:   thread %ld \"%s\", in a section begun at %s:%d %llu ms ago\n",
				r->tid, name, r->section_file, r->section_line,
				(unsigned long long)((now - r->section_start_ns) / 1000000));
		else
#endif
			fprintf(stderr, "rcu.h: stall:   thread %ld \"%s\", %s\n", r->tid, name,
#if defined(RCU_FLAVOUR_QSBR)
				"online without a quiescent state since the grace period began"
#else
				"in a read-side section begun before the grace period"
#endif
			);
	}
	pthread_mutex_unlock(&gp->registry_lock);
	fflush(stderr);
}

#if defined(RCU_DEBUG_DELAY)
/* Random delays in the racy windows: spin up to a few microseconds, now and then yield. */
RCU__WEAK void RCU__SYM(debug_delay)(void)
{
	static _Thread_local uint64_t state;
	if (!state)
		state = (uint64_t)rcu__gettid() * 0x9e3779b97f4a7c15u + rcu__now_ns();
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	unsigned spins = (unsigned)(state % 2048);
	if ((state >> 32) % 64 == 0)
		sched_yield();
	for (unsigned i = 0; i < spins; i++)
		rcu__cpu_relax();
}
#endif

#endif /* RCU_H */
