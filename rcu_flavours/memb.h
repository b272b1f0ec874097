/* rcu_flavours/memb.h: select the MEMB flavour of rcu.h. See rcu_flavours/memb.md. */
#ifndef RCU_FLAVOURS_MEMB_H
#define RCU_FLAVOURS_MEMB_H
#define RCU_FLAVOUR_MEMB 1
#include "../rcu.h"
#endif
