/* SPDX-License-Identifier: 0BSD */
/*
 * test/runner.h: the part of Criterion's API that our tests use, with a main() that runs them,
 * for builds in which Criterion itself cannot run. Criterion 2.4 aborts at start-up under
 * ThreadSanitizer ("Could not initialize inheritable arena", Criterion issue #274), so the TSan
 * build compiles the same test files against this header instead (test/harness.h picks it when
 * RCU_TEST_OWN_RUNNER is defined; test/meson.build defines it under -Db_sanitize=thread).
 *
 * What it keeps of Criterion's behaviour, because the tests rely on it:
 * - every test runs in a child process of its own, forked from a parent that has done nothing
 *   with RCU but its load-time set-up, so each starts with fresh RCU state, and a crash or a
 *   hang fails that test only;
 * - a failed cr_assert* ends the test, from whichever thread it fails in; a failed cr_expect*
 *   marks the test failed and lets it go on; cr_skip_test() ends it as skipped;
 * - Test(suite, name, .timeout = s): a test still running after s seconds (times
 *   RCU_TEST_TIMEOUT_SCALE, default 1) is killed with its process group and fails;
 * - options --filter=GLOB (matched against "suite/name"), --list, and --jobs=N (accepted; tests
 *   run one at a time), so meson runs both builds with the same arguments;
 * - exit status 0 when every test passed or was skipped, 1 otherwise.
 *
 * A sanitizer's report fails the test whose child printed it: TSan and ASan exit non-zero
 * (exitcode 66 and 1) from a child that reported, however the test itself ended.
 *
 * One translation unit per program: this header defines main() and the registry.
 */
#ifndef RCU_TEST_RUNNER_H
#define RCU_TEST_RUNNER_H

#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- registry --------------------------------------------------------------------------- */

struct rt_params {
	int unused_;		/* lets Test(suite, name) expand to a non-empty initializer */
	double timeout;		/* seconds; 0: none */
	bool disabled;
	const char *description;
};

struct rt_test {
	const char *suite, *name;
	void (*fn)(void);
	struct rt_params p;
	struct rt_test *next;
};

static struct rt_test *rt_tests;

static inline void rt_register(struct rt_test *t)
{
	t->next = rt_tests;
	rt_tests = t;
}

#define RT_CAT_(a, b) a##b
#define RT_CAT(a, b) RT_CAT_(a, b)
#define RT_FIRST_(a, ...) a
#define RT_FIRST(...) RT_FIRST_(__VA_ARGS__, ~)
#define RT_REST_(a, ...) __VA_ARGS__
#define RT_REST(...) RT_REST_(__VA_ARGS__, )

/* Test(suite, name[, .timeout = s, .disabled = b, .description = "..."]) { body } */
#define Test(suite, ...) RT_TEST1_(suite, RT_FIRST(__VA_ARGS__), RT_REST(__VA_ARGS__))
#define RT_TEST1_(suite, name, ...) RT_TEST_(suite, name, __VA_ARGS__) /* expands name first */
#define RT_TEST_(suite, name, ...)                                                                  \
	static void RT_CAT(rt_fn_##suite##_, name)(void);                                          \
	static struct rt_test RT_CAT(rt_test_##suite##_, name) = {                                  \
		#suite, #name, RT_CAT(rt_fn_##suite##_, name), { 0, __VA_ARGS__ }, NULL };          \
	__attribute__((constructor)) static void RT_CAT(rt_reg_##suite##_, name)(void)              \
	{                                                                                           \
		rt_register(&RT_CAT(rt_test_##suite##_, name));                                     \
	}                                                                                           \
	static void RT_CAT(rt_fn_##suite##_, name)(void)

/* ---- failing, skipping, logging (in the test's child) -------------------------------------- */

#define RT_EXIT_SKIP 77

static _Atomic int rt_expect_failed;

/* One report line: "file:line: what[ (values)][: message]"; values and fmt may be NULL. */
static inline void rt_vreport(const char *file, int line, const char *what, const char *values,
		       const char *fmt, va_list ap)
{
	char msg[1024] = "";
	if (fmt != NULL)
		vsnprintf(msg, sizeof msg, fmt, ap);
	fprintf(stderr, "[----] %s:%d: %s%s%s%s%s%s\n", file, line, what, values ? " (" : "",
		values ? values : "", values ? ")" : "", msg[0] ? ": " : "", msg);
	fflush(stderr);
}

/* For logs and skips: the arguments after fmt end with a NULL nobody reads. */
static inline void rt_report(const char *file, int line, const char *what, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	rt_vreport(file, line, what, NULL, fmt, ap);
	va_end(ap);
}

/*
 * Operand i (from 0) of an assertion, as the test wrote it: `args` is the stringified argument
 * list, split at its top-level commas (not inside brackets or literals).
 */
static inline void rt_operand(const char *args, int i, char *buf, size_t len)
{
	int depth = 0;
	char quote = 0;
	const char *start = args;
	for (const char *c = args;; c++) {
		if (quote) {
			if (*c == '\\' && c[1])
				c++;
			else if (*c == quote)
				quote = 0;
			else if (!*c)
				break;
			continue;
		}
		if (*c == '"' || *c == '\'')
			quote = *c;
		else if (*c == '(' || *c == '[' || *c == '{')
			depth++;
		else if (*c == ')' || *c == ']' || *c == '}')
			depth--;
		else if ((*c == ',' && depth == 0) || !*c) {
			if (i-- == 0) {
				while (*start == ' ')
					start++;
				snprintf(buf, len, "%.*s", (int)(c - start), start);
				return;
			}
			if (!*c)
				break;
			start = c + 1;
		}
	}
	snprintf(buf, len, "?");
}

/*
 * A failed assertion's report: "assertion failed: " before op0 [op op1] after, where op0 and op1
 * are the first operands in `args`; then the operands' values (or NULL) and the test's message
 * (fmt may be NULL; the arguments after it end with a NULL nobody reads).
 */
static inline void rt_fail(const char *file, int line, const char *args, const char *before, const char *op,
		    const char *after, const char *values, const char *fmt, ...)
{
	char a[256], b[256], what[600];
	rt_operand(args, 0, a, sizeof a);
	if (op != NULL)
		rt_operand(args, 1, b, sizeof b);
	snprintf(what, sizeof what, "assertion failed: %s%s%s%s%s%s", before, a, op ? " " : "",
		 op ? op : "", op ? " " : "", op ? b : "");
	snprintf(what + strlen(what), sizeof what - strlen(what), "%s", after);
	va_list ap;
	va_start(ap, fmt);
	rt_vreport(file, line, what, values, fmt, ap);
	va_end(ap);
}

/* A failed assertion ends the test's process at once, from any thread (no exit handlers). */
static inline void rt_end_test(int fatal)
{
	if (fatal) {
		fflush(NULL);
		_exit(1);
	}
	atomic_store(&rt_expect_failed, 1);
}

/*
 * Message arguments: Criterion's optional (format, args...) after the operands, passed on with a
 * NULL after them (just NULL when there is no message).
 */
#define RT_MSG1_(a, ...) __VA_ARGS__
#define RT_MSG1(...) RT_MSG1_(__VA_ARGS__, NULL)
#define RT_MSG2_(a, b, ...) __VA_ARGS__
#define RT_MSG2(...) RT_MSG2_(__VA_ARGS__, NULL)
#define RT_SECOND_(a, b, ...) b
#define RT_SECOND(...) RT_SECOND_(__VA_ARGS__, ~)

#define RT_BOOL(fatal, before, cond, after, text, ...)                                              \
	do {                                                                                        \
		if (!(cond)) {                                                                      \
			rt_fail(__FILE__, __LINE__, text, before, NULL, after, NULL, __VA_ARGS__);  \
			rt_end_test(fatal);                                                         \
		}                                                                                   \
	} while (0)

#define cr_assert(...) RT_BOOL(1, "", RT_FIRST(__VA_ARGS__), "", #__VA_ARGS__, RT_MSG1(__VA_ARGS__))
#define cr_expect(...) RT_BOOL(0, "", RT_FIRST(__VA_ARGS__), "", #__VA_ARGS__, RT_MSG1(__VA_ARGS__))
#define cr_assert_not(...)                                                                          \
	RT_BOOL(1, "!(", !(RT_FIRST(__VA_ARGS__)), ")", #__VA_ARGS__, RT_MSG1(__VA_ARGS__))
#define cr_expect_not(...)                                                                          \
	RT_BOOL(0, "!(", !(RT_FIRST(__VA_ARGS__)), ")", #__VA_ARGS__, RT_MSG1(__VA_ARGS__))
#define cr_assert_null(...)                                                                         \
	RT_BOOL(1, "(", (RT_FIRST(__VA_ARGS__)) == NULL, ") == NULL", #__VA_ARGS__, RT_MSG1(__VA_ARGS__))
#define cr_assert_not_null(...)                                                                     \
	RT_BOOL(1, "(", (RT_FIRST(__VA_ARGS__)) != NULL, ") != NULL", #__VA_ARGS__, RT_MSG1(__VA_ARGS__))

/* Printing an operand: integers, floating point and pointers by value, anything else not at all. */
static inline void rt_show_i(const void *v, size_t n, char *buf, size_t len)
{
	intmax_t x = n == 1 ? *(const signed char *)v : n == 2 ? *(const short *)v
		     : n == 4 ? *(const int32_t *)v : *(const int64_t *)v;
	snprintf(buf, len, "%" PRIdMAX, x);
}

static inline void rt_show_u(const void *v, size_t n, char *buf, size_t len)
{
	uintmax_t x = n == 1 ? *(const unsigned char *)v : n == 2 ? *(const unsigned short *)v
		      : n == 4 ? *(const uint32_t *)v : *(const uint64_t *)v;
	snprintf(buf, len, "%" PRIuMAX, x);
}

static inline void rt_show_f(const void *v, size_t n, char *buf, size_t len)
{
	snprintf(buf, len, "%g", n == sizeof(float) ? (double)*(const float *)v : *(const double *)v);
}

static inline void rt_show_p(const void *v, size_t n, char *buf, size_t len)
{
	(void)n;
	snprintf(buf, len, "%p", *(void *const *)v);
}

static inline void rt_show_none(const void *v, size_t n, char *buf, size_t len)
{
	(void)v;
	(void)n;
	snprintf(buf, len, "(not shown)");
}

#define RT_SHOW(x)                                                                                  \
	_Generic((x), _Bool: rt_show_u, char: rt_show_i, signed char: rt_show_i,                  \
		 unsigned char: rt_show_u, short: rt_show_i, unsigned short: rt_show_u,            \
		 int: rt_show_i, unsigned: rt_show_u, long: rt_show_i, unsigned long: rt_show_u,   \
		 long long: rt_show_i, unsigned long long: rt_show_u, float: rt_show_f,            \
		 double: rt_show_f, void *: rt_show_p, const void *: rt_show_p, char *: rt_show_p, \
		 const char *: rt_show_p, default: rt_show_none)

/*
 * Each operand is evaluated once, into a local of its own type; the comparison is the one the
 * test wrote, so the usual arithmetic conversions apply as they would in the test's own code.
 */
#define RT_CMP_(fatal, op, text, a, b, ...)                                                         \
	do {                                                                                        \
		_Pragma("GCC diagnostic push")                                                      \
		_Pragma("GCC diagnostic ignored \"-Wsign-compare\"")                                \
		__auto_type rt_a_ = (a);                                                            \
		__auto_type rt_b_ = (b);                                                            \
		if (!(rt_a_ op rt_b_)) {                                                            \
			char rt_sa_[64], rt_sb_[64], rt_vals_[160];                                 \
			RT_SHOW(rt_a_)(&rt_a_, sizeof rt_a_, rt_sa_, sizeof rt_sa_);                \
			RT_SHOW(rt_b_)(&rt_b_, sizeof rt_b_, rt_sb_, sizeof rt_sb_);                \
			snprintf(rt_vals_, sizeof rt_vals_, "%.63s " #op " %.63s", rt_sa_, rt_sb_);  \
			rt_fail(__FILE__, __LINE__, text, "", #op, "", rt_vals_, __VA_ARGS__);       \
			rt_end_test(fatal);                                                         \
		}                                                                                   \
		_Pragma("GCC diagnostic pop")                                                       \
	} while (0)

/* text: the assertion's arguments as the test wrote them (stringified before any expansion). */
#define RT_CMP(fatal, op, text, ...)                                                                \
	RT_CMP_(fatal, op, text, RT_FIRST(__VA_ARGS__), RT_SECOND(__VA_ARGS__), RT_MSG2(__VA_ARGS__))

#define cr_assert_eq(...) RT_CMP(1, ==, #__VA_ARGS__, __VA_ARGS__)
#define cr_assert_neq(...) RT_CMP(1, !=, #__VA_ARGS__, __VA_ARGS__)
#define cr_assert_lt(...) RT_CMP(1, <, #__VA_ARGS__, __VA_ARGS__)
#define cr_assert_leq(...) RT_CMP(1, <=, #__VA_ARGS__, __VA_ARGS__)
#define cr_assert_gt(...) RT_CMP(1, >, #__VA_ARGS__, __VA_ARGS__)
#define cr_assert_geq(...) RT_CMP(1, >=, #__VA_ARGS__, __VA_ARGS__)
#define cr_expect_eq(...) RT_CMP(0, ==, #__VA_ARGS__, __VA_ARGS__)
#define cr_expect_neq(...) RT_CMP(0, !=, #__VA_ARGS__, __VA_ARGS__)
#define cr_expect_lt(...) RT_CMP(0, <, #__VA_ARGS__, __VA_ARGS__)
#define cr_expect_leq(...) RT_CMP(0, <=, #__VA_ARGS__, __VA_ARGS__)
#define cr_expect_gt(...) RT_CMP(0, >, #__VA_ARGS__, __VA_ARGS__)
#define cr_expect_geq(...) RT_CMP(0, >=, #__VA_ARGS__, __VA_ARGS__)

#define cr_log_info(...) rt_report(__FILE__, __LINE__, "info", __VA_ARGS__, NULL)
#define cr_log_warn(...) rt_report(__FILE__, __LINE__, "warning", __VA_ARGS__, NULL)

#define cr_skip_test(...)                                                                           \
	do {                                                                                        \
		rt_report(__FILE__, __LINE__, "skipped", "" __VA_ARGS__, NULL);                     \
		fflush(NULL);                                                                       \
		_exit(RT_EXIT_SKIP);                                                                \
	} while (0)

/* ---- the runner (in the parent) ------------------------------------------------------------ */

static inline double rt_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline int rt_by_name(const void *x, const void *y)
{
	const struct rt_test *a = *(struct rt_test *const *)x, *b = *(struct rt_test *const *)y;
	int c = strcmp(a->suite, b->suite);
	return c != 0 ? c : strcmp(a->name, b->name);
}

enum rt_outcome { RT_PASS, RT_FAIL, RT_CRASH, RT_TIMEOUT, RT_SKIP };

/* Run one test in a child with a process group of its own; wait for it up to its timeout. */
static inline enum rt_outcome rt_run(const struct rt_test *t, double scale, int *status)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("runner: fork");
		return RT_CRASH;
	}
	if (pid == 0) {
		setpgid(0, 0);
		t->fn();
		fflush(NULL);
		exit(atomic_load(&rt_expect_failed) ? 1 : 0); /* exit(): sanitizers add their verdict */
	}
	setpgid(pid, pid); /* also here, so that the kill below cannot miss the group */
	double deadline = t->p.timeout > 0 ? rt_now() + t->p.timeout * scale : 0;
	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			perror("runner: waitpid");
			return RT_CRASH;
		}
		if (deadline > 0 && rt_now() > deadline) {
			kill(-pid, SIGKILL);
			waitpid(pid, status, 0);
			return RT_TIMEOUT;
		}
		struct timespec nap = { 0, 5 * 1000 * 1000 };
		nanosleep(&nap, NULL);
	}
	kill(-pid, SIGKILL); /* what the test left behind (a forked grandchild, say) */
	if (WIFSIGNALED(*status))
		return RT_CRASH;
	int code = WEXITSTATUS(*status);
	return code == 0 ? RT_PASS : code == RT_EXIT_SKIP ? RT_SKIP : RT_FAIL;
}

int main(int argc, char **argv)
{
	const char *filter = NULL;
	bool list = false;
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--filter=", 9) == 0)
			filter = argv[i] + 9;
		else if (strcmp(argv[i], "--list") == 0)
			list = true;
		else if (strncmp(argv[i], "--jobs=", 7) == 0 || strncmp(argv[i], "-j", 2) == 0)
			; /* one test at a time */
		else {
			fprintf(stderr, "usage: %s [--filter=SUITE/NAME-GLOB] [--list] [--jobs=N]\n", argv[0]);
			return 2;
		}
	}
	size_t n = 0;
	for (struct rt_test *t = rt_tests; t != NULL; t = t->next)
		n++;
	struct rt_test **all = calloc(n ? n : 1, sizeof *all);
	if (all == NULL)
		return 2;
	n = 0;
	for (struct rt_test *t = rt_tests; t != NULL; t = t->next)
		all[n++] = t;
	qsort(all, n, sizeof *all, rt_by_name);

	const char *s = getenv("RCU_TEST_TIMEOUT_SCALE");
	double scale = s != NULL && atof(s) > 0 ? atof(s) : 1;
	unsigned tested = 0, passing = 0, failing = 0, crashing = 0, skipped = 0;
	for (size_t i = 0; i < n; i++) {
		const struct rt_test *t = all[i];
		char full[256];
		snprintf(full, sizeof full, "%s/%s", t->suite, t->name);
		if (filter != NULL && fnmatch(filter, full, 0) != 0)
			continue;
		if (list) {
			printf("%s::%s\n", t->suite, t->name);
			continue;
		}
		if (t->p.disabled) {
			printf("[SKIP] %s::%s: disabled\n", t->suite, t->name);
			skipped++;
			continue;
		}
		double t0 = rt_now();
		int status = 0;
		enum rt_outcome o = rt_run(t, scale, &status);
		double secs = rt_now() - t0;
		tested++;
		switch (o) {
		case RT_PASS:
			printf("[PASS] %s::%s: (%.2fs)\n", t->suite, t->name, secs);
			passing++;
			break;
		case RT_SKIP:
			printf("[SKIP] %s::%s\n", t->suite, t->name);
			tested--;
			skipped++;
			break;
		case RT_FAIL:
			printf("[FAIL] %s::%s: exit status %d (%.2fs)\n", t->suite, t->name,
			       WEXITSTATUS(status), secs);
			failing++;
			break;
		case RT_CRASH:
			printf("[FAIL] %s::%s: CRASH, signal %d (%s)\n", t->suite, t->name,
			       WIFSIGNALED(status) ? WTERMSIG(status) : 0,
			       WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "no status");
			crashing++;
			break;
		case RT_TIMEOUT:
			printf("[FAIL] %s::%s: timed out after %.0fs\n", t->suite, t->name, secs);
			crashing++;
			break;
		}
		fflush(stdout);
	}
	free(all);
	if (!list)
		printf("[====] Synthesis: Tested: %u | Passing: %u | Failing: %u | Crashing: %u | Skipped: %u\n",
		       tested, passing, failing, crashing, skipped);
	return failing + crashing == 0 ? 0 : 1;
}

#endif /* RCU_TEST_RUNNER_H */
