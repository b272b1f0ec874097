/* SPDX-License-Identifier: 0BSD */
/*
 * bench/domain_offset.c: how the place of a domain in memory moves the cost of concurrent
 * updates. THREADS threads call synchronize_srcu() on one domain for 1 s; the domain is embedded
 * OFFSET bytes past a cache-line boundary of an aligned block (or, with OFFSET -1, the threads
 * call synchronize_rcu() on the default domain, which rcu.h line-aligns). Prints ns per update and
 * updates per grace period (from srcu_get_stats()/rcu_get_stats()). bench/domain_offset.sh runs
 * it over every offset.
 *
 *   domain_offset THREADS OFFSET
 */
#include "rcu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct srcu_struct *domain; /* NULL: the default domain */
static atomic_int stop;
static atomic_long updates;

static void *updater(void *arg)
{
	(void)arg;
	long n = 0;
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		if (domain)
			synchronize_srcu(domain);
		else
			synchronize_rcu();
		n++;
	}
	atomic_fetch_add(&updates, n);
	return NULL;
}

static void stats(struct rcu_stats *out)
{
	if (domain)
		srcu_get_stats(domain, out);
	else
		rcu_get_stats(out);
}

int main(int argc, char **argv)
{
	enum { MAX_THREADS = 64, BLOCK = 4096 };
	int threads = argc > 1 ? atoi(argv[1]) : 2;
	long offset = argc > 2 ? atol(argv[2]) : 0;
	if (threads < 1 || threads > MAX_THREADS || offset < -1 || offset > BLOCK - (long)sizeof(struct srcu_struct) ||
	    (offset > 0 && offset % (long)_Alignof(struct srcu_struct) != 0)) {
		fprintf(stderr, "usage: domain_offset THREADS(1-%d) OFFSET(-1, or 0-%zu in steps of %zu)\n", MAX_THREADS,
			BLOCK - sizeof(struct srcu_struct), _Alignof(struct srcu_struct));
		return 2;
	}
	char *block = aligned_alloc(RCU_CACHE_LINE, BLOCK);
	if (!block)
		return 1;
	if (offset >= 0) {
		domain = (struct srcu_struct *)(void *)(block + offset);
		init_srcu_struct(domain);
	}
	struct rcu_stats before, after;
	stats(&before);
	pthread_t t[MAX_THREADS];
	for (int i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, updater, NULL) != 0)
			return 1;
	nanosleep(&(struct timespec){ 1, 0 }, NULL);
	atomic_store(&stop, 1);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	stats(&after);
	long n = atomic_load(&updates);
	printf("%.1f ns/update %.2f updates/gp\n", 1e9 / (double)n,
		(double)n / (double)(after.grace_periods - before.grace_periods));
	if (domain)
		cleanup_srcu_struct(domain);
	free(block);
	return 0;
}
