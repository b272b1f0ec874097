/* rcu_flavours/qsbr.h: select the QSBR flavour of rcu.h. See rcu_flavours/qsbr.md. */
#ifndef RCU_FLAVOURS_QSBR_H
#define RCU_FLAVOURS_QSBR_H
#define RCU_FLAVOUR_QSBR 1
#include "../rcu.h"
#endif
