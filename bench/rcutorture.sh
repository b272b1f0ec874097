#!/usr/bin/env bash
# SPDX-License-Identifier: 0BSD
# bench/rcutorture.sh: liburcu's own rcutorture performance modes, built unchanged against rcu.h
# (one -I compat/liburcu) and against liburcu from the same tarball, run interleaved in one
# session: medians with min and max of each figure, and ours/liburcu.
#
#   bench/rcutorture.sh [--runs N] [--modes "uperf perf rperf"] [--flavours "membarrier mb qsbr bp"]
#                       [--out DIR]
#
# With mb among the flavours, rcu.h's MB program is also built with -DRCU_MB_EXIT_FENCE (readers
# fence after their exit, as liburcu's do, so that updaters need no timed rescans): the rows
# "mb+exit-fence" measure that option against the same liburcu MB runs.
#
# The programs come from scripts/liburcu-tests.sh (it extracts liburcu's tests from its source
# tarball beside the repository at run time, builds them both ways and runs liburcu's checks
# once); nothing of liburcu's is part of this repository. Without that source: exit 77.
# Each run is liburcu's own command line, `rcutorture_urcu_<flavour> <nproc> <mode> 1
# callrcu_global` (its .tap scripts' first form, 1 second each), and the figure is what the
# program prints: ns/read (perf, rperf) and ns/update (perf, uperf), lower is better. Runs
# alternate ours and liburcu's, so that load on a shared machine falls on both.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
runs=7
modes="uperf perf rperf"
flavours="membarrier mb qsbr bp"
out=$root/build-rcutorture
while [ $# -gt 0 ]; do
	case "$1" in
	--runs) runs=$2; shift 2 ;;
	--modes) modes=$2; shift 2 ;;
	--flavours) flavours=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) echo "usage: $0 [--runs N] [--modes \"uperf perf rperf\"] [--flavours \"membarrier mb qsbr bp\"] [--out DIR]" >&2; exit 2 ;;
	esac
done

progs=()
for f in $flavours; do progs+=("rcutorture_urcu_$f"); done
log=$(mktemp)
results=$(mktemp)
trap 'rm -f "$log" "$results"' EXIT
rc=0
"$root/scripts/liburcu-tests.sh" --out "$out" --only "${progs[@]}" >"$log" 2>&1 || rc=$?
[ "$rc" != 77 ] || { echo "rcutorture.sh: skipped: $(tail -n 1 "$log")"; exit 77; }
for p in "${progs[@]}"; do
	for impl in rcuh liburcu; do
		[ -x "$out/$impl/tests/regression/$p" ] || {
			echo "rcutorture.sh: $out/$impl/tests/regression/$p was not built:" >&2
			tail -n 20 "$log" >&2
			exit 1
		}
	done
done

# rcu.h's MB program once more, with RCU_MB_EXIT_FENCE: its build command with the option added.
variants=()
for f in $flavours; do
	[ "$f" = mb ] || continue
	mb_log=$out/rcuh/log/rcutorture_urcu_mb.build.log
	mb_cmd=$(sed -n '1s/^+ //p' "$mb_log")
	mb_out=$out/rcuh/tests/regression/rcutorture_urcu_mb
	[ -n "$mb_cmd" ] && [ "${mb_cmd% -o $mb_out *}" != "$mb_cmd" ] ||
		{ echo "rcutorture.sh: no build command in $mb_log" >&2; exit 1; }
	# shellcheck disable=SC2086 # the logged command is words
	${mb_cmd/ -o $mb_out / -DRCU_MB_EXIT_FENCE -o $mb_out-exit-fence } >"$out/rcuh/log/rcutorture_urcu_mb-exit-fence.build.log" 2>&1 ||
		{ echo "rcutorture.sh: rcutorture_urcu_mb with RCU_MB_EXIT_FENCE did not build:" >&2
		  tail -n 20 "$out/rcuh/log/rcutorture_urcu_mb-exit-fence.build.log" >&2; exit 1; }
	variants+=(mb+exit-fence)
done

n=$(nproc 2>/dev/null || echo 2)
echo "rcutorture.sh: $runs interleaved runs of 1 s each, $n threads, modes: $modes"
for i in $(seq "$runs"); do
	for mode in $modes; do
		for f in $flavours "${variants[@]}"; do
			for impl in rcuh liburcu; do
				# A variant is rcu.h's program built another way; its liburcu runs are the flavour's.
				prog=$out/$impl/tests/regression/rcutorture_urcu_$f
				[ "$f" != mb+exit-fence ] || prog=$out/rcuh/tests/regression/rcutorture_urcu_mb-exit-fence
				[ "$f" != mb+exit-fence ] || [ "$impl" = rcuh ] || continue
				line=$("$prog" "$n" "$mode" 1 callrcu_global 2>&1 |
					grep -o 'ns/read: [^ ]*  ns/update: [^ ]*' | tail -n 1) || true
				[ -n "$line" ] || { echo "rcutorture.sh: $impl $f $mode printed no figures" >&2; exit 1; }
				set -- $line
				echo "$mode $f $impl $2 $4" >>"$results"
			done
		done
	done
done

python3 - "$results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    mode, flav, impl, nsr, nsu = line.split()
    rows.setdefault((mode, flav, impl), []).append((float(nsr), float(nsu)))
def fig(v):
    v = [x for x in v if x == x and x != float("inf")]
    if not v:
        return None, ""
    m = statistics.median(v)
    return m, f"{m:.4g} ({min(v):.4g}-{max(v):.4g})"
print()
print("| mode | flavour | figure | ours (rcu.h) | liburcu | ours/liburcu |")
print("| --- | --- | --- | ---: | ---: | ---: |")
for mode in dict.fromkeys(k[0] for k in rows):
    for flav in dict.fromkeys(k[1] for k in rows if k[0] == mode):
        for idx, name in ((0, "ns/read"), (1, "ns/update")):
            if (mode == "uperf" and idx == 0) or (mode == "rperf" and idx == 1):
                continue
            o, os_ = fig([r[idx] for r in rows[(mode, flav, "rcuh")]])
            lib = flav.split("+")[0]  # a variant of rcu.h is compared with its flavour's liburcu runs
            l, ls_ = fig([r[idx] for r in rows.get((mode, lib, "liburcu"), [])])
            ratio = f"{o / l:.2f}" if o is not None and l else ""
            print(f"| {mode} | {flav} | {name} | {os_} | {ls_} | {ratio} |")
PY
