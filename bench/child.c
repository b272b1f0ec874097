/* SPDX-License-Identifier: 0BSD */
/*
 * bench/child.c: the driver's side of the servers. Finds the server executables that
 * bench/meson.build built beside rcu-bench (one per group of implementations), asks each for its
 * list, starts one server process per implementation when first needed, and asks it for runs.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "driver.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* bench/meson.build: the groups built, in the order of the tables, and why others are not. */
#ifndef BENCH_GROUPS
#define BENCH_GROUPS "ours,others"
#endif
#ifndef BENCH_ABSENT
#define BENCH_ABSENT ""
#endif

struct group **groups;
int ngroups;
struct impl *impls;
int nimpls;

struct child {
	pid_t pid;
	FILE *to, *from;
};

static struct child **running; /* every long-lived server, to stop them at the end */
static int nrunning;
static int failures;

int child_failures(void)
{
	return failures;
}

/* Start exe with argv, its stdin and stdout on pipes; false (and errno) on failure. */
static bool spawn(const char *exe, char *const argv[], struct child *c)
{
	int in[2], out[2];
	if (pipe2(in, O_CLOEXEC) != 0)
		return false;
	if (pipe2(out, O_CLOEXEC) != 0) {
		close(in[0]);
		close(in[1]);
		return false;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	int rc = posix_spawn(&c->pid, exe, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(in[0]);
	close(out[1]);
	if (rc != 0) {
		close(in[1]);
		close(out[0]);
		errno = rc;
		return false;
	}
	c->to = fdopen(in[1], "w");
	c->from = fdopen(out[0], "r");
	if (!c->to || !c->from) {
		fprintf(stderr, "rcu-bench: fdopen: %s\n", strerror(errno));
		exit(1);
	}
	return true;
}

/* Close the server's stdin (it leaves at once) and reap it; false if it did not exit 0. */
static bool reap(struct child *c)
{
	int status;
	if (c->to)
		fclose(c->to);
	fclose(c->from);
	while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static char self_dir[PATH_MAX];

static void find_self_dir(void)
{
	ssize_t n = readlink("/proc/self/exe", self_dir, sizeof self_dir - 1);
	if (n <= 0) {
		snprintf(self_dir, sizeof self_dir, ".");
		return;
	}
	self_dir[n] = '\0';
	char *slash = strrchr(self_dir, '/');
	if (slash)
		*slash = '\0';
}

struct group *group_find(const char *name)
{
	for (int i = 0; i < ngroups; i++)
		if (strcmp(groups[i]->name, name) == 0)
			return groups[i];
	return NULL;
}

static struct group *group_add(const char *name)
{
	groups = xrealloc(groups, (size_t)(ngroups + 1) * sizeof *groups);
	struct group *g = xcalloc(1, sizeof *g);
	groups[ngroups++] = g;
	snprintf(g->name, sizeof g->name, "%s", name);
	return g;
}

/* Run `exe --list` and add what it lists. */
static void group_list(struct group *g)
{
	char *argv[] = { g->exe, "--list", NULL };
	struct child c;
	if (!spawn(g->exe, argv, &c)) {
		snprintf(g->absent, sizeof g->absent, "cannot run %s: %s", g->exe, strerror(errno));
		return;
	}
	fclose(c.to);
	c.to = NULL;
	char line[512];
	while (fgets(line, sizeof line, c.from)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "version ", 8)) {
			snprintf(g->version, sizeof g->version, "%s", line + 8);
			continue;
		}
		char id[96], name[32], flavour[16], kind[8];
		unsigned caps;
		if (sscanf(line, "impl %95s %31s %15s %7s %u", id, name, flavour, kind, &caps) != 5)
			continue;
		impls = xrealloc(impls, (size_t)(nimpls + 1) * sizeof *impls);
		struct impl *im = &impls[nimpls++];
		memset(im, 0, sizeof *im);
		snprintf(im->id, sizeof im->id, "%s", id);
		snprintf(im->name, sizeof im->name, "%s", name);
		snprintf(im->flavour, sizeof im->flavour, "%s", strcmp(flavour, "-") ? flavour : "");
		im->kind = !strcmp(kind, "so") ? KIND_SO : !strcmp(kind, "map") ? KIND_MAP : KIND_EXE;
		im->caps = caps;
		im->group = g;
	}
	if (!reap(&c)) {
		snprintf(g->absent, sizeof g->absent, "%s --list failed", g->exe);
		return;
	}
	g->present = true;
}

void groups_discover(void)
{
	find_self_dir();
	char built[] = BENCH_GROUPS;
	for (char *save = NULL, *name = strtok_r(built, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		struct group *g = group_add(name);
		snprintf(g->exe, sizeof g->exe, "%s/rcu-bench-%.31s", self_dir, name);
		group_list(g);
	}
	/* "name: why | name: why" */
	char absent[] = BENCH_ABSENT;
	for (char *save = NULL, *item = strtok_r(absent, "|", &save); item; item = strtok_r(NULL, "|", &save)) {
		while (*item == ' ')
			item++;
		char *colon = strchr(item, ':');
		if (!colon)
			continue;
		*colon = '\0';
		struct group *g = group_find(item) ? group_find(item) : group_add(item);
		if (!g->present) {
			char *why = colon + 1 + (colon[1] == ' ');
			size_t l = strlen(why);
			while (l && why[l - 1] == ' ')
				why[--l] = '\0';
			snprintf(g->absent, sizeof g->absent, "%s", why);
		}
	}
	signal(SIGPIPE, SIG_IGN); /* a server that dies shows as a failed answer, not a dead driver */
}

static struct child *child_start(struct impl *im)
{
	struct child *c = xcalloc(1, sizeof *c);
	char *argv[] = { im->group->exe, "--serve", im->id, opt.pin ? NULL : "--no-pin", NULL };
	if (!spawn(im->group->exe, argv, c)) {
		fprintf(stderr, "rcu-bench: cannot start %s --serve %s: %s\n", im->group->exe, im->id,
			strerror(errno));
		failures++;
		free(c);
		return NULL;
	}
	return c;
}

bool child_ask(struct impl *im, const char *cmd, bool fresh, struct figures *out)
{
	struct child *c = fresh ? NULL : im->child;
	if (!c) {
		c = child_start(im);
		if (!c)
			return false;
		if (!fresh) {
			im->child = c;
			running = xrealloc(running, (size_t)(nrunning + 1) * sizeof *running);
			running[nrunning++] = c;
		}
	}
	char line[FIGURES_LINE];
	bool ok = false;
	if (fprintf(c->to, "%s\n", cmd) < 0 || fflush(c->to) != 0 || !fgets(line, sizeof line, c->from)) {
		fprintf(stderr, "rcu-bench: %s: the server ended during \"%s\"\n", im->id, cmd);
		failures++;
	} else {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "ok", 2) && (line[2] == ' ' || line[2] == '\0')) {
			ok = figures_parse(out, line + 2);
			if (!ok) {
				fprintf(stderr, "rcu-bench: %s: cannot parse \"%s\"\n", im->id, line);
				failures++;
			}
		} else if (strcmp(line, "na") != 0) {
			fprintf(stderr, "rcu-bench: %s: \"%s\" answered \"%s\"\n", im->id, cmd, line);
			failures++;
		}
	}
	if (fresh) {
		if (!reap(c)) {
			fprintf(stderr, "rcu-bench: %s: the server for \"%s\" failed\n", im->id, cmd);
			failures++;
		}
		free(c);
	} else if (!ok && feof(c->from)) {
		/* It died: start a new one next time, and reap this one now. */
		for (int i = 0; i < nrunning; i++)
			if (running[i] == c)
				running[i] = running[--nrunning];
		reap(c);
		free(c);
		im->child = NULL;
	}
	return ok;
}

void children_stop(void)
{
	for (int i = 0; i < nrunning; i++) {
		reap(running[i]);
		free(running[i]);
	}
	nrunning = 0;
	for (int i = 0; i < nimpls; i++)
		impls[i].child = NULL;
}
