/* SPDX-License-Identifier: 0BSD */
/*
 * bench/figures.h: the few lines the driver (bench/rcu-bench.c) and a server (bench/server.c)
 * exchange. The driver writes one command per line on the server's stdin:
 *
 *     <measurement> key=value key=value ...        e.g.  update readers=2 updaters=1 ms=100
 *
 * and the server answers with one line on its stdout:
 *
 *     ok key=value ...        the figures of that one run (e.g.  ok mreads=123.4 kups=56.7)
 *     na                      the implementation cannot do that measurement
 *     err <sentence>          the measurement failed
 *
 * Both sides keep the keys and values of a line in a `struct figures`; keys are short words
 * without spaces or '='.
 */
#ifndef RCU_BENCH_FIGURES_H
#define RCU_BENCH_FIGURES_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIGURES_MAX 16
#define FIGURE_KEY 24
#define FIGURES_LINE 1024

struct figures {
	int n;
	char key[FIGURES_MAX][FIGURE_KEY];
	double v[FIGURES_MAX];
};

/* Set key to v (replacing an earlier value); silently ignores a key beyond FIGURES_MAX. */
static inline void figures_set(struct figures *f, const char *key, double v)
{
	for (int i = 0; i < f->n; i++)
		if (strcmp(f->key[i], key) == 0) {
			f->v[i] = v;
			return;
		}
	if (f->n == FIGURES_MAX)
		return;
	snprintf(f->key[f->n], FIGURE_KEY, "%s", key);
	f->v[f->n++] = v;
}

/* The value of key, or dflt when absent. */
static inline double figures_get(const struct figures *f, const char *key, double dflt)
{
	for (int i = 0; i < f->n; i++)
		if (strcmp(f->key[i], key) == 0)
			return f->v[i];
	return dflt;
}

/* "key=value key=value" into buf (NaN as "nan"). */
static inline void figures_format(const struct figures *f, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < f->n && used < len; i++) {
		int w = snprintf(buf + used, len - used, "%s%s=%.9g", i ? " " : "", f->key[i], f->v[i]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/* Parse "key=value ..." (the words after the command or after "ok"); false on a bad word. */
static inline bool figures_parse(struct figures *f, const char *s)
{
	f->n = 0;
	while (*s) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		const char *eq = strchr(s, '=');
		size_t klen = eq ? (size_t)(eq - s) : 0;
		if (!eq || klen == 0 || klen >= FIGURE_KEY || memchr(s, ' ', klen))
			return false;
		char key[FIGURE_KEY];
		memcpy(key, s, klen);
		key[klen] = '\0';
		char *end;
		double v = strtod(eq + 1, &end);
		if (end == eq + 1)
			return false;
		figures_set(f, key, v);
		s = end;
	}
	return true;
}

#endif /* RCU_BENCH_FIGURES_H */
