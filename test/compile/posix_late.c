/* SPDX-License-Identifier: 0BSD */
/* test/compile/posix_late.c: a system header before rcu.h under strict -std=c11 (no POSIX, or with
 * -pthread only glibc's _POSIX_C_SOURCE 199506L). */
#include <stdio.h>
#include "rcu.h"

int main(void)
{
	synchronize_rcu();
	return 0;
}
