/* SPDX-License-Identifier: 0BSD */
/* examples/quickstart.c: the shortest correct RCU program. Publish a struct, read it, replace it,
 * free the old one after a grace period. Build: cc -std=c11 -pthread -I. examples/quickstart.c */
#include "rcu.h"
#include <stdio.h>
#include <stdlib.h>

struct greeting { const char *text; struct rcu_head rcu; };
static struct greeting *_Atomic current = RCU_INITIALIZER(NULL);

static void publish(const char *text)   /* updater: a new version replaces the old one */
{
	struct greeting *g = malloc(sizeof *g);
	if (!g)
		exit(1);
	g->text = text;                                 /* initialise, then publish */
	struct greeting *old = rcu_replace_pointer(current, g, 1);
	if (old)
		rcu_free(old, rcu);                     /* free(old) once no reader can see it */
}

int main(void)
{
	rcu_register_thread();                          /* every reading thread registers */
	publish("hello");
	publish("world");
	rcu_read_lock();                                /* reader: no lock, no waiting */
	struct greeting *g = rcu_dereference(current);
	int ok = g && g->text[0] == 'w';
	printf("%s\n", g ? g->text : "(none)");
	rcu_read_unlock();
	rcu_unregister_thread();
	free(rcu_replace_pointer(current, NULL, 1)); /* no readers left: plain free */
	rcu_barrier();                                  /* let the pending rcu_free run before exit */
	return ok ? 0 : 1;
}
