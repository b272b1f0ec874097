#!/usr/bin/env bash
# SPDX-License-Identifier: 0BSD
# verify/spin/run.sh: check the Promela model of rcu.h's grace periods (verify/spin/rcu.pml) exhaustively.
#
#   verify/spin/run.sh every check below; exit 0 when each behaves as expected: the good model
#                      verifies in every flavour, every broken variant is rejected for the
#                      expected reason, every coverage probe reaches its assert
#   SPIN_KEEP=1        keep the work folder (pan sources, trails) and print where it is
#   SPIN_FULL=1        also the larger shape C (2 readers and 2 callers; ~1 min, ~2 GiB) and
#                      QSBR in shape D (3 callers; 11 M states, ~30 s, ~1.5 GiB)
#
# Exit status 77 (Meson's "skipped") when spin or a C compiler is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
model=$here/rcu.pml
cc=${CC:-cc}
command -v spin >/dev/null || { echo "spin: not installed, skipped"; exit 77; }
command -v "$cc" >/dev/null || { echo "spin: no C compiler ($cc), skipped"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/rcu-spin.XXXXXX")
if [ -n "${SPIN_KEEP:-}" ]; then echo "spin: work folder $work"; else trap 'rm -rf "$work"' EXIT; fi

# Two shapes keep each check to seconds:
#   A = 2 readers x 2 sections, 1 updater (the readers' store buffers against the scan and the sleep);
#   B = 1 reader x 2 sections, 2 concurrent synchronize_rcu() callers (grace-period sharing, the
#       callers' sleep on gp_done_word).
#   C = 2 readers x 1 section, 2 callers: both at once, tens of seconds and ~2 GiB; SPIN_FULL=1 only.
#   D = 3 concurrent callers, a reader with no section: a caller can read a completion's bump and
#       still lose the trylock, to the third (two callers cannot reach that; the waiters' flag of
#       -DBROKEN_DONE_FLAG loses a wake-up only there). With one section as well: ~5 GiB.
A="-DNR=2 -DNU=1 -DSECTIONS=2"
B="-DNR=1 -DNU=2 -DSECTIONS=2"
C="-DNR=2 -DNU=2 -DSECTIONS=1"
D="-DNR=1 -DNU=3 -DSECTIONS=0"

# kind | name | search | expected | defines
#   kind:     model (must verify), broken (must be rejected), probe (must reach its assert)
#   search:   safety (assertions + invalid end states) or np (non-progress cycles, weak fairness)
#   expected: ok, or an extended regex that the first error line of pan must match
GHOST='assertion violated.*in_cs'
DATA='assertion violated.*freed'
checks=$(cat <<EOT
model |mb-A     |safety|ok|-DMB $A
model |mb-B     |safety|ok|-DMB $B
model |mb-A     |np    |ok|-DMB $A
model |memb-A   |safety|ok|-DMEMB $A
model |memb-B   |safety|ok|-DMEMB $B
model |memb-A   |np    |ok|-DMEMB $A
model |memb-B   |np    |ok|-DMEMB $B
model |qsbr-A   |safety|ok|-DQSBR $A
model |qsbr-B   |safety|ok|-DQSBR $B
model |qsbr-A   |np    |ok|-DQSBR $A
model |mb-D     |safety|ok|-DMB $D
model |memb-D   |safety|ok|-DMEMB $D
model |memb-D   |np    |ok|-DMEMB $D
broken|reader-fence:mb-A    |safety|$GHOST|-DMB -DBROKEN_READER_FENCE $A
broken|reader-fence:mb-A    |safety|$DATA|-DMB -DBROKEN_READER_FENCE -DDATA_ONLY $A
broken|reader-fence:mb-B    |safety|$GHOST|-DMB -DBROKEN_READER_FENCE $B
broken|no-membarrier:memb-A |safety|$GHOST|-DMEMB -DBROKEN_NO_MEMBARRIER $A
broken|no-membarrier:memb-A |safety|$DATA|-DMEMB -DBROKEN_NO_MEMBARRIER -DDATA_ONLY $A
broken|no-membarrier:memb-B |safety|$GHOST|-DMEMB -DBROKEN_NO_MEMBARRIER $B
broken|no-recheck:memb-A    |safety|invalid end state|-DMEMB -DBROKEN_NO_RECHECK $A
broken|no-recheck:memb-B    |safety|invalid end state|-DMEMB -DBROKEN_NO_RECHECK $B
broken|no-recheck:qsbr-A    |safety|invalid end state|-DQSBR -DBROKEN_NO_RECHECK $A
broken|target-s:mb-A        |safety|$GHOST|-DMB -DBROKEN_TARGET $A
broken|target-s:memb-B      |safety|$GHOST|-DMEMB -DBROKEN_TARGET $B
broken|target-s:qsbr-B      |safety|$DATA|-DQSBR -DBROKEN_TARGET -DDATA_ONLY $B
broken|no-timeout:mb-A      |safety|invalid end state|-DMB -DBROKEN_NO_TIMEOUT $A
broken|no-timeout:mb-B      |safety|invalid end state|-DMB -DBROKEN_NO_TIMEOUT $B
broken|zero-blocks:memb-A   |safety|invalid end state|-DMEMB -DBROKEN_ZERO_BLOCKS $A
broken|zero-blocks:memb-A   |np    |non-progress cycle|-DMEMB -DBROKEN_ZERO_BLOCKS $A
broken|done-recheck:memb-B  |safety|invalid end state|-DMEMB -DBROKEN_DONE_RECHECK $B
broken|done-recheck:mb-B    |safety|invalid end state|-DMB -DBROKEN_DONE_RECHECK $B
broken|done-flag:memb-D     |safety|invalid end state|-DMEMB -DBROKEN_DONE_FLAG $D
broken|done-flag:qsbr-D     |safety|invalid end state|-DQSBR -DBROKEN_DONE_FLAG $D
probe |share:memb-B      |safety|assertion violated ran|-DMEMB -DCOVER_SHARE $B
probe |done-wake:memb-B  |safety|assertion violated.*done_woken|-DMEMB -DCOVER_DONE_WAKE $B
probe |done-odd:memb-D   |safety|assertion violated.*how==1|-DMEMB -DCOVER_DONE_ODD $D
probe |done-seen:memb-D  |safety|assertion violated.*how==2|-DMEMB -DCOVER_DONE_SEEN $D
probe |wake:mb-A         |safety|assertion violated.*woken_by_reader|-DMB -DCOVER_WAKE $A
probe |wake:memb-A       |safety|assertion violated.*woken_by_reader|-DMEMB -DCOVER_WAKE $A
probe |wake:qsbr-A       |safety|assertion violated.*woken_by_reader|-DQSBR -DCOVER_WAKE $A
probe |stale:memb-A      |safety|assertion violated.*q_len|-DMEMB -DCOVER_STALE $A
probe |stale:mb-A        |safety|assertion violated.*q_len|-DMB -DCOVER_STALE $A
EOT
)
if [ -n "${SPIN_FULL:-}" ]; then
	checks+=$'\n'"model |mb-C     |safety|ok|-DMB $C"
	checks+=$'\n'"model |memb-C   |safety|ok|-DMEMB $C"
	checks+=$'\n'"model |qsbr-C   |safety|ok|-DQSBR $C"
	checks+=$'\n'"model |qsbr-D   |safety|ok|-DQSBR $D"
fi

# One check in its own folder: writes <dir>/result = "PASS|FAIL <what happened>".
run_one() { # dir kind search expected defines...
	local dir=$1 kind=$2 search=$3 expected=$4; shift 4
	mkdir -p "$dir" && cd "$dir" || return
	# The models' searches are the long ones; the others stop at their first error.
	local cflags=(-w) pflags=(-m100000)
	if [ "$kind" = model ]; then cflags+=(-O2); else cflags+=(-O1); fi
	if [ "$search" = np ]; then cflags+=(-DNP -DNFAIR=3); pflags+=(-l -f); else cflags+=(-DSAFETY); fi
	if ! spin "$@" -a "$model" >spin.out 2>&1; then
		echo "FAIL spin -a failed: $(tail -1 spin.out)" >result; return
	fi
	if ! "$cc" "${cflags[@]}" -o pan pan.c >cc.out 2>&1; then
		echo "FAIL pan.c does not compile: $(tail -1 cc.out)" >result; return
	fi
	local t0; t0=$(date +%s.%N)
	./pan "${pflags[@]}" >pan.out 2>&1
	local secs; secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
	local errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' pan.out | head -1)
	local states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' pan.out | head -1)
	local first=$(grep -m1 -E '^pan:1: ' pan.out | sed 's/ (at depth [0-9]*)//')
	local info="${states:-?} states, $(printf '%.2f' "$secs") s"
	if grep -q 'max search depth too small' pan.out; then
		echo "FAIL search depth too small ($info)" >result
	elif [ -z "$errors" ]; then
		echo "FAIL pan said no verdict: $(tail -1 pan.out)" >result
	elif [ "$expected" = ok ]; then
		if [ "$errors" = 0 ]; then echo "PASS $info" >result
		else echo "FAIL $first ($info)" >result; fi
	elif [ "$errors" != 0 ] && echo "$first" | grep -Eq -- "$expected"; then
		echo "PASS ${first#pan:1: } ($info)" >result
	elif [ "$errors" = 0 ]; then
		echo "FAIL no error found, expected /$expected/ ($info)" >result
	else
		echo "FAIL wrong error: $first, expected /$expected/ ($info)" >result
	fi
}

# Run the checks two at a time (or as many as there are CPUs), print them in order.
jobs_max=${SPIN_JOBS:-$(nproc 2>/dev/null || echo 2)}
n=0
while IFS='|' read -r kind name search expected defines; do
	[ -z "$kind" ] && continue
	n=$((n + 1))
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
	# shellcheck disable=SC2086 # the defines are words
	(run_one "$work/$n" "$(echo $kind)" "$(echo $search)" "$expected" $defines) &
done <<<"$checks"
wait

n=0 bad=0
declare -A models=() broken=() broken_bad=() probes=() probes_bad=()
while IFS='|' read -r kind name search expected defines; do
	[ -z "$kind" ] && continue
	n=$((n + 1))
	kind=$(echo $kind) name=$(echo $name) search=$(echo $search)
	res=$(cat "$work/$n/result" 2>/dev/null || echo "FAIL no result")
	printf '%-6s %-24s %-6s %s\n' "$kind" "$name" "$search" "$res"
	base=${name%%:*} flav=${name#*:}; flav=${flav%-*}
	case "$kind" in
	model) models[${name%-*}]=1 ;;
	broken) broken[$base]=1 ;;
	probe) probes[$base]=1 ;;
	esac
	if [ "${res%% *}" != PASS ]; then
		bad=$((bad + 1))
		case "$kind" in
		model) models[${name%-*}]=0 ;;
		broken) broken_bad[$base]=1 ;;
		probe) probes_bad[$base]=1 ;;
		esac
	fi
done <<<"$checks"

ok_models=0; for m in "${!models[@]}"; do [ "${models[$m]}" = 1 ] && ok_models=$((ok_models + 1)); done
rejected=$(( ${#broken[@]} - ${#broken_bad[@]} ))
reached=$(( ${#probes[@]} - ${#probes_bad[@]} ))
echo "spin: $ok_models of ${#models[@]} models verified ($(printf '%s ' "${!models[@]}" | tr ' ' '\n' | sort | xargs)), $rejected of ${#broken[@]} broken variants rejected, $reached of ${#probes[@]} coverage probes reached; $bad unexpected"
[ "$bad" = 0 ]
