/* SPDX-License-Identifier: 0BSD */
/*
 * test/compile/config_unit.c: the second translation unit of the `config` programs (check.sh),
 * linked into config_main.c's executable or built as a plugin that config_host.c dlopen()s.
 * When its settings differ from the first unit's in a per-program macro, the program must stop
 * while this unit is loaded, with rcu.h's sentence naming the macro and both values.
 */
#include "config.h"

#if defined(CFG_CUSTOM_FREE)
__attribute__((weak)) void cfg_free(void *p)
{
	(void)p;
}
#endif

int cfg_run_unit(void)
{
	CFG_RUN_BODY("config_unit.c");
}

const void *cfg_state_unit(void)
{
	return &RCU__SYM(state); /* private name, for this test only: the state this unit uses */
}
