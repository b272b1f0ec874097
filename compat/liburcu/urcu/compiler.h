/* SPDX-License-Identifier: 0BSD */
/*
 * <urcu/compiler.h> of the compat folder (compat/liburcu): liburcu's compiler helpers on GCC and
 * Clang builtins. Needs no flavour and does not include rcu.h. docs/api.md, "Porting from
 * liburcu", lists every name and what it is here.
 */
#ifndef RCU__COMPAT_URCU_COMPILER_H
#define RCU__COMPAT_URCU_COMPILER_H

#include "../../rcu_compat.h"
#include <stddef.h>
#include <stdint.h>
#if defined(__cplusplus)
#include <type_traits>
#endif
#include "config.h"

#if defined(__GNUC__) && !defined(__clang__)
#define URCU_GCC_VERSION (__GNUC__ * 10000 + __GNUC_MINOR__ * 100 + __GNUC_PATCHLEVEL__)
#endif

#define caa_likely(x) __builtin_expect(!!(x), 1)
#define caa_unlikely(x) __builtin_expect(!!(x), 0)
#define cmm_barrier() RCU__COMPAT_BARRIER()
#define CMM_ACCESS_ONCE(x) (*(__volatile__ __typeof__(x) *)&(x))
#ifndef caa_max
#define caa_max(a, b) ((a) > (b) ? (a) : (b))
#endif
#ifndef caa_min
#define caa_min(a, b) ((a) < (b) ? (a) : (b))
#endif
#define RCU__CAA_PASTE(a, b) a##b
#define CAA_COMBINE_TOKENS(prefix, counter) RCU__CAA_PASTE(prefix, counter)
#define CAA_BITS_PER_LONG (__SIZEOF_LONG__ * 8)
/* The entry holding member `ptr`; `ptr` must have the member's type (const may be added). */
#define caa_container_of(ptr, type, member) \
	__extension__({ \
		const __typeof__(((type *)NULL)->member) *rcu__caa_p = (ptr); \
		(type *)(void *)((char *)(uintptr_t)rcu__caa_p - offsetof(type, member)); \
	})
#define caa_container_of_check_null(ptr, type, member) \
	__extension__({ \
		const __typeof__(((type *)NULL)->member) *rcu__caa_p = (ptr); \
		rcu__caa_p ? (type *)(void *)((char *)(uintptr_t)rcu__caa_p - offsetof(type, member)) : (type *)NULL; \
	})
#define CAA_BUILD_BUG_ON_ZERO(cond) (sizeof(char[(cond) ? -1 : 1]) - 1)
#define CAA_BUILD_BUG_ON(cond) ((void)sizeof(char[(cond) ? -1 : 1]))
#ifndef __rcu
#define __rcu /* liburcu's annotation of RCU-protected pointers: nothing */
#endif
#if defined(__cplusplus)
#define URCU_FORCE_CAST(type, arg) \
	(reinterpret_cast<typename std::remove_cv<type>::type>(const_cast<void *>(reinterpret_cast<const volatile void *>(arg))))
#else
#define URCU_FORCE_CAST(type, arg) ((type)(arg))
#endif
#define caa_is_signed_type(type) ((type)-1 < (type)0)
#define caa_cast_long_keep_sign(v) ((unsigned long)(v))
#define CDS_DEPRECATED(msg) __attribute__((__deprecated__(msg)))
#define CAA_ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))
#if !defined(CMM_SANITIZE_THREAD) && defined(__SANITIZE_THREAD__)
#define CMM_SANITIZE_THREAD 1
#elif !defined(CMM_SANITIZE_THREAD) && defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CMM_SANITIZE_THREAD 1
#endif
#endif
/* The pointer `ptr` as a pointer to volatile (uatomic's accesses go through it, as liburcu's). */
#if defined(__cplusplus)
template <typename T> static inline volatile T *cmm_cast_volatile(T *p)
{
	return static_cast<volatile T *>(p);
}
#else
#define cmm_cast_volatile(ptr) ((volatile __typeof__(*(ptr)) *)(ptr))
#endif
#if defined(__cplusplus)
#define urcu_static_assert(predicate, msg, c_identifier_msg) static_assert(predicate, msg)
#else
#define urcu_static_assert(predicate, msg, c_identifier_msg) _Static_assert(predicate, msg)
#endif

#endif /* RCU__COMPAT_URCU_COMPILER_H */
