/* SPDX-License-Identifier: 0BSD */
/*
 * bench/server.c: the main of a server executable, which holds one group of implementations
 * (bench/registry.c.in lists them; bench/meson.build builds one executable per group:
 * rcu-bench-ours, rcu-bench-others, rcu-bench-liburcu-sys, rcu-bench-liburcu-new).
 *
 *   rcu-bench-GROUP --list                 the group, its version, its implementations
 *   rcu-bench-GROUP --serve ID [--no-pin]  measure ID: commands on stdin, answers on stdout
 *                                          (bench/figures.h has the protocol)
 *   rcu-bench-GROUP --insn ID N            N read-side sections of ID        (bench/callgrind.sh)
 *   rcu-bench-GROUP --insn-domain ID N     N read-side sections of ID's own domain (BENCH_DOMAIN)
 *   rcu-bench-GROUP --insn-gp ID N [R]     N grace periods of ID with R registered readers that
 *                                          stay outside sections (default 0)  (bench/callgrind.sh)
 *
 * The driver (rcu-bench) starts one server per implementation and keeps it for the whole
 * invocation, or a fresh one per run where a measurement wants a fresh process (peak RSS). A
 * server measures one implementation only, so the libraries never share a process.
 *
 * Implementation ids: NAME-FLAVOUR (ours-memb, liburcu-new-qsbr), NAME alone for the peers
 * without flavours (ck_epoch, rwlock, floor), "so:" in front for the copy in the group's -fPIC
 * shared object, "map:" in front for a map (map:rcu_map-memb, map:rwlock_map).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "bench.h"
#include "figures.h"
#include "measure.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void impl_id(char *buf, size_t len, const char *prefix, const char *name, const char *flavour)
{
	snprintf(buf, len, "%s%s%s%s", prefix, name, flavour[0] ? "-" : "", flavour);
}

static const struct bench_impl *find_impl(const char *id)
{
	char buf[96];
	for (const struct bench_impl *const *p = bench_registry; *p; p++) {
		impl_id(buf, sizeof buf, "", (*p)->name, (*p)->flavour);
		if (strcmp(buf, id) == 0)
			return *p;
	}
	for (const struct bench_impl *const *p = bench_so_registry; *p; p++) {
		impl_id(buf, sizeof buf, "so:", (*p)->name, (*p)->flavour);
		if (strcmp(buf, id) == 0)
			return *p;
	}
	return NULL;
}

static const struct bench_map_impl *find_map(const char *id)
{
	char buf[96];
	for (const struct bench_map_impl *const *p = bench_map_registry; *p; p++) {
		impl_id(buf, sizeof buf, "map:", (*p)->name, (*p)->flavour);
		if (strcmp(buf, id) == 0)
			return *p;
	}
	return NULL;
}

/*
 * One line per implementation: "impl ID NAME FLAVOUR KIND CAPS", FLAVOUR "-" when none, KIND one
 * of exe, so, map, CAPS the BENCH_* bits. Before them "group NAME" and "version TEXT".
 */
static int list(void)
{
	char id[96];
	printf("group %s\nversion %s\n", bench_group, bench_group_version);
	for (const struct bench_impl *const *p = bench_registry; *p; p++) {
		impl_id(id, sizeof id, "", (*p)->name, (*p)->flavour);
		printf("impl %s %s %s exe %u\n", id, (*p)->name, (*p)->flavour[0] ? (*p)->flavour : "-",
			(*p)->caps);
	}
	for (const struct bench_impl *const *p = bench_so_registry; *p; p++) {
		impl_id(id, sizeof id, "so:", (*p)->name, (*p)->flavour);
		printf("impl %s %s %s so %u\n", id, (*p)->name, (*p)->flavour[0] ? (*p)->flavour : "-",
			(*p)->caps);
	}
	for (const struct bench_map_impl *const *p = bench_map_registry; *p; p++) {
		impl_id(id, sizeof id, "map:", (*p)->name, (*p)->flavour);
		printf("impl %s %s %s map 0\n", id, (*p)->name, (*p)->flavour[0] ? (*p)->flavour : "-");
	}
	return 0;
}

/* Answer commands until stdin ends. */
static int serve(const char *id)
{
	const struct bench_impl *im = find_impl(id);
	const struct bench_map_impl *mp = im ? NULL : find_map(id);
	if (!im && !mp) {
		fprintf(stderr, "rcu-bench-%s: no implementation %s here (--list)\n", bench_group, id);
		return 2;
	}
	if (im)
		im->setup();
	char line[FIGURES_LINE], answer[FIGURES_LINE];
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = '\0';
		char *args = line + strcspn(line, " ");
		if (*args)
			*args++ = '\0';
		struct figures in, out = { .n = 0 };
		if (!figures_parse(&in, args)) {
			printf("err cannot parse the parameters of \"%s\"\n", line);
		} else if (mp) {
			if (strcmp(line, "map") != 0)
				printf("na\n");
			else if (measure_map(mp, &in, &out)) {
				figures_format(&out, answer, sizeof answer);
				printf("ok %s\n", answer);
			} else {
				printf("na\n");
			}
		} else {
			const struct measurement *m = measurement_find(line);
			if (!m) {
				printf("err no measurement \"%s\"\n", line);
			} else if ((im->caps & m->needs) != m->needs || !m->run(im, &in, &out)) {
				printf("na\n");
			} else {
				figures_format(&out, answer, sizeof answer);
				printf("ok %s\n", answer);
			}
		}
		fflush(stdout);
	}
	/* Leave at once: threads the libraries started (call_rcu workers) are not joined, and a
	 * library's exit handlers could wait for callbacks a measurement left pending. */
	fflush(stdout);
	_exit(0);
}

/* An idle reader for --insn-gp: registered, outside any section (QSBR: offline), blocked. */
struct idle_reader {
	const struct bench_impl *im;
	pthread_barrier_t *ready, *done;
};

static void *idle_reader_main(void *arg)
{
	struct idle_reader *r = arg;
	r->im->thread_init();
	volatile uint64_t sink = r->im->read_loop(10); /* first use: BP registers here */
	(void)sink;
	r->im->block_begin();
	pthread_barrier_wait(r->ready);
	pthread_barrier_wait(r->done);
	r->im->block_end();
	r->im->thread_fini();
	return NULL;
}

enum insn_kind { INSN_READ, INSN_DOMAIN, INSN_GP };

static int insn(const char *id, const char *count, enum insn_kind kind, int readers)
{
	const struct bench_impl *im = find_impl(id);
	uint64_t n = strtoull(count, NULL, 10);
	bool gp = kind == INSN_GP;
	if (!im || !n || (gp && !(im->caps & BENCH_SYNC)) || readers < 0 || readers > 64 ||
	    (kind == INSN_DOMAIN && !(im->caps & BENCH_DOMAIN)))
		return 2;
	im->setup();
	pthread_barrier_t ready, done;
	pthread_t tid[64];
	struct idle_reader r = { im, &ready, &done };
	pthread_barrier_init(&ready, NULL, (unsigned)readers + 1);
	pthread_barrier_init(&done, NULL, (unsigned)readers + 1);
	for (int i = 0; i < readers; i++)
		if (pthread_create(&tid[i], NULL, idle_reader_main, &r) != 0)
			return 1;
	pthread_barrier_wait(&ready);
	im->thread_init();
	if (gp) {
		for (int i = 0; i < 10; i++) /* first use: the library's set-up, the TLS */
			im->synchronize();
		bench_insn_gp(im, n);
	} else if (kind == INSN_DOMAIN) {
		volatile uint64_t sink = im->domain_read_loop(1000); /* first use: the thread takes a slot */
		sink += bench_insn_domain(im, n);
		(void)sink;
	} else {
		volatile uint64_t sink = im->read_loop(1000); /* first use: BP registers, TLS is set up */
		sink += bench_insn_measure(im, n);
		(void)sink;
	}
	im->thread_fini();
	pthread_barrier_wait(&done);
	for (int i = 0; i < readers; i++)
		pthread_join(tid[i], NULL);
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: rcu-bench-%s --list | --serve ID [--no-pin] | --insn ID N | --insn-domain ID N | "
		"--insn-gp ID N [R]\n"
		"(a server for rcu-bench: run rcu-bench)\n", bench_group);
	exit(2);
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--list"))
		return list();
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "--serve")) {
		bool pin = true;
		if (argc == 4) {
			if (strcmp(argv[3], "--no-pin") != 0)
				usage();
			pin = false;
		}
		measure_set_pinning(pin);
		return serve(argv[2]);
	}
	if (argc == 4 && !strcmp(argv[1], "--insn"))
		return insn(argv[2], argv[3], INSN_READ, 0);
	if (argc == 4 && !strcmp(argv[1], "--insn-domain"))
		return insn(argv[2], argv[3], INSN_DOMAIN, 0);
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "--insn-gp"))
		return insn(argv[2], argv[3], INSN_GP, argc == 5 ? atoi(argv[4]) : 0);
	usage();
	return 2;
}
