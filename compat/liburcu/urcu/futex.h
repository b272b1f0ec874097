/* SPDX-License-Identifier: 0BSD */
/*
 * <urcu/futex.h> of the compat folder: liburcu's futex wrappers. On Linux, the futex system call;
 * where there is none (or it fails with ENOSYS), a wait that yields once and returns, which a
 * futex may do at any time (a spurious wake-up): callers loop on their condition. No flavour, no
 * rcu.h.
 */
#ifndef RCU__COMPAT_URCU_FUTEX_H
#define RCU__COMPAT_URCU_FUTEX_H

#include "config.h"
#include "syscall-compat.h"
#include "compiler.h"
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <time.h>

#ifndef FUTEX_WAIT
#define FUTEX_WAIT 0
#endif
#ifndef FUTEX_WAKE
#define FUTEX_WAKE 1
#endif

#if defined(__linux__) && ((defined(__GLIBC__) && !defined(__USE_MISC)) || \
			   (!defined(__GLIBC__) && !defined(_GNU_SOURCE) && !defined(_BSD_SOURCE)))
#if defined(__cplusplus)
extern "C" long syscall(long number, ...) noexcept; /* hidden by strict _POSIX_C_SOURCE; as glibc's */
#else
extern long syscall(long number, ...); /* hidden by strict _POSIX_C_SOURCE; same as glibc's */
#endif
#endif

/* The portable wait: returns at once (EAGAIN when *uaddr is not val), after one yield otherwise. */
static inline int compat_futex_async(int32_t *uaddr, int op, int32_t val, const struct timespec *timeout,
				     int32_t *uaddr2, int32_t val3)
{
	(void)timeout;
	(void)uaddr2;
	(void)val3;
	if (op == FUTEX_WAIT) {
		if (__atomic_load_n(uaddr, __ATOMIC_ACQUIRE) != val) {
			errno = EAGAIN;
			return -1;
		}
		sched_yield();
	}
	return 0;
}

static inline int compat_futex_noasync(int32_t *uaddr, int op, int32_t val, const struct timespec *timeout,
				       int32_t *uaddr2, int32_t val3)
{
	return compat_futex_async(uaddr, op, val, timeout, uaddr2, val3);
}

#if defined(__linux__) && defined(SYS_futex)
static inline int futex(int32_t *uaddr, int op, int32_t val, const struct timespec *timeout, int32_t *uaddr2,
			int32_t val3)
{
	return (int)syscall(SYS_futex, uaddr, op, val, timeout, uaddr2, val3);
}
#else
static inline int futex(int32_t *uaddr, int op, int32_t val, const struct timespec *timeout, int32_t *uaddr2,
			int32_t val3)
{
	return compat_futex_async(uaddr, op, val, timeout, uaddr2, val3);
}
#endif

static inline int futex_async(int32_t *uaddr, int op, int32_t val, const struct timespec *timeout,
			      int32_t *uaddr2, int32_t val3)
{
	int ret = futex(uaddr, op, val, timeout, uaddr2, val3);
	if (caa_unlikely(ret < 0 && errno == ENOSYS))
		return compat_futex_async(uaddr, op, val, timeout, uaddr2, val3);
	return ret;
}

static inline int futex_noasync(int32_t *uaddr, int op, int32_t val, const struct timespec *timeout,
				int32_t *uaddr2, int32_t val3)
{
	return futex_async(uaddr, op, val, timeout, uaddr2, val3);
}

#endif /* RCU__COMPAT_URCU_FUTEX_H */
