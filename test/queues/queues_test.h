/* SPDX-License-Identifier: 0BSD */
/*
 * test/queues/queues_test.h: what the tests of the queues and stacks share (rcu_wfcqueue.h,
 * rcu_wfstack.h, rcu_lfstack.h and liburcu's names over them).
 *
 * - failures seen by threads other than the test's: counted, the first one's text kept, asserted
 *   by the test's thread at the end (thread_fail(), assert_no_thread_failures());
 * - items: a node's object, with the producer, a sequence number per producer and a payload that
 *   the producer writes with plain stores before it enqueues (or pushes), and the consumer checks
 *   with plain loads after it dequeues (or pops): a missing release/acquire pair is a data race
 *   that TSan reports, and a lost ordering a payload that does not match;
 * - the seen table: which (producer, seq) each consumer got, exactly once over all consumers.
 */
#ifndef RCU_TEST_QUEUES_TEST_H
#define RCU_TEST_QUEUES_TEST_H

#include <stdarg.h>

static _Atomic long thread_failures;
static _Atomic bool thread_failmsg_taken;
static char thread_failmsg[512];

__attribute__((format(printf, 1, 2))) static void thread_fail(const char *fmt, ...)
{
	atomic_fetch_add_explicit(&thread_failures, 1, memory_order_relaxed);
	if (atomic_exchange_explicit(&thread_failmsg_taken, true, memory_order_relaxed))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(thread_failmsg, sizeof thread_failmsg, fmt, ap);
	va_end(ap);
}

static void assert_no_thread_failures(void)
{
	long n = atomic_load_explicit(&thread_failures, memory_order_relaxed);
	cr_assert_eq(n, 0, "%ld failures in threads; first: %s", n, thread_failmsg);
}

#define PAYLOAD_WORDS 4

static inline uint64_t payload_word(unsigned producer, uint64_t seq, unsigned i)
{
	return (seq * 0x9e3779b97f4a7c15u) ^ ((uint64_t)producer << 48) ^ (i * 0x1234567u);
}

/* Plain stores, before the node is published. */
static inline void payload_fill(uint64_t *w, unsigned producer, uint64_t seq)
{
	for (unsigned i = 0; i < PAYLOAD_WORDS; i++)
		w[i] = payload_word(producer, seq, i);
}

/* Plain loads, after the node was taken: false if any word is not what its producer wrote. */
static inline bool payload_ok(const uint64_t *w, unsigned producer, uint64_t seq)
{
	for (unsigned i = 0; i < PAYLOAD_WORDS; i++)
		if (w[i] != payload_word(producer, seq, i))
			return false;
	return true;
}

/* seen[producer][seq]: how many consumers got that item (must end at exactly 1). */
#define MAX_PRODUCERS 8

struct seen_table {
	_Atomic unsigned char *count[MAX_PRODUCERS];
	unsigned producers;
	uint64_t per_producer;
};

static inline void seen_init(struct seen_table *t, unsigned producers, uint64_t per_producer)
{
	t->producers = producers;
	t->per_producer = per_producer;
	for (unsigned p = 0; p < producers; p++) {
		t->count[p] = calloc(per_producer, sizeof *t->count[p]);
		cr_assert_not_null(t->count[p]);
	}
}

/* Record one item; reports a duplicate at once. */
static inline void seen_mark(struct seen_table *t, unsigned producer, uint64_t seq, const char *who)
{
	if (producer >= t->producers || seq >= t->per_producer) {
		thread_fail("%s: an item that was never produced (producer %u, seq %llu)", who, producer,
			    (unsigned long long)seq);
		return;
	}
	if (atomic_fetch_add_explicit(&t->count[producer][seq], 1, memory_order_relaxed) != 0)
		thread_fail("%s: producer %u's item %llu taken twice", who, producer, (unsigned long long)seq);
}

/* Every item exactly once; frees the table. */
static inline void seen_check_all(struct seen_table *t)
{
	uint64_t lost = 0, first_lost = 0;
	unsigned first_p = 0;
	for (unsigned p = 0; p < t->producers; p++) {
		for (uint64_t s = 0; s < t->per_producer; s++) {
			unsigned c = atomic_load_explicit(&t->count[p][s], memory_order_relaxed);
			cr_assert_leq(c, 1, "producer %u's item %llu taken %u times", p, (unsigned long long)s, c);
			if (c == 0 && lost++ == 0) {
				first_p = p;
				first_lost = s;
			}
		}
		free(t->count[p]);
	}
	cr_assert_eq(lost, 0, "%llu items lost (first: producer %u, item %llu)", (unsigned long long)lost,
		     first_p, (unsigned long long)first_lost);
}

/* A start gate: threads wait for it, so that they all begin together (and interleave). */
static _Atomic int start_gate;

static inline void gate_wait(void)
{
	while (!atomic_load_explicit(&start_gate, memory_order_acquire))
		sched_yield();
}

static inline void gate_open(void)
{
	atomic_store_explicit(&start_gate, 1, memory_order_release);
}

static inline void gate_close(void)
{
	atomic_store_explicit(&start_gate, 0, memory_order_relaxed);
}

/* Spin-wait politely: on 2 CPUs shared with other work, a waiting thread must let others run. */
static inline void relax(unsigned *n)
{
	if (++*n % 64 == 0)
		sched_yield();
}

#endif /* RCU_TEST_QUEUES_TEST_H */
