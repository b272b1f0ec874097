#!/usr/bin/env bash
# SPDX-License-Identifier: 0BSD
# The logic-mutant check of rcu.h (docs/mutants.md): small bugs of registration, SRCU slots,
# batching, polled cookies, wake-ups, fork handlers and list poisoning, each applied to a copy of
# rcu.h; the test programs listed for it must fail. The list is verify/mutants/mutants.py.
#   scripts/mutants.sh                 every mutant (about 20 minutes on 2 CPUs)
#   scripts/mutants.sh NAME...         only these (the control runs their programs first)
#   scripts/mutants.sh --list          the mutants, their areas and programs
#   scripts/mutants.sh --check         only check that every mutant still applies to rcu.h
#   scripts/mutants.sh --keep          keep the temporary tree, build and logs
# Exit status: 0 every mutant killed or argued equivalent, 1 a survivor without an argument,
# 2 the check could not run (a mutant that no longer applies or builds, a failing control).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 verify/mutants/run.py "$@"
