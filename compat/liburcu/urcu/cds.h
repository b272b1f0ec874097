/* SPDX-License-Identifier: 0BSD */
/* <urcu/cds.h> of the compat folder: every data structure of liburcu-cds, as liburcu's. */
#ifndef RCU__COMPAT_URCU_CDS_H
#define RCU__COMPAT_URCU_CDS_H
#include "hlist.h"
#include "list.h"
#include "rcuhlist.h"
#include "rculist.h"
#include "rculfqueue.h"
#include "rculfstack.h"
#include "rculfhash.h"
#include "wfqueue.h"
#include "wfcqueue.h"
#include "wfstack.h"
#include "lfstack.h"
#endif
