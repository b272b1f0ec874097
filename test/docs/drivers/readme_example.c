/*
 * test/docs/drivers/readme_example.c: the driver of README.md's example ("In fourteen lines"),
 * appended to it in one translation unit by test/docs/code_blocks.py (so it uses the block's
 * struct config and its static `current`). It publishes a first configuration, reads it, reloads
 * twice through the block's reload() (the first reload hands rcu_free() the first object, the
 * second the second), reads again, and waits for the callbacks. Exit 0 when every read saw what
 * was published last and both old configurations were freed through rcu_free().
 */
#include <stdio.h>
#include <stdlib.h>

static struct config *docs_make(int verbose_value)
{
	struct config *c = calloc(1, sizeof *c);
	if (!c)
		exit(2);
	c->verbose = verbose_value;
	return c;
}

static int docs_expect(int want)
{
	int got = verbose();
	if (got != want)
		fprintf(stderr, "readme_example: verbose() returned %d after %d was published\n", got, want);
	return got == want;
}

int main(void)
{
	rcu_register_thread();
	rcu_assign_pointer(current, docs_make(1));
	if (!docs_expect(1))
		return 1;
	reload(docs_make(2));
	if (!docs_expect(2))
		return 1;
	reload(docs_make(3));
	if (!docs_expect(3))
		return 1;
	rcu_barrier(); /* both old configurations have been freed through rcu_free() by now */
	struct rcu_stats st;
	rcu_get_stats(&st);
	if (st.callbacks_invoked < 2) {
		fprintf(stderr, "readme_example: %llu callbacks invoked after rcu_barrier(), want 2 or more\n",
			(unsigned long long)st.callbacks_invoked);
		return 1;
	}
	free(rcu_xchg_pointer(&current, NULL));
	rcu_unregister_thread();
	return 0;
}
