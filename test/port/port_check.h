/* SPDX-License-Identifier: 0BSD */
/*
 * test/port/port_check.h: CHECK(cond) for the ported programs of test/port, which build both
 * against rcu.h and against liburcu (the controls): on a false condition, print the file, the
 * line and the condition, and exit 1.
 */
#ifndef PORT_CHECK_H
#define PORT_CHECK_H
#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			exit(1); \
		} \
	} while (0)
#endif
