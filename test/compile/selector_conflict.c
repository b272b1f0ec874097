/* SPDX-License-Identifier: 0BSD */
/* test/compile/selector_conflict.c: a flavour selector header plus -DRCU_FLAVOUR_<other>. */
#include "rcu_flavours/qsbr.h"

int main(void)
{
	synchronize_rcu();
	return 0;
}
