/* SPDX-License-Identifier: 0BSD */
/*
 * verify/genmc/include/signal.h: the part of <signal.h> that rcu.h uses, for GenMC.
 *
 * glibc's <signal.h> defines pthread_t, pthread_attr_t and pthread_mutex_t itself, and GenMC's
 * <pthread.h> defines them differently, so the two cannot meet in one translation unit. rcu.h
 * needs <signal.h> only to block every signal while it starts the callback worker, which GenMC
 * does not model (it has no signals): these are declarations, defined in model.h.
 */
#ifndef RCU_MODEL_SIGNAL_H
#define RCU_MODEL_SIGNAL_H
typedef struct { unsigned long bits; } sigset_t;
#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2
int sigfillset(sigset_t *set);
int pthread_sigmask(int how, const sigset_t *set, sigset_t *old);
#endif
