/* SPDX-License-Identifier: 0BSD */
/*
 * test/compile/callback.c: call_rcu() and call_srcu() with a callback that is not a function
 * (the `callback` group of check.sh). rcu_free() encodes the rcu_head's offset in the callback
 * field, so a callback below 4096 would be taken for an offset and free the object.
 *   CB_CONSTANT_<kind>  one call with a null pointer constant: must not compile
 *   CB_CONSTANT_CAST=n  one call with (callback type)n, n below 4096: must not compile either
 *   argv[1] good        a callback runs and rcu_free() frees, through RCU_FREE: exit 0
 *   argv[1] null, small, 4095, srcu-null, srcu-small
 *                       a NULL, 16 or 4095 that the compiler cannot see: must abort with rcu.h's
 *                       sentence in the call, before anything is freed ("freed" on stdout)
 * Built without SRCU when the header has none (an older rcu.h, to show what it did).
 */
void cb_free(void *p);
#define RCU_FREE(p) cb_free(p)
#include "rcu.h"

#include <stdio.h>
#include <string.h>

struct obj {
	int payload[5];
	struct rcu_head head; /* not first: a wrong offset frees a pointer that malloc never gave */
};

static struct obj objs[2];
static _Atomic int frees, runs;

void cb_free(void *p)
{
	printf("freed %p (object %s)\n", p, p == (void *)&objs[0] ? "0" : p == (void *)&objs[1] ? "1" : "?");
	fflush(stdout);
	frees++;
}

static void cb_run(struct rcu_head *h)
{
	(void)h;
	runs++;
}

typedef void (*cb_fn)(struct rcu_head *);

#if defined(DEFINE_SRCU)
DEFINE_SRCU(cb_srcu);
#endif

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "good";
	/* Opaque to the compiler: volatile, so that no constant reaches call_rcu(). */
	volatile uintptr_t bad = strcmp(what, "null") == 0 || strcmp(what, "srcu-null") == 0 ? 0
				 : strcmp(what, "4095") == 0                                  ? 4095
											      : 16;
	cb_fn f;
	memcpy(&f, (const void *)&(uintptr_t){ bad }, sizeof f);
	rcu_register_thread();
#if defined(CB_CONSTANT_NULL)
	call_rcu(&objs[0].head, NULL);
#elif defined(CB_CONSTANT_ZERO)
	call_rcu(&objs[0].head, 0);
#elif defined(CB_CONSTANT_ZERO_L)
	call_rcu(&objs[0].head, 0L);
#elif defined(CB_CONSTANT_VOID_NULL)
	call_rcu(&objs[0].head, (void *)0);
#elif defined(CB_CONSTANT_SRCU_NULL)
	call_srcu(&cb_srcu, &objs[0].head, NULL);
#elif defined(CB_CONSTANT_CAST)
	/* Not a null pointer constant in C's sense, but a constant the compiler sees below 4096. */
	call_rcu(&objs[0].head, (cb_fn)CB_CONSTANT_CAST);
#endif
	if (strcmp(what, "good") == 0) {
		call_rcu(&objs[0].head, cb_run);
		rcu_free(&objs[1], head);
		rcu_barrier();
		rcu_unregister_thread();
		printf("callbacks run: %d, frees: %d\n", runs, frees);
		return !(runs == 1 && frees == 1);
	}
	if (strncmp(what, "srcu-", 5) == 0) {
#if defined(DEFINE_SRCU)
		call_srcu(&cb_srcu, &objs[0].head, f);
		srcu_barrier(&cb_srcu);
#else
		printf("this rcu.h has no call_srcu()\n");
#endif
	} else {
		call_rcu(&objs[0].head, f);
		rcu_barrier();
	}
	rcu_unregister_thread();
	printf("not rejected: callbacks run %d, frees %d\n", runs, frees);
	return 1;
}
