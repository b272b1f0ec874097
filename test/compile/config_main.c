/* SPDX-License-Identifier: 0BSD */
/*
 * test/compile/config_main.c: the first translation unit of the `config` programs (check.sh),
 * linked first, so its load-time set-up runs first and its settings are the reference. Reaching
 * main() means no unit was stopped at start-up; main() then runs both units (one state, each
 * object's layout intact) and exits 0, or prints what went wrong and exits non-zero.
 */
#include "config.h"

#include <stdlib.h>

#if defined(CFG_CUSTOM_FREE)
__attribute__((weak)) void cfg_free(void *p)
{
	(void)p;
}
#endif

int cfg_run_main(void)
{
	CFG_RUN_BODY("config_main.c");
}

int main(void)
{
	fprintf(stderr, "config: main() reached\n");
	if (cfg_state_unit() != (const void *)&RCU__SYM(state)) {
		fprintf(stderr, "config: the two units use two states\n");
		return 2;
	}
	int rc = cfg_run_unit();
	if (!rc)
		rc = cfg_run_main();
	if (!rc)
		fprintf(stderr, "config: both units ran on one state\n");
	return rc;
}
