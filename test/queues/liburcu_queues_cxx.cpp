// SPDX-License-Identifier: 0BSD
// test/queues/liburcu_queues_cxx.cpp: liburcu_queues.c compiled as C++ (the compat headers from C++).
#include "liburcu_queues.c"
