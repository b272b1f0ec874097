/* rcu_flavours/bp.h: select the BP flavour of rcu.h. See rcu_flavours/bp.md. */
#ifndef RCU_FLAVOURS_BP_H
#define RCU_FLAVOURS_BP_H
#define RCU_FLAVOUR_BP 1
#include "../rcu.h"
#endif
