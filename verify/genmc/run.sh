#!/usr/bin/env bash
# SPDX-License-Identifier: 0BSD
# verify/genmc/run.sh: model-check rcu.h's own code with GenMC, under RC11 and IMM.
#
#   verify/genmc/run.sh            the CI set: every test under RC11 and IMM (the litmus tests with
#                                  2 readers, the others with 1 or the threads their shape needs),
#                                  the coverage probes, an end probe per test, and the negative
#                                  controls (verify/genmc/controls: a broken copy of rcu.h per
#                                  label, each must fail, or verify where a redundancy is argued)
#   verify/genmc/run.sh --deep     the tests and probes (not the controls) with one more reader
#   verify/genmc/run.sh --survey   every mutation against every test, 1 reader: the matrix that
#                                  docs/testing.md's table was made from (long; prints the table)
#   GENMC=/path/to/genmc           the binary (default: ../shared/tools/genmc/build.sh, then PATH)
#   GENMC_JOBS=N                   runs at once (default: the number of CPUs)
#   GENMC_FILTER=REGEX             only the checks whose line matches
#   GENMC_KEEP=1                   keep the work folder (broken headers, GenMC's output per check)
#
# Exit status: 0 when every check came out as expected; 1 otherwise; 77 (skipped) when GenMC is
# not available and this is not the project's CI (no ../shared/tools/genmc/build.sh).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mode=${1:-ci}

# GenMC: $GENMC, or the project's build script (whose failure is a failure, not a skip), or PATH.
if [ -z "${GENMC:-}" ]; then
	if [ -x "$root/../shared/tools/genmc/build.sh" ]; then
		if ! GENMC=$("$root/../shared/tools/genmc/build.sh") || [ ! -x "$GENMC" ]; then
			echo "genmc: ../shared/tools/genmc/build.sh failed: cannot check rcu.h" >&2
			exit 1
		fi
	elif command -v genmc >/dev/null; then
		GENMC=$(command -v genmc)
	else
		echo "genmc: GenMC not found, skipped. Build GenMC 0.11 (https://github.com/MPI-SWS/genmc," \
			"needs LLVM 14 and clang 14) and run with GENMC=/path/to/genmc." >&2
		exit 77
	fi
fi
export GENMC
command -v python3 >/dev/null || { echo "genmc: python3 is needed (mutate.py)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/rcu-genmc.XXXXXX")
# GenMC 0.11 compiles each test to /tmp/__genmc.ll.XXXXXX (a fixed folder, main.cpp) and never
# removes it: about 0.8 MB a run, 1.1 GB after a few CI sets on one machine. Ours go at the end,
# unless another GenMC is running then (its module could be among them, not yet read).
touch "$work/.start"
sweep() {
	pgrep -x genmc >/dev/null 2>&1 ||
		find /tmp -maxdepth 1 -name '__genmc.ll.*' -user "$(id -u)" -newer "$work/.start" -delete 2>/dev/null || :
}
if [ -n "${GENMC_KEEP:-}" ]; then echo "genmc: work folder $work"; trap sweep EXIT; else trap 'sweep; rm -rf "$work"' EXIT; fi

# The checks, one per line:  kind | what | flavour | models | test | readers | unroll | options
#   kind     verify: must verify.  probe: must fail (a coverage probe, -DPROBE=n).
#            kill: `what` is a mutation (mutate.py); the broken copy must fail.
#            same: `what` is a mutation that must still verify (a redundancy the docs claim).
#   models   rc11, imm, or both (two checks).
#   unroll   GenMC's loop bound: at least the number of registered threads + 1 (updaters that
#            call synchronize_rcu() count: they register), or the registry walk is cut and the
#            thread is silently ended while the execution still counts as complete (see
#            docs/testing.md). Every verify line gets an end probe (its name + ".end", RC11,
#            -DPROBE=99): at least one execution must get past joining every thread.
#   options  C flags (-D...) and GenMC options (--...). RCU_SPIN_SCANS=1000 keeps the updater
#            spinning within the bound; the sleep tests set 0.
S="-DRCU_SPIN_SCANS=1000 -DRCU__SHARE_SPIN=1"
Z="-DRCU_SPIN_SCANS=0 -DRCU__SHARE_SPIN=1"
L="--check-liveness"
I="--disable-ipr" # two threads that contend gp_lock: GenMC 0.11's trylock model needs it under RC11
ci_checks() {
	# $1: readers of the litmus tests (2 in CI, 3 with --deep); the other tests have 1 (2 with
	# --deep) or the threads their shape needs. MEMB and BP without membarrier run MB's path:
	# one reader each is enough to show they build and take it.
	local r=${1:-2} u=$(( ${1:-2} + 1 )) o=$(( ${1:-2} - 1 )) v=${1:-2}
	cat <<EOF2
verify|gp          |MB  |both|gp         |$r|$u|$S
verify|gp          |QSBR|both|gp         |$r|$u|$S
verify|gp          |MEMB|both|gp         |1 |2 |$S
verify|gp          |BP  |both|gp         |1 |2 |$S
verify|pubsub      |MB  |both|pubsub     |$r|$u|$S
verify|pubsub      |QSBR|both|pubsub     |$r|$u|$S
verify|pubsub      |MEMB|both|pubsub     |1 |2 |$S
verify|pubsub      |BP  |both|pubsub     |1 |2 |$S
verify|nested      |MB  |both|nested     |$o|$v|$S
verify|partition   |MB  |both|partition  |2 |3 |$S $I
verify|partition   |QSBR|both|partition  |2 |3 |$S $I
verify|dlm         |MB  |both|dlm        |$o|$v|$S
verify|dlm         |QSBR|both|dlm        |$o|$v|$S
verify|share       |MB  |both|share      |$o|$((o + 3))|$S $I
verify|share       |QSBR|both|share      |$o|$((o + 3))|$S $I
verify|share0      |MB  |both|share      |0 |3 |$S $I $L
verify|share0      |QSBR|both|share      |0 |3 |$S $I $L
verify|share0.unwatched|MB|both|share     |0 |3 |$S $I $L -DSHARE_UNWATCHED
verify|unwatched   |MB  |both|unwatched  |1 |4 |$S $I -DUNWATCHED_COOKIE
verify|unwatched   |QSBR|rc11|unwatched  |1 |4 |$S $I -DUNWATCHED_COOKIE
verify|poll        |MB  |both|poll       |$o|$((o + 3))|$S $I
verify|poll        |QSBR|both|poll       |$o|$((o + 3))|$S $I
verify|pollbarrier |MB  |both|pollbarrier|0 |3 |$S
verify|pollbarrier.stale|MB|both|pollbarrier|0 |3 |$S -DSTALE_COOKIE
verify|fullbarrier |MB  |both|fullbarrier|0 |2 |$S
verify|fullbarrier.early|MB|both|fullbarrier|0 |3 |$S -DEARLY_COOKIE
verify|fullbarrier |QSBR|both|fullbarrier|$o|$((o + 2))|$S
verify|register    |MB  |both|register   |$o|$v|$S
verify|register    |QSBR|both|register   |$o|$v|$S
verify|register.memb|MEMB|both|register  |$o|$v|$S -DMODEL_MEMBARRIER
verify|leave       |MB  |both|leave      |$o|$((v + 1))|$S
verify|leave       |QSBR|both|leave      |$o|$((v + 1))|$S
verify|init        |MB  |both|init       |2 |3 |
verify|qsbr        |QSBR|both|qsbr       |$o|$((o + 2))|$S
verify|sleep       |MB  |both|sleep      |$o|$v|$Z $I
verify|sleep.xf    |MB  |both|sleep      |$o|$v|$Z $I $L -DRCU_MB_EXIT_FENCE
verify|sleep       |QSBR|both|sleep      |$o|$v|$Z $I $L
verify|callback    |MB  |both|callback   |0 |3 |$S $L
verify|callback    |QSBR|both|callback   |0 |3 |$S $L
verify|cbbarrier   |MB  |both|cbbarrier  |0 |3 |$S
verify|exit        |MB  |both|exit       |0 |3 |$S
verify|exit.srcu   |MB  |both|exit       |0 |3 |$S -DEXIT_SRCU
verify|cbq         |MB  |both|cbq        |0 |3 |
verify|list        |MB  |both|list       |$o|$v|$S
verify|hlist       |MB  |both|hlist      |$o|$v|$S
verify|srcu        |MB  |both|srcu       |$o|$((v + 1))|$S
verify|srcu        |QSBR|both|srcu       |$o|$((v + 1))|$S
verify|srcutag     |MB  |both|srcutag    |1 |3 |$Z $I
verify|srcucb      |MB  |rc11|srcucb     |$((o - 1))|$((v + 1))|$S $I $L
verify|srcupoll    |MB  |both|srcupoll   |$o|$((o + 2))|$S
verify|srcupoll    |QSBR|both|srcupoll   |$o|$((o + 2))|$S
probe |gp          |MB  |rc11|gp         |1 |2 |$S -DPROBE=1
probe |pubsub      |MB  |rc11|pubsub     |1 |2 |$S -DPROBE=1
probe |srcu        |MB  |rc11|srcu       |1 |2 |$S -DPROBE=1
probe |share.sleep |MB  |rc11|share      |0 |3 |$S $I -DPROBE=1
probe |unwatched.lockfree|MB|rc11|unwatched|1 |4 |$S $I -DPROBE=1
probe |unwatched.published|MB|rc11|unwatched|1|4 |$S $I -DPROBE=2
probe |poll.passed |MB  |rc11|poll       |1 |2 |$S $I -DPROBE=1
probe |poll.cond   |MB  |rc11|poll       |1 |2 |$S $I -DPROBE=2
probe |sleep.wake  |QSBR|rc11|sleep      |1 |2 |$Z $I -DPROBE=1
probe |sleep.wake  |MB  |rc11|sleep      |1 |2 |$Z $I -DPROBE=2
probe |srcupoll.done|MB |rc11|srcupoll   |1 |3 |$S -DPROBE=1
probe |srcupoll.wait|MB |rc11|srcupoll   |1 |3 |$S -DPROBE=2
probe |cbq.empty   |MB  |rc11|cbq        |0 |3 |-DPROBE=1
probe |cbq.took    |MB  |rc11|cbq        |0 |3 |-DPROBE=2
EOF2
	controls
}

# The controls file, with its option sets ($S, $Z, $L, $I) expanded.
controls() {
	local line
	while IFS= read -r line; do
		case $line in '#'* | '') continue ;; esac
		line=${line//'$S'/$S} line=${line//'$Z'/$Z}
		line=${line//'$L'/$L} line=${line//'$I'/$I}
		echo "$line"
	done <"$here/controls"
}

deep_checks() {
	ci_checks 3 | grep -v '^kill\|^same'
	# Not in CI: with a reader, RC11 takes 261 s (389,000 executions; the G2#2 control races in 19).
	echo 'verify|share.srcu  |MB  |rc11|share      |1 |4 |'"$S $I"' -DSHARE_SRCU'
}

# One end probe per verify line (RC11 only; it stops at the first execution that ends).
end_probes() {
	awk -F'|' '$1 ~ /^verify/ { w = $2; gsub(/ /, "", w); printf "probe |%s.end|%s|rc11|%s|%s|%s|%s -DPROBE=99\n", w, $3, $5, $6, $7, $8 }'
}

case "$mode" in
ci | --ci) checks=$(ci_checks 2) checks="$checks
$(echo "$checks" | end_probes)" ;;
--deep) checks=$(deep_checks) checks="$checks
$(echo "$checks" | end_probes)" ;;
--survey) exec "$here/survey.sh" ;;
*) echo "usage: $0 [--deep|--survey]" >&2; exit 2 ;;
esac
checks=$(echo "$checks" | grep -v '^\s*#' | grep -v '^\s*$')
if [ -n "${GENMC_FILTER:-}" ]; then checks=$(echo "$checks" | grep -E -- "$GENMC_FILTER"); fi

# Expand "both" into two lines; number the checks.
expanded=$(echo "$checks" | while IFS='|' read -r kind what flav models test readers unroll opts; do
	models=$(echo $models)
	[ "$models" = both ] && models="rc11 imm"
	for m in $models; do
		echo "$(echo $kind)|$(echo $what)|$(echo $flav)|$m|$(echo $test)|$(echo $readers)|$(echo $unroll)|$opts"
	done
done)

# Every mutation must apply to this rcu.h: a pattern that no longer matches is an error here, not
# a control that silently checks the good header.
muts=$(echo "$expanded" | awk -F'|' '$1 == "kill" || $1 == "same" { print $2 }' | sort -u)
if [ -n "$muts" ]; then
	# shellcheck disable=SC2086
	if ! python3 "$here/mutate.py" "$root/rcu.h" --check $muts; then
		echo "genmc: a broken variant no longer matches rcu.h: update verify/genmc/controls" >&2
		exit 1
	fi
	mkdir -p "$work/h"
	for mut in $muts; do
		d="$work/h/$(echo "$mut" | tr -c 'A-Za-z0-9_.-' '_')"
		python3 "$here/mutate.py" "$root/rcu.h" "$d" "$mut" >"$d.txt" 2>&1 || { cat "$d.txt" >&2; exit 1; }
	done
fi

run_one() { # n kind what flav model test readers unroll opts
	local n=$1 kind=$2 what=$3 flav=$4 model=$5 test=$6 readers=$7 unroll=$8 opts=$9 dir=$root
	if [ "$kind" = kill ] || [ "$kind" = same ]; then
		dir="$work/h/$(echo "$what" | tr -c 'A-Za-z0-9_.-' '_')"
	fi
	# shellcheck disable=SC2086 # opts are words
	GENMC_KEEP=${GENMC_KEEP:+$work/$n.out} "$here/genmc1.sh" "$dir" "$model" "$test" "$flav" "$readers" "$unroll" $opts >"$work/$n.res"
}

jobs_max=${GENMC_JOBS:-$(nproc 2>/dev/null || echo 2)}
t_start=$(date +%s)
n=0
while IFS='|' read -r kind what flav model test readers unroll opts; do
	n=$((n + 1))
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
	run_one "$n" "$kind" "$what" "$flav" "$model" "$test" "$readers" "$unroll" "$opts" &
done <<<"$expanded"
wait

n=0 pass_ok=0 pass_bad=0 fail_ok=0 fail_bad=0 total_secs=0
printf '%-6s %-36s %-4s %-4s %-11s %-2s %-9s %9s %7s  %s\n' kind what flav mm test r result execs secs "GenMC said"
while IFS='|' read -r kind what flav model test readers unroll opts; do
	n=$((n + 1))
	read -r verdict execs blocked secs said <"$work/$n.res" || verdict=broken
	total_secs=$(awk -v a="$total_secs" -v b="${secs:-0}" 'BEGIN { print a + b }')
	case "$kind" in
	verify | same) expect=verified ;;
	*) expect=error ;;
	esac
	if [ "$verdict" = "$expect" ]; then
		res=PASS
		if [ "$expect" = verified ]; then pass_ok=$((pass_ok + 1)); else fail_ok=$((fail_ok + 1)); fi
	else
		res=FAIL
		if [ "$expect" = verified ]; then pass_bad=$((pass_bad + 1)); else fail_bad=$((fail_bad + 1)); fi
	fi
	printf '%-6s %-36s %-4s %-4s %-11s %-2s %-9s %9s %7s  %s\n' "$kind" "$what" "$flav" "$model" "$test" "$readers" "$res" "${execs:-?}" "${secs:-?}" "${said:-}"
done <<<"$expanded"
wall=$(( $(date +%s) - t_start ))
echo "genmc: expected to verify: $pass_ok passed, $pass_bad failed"
echo "genmc: expected to fail (broken rcu.h, coverage and end probes): $fail_ok passed, $fail_bad failed"
echo "genmc: $((pass_ok + fail_ok)) passed, $((pass_bad + fail_bad)) failed; GenMC time $(printf '%.0f' "$total_secs") s, wall $wall s, $jobs_max at a time"
[ $((pass_bad + fail_bad)) = 0 ]
