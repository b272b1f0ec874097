#!/usr/bin/env bash
# SPDX-License-Identifier: 0BSD
# bench/lfht.sh: rcu_lfht.h against liburcu's rculfhash (bench/lfht.c): medians of interleaved
# runs, ratios ours / liburcu, and the read path's instructions per lookup (callgrind).
#
#   bench/lfht.sh BUILD_DIR                 qsbr and memb, 5 runs of 1 s per figure
#   LFHT_FLAVOURS="qsbr memb mb bp" LFHT_RUNS=7 LFHT_SECONDS=2 LFHT_THREADS=2 bench/lfht.sh build
#   LFHT_CALLGRIND=0 bench/lfht.sh build    without the instruction counts
#   LFHT_URCU_TESTS=build-liburcu-tests bench/lfht.sh build   also liburcu's test_urcu_hash with
#       runhash.sh's arguments, against rcu.h and liburcu (after scripts/liburcu-tests.sh)
#
# Prints Markdown tables. Timings on a machine shared with other work are noisy: the callgrind
# counts are the repeatable figures. The liburcu columns appear when the build has them
# (-Dliburcu_new=PREFIX for the newest; Debian's liburcu-dev for the system's).
set -u
build=${1:?usage: bench/lfht.sh BUILD_DIR}
b=$build/bench
flavours=${LFHT_FLAVOURS:-qsbr memb}
runs=${LFHT_RUNS:-5}
secs=${LFHT_SECONDS:-1}
threads=${LFHT_THREADS:-2}
workloads="lookup readmostly update update-auto grow"
limit=$(awk -v s="$secs" 'BEGIN { printf "%d", 30 + 10 * s }') # seconds before a run counts as hung

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
field() { tr ' ' '\n' | sed -n "s/^$1=//p"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }'; }
fmt() { awk -v a="$1" 'BEGIN { if (a == "-") print "-"; else if (a >= 1e6) printf "%.2f M", a / 1e6; else printf "%.0f k", a / 1e3 }'; }

impls() { # the executables present for flavour $1, ours first
	for i in ours urcu-new urcu-sys; do
		[ -x "$b/lfht-bench-$i-$1" ] && echo "$i"
	done
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "rcu_lfht.h against liburcu's rculfhash: $runs interleaved runs of $secs s per figure, $threads threads, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg) at the start"
echo
for f in $flavours; do
	list=$(impls "$f")
	for r in $(seq "$runs"); do
		for w in $workloads; do
			for i in $list; do
				# A run that does not end is killed and counted (liburcu's lazy resize can lose its
				# flag and stop growing for good: docs/lfht.md, "Differences from liburcu").
				timeout "$limit" "$b/lfht-bench-$i-$f" "$w" "$secs" "$threads" >>"$tmp/$f-$i-$w" 2>&1 ||
					echo "$w killed" >>"$tmp/$f-$i-$w"
			done
		done
	done
	echo "### $f (medians; ratios ours / liburcu: higher is better)"
	echo
	head="| workload | figure |"
	sep="| --- | --- |"
	for i in $list; do head="$head $i |"; sep="$sep ---: |"; done
	for i in $list; do [ "$i" != ours ] && head="$head ours / $i |" && sep="$sep ---: |"; done
	echo "$head"
	echo "$sep"
	for w in $workloads; do
		case $w in
		lookup) figs="lookups/s" ;;
		readmostly) figs="lookups/s updates/s" ;;
		grow) figs="adds/s dels/s" ;;
		*) figs="updates/s" ;;
		esac
		for fig in $figs; do
			row="| $w | $fig |"
			declare -A med=()
			for i in $list; do
				med[$i]=$(grep -h "^$w " "$tmp/$f-$i-$w" | while read -r line; do echo "$line" | field "${fig//\//\\/}"; done | median)
				killed=$(grep -c "^$w killed" "$tmp/$f-$i-$w")
				if [ "$killed" = 0 ]; then
					row="$row $(fmt "${med[$i]}") |"
				else
					row="$row $(fmt "${med[$i]}") ($killed of $runs runs hung, killed after $limit s) |"
				fi
			done
			for i in $list; do [ "$i" != ours ] && row="$row $(ratio "${med[ours]}" "${med[$i]}") |"; done
			echo "$row"
			unset med
		done
	done
	echo
done

if [ "${LFHT_CALLGRIND:-1}" != 0 ] && command -v valgrind >/dev/null; then
	echo "### Instructions per lookup (callgrind, 65536 lookups in one read-side section, the key's hash included; lower is better)"
	echo
	echo "| flavour | implementation | present key | absent key |"
	echo "| --- | --- | ---: | ---: |"
	for f in $flavours; do
		for i in $(impls "$f"); do
			row="| $f | $i |"
			for fn in bench_lookup_loop bench_miss_loop; do
				valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" --toggle-collect=$fn \
					"$b/lfht-bench-$i-$f" callgrind >/dev/null 2>&1
				ir=$(sed -n 's/^summary: //p; s/^totals: //p' "$tmp/cg" | head -1 | awk '{ print $1 }')
				row="$row $(awk -v a="$ir" 'BEGIN { printf "%.1f", a / 65536 }') |"
			done
			echo "$row"
		done
	done
	echo
fi

# liburcu's own benchmark program, test_urcu_hash, with the arguments of liburcu's
# tests/benchmark/runhash.sh (read from the extracted tarball, each run for $secs s, 2 CPUs counted
# as liburcu counts them: at least 4), built by scripts/liburcu-tests.sh against rcu.h (its
# compat/liburcu folder, QSBR as liburcu builds it) and against liburcu 0.15.
#   LFHT_URCU_TESTS=build-liburcu-tests bench/lfht.sh build   (after scripts/liburcu-tests.sh)
if [ -n "${LFHT_URCU_TESTS:-}" ]; then
	th_ours=$LFHT_URCU_TESTS/rcuh/tests/benchmark/test_urcu_hash
	th_peer=$LFHT_URCU_TESTS/liburcu/tests/benchmark/test_urcu_hash
	script=$LFHT_URCU_TESTS/src/tests/benchmark/runhash.sh
	if [ -x "$th_ours" ] && [ -x "$th_peer" ] && [ -f "$script" ]; then
		echo "### test_urcu_hash (liburcu's program, runhash.sh's arguments; operations/s, medians of $runs interleaved runs of $secs s)"
		echo
		echo "| arguments (readers writers seconds options) | rcu.h | liburcu 0.15 | rcu.h / liburcu |"
		echo "| --- | ---: | ---: | ---: |"
		# shellcheck disable=SC2034 # read by the eval below
		THREAD_MUL=1 DURATION=$secs EXTRA_PARAMS=
		n=0
		awk '/\\$/ { sub(/\\$/, ""); line = line $0; next } { print line $0; line = "" }' "$script" |
			sed -n 's/^okx "${TESTPROG}" //p' >"$tmp/runhash"
		while read -r line; do
			n=$((n + 1))
			eval "set -- $line"
			for r in $(seq "$runs"); do
				# operations/s from its SUMMARY line; a run killed by the timeout has none
				for i in ours peer; do
					[ $i = ours ] && exe=$th_ours || exe=$th_peer
					timeout "$limit" "$exe" "$@" 2>&1 | grep '^SUMMARY' |
						awk '{ for (k = 1; k < NF; k++) { if ($k == "testdur") d = $(k + 1); if ($k == "nr_ops") o = $(k + 1) } print o / d }' \
						>>"$tmp/th-$n-$i"
				done
			done
			a=$(median <"$tmp/th-$n-ours")
			b=$(median <"$tmp/th-$n-peer")
			echo "| \`$*\` | $(fmt "$a") | $(fmt "$b") | $(ratio "$a" "$b") |"
		done <"$tmp/runhash"
		echo
	fi
fi

echo "### Memory"
echo
for f in $(echo "$flavours" | cut -d' ' -f1); do
	for i in $(impls "$f"); do
		"$b/lfht-bench-$i-$f" memory
	done
done
