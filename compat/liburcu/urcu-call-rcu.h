/* SPDX-License-Identifier: 0BSD */
/* <urcu-call-rcu.h> of the compat folder: see <urcu/call-rcu.h>. */
#include "urcu/call-rcu.h"
