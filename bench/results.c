/* SPDX-License-Identifier: 0BSD */
/*
 * bench/results.c: every run's figure goes into the series of its (metric, implementation); at
 * the end of a section each series becomes one result: its median, min and max over the runs.
 * Also the driver's small allocation helpers.
 */
#include "driver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p) {
		fprintf(stderr, "rcu-bench: out of memory\n");
		exit(1);
	}
	return p;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p) {
		fprintf(stderr, "rcu-bench: out of memory\n");
		exit(1);
	}
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xcalloc(1, n), s, n);
}

struct series {
	char *metric, *unit;
	const struct impl *im;
	double *v;
	int n, cap;
};

static struct series *series;
static int nseries;

struct result *results;
int nresults;

void collect(const char *metric, const struct impl *im, const char *unit, double v)
{
	struct series *s = NULL;
	for (int i = 0; i < nseries && !s; i++)
		if (series[i].im == im && strcmp(series[i].metric, metric) == 0)
			s = &series[i];
	if (!s) {
		series = xrealloc(series, (size_t)(nseries + 1) * sizeof *series);
		s = &series[nseries++];
		memset(s, 0, sizeof *s);
		s->metric = xstrdup(metric);
		s->unit = xstrdup(unit);
		s->im = im;
	}
	if (isnan(v) || isinf(v))
		return;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->v = xrealloc(s->v, (size_t)s->cap * sizeof *s->v);
	}
	s->v[s->n++] = v;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void collect_flush(void)
{
	for (int i = 0; i < nseries; i++) {
		struct series *s = &series[i];
		if (s->n > 0) {
			qsort(s->v, (size_t)s->n, sizeof *s->v, cmp_double);
			results = xrealloc(results, (size_t)(nresults + 1) * sizeof *results);
			struct result *r = &results[nresults++];
			r->metric = xstrdup(s->metric);
			r->name = xstrdup(s->im->name);
			r->flavour = xstrdup(s->im->flavour);
			r->unit = xstrdup(s->unit);
			int n = s->n;
			r->med = n % 2 ? s->v[n / 2] : (s->v[n / 2 - 1] + s->v[n / 2]) / 2;
			r->min = s->v[0];
			r->max = s->v[n - 1];
			r->runs = n;
		}
		free(s->metric);
		free(s->unit);
		free(s->v);
	}
	free(series);
	series = NULL;
	nseries = 0;
}

const struct result *result_find(const char *metric, const char *name, const char *flavour)
{
	for (int i = 0; i < nresults; i++)
		if (!strcmp(results[i].metric, metric) && !strcmp(results[i].name, name) &&
			!strcmp(results[i].flavour, flavour))
			return &results[i];
	return NULL;
}

const struct result *result_any(const char *metric)
{
	for (int i = 0; i < nresults; i++)
		if (!strcmp(results[i].metric, metric))
			return &results[i];
	return NULL;
}
