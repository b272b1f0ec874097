/* rcu_flavours/mb.h: select the MB flavour of rcu.h. See rcu_flavours/mb.md. */
#ifndef RCU_FLAVOURS_MB_H
#define RCU_FLAVOURS_MB_H
#define RCU_FLAVOUR_MB 1
#include "../rcu.h"
#endif
