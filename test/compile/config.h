/* SPDX-License-Identifier: 0BSD */
/*
 * test/compile/config.h: included first by config_main.c, config_unit.c and config_host.c, the
 * units of the `config` group of check.sh, which builds each unit with its own settings:
 *   CFG_CUSTOM_FREE   RCU_FREE(p) is cfg_free(p) (a per-program macro whose value is text)
 *   CFG_TLS_GD        RCU_TLS_MODEL is "global-dynamic" (a per-translation-unit macro)
 * and -D for the others. Then rcu.h, and what the units share: an object whose struct rcu_head
 * is followed by a word that nothing but the unit itself writes.
 */
#ifndef RCU_TEST_CONFIG_H
#define RCU_TEST_CONFIG_H

#if defined(CFG_CUSTOM_FREE)
void cfg_free(void *p);
#define RCU_FREE(p) cfg_free(p)
#endif
#if defined(CFG_TLS_GD)
#define RCU_TLS_MODEL "global-dynamic"
#endif
#include "rcu.h"

#include <stdint.h>
#include <stdio.h>

#define CFG_CANARY 0x43414e4152593031ull /* "CANARY01" */

/* A unit's object: what call_rcu() may write is the head; `after` is the unit's own. */
struct cfg_obj {
	struct rcu_head head;
	uint64_t after;
};

/* Each unit: queue one callback on an object of its own layout, wait for it, check `after`. */
int cfg_run_main(void);
int cfg_run_unit(void);
const void *cfg_state_main(void);
const void *cfg_state_unit(void);

#define CFG_RUN_BODY(who) \
	do { \
		static struct cfg_obj obj = { .after = CFG_CANARY }; \
		rcu_register_thread(); \
		call_rcu(&obj.head, cfg_count_run); \
		rcu_barrier(); \
		rcu_unregister_thread(); \
		if (obj.after != CFG_CANARY) { \
			fprintf(stderr, "config: %s: the word after struct rcu_head (%zu bytes here) was overwritten " \
				"(0x%llx): the units disagree on the layout they share\n", who, sizeof(struct rcu_head), \
				(unsigned long long)obj.after); \
			return 3; \
		} \
		return 0; \
	} while (0)

__attribute__((unused)) static void cfg_count_run(struct rcu_head *h)
{
	(void)h;
}

#endif
