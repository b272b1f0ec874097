/* SPDX-License-Identifier: 0BSD */
/*
 * bench/bench.h: what the driver (bench/rcu-bench.c) knows of one implementation under test.
 *
 * rcu.h and liburcu's flavour headers define the same names (rcu_read_lock, synchronize_rcu, ...),
 * and rcu.h's flavour is chosen per translation unit, so every implementation lives in its own
 * translation unit (bench/ours.c once per flavour, bench/peer_urcu.c once per liburcu flavour,
 * bench/peer_ck.c, bench/peer_plain.c) and exports one `struct bench_impl` under a distinct name.
 * The driver calls through the table only outside timed loops: the loop itself (read_loop) is
 * compiled inside the implementation's translation unit, so every fast path is inlined there.
 */
#ifndef RCU_BENCH_H
#define RCU_BENCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* What an implementation can do (bench_impl.caps). */
enum {
	BENCH_UPDATE = 1u << 0, /* update(): replace the pointer, wait for readers, free the old node */
	BENCH_SYNC = 1u << 1,   /* synchronize() and read_hold() */
	BENCH_CALL = 1u << 2,   /* call_array(), call_malloc(), barrier() */
	BENCH_GP_COUNT = 1u << 3, /* grace_periods() counts the grace periods the process ran */
};

/* What a long reader tells the synchronize caller that measures against it (read_hold). */
struct bench_hold {
	_Atomic int inside;       /* 1 while the reader is inside its section */
	_Atomic uint64_t exit_ns; /* when it last began to leave one (just before the unlock) */
};

struct bench_impl {
	const char *name;    /* "ours", "liburcu", "ck_epoch", "rwlock", "floor" */
	const char *flavour; /* "qsbr", "memb", "mb", "bp", or "" for the others */
	unsigned caps;
	void (*setup)(void);         /* once, before anything else, from the main thread */
	void (*thread_init)(void);   /* each thread that uses the implementation: register */
	void (*thread_fini)(void);   /* and unregister before it ends */
	void (*block_begin)(void);   /* around a blocking wait in a registered thread (QSBR: offline) */
	void (*block_end)(void);
	/* n read-side sections (lock, dereference, read a field, unlock), then one quiescent state
	 * (QSBR; nothing elsewhere). Returns the sum of the fields read. */
	uint64_t (*read_loop)(uint64_t n);
	/* One read-side section that lasts ns nanoseconds (spinning inside), reported in *h, then
	 * a quiescent state. */
	void (*read_hold)(uint64_t ns, struct bench_hold *h);
	void (*update)(void);
	void (*synchronize)(void);
	/* call_rcu() on n preallocated heads whose callback counts; a quiescent state every 1024. */
	void (*call_array)(size_t n);
	/* call_rcu() on n freshly malloc'd nodes of `bytes` bytes whose callback frees them; all from
	 * inside one read-side section if in_section (so that all of them stay pending). */
	void (*call_malloc)(size_t n, size_t bytes, bool in_section);
	void (*barrier)(void);
	uint64_t (*callbacks_done)(void); /* callbacks of call_array() invoked so far */
	uint64_t (*grace_periods)(void);  /* BENCH_GP_COUNT only */
	uint64_t (*pending_max)(void);    /* most callbacks ever pending, or NULL */
};

/* The read-mostly map of examples/rcu_map.h (one per flavour of ours) and examples/rwlock_map.h. */
struct bench_map_impl {
	const char *name;
	const char *flavour;
	void (*thread_init)(void);
	void (*thread_fini)(void);
	void (*block_begin)(void);
	void (*block_end)(void);
	void (*setup)(uint64_t nkeys);
	void (*teardown)(void);
	/* n lookups of pseudo-random present keys, then a quiescent state; returns the hits. */
	uint64_t (*lookup_loop)(uint64_t n, uint64_t *rng);
	/* n replacements of pseudo-random keys with new values, then a quiescent state. */
	void (*update_loop)(uint64_t n, uint64_t *rng);
};

static inline uint64_t bench_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* xorshift64*: cheap per-thread pseudo-random numbers for keys. */
static inline uint64_t bench_rand(uint64_t *state)
{
	uint64_t x = *state ? *state : 0x9e3779b97f4a7c15u;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1du;
}

/* The implementations, one translation unit each (bench/meson.build builds them). */
extern const struct bench_impl bench_ours_qsbr, bench_ours_memb, bench_ours_mb, bench_ours_bp;
extern const struct bench_impl bench_urcu_qsbr, bench_urcu_memb, bench_urcu_mb, bench_urcu_bp;
extern const struct bench_impl bench_ck_epoch, bench_rwlock, bench_floor;
/* The same translation units built into a -fPIC shared object (librcu-bench-so.so). */
extern const struct bench_impl bench_so_ours_qsbr, bench_so_ours_memb, bench_so_ours_mb,
	bench_so_ours_bp;
extern const struct bench_impl bench_so_urcu_qsbr, bench_so_urcu_memb, bench_so_urcu_mb,
	bench_so_urcu_bp;
extern const struct bench_impl bench_so_floor;
extern const struct bench_map_impl bench_map_qsbr, bench_map_memb, bench_map_mb, bench_map_bp,
	bench_map_rwlock;

#endif /* RCU_BENCH_H */
