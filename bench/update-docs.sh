#!/bin/sh
# SPDX-License-Identifier: 0BSD
# bench/update-docs.sh: measure again and rewrite the figures in docs/benchmarks.md.
#
#   bench/update-docs.sh [BUILD] [rcu-bench options...]      (BUILD defaults to build)
#
# Runs BUILD/bench/rcu-bench (the whole set unless options say otherwise), bench/callgrind.sh and
# bench/plot.sh, then replaces what lies between the markers "<!-- bench:begin -->" and
# "<!-- bench:end -->" in docs/benchmarks.md with the new tables. The prose around the markers
# (what is measured, what the figures mean) is not touched: reread it against the new figures.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
[ $# -gt 0 ] && shift
bench=$build/bench/rcu-bench
[ -x "$bench" ] || { echo "update-docs.sh: no $bench (meson setup $build && ninja -C $build)" >&2; exit 1; }
out=$(cd "$(dirname "$bench")" && pwd)
doc=$root/docs/benchmarks.md

"$bench" "$@" >"$out/rcu-bench.txt"
"$root/bench/callgrind.sh" "$bench" >/dev/null
"$root/bench/plot.sh" "$out/rcu-bench.csv" "$root/docs"

{
	cat "$out/rcu-bench.md"
	echo
	cat "$out/callgrind.md"
} >"$out/figures.md"
awk -v figures="$out/figures.md" '
	/<!-- bench:begin -->/ { print; while ((getline l < figures) > 0) print l; skip = 1; next }
	/<!-- bench:end -->/ { skip = 0 }
	!skip' "$doc" >"$doc.new"
mv "$doc.new" "$doc"
echo "updated $doc (text output in $out/rcu-bench.txt)"
