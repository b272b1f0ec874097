/* SPDX-License-Identifier: 0BSD */
/*
 * rcu.h: read-copy update for C and C++ programs, in one header.
 *
 * Contents (grep for the anchors)
 *   >>doc            what RCU is, how to include, configuration macros, flavours, licence
 *   >>config         the flavours (one block each: names and the properties the code asks),
 *                    configuration checks, the per-program configuration record
 *   >>portability    C and C++ (and the refusal of a second flavour), atomics, fences, cache
 *                    lines, TLS, clocks, the futex and membarrier system calls
 *   >>types          struct rcu_head, the reader record, the grace-period state, struct srcu_struct
 *   >>reader         read-side fast paths: the default domain (each flavour's sections, QSBR's
 *                    quiescent states) and SRCU domains
 *   >>pointers       publish / subscribe
 *   >>grace-period   set-up, registration, sleeping on a word (futex), QSBR's reports,
 *                    synchronize_rcu, polled grace periods, SRCU domains
 *   >>callbacks      call_rcu, rcu_free, rcu_barrier, call_srcu, srcu_barrier, the callback queue,
 *                    congestion (QSBR), the workers, statistics, SRCU domain clean-up, the exit
 *                    and fork() handlers
 *   >>lists          RCU doubly linked lists and hash lists
 *   >>debug          misuse reports, stall reports, split-state detection
 *   >>cxx            C++ only: reader guards (QSBR's check) and the C++26 <rcu> names, in
 *                    namespace rcu
 *   >>names          opt-in names of liburcu (RCU_LIBURCU_NAMES) and of the kernel (RCU_KERNEL_NAMES)
 *
 * >>doc
 *
 * What it is. Read-copy update lets readers traverse shared data with no locks, no atomic
 * read-modify-writes and no stores to shared lines, while updaters publish new versions with
 * rcu_assign_pointer() and reclaim old ones only after a grace period: synchronize_rcu() waits
 * until every reader that might hold a reference has left its read-side critical section, and
 * call_rcu() runs a function once that is so, without blocking the caller. Besides the default
 * domain, independent domains (the kernel's SRCU: struct srcu_struct) have grace periods of
 * their own, whose readers may sleep without delaying anybody else's.
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
 * C11 or later, or C++11 or later, with GCC or Clang (or a compiler with their __typeof__,
 * statement expressions, __atomic builtins and weak symbols), and POSIX threads. C and C++
 * translation units of one program share one state. RCU-protected pointers may be plain
 * (`struct foo *gp`, as in the kernel and liburcu) or, in C, `struct foo *_Atomic gp`, and in
 * C++ `std::atomic<struct foo *>`.
 *
 * Flavours
 *   RCU_FLAVOUR_MEMB  default on Linux. Readers: a compiler barrier only; grace periods issue
 *                     membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) to force the barriers readers
 *                     omit. If the kernel refuses membarrier, readers fall back at run time to one
 *                     fence per section (as MB). Threads must register.
 *   RCU_FLAVOUR_MB    default elsewhere. Readers: one full fence on entry, a release store on exit
 *                     (and a fence after it with RCU_MB_EXIT_FENCE). No membarrier (seccomp,
 *                     gVisor, other OSes); the fastest grace periods.
 *   RCU_FLAVOUR_QSBR  Readers: nothing at all. Registered threads are "online" (inside one long
 *                     read-side section) and report quiescent states with rcu_quiescent_state()
 *                     or go offline around blocking calls. For event loops and worker pools.
 *   RCU_FLAVOUR_BP    As MEMB, and threads register themselves on first use, so a library can
 *                     use RCU without its callers' cooperation.
 * SRCU domains work in every flavour, and their readers never need to register.
 *
 * Configuration macros. "Per program" means: every translation unit of the process that uses
 * the same flavour must agree, since they share state and slow-path code. Each translation unit
 * records its per-program settings when it is loaded; a unit that disagrees with one loaded
 * before it aborts the program at start-up (or at dlopen()) with a sentence that names the macro
 * and both values.
 *   RCU_FLAVOUR_QSBR / _MEMB / _MB / _BP   flavour; at most one (default MEMB on Linux, else MB).
 *                                          Per translation unit, but see above.
 *   RCU_DEBUG                    misuse aborts with a sentence naming the call, the thread and the
 *                                rule; adds a word to struct rcu_head; reports a split state (two
 *                                copies of a flavour's state in one process). Per program.
 *   RCU_DEBUG_DEREFERENCE        with RCU_DEBUG, rcu_dereference() outside a read-side section
 *                                aborts (use rcu_dereference_protected() under the update lock).
 *                                Per translation unit. Default off.
 *   RCU_DEBUG_DELAY              inserts random delays into the algorithm's racy windows so that
 *                                rare interleavings happen often (torture tests). Per program.
 *   RCU_NO_MEMBARRIER            MEMB/BP: never use membarrier; readers fence. Per program.
 *   RCU_NO_FUTEX                 sleep on a pthread condition variable instead of a futex (the
 *                                portable path, forced on Linux to test it). Per program.
 *   RCU_C11_FENCES               full fences are C11 atomic_thread_fence(memory_order_seq_cst)
 *                                and the spin-wait hint is no instruction, instead of inline asm:
 *                                the code a C11 model checker can read. Per program.
 *   RCU_SPIN_SCANS               the most looks at the readers' slots, one pause apart, that an
 *                                updater spends before it gives up the CPU (default 500; 0 sleeps
 *                                at once); each domain adapts its count down to a sixteenth of it
 *                                while the looks do not pay (>>grace-period). Per program.
 *   RCU_MB_EXIT_FENCE            MB: a reader also fences when it leaves its outermost section,
 *                                as liburcu's MB readers do, so that an updater that sleeps on
 *                                it is woken at once instead of rescanning every millisecond:
 *                                faster grace periods under read load, a slower read side
 *                                (docs/benchmarks.md). Per program.
 *   RCU_CALLBACK_HIGH_WATER      pending callbacks above which call_rcu() callers outside a
 *                                read-side section help reclaim (default 10000). Per program.
 *   RCU_STALL_TIMEOUT_MS         a grace period that waits longer prints which threads hold it up
 *                                (default 0: off). Per program.
 *   RCU_SRCU_NESTING             SRCU domains whose sections one thread may hold at the same time
 *                                (default 4; nesting within one domain is unlimited). Per program.
 *   RCU_FREE(p)                  what rcu_free() calls (default free(p)). Per program.
 *   RCU_TLS_MODEL                the thread-local model of the reader record (default
 *                                "initial-exec": cheap also in shared objects; use
 *                                "global-dynamic" for a plugin that dlopen cannot give static TLS;
 *                                the default in shared objects on C libraries other than glibc).
 *                                Per translation unit.
 *   RCU_CACHE_LINE               alignment of per-thread and shared hot words (default 64, 128 on
 *                                aarch64 and ppc64). Per program.
 *   RCU_NO_LINKONCE              emit the slow paths as plain weak functions, not in linkonce
 *                                sections (docs/linking.md): for units built with -flto in a
 *                                program that also has units built without it. Per translation
 *                                unit.
 *   RCU_MODEL_SELF(), RCU_NO_CONSTRUCTOR   for model checkers only (verify/genmc): the reader
 *                                record comes from the expression RCU_MODEL_SELF() instead of a
 *                                thread-local (and split-state detection is left out); set-up
 *                                happens at first use instead of at load. Per program.
 *   RCU_MODEL_MEMBARRIER(cmd)    for model checkers only: membarrier(2) is this expression (MEMB and
 *                                BP readers then omit their fence, as with the kernel's). Per program.
 *   RCU_LIBURCU_NAMES            also define liburcu's names (cds_list_*, cds_hlist_*,
 *                                urcu_<flavour>_*, caa_*, cmm_*, uatomic_*, defer_rcu), from
 *                                compat/liburcu/ beside rcu.h. Per translation unit.
 *   RCU_KERNEL_NAMES             also define the kernel's unprefixed names (struct list_head,
 *                                list_*_rcu, hlist_*_rcu, kfree_rcu, READ_ONCE, ...), from
 *                                compat/kernel/ beside rcu.h. Per translation unit.
 *
 * Licence: 0BSD. Permission to use, copy, modify, and/or distribute this software for any purpose
 * with or without fee is hereby granted. THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS
 * ALL WARRANTIES WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF MERCHANTABILITY
 * AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR ANY SPECIAL, DIRECT, INDIRECT, OR
 * CONSEQUENTIAL DAMAGES OR ANY DAMAGES WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS,
 * WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF OR IN
 * CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.
 */
/*
 * Included once per translation unit (RCU_H), except by compat/liburcu, which reads the file
 * again for each further flavour a liburcu program names in the same unit (urcu_mb_*() beside
 * urcu_qsbr_*()): it defines RCU__INSTANCE, renames every identifier of the flavour's code
 * (compat/liburcu/rcu_instance.h) and keeps this file's macros of the first reading. Each
 * `#if !defined(RCU__INSTANCE)` block below is what every flavour of a unit shares (the types, the
 * pointer macros, the lists, the C library's declarations) or what only the unit's own flavour has
 * (C++, the name layers).
 */
#if !defined(RCU_H) || defined(RCU__INSTANCE)
#if !defined(RCU__INSTANCE)
#define RCU_H
#elif !defined(RCU_H)
#error "rcu.h: RCU__INSTANCE is compat/liburcu's, after rcu.h was included once"
#endif

/* >>config ------------------------------------------------------------------------------------ */

/* No flavour defined: the platform's default. */
#if !defined(RCU_FLAVOUR_QSBR) && !defined(RCU_FLAVOUR_MEMB) && !defined(RCU_FLAVOUR_MB) && \
	!defined(RCU_FLAVOUR_BP)
#if defined(__linux__)
#define RCU_FLAVOUR_MEMB 1
#else
#define RCU_FLAVOUR_MB 1
#endif
#endif

/*
 * The flavours, one block each and nowhere else: the tag in external symbol names, the name
 * (RCU_FLAVOUR_NAME is public: "qsbr", "memb", "mb", "bp"), the code in the state's magic number,
 * and the properties the rest of the header asks instead of asking for a flavour:
 *   RCU__QSBR           readers report quiescent states: an online thread is inside one long
 *                       section, rcu_read_lock() stores nothing, the slot moves at each report.
 *                       The header's code for it is one block per section, each headed
 *                       "QSBR's delta" (the doc checks hold the list to the code).
 *   RCU__MEMB_READER    readers omit their fence while the kernel grants membarrier (R1, R3).
 *   RCU__SELF_REGISTER  a thread registers itself at its first section.
 *   RCU__EXIT_FENCE     readers fence after the store that ends a section (R3): MB with
 *                       RCU_MB_EXIT_FENCE.
 * MB has no code of its own: it is what the others change.
 * A second flavour defined in the same unit is refused below, in >>portability.
 */
#if defined(RCU_FLAVOUR_QSBR)
#define RCU__FTAG qsbr
#define RCU_FLAVOUR_NAME "qsbr"
#define RCU__FUPPER "QSBR"
#define RCU__FCODE 1
#define RCU__QSBR 1
#define RCU__MEMB_READER 0
#define RCU__SELF_REGISTER 0
#define RCU__EXIT_FENCE 0
#endif
#if defined(RCU_FLAVOUR_MEMB)
#if defined(RCU__FTAG)
#if !defined(RCU__FLAVOUR_AGAIN)
#define RCU__FLAVOUR_AGAIN "MEMB"
#endif
#else
#define RCU__FTAG memb
#define RCU_FLAVOUR_NAME "memb"
#define RCU__FUPPER "MEMB"
#define RCU__FCODE 2
#define RCU__QSBR 0
#define RCU__MEMB_READER 1
#define RCU__SELF_REGISTER 0
#define RCU__EXIT_FENCE 0
#endif
#endif
#if defined(RCU_FLAVOUR_MB)
#if defined(RCU__FTAG)
#if !defined(RCU__FLAVOUR_AGAIN)
#define RCU__FLAVOUR_AGAIN "MB"
#endif
#else
#define RCU__FTAG mb
#define RCU_FLAVOUR_NAME "mb"
#define RCU__FUPPER "MB"
#define RCU__FCODE 3
#define RCU__QSBR 0
#define RCU__MEMB_READER 0
#define RCU__SELF_REGISTER 0
#if defined(RCU_MB_EXIT_FENCE)
#define RCU__EXIT_FENCE 1
#else
#define RCU__EXIT_FENCE 0
#endif
#endif
#endif
#if defined(RCU_FLAVOUR_BP)
#if defined(RCU__FTAG)
#if !defined(RCU__FLAVOUR_AGAIN)
#define RCU__FLAVOUR_AGAIN "BP"
#endif
#else
#define RCU__FTAG bp
#define RCU_FLAVOUR_NAME "bp"
#define RCU__FUPPER "BP"
#define RCU__FCODE 4
#define RCU__QSBR 0
#define RCU__MEMB_READER 1
#define RCU__SELF_REGISTER 1
#define RCU__EXIT_FENCE 0
#endif
#endif

/*
 * External names: rcu__<flavour>_v<ABI>_<name>. The ABI number changes whenever the layout of the
 * shared state or the meaning of a slow path changes, so that objects built from two versions
 * of the header keep apart instead of sharing a state they disagree on.
 */
#define RCU__ABI 7
#define RCU__SYM3(f, v, n) rcu__##f##_v##v##_##n
#define RCU__SYM2(f, v, n) RCU__SYM3(f, v, n)
#define RCU__SYM(n) RCU__SYM2(RCU__FTAG, RCU__ABI, n)
#define RCU__STR2(x) #x
#define RCU__STR(x) RCU__STR2(x)

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
#ifndef RCU_SPIN_SCANS
#define RCU_SPIN_SCANS 500
#endif
#if RCU_SPIN_SCANS < 0
#error "rcu.h: RCU_SPIN_SCANS must be 0 or a positive number of scans"
#endif
#ifndef RCU_SRCU_NESTING
#define RCU_SRCU_NESTING 4
#endif
#if RCU_SRCU_NESTING < 1 || RCU_SRCU_NESTING > 64
#error "rcu.h: RCU_SRCU_NESTING must be between 1 and 64 (SRCU domains one thread may be inside at once)"
#endif
#ifndef RCU_FREE
#define RCU_FREE(p) free(p)
#endif
#ifndef RCU_CACHE_LINE
#if defined(__aarch64__) || defined(__powerpc64__)
#define RCU_CACHE_LINE 128
#else
#define RCU_CACHE_LINE 64
#endif
#endif
#if RCU_CACHE_LINE < 16 || (RCU_CACHE_LINE & (RCU_CACHE_LINE - 1)) != 0
#error "rcu.h: RCU_CACHE_LINE must be a power of two of at least 16 bytes"
#endif
#if defined(RCU_DEBUG_DEREFERENCE) && !defined(RCU_DEBUG)
#error "rcu.h: RCU_DEBUG_DEREFERENCE needs RCU_DEBUG"
#endif
#if !defined(__GNUC__)
#error "rcu.h: needs GCC or Clang (or a compiler with their __typeof__, statement expressions, __atomic builtins and weak symbols)"
#endif
#if defined(__cplusplus) && __cplusplus < 201103L
#error "rcu.h: C++ needs C++11 or later"
#endif

/*
 * The per-program settings of this translation unit, as one record: the constructor of every
 * unit hands its record to the process state, and the first unit loaded sets the reference that
 * the others must match (see RCU__SYM(check_config) in >>debug). The record's layout never
 * depends on the settings, so that any unit's copy of the check can read any unit's record.
 */
#if defined(RCU_DEBUG)
#define RCU__CFG_DEBUG 1
#else
#define RCU__CFG_DEBUG 0
#endif
#if defined(RCU_DEBUG_DELAY)
#define RCU__CFG_DEBUG_DELAY 1
#else
#define RCU__CFG_DEBUG_DELAY 0
#endif
#if defined(RCU_NO_MEMBARRIER)
#define RCU__CFG_NO_MEMBARRIER 1
#else
#define RCU__CFG_NO_MEMBARRIER 0
#endif
#if defined(RCU_NO_FUTEX)
#define RCU__CFG_NO_FUTEX 1
#else
#define RCU__CFG_NO_FUTEX 0
#endif
#if defined(RCU_C11_FENCES)
#define RCU__CFG_C11_FENCES 1
#else
#define RCU__CFG_C11_FENCES 0
#endif
#if defined(RCU_MB_EXIT_FENCE)
#define RCU__CFG_MB_EXIT_FENCE 1
#else
#define RCU__CFG_MB_EXIT_FENCE 0
#endif

/* POSIX declarations: ask for them if no system header has been read yet. */
#if defined(__linux__) && !defined(_FEATURES_H) && !defined(_DEFAULT_SOURCE) && \
	!defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE) && !defined(_XOPEN_SOURCE)
#define _DEFAULT_SOURCE 1
#endif

/* >>portability ------------------------------------------------------------------------------- */

#if !defined(__cplusplus)
#include <stdatomic.h> /* not used by rcu.h itself; C users of `T *_Atomic` pointers expect it */
#include <stdbool.h>
#endif
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
#if defined(__cplusplus)
#include <atomic>
#include <memory>
#include <new>
#include <utility>
#endif


/*
 * The reader record's TLS model (>>doc). A shared object on a C library other than glibc (musl)
 * gets global-dynamic: musl gives a dlopen()'d object no static TLS, so an initial-exec record
 * defined there fails to load ("initial-exec TLS resolves to dynamic definition").
 */
#ifndef RCU_TLS_MODEL
#if defined(__linux__) && !defined(__GLIBC__) && defined(__PIC__) && !defined(__PIE__)
#define RCU_TLS_MODEL "global-dynamic"
#else
#define RCU_TLS_MODEL "initial-exec"
#endif
#endif

/* C and C++ spell a few things differently; the header uses these. */
#if defined(__cplusplus)
#define RCU__THREAD_LOCAL thread_local
#define RCU__ALIGNAS(n) alignas(n)
#define RCU__ALIGNOF(T) alignof(T)
#define RCU__STATIC_ASSERT(c, m) static_assert(c, m)
#define RCU__NOEXCEPT noexcept
#define RCU__CAST(T, v) reinterpret_cast<T>(v)
#define RCU__EXTERN_C_BEGIN extern "C" {
#define RCU__EXTERN_C_END }
#else
#define RCU__THREAD_LOCAL _Thread_local
#define RCU__ALIGNAS(n) _Alignas(n)
#define RCU__ALIGNOF(T) _Alignof(T)
#define RCU__STATIC_ASSERT(c, m) _Static_assert(c, m)
#define RCU__NOEXCEPT
#define RCU__CAST(T, v) ((T)(v))
#define RCU__EXTERN_C_BEGIN
#define RCU__EXTERN_C_END
#endif
/* Two flavours in one unit (>>config kept the first of its list). */
#if defined(RCU__FLAVOUR_AGAIN)
RCU__STATIC_ASSERT(0, "rcu.h: define at most one of RCU_FLAVOUR_QSBR, _MEMB, _MB, _BP (got " RCU__FUPPER " and " RCU__FLAVOUR_AGAIN ")");
#endif

RCU__EXTERN_C_BEGIN

/*
 * The C library calls that strict modes hide. Once a system header has been read the feature
 * macros are fixed, and rcu.h can no longer ask for POSIX: -std=c11 with <stdio.h> first gives
 * none of it, while -pthread (its _REENTRANT makes glibc set _POSIX_C_SOURCE 199506L) or an old
 * _POSIX_C_SOURCE or _XOPEN_SOURCE gives a part. So on Linux rcu.h declares what it calls under
 * names of its own bound to the C library's symbols (rcu__sys_readlink() is readlink(), and so
 * on), with the kernel's constants and a signal set of sigset_t's size (128 bytes in glibc and
 * musl), in every mode: one code path whatever the user's macros. The clock and sleep calls too,
 * where long has 64 bits; a 32-bit target may redirect them to its 64-bit-time symbols (glibc's
 * _TIME_BITS=64, musl), so there rcu.h takes the system's declarations, as it does on other
 * systems, and stops with an #error that names the fix when the feature macros hide them.
 */
#if defined(__linux__)
#define RCU__OWN_POSIX 1
#else
#define RCU__OWN_POSIX 0
#endif
#if defined(__linux__) && __SIZEOF_LONG__ == 8
#define RCU__OWN_TIME 1
#else
#define RCU__OWN_TIME 0
#endif
#if (!RCU__OWN_TIME && !defined(CLOCK_MONOTONIC)) || (!RCU__OWN_POSIX && !defined(SIG_SETMASK)) || \
	(!RCU__OWN_POSIX && defined(__GLIBC__) && !defined(__USE_POSIX199506))
#error "rcu.h: needs POSIX declarations that the feature macros hide here: include rcu.h before other headers, or compile with -D_DEFAULT_SOURCE (or _GNU_SOURCE, or _POSIX_C_SOURCE=200809L)"
#endif
#if RCU__OWN_POSIX
#if !defined(RCU__INSTANCE) /* the C library's, one declaration for every flavour */
extern long rcu__sys_syscall(long number, ...) RCU__NOEXCEPT __asm__("syscall");
extern ssize_t rcu__sys_readlink(const char *path, char *buf, size_t size) RCU__NOEXCEPT __asm__("readlink");
struct rcu__sigset {
	unsigned long word[128 / sizeof(unsigned long)];
};
extern int rcu__sys_sigfillset(struct rcu__sigset *set) RCU__NOEXCEPT __asm__("sigfillset");
extern int rcu__sys_pthread_sigmask(int how, const struct rcu__sigset *set, struct rcu__sigset *old) RCU__NOEXCEPT
	__asm__("pthread_sigmask");
#endif
#define rcu__sigset_t struct rcu__sigset
#define rcu__sigfillset rcu__sys_sigfillset
#define rcu__pthread_sigmask rcu__sys_pthread_sigmask
#if defined(__mips__) || defined(__alpha__)
#define RCU__SIG_SETMASK 3
#elif defined(__sparc__)
#define RCU__SIG_SETMASK 4
#else
#define RCU__SIG_SETMASK 2 /* the kernel's generic value: x86, Arm, RISC-V, POWER, s390, ... */
#endif
#else
#define rcu__sigset_t sigset_t
#define rcu__sigfillset sigfillset
#define rcu__pthread_sigmask pthread_sigmask
#define RCU__SIG_SETMASK SIG_SETMASK
#endif
#if RCU__OWN_TIME
#if !defined(RCU__INSTANCE) /* the C library's, one declaration for every flavour */
extern int rcu__sys_clock_gettime(int clock, struct timespec *ts) RCU__NOEXCEPT __asm__("clock_gettime");
extern int rcu__sys_nanosleep(const struct timespec *ts, struct timespec *rem) RCU__NOEXCEPT __asm__("nanosleep");
#endif
#define rcu__clock_gettime rcu__sys_clock_gettime
#define rcu__nanosleep rcu__sys_nanosleep
#define RCU__CLOCK_REALTIME 0
#define RCU__CLOCK_MONOTONIC 1
#else
#define rcu__clock_gettime clock_gettime
#define rcu__nanosleep nanosleep
#define RCU__CLOCK_REALTIME CLOCK_REALTIME
#define RCU__CLOCK_MONOTONIC CLOCK_MONOTONIC
#endif
/* Where the system's constants are visible, they must be rcu.h's. */
#if (defined(SIG_SETMASK) && SIG_SETMASK != RCU__SIG_SETMASK) || \
	(RCU__OWN_TIME && defined(CLOCK_MONOTONIC) && (CLOCK_MONOTONIC != 1 || CLOCK_REALTIME != 0))
#error "rcu.h: this system's SIG_SETMASK or CLOCK_MONOTONIC differs from rcu.h's (>>portability): please report it"
#endif

#define RCU__LIKELY(x) __builtin_expect(!!(x), 1)
#define RCU__UNLIKELY(x) __builtin_expect(!!(x), 0)
#define RCU__WEAK __attribute__((weak, visibility("default")))
/*
 * Slow paths and the process-wide objects are defined in every translation unit that includes
 * rcu.h, as weak symbols named by RCU__SYM: the static linker keeps one definition of each per
 * executable or shared object. That alone would keep every unit's copy of the code, unused, in
 * the program. On ELF each definition also gets a section of its own, named after its symbol:
 * RCU__SLOW(name) (a function: .gnu.linkonce.t.<symbol>) or RCU__ONCE(kind, name) (data: d,
 * initialised; b, zeroed; tb, thread-local and zeroed). GNU ld and gold keep the first section of
 * each such name and discard the others, so a program carries the slow paths once however many
 * units include rcu.h (docs/linking.md, "Code size"; test/size); lld keeps every copy. The kept
 * copy may call only other slow paths and helpers that are always inlined (RCU__INLINE): a static
 * function left out of line would stay in every unit, and the kept copy would call its own.
 * RCU_NO_LINKONCE leaves the sections out (plain weak symbols): for units built with -flto in a
 * program that also links units built without it, where GNU ld and gold keep one unit's section
 * and bind the symbol to the other's (the link fails; docs/linking.md).
 */
#if defined(__ELF__) && !defined(RCU_NO_LINKONCE)
#define RCU__ONCE(kind, name) \
	RCU__WEAK __attribute__((section(".gnu.linkonce." #kind "." RCU__STR(RCU__SYM(name)))))
#else
#define RCU__ONCE(kind, name) RCU__WEAK
#endif
#define RCU__SLOW(name) RCU__ONCE(t, name)
#define RCU__NOINLINE __attribute__((noinline))
/* rcu.h's own helpers (rcu__ names): always inlined, at -O0 too, so that a slow path's one kept
 * copy calls no function that every unit keeps a copy of (see RCU__SLOW above). */
#define RCU__INLINE static inline __attribute__((always_inline))
#define RCU__COLD __attribute__((cold, noinline))
#define RCU__UNUSED __attribute__((unused))
#define RCU__LINE_ALIGNED __attribute__((aligned(RCU_CACHE_LINE))) /* after a declarator */

#if defined(__SANITIZE_THREAD__)
#define RCU__TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RCU__TSAN 1
#endif
#endif

/*
 * Atomics: GCC's __atomic builtins on plain fields, so that C and C++ translation units share one
 * layout and one state (C++ before C++23 has no _Atomic), and every access names its order.
 * A field that more than one thread touches is accessed only through these.
 */
#define RCU__RELAXED __ATOMIC_RELAXED
#define RCU__CONSUME __ATOMIC_CONSUME
#define RCU__ACQUIRE __ATOMIC_ACQUIRE
#define RCU__RELEASE __ATOMIC_RELEASE
#define RCU__ACQ_REL __ATOMIC_ACQ_REL
#define RCU__SEQ_CST __ATOMIC_SEQ_CST
#define rcu__load(p, mo) __atomic_load_n((p), mo)
#define rcu__store(p, v, mo) __atomic_store_n((p), (v), mo)
#define rcu__xchg(p, v, mo) __atomic_exchange_n((p), (v), mo)
#define rcu__fetch_add(p, v, mo) __atomic_fetch_add((p), (v), mo)
#define rcu__fetch_sub(p, v, mo) __atomic_fetch_sub((p), (v), mo)
#define rcu__fetch_and(p, v, mo) __atomic_fetch_and((p), (v), mo)
#define rcu__cas(p, expected, v, ok_mo, fail_mo) \
	__atomic_compare_exchange_n((p), (expected), (v), false, ok_mo, fail_mo)
#define rcu__cas_weak(p, expected, v, ok_mo, fail_mo) \
	__atomic_compare_exchange_n((p), (expected), (v), true, ok_mo, fail_mo)

/*
 * A full fence. Under ThreadSanitizer it stays a real fence that TSan does not see (inline asm):
 * TSan does not model fences, and we do not want it to guess. So in a TSan build every
 * happens-before edge must come from one of the explicit release/acquire pairs of
 * docs/ordering.md (R2/G2, Q1/G2, publish/subscribe, ...), and the suite under TSan checks just
 * that. Where there is no asm fence below, a TSan build falls back to a seq_cst read-modify-write
 * on one word, which TSan does see and which orders more than a fence does. RCU_C11_FENCES
 * selects the C11 fence everywhere (what a model checker of C11 programs can interpret).
 */
#if defined(RCU_C11_FENCES)
#define rcu__fence_full() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#elif defined(__x86_64__)
/* A locked no-op on the stack: a full barrier on x86, and cheaper than the mfence clang emits. */
#define rcu__fence_full() __asm__ __volatile__("lock; orq $0, (%%rsp)" ::: "memory", "cc")
#elif defined(__i386__)
#define rcu__fence_full() __asm__ __volatile__("lock; orl $0, (%%esp)" ::: "memory", "cc")
#elif defined(RCU__TSAN) && defined(__aarch64__)
#define rcu__fence_full() __asm__ __volatile__("dmb ish" ::: "memory")
#elif defined(RCU__TSAN)
static int rcu__tsan_fence_word RCU__UNUSED;
#define rcu__fence_full() ((void)__atomic_fetch_add(&rcu__tsan_fence_word, 0, __ATOMIC_SEQ_CST))
#else
#define rcu__fence_full() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif
/*
 * A compiler barrier: orders this thread's accesses for the compiler only and emits nothing.
 * An empty asm with a memory clobber rather than atomic_signal_fence(), which some model
 * checkers take for a full fence (and would then prove a stronger program than the one shipped).
 */
#define rcu__fence_compiler() __asm__ __volatile__("" ::: "memory")
/*
 * A release fence: the accesses before it before the stores after it, for a thread that
 * acquires one of those stores. A compiler barrier on x86, `dmb ish` on Arm, `lwsync` on POWER.
 * TSan does not model fences (GCC warns that it ignores them): under TSan it is a compiler
 * barrier; S2 orders atomics only, and F3 orders for a fork child, which TSan does not check.
 */
#if defined(RCU__TSAN) && !defined(RCU_C11_FENCES)
#define rcu__fence_release() rcu__fence_compiler()
#else
#define rcu__fence_release() __atomic_thread_fence(__ATOMIC_RELEASE)
#endif

RCU__INLINE void rcu__cpu_relax(void)
{
#if defined(RCU_C11_FENCES)
	rcu__fence_compiler();
#elif defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	rcu__fence_compiler();
#endif
}

#define RCU__NS_PER_S 1000000000
#define RCU__NS_PER_MS 1000000

RCU__INLINE uint64_t rcu__now_ns(void)
{
	struct timespec ts;
	rcu__clock_gettime(RCU__CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * RCU__NS_PER_S + (uint64_t)ts.tv_nsec;
}

RCU__INLINE long rcu__gettid(void)
{
#if defined(__linux__)
	return rcu__sys_syscall(SYS_gettid);
#else
	return (long)getpid();
#endif
}

/* membarrier(2): the commands we use, spelled out so that old kernel headers do not matter. */
#define RCU__MEMBARRIER_CMD_PRIVATE_EXPEDITED (1 << 3)
#define RCU__MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED (1 << 4)
#if defined(RCU_MODEL_MEMBARRIER)
#define RCU__HAVE_MEMBARRIER 1
RCU__INLINE int rcu__membarrier(int cmd)
{
	return RCU_MODEL_MEMBARRIER(cmd);
}
#elif defined(__linux__) && defined(SYS_membarrier) && !defined(RCU_NO_MEMBARRIER)
#define RCU__HAVE_MEMBARRIER 1
RCU__INLINE int rcu__membarrier(int cmd)
{
	return (int)rcu__sys_syscall(SYS_membarrier, cmd, 0, 0);
}
#else
#define RCU__HAVE_MEMBARRIER 0
#endif

/*
 * futex(2), for sleeping on a word (rcu__word_wait() in >>grace-period), with its constants
 * spelled out (FUTEX_WAIT and FUTEX_WAKE with FUTEX_PRIVATE_FLAG), so that no kernel header is
 * needed (musl ships none).
 */
#if defined(__linux__) && defined(SYS_futex) && !defined(RCU_NO_FUTEX)
#define RCU__HAVE_FUTEX 1
#define RCU__FUTEX_WAIT_PRIVATE (0 | 128)
#define RCU__FUTEX_WAKE_PRIVATE (1 | 128)
#else
#define RCU__HAVE_FUTEX 0
#endif

/* >>types ------------------------------------------------------------------------------------- */

/* The types, down to the static assertions, are every flavour's: their layout depends on no
 * flavour, and a unit with several (compat/liburcu) defines each once, so that a flavour's
 * symbols have one type in every unit (C++'s one-definition rule: the compile suite links such
 * units with -flto -Wodr -Werror, compat-flavour-units-lto-*). */
#if !defined(RCU__INSTANCE)
/**
 * struct rcu_head - embed one in an object to hand it to call_rcu(), call_srcu() or rcu_free().
 *
 * The head belongs to RCU from the call until its callback starts; the callback may then free
 * the object or queue the head again. 16 bytes on 64-bit machines (24 with RCU_DEBUG).
 */
struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
#if defined(RCU_DEBUG)
	uint64_t debug_state; /* RCU__HEAD_QUEUED while queued: catches a double call_rcu() */
#endif
};

/**
 * struct rcu_stats - counters a user can read cheaply with rcu_get_stats() or srcu_get_stats().
 *
 * callbacks_pending_max is the highest pending count seen by call_rcu() callers.
 */
struct rcu_stats {
	uint64_t grace_periods;        /* grace periods completed since the domain was set up */
	uint64_t callbacks_queued;     /* call_rcu() and rcu_free() calls */
	uint64_t callbacks_invoked;    /* callbacks that have returned */
	uint64_t callbacks_pending;    /* queued - invoked */
	uint64_t callbacks_pending_max;
};

/* Named states. Fields that hold them are integers (they are read and written atomically). */
enum rcu__reg_state {
	RCU__REG_NONE = 0, /* not in the registry */
	RCU__REG_THREAD,   /* registered by the thread (rcu_register_thread(), BP's first section) */
	RCU__REG_ADOPTED   /* in the registry without rcu_register_thread(): linked by its first
			      call_rcu() or SRCU section, so that grace periods and a fork child
			      can see its records, or (C++, MEMB/MB) by its first reader guard,
			      whose sections grace periods then wait for (>>cxx) */
};
enum rcu__init_state {
	RCU__INIT_NONE = 0, /* all zero, as loaded */
	RCU__INIT_RUNNING,  /* one thread is setting it up; others wait */
	RCU__INIT_READY
};
enum rcu__worker_state {
	RCU__WORKER_NONE = 0, /* no worker thread (never started, or forgotten in a fork child) */
	RCU__WORKER_STARTED
};
enum rcu__worker_sleep {       /* worker_sleeping */
	RCU__WORKER_AWAKE = 0,
	RCU__WORKER_ASLEEP = 1,    /* waits for work: an enqueue wakes it (W1, C5) */
	RCU__WORKER_GATHERING = 2  /* lets callbacks gather after a batch (rcu__worker_gather()) */
};
enum rcu__gp_kind {
	RCU__GP_DEFAULT = 0, /* the default domain: readers are rcu_read_lock() sections */
	RCU__GP_SRCU         /* an SRCU domain: readers are srcu_read_lock() sections */
};
enum rcu__futex_state {
	RCU__FUTEX_IDLE = 0,
	RCU__FUTEX_ARMED = -1 /* an updater sleeps until a reader leaves */
};

struct rcu__gp;
struct rcu__state;

/*
 * One thread's section of one SRCU domain: the same protocol as the reader record's `seq`, tagged
 * with the domain it serves. A thread has RCU_SRCU_NESTING of them in its reader record.
 */
struct rcu__srcu_slot {
	RCU__ALIGNAS(32) struct rcu__gp *gp; /* (atomic) the domain; owner writes it before seq,
						updaters read. 32-byte slots: the index is a shift */
	uint64_t seq;       /* (atomic) 0 outside a section, else the domain's gp_seq at entry */
	uint32_t nesting;   /* owner only: sections nested inside the outermost one */
#if defined(RCU_DEBUG)
	const char *section_file; /* where the outermost section began (stall reports) */
	int section_line;
	uint64_t section_start_ns;
#endif
};

/*
 * The reader record: one per thread, in thread-local storage, cache-line aligned. `seq` is the
 * slot that default-domain grace periods read: 0 outside a section (QSBR: offline), otherwise the
 * grace-period sequence number the thread saw when its outermost section began (QSBR: at its
 * last quiescent state). `srcu` are its slots for SRCU domains. Everything else is the owner's,
 * or the registry's under its lock.
 */
struct rcu__reader {
	RCU__ALIGNAS(RCU_CACHE_LINE) uint64_t seq; /* (atomic) */
	uint32_t nesting;           /* owner only: sections nested inside the outermost one (QSBR,
				       RCU_DEBUG only: the depth of rcu_read_lock()) */
	uint8_t registered;         /* enum rcu__reg_state; owner writes, under the registry lock */
	uint8_t in_callback;        /* owner only: invoking RCU callbacks */
	struct rcu__reader *next;   /* (atomic) registry list, written under the registry lock */
	struct rcu__reader *prev;
	struct rcu__state *owner;   /* the state whose registry holds it */
	long tid;
	struct rcu_head *enq_node;  /* owner only: call_rcu() between its swap and its link, */
	struct rcu_head *enq_prev;  /* for a fork child to mend the link (see >>callbacks), */
	struct rcu__gp *enq_gp;     /* and the domain whose queue it is */
#if defined(RCU_DEBUG)
	const char *section_file;   /* where the outermost section began (stall reports) */
	int section_line;
	uint64_t section_start_ns;
#endif
	struct rcu__srcu_slot srcu[RCU_SRCU_NESTING];
};

/*
 * The callback queue: a wait-free multi-producer queue. A producer swaps itself into `tail` and
 * then links the previous tail to itself; the single consumer (whoever holds cb_consumer) takes
 * the whole chain at once. `stub` is the permanent first node. The paddings keep the producers'
 * line apart from the consumer's without asking for alignment (domains are embedded in users'
 * objects and allocated by them).
 */
struct rcu__cbq {
	struct rcu_head *tail;      /* (atomic) */
	uint64_t queued;            /* (atomic) on the producers' line: the swap already owns it */
	char pad_producers[RCU_CACHE_LINE];
	struct rcu_head stub;
	uint64_t invoked;           /* (atomic) written once per batch by the consumer */
	uint64_t pending_max;       /* (atomic) */
	char pad_consumer[RCU_CACHE_LINE];
};

/*
 * A domain's grace-period machinery: the default domain's (inside struct rcu__state) and each
 * SRCU domain's (inside struct srcu_struct). Every slow path takes a pointer to one. Readers
 * touch only the first group of fields.
 *
 * Layout, for concurrent updaters: the updaters' group begins two cache lines after the readers',
 * so that the two never share a line however the domain is aligned (no alignment is asked of it: users
 * embed SRCU domains in their own objects). The updaters' first five fields are what concurrent
 * synchronize_rcu() callers all touch: in a line-aligned domain (the default domain, and those that
 * DEFINE_SRCU() defines) they fill one line. Split across two lines, concurrent updates cost 1.5
 * to 2 times as much (docs/benchmarks.md, "Where a domain falls in memory").
 */
struct rcu__gp {
	/* Read by every reader of the domain. */
	uint64_t gp_seq;            /* (atomic) the last grace period started; from 1 */
	int32_t gp_futex;           /* (atomic) enum rcu__futex_state */
	int32_t use_membarrier;     /* (atomic) MEMB/BP: membarrier is registered; readers skip fences */
	int32_t kind;               /* enum rcu__gp_kind, fixed at set-up */
	char pad_readers[2 * RCU_CACHE_LINE - sizeof(uint64_t) - 3 * sizeof(int32_t)]; /* to gp_completed: two lines */

	/* Updaters: first what every concurrent synchronize_rcu() caller touches. */
	uint64_t gp_completed;      /* (atomic) the last grace period completed */
	uint64_t gp_count;          /* (atomic) grace periods run (statistics) */
	int32_t gp_done_word;       /* (atomic) completions in twos, and RCU__DONE_WAITERS: callers sleep on it */
	pthread_mutex_t gp_lock;    /* one grace period at a time */
	uint64_t gp_requested;      /* (atomic) the highest cookie start_poll_*() asked for */
	int32_t init_state;         /* (atomic) enum rcu__init_state */
	int32_t on_worklist;        /* (atomic) SRCU: on the domains' worker's list */
	uint32_t spin_budget;       /* gp_lock's holder only: the looks a grace period spends on its
				       readers before it gives up the CPU (RCU__SPIN_MIN) */
	struct rcu__state *owner;   /* the process's state: registry, workers, fork handling */
	const char *name;           /* for reports: "rcu", or the SRCU domain's name */
	struct rcu__gp *live_next;  /* SRCU: the process's live domains, under domains_lock */
	struct rcu__gp *live_prev;
	struct rcu__gp *work_next;  /* SRCU: the domains' worker's list, under domains_lock */
	uint64_t poll_target;       /* SRCU worker, under gp_lock: the grace period its steps wait for, */
	uint64_t poll_start_ns;     /* since when (stall reports, RCU_STALL_TIMEOUT_MS), */
	int32_t poll_reported;      /* and whether that stall was reported */

	/* Callbacks. */
	struct rcu__cbq cbq;
	pthread_mutex_t cb_consumer;  /* held while taking, waiting for and invoking a batch */
	struct rcu_head *batch_first; /* (atomic) the taken batch's first callback not yet started */
	struct rcu_head *batch_last;  /* (atomic) its last; NULL when no batch is taken */
	uint64_t batch_cookie;        /* the grace period the taken batch waits for */
};

/**
 * struct srcu_struct - an SRCU domain: grace periods of its own, for its own readers.
 *
 * Define one with DEFINE_SRCU(name) or DEFINE_STATIC_SRCU(name) (set up on first use), or
 * embed one and call init_srcu_struct() before use and cleanup_srcu_struct() after. No alignment
 * is asked of it (DEFINE_SRCU() line-aligns what it defines); it is about 8 cache lines, 528 bytes
 * on x86-64. See >>grace-period for the API.
 */
struct srcu_struct {
	struct rcu__gp gp;          /* first: DEFINE_SRCU() line-aligns the domain (struct rcu__gp) */
	const char *name;           /* for reports: DEFINE_SRCU's name or init_srcu_struct()'s argument */
#if defined(__cplusplus)
	constexpr srcu_struct() noexcept : gp(), name(nullptr) {}
	constexpr explicit srcu_struct(const char *n) noexcept : gp(), name(n) {}
	srcu_struct(const srcu_struct &) = delete;
	srcu_struct &operator=(const srcu_struct &) = delete;
#endif
};

/*
 * A translation unit's per-program settings (see >>config). Fixed layout.
 */
struct rcu__config {
	const char *unit;           /* the translation unit's main file */
	int32_t debug, debug_delay, no_membarrier, no_futex, c11_fences, cache_line, srcu_nesting, mb_exit_fence;
	int64_t callback_high_water, stall_timeout_ms, spin_scans;
	const char *free_call;      /* RCU_FREE(p), as text */
};

/*
 * The process-wide state of one flavour: the default domain, the reader registry, the workers.
 * `magic` and `self` come first and are its only statically initialised fields; init() sets up
 * the rest. A copy of the state is "live" when `self` points at itself: in an object whose
 * reference to the state the dynamic linker bound to another object's copy, `self` points there.
 */
struct rcu__state {
	uint64_t magic;
	struct rcu__state *self;
	RCU__ALIGNAS(RCU_CACHE_LINE) struct rcu__gp gp; /* the default domain, line-aligned (struct rcu__gp) */

	pthread_mutex_t registry_lock;
	struct rcu__reader *readers;  /* (atomic) registered and adopted threads, written under registry_lock */
	int32_t init_state;         /* (atomic) enum rcu__init_state */
	int32_t atfork_state;       /* (atomic) enum rcu__init_state of the fork handlers */
	pthread_key_t exit_key;     /* its destructor unregisters exiting threads */
	pthread_mutex_t word_lock;  /* the portable sleep (no futex) */
	pthread_mutex_t take_lock;  /* a batch's detach from its queue and its record (fork(): >>callbacks) */
	pthread_cond_t word_cond;
	const struct rcu__config *config; /* (atomic) the settings of the first unit loaded */
	int32_t exiting;            /* (atomic) process exit began: workers invoke nothing more */
	char pad_registry[RCU_CACHE_LINE];

	/* The default domain's callback worker. */
	int32_t worker_sleeping;    /* (atomic) enum rcu__worker_sleep */
	int32_t worker_state;       /* (atomic) enum rcu__worker_state */
	int32_t invoking;           /* (atomic) the worker is between callbacks of a batch */
	char pad_worker[RCU_CACHE_LINE];

	/* SRCU domains and their worker. */
	pthread_mutex_t domains_lock;
	struct rcu__gp *domains;    /* live SRCU domains, under domains_lock */
	struct rcu__gp *work;       /* domains with callbacks or requested grace periods */
	int32_t srcu_word;          /* (atomic) bumped to wake the domains' worker */
	int32_t srcu_sleeping;      /* (atomic) */
	int32_t srcu_worker_state;  /* (atomic) enum rcu__worker_state */
	int32_t srcu_invoking;      /* (atomic) as `invoking`, for the domains' worker */
};

RCU__STATIC_ASSERT(offsetof(struct rcu__gp, gp_completed) == 2 * RCU_CACHE_LINE,
		   "rcu.h: the updaters' group starts two cache lines into struct rcu__gp");
RCU__STATIC_ASSERT(offsetof(struct rcu__state, gp) % RCU_CACHE_LINE == 0 &&
		   offsetof(struct srcu_struct, gp) == 0,
		   "rcu.h: the default domain and DEFINE_SRCU()'s domains begin on a cache line");
RCU__STATIC_ASSERT(RCU__ALIGNOF(struct srcu_struct) <= RCU__ALIGNOF(max_align_t),
		   "rcu.h: struct srcu_struct asks for no more alignment than malloc() gives");

#endif /* !RCU__INSTANCE */

/* The flavour's code (>>config) is in the magic number, so that only copies of this flavour's
 * state are taken for one another. */
#define RCU__STATE_MAGIC (0x7263752e68000000ull | ((uint64_t)RCU__FCODE << 16) | (uint64_t)RCU__ABI)

/* The process-wide objects: weak, default visibility, one copy per process and flavour. */
extern struct rcu__state RCU__SYM(state);
#if defined(__cplusplus)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
RCU__ONCE(d, state) struct rcu__state RCU__SYM(state) = { RCU__STATE_MAGIC, &RCU__SYM(state) };
#pragma GCC diagnostic pop
#else
RCU__ONCE(d, state) struct rcu__state RCU__SYM(state) = { .magic = RCU__STATE_MAGIC, .self = &RCU__SYM(state) };
#endif

/* This translation unit's per-program settings. */
static const struct rcu__config rcu__unit_config RCU__UNUSED = {
	__BASE_FILE__, RCU__CFG_DEBUG, RCU__CFG_DEBUG_DELAY, RCU__CFG_NO_MEMBARRIER,
	RCU__CFG_NO_FUTEX, RCU__CFG_C11_FENCES, RCU_CACHE_LINE, RCU_SRCU_NESTING, RCU__CFG_MB_EXIT_FENCE,
	RCU_CALLBACK_HIGH_WATER, RCU_STALL_TIMEOUT_MS, RCU_SPIN_SCANS, RCU__STR(RCU_FREE(p))
};

#define RCU__STATE (&RCU__SYM(state))
#define RCU__GP (&RCU__SYM(state).gp)

/*
 * The calling thread's reader record. RCU_MODEL_SELF(), for model checking only (verify/genmc),
 * is an expression that gives it in place of the thread-local, which then does not exist: a
 * model checker's thread-locals may not be readable by other threads (the updater reads every
 * reader's record).
 */
#if defined(RCU_MODEL_SELF)
RCU__INLINE struct rcu__reader *rcu__self(void)
{
	return RCU_MODEL_SELF();
}
#else
extern RCU__THREAD_LOCAL struct rcu__reader RCU__SYM(reader);
RCU__ONCE(tb, reader) RCU__THREAD_LOCAL struct rcu__reader RCU__SYM(reader) __attribute__((tls_model(RCU_TLS_MODEL)));

RCU__INLINE struct rcu__reader *rcu__self(void)
{
	struct rcu__reader *r = &RCU__SYM(reader);
#if defined(__SANITIZE_ADDRESS__) || defined(RCU__TSAN)
	/* GCC's -fsanitize=null misjudges the address of a weak thread-local as null: hide it. */
	__asm__("" : "+r"(r));
#endif
	return r;
}
#endif

/* Slow paths: weak functions, so that one copy serves every translation unit. All of them: */
struct rcu__dl_info;
void RCU__SYM(check_config)(struct rcu__state *s, const struct rcu__config *cfg);
void RCU__SYM(init)(struct rcu__state *s);
void RCU__SYM(gp_setup)(struct rcu__gp *gp, struct rcu__state *owner, int kind, const char *name);
void *RCU__SYM(worker_main)(void *arg);
void *RCU__SYM(srcu_worker_main)(void *arg);
void RCU__SYM(at_exit)(void);
bool RCU__SYM(start_worker)(struct rcu__gp *gp);
void RCU__SYM(config_mismatch)(const char *macro, const char *mine, const char *unit, const char *theirs,
			       const char *their_unit);
void RCU__SYM(register)(struct rcu__state *s, struct rcu__reader *r);
void RCU__SYM(unregister)(struct rcu__state *s, struct rcu__reader *r);
void RCU__SYM(adopt)(struct rcu__state *s, struct rcu__reader *r);
void RCU__SYM(wake_gp)(struct rcu__gp *gp);
void RCU__SYM(qsbr_report)(struct rcu__gp *gp, struct rcu__reader *r, uint64_t seq);
void RCU__SYM(synchronize)(struct rcu__gp *gp);
void RCU__SYM(wait_readers)(struct rcu__gp *gp, uint64_t target);
void RCU__SYM(gp_wait_for)(struct rcu__gp *gp, uint64_t target);
void RCU__SYM(gp_share)(struct rcu__gp *gp, uint64_t target);
bool RCU__SYM(gp_poll)(struct rcu__gp *gp, uint64_t target);
uint64_t RCU__SYM(snapshot)(struct rcu__gp *gp);
uint64_t RCU__SYM(start_poll)(struct rcu__gp *gp);
void RCU__SYM(cond_synchronize)(struct rcu__gp *gp, uint64_t cookie);
void RCU__SYM(call)(struct rcu__gp *gp, struct rcu_head *head, void (*func)(struct rcu_head *));
void RCU__SYM(free)(struct rcu__gp *gp, struct rcu_head *head, size_t offset);
void RCU__SYM(barrier)(struct rcu__gp *gp);
void RCU__SYM(stats)(struct rcu__gp *gp, struct rcu_stats *out);
int RCU__SYM(srcu_lock_slow)(struct rcu__gp *gp, struct rcu__reader *r, const char *file, int line);
void RCU__SYM(srcu_init)(struct srcu_struct *ssp);
void RCU__SYM(srcu_cleanup)(struct srcu_struct *ssp);
RCU__COLD __attribute__((noreturn)) void RCU__SYM(die)(const char *call, const char *rule);
void RCU__SYM(debug_delay)(void);
void RCU__SYM(debug_enter)(struct rcu__reader *r, const char *file, int line);
void RCU__SYM(srcu_kick)(struct rcu__state *s);
bool RCU__SYM(over_high_water)(struct rcu__gp *gp);
void RCU__SYM(help)(struct rcu__gp *gp, struct rcu__reader *r);
int RCU__SYM(process)(struct rcu__gp *gp, struct rcu__reader *r, bool block);
bool RCU__SYM(start_thread)(struct rcu__state *s, int32_t *state, void *(*main_fn)(void *));
void RCU__SYM(prepare_fork)(void);
void RCU__SYM(parent_fork)(void);
void RCU__SYM(child_fork)(void);
bool RCU__SYM(child_swapped)(struct rcu__state *s, struct rcu__reader *r, unsigned depth);
void RCU__SYM(thread_exit)(void *arg);
void RCU__SYM(find_copies)(struct rcu__state *s);
int RCU__SYM(copies_in)(struct rcu__dl_info *info, size_t size, void *arg);
RCU__COLD void RCU__SYM(report_stall)(struct rcu__gp *gp, uint64_t target, uint64_t waited_ns);

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
/*
 * The project's own tests stop a thread at a named point of the algorithm to make a rare
 * interleaving happen every run: a test that defines RCU__TEST_HOOKS before including rcu.h
 * provides rcu__test_hook() (a link error if it does not). Not an interface.
 */
#if !defined(RCU__INSTANCE) /* one hook for every flavour of a unit */
enum rcu__test_point {
	RCU__TP_ENQ_BEFORE_SWAP, /* rcu__enqueue(): predecessor recorded, tail not yet swapped */
	RCU__TP_ENQ_BEFORE_LINK, /* rcu__enqueue(): tail swapped, predecessor not yet linked */
	RCU__TP_BATCH_DETACHED,  /* process(): a batch detached from its queue, its cookie not yet taken */
	RCU__TP_BATCH_TAKEN,     /* process(): a batch detached from its queue and recorded */
	RCU__TP_GP_UNWATCHED,    /* rcu__gp_unwatched(): nobody registered; the completion not yet published */
	RCU__TP_GP_COMPLETE,     /* rcu__gp_complete(): the grace period is over, its number not yet published */
	RCU__TP_GP_PUBLISHED,    /* rcu__gp_complete(): a later or equal number was published by another */
};
#if defined(RCU__TEST_HOOKS)
void rcu__test_hook(enum rcu__test_point point);
#endif
#endif /* !RCU__INSTANCE */
#if defined(RCU__TEST_HOOKS)
#define RCU__TEST_HOOK(point) rcu__test_hook(point)
#else
#define RCU__TEST_HOOK(point) ((void)0)
#endif
/*
 * RCU__REQUIRE: a check in every build, for the waits on the caller's own domain inside a section
 * of it (synchronize_rcu(), cond_synchronize_rcu(), rcu_barrier(), synchronize_srcu() and
 * srcu_barrier() of that domain), so that such a call aborts with the sentence RCU_DEBUG prints,
 * whatever the flavour and however many threads there are. Unchecked, the wait would hang, or
 * return at once where the caller is the only thread in the registry (nothing to scan), leaving
 * the section unprotected. It costs a load of the caller's own slot (SRCU: up to
 * RCU_SRCU_NESTING of them) and a branch, beside a grace period. QSBR's rcu_read_lock() records
 * nothing in release builds, so there only RCU_DEBUG sees a section of the default domain.
 */
#define RCU__REQUIRE(cond, call, rule) \
	do { \
		if (RCU__UNLIKELY(!(cond))) \
			RCU__SYM(die)(call, rule); \
	} while (0)
#define RCU__RULE_IN_SECTION "called inside a read-side critical section, which it would wait for forever (deadlock)"
#define RCU__RULE_QS_IN_SECTION "called inside rcu_read_lock(): a quiescent state ends every section, so this one would lose its protection"

/* >>reader ------------------------------------------------------------------------------------ */

/*
 * How a section is seen. A grace period advances gp_seq to a new number n and then waits until
 * every slot of its domain is 0 or at least n. A reader entering its outermost section copies
 * gp_seq into its slot; leaving, it stores 0. The reader's slot store and its later loads,
 * against the updater's advance and its later slot loads, are the store-buffering pattern: each
 * side needs a full barrier between its store and its load, or a reader could miss the advance
 * while the updater misses the slot. MB readers issue the fence (R1). MEMB and BP readers issue
 * only a compiler barrier and the updater makes every running thread execute the fence for them
 * with membarrier (G1). QSBR readers store their slot at quiescent states, where the fence is.
 *
 * SRCU domains use the same protocol on slots of their own: each thread's reader record holds
 * RCU_SRCU_NESTING slots, each tagged with the domain it serves, and srcu_read_lock() returns the
 * index of the slot it used. Their readers fence as the flavour's do (MEMB and BP rely on
 * membarrier, MB and QSBR fence on entry).
 */

/* Begin a section in `slot` of domain gp. */
RCU__INLINE void rcu__slot_enter(struct rcu__gp *gp, uint64_t *slot)
{
	/* R0: acquire: a reader that sees the new number sees what preceded the advance (G0). */
	uint64_t seq = rcu__load(&gp->gp_seq, RCU__ACQUIRE);
	RCU__DELAY();
	rcu__store(slot, seq, RCU__RELAXED);
	/* R1: our slot store before the section's loads; pairs with G1 in RCU__SYM(gp_share)(). */
#if RCU__MEMB_READER
	if (RCU__UNLIKELY(!rcu__load(&gp->use_membarrier, RCU__RELAXED)))
		rcu__fence_full();
	else
		rcu__fence_compiler();
#else
	rcu__fence_full();
#endif
}

/* End the section of `slot`: clear the slot, wake a sleeping updater of gp. */
RCU__INLINE void rcu__slot_exit(struct rcu__gp *gp, uint64_t *slot)
{
	/* R2: release: the section's accesses before the clear; pairs with G2 (acquire scan). */
	rcu__store(slot, 0, RCU__RELEASE);
	/*
	 * R3: the clear before the futex check; pairs with G3. MEMB/BP: the updater's membarrier
	 * after arming the futex stands in for our fence. MB with RCU_MB_EXIT_FENCE: a full fence.
	 * MB (and MEMB without membarrier, and SRCU readers in QSBR): no fence here, so this check
	 * can miss an updater that armed concurrently; that updater sleeps with a timeout
	 * (RCU__LAZY_WAKE_NS) and rescans.
	 */
#if RCU__EXIT_FENCE
	rcu__fence_full();
#else
	rcu__fence_compiler();
#endif
	if (RCU__UNLIKELY(rcu__load(&gp->gp_futex, RCU__RELAXED) == RCU__FUTEX_ARMED))
		RCU__SYM(wake_gp)(gp);
}

/*
 * The default domain's sections, where the flavours differ on the read side. Each provides:
 *   rcu__in_section(r)         is the thread inside rcu_read_lock()?
 *   rcu__online(r)             does a grace period wait for the thread now (rcu_read_ongoing())?
 *   rcu__may_read(r)           may the thread begin a section (RCU_DEBUG's check)?
 *   rcu__read_lock_at(f, l)    rcu_read_lock(), with where it is (RCU_DEBUG's stall reports)
 *   rcu__read_unlock_of(r)     rcu_read_unlock()
 *   rcu__qs_quiescent(), rcu__qs_offline(), rcu__qs_online()
 *                              rcu_quiescent_state(), rcu_thread_offline(), rcu_thread_online():
 *                              no-ops but in QSBR
 *   RCU__CHECK_QSBR_WAIT(call) RCU_DEBUG: a wait that goes offline, inside rcu_read_lock()
 */
#if RCU__QSBR
/*
 * QSBR's delta (the read side). An online thread's slot already holds a number, set at its last
 * quiescent state, so a section stores nothing: it is free. Only RCU_DEBUG counts its nesting, for
 * the checks; release builds answer false to rcu__in_section(). The slot moves at the reports
 * (RCU__SYM(qsbr_report), >>grace-period).
 */
RCU__INLINE bool rcu__in_section(struct rcu__reader *r)
{
	return r->nesting != 0;
}

RCU__INLINE bool rcu__online(struct rcu__reader *r)
{
	return rcu__load(&r->seq, RCU__RELAXED) != 0;
}

/* May the thread begin a section (RCU_DEBUG's check)? Only online. */
RCU__INLINE bool rcu__may_read(struct rcu__reader *r)
{
	return rcu__online(r);
}

RCU__INLINE void rcu__read_lock_at(const char *file, int line)
{
#if defined(RCU_DEBUG)
	struct rcu__reader *r = rcu__self();
	if (r->nesting++ == 0)
		RCU__SYM(debug_enter)(r, file, line);
#else
	(void)file;
	(void)line;
#endif
}

RCU__INLINE void rcu__read_unlock_of(struct rcu__reader *r)
{
#if defined(RCU_DEBUG)
	RCU__CHECK(r->nesting > 0, "rcu_read_unlock()", "no matching rcu_read_lock(): the unlock is unbalanced");
	r->nesting--;
#endif
	(void)r;
}

/* rcu_quiescent_state(): a report when a grace period began since the last one (call_rcu()
 * above the high-water mark starts one, so that the report helps: rcu__congestion_ask()). */
RCU__INLINE void rcu__qs_quiescent(void)
{
	struct rcu__reader *r = rcu__self();
	struct rcu__gp *gp = RCU__GP;
	RCU__CHECK(r->nesting == 0, "rcu_quiescent_state()", RCU__RULE_QS_IN_SECTION);
	/* Q0: acquire: after reporting n, this thread sees what preceded the advance to n (G0). */
	uint64_t seq = rcu__load(&gp->gp_seq, RCU__ACQUIRE);
	if (RCU__UNLIKELY(rcu__load(&r->seq, RCU__RELAXED) != seq))
		RCU__SYM(qsbr_report)(gp, r, seq);
}

RCU__INLINE void rcu__qs_offline(void)
{
	struct rcu__reader *r = rcu__self();
	RCU__CHECK(r->nesting == 0, "rcu_thread_offline()", RCU__RULE_QS_IN_SECTION);
	RCU__SYM(qsbr_report)(RCU__GP, r, 0);
}

RCU__INLINE void rcu__qs_online(void)
{
	struct rcu__reader *r = rcu__self();
	/* An adopted thread (its first call_rcu() or SRCU section) has not registered either:
	 * online, it would hold up grace periods that it never reports to. */
	RCU__CHECK(r->registered == RCU__REG_THREAD, "rcu_thread_online()", "the thread is not registered: call rcu_register_thread() first");
	RCU__SYM(qsbr_report)(RCU__GP, r, UINT64_MAX);
}

/* A wait for another domain's grace period goes offline (a quiescent state), which would end an
 * enclosing rcu_read_lock() section unannounced. */
#define RCU__CHECK_QSBR_WAIT(call) RCU__CHECK(rcu__self()->nesting == 0, call, RCU__RULE_QS_IN_SECTION)

#else
/*
 * MEMB, MB and BP: a section is published in the thread's slot (rcu__slot_enter()), set exactly
 * while the thread is inside one (gp_seq is never 0); nested sections are counted in `nesting`.
 */
RCU__INLINE bool rcu__in_section(struct rcu__reader *r)
{
	return rcu__load(&r->seq, RCU__RELAXED) != 0;
}

RCU__INLINE bool rcu__online(struct rcu__reader *r)
{
	return rcu__in_section(r);
}

RCU__INLINE bool rcu__may_read(struct rcu__reader *r)
{
	(void)r;
	return true;
}

/*
 * Nesting without a dependency chain: the outermost lock is the one that finds its slot clear,
 * and the outermost unlock the one that finds no nested section counted. In the common,
 * unnested case neither loads a value that it computed and stored itself a moment before, so
 * back-to-back sections do not wait on store-to-load forwarding.
 */
RCU__INLINE void rcu__read_lock_at(const char *file, int line)
{
	struct rcu__reader *r = rcu__self();
	(void)file;
	(void)line;
	if (RCU__LIKELY(rcu__load(&r->seq, RCU__RELAXED) == 0)) {
#if defined(RCU_DEBUG)
		RCU__SYM(debug_enter)(r, file, line);
#endif
		if (RCU__SELF_REGISTER && RCU__UNLIKELY(r->registered == RCU__REG_NONE))
			RCU__SYM(register)(RCU__STATE, r);
		rcu__slot_enter(RCU__GP, &r->seq);
	} else {
		r->nesting++;
	}
}

RCU__INLINE void rcu__read_unlock_of(struct rcu__reader *r)
{
	RCU__CHECK(rcu__in_section(r), "rcu_read_unlock()", "no matching rcu_read_lock(): the unlock is unbalanced");
	if (RCU__LIKELY(r->nesting == 0))
		rcu__slot_exit(RCU__GP, &r->seq);
	else
		r->nesting--;
}

RCU__INLINE void rcu__qs_quiescent(void) {}
RCU__INLINE void rcu__qs_offline(void) {}
RCU__INLINE void rcu__qs_online(void) {}

#define RCU__CHECK_QSBR_WAIT(call) ((void)0)
#endif

/**
 * rcu_read_lock() - begin a read-side critical section.
 *
 * Sections nest; a nest is one section. Never blocks, never fails, allocates nothing.
 * MEMB/MB: the thread must be registered. BP: registers the thread on first use. QSBR: costs
 * nothing; the thread must be online (the section is already implied).
 * Under RCU_DEBUG it records where the section began, for stall reports.
 */
static inline void rcu_read_lock(void) RCU__NOEXCEPT
{
	rcu__read_lock_at(NULL, 0);
}
#if defined(RCU_DEBUG) && !defined(RCU__INSTANCE)
#define rcu_read_lock() rcu__read_lock_at(__FILE__, __LINE__)
#endif

/**
 * rcu_read_unlock() - end a read-side critical section.
 *
 * Leaving the outermost section lets grace periods that wait for it end. RCU_DEBUG aborts on an
 * unlock without a lock.
 */
static inline void rcu_read_unlock(void) RCU__NOEXCEPT
{
	rcu__read_unlock_of(rcu__self());
}

/**
 * rcu_read_ongoing() - is the calling thread inside a read-side critical section?
 *
 * QSBR: true while the thread is online (registered and not offline), since an online thread
 * is inside one long section between quiescent states. Never blocks; callable anywhere.
 */
static inline bool rcu_read_ongoing(void) RCU__NOEXCEPT
{
	return rcu__online(rcu__self());
}

/**
 * rcu_read_lock_held() - the kernel's name: rcu_read_ongoing().
 */
static inline bool rcu_read_lock_held(void) RCU__NOEXCEPT
{
	return rcu_read_ongoing();
}

/**
 * rcu_quiescent_state() - QSBR: report that this thread holds no reference to RCU data.
 *
 * Every pointer obtained before the call may be reclaimed after it. Cheap when no grace period
 * has started since the last report and callbacks are not congested (three loads, two compares
 * and branches); otherwise a release store and a fence. Above RCU_CALLBACK_HIGH_WATER pending
 * callbacks it also runs a batch of callbacks (it waits for a grace period, offline). Other
 * flavours: no-op. RCU_DEBUG aborts inside rcu_read_lock().
 */
static inline void rcu_quiescent_state(void) RCU__NOEXCEPT
{
	rcu__qs_quiescent();
}

/**
 * rcu_thread_offline() - QSBR: leave the reader set; the thread may now block indefinitely.
 *
 * An offline thread holds up no grace period and must not read RCU data. Other flavours: no-op.
 * RCU_DEBUG aborts inside rcu_read_lock().
 */
static inline void rcu_thread_offline(void) RCU__NOEXCEPT
{
	rcu__qs_offline();
}

/**
 * rcu_thread_online() - QSBR: rejoin the reader set after rcu_thread_offline().
 *
 * On a thread that is already online it is a quiescent state (and wakes an updater that sleeps
 * waiting for it). Other flavours: no-op. RCU_DEBUG aborts in a thread that did not call
 * rcu_register_thread().
 */
static inline void rcu_thread_online(void) RCU__NOEXCEPT
{
	rcu__qs_online();
}

/* SRCU: a section of domain gp in slot k, which serves gp. */
__attribute__((always_inline)) static inline int rcu__srcu_enter(struct rcu__gp *gp, struct rcu__srcu_slot *s, int k,
							       const char *file, int line)
{
	if (RCU__LIKELY(s->seq == 0)) {
#if defined(RCU_DEBUG)
		s->section_file = file;
		s->section_line = line;
		s->section_start_ns = rcu__now_ns();
#else
		(void)file;
		(void)line;
#endif
		rcu__slot_enter(gp, &s->seq);
	} else {
		s->nesting++;
	}
	return k;
}

/*
 * SRCU: the slot that serves domain gp: slot 0 first (a thread that reads one domain finds it
 * there, and the index is a constant), then the others, then the slow path's free slot.
 */
RCU__INLINE int rcu__srcu_lock_at(struct srcu_struct *ssp, const char *file, int line)
{
	struct rcu__reader *r = rcu__self();
	struct rcu__gp *gp = &ssp->gp;
	if (RCU__LIKELY(r->srcu[0].gp == gp))
		return rcu__srcu_enter(gp, &r->srcu[0], 0, file, line);
	for (int k = 1; k < RCU_SRCU_NESTING; k++)
		if (r->srcu[k].gp == gp)
			return rcu__srcu_enter(gp, &r->srcu[k], k, file, line);
	return RCU__SYM(srcu_lock_slow)(gp, r, file, line);
}

/**
 * srcu_read_lock(ssp) - begin a read-side critical section of SRCU domain ssp; returns an index.
 *
 * Hand the index to the matching srcu_read_unlock(). The section may block and sleep: it holds
 * up only ssp's grace periods. Sections of one domain nest; sections of different domains may
 * interleave and nest across each other, and across rcu_read_lock() sections, up to
 * RCU_SRCU_NESTING domains at a time per thread (more aborts with a sentence). Any thread may
 * read: no registration, in every flavour. Never fails; allocates nothing (a thread's first
 * section of any domain joins it to the registry: the registry lock, once per thread).
 * Unlock in the thread that locked.
 */
static inline int srcu_read_lock(struct srcu_struct *ssp) RCU__NOEXCEPT
{
	return rcu__srcu_lock_at(ssp, NULL, 0);
}
#if defined(RCU_DEBUG) && !defined(RCU__INSTANCE)
#define srcu_read_lock(ssp) rcu__srcu_lock_at((ssp), __FILE__, __LINE__)
#endif

/**
 * srcu_read_unlock(ssp, idx) - end the section that srcu_read_lock(ssp) returned idx for.
 *
 * RCU_DEBUG aborts on an index that names no section of ssp in this thread.
 */
static inline void srcu_read_unlock(struct srcu_struct *ssp, int idx) RCU__NOEXCEPT
{
	struct rcu__reader *r = rcu__self();
	RCU__CHECK(idx >= 0 && idx < RCU_SRCU_NESTING && r->srcu[idx].gp == &ssp->gp && r->srcu[idx].seq != 0,
		"srcu_read_unlock()", "no matching srcu_read_lock() of this domain in this thread: the index or the domain is wrong, or the unlock is unbalanced");
	struct rcu__srcu_slot *s = &r->srcu[idx];
#if !defined(RCU_C11_FENCES) /* a C11 model checker skips asm, and `s` with it (verify/genmc) */
	__asm__("" : "+r"(s)); /* one address computation for both fields (GCC makes two) */
#endif
	if (RCU__LIKELY(s->nesting == 0))
		rcu__slot_exit(&ssp->gp, &s->seq);
	else
		s->nesting--;
}

/**
 * srcu_read_lock_held(ssp) - is the calling thread inside a section of SRCU domain ssp?
 */
static inline bool srcu_read_lock_held(const struct srcu_struct *ssp) RCU__NOEXCEPT
{
	struct rcu__reader *r = rcu__self();
	for (int k = 0; k < RCU_SRCU_NESTING; k++)
		if (r->srcu[k].gp == &ssp->gp && r->srcu[k].seq != 0)
			return true;
	return false;
}

#if !defined(RCU__INSTANCE) /* the pointer macros are every flavour's */
/* >>pointers ---------------------------------------------------------------------------------- */

/*
 * The RCU-protected pointer p is an lvalue: a plain `T *`, or in C a `T *_Atomic`, or in C++ a
 * `std::atomic<T *>`. Each macro evaluates each argument once and names its memory order. In C
 * they reach the pointer through the same address with the _Atomic qualifier dropped
 * (RCU__PTR_T), which GCC and Clang both accept for their __atomic builtins and which is the
 * same object representation; in C++, through overloads (>>cxx keeps them out of extern "C").
 */
#if !defined(__cplusplus)
#define RCU__PTR_T(p) __typeof__((void)0, (p))
#if defined(__clang__)
/* Clang's builtins refuse _Atomic objects: reach the same object without the qualifier. */
#define RCU__PTR_ADDR(p) ((RCU__PTR_T(p) *)(void *)&(p))
#define RCU__PTR_CADDR(p) ((RCU__PTR_T(p) const *)(const void *)&(p))
#else
/* GCC's builtins take plain and _Atomic objects alike (and -Wcast-qual would flag a cast). */
#define RCU__PTR_ADDR(p) (&(p))
#define RCU__PTR_CADDR(p) (&(p))
#endif
#define rcu__ptr_load(p, mo) __atomic_load_n(RCU__PTR_CADDR(p), mo)
#define rcu__ptr_store(p, v, mo) \
	__extension__({ \
		RCU__PTR_T(p) rcu__v = (v); \
		__atomic_store_n(RCU__PTR_ADDR(p), rcu__v, mo); \
	})
#define rcu__ptr_xchg(p, v, mo) \
	__extension__({ \
		RCU__PTR_T(p) rcu__v = (v); \
		__atomic_exchange_n(RCU__PTR_ADDR(p), rcu__v, mo); \
	})
#define rcu__ptr_cmpxchg(p, old, v) \
	__extension__({ \
		RCU__PTR_T(p) rcu__expected = (old); \
		RCU__PTR_T(p) rcu__v = (v); \
		__atomic_compare_exchange_n(RCU__PTR_ADDR(p), &rcu__expected, rcu__v, false, \
			__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE); \
		rcu__expected; \
	})
#else
RCU__EXTERN_C_END
namespace rcu {
namespace detail {
/*
 * The new and the expected values are parameters of type `T *` itself, deduced from the pointer
 * only (identity<> is a non-deduced context), so that they convert as in an assignment: NULL, 0,
 * nullptr, a derived-class pointer, a non-const pointer to a pointer-to-const.
 */
template <class T> struct identity {
	typedef T type;
};
/* Plain `T *` pointers. */
template <class T> inline T *ptr_load(T *const *p, int mo) noexcept
{
	return __atomic_load_n(p, mo);
}
template <class T> inline void ptr_store(T **p, typename identity<T *>::type v, int mo) noexcept
{
	__atomic_store_n(p, v, mo);
}
template <class T> inline T *ptr_xchg(T **p, typename identity<T *>::type v, int mo) noexcept
{
	return __atomic_exchange_n(p, v, mo);
}
template <class T>
inline T *ptr_cmpxchg(T **p, typename identity<T *>::type expected, typename identity<T *>::type v) noexcept
{
	__atomic_compare_exchange_n(p, &expected, v, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	return expected;
}
template <class T> inline T *ptr_replace(T **p, typename identity<T *>::type v) noexcept
{
	T *old = __atomic_load_n(p, __ATOMIC_RELAXED);
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
	return old;
}
/* std::atomic<T *> pointers (what C++23's _Atomic(T *) names). */
inline std::memory_order order(int mo) noexcept
{
	return static_cast<std::memory_order>(mo);
}
template <class T> inline T *ptr_load(const std::atomic<T *> *p, int mo) noexcept
{
	return p->load(order(mo));
}
template <class T> inline void ptr_store(std::atomic<T *> *p, typename identity<T *>::type v, int mo) noexcept
{
	p->store(v, order(mo));
}
template <class T> inline T *ptr_xchg(std::atomic<T *> *p, typename identity<T *>::type v, int mo) noexcept
{
	return p->exchange(v, order(mo));
}
template <class T>
inline T *ptr_cmpxchg(std::atomic<T *> *p, typename identity<T *>::type expected, typename identity<T *>::type v) noexcept
{
	p->compare_exchange_strong(expected, v, std::memory_order_acq_rel, std::memory_order_acquire);
	return expected;
}
template <class T> inline T *ptr_replace(std::atomic<T *> *p, typename identity<T *>::type v) noexcept
{
	T *old = p->load(std::memory_order_relaxed);
	p->store(v, std::memory_order_release);
	return old;
}
} /* namespace detail */
} /* namespace rcu */
RCU__EXTERN_C_BEGIN
#define rcu__ptr_load(p, mo) ::rcu::detail::ptr_load(&(p), mo)
#define rcu__ptr_store(p, v, mo) ::rcu::detail::ptr_store(&(p), (v), mo)
#define rcu__ptr_xchg(p, v, mo) ::rcu::detail::ptr_xchg(&(p), (v), mo)
#define rcu__ptr_cmpxchg(p, old, v) ::rcu::detail::ptr_cmpxchg(&(p), (old), (v))
#endif

/**
 * rcu_assign_pointer(p, v) - publish v in the RCU-protected pointer p.
 *
 * A release store: every write that initialised *v is visible to a reader that loads v with
 * rcu_dereference(). Updaters serialise among themselves (a lock); readers need nothing.
 */
#define rcu_assign_pointer(p, v) rcu__ptr_store(p, v, __ATOMIC_RELEASE)

/**
 * rcu_set_pointer(pp, v) - liburcu's form of rcu_assign_pointer(*pp, v).
 */
#define rcu_set_pointer(pp, v) rcu_assign_pointer(*(pp), v)

/**
 * rcu_dereference(p) - load an RCU-protected pointer for dereferencing.
 *
 * Inside a read-side section (or where the update-side lock keeps p from changing). A consume
 * load, which compilers implement as acquire. The value must not be used after the outermost
 * section ends, unless the object was handed to another protection (a lock, a reference count).
 */
#if defined(RCU_DEBUG_DEREFERENCE)
/* A section of the unit's flavour, or of any further flavour compat/liburcu adds (it redefines
 * this: the macros below expand it where they are used). */
#define RCU__IN_SECTION() rcu_read_ongoing()
#define rcu_dereference(p) \
	(RCU__IN_SECTION() ? (void)0 \
			    : RCU__SYM(die)("rcu_dereference()", \
				"called outside a read-side critical section: use rcu_dereference_protected() where the update-side lock protects the pointer"), \
	 rcu__ptr_load(p, __ATOMIC_CONSUME))
#else
#define rcu_dereference(p) rcu__ptr_load(p, __ATOMIC_CONSUME)
#endif

/**
 * rcu_dereference_check(p, c) - the kernel's form: rcu_dereference() where c (an update-side
 * lock held, say) may stand in for a read-side section.
 *
 * With RCU_DEBUG_DEREFERENCE it aborts when neither c nor a section holds; otherwise c is not
 * evaluated.
 */
#if defined(RCU_DEBUG_DEREFERENCE)
#define rcu_dereference_check(p, c) \
	((c) || RCU__IN_SECTION() ? (void)0 \
			    : RCU__SYM(die)("rcu_dereference_check()", \
				"called outside a read-side critical section and the condition is false"), \
	 rcu__ptr_load(p, __ATOMIC_CONSUME))
#else
#define rcu_dereference_check(p, c) ((void)sizeof(c), rcu__ptr_load(p, __ATOMIC_CONSUME))
#endif

/** rcu_dereference_raw(p) - rcu_dereference() with no debug check, as the kernel's. */
#define rcu_dereference_raw(p) rcu__ptr_load(p, __ATOMIC_CONSUME)

/**
 * srcu_dereference(p, ssp) - rcu_dereference() inside a section of SRCU domain ssp.
 *
 * With RCU_DEBUG_DEREFERENCE it aborts outside a section of ssp.
 */
#if defined(RCU_DEBUG_DEREFERENCE)
#define srcu_dereference(p, ssp) \
	(srcu_read_lock_held(ssp) ? (void)0 \
			    : RCU__SYM(die)("srcu_dereference()", \
				"called outside a read-side critical section of its SRCU domain"), \
	 rcu__ptr_load(p, __ATOMIC_CONSUME))
#define srcu_dereference_check(p, ssp, c) \
	((c) || srcu_read_lock_held(ssp) ? (void)0 \
			    : RCU__SYM(die)("srcu_dereference_check()", \
				"called outside a read-side critical section of its SRCU domain and the condition is false"), \
	 rcu__ptr_load(p, __ATOMIC_CONSUME))
#else
#define srcu_dereference(p, ssp) ((void)sizeof(ssp), rcu__ptr_load(p, __ATOMIC_CONSUME))
/** srcu_dereference_check(p, ssp, c) - srcu_dereference() where c may stand in for the section. */
#define srcu_dereference_check(p, ssp, c) ((void)sizeof(ssp), (void)sizeof(c), rcu__ptr_load(p, __ATOMIC_CONSUME))
#endif

/**
 * rcu_dereference_protected(p, c) - load p where the update-side lock keeps it from changing.
 *
 * c documents the lock; it is not evaluated (it sits in sizeof) and never checked. Relaxed.
 */
#define rcu_dereference_protected(p, c) ((void)sizeof(c), rcu__ptr_load(p, __ATOMIC_RELAXED))

/**
 * rcu_access_pointer(p) - the value of p, for comparison or testing against NULL only.
 *
 * Needs no section; the result must not be dereferenced. Relaxed.
 */
#define rcu_access_pointer(p) rcu__ptr_load(p, __ATOMIC_RELAXED)

/**
 * rcu_xchg_pointer(pp, v) - liburcu's form: store v in *pp, return the old value (acq_rel).
 */
#define rcu_xchg_pointer(pp, v) rcu__ptr_xchg(*(pp), v, __ATOMIC_ACQ_REL)

/**
 * rcu_cmpxchg_pointer(pp, old, v) - liburcu's form: if *pp == old store v; return what *pp held.
 *
 * The store is a release (and the load an acquire) on success; acquire on failure.
 */
#define rcu_cmpxchg_pointer(pp, old, v) rcu__ptr_cmpxchg(*(pp), old, v)

/**
 * rcu_replace_pointer(p, v, c) - the kernel's form: publish v in p, return the old value.
 *
 * For updaters holding the update-side lock that c names (c is not checked). A relaxed load and
 * a release store (not one read-modify-write: the lock serialises updaters).
 */
#if !defined(__cplusplus)
#define rcu_replace_pointer(p, v, c) \
	__extension__({ \
		__typeof__(RCU__PTR_ADDR(p)) rcu__pp = RCU__PTR_ADDR(p); \
		RCU__PTR_T(p) rcu__new = (v); \
		RCU__PTR_T(p) rcu__old = __atomic_load_n(rcu__pp, __ATOMIC_RELAXED); \
		(void)sizeof(c); \
		__atomic_store_n(rcu__pp, rcu__new, __ATOMIC_RELEASE); \
		rcu__old; \
	})
#else
#define rcu_replace_pointer(p, v, c) ((void)sizeof(c), ::rcu::detail::ptr_replace(&(p), (v)))
#endif

/**
 * rcu_pointer_handoff(p) - the kernel's marker for a pointer handed from RCU protection to
 * another (a lock, a reference count): the value of p, unchanged.
 */
#define rcu_pointer_handoff(p) (p)

/**
 * RCU_INITIALIZER(v) - static initialiser for an RCU-protected pointer.
 * rcu_init_pointer(p, v) - relaxed store: only for NULL, or before readers can reach p.
 * RCU_INIT_POINTER(p, v) - the kernel's name of rcu_init_pointer().
 */
#define RCU_INITIALIZER(v) (v)
#define rcu_init_pointer(p, v) rcu__ptr_store(p, v, __ATOMIC_RELAXED)
#define RCU_INIT_POINTER(p, v) rcu_init_pointer(p, v)

/** rcu_container_of(ptr, type, member) - the object that holds *ptr as its member. */
#define rcu_container_of(ptr, type, member) ((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#endif /* !RCU__INSTANCE */

/* >>grace-period ------------------------------------------------------------------------------ */

/* The default domain's state is set up at load time (see rcu__constructor); this covers a
 * slow path reached earlier, from another unit's constructor. */
RCU__INLINE void rcu__gp_ready(struct rcu__gp *gp)
{
	if (RCU__UNLIKELY(rcu__load(&gp->init_state, RCU__ACQUIRE) != RCU__INIT_READY))
		RCU__SYM(init)(rcu_container_of(gp, struct rcu__state, gp));
}

/* An SRCU domain is set up by init_srcu_struct() or, for DEFINE_SRCU, by its first use. */
RCU__INLINE void rcu__srcu_ready(struct srcu_struct *ssp)
{
	if (RCU__UNLIKELY(rcu__load(&ssp->gp.init_state, RCU__ACQUIRE) != RCU__INIT_READY))
		RCU__SYM(srcu_init)(ssp);
}

/**
 * rcu_register_thread() - make the calling thread a reader of the default domain.
 *
 * MEMB/MB/QSBR: before its first read-side section. QSBR: the thread is online afterwards.
 * Allocates nothing and cannot fail. BP: no-op (threads register on first use).
 * A thread that exits registered is unregistered automatically. RCU_DEBUG aborts on a second
 * registration.
 */
static inline void rcu_register_thread(void) RCU__NOEXCEPT
{
#if !RCU__SELF_REGISTER
	RCU__SYM(register)(RCU__STATE, rcu__self());
#endif
}

/**
 * rcu_unregister_thread() - the calling thread stops being a reader.
 *
 * Outside any section (RCU_DEBUG aborts otherwise, in BP too). BP: no-op.
 */
static inline void rcu_unregister_thread(void) RCU__NOEXCEPT
{
	/* Checked in BP too, where the call is a no-op: code that passes there passes in MEMB. */
	struct rcu__reader *r = rcu__self();
	RCU__CHECK(!rcu__in_section(r), "rcu_unregister_thread()",
		"called inside a read-side critical section: leave the section before unregistering");
#if !RCU__SELF_REGISTER
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
 * overlap cost at most two. Must not be called inside a read-side section, which it would wait
 * for: it aborts with a sentence, in every build (QSBR: only RCU_DEBUG builds see rcu_read_lock()).
 * QSBR: an online caller is offline during the wait (the call is a quiescent state). May be
 * called from RCU callbacks and inside SRCU sections (it does not wait for them).
 */
static inline void synchronize_rcu(void) RCU__NOEXCEPT
{
	RCU__REQUIRE(!rcu__in_section(rcu__self()), "synchronize_rcu()", RCU__RULE_IN_SECTION);
	RCU__SYM(synchronize)(RCU__GP);
}

/**
 * synchronize_rcu_expedited() - the kernel's name: synchronize_rcu(), which is already as fast
 * as this header makes a grace period (MEMB/BP force the readers' barriers with membarrier).
 */
static inline void synchronize_rcu_expedited(void) RCU__NOEXCEPT
{
	synchronize_rcu();
}

/**
 * get_state_synchronize_rcu() - a cookie for the grace period that must pass from now.
 *
 * Hand it to poll_state_synchronize_rcu() or cond_synchronize_rcu(). Starts nothing.
 * Cookies are 64-bit and never wrap.
 */
static inline uint64_t get_state_synchronize_rcu(void) RCU__NOEXCEPT
{
	return RCU__SYM(snapshot)(RCU__GP);
}

/**
 * start_poll_synchronize_rcu() - as get_state_synchronize_rcu(), and make sure that grace
 * period will run even if nobody waits for it (the callback worker runs it).
 */
static inline uint64_t start_poll_synchronize_rcu(void) RCU__NOEXCEPT
{
	return RCU__SYM(start_poll)(RCU__GP);
}

/* Has grace period `cookie` of gp completed? If so, with a full barrier (P1). */
RCU__INLINE bool rcu__poll_state(struct rcu__gp *gp, uint64_t cookie)
{
	/* P1: acquire: pairs with G4, the release of the completed number. */
	bool passed = rcu__load(&gp->gp_completed, RCU__ACQUIRE) >= cookie;
	if (passed)
		rcu__fence_full();
	return passed;
}

/**
 * poll_state_synchronize_rcu(cookie) - has a full grace period passed since the cookie?
 *
 * When true, every reader that was inside a section when the cookie was taken has left it, and
 * the caller has executed a full memory barrier. Never blocks; callable anywhere.
 */
static inline bool poll_state_synchronize_rcu(uint64_t cookie) RCU__NOEXCEPT
{
	return rcu__poll_state(RCU__GP, cookie);
}

/**
 * cond_synchronize_rcu(cookie) - synchronize_rcu(), unless a grace period passed since the cookie.
 *
 * Same rules as synchronize_rcu(), checked whether or not it waits.
 */
static inline void cond_synchronize_rcu(uint64_t cookie) RCU__NOEXCEPT
{
	RCU__REQUIRE(!rcu__in_section(rcu__self()), "cond_synchronize_rcu()", RCU__RULE_IN_SECTION);
	if (!rcu__poll_state(RCU__GP, cookie))
		RCU__SYM(cond_synchronize)(RCU__GP, cookie);
}

/*
 * SRCU domains. Each struct srcu_struct is a domain with its own grace periods, which wait only
 * for that domain's readers. The grace-period algorithm below is the default domain's, run on the
 * domain's own state; the readers it scans are the SRCU slots of every thread in the registry
 * (a thread's first SRCU section joins it to the registry, RCU__REG_ADOPTED, so that any thread
 * may read without registering). Callbacks of every domain go to one "srcu-callbacks" worker,
 * which never blocks on one domain's grace period (see >>callbacks), so a domain whose readers
 * sleep holds up nobody else's callbacks either.
 */

/* The definition, not the type, asks for a line: `static DEFINE_SRCU(n)` must stay valid, and
 * embedded domains keep their owners' alignment (see struct rcu__gp). */
#if defined(__cplusplus)
#define RCU__SRCU_INITIALIZER(n) { #n }
#define RCU__SRCU_DEFINE(n) struct srcu_struct n RCU__LINE_ALIGNED RCU__SRCU_INITIALIZER(n)
#else
#define RCU__SRCU_INITIALIZER(n) { .name = #n }
#define RCU__SRCU_DEFINE(n) struct srcu_struct n RCU__LINE_ALIGNED = RCU__SRCU_INITIALIZER(n)
#endif

/**
 * DEFINE_SRCU(name) - define `struct srcu_struct name`, set up on first use (no init call).
 * DEFINE_STATIC_SRCU(name) - the same, with internal linkage.
 *
 * Statically initialised (in C++ too: constant initialisation, no constructor runs at load).
 */
#define DEFINE_SRCU(name) RCU__SRCU_DEFINE(name)
#define DEFINE_STATIC_SRCU(name) static RCU__SRCU_DEFINE(name)

RCU__INLINE int rcu__init_srcu_named(struct srcu_struct *ssp, const char *name)
{
	memset((void *)ssp, 0, sizeof *ssp);
	ssp->name = name;
	RCU__SYM(srcu_init)(ssp);
	return 0;
}

/**
 * init_srcu_struct(ssp) - set up SRCU domain *ssp (memory the caller owns, any content).
 *
 * Returns 0: a domain allocates nothing (the kernel's returns an errno value when it cannot
 * allocate; here there is nothing to fail). Not on a domain in use. The macro form names the
 * domain after its argument in reports.
 */
static inline int init_srcu_struct(struct srcu_struct *ssp) RCU__NOEXCEPT
{
	return rcu__init_srcu_named(ssp, "srcu_struct");
}
#if !defined(RCU__INSTANCE)
#define init_srcu_struct(ssp) rcu__init_srcu_named((ssp), #ssp)
#endif

/**
 * cleanup_srcu_struct(ssp) - retire SRCU domain *ssp; its memory may be freed afterwards.
 *
 * RCU_DEBUG aborts if a thread is still inside a section of the domain or callbacks are
 * pending. Release builds first wait for pending callbacks (as srcu_barrier()) and for readers
 * (as synchronize_srcu()); a reader that never leaves then hangs the call.
 */
static inline void cleanup_srcu_struct(struct srcu_struct *ssp) RCU__NOEXCEPT
{
	RCU__SYM(srcu_cleanup)(ssp);
}

/**
 * synchronize_srcu(ssp) - wait until every pre-existing reader of domain ssp has left its section.
 *
 * Waits for ssp's readers only. A full memory barrier before it returns; concurrent callers
 * share grace periods. Must not be called inside a section of ssp, which it would wait for (it
 * aborts, in every build); may be called inside sections of other domains and of the default
 * domain. QSBR: an
 * online caller is offline during the wait, as in synchronize_rcu().
 */
static inline void synchronize_srcu(struct srcu_struct *ssp) RCU__NOEXCEPT
{
	RCU__REQUIRE(!srcu_read_lock_held(ssp), "synchronize_srcu()",
		"called inside a read-side critical section of the same SRCU domain, which it would wait for forever (deadlock)");
	RCU__CHECK_QSBR_WAIT("synchronize_srcu()");
	rcu__srcu_ready(ssp);
	RCU__SYM(synchronize)(&ssp->gp);
}

/** synchronize_srcu_expedited(ssp) - the kernel's name: synchronize_srcu(ssp). */
static inline void synchronize_srcu_expedited(struct srcu_struct *ssp) RCU__NOEXCEPT
{
	synchronize_srcu(ssp);
}

/**
 * get_state_synchronize_srcu(ssp) - a cookie for ssp's grace period that must pass from now.
 */
static inline uint64_t get_state_synchronize_srcu(struct srcu_struct *ssp) RCU__NOEXCEPT
{
	rcu__srcu_ready(ssp);
	return RCU__SYM(snapshot)(&ssp->gp);
}

/**
 * start_poll_synchronize_srcu(ssp) - as get_state_synchronize_srcu(), and make sure that grace
 * period runs even if nobody waits for it (the SRCU worker runs it).
 */
static inline uint64_t start_poll_synchronize_srcu(struct srcu_struct *ssp) RCU__NOEXCEPT
{
	rcu__srcu_ready(ssp);
	return RCU__SYM(start_poll)(&ssp->gp);
}

/**
 * poll_state_synchronize_srcu(ssp, cookie) - has a full grace period of ssp passed since the cookie?
 *
 * Never blocks; callable anywhere, inside sections of ssp too.
 */
static inline bool poll_state_synchronize_srcu(struct srcu_struct *ssp, uint64_t cookie) RCU__NOEXCEPT
{
	return rcu__poll_state(&ssp->gp, cookie);
}

/**
 * srcu_batches_completed(ssp) - grace periods of ssp completed so far (the kernel's counter).
 */
static inline uint64_t srcu_batches_completed(struct srcu_struct *ssp) RCU__NOEXCEPT
{
	return rcu__load(&ssp->gp.gp_count, RCU__RELAXED);
}

/*
 * Grace periods, in prose. gp_seq is the number of the last grace period started and
 * gp_completed that of the last one finished; both start at 1 and only grow. A caller snapshots
 * s = gp_seq with a read-modify-write (so that whoever advances later reads from it, and the
 * caller's earlier writes happen before the advance, even on machines that are not multi-copy
 * atomic) and needs grace period s + 1: grace period s may already have started before the call
 * and missed readers that began after its scan. Holding gp_lock, a caller whose target has not
 * completed advances gp_seq to the target (unless another has: a poll step, or a caller without
 * the lock below), forces the readers' fences (G1), waits until every slot is 0 or at least the
 * target, and publishes the completion. Callers that arrived while it ran find their target
 * completed when they get the lock, or run the next grace period for all of them together: N
 * overlapping callers cost at most two grace periods. With no thread registered but the caller,
 * there is nothing to wait for and no lock is taken (rcu__gp_unwatched()): such callers advance
 * gp_seq with read-modify-writes and raise gp_completed with compare-exchanges, beside a lock
 * holder whose own number is then found published already.
 *
 * The updater waits for the readers one at a time in one pass over the registry, looking at a
 * reader's slot up to the domain's count of looks (one pause apart) in all: RCU_SPIN_SCANS, or
 * fewer while looking does not pay (RCU__SPIN_MIN below). Then it yields the CPU once
 * and tries again; then it arms gp_futex, forces the readers' fences again (G3), rescans, and
 * sleeps; the reader that leaves last sees the futex armed and wakes it (R3). Where readers do
 * not fence after their clear (MB, MEMB without membarrier, SRCU readers in QSBR), the updater
 * sleeps at most RCU__LAZY_WAKE_NS before it rescans. A caller that finds another running the
 * grace period it needs looks for the completion RCU__SHARE_SPIN times before it sleeps on
 * gp_done_word, so that sharing a short grace period costs no system call.
 *
 * The SRCU worker may not block on one domain, so it drives a grace period in steps instead
 * (RCU__SYM(gp_poll)): advance and scan once, arm and rescan, and come back when a reader wakes it.
 */
#define RCU__SPIN_SCANS RCU_SPIN_SCANS
/*
 * The looks adapt, per domain (spin_budget). Looking only pays while the reader runs on another
 * CPU and leaves soon; a reader preempted on ours (more runnable threads than CPUs) cannot leave
 * until we stop, and a long one not for milliseconds. A grace period whose readers left while it
 * looked doubles the next one's looks (up to RCU__SPIN_SCANS); one that spent them all and gave up
 * the CPU (a yield, or arming the futex) halves them (down to RCU__SPIN_MIN, a sixteenth). Every
 * RCU__SPIN_PROBE_EVERY-th grace period looks RCU__SPIN_SCANS times whatever the count, so that
 * readers that became short again are found (one that paid restores the full count).
 */
#define RCU__SPIN_MIN (RCU__SPIN_SCANS / 16 + (RCU__SPIN_SCANS % 16 != 0))
#define RCU__SPIN_PROBE_EVERY 16
/*
 * Looks for another caller's completion before sleeping on gp_done_word. Overridable for model
 * checkers only (verify/genmc sets it to 1, so that the sleep is within GenMC's loop bound).
 */
#ifndef RCU__SHARE_SPIN
#define RCU__SHARE_SPIN 2000
#endif
#define RCU__LAZY_WAKE_NS RCU__NS_PER_MS
/* A worker that drives grace periods in steps comes back this often to report a stall in time. */
#define RCU__STALL_CHECK_NS ((int64_t)RCU_STALL_TIMEOUT_MS * RCU__NS_PER_MS / 4)

/*
 * Sleeping on a 32-bit word: rcu__word_wait() returns once *word may differ from `expected`
 * (spurious returns allowed; callers loop), or after timeout_ns if that is not negative.
 * rcu__word_wake() wakes every waiter of the word. Linux: futex. Elsewhere, or with
 * RCU_NO_FUTEX: one process-wide mutex and condition variable; the waker takes the mutex after
 * changing the word, so a waiter that saw the old value under the mutex is asleep before the
 * broadcast.
 */
#if RCU__HAVE_FUTEX
RCU__INLINE void rcu__word_wait(struct rcu__state *s, int32_t *word, int32_t expected, int64_t timeout_ns)
{
	(void)s;
	struct timespec ts = { (time_t)(timeout_ns / RCU__NS_PER_S), (long)(timeout_ns % RCU__NS_PER_S) };
	rcu__sys_syscall(SYS_futex, word, RCU__FUTEX_WAIT_PRIVATE, expected, timeout_ns >= 0 ? &ts : NULL, NULL, 0);
}

RCU__INLINE void rcu__word_wake(struct rcu__state *s, int32_t *word)
{
	(void)s;
	rcu__sys_syscall(SYS_futex, word, RCU__FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
}
#else
RCU__INLINE void rcu__word_wait(struct rcu__state *s, int32_t *word, int32_t expected, int64_t timeout_ns)
{
	struct timespec ts;
	if (timeout_ns >= 0) {
		rcu__clock_gettime(RCU__CLOCK_REALTIME, &ts);
		int64_t ns = ts.tv_nsec + timeout_ns;
		ts.tv_sec += (time_t)(ns / RCU__NS_PER_S);
		ts.tv_nsec = (long)(ns % RCU__NS_PER_S);
	}
	pthread_mutex_lock(&s->word_lock);
	/*
	 * S1: the caller's accesses before the check of the word, as futex_wait() orders them (the
	 * kernel's full barrier before it reads the word), so that both paths keep one contract. No
	 * protocol needs it today: K2's own seq_cst store and load close its pair with K1, and
	 * gp_done_word's waiters' bit and bump are read-modify-writes of the word itself (D1/D2).
	 */
	rcu__fence_full();
	if (rcu__load(word, RCU__RELAXED) == expected) {
		if (timeout_ns >= 0)
			pthread_cond_timedwait(&s->word_cond, &s->word_lock, &ts);
		else
			pthread_cond_wait(&s->word_cond, &s->word_lock);
	}
	pthread_mutex_unlock(&s->word_lock);
}

RCU__INLINE void rcu__word_wake(struct rcu__state *s, int32_t *word)
{
	(void)word;
	pthread_mutex_lock(&s->word_lock);
	pthread_cond_broadcast(&s->word_cond);
	pthread_mutex_unlock(&s->word_lock);
}
#endif

/* Readers' wake: the first to see the armed futex disarms it and wakes the updater. */
RCU__SLOW(wake_gp) void RCU__SYM(wake_gp)(struct rcu__gp *gp)
{
	if (rcu__xchg(&gp->gp_futex, RCU__FUTEX_IDLE, RCU__RELAXED) == RCU__FUTEX_ARMED) {
		rcu__word_wake(gp->owner, &gp->gp_futex);
		/* The SRCU worker may be the one waiting: it polls, and sleeps on its own word. */
		if (gp->kind == RCU__GP_SRCU && rcu__load(&gp->on_worklist, RCU__RELAXED))
			RCU__SYM(srcu_kick)(gp->owner);
	}
}

/*
 * Where grace periods differ by flavour (the reader's side is in >>reader):
 *   rcu__qsbr_leave(s, r), rcu__qsbr_return(s, r, was_online)
 *                          around a wait: QSBR: an online thread goes offline meanwhile
 *   rcu__register_online(s, r)   a thread that registers: QSBR: comes online
 *   rcu__lazy_wake(gp)     do this domain's readers fence after their slot clear? If not, a
 *                          sleeping updater must not rely on a wake: it rescans on a timeout
 *   rcu__yield_first(gp)   give the CPU away once before sleeping (rcu__readers_wait())?
 *   RCU__RULE_EXIT_IN_SECTION    RCU_DEBUG's sentence for a thread that ends inside a section
 *   RCU__STALL_HOLDER, RCU__STALL_SECTION   what a stall report says of a thread it waits for
 */
#if RCU__QSBR
/*
 * QSBR's delta (grace periods). A thread's slot moves only here: qsbr_report() takes it offline
 * (seq 0), online (UINT64_MAX), or to the number of the grace period it reports for. Online is
 * any thread in the registry with its slot set: registered threads, and adopted ones while they
 * run callbacks (which may read) or after rcu_thread_online(); an online thread that waits for a
 * grace period (of any domain) is offline meanwhile.
 */
RCU__SLOW(qsbr_report) void RCU__SYM(qsbr_report)(struct rcu__gp *gp, struct rcu__reader *r, uint64_t seq)
{
	if (seq == UINT64_MAX) {
		seq = rcu__load(&gp->gp_seq, RCU__ACQUIRE); /* Q0 */
		/* Release, as Q1: on an already online thread this store is a quiescent state. */
		rcu__store(&r->seq, seq, RCU__RELEASE);
		/* Q3: our slot store before the loads that follow; pairs with G1 (and, for the futex
		 * check below, with G3 as Q2 does). */
		rcu__fence_full();
		/* An online thread's new number is a quiescent state that an updater may sleep on. */
		if (rcu__load(&gp->gp_futex, RCU__RELAXED) == RCU__FUTEX_ARMED)
			RCU__SYM(wake_gp)(gp);
		return;
	}
	if (seq != 0 && rcu__load(&r->seq, RCU__RELAXED) == 0)
		return; /* offline: no quiescent state to report */
	/* Q1: release: the thread's accesses before the quiescent state; pairs with G2. */
	rcu__store(&r->seq, seq, RCU__RELEASE);
	/* Q2: the slot store before the futex check; pairs with G3. */
	rcu__fence_full();
	if (rcu__load(&gp->gp_futex, RCU__RELAXED) == RCU__FUTEX_ARMED)
		RCU__SYM(wake_gp)(gp);
	/* An online QSBR thread never helps inside call_rcu(); it helps here, where it is quiescent. */
	if (seq != 0 && RCU__UNLIKELY(RCU__SYM(over_high_water)(gp)) && !r->in_callback)
		RCU__SYM(help)(gp, r);
}

RCU__INLINE bool rcu__qsbr_leave(struct rcu__state *s, struct rcu__reader *r)
{
	if (r->registered != RCU__REG_NONE && rcu__load(&r->seq, RCU__RELAXED) != 0) {
		RCU__SYM(qsbr_report)(&s->gp, r, 0);
		return true;
	}
	return false;
}

RCU__INLINE void rcu__qsbr_return(struct rcu__state *s, struct rcu__reader *r, bool was_online)
{
	if (was_online && r->registered != RCU__REG_NONE)
		RCU__SYM(qsbr_report)(&s->gp, r, UINT64_MAX);
}

RCU__INLINE void rcu__register_online(struct rcu__state *s, struct rcu__reader *r)
{
	RCU__SYM(qsbr_report)(&s->gp, r, UINT64_MAX);
}

RCU__INLINE bool rcu__lazy_wake(struct rcu__gp *gp)
{
	return gp->kind == RCU__GP_SRCU; /* QSBR's reports fence (Q2); its SRCU readers do not */
}

/*
 * Not for the default domain: a QSBR reader that shares our CPU reports only at its next
 * quiescent state and wakes us only if we are armed, so after a yield we waited for the
 * scheduler's next tick (bench/ab.sh, rcu-bench --only sync, 2 readers on 2 CPUs:
 * synchronize_rcu() mean 2,029 us with the yield, 49 us without; liburcu 0.15: 22 us).
 */
RCU__INLINE bool rcu__yield_first(struct rcu__gp *gp)
{
	return gp->kind != RCU__GP_DEFAULT;
}

#define RCU__RULE_EXIT_IN_SECTION "the thread ends inside rcu_read_lock(): every rcu_read_lock() needs its rcu_read_unlock() before the thread returns"
/* A stall report's thread (>>debug): where its last section began says nothing (it may have
 * ended long ago; the thread holds the grace period up by not reporting). */
#define RCU__STALL_HOLDER "online without a quiescent state since the grace period began"
#define RCU__STALL_SECTION 0

#else
RCU__INLINE bool rcu__qsbr_leave(struct rcu__state *s, struct rcu__reader *r)
{
	(void)s;
	(void)r;
	return false;
}

RCU__INLINE void rcu__qsbr_return(struct rcu__state *s, struct rcu__reader *r, bool was_online)
{
	(void)s;
	(void)r;
	(void)was_online;
}

RCU__INLINE void rcu__register_online(struct rcu__state *s, struct rcu__reader *r)
{
	(void)s;
	(void)r;
}

RCU__INLINE bool rcu__lazy_wake(struct rcu__gp *gp)
{
#if RCU__MEMB_READER
	return !rcu__load(&gp->use_membarrier, RCU__RELAXED);
#else
	(void)gp;
	return !RCU__EXIT_FENCE; /* with it, R3 fences */
#endif
}

RCU__INLINE bool rcu__yield_first(struct rcu__gp *gp)
{
	(void)gp;
	return true;
}

#define RCU__RULE_EXIT_IN_SECTION "the thread ends inside a read-side critical section: every rcu_read_lock() needs its rcu_read_unlock() before the thread returns"
#define RCU__STALL_HOLDER "in a read-side section begun before the grace period"
#define RCU__STALL_SECTION 1 /* RCU_DEBUG: where the section began */
#endif

/* The updater's half of the store-buffering pairs: G1 (after the advance), G3 (after arming). */
RCU__INLINE void rcu__updater_fence(struct rcu__gp *gp)
{
	rcu__fence_full();
#if RCU__MEMB_READER && RCU__HAVE_MEMBARRIER
	if (rcu__load(&gp->use_membarrier, RCU__RELAXED) &&
	    rcu__membarrier(RCU__MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0)
		RCU__SYM(die)("synchronize_rcu()", "membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed after it was registered");
#else
	(void)gp;
#endif
}

/* Set up a domain's grace-period state (the default domain's, or an SRCU domain's). */
RCU__SLOW(gp_setup) void RCU__SYM(gp_setup)(struct rcu__gp *gp, struct rcu__state *owner, int kind, const char *name)
{
	gp->kind = kind;
	gp->owner = owner;
	gp->name = name;
	rcu__store(&gp->gp_seq, 1, RCU__RELAXED);
	rcu__store(&gp->gp_completed, 1, RCU__RELAXED);
	rcu__store(&gp->gp_requested, 1, RCU__RELAXED);
	gp->spin_budget = RCU__SPIN_SCANS;
	rcu__store(&gp->gp_futex, RCU__FUTEX_IDLE, RCU__RELAXED);
	rcu__store(&gp->use_membarrier, kind == RCU__GP_SRCU ? rcu__load(&owner->gp.use_membarrier, RCU__RELAXED) : 0,
		   RCU__RELAXED);
	rcu__store(&gp->cbq.stub.next, (struct rcu_head *)NULL, RCU__RELAXED);
	rcu__store(&gp->cbq.tail, &gp->cbq.stub, RCU__RELAXED);
	pthread_mutex_init(&gp->gp_lock, NULL);
	pthread_mutex_init(&gp->cb_consumer, NULL);
}

/*
 * One-time set-up of the process state: its locks, the default domain, the fork handlers, the
 * thread-exit key, membarrier registration. The first caller runs it; others wait for it.
 */
RCU__SLOW(init) void RCU__SYM(init)(struct rcu__state *s)
{
	if (RCU__LIKELY(rcu__load(&s->init_state, RCU__ACQUIRE) == RCU__INIT_READY))
		return;
	int32_t none = RCU__INIT_NONE;
	if (!rcu__cas(&s->init_state, &none, RCU__INIT_RUNNING, RCU__ACQ_REL, RCU__ACQUIRE)) {
		while (rcu__load(&s->init_state, RCU__ACQUIRE) != RCU__INIT_READY)
			sched_yield();
		return;
	}
	pthread_mutex_init(&s->registry_lock, NULL);
	pthread_mutex_init(&s->word_lock, NULL);
	pthread_mutex_init(&s->take_lock, NULL);
	pthread_cond_init(&s->word_cond, NULL);
	pthread_mutex_init(&s->domains_lock, NULL);
	RCU__SYM(gp_setup)(&s->gp, s, RCU__GP_DEFAULT, "rcu");
	/*
	 * The fork handlers before any lock of ours can be held: every user of a lock passes
	 * through here first, and a fork() while a lock is held with no handler installed would
	 * leave the child a lock that nobody releases.
	 */
	pthread_atfork(RCU__SYM(prepare_fork), RCU__SYM(parent_fork), RCU__SYM(child_fork));
	rcu__store(&s->atfork_state, RCU__INIT_READY, RCU__RELAXED);
	if (pthread_key_create(&s->exit_key, RCU__SYM(thread_exit)) != 0)
		RCU__SYM(die)("rcu_register_thread()", "pthread_key_create() failed: no thread-specific key is left for thread-exit unregistration");
#if RCU__MEMB_READER && RCU__HAVE_MEMBARRIER
	if (rcu__membarrier(RCU__MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0)
		rcu__store(&s->gp.use_membarrier, 1, RCU__RELAXED);
#endif
	RCU__SYM(find_copies)(s);
	rcu__store(&s->gp.init_state, RCU__INIT_READY, RCU__RELEASE);
	/* I1: release: whoever sees READY sees the locks, use_membarrier and exit_key. */
	rcu__store(&s->init_state, RCU__INIT_READY, RCU__RELEASE);
}

/*
 * Set up at load time, while the program (or the dlopen() that loads us) has one thread in our
 * code, so that the fork handlers exist before any thread can hold one of our locks. First the
 * unit's per-program settings are checked against the units loaded before it. Costs one key and
 * one membarrier registration per process.
 */
#if !defined(RCU_NO_CONSTRUCTOR)
__attribute__((constructor)) static void rcu__constructor(void)
{
	RCU__SYM(check_config)(RCU__STATE, &rcu__unit_config);
	RCU__SYM(init)(RCU__STATE);
}
#endif

/* Link r into the registry, outside any section (QSBR: offline). */
RCU__INLINE void rcu__link_reader(struct rcu__state *s, struct rcu__reader *r, int how)
{
	RCU__SYM(init)(s);
	r->tid = rcu__gettid();
	r->owner = s;
	rcu__store(&r->seq, 0, RCU__RELAXED);
	pthread_mutex_lock(&s->registry_lock);
	r->prev = NULL;
	rcu__store(&r->next, s->readers, RCU__RELAXED);
	if (s->readers)
		s->readers->prev = r;
	/* Relaxed: an updater's lock-free look at the head (rcu__other_readers()) is ordered by J1/G7. */
	rcu__store(&s->readers, r, RCU__RELAXED);
	rcu__store(&r->registered, (uint8_t)how, RCU__RELAXED);
	pthread_mutex_unlock(&s->registry_lock);
	/*
	 * J1: the thread in the registry before its first section; pairs with G7, an updater's fence
	 * before it looks whether anyone but itself is registered (SB): either that updater sees us
	 * and scans, or our sections see everything it did before its grace period.
	 */
	rcu__fence_full();
	pthread_setspecific(s->exit_key, r);
}

/*
 * A thread that queues callbacks or reads an SRCU domain without being registered joins the
 * registry, outside any section: grace periods of SRCU domains scan its slots there, and a fork
 * child can mend a call_rcu() link it left unfinished (see >>callbacks). Outside a section it
 * holds up no default-domain grace period; inside one (C++'s reader guards adopt the thread in
 * MEMB and MB, >>cxx) it does, as a registered thread's. rcu_register_thread() later makes it
 * a reader proper.
 */
RCU__SLOW(adopt) void RCU__SYM(adopt)(struct rcu__state *s, struct rcu__reader *r)
{
	if (r->registered == RCU__REG_NONE)
		rcu__link_reader(s, r, RCU__REG_ADOPTED);
}

RCU__SLOW(register) void RCU__SYM(register)(struct rcu__state *s, struct rcu__reader *r)
{
	RCU__CHECK(r->registered != RCU__REG_THREAD, "rcu_register_thread()", "the thread is already registered");
	if (r->registered == RCU__REG_THREAD)
		return;
	if (r->registered == RCU__REG_ADOPTED)
		rcu__store(&r->registered, (uint8_t)RCU__REG_THREAD, RCU__RELAXED); /* already linked */
	else
		rcu__link_reader(s, r, RCU__REG_THREAD);
	rcu__register_online(s, r);
}

/* Does the thread hold a section of any SRCU domain? */
RCU__INLINE bool rcu__in_srcu_section(const struct rcu__reader *r)
{
	for (int k = 0; k < RCU_SRCU_NESTING; k++)
		if (r->srcu[k].seq != 0)
			return true;
	return false;
}

/* Leave the registry (or, with SRCU sections open, stay as an adopted thread). */
RCU__INLINE void rcu__unlink_reader(struct rcu__state *s, struct rcu__reader *r)
{
	/* A thread that exits inside a section (release builds) drops its section here. */
	rcu__store(&r->seq, 0, RCU__RELEASE);
	r->nesting = 0;
	pthread_mutex_lock(&s->registry_lock);
	if (rcu__in_srcu_section(r)) {
		rcu__store(&r->registered, (uint8_t)RCU__REG_ADOPTED, RCU__RELAXED);
		pthread_mutex_unlock(&s->registry_lock);
		RCU__SYM(wake_gp)(&s->gp);
		return;
	}
	/*
	 * J2: release: this thread's sections (their slot clears) before its removal; pairs with
	 * G7's acquire loads. An updater whose lock-free look misses us does not scan our slot (G2),
	 * so the removal itself must carry our last section's end to it.
	 */
	if (r->prev)
		rcu__store(&r->prev->next, r->next, RCU__RELEASE);
	else
		rcu__store(&s->readers, r->next, RCU__RELEASE);
	if (r->next)
		r->next->prev = r->prev;
	rcu__store(&r->next, (struct rcu__reader *)NULL, RCU__RELAXED);
	r->prev = NULL;
	/* Untag the SRCU slots, so that the next SRCU section takes the slow path and re-joins. */
	for (int k = 0; k < RCU_SRCU_NESTING; k++)
		rcu__store(&r->srcu[k].gp, (struct rcu__gp *)NULL, RCU__RELAXED);
	rcu__store(&r->registered, (uint8_t)RCU__REG_NONE, RCU__RELAXED);
	pthread_mutex_unlock(&s->registry_lock);
	pthread_setspecific(s->exit_key, NULL);
	/* An updater may sleep on this slot; its scans happened under the lock we just took. */
	RCU__SYM(wake_gp)(&s->gp);
}

RCU__SLOW(unregister) void RCU__SYM(unregister)(struct rcu__state *s, struct rcu__reader *r)
{
	RCU__CHECK(r->registered == RCU__REG_THREAD, "rcu_unregister_thread()", "the thread is not registered");
	if (r->registered != RCU__REG_THREAD)
		return;
	rcu__unlink_reader(s, r);
}

/* Thread-exit destructor of exit_key: unregister a thread that ends registered or adopted. */
RCU__SLOW(thread_exit) void RCU__SYM(thread_exit)(void *arg)
{
	struct rcu__reader *r = (struct rcu__reader *)arg;
	struct rcu__state *s = r->owner;
	RCU__CHECK(!rcu__in_section(r), "thread exit", RCU__RULE_EXIT_IN_SECTION);
	RCU__CHECK(!rcu__in_srcu_section(r), "thread exit", "the thread ends inside srcu_read_lock(): every srcu_read_lock() needs its srcu_read_unlock() before the thread returns");
	/* Release builds: drop SRCU sections left open, as the default domain's below. */
	for (int k = 0; k < RCU_SRCU_NESTING; k++) {
		struct rcu__srcu_slot *sl = &r->srcu[k];
		if (sl->seq != 0) {
			sl->nesting = 0;
			rcu__slot_exit(sl->gp, &sl->seq);
		}
	}
	if (r->registered != RCU__REG_NONE)
		rcu__unlink_reader(s, r);
}

/* Does reader r hold a section of gp that grace period `target` waits for? Registry lock held. */
RCU__INLINE bool rcu__reader_holds(struct rcu__gp *gp, struct rcu__reader *r, uint64_t target)
{
	if (gp->kind == RCU__GP_DEFAULT) {
		/* G2: acquire: pairs with R2/Q1, the readers' release of their slots. */
		uint64_t seq = rcu__load(&r->seq, RCU__ACQUIRE);
		return seq != 0 && seq < target;
	}
	for (int k = 0; k < RCU_SRCU_NESTING; k++) {
		/* G2, for SRCU slots: acquire, then the tag (see docs/ordering.md, slot reuse). */
		uint64_t seq = rcu__load(&r->srcu[k].seq, RCU__ACQUIRE);
		if (seq != 0 && seq < target && rcu__load(&r->srcu[k].gp, RCU__RELAXED) == gp)
			return true;
	}
	return false;
}

/*
 * Wait, spinning, until every reader of gp is outside the sections that grace period `target`
 * waits for: one pass over the registry under its lock, waiting for each reader in turn. A reader
 * seen outside once needs no second look (a section it begins later is not one the grace period
 * waits for), so the pass never goes back. Returns false, with the lock released, when a reader
 * still holds a section after *budget more looks at it (0: one look each, no spinning).
 */
RCU__INLINE bool rcu__readers_wait(struct rcu__gp *gp, uint64_t target, unsigned *budget)
{
	struct rcu__state *s = gp->owner;
	bool done = true;
	pthread_mutex_lock(&s->registry_lock);
	for (struct rcu__reader *r = s->readers; r && done; r = r->next)
		while (rcu__reader_holds(gp, r, target)) {
			if (*budget == 0) {
				done = false;
				break;
			}
			(*budget)--;
			rcu__cpu_relax();
		}
	pthread_mutex_unlock(&s->registry_lock);
	return done;
}

/* Is every reader of gp outside the sections that grace period `target` waits for? One look each. */
RCU__INLINE bool rcu__readers_done(struct rcu__gp *gp, uint64_t target)
{
	unsigned none = 0;
	return rcu__readers_wait(gp, target, &none);
}

/*
 * Is any thread in the registry besides `self`? A look without the lock (threads register at the
 * head, so with `self` at the head another is behind it), after the caller's advance: under
 * concurrent updaters the lock's cache line moved between CPUs at every grace period.
 */
RCU__INLINE bool rcu__other_readers(struct rcu__state *s, struct rcu__reader *self)
{
	/* G7: the advance (and the removal before it) before the look; pairs with J1 (SB). */
	rcu__fence_full();
	/* J2: acquire: a thread we find gone left after its last section (its release removal). */
	struct rcu__reader *head = rcu__load(&s->readers, RCU__ACQUIRE);
	return head && (head != self || rcu__load(&self->next, RCU__ACQUIRE));
}

/* How a grace period's looks at its readers turned out (RCU__SPIN_MIN). */
enum rcu__spin_outcome {
	RCU__SPIN_UNTRIED, /* the readers were out at the first look: nothing learnt */
	RCU__SPIN_PAID,    /* a reader left while we looked */
	RCU__SPIN_LOST     /* every look was spent and the CPU given up */
};

/* Adapt the domain's looks after a grace period that looked `spin` times at most; gp_lock held. */
RCU__INLINE void rcu__spin_adapt(struct rcu__gp *gp, unsigned spin, enum rcu__spin_outcome outcome)
{
	if (outcome == RCU__SPIN_PAID)
		gp->spin_budget = spin <= RCU__SPIN_SCANS / 2 ? 2 * spin : RCU__SPIN_SCANS;
	else if (outcome == RCU__SPIN_LOST) /* halve the count, not a probe's full one */
		gp->spin_budget = gp->spin_budget / 2 > RCU__SPIN_MIN ? gp->spin_budget / 2 : RCU__SPIN_MIN;
}

RCU__SLOW(wait_readers) void RCU__SYM(wait_readers)(struct rcu__gp *gp, uint64_t target)
{
	uint64_t start = RCU_STALL_TIMEOUT_MS > 0 ? rcu__now_ns() : 0;
	bool reported = false, yielded = false;
	(void)start;
	(void)reported;
	/* The looks adapt (RCU__SPIN_MIN). gp_count: a sample is enough. */
	unsigned spin = rcu__load(&gp->gp_count, RCU__RELAXED) % RCU__SPIN_PROBE_EVERY == 0 ? RCU__SPIN_SCANS
											  : gp->spin_budget;
	for (bool gave_up_cpu = false;; gave_up_cpu = true) {
		unsigned budget = spin;
		if (rcu__readers_wait(gp, target, &budget)) {
			rcu__spin_adapt(gp, spin, budget < spin ? RCU__SPIN_PAID
								: gave_up_cpu ? RCU__SPIN_LOST : RCU__SPIN_UNTRIED);
			return;
		}
		/*
		 * Before sleeping, give the CPU away once: on a machine with more runnable threads than
		 * CPUs, the reader we wait for may be waiting for ours, and a yield is cheaper than
		 * arming the futex and being woken (MEMB/BP: G3's membarrier). Not always in QSBR
		 * (rcu__yield_first()).
		 */
		if (!yielded && rcu__yield_first(gp) && RCU__SPIN_SCANS > 0) {
			yielded = true;
			sched_yield();
			continue;
		}
		rcu__store(&gp->gp_futex, RCU__FUTEX_ARMED, RCU__RELAXED);
		/* G3: arming before the rescan; pairs with R3/Q2 (a reader's clear before its check). */
		rcu__updater_fence(gp);
		if (rcu__readers_done(gp, target)) {
			rcu__store(&gp->gp_futex, RCU__FUTEX_IDLE, RCU__RELAXED);
			rcu__spin_adapt(gp, spin, RCU__SPIN_LOST);
			return;
		}
		int64_t timeout = rcu__lazy_wake(gp) ? RCU__LAZY_WAKE_NS : -1;
#if RCU_STALL_TIMEOUT_MS > 0
		uint64_t waited = rcu__now_ns() - start, limit = (uint64_t)RCU_STALL_TIMEOUT_MS * RCU__NS_PER_MS;
		if (!reported && waited >= limit) {
			RCU__SYM(report_stall)(gp, target, waited);
			reported = true;
		}
		if (!reported && (timeout < 0 || (uint64_t)timeout > limit - waited))
			timeout = (int64_t)(limit - waited);
#endif
		rcu__word_wait(gp->owner, &gp->gp_futex, RCU__FUTEX_ARMED, timeout);
	}
}

/*
 * The end of a grace period: publish it (gp_lock held, or by rcu__gp_unwatched()). gp_completed
 * only grows: a grace period completed without the lock may have published a later number while
 * the lock's holder still looked at readers that have since left. The count grows with each
 * number published.
 */
RCU__INLINE void rcu__gp_complete(struct rcu__gp *gp, uint64_t cur)
{
	RCU__TEST_HOOK(RCU__TP_GP_COMPLETE);
	uint64_t done = rcu__load(&gp->gp_completed, RCU__RELAXED);
	/* Counted before it is published, so that whoever sees the completion sees the count. */
	rcu__fetch_add(&gp->gp_count, 1, RCU__RELAXED);
	/*
	 * G4: release: the readers' sections (seen through G2) before the completion. Seq_cst: for
	 * the store-buffering pair with a waiter (D1), and in GenMC a release-only loop can fail on
	 * a stale number for ever beside a completion without the lock (docs/testing.md).
	 */
	while (done < cur && !rcu__cas(&gp->gp_completed, &done, cur, RCU__SEQ_CST, RCU__RELAXED))
		;
	if (done >= cur) { /* another published this number or a later one: not ours to count */
		rcu__fetch_sub(&gp->gp_count, 1, RCU__RELAXED);
		RCU__TEST_HOOK(RCU__TP_GP_PUBLISHED);
	}
}

/*
 * gp_done_word counts completions in twos (it wraps); its low bit says that a caller sleeps, or
 * is about to sleep, on the word.
 */
enum { RCU__DONE_WAITERS = 1, RCU__DONE_BUMP = 2 };

/* The completions a value of gp_done_word counts, without the waiters' bit. */
RCU__INLINE int32_t rcu__done_count(int32_t word)
{
	return word & ~(int32_t)RCU__DONE_WAITERS;
}

/*
 * After every release of gp_lock, and every completion without it: callers that lost the trylock
 * and sleep on gp_done_word look again, and take the lock if it is free.
 */
RCU__INLINE void rcu__gp_done_bump(struct rcu__gp *gp)
{
	/*
	 * D2: the bump after the completion and the unlock. A waiter's compare-exchange that sets
	 * the waiters' bit (D1) is before the bump in the word's modification order (the bump finds
	 * the bit) or fails (the waiter looks again). Release, for D1's acquire load: a waiter that
	 * reads the bump sees the completion. With the bit found, clear it and wake: every change of
	 * a value with the bit set is followed by a wake, so a caller asleep on such a value is
	 * woken. (Another caller may find the bit set in the meantime: it sleeps on a value that the
	 * clear changes, or is woken.) Both are read-modify-writes that cannot fail: no loop.
	 */
	if (rcu__fetch_add(&gp->gp_done_word, RCU__DONE_BUMP, RCU__RELEASE) & RCU__DONE_WAITERS) {
		rcu__fetch_and(&gp->gp_done_word, ~(int32_t)RCU__DONE_WAITERS, RCU__RELAXED);
		rcu__word_wake(gp->owner, &gp->gp_done_word);
	}
}

/*
 * The sleeper's half of D1, in gp_share(): set the waiters' bit in `word`, the value of
 * gp_done_word the caller read. True when the word holds word | RCU__DONE_WAITERS, the caller's
 * to sleep on (set by it, or by another waiter on the same count); false when a bump came since
 * (look again).
 */
RCU__INLINE bool rcu__done_announce(struct rcu__gp *gp, int32_t word)
{
	int32_t asleep = word | RCU__DONE_WAITERS;
	if (word == asleep)
		return true;
	/*
	 * D1, the sleeper's half; pairs with D2. Relaxed: what forbids the lost wake-up is the
	 * word's modification order, in which every read-modify-write reads the latest value, and
	 * futex_wait()'s check of the word.
	 */
	return rcu__cas(&gp->gp_done_word, &word, asleep, RCU__RELAXED, RCU__RELAXED) || word == asleep;
}

RCU__INLINE void rcu__gp_completed_wake(struct rcu__gp *gp)
{
	rcu__gp_done_bump(gp);
	/* An SRCU domain's worker may be polling this grace period: let it see the completion. */
	if (rcu__load(&gp->on_worklist, RCU__SEQ_CST)) /* only SRCU domains join the list */
		RCU__SYM(srcu_kick)(gp->owner);
}

/* Advance gp_seq to `target` if nobody has (gp_lock held); returns the grace period to wait for. */
RCU__INLINE uint64_t rcu__gp_advance(struct rcu__gp *gp, uint64_t target)
{
	uint64_t cur = rcu__load(&gp->gp_seq, RCU__RELAXED);
	/*
	 * G0: the advance, a read-modify-write: it reads from the snapshots' RMWs, so their
	 * callers' earlier accesses happen before any reader that sees the new number (R0).
	 * cur >= target without an advance: a poll step, a caller without the lock (E1, E2) or a
	 * congested QSBR call_rcu() (X2) advanced it already, or a forked child's parent was
	 * mid-period. Read relaxed: the fence
	 * that follows (G7, G1) orders what came before that caller's release RMW.
	 */
	if (cur < target)
		cur = rcu__fetch_add(&gp->gp_seq, 1, RCU__ACQ_REL) + 1;
	RCU__DELAY();
	return cur;
}

/* Is nobody but `self` in the registry? A first look, relaxed: registered threads cost one load. */
RCU__INLINE bool rcu__gp_alone(struct rcu__state *s, struct rcu__reader *self)
{
	struct rcu__reader *head = rcu__load(&s->readers, RCU__RELAXED);
	return !head || (head == self && !rcu__load(&self->next, RCU__RELAXED));
}

/* The rest of rcu__gp_unwatched(), once gp_seq is at the target or beyond. */
RCU__INLINE bool rcu__gp_unwatched_end(struct rcu__gp *gp, struct rcu__reader *self, uint64_t target)
{
	RCU__DELAY();
	if (rcu__other_readers(gp->owner, self))
		return false;
	RCU__TEST_HOOK(RCU__TP_GP_UNWATCHED);
	rcu__gp_complete(gp, target);
	rcu__gp_completed_wake(gp);
	return true;
}

/*
 * A grace period with nobody to wait for, without gp_lock: when no thread but the caller is in
 * the registry, see gp_seq at the target or beyond (E1: advance it if nobody has), fence and look
 * (G7, J2), and publish the completion (G4). Without the lock, concurrent callers complete each
 * other's grace periods with two read-modify-writes each, and a holder of the lock that still
 * looks at readers that have left finds its number published already (rcu__gp_complete() only
 * raises it). The ordering is the lock holder's, whose shortcut with no other thread registered
 * this is: a thread that registers after the look sees the advance and what came before it (J1,
 * G7), one that left before it is seen gone with its sections (J2). False, and nothing published:
 * another thread is registered, or gp_seq is behind the target (a cookie from the future).
 */
RCU__INLINE bool rcu__gp_unwatched(struct rcu__gp *gp, struct rcu__reader *self, uint64_t target)
{
	if (!rcu__gp_alone(gp->owner, self))
		return false;
	uint64_t seen = target - 1;
	/*
	 * E1: acq_rel: an advance that reads from the snapshots (G5) as the locked advance does (G0);
	 * failing, an acquire load of another's advance, which G7 (in the look) orders as our own.
	 */
	if (!rcu__cas(&gp->gp_seq, &seen, target, RCU__ACQ_REL, RCU__ACQUIRE) && seen < target)
		return false;
	return rcu__gp_unwatched_end(gp, self, target);
}

/*
 * Make sure grace period `target` (at most gp_seq + 1) has completed: with no thread but the
 * caller registered, without the lock (rcu__gp_unwatched()); otherwise RCU__SYM(gp_share)().
 */
RCU__SLOW(gp_wait_for) void RCU__SYM(gp_wait_for)(struct rcu__gp *gp, uint64_t target)
{
	if (rcu__load(&gp->gp_completed, RCU__ACQUIRE) < target && rcu__gp_unwatched(gp, rcu__self(), target))
		return;
	RCU__SYM(gp_share)(gp, target);
}

/*
 * Make sure grace period `target` (at most gp_seq + 1) has completed, under gp_lock: run it or
 * share it. A caller that finds another running a grace period does not queue on gp_lock (a
 * mutex is not fair, and its target may complete while it waits): it sleeps on gp_done_word and
 * returns as soon as its target has completed, or takes the lock when it is free.
 */
RCU__SLOW(gp_share) void RCU__SYM(gp_share)(struct rcu__gp *gp, uint64_t target)
{
	for (;;) {
		/*
		 * D1: read the word before the check. Acquire, with D2's release: a caller that reads a
		 * bump sees the completion and the unlock before it, so it returns or wins the trylock
		 * (relaxed, C11 lets the trylock keep failing on the stale lock state).
		 */
		int32_t word = rcu__load(&gp->gp_done_word, RCU__ACQUIRE);
		if (rcu__load(&gp->gp_completed, RCU__ACQUIRE) >= target)
			return;
		if (pthread_mutex_trylock(&gp->gp_lock) == 0)
			break;
		/*
		 * Another caller runs a grace period. It usually ends within microseconds: look for
		 * its completion for a while (RCU__SHARE_SPIN looks, one pause apart) before sleeping,
		 * so that sharing a short grace period costs no futex wake and no context switch.
		 */
		bool changed = false;
		for (unsigned i = 0; i < RCU__SHARE_SPIN && !changed; i++) {
			rcu__cpu_relax();
			changed = rcu__done_count(rcu__load(&gp->gp_done_word, RCU__RELAXED)) != rcu__done_count(word);
		}
		/*
		 * The load of gp_completed is relaxed: it only spares a sleep; the loop returns on the
		 * acquire load above. (No `continue` in this loop: clang -O1 turns the extra exit into
		 * a jump table in .rodata, which may not point into a slow path's section.)
		 */
		if (!changed && rcu__done_announce(gp, word) && rcu__load(&gp->gp_completed, RCU__RELAXED) < target)
			rcu__word_wait(gp->owner, &gp->gp_done_word, word | RCU__DONE_WAITERS, -1);
	}
	if (rcu__load(&gp->gp_completed, RCU__RELAXED) < target) {
		uint64_t cur = rcu__gp_advance(gp, target);
		/*
		 * With no thread in the registry but the caller, there is nothing to wait for and no
		 * fence to force: a thread that joins and that our look missed (G7) fenced after it
		 * joined (J1), so its sections see the advance and everything before it.
		 */
		if (rcu__other_readers(gp->owner, rcu__self())) {
			/* G1: the advance before the scan; pairs with R1/Q3 (a reader's slot store before its loads). */
			rcu__updater_fence(gp);
			RCU__SYM(wait_readers)(gp, cur);
		}
		rcu__gp_complete(gp, cur);
	}
	pthread_mutex_unlock(&gp->gp_lock);
	rcu__gp_completed_wake(gp);
}

/*
 * One non-blocking step towards grace period `target`, for the SRCU worker: true once it has
 * completed. It advances and scans (G0, G1, G2); if readers remain it arms the futex and
 * rescans (G3), so that the last of them wakes the worker (RCU__SYM(wake_gp)). A grace period
 * that another caller holds gp_lock for is left to that caller, whose completion kicks the worker.
 */
RCU__SLOW(gp_poll) bool RCU__SYM(gp_poll)(struct rcu__gp *gp, uint64_t target)
{
	if (rcu__load(&gp->gp_completed, RCU__ACQUIRE) >= target)
		return true;
	if (pthread_mutex_trylock(&gp->gp_lock) != 0)
		return false;
	bool done = rcu__load(&gp->gp_completed, RCU__RELAXED) >= target;
	if (!done) {
		uint64_t cur = rcu__gp_advance(gp, target);
		rcu__updater_fence(gp); /* G1 */
		done = rcu__readers_done(gp, cur);
		if (!done) {
			rcu__store(&gp->gp_futex, RCU__FUTEX_ARMED, RCU__RELAXED);
			rcu__updater_fence(gp); /* G3 */
			done = rcu__readers_done(gp, cur);
			if (done)
				rcu__store(&gp->gp_futex, RCU__FUTEX_IDLE, RCU__RELAXED);
		}
#if RCU_STALL_TIMEOUT_MS > 0
		/* A stall of a grace period driven in steps is reported as wait_readers() reports one. */
		if (!done) {
			uint64_t now = rcu__now_ns();
			if (gp->poll_target != cur) {
				gp->poll_target = cur;
				gp->poll_start_ns = now;
				gp->poll_reported = 0;
			} else if (!gp->poll_reported && now - gp->poll_start_ns >= (uint64_t)RCU_STALL_TIMEOUT_MS * RCU__NS_PER_MS) {
				RCU__SYM(report_stall)(gp, cur, now - gp->poll_start_ns);
				gp->poll_reported = 1;
			}
		}
#endif
		if (done)
			rcu__gp_complete(gp, cur);
	}
	pthread_mutex_unlock(&gp->gp_lock);
	if (done)
		rcu__gp_completed_wake(gp);
	else
		rcu__gp_done_bump(gp); /* a caller whose trylock this step made fail may be asleep */
	return done;
}

/* The snapshot: the number of the first grace period that starts after this call. */
RCU__INLINE uint64_t rcu__gp_snapshot(struct rcu__gp *gp)
{
	/*
	 * G5: a release RMW, so the advance that reads from it (G0) makes the caller's earlier
	 * accesses (its removal) happen before the scan's fence (G1), whichever caller runs that
	 * grace period. No fence of its own: G1 is the updater's half of R1/G1, and the caller's full
	 * barrier is G6 at the end (GenMC finds no test that needs one here: docs/ordering.md).
	 */
	return rcu__fetch_add(&gp->gp_seq, 0, RCU__ACQ_REL) + 1;
}

RCU__SLOW(snapshot) uint64_t RCU__SYM(snapshot)(struct rcu__gp *gp)
{
	rcu__gp_ready(gp);
	return rcu__gp_snapshot(gp);
}

/*
 * synchronize() (`fresh`: a grace period that starts now) and cond_synchronize() (the grace
 * period `cookie`), one body. With nobody else registered at a first look, synchronize()'s
 * snapshot is the advance and the grace period completes without the lock (rcu__gp_unwatched());
 * with others, it goes straight to gp_share().
 */
RCU__INLINE void rcu__gp_sync(struct rcu__gp *gp, bool fresh, uint64_t cookie)
{
	struct rcu__reader *r = rcu__self();
	rcu__gp_ready(gp); /* the process's state (gp->owner, the registry) on first use */
	bool was_online = rcu__qsbr_leave(gp->owner, r);
	if (!fresh) {
		RCU__SYM(gp_wait_for)(gp, cookie);
	} else if (rcu__gp_alone(gp->owner, r)) {
		/* E2: acq_rel: the snapshot that advances. Its release is G5's (our removal before
		 * whoever reads the number: readers (R0), a locked caller that finds gp_seq
		 * advanced); as E1 after. */
		uint64_t target = rcu__fetch_add(&gp->gp_seq, 1, RCU__ACQ_REL) + 1;
		if (!rcu__gp_unwatched_end(gp, r, target))
			RCU__SYM(gp_share)(gp, target); /* someone registered meanwhile: the lock */
	} else {
		RCU__SYM(gp_share)(gp, rcu__gp_snapshot(gp));
	}
	/* G6: the barrier at the end: accesses after the return stay after the grace period. */
	rcu__fence_full();
	rcu__qsbr_return(gp->owner, r, was_online);
}

RCU__SLOW(cond_synchronize) void RCU__SYM(cond_synchronize)(struct rcu__gp *gp, uint64_t cookie)
{
	rcu__gp_sync(gp, false, cookie);
}

RCU__SLOW(synchronize) void RCU__SYM(synchronize)(struct rcu__gp *gp)
{
	rcu__gp_sync(gp, true, 0);
}

/* SRCU domains: set-up on first use (race-safe), the readers' slow path, retirement. */
RCU__SLOW(srcu_init) void RCU__SYM(srcu_init)(struct srcu_struct *ssp)
{
	struct rcu__gp *gp = &ssp->gp;
	struct rcu__state *s = RCU__STATE;
	int32_t none = RCU__INIT_NONE;
	if (!rcu__cas(&gp->init_state, &none, RCU__INIT_RUNNING, RCU__ACQ_REL, RCU__ACQUIRE)) {
		while (rcu__load(&gp->init_state, RCU__ACQUIRE) != RCU__INIT_READY)
			sched_yield();
		return;
	}
	RCU__SYM(init)(s);
	RCU__SYM(gp_setup)(gp, s, RCU__GP_SRCU, ssp->name ? ssp->name : "srcu_struct");
	pthread_mutex_lock(&s->domains_lock);
	gp->live_prev = NULL;
	gp->live_next = s->domains;
	if (s->domains)
		s->domains->live_prev = gp;
	s->domains = gp;
	pthread_mutex_unlock(&s->domains_lock);
	rcu__store(&gp->init_state, RCU__INIT_READY, RCU__RELEASE);
}

/* The first section of domain gp in this thread, or the first since its slot served another. */
RCU__SLOW(srcu_lock_slow) int RCU__SYM(srcu_lock_slow)(struct rcu__gp *gp, struct rcu__reader *r, const char *file, int line)
{
	struct srcu_struct *ssp = rcu_container_of(gp, struct srcu_struct, gp);
	rcu__srcu_ready(ssp);
	if (r->registered == RCU__REG_NONE)
		RCU__SYM(adopt)(gp->owner, r);
	for (int k = 0; k < RCU_SRCU_NESTING; k++) {
		struct rcu__srcu_slot *sl = &r->srcu[k];
		if (sl->seq != 0)
			continue;
		sl->nesting = 0;
		rcu__store(&sl->gp, gp, RCU__RELAXED);
		/*
		 * S2: the tag before the slot's seq store in rcu__slot_enter(); pairs with G2's acquire
		 * load of seq in rcu__reader_holds(). An updater of the slot's previous domain that
		 * reads the new seq then reads the new tag, and does not wait for a section of ours.
		 */
		rcu__fence_release();
#if defined(RCU_DEBUG)
		sl->section_file = file;
		sl->section_line = line;
		sl->section_start_ns = rcu__now_ns();
#else
		(void)file;
		(void)line;
#endif
		rcu__slot_enter(gp, &sl->seq);
		return k;
	}
	RCU__SYM(die)("srcu_read_lock()", "the thread is already inside sections of RCU_SRCU_NESTING other SRCU domains: define RCU_SRCU_NESTING higher (the same in every translation unit)");
	return 0;
}

/* Is any thread inside a section of gp? (cleanup's check) */
RCU__INLINE bool rcu__srcu_has_readers(struct rcu__gp *gp)
{
	struct rcu__state *s = gp->owner;
	bool found = false;
	pthread_mutex_lock(&s->registry_lock);
	for (struct rcu__reader *r = s->readers; r && !found; r = r->next)
		for (int k = 0; k < RCU_SRCU_NESTING && !found; k++)
			found = rcu__load(&r->srcu[k].seq, RCU__ACQUIRE) != 0 &&
				rcu__load(&r->srcu[k].gp, RCU__RELAXED) == gp;
	pthread_mutex_unlock(&s->registry_lock);
	return found;
}

/* >>callbacks --------------------------------------------------------------------------------- */

/*
 * Deferred reclamation, in prose. call_rcu() appends the head to its domain's wait-free queue
 * (swap the tail, link the old tail: C1, C2) and returns. A batch is the whole queue taken at
 * once; it gets a grace-period cookie after the take, waits until that grace period has passed,
 * and is invoked in queue order: one grace period per batch, and callbacks queued by one thread
 * run in the order queued. Whoever takes and invokes a batch holds the domain's cb_consumer, so
 * batches never overlap and a barrier only has to queue a marker and wait for it to run. The
 * taken batch lives in the domain (batch_first, batch_last, batch_cookie), not on a stack, so
 * that a step can be left and resumed, and a fork child finds it.
 *
 * Workers. The default domain has a worker thread, "rcu-callbacks", started on first use, which
 * blocks on each batch's grace period. SRCU domains share one worker, "srcu-callbacks", which
 * must not block on any one domain (a domain whose readers sleep would hold up every other
 * domain's callbacks): it keeps a list of domains with work, advances each by a non-blocking
 * step (RCU__SYM(gp_poll)), invokes the batches whose grace period has passed, and sleeps until a
 * call_srcu(), a reader leaving a domain it waits for, or a completed grace period kicks it.
 *
 * Memory bound: a call_rcu() caller outside a read-side section and outside a callback that
 * finds more than RCU_CALLBACK_HIGH_WATER callbacks pending takes cb_consumer and runs a batch
 * itself, so producers wait for reclamation instead of growing the queue. Pending callbacks then
 * stay at most RCU_CALLBACK_HIGH_WATER + one per concurrently queueing thread + those queued
 * from inside sections and callbacks (which only wake the worker). call_srcu() does the same
 * per domain (outside sections of that domain).
 * QSBR: an online thread is always inside a section, so its call_rcu() never helps; it helps at
 * its next rcu_quiescent_state() instead: call_rcu() above the mark advances gp_seq (starts a
 * grace period), which sends every online thread's next quiescent state to its slow path. Offline
 * and unregistered QSBR threads help in call_rcu(). A helper is in the registry (adopted, if it
 * did not register), so that the callbacks it runs may read under rcu_read_lock().
 * QSBR: callbacks run online, so one that blocks holds up grace periods; go offline around it.
 *
 * fork(): the child keeps only the forking thread in the registry and forgets the workers (the
 * next call_rcu(), call_srcu() or barrier starts them again); batches taken but not finished and
 * queued callbacks stay where they are, so callbacks pending at the fork run in the child as
 * well. A take detaches the chain from the queue and records it as the batch under take_lock,
 * which prepare_fork() holds across fork(), so a child never finds a chain that only the
 * consumer's stack knew of. A callback running at the fork is not run again in the child (its
 * thread is gone; the child keeps what it had done). A thread that was inside call_rcu() at the
 * fork left its head, its predecessor and its domain in its reader record, the predecessor
 * written before the CAS that swaps the head in: the child finds whether the swap happened
 * (child_swapped()) and, if it did, links the head behind its predecessor, so neither it
 * nor the callbacks queued behind it are lost; if it did not, the head is not queued (its
 * call_rcu() had not returned) and is not run. (With an exchange instead of the CAS, a thread
 * caught between its swap and its record left a head that the child could not place, and the
 * child's guess put it behind another thread's gap: callbacks ran out of order, and some were
 * lost.) A thread that queues callbacks without being registered is adopted into the registry
 * by its first call for this reason.
 *
 * Process exit: an exit handler stops the workers before their next batch (waiting at most one
 * second for a batch in progress), so callbacks do not run on them while later exit handlers
 * tear the process down, and exit never hangs on RCU. Callbacks still pending are not invoked;
 * call rcu_barrier() (srcu_barrier()) first to run them (a barrier during exit runs them on the
 * exiting thread). A plugin that queues callbacks must call the barriers before dlclose().
 *
 * The `func` field of a queued head: a callback of call_rcu() (an address of at least
 * RCU__CALLBACK_MIN, which call_rcu() checks), an rcu_free() offset below RCU__FREE_OFFSET_MAX
 * (set only by RCU__SYM(free)), or RCU__BARRIER_TAG (set only by the barriers). Tags, not
 * addresses, so that copies of the code in several shared objects agree on them.
 */
#define RCU__HEAD_QUEUED 0x5243555155455545ull /* "RCUQUEUE" */
#define RCU__FREE_OFFSET_MAX 4095
#define RCU__BARRIER_TAG 4095
#define RCU__CALLBACK_MIN 4096
#define RCU__IS_USER_CALLBACK(f) ((uintptr_t)(f) != RCU__BARRIER_TAG)

/* Which worker's callback a thread is running (reader record's in_callback). */
enum rcu__callback_state { RCU__CB_NONE = 0, RCU__CB_DEFAULT, RCU__CB_SRCU };

/* What a step of batch processing did. */
enum rcu__step { RCU__STEP_IDLE = 0, RCU__STEP_WAITING, RCU__STEP_DONE };

struct rcu__barrier {
	struct rcu_head head;
	int32_t done; /* (atomic) */
};

/**
 * call_rcu(head, func) - call func(head) after a grace period of the default domain.
 *
 * Every reader inside a section when call_rcu() is called has left it before func starts. The
 * head must stay valid and untouched until then. The enqueue is wait-free; it allocates nothing
 * and cannot fail; callable from any thread, inside a read-side section, and from callbacks.
 * Above RCU_CALLBACK_HIGH_WATER pending callbacks, a caller outside any section runs a batch
 * itself (it waits for a grace period) before it returns: see the prose above. Callbacks run on
 * the worker thread "rcu-callbacks" (or on a call_rcu() caller that helps) and may block, read
 * RCU data inside rcu_read_lock(), call call_rcu() and synchronize_rcu(). A func that is NULL, or
 * any value below 4096, is rejected: at compile time when it is a null constant, otherwise by an
 * abort with a sentence (in every build: it cannot be a function, and the value would be taken
 * for an rcu_free() offset). RCU_DEBUG aborts on a head that is already queued.
 */
static inline void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head)) RCU__NOEXCEPT
{
	RCU__SYM(call)(RCU__GP, head, func);
}

/* C: a null constant as the callback does not compile (C++: deleted overloads, in >>cxx). */
#if !defined(__cplusplus)
#if !defined(RCU__INSTANCE) /* declared once for every flavour of a unit */
extern void (*rcu__null_callback(void))(struct rcu_head *)
	__attribute__((error("call_rcu()/call_srcu(): the callback is a null pointer constant; pass the function to call after the grace period")));
extern void (*rcu__small_callback(void))(struct rcu_head *)
	__attribute__((error("call_rcu()/call_srcu(): the callback is a constant below 4096, not a function address; pass the function to call after the grace period (rcu_free() frees an object)")));
#endif
#define RCU__CALLBACK(func) \
	_Generic((func), void *: rcu__null_callback(), int: rcu__null_callback(), long: rcu__null_callback(), \
		 default: (__builtin_constant_p((uintptr_t)(func)) && (uintptr_t)(func) < RCU__CALLBACK_MIN \
			   ? rcu__small_callback() : (func)))
#if !defined(RCU__INSTANCE)
#define call_rcu(head, func) (call_rcu)((head), RCU__CALLBACK(func))
#endif
#endif

/**
 * rcu_free(ptr, field) - the kernel's kfree_rcu(): RCU_FREE(ptr) after a grace period.
 *
 * field names the struct rcu_head member of *ptr (at most 4094 bytes into the object). A NULL
 * ptr does nothing, as kfree_rcu(NULL, field). Same rules and cost as call_rcu().
 */
#define rcu_free(ptr, field) \
	__extension__({ \
		__typeof__(*(ptr)) *rcu__p = (ptr); \
		(void)sizeof(char[offsetof(__typeof__(*(ptr)), field) < RCU__FREE_OFFSET_MAX ? 1 : -1]); \
		if (rcu__p) \
			RCU__SYM(free)(RCU__GP, &rcu__p->field, offsetof(__typeof__(*(ptr)), field)); \
	})

/**
 * rcu_barrier() - wait until every callback queued before the call has been invoked.
 *
 * Callbacks queued after it (by callbacks, say) may still be pending. Must not be called inside
 * a read-side section (it aborts, in every build; QSBR: RCU_DEBUG builds) or from a callback of
 * the default domain (a deadlock: RCU_DEBUG aborts). QSBR: an online caller is offline during
 * the wait.
 */
static inline void rcu_barrier(void) RCU__NOEXCEPT
{
	struct rcu__reader *r = rcu__self();
	RCU__REQUIRE(!rcu__in_section(r), "rcu_barrier()", RCU__RULE_IN_SECTION);
	RCU__CHECK(r->in_callback != RCU__CB_DEFAULT, "rcu_barrier()", "called from an RCU callback, which would wait for its own batch forever (deadlock)");
	(void)r;
	RCU__SYM(barrier)(RCU__GP);
}

/** rcu_get_stats(out) - grace-period and callback counters; a few loads, callable anywhere. */
static inline void rcu_get_stats(struct rcu_stats *out) RCU__NOEXCEPT
{
	RCU__SYM(stats)(RCU__GP, out);
}

/**
 * call_srcu(ssp, head, func) - call func(head) after a grace period of SRCU domain ssp.
 *
 * As call_rcu(), for ssp: every reader of ssp inside a section when call_srcu() is called has
 * left it before func starts. Callbacks run on the "srcu-callbacks" worker, in queue order per
 * domain; one that blocks delays other domains' callbacks (not their grace periods).
 */
static inline void call_srcu(struct srcu_struct *ssp, struct rcu_head *head, void (*func)(struct rcu_head *head)) RCU__NOEXCEPT
{
	rcu__srcu_ready(ssp);
	RCU__SYM(call)(&ssp->gp, head, func);
}
#if !defined(__cplusplus) && !defined(RCU__INSTANCE)
#define call_srcu(ssp, head, func) (call_srcu)((ssp), (head), RCU__CALLBACK(func))
#endif

/**
 * srcu_barrier(ssp) - wait until every callback queued on ssp before the call has been invoked.
 *
 * Waits for ssp's callbacks only. Must not be called inside a section of ssp (it aborts, in
 * every build) or from an SRCU callback (a deadlock: RCU_DEBUG aborts).
 */
static inline void srcu_barrier(struct srcu_struct *ssp) RCU__NOEXCEPT
{
	RCU__REQUIRE(!srcu_read_lock_held(ssp), "srcu_barrier()",
		"called inside a read-side critical section of the same SRCU domain, which it would wait for forever (deadlock)");
	RCU__CHECK(rcu__self()->in_callback != RCU__CB_SRCU, "srcu_barrier()",
		"called from an SRCU callback, which would wait for its own worker forever (deadlock)");
	RCU__CHECK_QSBR_WAIT("srcu_barrier()");
	rcu__srcu_ready(ssp);
	RCU__SYM(barrier)(&ssp->gp);
}

/** srcu_get_stats(ssp, out) - rcu_get_stats() for SRCU domain ssp. */
static inline void srcu_get_stats(struct srcu_struct *ssp, struct rcu_stats *out) RCU__NOEXCEPT
{
	rcu__srcu_ready(ssp);
	RCU__SYM(stats)(&ssp->gp, out);
}

RCU__INLINE void rcu__barrier_done(struct rcu__state *s, struct rcu_head *head)
{
	struct rcu__barrier *b = rcu_container_of(head, struct rcu__barrier, head);
	rcu__store(&b->done, 1, RCU__RELEASE);
	/* The waiter may return at once; the wake uses the address as a key only. */
	rcu__word_wake(s, &b->done);
}

/*
 * The next node of a taken chain; its producer may still be between its swap and its link (a
 * few instructions, unless it was preempted there): RCU__LINK_SPINS pauses, then yields.
 */
#define RCU__LINK_SPINS 1000
RCU__INLINE struct rcu_head *rcu__cbq_next(struct rcu_head *h)
{
	struct rcu_head *next;
	/* C3: acquire: pairs with C2, the producer's link of its fully written head. */
	for (unsigned spins = 0; !(next = rcu__load(&h->next, RCU__ACQUIRE)); spins++) {
		if (spins < RCU__LINK_SPINS)
			rcu__cpu_relax();
		else
			sched_yield();
	}
	return next;
}

/* The queue's first head, once its producer has linked it; NULL if the queue is empty. The
 * caller holds cb_consumer (nobody else resets the stub's link). */
RCU__INLINE struct rcu_head *rcu__cbq_first(struct rcu__cbq *q)
{
	if (rcu__load(&q->stub.next, RCU__ACQUIRE) == NULL && rcu__load(&q->tail, RCU__SEQ_CST) == &q->stub)
		return NULL;
	return rcu__cbq_next(&q->stub);
}

/* Detach the chain behind the stub from the queue; returns its last head. Waits for nobody. */
RCU__INLINE struct rcu_head *rcu__cbq_detach(struct rcu__cbq *q)
{
	rcu__store(&q->stub.next, (struct rcu_head *)NULL, RCU__RELAXED);
	RCU__DELAY();
	/* C4: producers that swap after this link to the stub; acquire pairs with C1. */
	return rcu__xchg(&q->tail, &q->stub, RCU__ACQ_REL);
}

/* Take the whole queue: false if empty. The caller holds cb_consumer. */
RCU__INLINE bool rcu__cbq_take(struct rcu__cbq *q, struct rcu_head **first, struct rcu_head **last)
{
	if (!(*first = rcu__cbq_first(q)))
		return false;
	*last = rcu__cbq_detach(q);
	return true;
}

RCU__INLINE bool rcu__cbq_empty(struct rcu__cbq *q)
{
	return rcu__load(&q->tail, RCU__SEQ_CST) == &q->stub;
}

/* Callbacks queued and not yet invoked (a sample: `invoked` read after `queued`). */
RCU__INLINE int64_t rcu__cbq_pending(struct rcu__cbq *q)
{
	uint64_t queued = rcu__load(&q->queued, RCU__RELAXED);
	return (int64_t)(queued - rcu__load(&q->invoked, RCU__RELAXED));
}

/*
 * Where callbacks differ by flavour: congestion. Above RCU_CALLBACK_HIGH_WATER pending callbacks,
 * call_rcu() callers outside a section help invoke them (rcu__after_enqueue()).
 *   rcu__congestion_ask(gp)   call_rcu() found the queue above the mark
 */
#if RCU__QSBR
/*
 * QSBR's delta (callbacks). An online thread is never outside a section, so it is asked to help
 * at its next quiescent state instead: rcu__congestion_ask() starts a grace period, so that the
 * next rcu_quiescent_state() of every online thread finds a new number and takes its slow path
 * (qsbr_report()), which helps while the queue is above the mark. A flag beside gp_seq did the
 * same at the cost of a third load in every quiescent state.
 */
RCU__SLOW(over_high_water) bool RCU__SYM(over_high_water)(struct rcu__gp *gp)
{
	return rcu__cbq_pending(&gp->cbq) > RCU_CALLBACK_HIGH_WATER;
}

RCU__INLINE void rcu__congestion_ask(struct rcu__gp *gp)
{
	/*
	 * X2: online threads help at their next quiescent state: make them look by starting a grace
	 * period that nobody runs yet (the next caller's grace period, whose number is later, covers
	 * it). An advance as E1 and E2 are: an RMW, so G5's release sequence runs through it, and a
	 * reader that reports the new number has seen what the snapshots before it published.
	 */
	if (gp->kind == RCU__GP_DEFAULT)
		rcu__fetch_add(&gp->gp_seq, 1, RCU__ACQ_REL);
}
#else
RCU__INLINE void rcu__congestion_ask(struct rcu__gp *gp)
{
	(void)gp;
}
#endif

/*
 * Invoke the taken batch (its grace period has passed, G6 issued). The caller holds cb_consumer
 * and, in QSBR, is offline; it is online (if registered) while callbacks run, so that they may
 * read. Each callback is marked started (batch_first moves past it) before it runs.
 */
RCU__INLINE void rcu__invoke_batch(struct rcu__gp *gp, struct rcu__reader *r)
{
	struct rcu__state *s = gp->owner;
	struct rcu_head *h = rcu__load(&gp->batch_first, RCU__RELAXED);
	struct rcu_head *last = rcu__load(&gp->batch_last, RCU__RELAXED);
	rcu__qsbr_return(s, r, true);
	uint64_t n = 0;
	uint8_t was = r->in_callback;
	r->in_callback = (uint8_t)(gp->kind == RCU__GP_SRCU ? RCU__CB_SRCU : RCU__CB_DEFAULT);
	while (h) {
		struct rcu_head *next = h == last ? NULL : rcu__cbq_next(h);
		void (*func)(struct rcu_head *) = h->func;
		rcu__store(&gp->batch_first, next, RCU__RELAXED);
		/* F3: the callback's start before its effects, for a fork child (it is not run again). */
		rcu__fence_release();
#if defined(RCU_DEBUG)
		h->debug_state = 0;
#endif
		if ((uintptr_t)func == RCU__BARRIER_TAG) {
			/* Everything before the marker counts as invoked before its waiter returns. */
			rcu__fetch_add(&gp->cbq.invoked, n, RCU__RELEASE);
			n = 0;
			rcu__barrier_done(s, h);
		} else if ((uintptr_t)func < RCU__FREE_OFFSET_MAX) {
			RCU_FREE((void *)((char *)h - (uintptr_t)func));
			n++;
		} else {
			func(h);
			n++;
		}
		h = next;
	}
	r->in_callback = was;
	rcu__store(&gp->batch_last, (struct rcu_head *)NULL, RCU__RELAXED);
	rcu__fetch_add(&gp->cbq.invoked, n, RCU__RELEASE);
	rcu__qsbr_leave(s, r);
}

/*
 * One step of batch processing, under cb_consumer: take a batch if none is taken, then wait for
 * its grace period (block) or advance it one non-blocking step, and invoke it once it has passed.
 */
RCU__SLOW(process) int RCU__SYM(process)(struct rcu__gp *gp, struct rcu__reader *r, bool block)
{
	if (!rcu__load(&gp->batch_first, RCU__RELAXED)) {
		struct rcu_head *first = rcu__cbq_first(&gp->cbq);
		if (!first)
			return RCU__STEP_IDLE;
		/*
		 * Between the detach and the record the chain is on this thread's stack only, which a
		 * fork child does not have: take_lock, which prepare_fork() holds across fork(), keeps
		 * the two together (the child finds the chain in the queue or in the batch). The
		 * cookie is taken after the detach: the grace period starts after every call_rcu() of
		 * the batch.
		 */
		pthread_mutex_lock(&gp->owner->take_lock);
		struct rcu_head *last = rcu__cbq_detach(&gp->cbq);
		RCU__DELAY();
		RCU__TEST_HOOK(RCU__TP_BATCH_DETACHED);
		gp->batch_cookie = RCU__SYM(snapshot)(gp);
		rcu__store(&gp->batch_last, last, RCU__RELAXED);
		rcu__store(&gp->batch_first, first, RCU__RELAXED);
		pthread_mutex_unlock(&gp->owner->take_lock);
		RCU__TEST_HOOK(RCU__TP_BATCH_TAKEN);
	}
	if (block)
		RCU__SYM(gp_wait_for)(gp, gp->batch_cookie);
	else if (!RCU__SYM(gp_poll)(gp, gp->batch_cookie))
		return RCU__STEP_WAITING;
	rcu__fence_full(); /* G6, as at the end of synchronize_rcu() */
	rcu__invoke_batch(gp, r);
	return RCU__STEP_DONE;
}

/*
 * After a batch, the worker lets the next one gather for RCU__GATHER_NS before it takes it: one
 * grace period then serves every callback queued meanwhile, and a thread that queues callbacks
 * faster than grace periods end does not pay a system call to wake the worker after each batch
 * (with MB's cheap grace periods the worker found the queue empty every ~20 callbacks and slept).
 * Meanwhile it is GATHERING, not ASLEEP: call_rcu() does not wake it, but rcu_barrier(), a polled
 * grace period (start_poll_synchronize_rcu()) and a queue past RCU__GATHER_MAX pending callbacks
 * do (rcu__wake_worker()'s `urgent`), so that neither waiters nor memory pay for the gathering.
 */
#define RCU__GATHER_NS (RCU__NS_PER_MS / 10)
#define RCU__GATHER_MAX (RCU_CALLBACK_HIGH_WATER / 2)
RCU__INLINE void rcu__worker_gather(struct rcu__state *s, struct rcu__gp *gp)
{
	if (rcu__cbq_pending(&gp->cbq) > RCU__GATHER_MAX ||
	    rcu__load(&gp->gp_requested, RCU__RELAXED) > rcu__load(&gp->gp_completed, RCU__RELAXED))
		return;
	/* A hint only: whoever misses it wakes the worker a little late, or in vain. */
	rcu__store(&s->worker_sleeping, RCU__WORKER_GATHERING, RCU__SEQ_CST);
	rcu__word_wait(s, &s->worker_sleeping, RCU__WORKER_GATHERING, RCU__GATHER_NS);
	rcu__store(&s->worker_sleeping, RCU__WORKER_AWAKE, RCU__RELAXED);
}

RCU__SLOW(worker_main) void *RCU__SYM(worker_main)(void *arg)
{
	struct rcu__state *s = (struct rcu__state *)arg;
	struct rcu__gp *gp = &s->gp;
	struct rcu__reader *r = rcu__self();
#if defined(__linux__)
	prctl(PR_SET_NAME, "rcu-callbacks", 0, 0, 0);
#endif
#if !RCU__SELF_REGISTER
	RCU__SYM(register)(s, r);
#endif
	rcu__qsbr_leave(s, r);
	for (;;) {
		/* X1: `invoking` before the check of `exiting`; the exit handler does the reverse. */
		rcu__store(&s->invoking, 1, RCU__SEQ_CST);
		if (rcu__load(&s->exiting, RCU__SEQ_CST)) {
			rcu__store(&s->invoking, 0, RCU__RELEASE);
			rcu__word_wake(s, &s->invoking);
			for (;;) /* parked, holding nothing, until the process ends */
				rcu__word_wait(s, &s->exiting, 1, -1);
		}
		pthread_mutex_lock(&gp->cb_consumer);
		int step = RCU__SYM(process)(gp, r, true);
		pthread_mutex_unlock(&gp->cb_consumer);
		rcu__store(&s->invoking, 0, RCU__RELEASE);
		if (rcu__load(&s->exiting, RCU__RELAXED))
			rcu__word_wake(s, &s->invoking);
		uint64_t want = rcu__load(&gp->gp_requested, RCU__RELAXED);
		if (want > rcu__load(&gp->gp_completed, RCU__RELAXED)) {
			RCU__SYM(gp_wait_for)(gp, want);
			continue;
		}
		if (step == RCU__STEP_DONE) {
			rcu__worker_gather(s, gp);
			continue;
		}
		if (!rcu__cbq_empty(&gp->cbq))
			continue;
		/* W1: sleeping flag before the emptiness check; pairs with C5 in call_rcu(). */
		rcu__store(&s->worker_sleeping, RCU__WORKER_ASLEEP, RCU__SEQ_CST);
		if (rcu__cbq_empty(&gp->cbq) &&
		    rcu__load(&gp->gp_requested, RCU__SEQ_CST) <= rcu__load(&gp->gp_completed, RCU__RELAXED))
			rcu__word_wait(s, &s->worker_sleeping, RCU__WORKER_ASLEEP, -1);
		rcu__store(&s->worker_sleeping, RCU__WORKER_AWAKE, RCU__RELAXED);
	}
	return NULL;
}

/* Does SRCU domain gp have work for the worker: a batch, queued callbacks, a requested period? */
RCU__INLINE bool rcu__srcu_has_work(struct rcu__gp *gp)
{
	return rcu__load(&gp->batch_first, RCU__RELAXED) || !rcu__cbq_empty(&gp->cbq) ||
	       rcu__load(&gp->gp_requested, RCU__SEQ_CST) > rcu__load(&gp->gp_completed, RCU__RELAXED);
}

/* Put SRCU domain gp on the worker's list (if it is not there). */
RCU__INLINE void rcu__srcu_enlist(struct rcu__gp *gp)
{
	struct rcu__state *s = gp->owner;
	if (rcu__xchg(&gp->on_worklist, 1, RCU__SEQ_CST))
		return;
	pthread_mutex_lock(&s->domains_lock);
	gp->work_next = s->work;
	s->work = gp;
	pthread_mutex_unlock(&s->domains_lock);
}

/* Wake the SRCU worker: bump its word, and wake it if it sleeps (K1, pairs with K2). */
RCU__SLOW(srcu_kick) void RCU__SYM(srcu_kick)(struct rcu__state *s)
{
	/* K1: the bump before the check of the sleep flag; pairs with K2 (flag, then the word). */
	rcu__fetch_add(&s->srcu_word, 1, RCU__SEQ_CST);
	if (rcu__load(&s->srcu_sleeping, RCU__SEQ_CST))
		rcu__word_wake(s, &s->srcu_word);
}

RCU__SLOW(srcu_worker_main) void *RCU__SYM(srcu_worker_main)(void *arg)
{
	struct rcu__state *s = (struct rcu__state *)arg;
	struct rcu__reader *r = rcu__self();
#if defined(__linux__)
	prctl(PR_SET_NAME, "srcu-callbacks", 0, 0, 0);
#endif
#if !RCU__SELF_REGISTER
	RCU__SYM(register)(s, r); /* SRCU callbacks may read default-domain data too */
#endif
	rcu__qsbr_leave(s, r);
	for (;;) {
		/* X1, for this worker: `srcu_invoking` before the check of `exiting`. */
		rcu__store(&s->srcu_invoking, 1, RCU__SEQ_CST);
		if (rcu__load(&s->exiting, RCU__SEQ_CST)) {
			rcu__store(&s->srcu_invoking, 0, RCU__RELEASE);
			rcu__word_wake(s, &s->srcu_invoking);
			for (;;)
				rcu__word_wait(s, &s->exiting, 1, -1);
		}
		int32_t word = rcu__load(&s->srcu_word, RCU__SEQ_CST);
		pthread_mutex_lock(&s->domains_lock);
		struct rcu__gp *list = s->work;
		s->work = NULL;
		pthread_mutex_unlock(&s->domains_lock);
		bool progress = false, lazy = false;
		struct rcu__gp *keep = NULL, *keep_last = NULL;
		while (list) {
			struct rcu__gp *gp = list;
			list = gp->work_next;
			pthread_mutex_lock(&gp->cb_consumer);
			int step = RCU__SYM(process)(gp, r, false);
			uint64_t want = rcu__load(&gp->gp_requested, RCU__RELAXED);
			if (step == RCU__STEP_IDLE && want > rcu__load(&gp->gp_completed, RCU__RELAXED))
				step = RCU__SYM(gp_poll)(gp, want) ? RCU__STEP_DONE : RCU__STEP_WAITING;
			progress |= step == RCU__STEP_DONE;
			bool stays = rcu__srcu_has_work(gp);
			if (!stays) {
				/* Off the list, then look again: a call_srcu() in between re-enlists or finds us. */
				rcu__store(&gp->on_worklist, 0, RCU__SEQ_CST);
				stays = rcu__srcu_has_work(gp) && !rcu__xchg(&gp->on_worklist, 1, RCU__SEQ_CST);
			}
			if (stays) {
				lazy |= step == RCU__STEP_WAITING && rcu__lazy_wake(gp);
				gp->work_next = NULL;
				if (keep_last)
					keep_last->work_next = gp;
				else
					keep = gp;
				keep_last = gp;
			}
			pthread_mutex_unlock(&gp->cb_consumer);
		}
		bool any = keep != NULL;
		if (keep) {
			pthread_mutex_lock(&s->domains_lock);
			keep_last->work_next = s->work;
			s->work = keep;
			pthread_mutex_unlock(&s->domains_lock);
		}
		rcu__store(&s->srcu_invoking, 0, RCU__RELEASE);
		if (rcu__load(&s->exiting, RCU__RELAXED))
			rcu__word_wake(s, &s->srcu_invoking);
		if (progress)
			continue;
		/* K2: the sleep flag before the last look at the word; pairs with K1. */
		rcu__store(&s->srcu_sleeping, 1, RCU__SEQ_CST);
		int64_t timeout = any && lazy ? RCU__LAZY_WAKE_NS : -1;
#if RCU_STALL_TIMEOUT_MS > 0
		/* Come back in time to report a stall of a domain that still waits (see gp_poll). */
		if (any && (timeout < 0 || timeout > RCU__STALL_CHECK_NS))
			timeout = RCU__STALL_CHECK_NS;
#endif
		if (rcu__load(&s->srcu_word, RCU__SEQ_CST) == word)
			rcu__word_wait(s, &s->srcu_word, word, timeout);
		rcu__store(&s->srcu_sleeping, 0, RCU__RELAXED);
	}
	return NULL;
}

/* Exit handler: the workers take no batch after this returns (X1). It waits for a callback that
 * a worker is running to return, RCU__EXIT_WAIT_NS at most (one that blocks must not hang exit). */
#define RCU__EXIT_WAIT_NS RCU__NS_PER_S
RCU__SLOW(at_exit) void RCU__SYM(at_exit)(void)
{
	struct rcu__state *s = RCU__STATE;
	rcu__store(&s->exiting, 1, RCU__SEQ_CST); /* X1 */
	rcu__word_wake(s, &s->worker_sleeping);
	RCU__SYM(srcu_kick)(s);
	uint64_t deadline = rcu__now_ns() + RCU__EXIT_WAIT_NS;
	while ((rcu__load(&s->invoking, RCU__SEQ_CST) || rcu__load(&s->srcu_invoking, RCU__SEQ_CST)) &&
	       rcu__now_ns() < deadline) {
		if (rcu__load(&s->invoking, RCU__SEQ_CST))
			rcu__word_wait(s, &s->invoking, 1, RCU__NS_PER_MS);
		else
			rcu__word_wait(s, &s->srcu_invoking, 1, RCU__NS_PER_MS);
	}
}

/* Start a worker if there is none: false if it cannot be started (then callers help). */
RCU__SLOW(start_thread) bool RCU__SYM(start_thread)(struct rcu__state *s, int32_t *state, void *(*main_fn)(void *))
{
	int32_t none = RCU__WORKER_NONE;
	if (rcu__load(state, RCU__ACQUIRE) != RCU__WORKER_NONE)
		return true;
	if (!rcu__cas(state, &none, RCU__WORKER_STARTED, RCU__ACQ_REL, RCU__ACQUIRE))
		return true;
	RCU__SYM(init)(s);
	static int exit_handler_set; /* per copy of this function is fine: at_exit is idempotent */
	if (!rcu__xchg(&exit_handler_set, 1, RCU__RELAXED))
		atexit(RCU__SYM(at_exit));
	rcu__sigset_t all, old;
	rcu__sigfillset(&all);
	rcu__pthread_sigmask(RCU__SIG_SETMASK, &all, &old); /* the worker inherits "all blocked" */
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_t tid;
	int err = pthread_create(&tid, &attr, main_fn, s);
	pthread_attr_destroy(&attr);
	rcu__pthread_sigmask(RCU__SIG_SETMASK, &old, NULL);
	if (err != 0) {
		rcu__store(state, RCU__WORKER_NONE, RCU__RELEASE);
		return false;
	}
	return true;
}

RCU__SLOW(start_worker) bool RCU__SYM(start_worker)(struct rcu__gp *gp)
{
	struct rcu__state *s = gp->owner;
	if (gp->kind == RCU__GP_SRCU)
		return RCU__SYM(start_thread)(s, &s->srcu_worker_state, RCU__SYM(srcu_worker_main));
	return RCU__SYM(start_thread)(s, &s->worker_state, RCU__SYM(worker_main));
}

/*
 * The domain has work: make its worker look (start it if needed). False: no worker could start.
 * `urgent`: also end the default domain's gathering (a barrier or a polled grace period waits,
 * or the queue is half way to the high water); a plain call_rcu() leaves it to end on time.
 */
RCU__INLINE bool rcu__wake_worker(struct rcu__gp *gp, bool urgent)
{
	struct rcu__state *s = gp->owner;
	if (gp->kind == RCU__GP_SRCU) {
		rcu__srcu_enlist(gp);
		if (RCU__UNLIKELY(rcu__load(&s->srcu_worker_state, RCU__RELAXED) == RCU__WORKER_NONE) &&
		    !RCU__SYM(start_worker)(gp))
			return false;
		RCU__SYM(srcu_kick)(s);
		return true;
	}
	if (RCU__UNLIKELY(rcu__load(&s->worker_state, RCU__RELAXED) == RCU__WORKER_NONE) &&
	    !RCU__SYM(start_worker)(gp))
		return false;
	/* C5: after the enqueue's seq_cst swap; pairs with W1. */
	int32_t sleep = rcu__load(&s->worker_sleeping, RCU__SEQ_CST);
	if ((sleep == RCU__WORKER_ASLEEP || (urgent && sleep == RCU__WORKER_GATHERING)) &&
	    rcu__xchg(&s->worker_sleeping, RCU__WORKER_AWAKE, RCU__RELAXED) != RCU__WORKER_AWAKE)
		rcu__word_wake(s, &s->worker_sleeping);
	return true;
}

/* May this thread block in call_rcu()/call_srcu() to help? Not while a grace period would wait
 * for it (inside a section; QSBR: online), not in a callback. */
RCU__INLINE bool rcu__may_help(struct rcu__reader *r)
{
	if (r->in_callback != RCU__CB_NONE || rcu__online(r))
		return false;
	/*
	 * Nor inside a section of any SRCU domain: the batch may hold a callback that waits for that
	 * domain (synchronize_srcu(), srcu_barrier()), which would then wait for this thread.
	 */
	for (int k = 0; k < RCU_SRCU_NESTING; k++)
		if (rcu__load(&r->srcu[k].seq, RCU__RELAXED) != 0)
			return false;
	return true;
}

/* Help reclaim: run one batch on the calling thread (QSBR: offline while it waits for the lock). */
RCU__SLOW(help) void RCU__SYM(help)(struct rcu__gp *gp, struct rcu__reader *r)
{
	RCU__SYM(adopt)(gp->owner, r); /* callbacks may read: be in the registry while they run */
	bool was_online = rcu__qsbr_leave(gp->owner, r);
	pthread_mutex_lock(&gp->cb_consumer);
	RCU__SYM(process)(gp, r, true);
	pthread_mutex_unlock(&gp->cb_consumer);
	rcu__qsbr_return(gp->owner, r, was_online);
}

/* Append head to gp's queue (C1, C2); returns the pending count it saw (0 for markers). */
RCU__INLINE int64_t rcu__enqueue(struct rcu__gp *gp, struct rcu__reader *self, struct rcu_head *head,
				   void (*func)(struct rcu_head *))
{
#if defined(RCU_DEBUG)
	RCU__CHECK(head->debug_state != RCU__HEAD_QUEUED, gp->kind == RCU__GP_SRCU ? "call_srcu()" : "call_rcu()",
		"the rcu_head is already queued: it may be queued again only once its callback has begun");
	head->debug_state = RCU__HEAD_QUEUED;
#endif
	head->func = func;
	rcu__store(&head->next, (struct rcu_head *)NULL, RCU__RELAXED);
	bool user = RCU__IS_USER_CALLBACK(func);
	uint64_t queued = user ? rcu__fetch_add(&gp->cbq.queued, 1, RCU__RELAXED) + 1 : 0;
	if (RCU__UNLIKELY(self->registered == RCU__REG_NONE))
		RCU__SYM(adopt)(gp->owner, self); /* first use: so a fork child can mend our link */
	/*
	 * The enqueue record, for a child forked while we are between the swap and the link (see
	 * >>callbacks, fork()): the predecessor is recorded before the CAS that swaps us in behind
	 * it, so that no instant exists at which our head is in the queue and the record does not
	 * say behind what (an exchange would return the predecessor only after the swap).
	 */
	rcu__store(&self->enq_gp, gp, RCU__RELAXED);
	/* F1: release: the domain before the head, for a fork child. */
	rcu__store(&self->enq_node, head, RCU__RELEASE);
	struct rcu_head *prev = rcu__load(&gp->cbq.tail, RCU__RELAXED);
	for (;;) {
		/* F1: release: the head before the predecessor; the CAS (C1) orders both before the swap. */
		rcu__store(&self->enq_prev, prev, RCU__RELEASE);
		RCU__TEST_HOOK(RCU__TP_ENQ_BEFORE_SWAP);
		/* C1: release: the head (and what the caller did before) to whoever takes the chain (C4). */
		if (rcu__cas_weak(&gp->cbq.tail, &prev, head, RCU__SEQ_CST, RCU__RELAXED))
			break;
	}
	RCU__TEST_HOOK(RCU__TP_ENQ_BEFORE_LINK);
	/* C2: release: the link; pairs with C3. */
	rcu__store(&prev->next, head, RCU__RELEASE);
	/* F2: release: the link before the record's end, for a fork child. */
	rcu__store(&self->enq_node, (struct rcu_head *)NULL, RCU__RELEASE);
	rcu__store(&self->enq_prev, (struct rcu_head *)NULL, RCU__RELAXED);
	if (!user)
		return 0;
	/*
	 * A true sample of the pending count, never an inflated one: `invoked` read after `queued`
	 * can only make it smaller than it was; and our own callback was pending at our swap.
	 */
	int64_t pending = (int64_t)(queued - rcu__load(&gp->cbq.invoked, RCU__RELAXED));
	if (pending < 1)
		pending = 1;
	uint64_t max = rcu__load(&gp->cbq.pending_max, RCU__RELAXED);
	while ((uint64_t)pending > max &&
	       !rcu__cas_weak(&gp->cbq.pending_max, &max, (uint64_t)pending, RCU__RELAXED, RCU__RELAXED))
		;
	return pending;
}

/* After an enqueue: wake the worker, or help when there is none or callbacks pile up. */
RCU__INLINE void rcu__after_enqueue(struct rcu__gp *gp, struct rcu__reader *self, int64_t pending)
{
	if (!rcu__wake_worker(gp, pending > RCU__GATHER_MAX)) {
		if (rcu__may_help(self))
			RCU__SYM(help)(gp, self);
		return;
	}
	if (RCU__UNLIKELY(pending > RCU_CALLBACK_HIGH_WATER)) {
		rcu__congestion_ask(gp);
		if (rcu__may_help(self))
			RCU__SYM(help)(gp, self);
	}
}

RCU__SLOW(call) void RCU__SYM(call)(struct rcu__gp *gp, struct rcu_head *head, void (*func)(struct rcu_head *))
{
	if (RCU__UNLIKELY((uintptr_t)func < RCU__CALLBACK_MIN))
		RCU__SYM(die)(gp->kind == RCU__GP_SRCU ? "call_srcu()" : "call_rcu()",
			"the callback is NULL or not a function address (below 4096): pass the function to call after the grace period (rcu_free() frees an object)");
	rcu__gp_ready(gp);
	struct rcu__reader *self = rcu__self();
	rcu__after_enqueue(gp, self, rcu__enqueue(gp, self, head, func));
}

RCU__SLOW(free) void RCU__SYM(free)(struct rcu__gp *gp, struct rcu_head *head, size_t offset)
{
	rcu__gp_ready(gp);
	struct rcu__reader *self = rcu__self();
	rcu__after_enqueue(gp, self, rcu__enqueue(gp, self, head, RCU__CAST(void (*)(struct rcu_head *), (uintptr_t)offset)));
}

/* rcu_barrier() sleeps at most this long between looks at whether the worker it waits for lives. */
#define RCU__BARRIER_RECHECK_NS (100 * RCU__NS_PER_MS)

RCU__SLOW(barrier) void RCU__SYM(barrier)(struct rcu__gp *gp)
{
	struct rcu__state *s = gp->owner;
	struct rcu__reader *r = rcu__self();
	rcu__gp_ready(gp);
	struct rcu__barrier b;
	memset(&b, 0, sizeof b);
	bool was_online = rcu__qsbr_leave(s, r);
	rcu__enqueue(gp, r, &b.head, RCU__CAST(void (*)(struct rcu_head *), (uintptr_t)RCU__BARRIER_TAG));
	bool worker = rcu__wake_worker(gp, true);
	while (!rcu__load(&b.done, RCU__ACQUIRE)) {
		if (!worker || rcu__load(&s->exiting, RCU__RELAXED))
			RCU__SYM(help)(gp, r);
		else
			rcu__word_wait(s, &b.done, 0, RCU__BARRIER_RECHECK_NS);
		worker = worker && (gp->kind == RCU__GP_SRCU ? rcu__load(&s->srcu_worker_state, RCU__RELAXED)
							     : rcu__load(&s->worker_state, RCU__RELAXED)) != RCU__WORKER_NONE;
	}
	rcu__qsbr_return(s, r, was_online);
}

RCU__SLOW(start_poll) uint64_t RCU__SYM(start_poll)(struct rcu__gp *gp)
{
	uint64_t cookie = RCU__SYM(snapshot)(gp);
	uint64_t want = rcu__load(&gp->gp_requested, RCU__RELAXED);
	while (want < cookie && !rcu__cas_weak(&gp->gp_requested, &want, cookie, RCU__SEQ_CST, RCU__RELAXED))
		;
	if (!rcu__wake_worker(gp, true) && rcu__may_help(rcu__self()))
		RCU__SYM(cond_synchronize)(gp, cookie); /* no worker: run it here, where we may block */
	return cookie;
}

RCU__SLOW(stats) void RCU__SYM(stats)(struct rcu__gp *gp, struct rcu_stats *out)
{
	rcu__gp_ready(gp);
	uint64_t invoked = rcu__load(&gp->cbq.invoked, RCU__ACQUIRE);
	uint64_t queued = rcu__load(&gp->cbq.queued, RCU__RELAXED);
	out->grace_periods = rcu__load(&gp->gp_count, RCU__RELAXED);
	out->callbacks_queued = queued;
	out->callbacks_invoked = invoked;
	out->callbacks_pending = queued > invoked ? queued - invoked : 0;
	out->callbacks_pending_max = rcu__load(&gp->cbq.pending_max, RCU__RELAXED);
}

/* Retire an SRCU domain: see cleanup_srcu_struct(). RCU__CLEANUP_RECHECK_NS: how often it looks
 * whether the SRCU worker has let go of the domain. */
#define RCU__CLEANUP_RECHECK_NS RCU__NS_PER_MS
RCU__SLOW(srcu_cleanup) void RCU__SYM(srcu_cleanup)(struct srcu_struct *ssp)
{
	struct rcu__gp *gp = &ssp->gp;
	if (rcu__load(&gp->init_state, RCU__ACQUIRE) != RCU__INIT_READY)
		return; /* never used */
	struct rcu__state *s = gp->owner;
	RCU__CHECK(!srcu_read_lock_held(ssp), "cleanup_srcu_struct()", "called inside a read-side critical section of the domain it retires");
	RCU__CHECK_QSBR_WAIT("cleanup_srcu_struct()");
	RCU__CHECK(!rcu__srcu_has_readers(gp), "cleanup_srcu_struct()",
		"a thread is still inside a read-side critical section of the domain: its readers must leave first");
	RCU__CHECK(rcu__load(&gp->cbq.queued, RCU__RELAXED) == rcu__load(&gp->cbq.invoked, RCU__RELAXED),
		"cleanup_srcu_struct()", "callbacks of the domain are still pending: call srcu_barrier() first");
	/* Release builds: let pending callbacks run and readers leave, as the checks above demand. */
	RCU__SYM(barrier)(gp);
	RCU__SYM(synchronize)(gp);
	/* The worker may still hold the domain for one more look: wait until it lets go. Once
	 * process exit has begun, the worker is parked for good (at_exit) and lets go of nothing:
	 * a domain retired by an exit handler or a static destructor must not wait for it. */
	while (rcu__load(&gp->on_worklist, RCU__SEQ_CST) && !rcu__load(&s->exiting, RCU__SEQ_CST)) {
		RCU__SYM(srcu_kick)(s);
		struct timespec ts = { 0, RCU__CLEANUP_RECHECK_NS };
		rcu__nanosleep(&ts, NULL);
	}
	pthread_mutex_lock(&gp->cb_consumer);
	pthread_mutex_unlock(&gp->cb_consumer);
	pthread_mutex_lock(&gp->gp_lock); /* a poll step or a synchronize that still runs */
	pthread_mutex_unlock(&gp->gp_lock);
	pthread_mutex_lock(&s->domains_lock);
	if (gp->live_prev)
		gp->live_prev->live_next = gp->live_next;
	else
		s->domains = gp->live_next;
	if (gp->live_next)
		gp->live_next->live_prev = gp->live_prev;
	pthread_mutex_unlock(&s->domains_lock);
	pthread_mutex_destroy(&gp->gp_lock);
	pthread_mutex_destroy(&gp->cb_consumer);
	rcu__store(&gp->init_state, RCU__INIT_NONE, RCU__RELEASE);
}

/* fork(): keep the registry list, the domains list and the callback queues whole across the fork. */
RCU__SLOW(prepare_fork) void RCU__SYM(prepare_fork)(void)
{
	struct rcu__state *s = RCU__STATE;
	pthread_mutex_lock(&s->registry_lock);
	pthread_mutex_lock(&s->domains_lock);
	pthread_mutex_lock(&s->word_lock);
	pthread_mutex_lock(&s->take_lock);
}

RCU__SLOW(parent_fork) void RCU__SYM(parent_fork)(void)
{
	struct rcu__state *s = RCU__STATE;
	pthread_mutex_unlock(&s->take_lock);
	pthread_mutex_unlock(&s->word_lock);
	pthread_mutex_unlock(&s->domains_lock);
	pthread_mutex_unlock(&s->registry_lock);
}

/* Follow a chain from h until NULL or `stop`; returns its last node (NULL for an empty chain). */
RCU__INLINE struct rcu_head *rcu__chain_end(struct rcu_head *h, struct rcu_head *stop)
{
	struct rcu_head *end = NULL;
	for (; h; h = h == stop ? NULL : rcu__load(&h->next, RCU__RELAXED))
		end = h;
	return end;
}

/*
 * In a fork child: did r's unfinished enqueue swap its head into the queue? Its swap is a CAS
 * from its recorded predecessor, which may have failed or not yet run. A head that made it in is
 * still its queue's tail, or the last of the batch that took it, or has a successor: linked
 * (next set), or caught in its own unfinished enqueue behind it (recorded with it as predecessor,
 * and in the queue). A head that did not make it in is none of these: nobody swaps behind a head
 * that was never the tail. Each head has at most one thread that records it as predecessor and
 * succeeds, so the search is a walk down the chain of those threads.
 */
RCU__SLOW(child_swapped) bool RCU__SYM(child_swapped)(struct rcu__state *s, struct rcu__reader *r, unsigned depth)
{
	struct rcu_head *node = rcu__load(&r->enq_node, RCU__RELAXED);
	struct rcu__gp *gp = rcu__load(&r->enq_gp, RCU__RELAXED);
	bool batch = rcu__load(&gp->batch_first, RCU__RELAXED) != NULL; /* batch_last of a finished one is stale */
	if (node == rcu__load(&gp->cbq.tail, RCU__RELAXED) || (batch && node == rcu__load(&gp->batch_last, RCU__RELAXED)) ||
	    rcu__load(&node->next, RCU__RELAXED))
		return true;
	if (depth == 0)
		return false; /* deeper than the registry: a cycle, which no real chain has */
	for (struct rcu__reader *q = s->readers; q; q = q->next)
		if (q != r && rcu__load(&q->enq_node, RCU__RELAXED) && rcu__load(&q->enq_prev, RCU__RELAXED) == node &&
		    RCU__SYM(child_swapped)(s, q, depth - 1))
			return true;
	return false;
}

/* In a fork child: one domain's locks start afresh, its chains are cut at any gap left, and the
 * pending count is recounted from what is really queued. */
RCU__INLINE void rcu__child_domain(struct rcu__gp *gp, bool keep_membarrier)
{
	pthread_mutex_init(&gp->gp_lock, NULL);
	pthread_mutex_init(&gp->cb_consumer, NULL);
	rcu__store(&gp->gp_futex, RCU__FUTEX_IDLE, RCU__RELAXED);
	rcu__store(&gp->gp_done_word, rcu__done_count(rcu__load(&gp->gp_done_word, RCU__RELAXED)), RCU__RELAXED);
	if (!keep_membarrier)
		rcu__store(&gp->use_membarrier, 0, RCU__RELAXED); /* one thread: safe */
	struct rcu__cbq *q = &gp->cbq;
	uint64_t count = 0;
	struct rcu_head *a = rcu__load(&gp->batch_first, RCU__RELAXED);
	struct rcu_head *a_end = rcu__chain_end(a, rcu__load(&gp->batch_last, RCU__RELAXED));
	if (a_end) {
		rcu__store(&a_end->next, (struct rcu_head *)NULL, RCU__RELAXED);
		rcu__store(&gp->batch_last, a_end, RCU__RELAXED);
	} else {
		rcu__store(&gp->batch_first, (struct rcu_head *)NULL, RCU__RELAXED);
		rcu__store(&gp->batch_last, (struct rcu_head *)NULL, RCU__RELAXED);
	}
	for (struct rcu_head *h = a_end ? a : NULL; h; h = h == a_end ? NULL : rcu__load(&h->next, RCU__RELAXED))
		count += RCU__IS_USER_CALLBACK(h->func);
	struct rcu_head *b = rcu__load(&q->stub.next, RCU__RELAXED);
	struct rcu_head *b_end = rcu__chain_end(b, rcu__load(&q->tail, RCU__RELAXED));
	for (struct rcu_head *h = b_end ? b : NULL; h; h = h == b_end ? NULL : rcu__load(&h->next, RCU__RELAXED))
		count += RCU__IS_USER_CALLBACK(h->func);
	if (b_end)
		rcu__store(&b_end->next, (struct rcu_head *)NULL, RCU__RELAXED);
	else
		rcu__store(&q->stub.next, (struct rcu_head *)NULL, RCU__RELAXED);
	rcu__store(&q->tail, b_end ? b_end : &q->stub, RCU__RELAXED);
	/* Callbacks lost with another thread's unfinished call_rcu() no longer count as pending. */
	rcu__store(&q->queued, rcu__load(&q->invoked, RCU__RELAXED) + count, RCU__RELAXED);
}

RCU__SLOW(child_fork) void RCU__SYM(child_fork)(void)
{
	struct rcu__state *s = RCU__STATE;
	struct rcu__reader *self = rcu__self();
	rcu__store(&s->atfork_state, RCU__INIT_READY, RCU__RELAXED); /* we are its handler */
	/*
	 * Threads other than this one are gone: so are their locks, sections and the workers. The
	 * locks prepare_fork took are this thread's, and it releases them as the parent does; the
	 * ones it did not take may have died with their holders, and start afresh.
	 */
	pthread_mutex_unlock(&s->take_lock);
	pthread_mutex_unlock(&s->word_lock);
	pthread_mutex_unlock(&s->domains_lock);
	pthread_mutex_unlock(&s->registry_lock);
	pthread_cond_init(&s->word_cond, NULL);
	/* Mend the links that threads caught between swap and link never stored (C1, C2). */
	unsigned readers = 0;
	for (struct rcu__reader *r = s->readers; r; r = r->next)
		readers++;
	for (struct rcu__reader *r = s->readers; r; r = r->next) {
		struct rcu_head *node = rcu__load(&r->enq_node, RCU__RELAXED);
		struct rcu_head *prev = rcu__load(&r->enq_prev, RCU__RELAXED);
		if (r != self && node && prev && !rcu__load(&prev->next, RCU__RELAXED) &&
		    RCU__SYM(child_swapped)(s, r, readers))
			rcu__store(&prev->next, node, RCU__RELAXED);
	}
	rcu__store(&s->readers, self->registered != RCU__REG_NONE ? self : (struct rcu__reader *)NULL, RCU__RELAXED);
	rcu__store(&self->next, (struct rcu__reader *)NULL, RCU__RELAXED);
	self->prev = NULL;
	rcu__store(&s->worker_state, RCU__WORKER_NONE, RCU__RELAXED);
	rcu__store(&s->worker_sleeping, RCU__WORKER_AWAKE, RCU__RELAXED);
	rcu__store(&s->invoking, 0, RCU__RELAXED);
	rcu__store(&s->srcu_worker_state, RCU__WORKER_NONE, RCU__RELAXED);
	rcu__store(&s->srcu_sleeping, 0, RCU__RELAXED);
	rcu__store(&s->srcu_invoking, 0, RCU__RELAXED);
	self->in_callback = RCU__CB_NONE;
	bool keep_membarrier = true;
#if RCU__MEMB_READER && RCU__HAVE_MEMBARRIER
	if (rcu__load(&s->gp.use_membarrier, RCU__RELAXED) &&
	    rcu__membarrier(RCU__MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) != 0)
		keep_membarrier = false;
#endif
	rcu__child_domain(&s->gp, keep_membarrier);
	/*
	 * The SRCU worker may have held domains on a list of its own when it vanished: rebuild the
	 * work list from the live domains, so that each domain with work is on it exactly once.
	 */
	s->work = NULL;
	for (struct rcu__gp *gp = s->domains; gp; gp = gp->live_next) {
		rcu__child_domain(gp, keep_membarrier);
		bool work = rcu__srcu_has_work(gp);
		rcu__store(&gp->on_worklist, work ? 1 : 0, RCU__RELAXED);
		if (work) {
			gp->work_next = s->work;
			s->work = gp;
		}
	}
}

#if !defined(RCU__INSTANCE) /* the lists are every flavour's */
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
	struct rcu_list *next; /* (atomic) */
	struct rcu_list *prev;
};

/** RCU_LIST_HEAD_INIT(name) - static initialiser of an empty list `struct rcu_list name`. */
#define RCU_LIST_HEAD_INIT(name) { &(name), &(name) }

/** rcu_list_init(head) - make head an empty list. Not while readers can reach it. */
static inline void rcu_list_init(struct rcu_list *head)
{
	rcu__store(&head->next, head, RCU__RELAXED);
	head->prev = head;
}

RCU__INLINE void rcu__list_insert(struct rcu_list *n, struct rcu_list *prev, struct rcu_list *next)
{
	rcu__store(&n->next, next, RCU__RELAXED);
	n->prev = prev;
	rcu_assign_pointer(prev->next, n); /* L1: n (and the entry) before it is reachable */
	next->prev = n;
}

/** rcu_list_add(n, head) - insert n right after head (a stack). Updater, under its lock. */
static inline void rcu_list_add(struct rcu_list *n, struct rcu_list *head)
{
	rcu__list_insert(n, head, rcu__load(&head->next, RCU__RELAXED));
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
	struct rcu_list *next = rcu__load(&entry->next, RCU__RELAXED);
	/* L2: release, so a reader reaching next through this link sees it initialised (free on x86). */
	rcu_assign_pointer(entry->prev->next, next);
	next->prev = entry->prev;
	entry->prev = (struct rcu_list *)RCU__LIST_POISON;
}

/** rcu_list_replace(old, n) - put n where old is, atomically for readers. Updater, under its lock. */
static inline void rcu_list_replace(struct rcu_list *old, struct rcu_list *n)
{
	struct rcu_list *next = rcu__load(&old->next, RCU__RELAXED);
	rcu__store(&n->next, next, RCU__RELAXED);
	n->prev = old->prev;
	rcu_assign_pointer(n->prev->next, n); /* L1 */
	next->prev = n;
	old->prev = (struct rcu_list *)RCU__LIST_POISON;
}

/** rcu_list_empty(head) - does the list hold no entry? Callable by readers and updaters. */
static inline bool rcu_list_empty(const struct rcu_list *head)
{
	return rcu__load(&head->next, RCU__RELAXED) == head;
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
	struct rcu_hlist_node *next;   /* (atomic) */
	struct rcu_hlist_node **pprev;  /* the link that points at this node */
};
struct rcu_hlist_head {
	union {
		struct rcu_hlist_node *first; /* (atomic) the first node, or NULL */
		struct rcu_hlist_node *next;  /* the same link, by liburcu's name (cds_hlist_head) */
	};
};

/** RCU_HLIST_HEAD_INIT - static initialiser of an empty bucket `struct rcu_hlist_head`. */
#define RCU_HLIST_HEAD_INIT { NULL }

/** rcu_hlist_init(h) - make h an empty bucket. Not while readers can reach it. */
static inline void rcu_hlist_init(struct rcu_hlist_head *h)
{
	rcu__store(&h->first, (struct rcu_hlist_node *)NULL, RCU__RELAXED);
}

/** rcu_hlist_unhashed(n) - n is on no list (never added, or removed with rcu_hlist_del_init()). */
static inline bool rcu_hlist_unhashed(const struct rcu_hlist_node *n)
{
	return n->pprev == NULL;
}

/** rcu_hlist_add_head(n, h) - insert n first in bucket h. Updater, under its lock. */
static inline void rcu_hlist_add_head(struct rcu_hlist_node *n, struct rcu_hlist_head *h)
{
	struct rcu_hlist_node *first = rcu__load(&h->first, RCU__RELAXED);
	rcu__store(&n->next, first, RCU__RELAXED);
	n->pprev = &h->first;
	rcu_assign_pointer(h->first, n); /* L1 */
	if (first)
		first->pprev = &n->next;
}

/** rcu_hlist_add_before(n, next) - insert n before next (which is on a list). Updater. */
static inline void rcu_hlist_add_before(struct rcu_hlist_node *n, struct rcu_hlist_node *next)
{
	n->pprev = next->pprev;
	rcu__store(&n->next, next, RCU__RELAXED);
	rcu_assign_pointer(*n->pprev, n); /* L1 */
	next->pprev = &n->next;
}

/** rcu_hlist_add_behind(n, prev) - insert n after prev (which is on a list). Updater. */
static inline void rcu_hlist_add_behind(struct rcu_hlist_node *n, struct rcu_hlist_node *prev)
{
	struct rcu_hlist_node *next = rcu__load(&prev->next, RCU__RELAXED);
	rcu__store(&n->next, next, RCU__RELAXED);
	n->pprev = &prev->next;
	rcu_assign_pointer(prev->next, n); /* L1 */
	if (next)
		next->pprev = &n->next;
}

/** rcu_hlist_del(n) - unlink n; its forward link stays for readers on it. Updater. */
static inline void rcu_hlist_del(struct rcu_hlist_node *n)
{
	struct rcu_hlist_node *next = rcu__load(&n->next, RCU__RELAXED);
	rcu__store(n->pprev, next, RCU__RELEASE); /* L2 */
	if (next)
		next->pprev = n->pprev;
	n->pprev = (struct rcu_hlist_node **)RCU__LIST_POISON;
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
	struct rcu_hlist_node *next = rcu__load(&old->next, RCU__RELAXED);
	rcu__store(&n->next, next, RCU__RELAXED);
	n->pprev = old->pprev;
	rcu_assign_pointer(*n->pprev, n); /* L1 */
	if (next)
		next->pprev = &n->next;
	old->pprev = (struct rcu_hlist_node **)RCU__LIST_POISON;
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
#endif /* !RCU__INSTANCE */

/* >>debug ------------------------------------------------------------------------------------- */

/*
 * Misuse reports: one line naming the call, the thread and the rule, then abort(). The checks
 * themselves are RCU__CHECK() at the places they guard, and compile to nothing without RCU_DEBUG.
 */
RCU__INLINE void rcu__thread_name(long tid, char *buf, size_t size)
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

RCU__SLOW(die) RCU__COLD __attribute__((noreturn)) void RCU__SYM(die)(const char *call, const char *rule)
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
RCU__SLOW(debug_enter) void RCU__SYM(debug_enter)(struct rcu__reader *r, const char *file, int line)
{
	/* A thread adopted into the registry (a callback helper, say) is seen by grace periods too. */
	RCU__CHECK(RCU__SELF_REGISTER || r->registered != RCU__REG_NONE, "rcu_read_lock()",
		"the thread is not registered: call rcu_register_thread() first, or grace periods will not wait for it");
	RCU__CHECK(rcu__may_read(r), "rcu_read_lock()",
		"the thread is offline: call rcu_thread_online() first, or grace periods will not wait for it");
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

/* RCU_STALL_TIMEOUT_MS: which readers hold grace period `target` of gp up, printed once per stall. */
RCU__SLOW(report_stall) RCU__COLD void RCU__SYM(report_stall)(struct rcu__gp *gp, uint64_t target, uint64_t waited_ns)
{
	struct rcu__state *s = gp->owner;
	uint64_t now = rcu__now_ns();
	(void)now;
	pthread_mutex_lock(&s->registry_lock);
	if (gp->kind == RCU__GP_SRCU)
		fprintf(stderr, "rcu.h: stall: grace period %llu of SRCU domain \"%s\" (" RCU_FLAVOUR_NAME ") has waited %llu ms for:\n",
			(unsigned long long)target, gp->name, (unsigned long long)(waited_ns / RCU__NS_PER_MS));
	else
		fprintf(stderr, "rcu.h: stall: grace period %llu (" RCU_FLAVOUR_NAME ") has waited %llu ms for:\n",
			(unsigned long long)target, (unsigned long long)(waited_ns / RCU__NS_PER_MS));
	for (struct rcu__reader *r = s->readers; r; r = r->next) {
		char name[32];
		if (gp->kind == RCU__GP_SRCU) {
			for (int k = 0; k < RCU_SRCU_NESTING; k++) {
				struct rcu__srcu_slot *sl = &r->srcu[k];
				uint64_t seq = rcu__load(&sl->seq, RCU__ACQUIRE);
				if (seq == 0 || seq >= target || rcu__load(&sl->gp, RCU__RELAXED) != gp)
					continue;
				rcu__thread_name(r->tid, name, sizeof name);
#if defined(RCU_DEBUG)
				if (sl->section_file) {
					fprintf(stderr, "rcu.h: stall:   thread %ld \"%s\", in srcu_read_lock(%s) begun at %s:%d %llu ms ago\n",
						r->tid, name, gp->name, sl->section_file, sl->section_line,
						(unsigned long long)((now - sl->section_start_ns) / RCU__NS_PER_MS));
					continue;
				}
#endif
				fprintf(stderr, "rcu.h: stall:   thread %ld \"%s\", in srcu_read_lock(%s) begun before the grace period\n",
					r->tid, name, gp->name);
			}
			continue;
		}
		uint64_t seq = rcu__load(&r->seq, RCU__ACQUIRE);
		if (seq == 0 || seq >= target)
			continue;
		rcu__thread_name(r->tid, name, sizeof name);
#if defined(RCU_DEBUG) && RCU__STALL_SECTION
		if (r->section_file)
			fprintf(stderr, "rcu.h: stall:   thread %ld \"%s\", in a section begun at %s:%d %llu ms ago\n",
				r->tid, name, r->section_file, r->section_line,
				(unsigned long long)((now - r->section_start_ns) / RCU__NS_PER_MS));
		else
#endif
			fprintf(stderr, "rcu.h: stall:   thread %ld \"%s\", " RCU__STALL_HOLDER "\n", r->tid, name);
	}
	pthread_mutex_unlock(&s->registry_lock);
	fflush(stderr);
}

/*
 * Per-program settings: the first unit loaded records its settings in the state (a copy: a
 * plugin's record disappears with dlclose()); every later unit must match, or the program stops
 * here, before the unit's code can touch a state laid out or driven differently. Units are
 * checked by their constructors, which the loader runs one at a time.
 */
#if !defined(RCU__INSTANCE) /* every flavour's type (>>types) */
struct rcu__config_ref {
	int32_t state; /* (atomic) enum rcu__init_state */
	struct rcu__config cfg;
	char unit[160];
	char free_call[96];
};
#endif
extern struct rcu__config_ref RCU__SYM(config_ref);
RCU__ONCE(b, config_ref) struct rcu__config_ref RCU__SYM(config_ref);

RCU__SLOW(config_mismatch) RCU__COLD void RCU__SYM(config_mismatch)(const char *macro, const char *mine, const char *unit,
						   const char *theirs, const char *their_unit)
{
	fprintf(stderr,
		"rcu.h: configuration mismatch in the " RCU_FLAVOUR_NAME " flavour: %s is %s in %s but %s in %s, "
		"loaded before it; every translation unit of a program must set the per-program macros "
		"alike (the list is in rcu.h's >>doc block)\n",
		macro, mine, unit, theirs, their_unit);
	fflush(stderr);
	abort();
}

RCU__INLINE void rcu__config_value(char *buf, size_t size, bool flag, int64_t v)
{
	if (flag)
		snprintf(buf, size, "%s", v ? "defined" : "not defined");
	else
		snprintf(buf, size, "%lld", (long long)v);
}

RCU__SLOW(check_config) void RCU__SYM(check_config)(struct rcu__state *s, const struct rcu__config *c)
{
	(void)s;
	struct rcu__config_ref *ref = &RCU__SYM(config_ref);
	int32_t none = RCU__INIT_NONE;
	if (rcu__cas(&ref->state, &none, RCU__INIT_RUNNING, RCU__ACQ_REL, RCU__ACQUIRE)) {
		ref->cfg = *c;
		snprintf(ref->unit, sizeof ref->unit, "%s", c->unit);
		snprintf(ref->free_call, sizeof ref->free_call, "%s", c->free_call);
		ref->cfg.unit = ref->unit;
		ref->cfg.free_call = ref->free_call;
		rcu__store(&ref->state, RCU__INIT_READY, RCU__RELEASE);
		return;
	}
	while (rcu__load(&ref->state, RCU__ACQUIRE) != RCU__INIT_READY)
		sched_yield();
	const struct rcu__config *r = &ref->cfg;
	const struct {
		const char *macro;
		bool flag;
		int64_t mine, theirs;
	} fields[] = {
		{ "RCU_DEBUG", true, c->debug, r->debug },
		{ "RCU_DEBUG_DELAY", true, c->debug_delay, r->debug_delay },
		{ "RCU_NO_MEMBARRIER", true, c->no_membarrier, r->no_membarrier },
		{ "RCU_NO_FUTEX", true, c->no_futex, r->no_futex },
		{ "RCU_C11_FENCES", true, c->c11_fences, r->c11_fences },
		{ "RCU_MB_EXIT_FENCE", true, c->mb_exit_fence, r->mb_exit_fence },
		{ "RCU_CACHE_LINE", false, c->cache_line, r->cache_line },
		{ "RCU_SRCU_NESTING", false, c->srcu_nesting, r->srcu_nesting },
		{ "RCU_CALLBACK_HIGH_WATER", false, c->callback_high_water, r->callback_high_water },
		{ "RCU_STALL_TIMEOUT_MS", false, c->stall_timeout_ms, r->stall_timeout_ms },
		{ "RCU_SPIN_SCANS", false, c->spin_scans, r->spin_scans },
	};
	char mine[64], theirs[64];
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		if (fields[i].mine == fields[i].theirs)
			continue;
		rcu__config_value(mine, sizeof mine, fields[i].flag, fields[i].mine);
		rcu__config_value(theirs, sizeof theirs, fields[i].flag, fields[i].theirs);
		RCU__SYM(config_mismatch)(fields[i].macro, mine, c->unit, theirs, r->unit);
	}
	if (strcmp(c->free_call, r->free_call) != 0)
		RCU__SYM(config_mismatch)("RCU_FREE(p)", c->free_call, c->unit, r->free_call, r->unit);
}

/*
 * Split state: two live copies of this flavour's state in one process (a plugin whose host does
 * not export the state, say): grace periods of one do not wait for readers of the other. Each
 * copy, when it is set up, looks through the writable data of every loaded object for live
 * copies (the magic number followed by a pointer to itself) and reports a second one. RCU_DEBUG
 * builds always look; release builds only when the environment variable RCU_CHECK_STATE is set
 * (one getenv() at set-up otherwise). Linux only (dl_iterate_phdr, reached through a weak alias
 * so that no feature macro and no -ldl is needed).
 */
#if defined(__linux__)
#if !defined(RCU__INSTANCE) /* the C library's, one declaration for every flavour */
#if UINTPTR_MAX > 0xffffffffu
struct rcu__phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, paddr, filesz, memsz, align;
};
#else
struct rcu__phdr {
	uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align;
};
#endif
struct rcu__dl_info {
	uintptr_t addr;
	const char *name;
	const struct rcu__phdr *phdr;
	uint16_t phnum;
};
extern int rcu__dl_iterate_phdr(int (*cb)(struct rcu__dl_info *, size_t, void *), void *data) __asm__("dl_iterate_phdr")
	__attribute__((weak));
#endif

struct rcu__copies {
	int n;
	const void *at[4];
	char object[4][160];
};

/* It reads whole data segments, padding and sanitizer redzones included: not instrumented. */
__attribute__((no_sanitize_address, no_sanitize("thread"), no_sanitize("undefined")))
RCU__SLOW(copies_in) int RCU__SYM(copies_in)(struct rcu__dl_info *info, size_t size, void *arg)
{
	struct rcu__copies *c = (struct rcu__copies *)arg;
	(void)size;
	for (uint16_t i = 0; i < info->phnum; i++) {
		const struct rcu__phdr *ph = &info->phdr[i];
		if (ph->type != 1 /* PT_LOAD */ || !(ph->flags & 2 /* PF_W */))
			continue;
		/* A state is line-aligned (its domain is: struct rcu__state), so only line starts are looked at. */
		uintptr_t lo = (info->addr + (uintptr_t)ph->vaddr + RCU_CACHE_LINE - 1) & ~(uintptr_t)(RCU_CACHE_LINE - 1);
		uintptr_t hi = info->addr + (uintptr_t)ph->vaddr + (uintptr_t)ph->filesz;
		for (uintptr_t p = lo; p + 2 * sizeof(uint64_t) <= hi; p += RCU_CACHE_LINE) {
			const struct rcu__state *st = (const struct rcu__state *)p;
			if (st->magic != RCU__STATE_MAGIC || st->self != st || c->n == 4)
				continue;
			c->at[c->n] = st;
			if (info->name && info->name[0])
				snprintf(c->object[c->n], sizeof c->object[0], "%s", info->name);
			else if (rcu__sys_readlink("/proc/self/exe", c->object[c->n], sizeof c->object[0] - 1) < 0)
				snprintf(c->object[c->n], sizeof c->object[0], "the executable");
			c->n++;
		}
	}
	return 0;
}
#endif

RCU__SLOW(find_copies) void RCU__SYM(find_copies)(struct rcu__state *s)
{
#if defined(__linux__) && !defined(RCU_MODEL_SELF)
	if (!RCU__CFG_DEBUG && !getenv("RCU_CHECK_STATE"))
		return;
	if (!rcu__dl_iterate_phdr)
		return;
	struct rcu__copies c;
	memset(&c, 0, sizeof c);
	rcu__dl_iterate_phdr(RCU__SYM(copies_in), &c);
	if (c.n < 2)
		return;
	int mine = -1, other = -1;
	for (int i = 0; i < c.n; i++) {
		if (c.at[i] == s)
			mine = i;
		else if (other < 0)
			other = i;
	}
	if (mine < 0 || other < 0)
		return;
	fprintf(stderr,
		"rcu.h: split state: this process has %d live copies of the " RCU_FLAVOUR_NAME
		" flavour's state, %p in %s and %p in %s (set up now): grace periods of one do not wait "
		"for readers of the other. Let them share one: link the executable with -rdynamic (or "
		"-Wl,--dynamic-list listing rcu__*), or dlopen() shared objects that include rcu.h with "
		"RTLD_GLOBAL, and export rcu__* from shared libraries (no -Bsymbolic; rcu__*; in the "
		"global: list of a version script) (see docs/linking.md)\n",
		c.n, c.at[other], c.object[other], c.at[mine], c.object[mine]);
	fflush(stderr);
#else
	(void)s;
#endif
}

#if defined(RCU_DEBUG_DELAY)
/* Random delays in the racy windows: spin up to a few microseconds (RCU__DELAY_SPINS pauses),
 * and yield once in RCU__DELAY_YIELD_EVERY. */
#define RCU__DELAY_SPINS 2048
#define RCU__DELAY_YIELD_EVERY 64
RCU__SLOW(debug_delay) void RCU__SYM(debug_delay)(void)
{
	static RCU__THREAD_LOCAL uint64_t state;
	if (!state)
		state = (uint64_t)rcu__gettid() * 0x9e3779b97f4a7c15u + rcu__now_ns();
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	unsigned spins = (unsigned)(state % RCU__DELAY_SPINS);
	if ((state >> 32) % RCU__DELAY_YIELD_EVERY == 0)
		sched_yield();
	for (unsigned i = 0; i < spins; i++)
		rcu__cpu_relax();
}
#endif

RCU__EXTERN_C_END

#if !defined(RCU__INSTANCE) /* C++ and the name layers: the unit's own flavour only */
/* >>cxx --------------------------------------------------------------------------------------- */

/*
 * C++ only. The C API above is the same in C++ (same names, same state as the C units of the
 * program). On top of it, in namespace rcu:
 *   rcu_read_guard, srcu_read_guard   scoped sections (RAII)
 *   rcu_domain, rcu_default_domain()  the C++26 <rcu> domain: Cpp17Lockable (lock, try_lock,
 *                                     unlock), so std::scoped_lock works; also a view onto an SRCU
 *                                     domain, and srcu_domain owns one
 *   rcu_obj_base<T, D>, rcu_retire(), rcu_synchronize(), rcu_barrier()   the rest of C++26 <rcu>
 * so that code written against P2545 compiles with `namespace stdx = rcu;` (or a using
 * declaration) today and moves to std:: later.
 */
#if defined(__cplusplus)

/* A null callback does not compile (C has _Generic for this; C++ has deleted overloads). */
void call_rcu(struct rcu_head *head, std::nullptr_t func) = delete;
void call_srcu(struct srcu_struct *ssp, struct rcu_head *head, std::nullptr_t func) = delete;

namespace rcu {

namespace detail {
/*
 * A reader guard's (or rcu_default_domain().lock()'s) rcu_read_lock(). P2545 (C++26 <rcu>) has
 * no registration call, so code written to it never registers its threads. MEMB and MB: a
 * thread's first guard joins it to the registry (RCU__SYM(adopt), as a thread's first call_rcu()
 * does: grace periods then wait for its sections, rcu_register_thread() later is no second
 * registration, and thread exit leaves the registry), at the cost of a load of the thread's
 * registration byte and a branch per lock. BP registers on first use already. QSBR cannot do
 * it for the thread: a QSBR reader must also report quiescent states, or it stalls every grace
 * period, so a guard in a thread that is not online (unregistered, or offline) aborts with a
 * sentence, in every build (a load of the thread's slot and a branch per lock).
 */
#if RCU__QSBR
/* QSBR's delta (C++ guards): a guard in a thread that is not online aborts. */
RCU__COLD __attribute__((noreturn)) inline void qsbr_not_online(const char *call, const struct rcu__reader *r) noexcept
{
	RCU__SYM(die)(call, r->registered != RCU__REG_THREAD
		? "the thread is not registered: QSBR readers must call rcu_register_thread() and report quiescent states (rcu_quiescent_state()), which a guard cannot do for them; code written to P2545 that never registers needs RCU_FLAVOUR_MEMB, _MB or _BP"
		: "the thread is offline: call rcu_thread_online() first, or grace periods will not wait for it");
}

inline void read_lock(const char *call) noexcept
{
	struct rcu__reader *r = rcu__self();
	if (RCU__UNLIKELY(!rcu__online(r)))
		qsbr_not_online(call, r);
	::rcu_read_lock();
}
#else
inline void read_lock(const char *call) noexcept
{
	(void)call;
	if (!RCU__SELF_REGISTER) {
		struct rcu__reader *r = rcu__self();
		if (RCU__UNLIKELY(r->registered == RCU__REG_NONE))
			RCU__SYM(adopt)(RCU__STATE, r);
	}
	::rcu_read_lock();
}
#endif
} /* namespace detail */

/**
 * rcu::rcu_read_guard - a read-side section of the default domain for the guard's lifetime.
 *
 * Needs no registration call in MEMB, MB and BP: the thread's first guard registers it, and
 * thread exit unregisters it. QSBR: the thread must be registered and online (else it aborts,
 * in every build).
 */
class rcu_read_guard {
public:
	rcu_read_guard() noexcept
	{
		detail::read_lock("rcu::rcu_read_guard");
	}
	~rcu_read_guard()
	{
		::rcu_read_unlock();
	}
	rcu_read_guard(const rcu_read_guard &) = delete;
	rcu_read_guard &operator=(const rcu_read_guard &) = delete;
};

/**
 * rcu::srcu_read_guard - a read-side section of an SRCU domain for the guard's lifetime.
 */
class srcu_read_guard {
public:
	explicit srcu_read_guard(struct srcu_struct &ssp) noexcept : ssp_(&ssp), idx_(::srcu_read_lock(&ssp))
	{
	}
	~srcu_read_guard()
	{
		::srcu_read_unlock(ssp_, idx_);
	}
	srcu_read_guard(const srcu_read_guard &) = delete;
	srcu_read_guard &operator=(const srcu_read_guard &) = delete;

private:
	struct srcu_struct *ssp_;
	int idx_;
};

/**
 * rcu::rcu_domain - C++26's rcu_domain: the default domain (rcu_default_domain()), or a view onto
 * an SRCU domain (rcu_domain(srcu_struct &)).
 *
 * Cpp17Lockable: lock() begins a read-side section, unlock() ends it, try_lock() is lock() and
 * returns true. For an SRCU domain, unlock() finds the thread's section of that domain itself.
 * The default domain's lock() registers the thread as rcu_read_guard does (QSBR: aborts in a
 * thread that is not online).
 */
class rcu_domain {
public:
	explicit rcu_domain(struct srcu_struct &ssp) noexcept : srcu_(&ssp)
	{
	}
	rcu_domain(const rcu_domain &) = delete;
	rcu_domain &operator=(const rcu_domain &) = delete;

	void lock() noexcept
	{
		if (srcu_)
			(void)::srcu_read_lock(srcu_);
		else
			detail::read_lock("rcu::rcu_domain::lock()");
	}
	bool try_lock() noexcept
	{
		lock();
		return true;
	}
	void unlock() noexcept
	{
		if (!srcu_) {
			::rcu_read_unlock();
			return;
		}
		struct rcu__reader *r = rcu__self();
		for (int k = 0; k < RCU_SRCU_NESTING; k++)
			if (r->srcu[k].gp == &srcu_->gp && r->srcu[k].seq != 0) {
				::srcu_read_unlock(srcu_, k);
				return;
			}
		/* No section of the domain in this thread: release builds do nothing (an index of -1
		 * would reach outside the slots), RCU_DEBUG reports it. */
		RCU__CHECK(false, "rcu_domain::unlock()",
			"no matching lock() of this SRCU domain in this thread: the unlock is unbalanced");
	}
	/** The SRCU domain this views, or nullptr for the default domain. */
	struct srcu_struct *srcu() const noexcept
	{
		return srcu_;
	}
	void synchronize() noexcept
	{
		if (srcu_)
			::synchronize_srcu(srcu_);
		else
			::synchronize_rcu();
	}
	void barrier() noexcept
	{
		if (srcu_)
			::srcu_barrier(srcu_);
		else
			::rcu_barrier();
	}
	void call(struct rcu_head *head, void (*func)(struct rcu_head *)) noexcept
	{
		if (srcu_)
			::call_srcu(srcu_, head, func);
		else
			::call_rcu(head, func);
	}

protected:
	constexpr explicit rcu_domain(struct srcu_struct *ssp) noexcept : srcu_(ssp)
	{
	}

private:
	friend rcu_domain &rcu_default_domain() noexcept;
	struct srcu_struct *srcu_;
};

/** rcu::rcu_default_domain() - the default domain (constant-initialised: no guard, no constructor). */
inline rcu_domain &rcu_default_domain() noexcept
{
	static rcu_domain d(static_cast<struct srcu_struct *>(nullptr));
	return d;
}

/**
 * rcu::srcu_domain - an rcu_domain that owns its SRCU domain: init_srcu_struct() on construction,
 * cleanup_srcu_struct() on destruction.
 */
class srcu_domain : public rcu_domain {
public:
	explicit srcu_domain(const char *name = "srcu_domain") noexcept : rcu_domain(&ssp_)
	{
		rcu__init_srcu_named(&ssp_, name);
	}
	~srcu_domain()
	{
		::cleanup_srcu_struct(&ssp_);
	}
	struct srcu_struct &srcu_struct() noexcept
	{
		return ssp_;
	}

private:
	struct ::srcu_struct ssp_;
};

/** rcu::rcu_synchronize(dom) - wait for a grace period of dom (C++26). */
inline void rcu_synchronize(rcu_domain &dom = rcu_default_domain()) noexcept
{
	dom.synchronize();
}

/** rcu::rcu_barrier(dom) - wait for the callbacks queued on dom (C++26). */
inline void rcu_barrier(rcu_domain &dom = rcu_default_domain()) noexcept
{
	dom.barrier();
}

/**
 * rcu::rcu_obj_base<T, D> - C++26's base for objects retired through RCU: derive T from it, and
 * obj->retire() deletes obj with D after a grace period of the domain.
 */
template <class T, class D = std::default_delete<T>> class rcu_obj_base {
public:
	void retire(D d = D(), rcu_domain &dom = rcu_default_domain()) noexcept
	{
		deleter_ = std::move(d);
		dom.call(&head_, &rcu_obj_base::reclaim);
	}

protected:
	rcu_obj_base() = default;
	rcu_obj_base(const rcu_obj_base &) = default;
	rcu_obj_base(rcu_obj_base &&) = default;
	rcu_obj_base &operator=(const rcu_obj_base &) = default;
	rcu_obj_base &operator=(rcu_obj_base &&) = default;
	~rcu_obj_base() = default;

private:
	static void reclaim(struct rcu_head *head) noexcept
	{
		/* head_ is the first member of this standard-layout base: the addresses coincide. */
		rcu_obj_base *base = reinterpret_cast<rcu_obj_base *>(head);
		D d = std::move(base->deleter_);
		d(static_cast<T *>(base));
	}
	struct rcu_head head_ = {};
	D deleter_ = D();
};

namespace detail {
template <class T, class D> struct retire_node {
	struct rcu_head head;
	T *p;
	D d;
	static void reclaim(struct rcu_head *h) noexcept
	{
		retire_node *n = reinterpret_cast<retire_node *>(h);
		n->d(n->p);
		delete n;
	}
};
} /* namespace detail */

/**
 * rcu::rcu_retire(p, d, dom) - delete p with d after a grace period of dom (C++26).
 *
 * Allocates a small node (nothrow); if that fails it waits for the grace period and deletes at once.
 */
template <class T, class D = std::default_delete<T>>
void rcu_retire(T *p, D d = D(), rcu_domain &dom = rcu_default_domain()) noexcept
{
	auto *n = new (std::nothrow) detail::retire_node<T, D>{ {}, p, std::move(d) };
	if (!n) {
		dom.synchronize();
		d(p);
		return;
	}
	dom.call(&n->head, &detail::retire_node<T, D>::reclaim);
}

} /* namespace rcu */

#endif /* __cplusplus */

/* >>names ------------------------------------------------------------------------------------- */

/*
 * Opt-in names, so that code written for liburcu or the kernel builds unchanged. One copy of each
 * layer lives in the compat/ folder beside this file, laid out as liburcu's and the kernel's
 * include trees (a program adds -I compat/liburcu or -I compat/kernel and keeps its includes);
 * RCU_LIBURCU_NAMES and RCU_KERNEL_NAMES include them from here, relative to rcu.h. Each name is
 * defined in terms of the API above: no other semantics, and no state but liburcu's record of
 * each thread's call_rcu_data choice. docs/api.md's porting sections list every name, mapped or
 * left out and why.
 */
#if defined(RCU_LIBURCU_NAMES)
#if defined(__has_include)
#if !__has_include("compat/liburcu/rcu_liburcu_names.h")
#error "rcu.h: RCU_LIBURCU_NAMES needs the compat/ folder beside rcu.h (compat/liburcu/rcu_liburcu_names.h): copy compat/ along with rcu.h, or leave the macro out"
#endif
#endif
#include "compat/liburcu/rcu_liburcu_names.h"
#endif
#if defined(RCU_KERNEL_NAMES)
#if defined(__has_include)
#if !__has_include("compat/kernel/rcu_kernel_names.h")
#error "rcu.h: RCU_KERNEL_NAMES needs the compat/ folder beside rcu.h (compat/kernel/rcu_kernel_names.h): copy compat/ along with rcu.h, or leave the macro out"
#endif
#endif
#include "compat/kernel/rcu_kernel_names.h"
#endif
#endif /* !RCU__INSTANCE */

#endif /* !RCU_H || RCU__INSTANCE */
