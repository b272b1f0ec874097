#!/usr/bin/env bash
# SPDX-License-Identifier: 0BSD
# verify/genmc/genmc1.sh: one GenMC run of harness.c, and a one-line verdict.
#
#   genmc1.sh HEADER_DIR MODEL TEST FLAVOUR READERS UNROLL [CFLAGS or --genmc-options...]
#
# HEADER_DIR holds the rcu.h to check (the project root, or mutate.py's output). MODEL is rc11 or
# imm. Prints one line:
#   <verdict> <executions> <blocked> <seconds> <what GenMC reported>
# where verdict is "verified", "error" (an assertion, a race, a liveness violation, a memory
# error) or "broken" (GenMC could not run: compilation, timeout, a crash). GENMC is the binary;
# GENMC_TIMEOUT (seconds, default 1800) bounds one run; GENMC_HARNESS another harness than
# harness.c (lfht.sh: lfht.c, the hash table's).
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=$1 model=$2 test=$3 flavour=$4 readers=$5 unroll=$6
shift 6
opts=() cflags=()
for a in "$@"; do
	case $a in
	--*) opts+=("$a") ;;
	*) cflags+=("$a") ;;
	esac
done
out=$(mktemp "${TMPDIR:-/tmp}/genmc1.XXXXXX")
trap 'rm -f "$out"' EXIT
run() {
	t0=$(date +%s.%N)
	# -w: rcu.h's debug paths call stdio functions that GenMC's <stdio.h> does not declare; they
	# are never reached. --disable-warn-on-unfreed-memory: the tests leave nodes to the process end.
	timeout --foreground "${GENMC_TIMEOUT:-1800}" "$GENMC" "-$model" --disable-estimation --disable-warn-on-unfreed-memory \
		-unroll="$unroll" "${opts[@]}" -- -w "-DRCU_FLAVOUR_$flavour" "-DTEST_$test" "-DREADERS=$readers" \
		"${cflags[@]}" -I "$here/include" -I "$dir" "${GENMC_HARNESS:-$here/harness.c}" >"$out" 2>&1
	rc=$?
}
run
# GenMC 0.11 now and then fails to compile a good file when several run at once (clang reports
# "<built-in>: source file is not valid UTF-8"): once more, alone in time.
if [ $rc = 5 ] && grep -q 'not valid UTF-8' "$out"; then
	sleep 1
	run
fi
secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
execs=$(sed -n 's/^Number of complete executions explored: //p' "$out" | tail -1)
blocked=$(sed -n 's/^Number of blocked executions seen: //p' "$out" | tail -1)
what=$(grep -m1 -E '^(Error|Assertion violation|Non-terminating|Liveness)' "$out")
detail=$(grep -m1 -E '^(Assertion violation|Non-terminating spinloop|Error detected)' "$out" | grep -v "^$what\$")
if grep -q 'treated as an error due to in-place revisiting' "$out"; then
	# Not a bug (GenMC says so): two atomic writes that nothing orders, which its in-place
	# revisiting cannot handle. The check needs --disable-ipr; it proves nothing as it is.
	verdict=broken what="unordered writes under IPR: add --disable-ipr"
elif [ $rc = 0 ] && grep -q '^No errors were detected' "$out" && [ "${execs:-0}" = 0 ]; then
	# Every execution was cut (a loop bound, an assume): nothing was checked.
	verdict=broken what="vacuous: no complete execution"
elif [ $rc = 0 ] && grep -q '^No errors were detected' "$out"; then
	verdict=verified what="no errors"
elif [ $rc = 42 ] || grep -q '^Error' "$out"; then
	verdict=error
	[ -n "$detail" ] && what="$what $detail"
elif [ $rc = 124 ]; then
	verdict=broken what="timeout after ${GENMC_TIMEOUT:-1800} s"
else
	verdict=broken what="exit $rc: $(grep -v -E '^(WARNING|Please submit)' "$out" | grep -m1 -iE 'error|fatal|assert' || tail -1 "$out")"
fi
if [ -n "${GENMC_KEEP:-}" ]; then cp "$out" "$GENMC_KEEP"; fi
echo "$verdict ${execs:-0} ${blocked:-0} $secs $what"
