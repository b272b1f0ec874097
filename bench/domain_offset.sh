#!/usr/bin/env bash
# SPDX-License-Identifier: 0BSD
# bench/domain_offset.sh: bench/domain_offset.c at every 8-byte offset of a cache line (and the
# default domain), RUNS interleaved runs of 1 s each: median ns per update with min and max, and
# updates per grace period. With OLD_HEADER, the same program built against that rcu.h runs
# interleaved with the tree's, in a second column (to see what a layout change did).
#
#   bench/domain_offset.sh [--runs N] [--threads N] [--flavour memb|mb|qsbr|bp] [OLD_HEADER]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
runs=5
threads=2
flavour=memb
old=
while [ $# -gt 0 ]; do
	case "$1" in
	--runs) runs=$2; shift 2 ;;
	--threads) threads=$2; shift 2 ;;
	--flavour) flavour=$2; shift 2 ;;
	-*) echo "usage: $0 [--runs N] [--threads N] [--flavour memb|mb|qsbr|bp] [OLD_HEADER]" >&2; exit 2 ;;
	*) old=$1; shift ;;
	esac
done
case $flavour in
memb | mb | qsbr | bp) ;;
*) echo "domain_offset.sh: no flavour $flavour" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build() { # build HEADER_DIR NAME
	"${CC:-cc}" -O2 -pthread "-DRCU_FLAVOUR_${flavour^^}" -I"$1" "$root/bench/domain_offset.c" -o "$work/$2"
}
build "$root" tree
labels=(tree)
if [ -n "$old" ]; then
	mkdir "$work/old-header"
	cp "$old" "$work/old-header/rcu.h"
	build "$work/old-header" old
	labels+=(old)
fi
line=$(printf '#include "rcu.h"\nRCU_CACHE_LINE\n' | "${CC:-cc}" -E -P -I"$root" -x c - | tail -n 1)
offsets=(-1)
for ((o = 0; o < line; o += 8)); do offsets+=("$o"); done
for ((r = 0; r < runs; r++)); do
	for o in "${offsets[@]}"; do
		for l in "${labels[@]}"; do
			echo "$l $o $("$work/$l" "$threads" "$o")"
		done
	done
done >"$work/results"
echo "domain_offset.sh: $flavour, $threads updaters, $runs interleaved runs of 1 s; ns per update, median (min-max), updates per grace period"
echo
header="| offset |"
rule="| ---: |"
for l in "${labels[@]}"; do
	header+=" $l ns/update | $l updates/gp |"
	rule+=" ---: | ---: |"
done
echo "$header"
echo "$rule"
for o in "${offsets[@]}"; do
	row="| $([ "$o" = -1 ] && echo default || echo "$o") |"
	for l in "${labels[@]}"; do
		row+=$(awk -v l="$l" -v o="$o" 'BEGIN { n = 0 } $1 == l && $2 == o { ns[n] = $3; gp[n] = $5; n++ }
			function med(a, k,   i, j, t) { for (i = 0; i < k; i++) for (j = i + 1; j < k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } return k % 2 ? a[int(k / 2)] : (a[k / 2 - 1] + a[k / 2]) / 2 }
			END { lo = ns[0]; hi = ns[0]; for (i = 1; i < n; i++) { if (ns[i] < lo) lo = ns[i]; if (ns[i] > hi) hi = ns[i] }
			      printf " %.0f (%.0f-%.0f) | %.2f |", med(ns, n), lo, hi, med(gp, n) }' "$work/results")
	done
	echo "$row"
done
