/* SPDX-License-Identifier: 0BSD */
/*
 * bench/report.c: results -> tables and files.
 *
 * Two kinds of table:
 *   by flavour  one metric; a row per flavour with ours, liburcu new, our ratio to it, liburcu
 *               from the system, our ratio to it (and to the floor for the read side); then a row
 *               per other peer (ck_epoch, rwlock, floor) with its figure in the "ours" column.
 *   grid        several metrics (thread counts, percentiles); a row per implementation, grouped
 *               by flavour (ours, liburcu new, liburcu system), with rows of our ratios under each
 *               flavour; then the other peers.
 * Every cell is a median over runs; by-flavour tables add (min-max).
 *
 * Files written into --out: rcu-bench.csv (every result), rcu-bench.json (the same, the run's
 * conditions and the targets), rcu-bench.md (the tables in Markdown, for docs/benchmarks.md) and
 * rcu-bench-readme.md (the README's table).
 */
#include "driver.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The RCU implementations compared flavour by flavour, in column order; then the other peers. */
#define PRIMARY "liburcu-new"
#define SECONDARY "liburcu-sys"
static const char *const rcu_names[] = { "ours", PRIMARY, SECONDARY };
static const char *const other_names[] = { "ck_epoch", "rwlock", "floor" };
#define NRCU ((int)(sizeof rcu_names / sizeof rcu_names[0]))
#define NOTHERS ((int)(sizeof other_names / sizeof other_names[0]))

struct run_info run;

/* ------------------------------------------------------------------ labels */

static char primary_label[64] = "liburcu new", secondary_label[64] = "liburcu sys";
static char primary_tag[32] = "new", secondary_tag[32] = "sys";

/* "liburcu 0.13.2 (...)" -> "0.13.2" */
static void version_word(const char *version, char *buf, size_t len)
{
	const char *p = strchr(version, ' ');
	if (!p || !p[1]) {
		buf[0] = '\0';
		return;
	}
	p++;
	snprintf(buf, len, "%.*s", (int)strcspn(p, " ,;()"), p);
}

static void labels(void)
{
	const struct group *n = group_find(PRIMARY), *s = group_find(SECONDARY);
	if (!n || !n->present)
		snprintf(primary_label, sizeof primary_label, "liburcu new (absent)");
	if (s && s->present) {
		char v[32];
		version_word(s->version, v, sizeof v);
		if (v[0]) {
			snprintf(secondary_tag, sizeof secondary_tag, "%s", v);
			snprintf(secondary_label, sizeof secondary_label, "liburcu %s", v);
		}
	} else {
		snprintf(secondary_label, sizeof secondary_label, "liburcu sys (absent)");
	}
}

const char *peer_label(const char *name)
{
	if (!strcmp(name, PRIMARY))
		return primary_label;
	if (!strcmp(name, SECONDARY))
		return secondary_label;
	return name;
}

const char *peer_tag(const char *name)
{
	if (!strcmp(name, PRIMARY))
		return primary_tag;
	if (!strcmp(name, SECONDARY))
		return secondary_tag;
	return name;
}

/* ------------------------------------------------------------------ tables */

struct table {
	char *title;
	int ncols, nrows;
	char **cell; /* nrows x ncols, row 0 the header */
};

static struct table *tables;
static int ntables;

static struct table *table_new(const char *title, int ncols)
{
	tables = xrealloc(tables, (size_t)(ntables + 1) * sizeof *tables);
	struct table *t = &tables[ntables++];
	t->title = xstrdup(title);
	t->ncols = ncols;
	t->nrows = 0;
	t->cell = NULL;
	return t;
}

/* A new row of empty cells; its index. */
static int table_row(struct table *t)
{
	t->cell = xrealloc(t->cell, (size_t)(t->nrows + 1) * (size_t)t->ncols * sizeof *t->cell);
	for (int c = 0; c < t->ncols; c++)
		t->cell[t->nrows * t->ncols + c] = xstrdup("");
	return t->nrows++;
}

static void table_set(struct table *t, int row, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void table_set(struct table *t, int row, int col, const char *fmt, ...)
{
	if (row < 0 || row >= t->nrows || col < 0 || col >= t->ncols)
		return;
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	free(t->cell[row * t->ncols + col]);
	t->cell[row * t->ncols + col] = xstrdup(buf);
}

static const char *table_get(const struct table *t, int row, int col)
{
	return t->cell[row * t->ncols + col];
}

static void fmt_num(char *buf, size_t len, double v)
{
	double a = fabs(v);
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.2f", v);
	else if (a >= 0.01 || a == 0)
		snprintf(buf, len, "%.3f", v);
	else
		snprintf(buf, len, "%.2g", v);
}

static void cell_result(struct table *t, int row, int col, const struct result *r, bool range)
{
	char a[24], b[24], c[24];
	if (!r) {
		table_set(t, row, col, "-");
		return;
	}
	fmt_num(a, sizeof a, r->med);
	if (!range) {
		table_set(t, row, col, "%s", a);
		return;
	}
	fmt_num(b, sizeof b, r->min);
	fmt_num(c, sizeof c, r->max);
	table_set(t, row, col, "%s (%s-%s)", a, b, c);
}

static double ratio(const struct result *x, const struct result *y)
{
	return x && y && y->med != 0 ? x->med / y->med : NAN;
}

static void cell_ratio(struct table *t, int row, int col, const struct result *x, const struct result *y)
{
	double q = ratio(x, y);
	if (isnan(q))
		table_set(t, row, col, "-");
	else
		table_set(t, row, col, "%.2f", q);
}

static void header(struct table *t, const char *const *head)
{
	int r = table_row(t);
	for (int c = 0; c < t->ncols; c++)
		table_set(t, r, c, "%s", head[c]);
}

/*
 * By flavour: one metric. The title gets the unit and the number of runs; nothing is added when
 * no implementation has the metric.
 */
static void table_metric(const char *metric, const char *title, bool with_floor)
{
	const struct result *any = result_any(metric);
	if (!any)
		return;
	char full[320], h_new[80], h_sys[80];
	snprintf(full, sizeof full, "%s [%s; median (min-max) of %d]", title, any->unit, any->runs);
	snprintf(h_new, sizeof h_new, "ours/%s", primary_tag);
	snprintf(h_sys, sizeof h_sys, "ours/%s", secondary_tag);
	const char *head[] = { "flavour", "ours", primary_label, h_new, secondary_label, h_sys, "ours/floor" };
	struct table *t = table_new(full, with_floor ? 7 : 6);
	header(t, head);
	const struct result *fl = result_find(metric, "floor", "");
	for (int f = 0; f < nflavours; f++) {
		const char *fn = flavour_names[f];
		const struct result *o = result_find(metric, "ours", fn);
		const struct result *n = result_find(metric, PRIMARY, fn);
		const struct result *s = result_find(metric, SECONDARY, fn);
		if (!o && !n && !s)
			continue;
		int r = table_row(t);
		table_set(t, r, 0, "%s", fn);
		cell_result(t, r, 1, o, true);
		cell_result(t, r, 2, n, true);
		cell_ratio(t, r, 3, o, n);
		cell_result(t, r, 4, s, true);
		cell_ratio(t, r, 5, o, s);
		if (with_floor)
			cell_ratio(t, r, 6, o, fl);
	}
	for (int k = 0; k < NOTHERS; k++) {
		const struct result *x = result_find(metric, other_names[k], "");
		if (!x)
			continue;
		int r = table_row(t);
		table_set(t, r, 0, "%s", other_names[k]);
		cell_result(t, r, 1, x, true);
	}
}

/*
 * Grid: several metrics as columns, a row per implementation; under each flavour, rows of our
 * ratios to each liburcu (when asked).
 */
static void table_grid(const char *title, int nm, const char *const *metrics, const char *const *heads,
	bool ratios)
{
	bool any = false;
	for (int m = 0; m < nm && !any; m++)
		any = result_any(metrics[m]) != NULL;
	if (!any)
		return;
	struct table *t = table_new(title, nm + 1);
	int h = table_row(t);
	table_set(t, h, 0, "implementation");
	for (int m = 0; m < nm; m++)
		table_set(t, h, m + 1, "%s", heads[m]);
	for (int f = 0; f < nflavours; f++) {
		const char *fn = flavour_names[f];
		for (int k = 0; k < NRCU; k++) {
			bool have = false;
			for (int m = 0; m < nm && !have; m++)
				have = result_find(metrics[m], rcu_names[k], fn) != NULL;
			if (!have)
				continue;
			int r = table_row(t);
			table_set(t, r, 0, "%s-%s", rcu_names[k], fn);
			for (int m = 0; m < nm; m++)
				cell_result(t, r, m + 1, result_find(metrics[m], rcu_names[k], fn), false);
		}
		for (int k = 1; ratios && k < NRCU; k++) {
			bool have = false;
			for (int m = 0; m < nm && !have; m++)
				have = !isnan(ratio(result_find(metrics[m], "ours", fn), result_find(metrics[m], rcu_names[k], fn)));
			if (!have)
				continue;
			int r = table_row(t);
			table_set(t, r, 0, "  %s: ours/%s", fn, peer_tag(rcu_names[k]));
			for (int m = 0; m < nm; m++)
				cell_ratio(t, r, m + 1, result_find(metrics[m], "ours", fn),
					result_find(metrics[m], rcu_names[k], fn));
		}
	}
	for (int k = 0; k < NOTHERS; k++) {
		bool have = false;
		for (int m = 0; m < nm && !have; m++)
			have = result_find(metrics[m], other_names[k], "") != NULL;
		if (!have)
			continue;
		int r = table_row(t);
		table_set(t, r, 0, "%s", other_names[k]);
		for (int m = 0; m < nm; m++)
			cell_result(t, r, m + 1, result_find(metrics[m], other_names[k], ""), false);
	}
}

static void table_scale(void)
{
	if (!result_any("scale_t1"))
		return;
	int nt = 0;
	while (nt < 64) {
		char m[32];
		snprintf(m, sizeof m, "scale_t%d", nt + 1);
		if (!result_any(m))
			break;
		nt++;
	}
	char title[200];
	snprintf(title, sizeof title,
		"reader scaling [total Mreads/s by reader threads, median of %d; %d CPUs]", opt.runs, opt.cpus);
	char (*mbuf)[32] = xcalloc((size_t)nt + 1, sizeof *mbuf);
	char (*hbuf)[16] = xcalloc((size_t)nt + 1, sizeof *hbuf);
	const char **metrics = xcalloc((size_t)nt + 1, sizeof *metrics);
	const char **heads = xcalloc((size_t)nt + 1, sizeof *heads);
	for (int i = 0; i < nt; i++) {
		snprintf(mbuf[i], sizeof mbuf[i], "scale_t%d", i + 1);
		snprintf(hbuf[i], sizeof hbuf[i], "%d", i + 1);
		metrics[i] = mbuf[i];
		heads[i] = hbuf[i];
	}
	table_grid(title, nt, metrics, heads, false);
	/* and the 2-thread / 1-thread column */
	struct table *t = &tables[ntables - 1];
	if (nt >= 2) {
		struct table old = *t;
		t->ncols = old.ncols + 1;
		t->cell = xcalloc((size_t)t->nrows * (size_t)t->ncols, sizeof *t->cell);
		for (int r = 0; r < t->nrows; r++) {
			for (int c = 0; c < old.ncols; c++)
				t->cell[r * t->ncols + c] = old.cell[r * old.ncols + c];
			t->cell[r * t->ncols + old.ncols] = xstrdup("");
		}
		free(old.cell);
		table_set(t, 0, t->ncols - 1, "2t/1t");
		for (int r = 1; r < t->nrows; r++) {
			const char *id = table_get(t, r, 0);
			for (int i = 0; i < nimpls; i++) {
				if (impls[i].kind != KIND_EXE || strcmp(impls[i].id, id) != 0)
					continue;
				cell_ratio(t, r, t->ncols - 1, result_find("scale_t2", impls[i].name, impls[i].flavour),
					result_find("scale_t1", impls[i].name, impls[i].flavour));
			}
		}
	}
	free(mbuf);
	free(hbuf);
	free(metrics);
	free(heads);
}

static void table_map(void)
{
	const struct result *base = result_find("map_lookups", "rwlock_map", "");
	if (!result_any("map_lookups"))
		return;
	char title[200];
	snprintf(title, sizeof title,
		"read-mostly map, 4096 keys, %d readers + 1 updater replacing values [median (min-max) of %d]",
		section_map_readers(), opt.runs);
	struct table *t = table_new(title, 4);
	const char *head[] = { "map", "Mlookups/s", "k updates/s", "lookups vs rwlock_map" };
	header(t, head);
	for (int i = 0; i < nimpls; i++) {
		if (impls[i].kind != KIND_MAP)
			continue;
		const struct result *l = result_find("map_lookups", impls[i].name, impls[i].flavour);
		const struct result *u = result_find("map_updates", impls[i].name, impls[i].flavour);
		if (!l)
			continue;
		int r = table_row(t);
		table_set(t, r, 0, "%s", impls[i].id + (strncmp(impls[i].id, "map:", 4) ? 0 : 4));
		cell_result(t, r, 1, l, true);
		cell_result(t, r, 2, u, true);
		cell_ratio(t, r, 3, l, base);
	}
}

/*
 * Domains: each flavour's domain (struct srcu_struct) beside its default domain, and ck_epoch's
 * epoch object; the read side also against the default domain's MEMB read side (the issue's
 * reference). Then the isolation scenario, a row per (implementation, domain waited for).
 */
static void table_domains(void)
{
	if (!result_any("dom_read_ns") && !result_any("dom_sync_us"))
		goto isolation;
	char title[320];
	snprintf(title, sizeof title,
		"domains: a domain's read side (lock + dereference + field + unlock), and synchronize with no "
		"other thread and against 1 reader in short sections of the same domain, beside the default "
		"domain's (rcu.h: struct srcu_struct; ck_epoch: its epoch object) [median of %d]", opt.runs);
	struct table *t = table_new(title, 11);
	const char *head[] = { "implementation", "read ns: default", "read ns: domain", "domain/default",
		"domain/default memb", "sync us: default", "sync us: domain", "domain/default",
		"sync, 1 reader: default", "sync, 1 reader: domain", "domain/default" };
	header(t, head);
	const struct result *memb = result_find("dom_read_default_ns", "ours", "memb");
	for (int f = 0; f < nflavours; f++) {
		const char *fn = flavour_names[f];
		const struct result *rd = result_find("dom_read_ns", "ours", fn);
		const struct result *rdd = result_find("dom_read_default_ns", "ours", fn);
		const struct result *sd = result_find("dom_sync_us", "ours", fn);
		const struct result *sdd = result_find("dom_sync_default_us", "ours", fn);
		if (!rd && !sd)
			continue;
		int r = table_row(t);
		table_set(t, r, 0, "ours-%s", fn);
		cell_result(t, r, 1, rdd, true);
		cell_result(t, r, 2, rd, true);
		cell_ratio(t, r, 3, rd, rdd);
		cell_ratio(t, r, 4, rd, memb);
		cell_result(t, r, 5, sdd, true);
		cell_result(t, r, 6, sd, true);
		cell_ratio(t, r, 7, sd, sdd);
		const struct result *s1 = result_find("dom_sync_r1_us", "ours", fn);
		const struct result *s1d = result_find("dom_sync_r1_default_us", "ours", fn);
		cell_result(t, r, 8, s1d, true);
		cell_result(t, r, 9, s1, true);
		cell_ratio(t, r, 10, s1, s1d);
	}
	const struct result *ck = result_find("dom_read_ns", "ck_epoch", "");
	const struct result *cks = result_find("dom_sync_us", "ck_epoch", "");
	if (ck || cks) {
		int r = table_row(t);
		table_set(t, r, 0, "ck_epoch");
		table_set(t, r, 1, "-");
		cell_result(t, r, 2, ck, true);
		table_set(t, r, 3, "-");
		cell_ratio(t, r, 4, ck, memb);
		table_set(t, r, 5, "-");
		cell_result(t, r, 6, cks, true);
		table_set(t, r, 7, "-");
		table_set(t, r, 8, "-");
		cell_result(t, r, 9, result_find("dom_sync_r1_us", "ck_epoch", ""), true);
		table_set(t, r, 10, "-");
	}
isolation:
	if (!result_any("iso_dom_ratio") && !result_any("iso_def_ratio"))
		return;
	snprintf(title, sizeof title,
		"isolation: grace-period latency while %d readers of another domain sleep %d us in each of their "
		"sections, against the same readers sleeping between their sections (liburcu has no domains: its "
		"readers sleep in its only one) [us; median of %d]", section_nap_sleepers(), section_nap_us(), opt.runs);
	t = table_new(title, 6);
	const char *ihead[] = { "implementation", "grace period of", "readers sleep between sections",
		"readers sleep inside", "inside/between", "longest call, inside" };
	header(t, ihead);
	static const char *const names[] = { "ours", PRIMARY, SECONDARY };
	for (int f = 0; f < nflavours; f++) {
		const char *fn = flavour_names[f];
		for (int k = 0; k < 3; k++)
			for (int dom = 1; dom >= 0; dom--) {
				const char *p = dom ? "iso_dom" : "iso_def";
				char m[48];
				snprintf(m, sizeof m, "%s_ratio", p);
				const struct result *q = result_find(m, names[k], fn);
				if (!q)
					continue;
				int r = table_row(t);
				table_set(t, r, 0, "%s-%s", names[k], fn);
				table_set(t, r, 1, "%s", k ? "its only domain (synchronize_rcu)" : dom ?
					"another domain (synchronize_srcu)" : "the default domain (synchronize_rcu)");
				snprintf(m, sizeof m, "%s_base", p);
				cell_result(t, r, 2, result_find(m, names[k], fn), true);
				snprintf(m, sizeof m, "%s_slept", p);
				cell_result(t, r, 3, result_find(m, names[k], fn), true);
				cell_result(t, r, 4, q, true);
				snprintf(m, sizeof m, "%s_slept_max", p);
				cell_result(t, r, 5, result_find(m, names[k], fn), false);
			}
	}
	const struct result *q = result_find("iso_dom_ratio", "ck_epoch", "");
	if (q) {
		int r = table_row(t);
		table_set(t, r, 0, "ck_epoch");
		table_set(t, r, 1, "another epoch object (ck_epoch_synchronize)");
		cell_result(t, r, 2, result_find("iso_dom_base", "ck_epoch", ""), true);
		cell_result(t, r, 3, result_find("iso_dom_slept", "ck_epoch", ""), true);
		cell_result(t, r, 4, q, true);
		cell_result(t, r, 5, result_find("iso_dom_slept_max", "ck_epoch", ""), false);
	}
}

void report_build(void)
{
	char title[320], m[8][48];
	const char *ms[8], *hs[8];
	labels();
	table_metric("read_ns", "read side, 1 thread: lock + dereference + field + unlock", true);
	table_metric("read_so_ns", "read side, 1 thread, loop inside a -fPIC shared object", true);
	table_scale();

	/* (a) one updater, R readers */
	for (int i = 0; section_update_readers(i) > 0; i++) {
		int rd = section_update_readers(i);
		snprintf(m[0], sizeof m[0], "upd_r%d_u1_ups", rd);
		snprintf(title, sizeof title, "(a) 1 updater (replace + synchronize_rcu + free) against %d reader "
			"thread(s): grace periods per second", rd);
		table_metric(m[0], title, false);
		snprintf(m[0], sizeof m[0], "upd_r%d_u1_reads", rd);
		snprintf(title, sizeof title, "(a) the same: reads by the %d reader thread(s)", rd);
		table_metric(m[0], title, false);
	}
	/* (b) N updaters, 1 reader */
	int nb = 0;
	snprintf(m[nb], sizeof m[nb], "upd_r1_u1_gpu");
	snprintf(m[4 + nb], sizeof m[4 + nb], "GP/update, 1 updater");
	nb++;
	for (int i = 0; section_update_updaters(i) > 0 && nb < 4; i++) {
		int u = section_update_updaters(i);
		snprintf(m[0 + nb], sizeof m[0 + nb], "upd_r1_u%d_gpu", u);
		snprintf(m[4 + nb], sizeof m[4 + nb], "GP/update, %d updaters", u);
		nb++;
		char mu[48];
		snprintf(mu, sizeof mu, "upd_r1_u%d_ups", u);
		snprintf(title, sizeof title, "(b) %d concurrent updaters (replace + synchronize_rcu + free) and "
			"1 reader thread: updates per second, all updaters", u);
		table_metric(mu, title, false);
		snprintf(mu, sizeof mu, "upd_r1_u%d_reads", u);
		snprintf(title, sizeof title, "(b) the same: reads by the reader thread");
		table_metric(mu, title, false);
	}
	for (int k = 0; k < nb; k++) {
		ms[k] = m[k];
		hs[k] = m[4 + k];
	}
	snprintf(title, sizeof title, "(b) grace-period sharing: grace periods per update, 1 reader thread "
		"[median of %d; liburcu counts grace periods only in QSBR]", opt.runs);
	table_grid(title, nb, ms, hs, false);

	table_metric("sync_idle", "synchronize_rcu() latency, no readers", false);
	/* (d) percentiles */
	for (int i = 0; section_sync_readers(i) > 0; i++) {
		int rd = section_sync_readers(i);
		const char *what[] = { "mean", "p50", "p99", "max" };
		for (int k = 0; k < 4; k++) {
			snprintf(m[k], sizeof m[k], "sync_r%d_%s", rd, what[k]);
			ms[k] = m[k];
			hs[k] = what[k];
		}
		snprintf(title, sizeof title, "(d) synchronize_rcu() latency against %d reader thread(s) in short "
			"sections [us; each run's mean and percentiles over all its calls, median of %d runs]",
			rd, opt.runs);
		table_grid(title, 4, ms, hs, true);
	}
	{
		static const char *const cm[] = { "sync_idle_cpu", "sync_r1_cpu", "sync_r2_cpu", "upd_r1_u1_ucpu",
			"upd_r2_u1_ucpu", "upd_r1_u2_ucpu", "upd_r1_u4_ucpu", "upd_r1_u1_rcpu" };
		static const char *const ch[] = { "sync, no readers", "sync, 1 reader", "sync, 2 readers",
			"update, 1+1", "update, 1+2", "update, 2 upd.", "update, 4 upd.", "reader ns, 1+1" };
		snprintf(title, sizeof title, "CPU time per call: the calling threads' own CPU time (us; the reader's "
			"in ns), which other processes' preemption does not inflate [median of %d]", opt.runs);
		table_grid(title, 8, cm, ch, true);
	}
	table_metric("sync_long",
		"synchronize_rcu() latency, 1 reader in back-to-back 1 ms sections (calls that began inside one)",
		false);
	table_metric("sync_wake", "of which: from the reader's unlock to synchronize_rcu()'s return", false);
	table_metric("sync4_calls", "4 overlapping synchronize_rcu() callers: calls", false);
	table_metric("sync4_gp_per_call", "4 overlapping synchronize_rcu() callers: grace periods per call", false);
	table_metric("sync4_worst", "4 overlapping synchronize_rcu() callers: the longest call", false);
	table_metric("sync4h_calls", "4 overlapping synchronize_rcu() callers and 1 reader in 1 ms sections: calls",
		false);
	table_metric("sync4h_gp_per_call",
		"4 overlapping synchronize_rcu() callers and 1 reader in 1 ms sections: grace periods per call", false);
	table_metric("sync4h_worst",
		"4 overlapping synchronize_rcu() callers and 1 reader in 1 ms sections: the longest call", false);

	snprintf(title, sizeof title, "call_rcu() + rcu_barrier(), %zu callbacks: per callback, total",
		opt.callbacks);
	table_metric("cb_total", title, false);
	table_metric("cb_enqueue", "call_rcu() alone: per callback", false);
	table_metric("cb_barrier", "rcu_barrier() after the call_rcu()s", false);
	table_metric("cb_gps", "grace periods per 10^6 callbacks", false);
	/* (c) call_rcu at full rate */
	for (int i = 0; section_rate_producers(i) > 0; i++) {
		int p = section_rate_producers(i);
		const char *what[] = { "queued", "done", "pending", "rss", "reads" };
		const char *head[] = { "queued k/s", "run k/s", "peak pending", "peak RSS MiB", "reader Mreads/s" };
		for (int k = 0; k < 5; k++) {
			snprintf(m[k], sizeof m[k], "rate_p%d_%s", p, what[k]);
			ms[k] = m[k];
			hs[k] = head[k];
		}
		snprintf(title, sizeof title, "(c) call_rcu(free) of fresh 16-byte nodes as fast as %d thread(s) can, "
			"%d reader thread(s) running, %g ms per run in a fresh process [median of %d]; \"run\": "
			"callbacks that ran during the window", p, opt.readers, opt.window_ms, opt.runs);
		table_grid(title, 5, ms, hs, true);
	}
	snprintf(title, sizeof title,
		"peak RSS growth, %zu x (malloc(head + 16 bytes) + call_rcu(free)) from one thread, no readers",
		opt.callbacks);
	table_metric("rss_peak", title, false);
	table_metric("rss_pending_max", "most callbacks pending at once during it (as the library counts)", false);
	snprintf(title, sizeof title,
		"peak RSS growth, the same %zu queued inside one read-side section (all pending at once)",
		opt.callbacks);
	table_metric("rss_held", title, false);
	table_map();
	table_domains();
}

/* ------------------------------------------------------------------ rendering */

static void render_text(FILE *f, const struct table *t)
{
	int *w = xcalloc((size_t)t->ncols, sizeof *w);
	for (int r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++) {
			int l = (int)strlen(table_get(t, r, c));
			if (l > w[c])
				w[c] = l;
		}
	fprintf(f, "\n%s\n", t->title);
	for (int r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++)
			fprintf(f, "  %-*s", w[c], table_get(t, r, c));
		fputc('\n', f);
	}
	free(w);
}

static void render_md(FILE *f, const struct table *t)
{
	fprintf(f, "\n**%s**\n\n", t->title);
	for (int r = 0; r < t->nrows; r++) {
		fputc('|', f);
		for (int c = 0; c < t->ncols; c++)
			fprintf(f, " %s |", table_get(t, r, c));
		fputc('\n', f);
		if (r == 0) {
			fputc('|', f);
			for (int c = 0; c < t->ncols; c++)
				fputs(c ? " ---: |" : " --- |", f);
			fputc('\n', f);
		}
	}
}

static void render_targets(FILE *f, bool md)
{
	if (!ntargets)
		return;
	int w = 6;
	for (int i = 0; i < ntargets; i++)
		if ((int)strlen(targets[i].what) > w)
			w = (int)strlen(targets[i].what);
	if (md)
		fprintf(f, "\n**targets: ratios of medians in this run, against %s (and %s beside it)**\n\n"
			"| target | ratio | | vs %s | |\n| --- | ---: | --- | ---: | --- |\n",
			primary_label, secondary_label, secondary_label);
	else
		fprintf(f, "\ntargets: ratios of medians in this run, against %s (and %s beside it)\n"
			"  %-*s %8s %-12s %8s\n", primary_label, secondary_label, w, "target", "ratio", "",
			secondary_tag);
	for (int i = 0; i < ntargets; i++) {
		const struct target *t = &targets[i];
		char v[24], vs[24];
		fmt_num(v, sizeof v, t->ratio);
		fmt_num(vs, sizeof vs, t->ratio_sys);
		const char *s = !target_known(t->ratio) ? "not measured" : target_met(t, t->ratio) ? "met" : "MISSED";
		const char *ss = !target_known(t->ratio_sys) ? "" : target_met(t, t->ratio_sys) ? "met" : "missed";
		if (md)
			fprintf(f, "| %s | %s | %s | %s | %s |\n", t->what, v, s, vs, ss);
		else
			fprintf(f, "  %-*s %8s %-12s %8s %s\n", w, t->what, v, s, vs, ss);
	}
}

/* Print prose wrapped at 100 columns (a '\n' in the text starts a new line). */
static void prose(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void prose(FILE *f, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	int col = 0;
	for (char *p = buf; *p;) {
		if (*p == '\n') {
			fputc('\n', f);
			col = 0;
			p++;
			continue;
		}
		size_t w = strcspn(p, " \n");
		if (col > 0 && col + 1 + (int)w > 100) {
			fputc('\n', f);
			col = 0;
		} else if (col > 0) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, w, f);
		col += (int)w;
		p += w;
		while (*p == ' ')
			p++;
	}
	if (col > 0)
		fputc('\n', f);
}

/* The run's conditions (text or Markdown): when, where, the load, the implementations. */
static void render_conditions(FILE *f, bool md)
{
	prose(f, "%sMeasured %s on %s (%d CPUs, Linux %s) with `%s`: %d interleaved runs of %g ms per "
		"figure, every implementation in a process of its own, %.0f s in all; 1-minute load average "
		"%.2f at the start, %.2f at the end.", md ? "" : "rcu-bench: ", run.date, run.machine,
		opt.cpus, run.kernel, opt.command, opt.runs, opt.window_ms, run.secs, run.load_start,
		run.load_end);
	if (run.busy)
		prose(f, "%sThe machine was busier than its %d CPUs (load average above %d): other processes "
			"shared the CPUs, so the figures are noisy; compare min and max before reading anything "
			"into a difference.%s", md ? "\n**" : "NOTE: ", opt.cpus, opt.cpus, md ? "**" : "");
	fprintf(f, md ? "\nImplementations:\n\n" : "implementations:\n");
	for (int i = 0; i < ngroups; i++) {
		const struct group *g = groups[i];
		if (g->present)
			prose(f, "%s%s: %s", md ? "- " : "  ", g->name, g->version);
		else
			prose(f, "%s%s: absent: %s%s", md ? "- " : "  ", g->name, g->absent,
				strcmp(g->name, PRIMARY) ? "" : "; the ratios against it are missing and the tables "
				"carry on with the system's liburcu");
	}
}

void report_print(FILE *f)
{
	render_conditions(f, false);
	for (int i = 0; i < ntables; i++)
		render_text(f, &tables[i]);
	render_targets(f, false);
}

/* ------------------------------------------------------------------ files */

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void json_num(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else
		fprintf(f, "%.6g", v);
}

static FILE *open_out(const char *name, char *path, size_t len)
{
	if (mkdir(opt.out, 0777) != 0 && errno != EEXIST)
		fprintf(stderr, "rcu-bench: cannot make %s: %s\n", opt.out, strerror(errno));
	snprintf(path, len, "%s/%s", opt.out, name);
	FILE *f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "rcu-bench: cannot write %s: %s\n", path, strerror(errno));
	return f;
}

static void close_out(FILE *f, const char *path)
{
	if (fclose(f) != 0)
		fprintf(stderr, "rcu-bench: writing %s: %s\n", path, strerror(errno));
	else
		fprintf(stderr, "wrote %s\n", path);
}

static void write_csv(void)
{
	char path[PATH_MAX + 32];
	FILE *f = open_out("rcu-bench.csv", path, sizeof path);
	if (!f)
		return;
	fprintf(f, "metric,impl,flavour,unit,median,min,max,runs\n");
	for (int i = 0; i < nresults; i++) {
		const struct result *r = &results[i];
		fprintf(f, "%s,%s,%s,%s,%.6g,%.6g,%.6g,%d\n", r->metric, r->name, r->flavour, r->unit, r->med,
			r->min, r->max, r->runs);
	}
	close_out(f, path);
}

static void write_json(void)
{
	char path[PATH_MAX + 32];
	FILE *f = open_out("rcu-bench.json", path, sizeof path);
	if (!f)
		return;
	fprintf(f, "{\n  \"date\": ");
	json_str(f, run.date);
	fprintf(f, ",\n  \"machine\": ");
	json_str(f, run.machine);
	fprintf(f, ",\n  \"kernel\": ");
	json_str(f, run.kernel);
	fprintf(f, ",\n  \"cpus\": %d,\n  \"command\": ", opt.cpus);
	json_str(f, opt.command);
	fprintf(f, ",\n  \"runs\": %d,\n  \"window_ms\": %g,\n  \"callbacks\": %zu,\n  \"seconds\": %.1f,\n"
		"  \"load_start\": %.2f,\n  \"load_end\": %.2f,\n  \"busy\": %s,\n  \"groups\": [\n", opt.runs,
		opt.window_ms, opt.callbacks, run.secs, run.load_start, run.load_end, run.busy ? "true" : "false");
	for (int i = 0; i < ngroups; i++) {
		const struct group *g = groups[i];
		fputs("    {\"name\": ", f);
		json_str(f, g->name);
		fprintf(f, ", \"present\": %s, \"version\": ", g->present ? "true" : "false");
		json_str(f, g->present ? g->version : "");
		fputs(", \"absent\": ", f);
		json_str(f, g->present ? "" : g->absent);
		fprintf(f, ", \"label\": ");
		json_str(f, peer_label(g->name));
		fprintf(f, "}%s\n", i + 1 < ngroups ? "," : "");
	}
	fputs("  ],\n  \"results\": [\n", f);
	for (int i = 0; i < nresults; i++) {
		const struct result *r = &results[i];
		fputs("    {\"metric\": ", f);
		json_str(f, r->metric);
		fputs(", \"impl\": ", f);
		json_str(f, r->name);
		fputs(", \"flavour\": ", f);
		json_str(f, r->flavour);
		fputs(", \"unit\": ", f);
		json_str(f, r->unit);
		fputs(", \"median\": ", f);
		json_num(f, r->med);
		fputs(", \"min\": ", f);
		json_num(f, r->min);
		fputs(", \"max\": ", f);
		json_num(f, r->max);
		fprintf(f, ", \"runs\": %d}%s\n", r->runs, i + 1 < nresults ? "," : "");
	}
	fprintf(f, "  ],\n  \"targets\": [\n");
	for (int i = 0; i < ntargets; i++) {
		const struct target *t = &targets[i];
		fputs("    {\"target\": ", f);
		json_str(f, t->what);
		fputs(", \"flavour\": ", f);
		json_str(f, t->flavour);
		fputs(", \"against\": ", f);
		json_str(f, t->against);
		fputs(", \"ratio\": ", f);
		json_num(f, t->ratio);
		fputs(", \"limit\": ", f);
		json_num(f, t->limit);
		fprintf(f, ", \"at_most\": %s, \"met\": %s, \"ratio_sys\": ", t->at_most ? "true" : "false",
			!target_known(t->ratio) ? "null" : target_met(t, t->ratio) ? "true" : "false");
		json_num(f, t->ratio_sys);
		fprintf(f, ", \"met_sys\": %s}%s\n",
			!target_known(t->ratio_sys) ? "null" : target_met(t, t->ratio_sys) ? "true" : "false",
			i + 1 < ntargets ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
	close_out(f, path);
}

static void write_md(void)
{
	char path[PATH_MAX + 32];
	FILE *f = open_out("rcu-bench.md", path, sizeof path);
	if (!f)
		return;
	render_conditions(f, true);
	for (int i = 0; i < ntables; i++)
		render_md(f, &tables[i]);
	render_targets(f, true);
	close_out(f, path);
}

/* A ratio cell "0.52" of metric ours / peer for a flavour, or "-". */
static void ratio_str(char *buf, size_t len, const char *metric, const char *peer, const char *fn)
{
	double q = ratio(result_find(metric, "ours", fn), result_find(metric, peer, fn));
	if (isnan(q))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", q);
}

/*
 * The README's "Measured" table: the read side per flavour against both liburcu versions, then
 * the update side as ratios against liburcu new (0.13 in parentheses).
 */
static void write_readme(void)
{
	char path[PATH_MAX + 32];
	FILE *f = open_out("rcu-bench-readme.md", path, sizeof path);
	if (!f)
		return;
	prose(f, "Measured %s on %s (%d CPUs, Linux %s) with `%s`: medians of %d interleaved runs, every "
		"implementation in a process of its own; 1-minute load average %.2f at the start and %.2f at "
		"the end%s. Each flavour is compared with the same flavour of liburcu, built with "
		"`_LGPL_SOURCE`:", run.date, run.machine, opt.cpus, run.kernel, opt.command, opt.runs,
		run.load_start, run.load_end, run.busy ? " (busier than its CPUs: the figures are noisy)" : "");
	fputc('\n', f);
	for (int k = 1; k < NRCU; k++) {
		const struct group *g = group_find(rcu_names[k]);
		if (!g)
			continue;
		if (g->present)
			prose(f, "- %s: %s", peer_label(g->name), g->version);
		else
			prose(f, "- %s: %s", peer_label(g->name), g->absent);
	}
	prose(f, "\nOne read-side section (`rcu_read_lock(); p = rcu_dereference(ptr); sum += p->value; "
		"rcu_read_unlock();`), one thread:");
	fputc('\n', f);
	fprintf(f, "| flavour | ours (ns) | %s (ns) | ours / %s | %s (ns) | ours / %s | in a `-fPIC` shared "
		"object: ours / %s |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n", primary_label,
		primary_tag, secondary_label, secondary_tag, primary_tag);
	for (int i = 0; i < nflavours; i++) {
		const char *fn = flavour_names[i];
		const struct result *o = result_find("read_ns", "ours", fn);
		if (!o)
			continue;
		char a[24], b[24], c[24], q1[16], q2[16], q3[16];
		const struct result *pn = result_find("read_ns", PRIMARY, fn);
		const struct result *ps = result_find("read_ns", SECONDARY, fn);
		fmt_num(a, sizeof a, o->med);
		fmt_num(b, sizeof b, pn ? pn->med : NAN);
		fmt_num(c, sizeof c, ps ? ps->med : NAN);
		ratio_str(q1, sizeof q1, "read_ns", PRIMARY, fn);
		ratio_str(q2, sizeof q2, "read_ns", SECONDARY, fn);
		ratio_str(q3, sizeof q3, "read_so_ns", PRIMARY, fn);
		fprintf(f, "| %s | %s | %s | %s | %s | %s | %s |\n", fn, a, b, q1, c, q2, q3);
	}
	const struct result *fl = result_find("read_ns", "floor", "");
	if (fl) {
		char a[24];
		fmt_num(a, sizeof a, fl->med);
		prose(f, "\nThe unsynchronized floor (the same loop with no section) is %s ns.", a);
	}
	prose(f, "\nThe update side, as ratios ours / %s (ours / %s in parentheses); each heading says "
		"which way is better:", primary_label, secondary_label);
	fputc('\n', f);
	fprintf(f, "| flavour | grace periods/s, 1 updater + 1 reader (higher is better) | updates/s, 2 "
		"updaters + 1 reader (higher is better) | call_rcu + rcu_barrier per callback (lower is better) "
		"| synchronize_rcu(), no readers (lower is better) | synchronize_rcu() p99, 1 reader (lower is "
		"better) |\n| --- | ---: | ---: | ---: | ---: | ---: |\n");
	static const char *const metrics[] = { "upd_r1_u1_ups", "upd_r1_u2_ups", "cb_total", "sync_idle",
		"sync_r1_p99" };
	for (int i = 0; i < nflavours; i++) {
		const char *fn = flavour_names[i];
		if (!result_find("read_ns", "ours", fn) && !result_find("cb_total", "ours", fn))
			continue;
		fprintf(f, "| %s |", fn);
		for (size_t k = 0; k < sizeof metrics / sizeof metrics[0]; k++) {
			char q1[16], q2[16];
			ratio_str(q1, sizeof q1, metrics[k], PRIMARY, fn);
			ratio_str(q2, sizeof q2, metrics[k], SECONDARY, fn);
			fprintf(f, " %s (%s) |", q1, q2);
		}
		fputc('\n', f);
	}
	close_out(f, path);
}

void report_write(void)
{
	write_csv();
	write_json();
	write_md();
	write_readme();
}
