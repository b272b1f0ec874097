#!/usr/bin/env bash
# SPDX-License-Identifier: 0BSD
# verify/genmc/survey.sh: every broken variant against the tests, to find which test kills it.
#
#   verify/genmc/survey.sh [MUTATION...]   (default: all of them, listed below)
#
# For each mutation, flavour (MB, QSBR: see flavours_of) and model (RC11, IMM), runs the tests
# cheapest first with 1 reader (2 where the test needs two) and stops at the first that fails.
# Prints one line per combination: mutation flavour model -> killing test, executions, seconds,
# what GenMC reported;
# "none" when every test verifies (then the label is either redundant in that flavour, or a test
# is missing). Takes tens of minutes. GENMC, GENMC_JOBS as for run.sh.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${GENMC:?set GENMC, or run through run.sh --survey}"
export GENMC

S="-DRCU_SPIN_SCANS=1000 -DRCU__SHARE_SPIN=1"
Z="-DRCU_SPIN_SCANS=0 -DRCU__SHARE_SPIN=1"
L="--check-liveness"
# test | readers | unroll | options, cheapest first.
tests_mb="gp|1|2|$S
nested|1|2|$S
pubsub|1|2|$S
fullbarrier|0|2|$S
fullbarrier|1|2|$S
list|1|2|$S
hlist|1|2|$S
register|1|2|$S
init|2|3|
dlm|1|2|$S
sleep|1|2|$Z
share|0|3|$S $L
share|1|2|$S
poll|1|2|$S
cbbarrier|0|3|$S
exit|0|3|$S
callback|0|3|$S $L
partition|2|3|$S"
tests_qsbr="gp|1|2|$S
pubsub|1|2|$S
fullbarrier|0|2|$S
fullbarrier|1|2|$S
qsbr|1|2|$S
register|1|2|$S
init|2|3|
dlm|1|2|$S
sleep|1|2|$Z $L
share|0|3|$S $L
share|1|2|$S
poll|1|2|$S
cbbarrier|0|3|$S
callback|0|3|$S $L
partition|2|3|$S"

# Tests to try first for a label, to save time: the ones its prose is about.
first_for() {
	case "$1" in
	D* | S1*) echo "share|0|3|$S $L" ;;
	C* | W*) printf '%s\n' "callback|0|3|$S $L" "cbbarrier|0|3|$S" ;;
	X*) echo "exit|0|3|$S" ;;
	L*) printf '%s\n' "list|1|2|$S" "hlist|1|2|$S" ;;
	esac
}

if [ $# -gt 0 ]; then
	muts="$*"
else
	muts="R0:relaxed R1:fence R2:relaxed
Q0#1:relaxed Q0#2:relaxed Q1:relaxed Q2:fence Q3:fence
G0:relaxed G0:release G0:acquire G0:store G1:fence G2:relaxed G3:fence G4:release G4:relaxed
G5:relaxed G5:release G5:load G6#1:fence G6#2:fence
P1:relaxed P1~rcu__fence_full:fence I1:relaxed S1:fence
D1#2:relaxed
D2:relaxed
C1:relaxed C1:release C2:relaxed C3:relaxed C4:relaxed C4:acquire C4:release C5:relaxed
W1:relaxed W1~gp_requested:relaxed X1#1:relaxed X1#1~exiting:relaxed X1#2:relaxed
X1#2~invoking:relaxed L1#1:relaxed L1#2:relaxed L1#3:relaxed L1#4:relaxed L1#5:relaxed
L1#6:relaxed L2#1:relaxed L2#2:relaxed"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/rcu-survey.XXXXXX")
trap 'rm -rf "$work"' EXIT

survey_one() { # mutation flavour model
	local mut=$1 flav=$2 model=$3 d="$work/$(echo "$1" | tr -c 'A-Za-z0-9_.-' '_')"
	local tests=$tests_mb line res first
	[ "$flav" = QSBR ] && tests=$tests_qsbr
	first=$(first_for "$mut")
	if [ -n "$first" ]; then tests=$(printf '%s\n%s\n' "$first" "$tests" | awk '!seen[$0]++'); fi
	while IFS='|' read -r test readers unroll opts; do
		# shellcheck disable=SC2086
		res=$("$here/genmc1.sh" "$d" "$model" "$test" "$flav" "$readers" "$unroll" $opts)
		case "$res" in
		error*) echo "$mut $flav $model -> $test($readers) $res"; return ;;
		broken*) echo "$mut $flav $model -> BROKEN $test($readers) $res"; return ;;
		esac
	done <<<"$tests"
	echo "$mut $flav $model -> none"
}

for mut in $muts; do
	d="$work/$(echo "$mut" | tr -c 'A-Za-z0-9_.-' '_')"
	python3 "$here/mutate.py" "$root/rcu.h" "$d" "$mut" >/dev/null || exit 1
done
jobs_max=${GENMC_JOBS:-$(nproc 2>/dev/null || echo 2)}
n=0
# The flavours a label is in: R (the read side of MB, MEMB, BP) in MB; Q in QSBR; the lists and
# the exit handler, which no flavour changes, in MB; the rest in both.
flavours_of() {
	case "$1" in
	R*) echo MB ;;
	Q*) echo QSBR ;;
	L* | X*) echo MB ;;
	*) echo MB QSBR ;;
	esac
}
for mut in $muts; do
	for flav in $(flavours_of "$mut"); do
		for model in rc11 imm; do
			n=$((n + 1))
			while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
			(survey_one "$mut" "$flav" "$model" | tee -a "${SURVEY_LOG:-/dev/null}" >"$work/$n.line") &
		done
	done
done
wait
for i in $(seq 1 $n); do cat "$work/$i.line"; done
