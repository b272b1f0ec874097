#!/bin/sh
# SPDX-License-Identifier: 0BSD
# bench/queues/callgrind.sh: instructions per item of each single-threaded scenario of qbench,
# for ours and each liburcu it was built with, counted by valgrind's callgrind: repeatable on a
# busy machine, where the times of qbench are not. Only the scenario's own loop function
# (qb_<tag>_<scenario>, noinline) is counted (--collect-atstart=no --toggle-collect), so the
# figure is the loop's instructions divided by the items: the queue's or stack's two operations,
# the node's initialisation, and the loop's own few (the same for every implementation).
#
#   bench/queues/callgrind.sh BUILD/bench/queues/qbench [N]      (N items, default 100000)
#
# Prints a Markdown table like qbench's, with ours / each liburcu.
set -eu

qbench=${1:?usage: callgrind.sh path/to/qbench [N]}
n=${2:-100000}
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed" >&2; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$qbench" --list >"$tmp/list"
impls=$(awk '/^impl / { sub(":", "", $2); print $2 }' "$tmp/list")
scenarios=$(awk '/^scenario .*\(single thread\)$/ { sub(":", "", $2); print $2 }' "$tmp/list")

tag() {
	case $1 in
	ours) echo ours ;;
	liburcu-new) echo new ;;
	liburcu-sys) echo sys ;;
	esac
}

count() { # count IMPL SCENARIO: instructions per item
	out=$tmp/cg.out
	rm -f "$out"
	valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
		--toggle-collect="qb_$(tag "$1")_$2" "$qbench" --insn "$1" "$2" "$n" >/dev/null 2>"$tmp/log" || return 1
	awk -v n="$n" '/^(summary|totals):/ { printf "%.1f", $2 / n; exit }' "$out"
}

printf 'Instructions per item (callgrind, %s items):\n\n| scenario |' "$n"
for i in $impls; do printf ' %s |' "$i"; done
for i in $impls; do [ "$i" = ours ] || printf ' ours / %s |' "$i"; done
printf '\n| --- |'
for i in $impls; do printf ' ---: |'; done
for i in $impls; do [ "$i" = ours ] || printf ' ---: |'; done
printf '\n'
for s in $scenarios; do
	printf '| `%s` |' "$s"
	ours=
	for i in $impls; do
		v=$(count "$i" "$s") || v=?
		[ "$i" = ours ] && ours=$v
		printf ' %s |' "$v"
		eval "v_$(tag "$i")=\$v"
	done
	for i in $impls; do
		[ "$i" = ours ] && continue
		eval "v=\$v_$(tag "$i")"
		awk -v a="$ours" -v b="$v" 'BEGIN { if (b + 0 > 0) printf " %.2f |", a / b; else printf " ? |" }'
	done
	printf '\n'
done
