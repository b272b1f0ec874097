/* SPDX-License-Identifier: 0BSD */
/*
 * test/compile/reject_null_callback.c: a null pointer constant as the callback of call_rcu() or
 * call_srcu() must not compile, in C (_Generic and an error attribute) and in C++ (deleted
 * overloads, or no viable conversion). check.sh group `lang`, checks `reject-null-*`: each CASE
 * alone must fail; CASE_OK, the same calls with a function, must compile.
 */
#include "rcu.h"

static struct rcu_head head;
DEFINE_STATIC_SRCU(dom);
static void cb(struct rcu_head *h)
{
	(void)h;
}

void calls(void);
void calls(void)
{
#if defined(CASE_OK)
	call_rcu(&head, cb);
	call_srcu(&dom, &head, cb);
#elif defined(CASE_CALL_RCU_NULL)
	call_rcu(&head, NULL);
#elif defined(CASE_CALL_RCU_ZERO)
	call_rcu(&head, 0);
#elif defined(CASE_CALL_SRCU_NULL)
	call_srcu(&dom, &head, NULL);
#elif defined(CASE_CALL_RCU_NULLPTR)
	call_rcu(&head, nullptr);
#elif defined(CASE_CALL_SRCU_NULLPTR)
	call_srcu(&dom, &head, nullptr);
#endif
	(void)cb;
}
