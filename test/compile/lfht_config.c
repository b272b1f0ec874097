/* SPDX-License-Identifier: 0BSD */
/*
 * test/compile/lfht_config.c: rcu_lfht.h's private batch of help (RCU__LFHT_HELP_BATCH) is not a
 * configuration macro, and its model checker's override needs a model checker's build
 * (check.sh, group reject); alone, the control, it compiles.
 */
#include "rcu_lfht.h"

int main(void)
{
	return RCU__LFHT_HELP_BATCH == RCU__LFHT_BATCH ? 0 : 1;
}
