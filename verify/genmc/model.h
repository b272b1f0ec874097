/* SPDX-License-Identifier: 0BSD */
/*
 * verify/genmc/model.h: rcu.h as GenMC sees it. Include this instead of rcu.h; it includes the
 * header that the include path finds (the real one, or a broken copy from mutate.py).
 *
 * GenMC runs the program's LLVM IR under a memory model (RC11, IMM) and knows C11 atomics, the
 * pthread mutex (replaced below), thread create/join/exit, malloc/free and atexit. rcu.h also
 * calls the operating system. Everything below is a stand-in for one of those calls, and each is
 * a gap between what ships and what is checked; docs/testing.md lists them. The configuration:
 *
 *   RCU_C11_FENCES      full fences are atomic_thread_fence(seq_cst), which GenMC models (it skips
 *                       inline asm, so the x86 `lock; or` fence would be invisible); no pause
 *                       instruction (GenMC aborts on the x86 intrinsic); the compiler barrier is an
 *                       empty asm, which GenMC skips, not atomic_signal_fence, which it would model
 *                       as a full fence (a stronger program than the one that ships).
 *   RCU_NO_FUTEX        sleeps use the portable path: a mutex and a condition variable. GenMC
 *                       models neither the futex system call nor condition variables; the
 *                       condition variable below is a model with POSIX's contract, and the
 *                       protocol rcu.h builds on it (check the word under the mutex, then wait)
 *                       is rcu.h's own code. The futex path itself is not checked.
 *   RCU_NO_MEMBARRIER   no membarrier: MEMB and BP then run their fallback, which is MB's path.
 *                       membarrier has no C11 model, so MEMB/BP with membarrier are not checked,
 *                       except with -DMODEL_MEMBARRIER: registration succeeds and the readers
 *                       omit their fence, and an execution in which an updater issues
 *                       membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) is not explored. What is
 *                       left is the grace period that finds no other thread registered and
 *                       issues none (J1/G7: the register test).
 *   RCU_MODEL_SELF()    rcu.h's hook for the calling thread's reader record. GenMC's
 *                       thread-locals cannot be read by another thread, and an updater reads
 *                       every reader's record: each thread gets a record in model_records[],
 *                       indexed by its GenMC thread id.
 *   RCU_SPIN_SCANS      the harness sets it (default here 1), so that the updater's sleep path
 *                       is reached within the loop bound.
 */
#ifndef RCU_MODEL_H
#define RCU_MODEL_H

#define RCU_C11_FENCES 1
#define RCU_NO_FUTEX 1
#if defined(MODEL_MEMBARRIER)
#define RCU_MODEL_MEMBARRIER(cmd) model_membarrier(cmd)
#else
#define RCU_NO_MEMBARRIER 1
#endif
#ifndef RCU_SPIN_SCANS
#define RCU_SPIN_SCANS 1
#endif
#define RCU_MODEL_SELF() model_self()
/*
 * Two SRCU slots per thread instead of 4 (a documented setting, not a shim): every loop over a
 * thread's slots then fits the loop bound that the registry walk needs anyway (GenMC cuts a loop
 * after -unroll iterations, and an execution cut there is dropped: with 4 slots and -unroll=2
 * the SRCU tests had no complete execution). One slot would not do: srcutag retags a slot.
 */
#define RCU_SRCU_NESTING 2
#define RCU_NO_CONSTRUCTOR 1
#define MODEL_THREADS 8
#define MODEL_KEY 7

#include <pthread.h> /* GenMC's */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <errno.h>
#include <assert.h>
#include <genmc.h>

struct rcu__reader;
static struct rcu__reader *model_self(void);

#if defined(MODEL_MEMBARRIER)
static inline int model_membarrier(int cmd)
{
	if (cmd == (1 << 3)) /* MEMBARRIER_CMD_PRIVATE_EXPEDITED (rcu.h: RCU__MEMBARRIER_CMD_PRIVATE_EXPEDITED): no C11 model; not explored */
		__VERIFIER_assume(0);
	return 0; /* MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED succeeds */
}
#endif

/*
 * Declarations that GenMC's <pthread.h> leaves out. Condition variables: a broadcast counter (see
 * pthread_cond_wait() below). Keys: rcu.h uses one, whose destructor unregisters a thread that
 * exits registered; the harness's threads unregister themselves or end registered, and the
 * destructor is not run. Fork handlers: fork is not modelled.
 */
typedef struct { _Atomic unsigned seq; } pthread_cond_t;
typedef int pthread_condattr_t;
typedef unsigned pthread_key_t;
int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr);
int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
struct timespec;
int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime);
int pthread_cond_broadcast(pthread_cond_t *c);
int pthread_key_create(pthread_key_t *key, void (*destructor)(void *));
int pthread_setspecific(pthread_key_t key, const void *value);
int pthread_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void));
int pthread_attr_init(pthread_attr_t *attr);
int pthread_attr_destroy(pthread_attr_t *attr);
int pthread_attr_setdetachstate(pthread_attr_t *attr, int state);
long syscall(long number, ...); /* glibc's <unistd.h> declares it; GenMC's does not */

/*
 * The mutex: a compare-and-swap lock, acquire on lock and trylock, release on unlock (POSIX's
 * memory synchronisation, C11's mtx_t). GenMC 0.11's own mutex never lets pthread_mutex_trylock()
 * fail once the caller has synchronised with the holder: a thread that acquires a flag the
 * holder set inside its critical section always gets the lock, although the holder may not have
 * released it yet (measured on a four-line program). rcu.h's gp_share() is about a trylock
 * that fails while another caller runs a grace period, and with GenMC's mutex a lost wake-up
 * there went unseen. The lock's wait is a loop without side effects, which GenMC turns into an
 * assume.
 */
/*
 * -DMODEL_RELAXED_MUTEX: a control. The harness points model_relaxed_mutex at one mutex, whose
 * lock and unlock then order nothing (relaxed): verify/genmc/lfht.sh shows that a test needs
 * that mutex's order (rcu_lfht.h's resize lock, H10). Every other mutex keeps POSIX's order.
 */
#if defined(MODEL_RELAXED_MUTEX)
static pthread_mutex_t *model_relaxed_mutex;
#define MODEL_MUTEX_RELAXED(m) ((m) == model_relaxed_mutex)
#else
#define MODEL_MUTEX_RELAXED(m) 0
#endif

static inline int model_mutex_trylock(pthread_mutex_t *m)
{
	int unlocked = 0;
	if (MODEL_MUTEX_RELAXED(m))
		return atomic_compare_exchange_strong_explicit((_Atomic int *)&m->__private, &unlocked, 1,
							       memory_order_relaxed, memory_order_relaxed) ? 0 : EBUSY;
	return atomic_compare_exchange_strong_explicit((_Atomic int *)&m->__private, &unlocked, 1,
						       memory_order_acquire, memory_order_relaxed) ? 0 : EBUSY;
}

static inline int model_mutex_lock(pthread_mutex_t *m)
{
	if (MODEL_MUTEX_RELAXED(m)) {
		while (model_mutex_trylock(m) != 0)
			;
		return 0;
	}
	int unlocked;
	do
		unlocked = 0;
	while (!atomic_compare_exchange_strong_explicit((_Atomic int *)&m->__private, &unlocked, 1,
							memory_order_acquire, memory_order_relaxed));
	return 0;
}

static inline int model_mutex_unlock(pthread_mutex_t *m)
{
	if (MODEL_MUTEX_RELAXED(m))
		atomic_store_explicit((_Atomic int *)&m->__private, 0, memory_order_relaxed);
	else
		atomic_store_explicit((_Atomic int *)&m->__private, 0, memory_order_release);
	return 0;
}
#define pthread_mutex_lock(m) model_mutex_lock(m)
#define pthread_mutex_trylock(m) model_mutex_trylock(m)
#define pthread_mutex_unlock(m) model_mutex_unlock(m)

/*
 * atexit(): GenMC runs exit handlers after main returns, one after the other with no other thread
 * running in between, which would hide the race the exit handler is about (X1: the callback
 * worker is still running). The model records them, and a test that exits calls model_exit(),
 * which runs them (last registered first) in the exiting thread while the others keep running.
 */
#include <stdlib.h>
int model_atexit(void (*fn)(void));
#define atexit(fn) model_atexit(fn)

#include "rcu.h"

/* ---- The definitions. ---------------------------------------------------------------------- */

static struct rcu__reader model_records[MODEL_THREADS];

static struct rcu__reader *model_self(void)
{
	long id = (long)pthread_self();
	assert(id >= 0 && id < MODEL_THREADS);
	return &model_records[id];
}

/*
 * Set by the test once its checks are done: a thread asleep on a condition variable then returns
 * from its wait and ends (see pthread_cond_wait()). It stands for the end of the process, so that
 * the callback worker, which sleeps for ever when it has no work, lets the execution finish.
 */
static _Atomic int model_done;

/*
 * Coverage counters for the probes: broadcasts, waits begun, waits that a broadcast ended, timed
 * waits begun.
 */
static _Atomic int model_broadcasts, model_sleeps, model_wakeups, model_timed_sleeps;

/*
 * pthread_cond_wait(): POSIX's contract, on GenMC's mutex. The waiter reads the broadcast count
 * while it holds the mutex, releases it, sleeps until the count moves, and takes the mutex again.
 * A broadcaster holds the mutex (rcu.h's rcu__word_wake() does), so a waiter that checked its
 * condition under the mutex is counted before any broadcast that follows a change of the
 * condition: no wake is lost that POSIX would deliver. The sleep is a loop without side effects,
 * which GenMC turns into an assume: an execution in which no broadcast ever comes is blocked, and
 * `--check-liveness` reports it ("Non-terminating spinloop"): that is how a lost wake-up shows.
 * Spurious wake-ups are not generated (rcu.h loops around every wait, so they only add rescans).
 */
int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	unsigned seen = atomic_load_explicit(&c->seq, memory_order_relaxed);
	atomic_fetch_add_explicit(&model_sleeps, 1, memory_order_relaxed);
	pthread_mutex_unlock(m);
	while (atomic_load_explicit(&c->seq, memory_order_relaxed) == seen &&
	       !atomic_load_explicit(&model_done, memory_order_relaxed))
		;
	if (atomic_load_explicit(&model_done, memory_order_relaxed))
		pthread_exit(NULL);
	atomic_fetch_add_explicit(&model_wakeups, 1, memory_order_relaxed);
	pthread_mutex_lock(m);
	return 0;
}

/*
 * A timed wait times out at once: from the caller's side that is the same as any wake (it
 * rechecks and, in rcu.h, rescans), and it is the case a lost wake-up leads to. How long a sleep
 * lasts is not modelled.
 */
int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime)
{
	(void)c;
	(void)abstime;
	atomic_fetch_add_explicit(&model_timed_sleeps, 1, memory_order_relaxed);
	pthread_mutex_unlock(m);
	pthread_mutex_lock(m);
	return ETIMEDOUT;
}

int pthread_cond_broadcast(pthread_cond_t *c)
{
	atomic_fetch_add_explicit(&model_broadcasts, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&c->seq, 1, memory_order_relaxed);
	return 0;
}

int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr)
{
	(void)attr;
	atomic_store_explicit(&c->seq, 0, memory_order_relaxed);
	return 0;
}

int pthread_key_create(pthread_key_t *key, void (*destructor)(void *))
{
	(void)destructor;
	*key = MODEL_KEY;
	return 0;
}

/* A key that pthread_key_create() did not return is EINVAL: here, a failed check. */
int pthread_setspecific(pthread_key_t key, const void *value)
{
	(void)value;
	assert(key == MODEL_KEY);
	return 0;
}

int pthread_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
	(void)prepare;
	(void)parent;
	(void)child;
	return 0;
}

int pthread_attr_init(pthread_attr_t *attr)
{
	(void)attr;
	return 0;
}

int pthread_attr_destroy(pthread_attr_t *attr)
{
	(void)attr;
	return 0;
}

int pthread_attr_setdetachstate(pthread_attr_t *attr, int state)
{
	(void)attr;
	(void)state;
	return 0;
}

static void (*model_exit_handlers[4])(void);
static int model_exit_nhandlers; /* under model_exit_lock */
static pthread_mutex_t model_exit_lock = PTHREAD_MUTEX_INITIALIZER;

int model_atexit(void (*fn)(void))
{
	pthread_mutex_lock(&model_exit_lock);
	assert(model_exit_nhandlers < 4);
	model_exit_handlers[model_exit_nhandlers++] = fn;
	pthread_mutex_unlock(&model_exit_lock);
	return 0;
}

static void model_exit(void)
{
	pthread_mutex_lock(&model_exit_lock);
	int n = model_exit_nhandlers;
	pthread_mutex_unlock(&model_exit_lock);
	while (n > 0)
		model_exit_handlers[--n]();
}

/* Signals do not exist in GenMC: the worker's "block every signal" is a no-op. */
int sigfillset(sigset_t *set)
{
	set->bits = ~0ul;
	return 0;
}

int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	(void)how;
	(void)set;
	if (old)
		old->bits = 0;
	return 0;
}

/* Yielding is scheduling, which GenMC explores anyway. */
int sched_yield(void)
{
	return 0;
}

/* Time stands still: data-determinism, which GenMC requires. Timed waits time out at once. */
int clock_gettime(clockid_t clock, struct timespec *ts)
{
	(void)clock;
	ts->tv_sec = 0;
	ts->tv_nsec = 0;
	return 0;
}

/* The thread's name for the worker: nothing to model. */
int prctl(int option, ...)
{
	(void)option;
	return 0;
}

/* Only gettid (a thread's id, for stall reports) is reachable with the options above. */
long syscall(long number, ...)
{
	if (number == SYS_gettid)
		return (long)pthread_self();
	errno = ENOSYS;
	return -1;
}

#endif /* RCU_MODEL_H */
