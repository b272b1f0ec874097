/* SPDX-License-Identifier: 0BSD */
/*
 * bench/bench.h: what a measurement (bench/measure.c) knows of one implementation under test.
 *
 * rcu.h and liburcu define the same names (rcu_read_lock, synchronize_rcu, ...), rcu.h's flavour
 * is chosen per translation unit, and the two liburcu versions define the same exported symbols,
 * so every implementation lives in its own translation unit (bench/ours.c once per flavour,
 * bench/peer_urcu.c once per liburcu version and flavour, bench/peer_ck.c, bench/peer_plain.c)
 * and exports one `struct bench_impl` under a name that bench/meson.build gives it (BENCH_IMPL).
 * Each liburcu version is linked into its own server executable (bench/server.c); the driver
 * (bench/rcu-bench.c) runs every implementation in a process of its own.
 *
 * Measurements call through the table only outside timed loops: every loop that is timed (the
 * read loop, the enqueue loops) is compiled inside the implementation's translation unit, so
 * that every fast path is inlined there.
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
	BENCH_UPDATE = 1u << 0,   /* update(): replace the pointer, wait for readers, free the old node */
	BENCH_SYNC = 1u << 1,     /* synchronize() and read_hold() */
	BENCH_CALL = 1u << 2,     /* call_array(), call_malloc(), barrier() */
	BENCH_GP_COUNT = 1u << 3, /* grace_periods() counts the grace periods the process ran */
	BENCH_DOMAIN = 1u << 4,   /* domain_read_loop() and domain_synchronize(): a domain of its own */
	BENCH_NAP = 1u << 5,      /* nap() */
};

/* What a long reader tells the synchronize caller that measures against it (read_hold). */
struct bench_hold {
	_Atomic int inside;       /* 1 while the reader is inside its section */
	_Atomic uint64_t exit_ns; /* when it last began to leave one (just before the unlock) */
};

struct bench_impl {
	const char *name;    /* "ours", "liburcu-sys", "liburcu-new", "ck_epoch", "rwlock", "floor" */
	const char *flavour; /* "qsbr", "memb", "mb", "bp" (the flavour list), or "" for the others */
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
	/* Replace the published node by a fresh one, wait for readers, free the old one. Safe to
	 * call from several threads at once. */
	void (*update)(void);
	void (*synchronize)(void);
	/* call_rcu() on n preallocated heads whose callback counts; a quiescent state every 1024. */
	void (*call_array)(size_t n);
	/* call_rcu() on n freshly malloc'd nodes of `bytes` bytes whose callback counts and frees
	 * them (a quiescent state, or ck's poll, every 1024); all from inside one read-side section
	 * if in_section (so that all of them stay pending). Safe from several threads at once. */
	void (*call_malloc)(size_t n, size_t bytes, bool in_section);
	void (*barrier)(void);
	uint64_t (*callbacks_done)(void); /* callbacks of call_array() invoked so far */
	uint64_t (*malloc_done)(void);    /* callbacks of call_malloc() invoked so far */
	uint64_t (*grace_periods)(void);  /* BENCH_GP_COUNT only */
	uint64_t (*pending_max)(void);    /* most callbacks ever pending, as the library counts, or NULL */
	/*
	 * BENCH_DOMAIN: a grace-period domain of its own, independent of the default one (rcu.h's
	 * SRCU domain, struct srcu_struct; ck_epoch's epoch object): n read-side sections of it
	 * (lock, dereference, read a field, unlock, as read_loop()), and one grace period of it.
	 */
	uint64_t (*domain_read_loop)(uint64_t n);
	void (*domain_synchronize)(void);
	/*
	 * BENCH_NAP: one nap of ns nanoseconds by a reader of another domain than the ones
	 * synchronize() and domain_synchronize() wait for (rcu.h: a second SRCU domain; ck_epoch: a
	 * second epoch object; an implementation without domains: its only one), inside a section of
	 * it (inside) or right after one. A thread that sleeps outside a section holds up nothing
	 * (QSBR: offline while it sleeps; rcu.h's QSBR is offline in the default domain either way,
	 * since a domain's section needs no online state).
	 */
	void (*nap)(uint64_t ns, bool inside);
};

/* The read-mostly map of examples/rcu_map.h (one per flavour of ours) and examples/rwlock_map.h. */
struct bench_map_impl {
	const char *name;    /* "rcu_map", "rwlock_map" */
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

/*
 * The implementations a server executable holds: NULL-terminated lists, generated per executable
 * by bench/meson.build from bench/registry.c.in. bench_group names the group ("ours", "others",
 * "liburcu-sys", "liburcu-new"); bench_group_version says which library and version it measures.
 */
extern const char bench_group[];
extern const char bench_group_version[];
extern const struct bench_impl *const bench_registry[];    /* in the executable */
extern const struct bench_impl *const bench_so_registry[]; /* in its -fPIC shared object */
extern const struct bench_map_impl *const bench_map_registry[];

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

#endif /* RCU_BENCH_H */
