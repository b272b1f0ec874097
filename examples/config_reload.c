/* SPDX-License-Identifier: 0BSD */
/*
 * examples/config_reload.c: the classic RCU use, a configuration that many threads read and one
 * thread sometimes reloads. Readers look at the current config without taking any lock; the
 * reloader builds a complete new config, publishes it with one pointer exchange and hands the
 * old one to rcu_free(), which frees it once no reader can still be looking at it.
 *
 * It also shows RCU_FREE: defined before including rcu.h, it replaces free() for rcu_free(). Here
 * it poisons the config first, so that a reader that ever saw a reclaimed config would notice.
 * Checks: every config a reader sees is whole (magic and checksum), versions never go backwards
 * for one reader, and after rcu_barrier() every replaced config has been freed.
 */
static void config_free(void *p);
#define RCU_FREE(p) config_free(p)
#include "rcu.h"

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define READERS 2
#define RELOADS 5000
#define CONFIG_MAGIC 0x434f4e46u /* "CONF" */

struct config {
	unsigned magic;
	unsigned version;
	int limits[8];
	unsigned checksum;
	struct rcu_head rcu;
};

static struct config *_Atomic current_config = RCU_INITIALIZER(NULL);

static _Atomic long frees, bad_reads, lookups;
static _Atomic bool done;
static _Atomic int readers_started;

static unsigned config_sum(const struct config *c)
{
	unsigned s = c->version * 2654435761u;
	for (int i = 0; i < 8; i++)
		s = (s ^ (unsigned)c->limits[i]) * 16777619u;
	return s;
}

static void config_free(void *p)
{
	memset(p, 0xdb, sizeof(struct config));
	free(p);
	atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
}

static struct config *config_build(unsigned version)
{
	struct config *c = malloc(sizeof *c);
	if (!c) {
		perror("config_reload: malloc");
		exit(1);
	}
	c->magic = CONFIG_MAGIC;
	c->version = version;
	for (int i = 0; i < 8; i++)
		c->limits[i] = (int)(version * 8 + (unsigned)i);
	c->checksum = config_sum(c);
	return c;
}

/* Reloader: no lock needed with a single reloader; with several, hold a mutex around this. */
static void config_reload(unsigned version)
{
	struct config *old = rcu_xchg_pointer(&current_config, config_build(version));
	if (old)
		rcu_free(old, rcu);
}

/* Reader: returns the limit i of the current config, checking the config on the way. */
static int config_limit(int i, unsigned *last_version)
{
	rcu_read_lock();
	const struct config *c = rcu_dereference(current_config);
	int v = c->limits[i];
	if (c->magic != CONFIG_MAGIC || c->checksum != config_sum(c) || c->version < *last_version) {
		atomic_fetch_add_explicit(&bad_reads, 1, memory_order_relaxed);
		fprintf(stderr, "config_reload: bad config (magic %08x, version %u after %u)\n",
			c->magic, c->version, *last_version);
	}
	*last_version = c->version;
	rcu_read_unlock();
	return v;
}

static void *reader(void *arg)
{
	(void)arg;
	unsigned last = 0;
	long n = 0;
	rcu_register_thread();
	atomic_fetch_add_explicit(&readers_started, 1, memory_order_relaxed);
	while (!atomic_load_explicit(&done, memory_order_relaxed)) {
		(void)config_limit((int)(n++ % 8), &last);
		rcu_quiescent_state();
	}
	rcu_unregister_thread();
	atomic_fetch_add_explicit(&lookups, n, memory_order_relaxed);
	return NULL;
}

int main(void)
{
	pthread_t t[READERS];
	config_reload(1);
	for (int i = 0; i < READERS; i++)
		if (pthread_create(&t[i], NULL, reader, NULL) != 0)
			return 1;
	while (atomic_load_explicit(&readers_started, memory_order_relaxed) < READERS)
		sched_yield();
	for (unsigned v = 2; v <= RELOADS; v++)
		config_reload(v);
	atomic_store_explicit(&done, true, memory_order_relaxed);
	for (int i = 0; i < READERS; i++)
		pthread_join(t[i], NULL);
	free(rcu_xchg_pointer(&current_config, NULL)); /* no readers left */
	rcu_barrier();
	long f = atomic_load_explicit(&frees, memory_order_relaxed);
	long b = atomic_load_explicit(&bad_reads, memory_order_relaxed);
	printf("config_reload: %d reloads, %ld lookups, %ld configs freed by rcu_free, %ld bad\n",
		RELOADS, atomic_load_explicit(&lookups, memory_order_relaxed), f, b);
	if (f != RELOADS - 1) {
		fprintf(stderr, "config_reload: expected %d configs freed after rcu_barrier()\n", RELOADS - 1);
		return 1;
	}
	return b == 0 ? 0 : 1;
}
