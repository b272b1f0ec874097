/* SPDX-License-Identifier: 0BSD */
/* test/compile/main.c: runs api.c's exercise from two objects (say one from gcc, one from clang). */
#include <stdio.h>

int api_exercise(void);
int api_exercise_b(void);

int main(void)
{
	int a = api_exercise(), b = api_exercise_b();
	if (a || b)
		fprintf(stderr, "api.c check failed at line %d / %d\n", a, b);
	return a || b;
}
