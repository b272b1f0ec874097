/* SPDX-License-Identifier: 0BSD */
/*
 * test/compile/unbound_flavour.c: a liburcu unit whose first header names no flavour
 * (<urcu/rculfhash.h>, as liburcu's tests/unit/test_build.c begins with flavourless headers),
 * then two flavour headers: rcu.h takes MEMB, liburcu's default, as the unit's first flavour and
 * QSBR as a further one. Built as it is (CASE_OK), it compiles and runs: the prefixed names of
 * both flavours work. With CASE_LFHT_NEW or CASE_RCU_FLAVOR, it uses the unprefixed names that
 * would stand for MEMB although no header named it, and must not compile
 * (compat/liburcu/rcu_liburcu.h says why).
 */
#include <urcu/rculfhash.h>
#include <urcu/urcu-qsbr.h>
#include <urcu/urcu-bp.h>

#include <stdio.h>

int main(void)
{
#if defined(CASE_LFHT_NEW)
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, 0, NULL);
	return ht == NULL;
#elif defined(CASE_RCU_FLAVOR)
	rcu_flavor.update_synchronize_rcu();
	return 0;
#else
	urcu_qsbr_register_thread();
	urcu_qsbr_read_lock();
	urcu_qsbr_read_unlock();
	urcu_qsbr_unregister_thread();
	urcu_qsbr_synchronize_rcu();
	urcu_bp_synchronize_rcu();
	struct cds_lfht *ht = cds_lfht_new_flavor(1, 1, 0, 0, NULL, NULL);
	if (!ht || cds_lfht_destroy(ht, NULL) != 0)
		return 1;
	printf("unbound_flavour: first flavour %s (no header named it), QSBR and BP further\n", RCU_FLAVOUR_NAME);
	return 0;
#endif
}
