#!/bin/sh
# SPDX-License-Identifier: 0BSD
# bench/update-docs.sh: measure again and rewrite the figures of docs/benchmarks.md, the README's
# "Measured" table and the plots, from one run. Run it on a quiet machine: rcu-bench's header
# says when the load average exceeded the CPU count.
#
#   bench/update-docs.sh [--dry-run DIR] [BUILD] [rcu-bench options...]   (BUILD defaults to build)
#
# Runs BUILD/bench/rcu-bench (the whole set unless options say otherwise), bench/callgrind.sh and
# bench/plot.sh, then:
#   docs/benchmarks.md  what lies between "<!-- bench:begin -->" and "<!-- bench:end -->" becomes
#                       the run's conditions (machine, date, kernel, load average before and after,
#                       the liburcu versions), every table, the targets and the callgrind counts;
#   README.md           what lies between "<!-- bench:readme:begin -->" and
#                       "<!-- bench:readme:end -->" becomes the read-side table against both
#                       liburcu versions and the update side's ratios; without those markers, the
#                       body of the "## Measured" section is replaced and the markers put around it;
#   docs/bench-*.png    redrawn.
# The prose around the markers (what is measured, what the figures mean, why a target is missed)
# is not touched: reread it against the new figures. --dry-run DIR writes the new benchmarks.md,
# README.md and plots into DIR instead, leaving the tree alone.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
dest=
if [ "${1:-}" = "--dry-run" ]; then
	dest=${2:?update-docs.sh: --dry-run needs a directory}
	shift 2
	mkdir -p "$dest"
	dest=$(cd "$dest" && pwd)
fi
build=${1:-build}
[ $# -gt 0 ] && shift
bench=$build/bench/rcu-bench
[ -x "$bench" ] || { echo "update-docs.sh: no $bench (meson setup $build && ninja -C $build)" >&2; exit 1; }
out=$(cd "$(dirname "$bench")" && pwd)
doc=$root/docs/benchmarks.md
readme=$root/README.md
plots=${dest:-$root/docs}

"$bench" "$@" >"$out/rcu-bench.txt"
"$root/bench/callgrind.sh" "$bench" >/dev/null
"$root/bench/plot.sh" "$out/rcu-bench.csv" "$plots"

{
	cat "$out/rcu-bench.md"
	echo
	cat "$out/callgrind.md"
	grep -q 'bench-update.png' "$doc" || printf '\n![the update side](bench-update.png)\n'
} >"$out/figures.md"

# replace FILE BEGIN END FRAGMENT OUT: the lines between the markers become FRAGMENT.
replace() {
	awk -v begin="$2" -v end="$3" -v frag="$4" '
		index($0, begin) { print; while ((getline l < frag) > 0) print l; skip = 1; next }
		index($0, end) { skip = 0 }
		!skip' "$1" >"$5"
}

grep -q '<!-- bench:begin -->' "$doc" || { echo "update-docs.sh: no <!-- bench:begin --> in $doc" >&2; exit 1; }
replace "$doc" '<!-- bench:begin -->' '<!-- bench:end -->' "$out/figures.md" "$out/benchmarks.md.new"

{
	cat "$out/rcu-bench-readme.md"
	echo
	echo "[docs/benchmarks.md](docs/benchmarks.md) has every figure with min and max: reader scaling, the update"
	echo "side with 1 and 2 readers and 1 to 4 updaters, \`synchronize_rcu()\` latency percentiles, \`call_rcu()\` at"
	echo "full rate with peak memory, instruction counts (callgrind), the targets, and the plots"
	echo "([read side](docs/bench-read.png), [scaling](docs/bench-scaling.png), [synchronize](docs/bench-sync.png),"
	echo "[update side](docs/bench-update.png))."
} >"$out/readme-figures.md"
if grep -q '<!-- bench:readme:begin -->' "$readme"; then
	replace "$readme" '<!-- bench:readme:begin -->' '<!-- bench:readme:end -->' "$out/readme-figures.md" \
		"$out/README.md.new"
else
	# The whole body of "## Measured" becomes the markers and the figures.
	awk -v frag="$out/readme-figures.md" '
		/^## Measured/ { print; print ""; print "<!-- bench:readme:begin -->"; while ((getline l < frag) > 0) print l;
			print "<!-- bench:readme:end -->"; print ""; skip = 1; next }
		skip && /^## / { skip = 0 }
		!skip' "$readme" >"$out/README.md.new"
	grep -q '<!-- bench:readme:begin -->' "$out/README.md.new" ||
		{ echo "update-docs.sh: no \"## Measured\" section in $readme" >&2; exit 1; }
fi

# No path of this machine goes into the docs (test/docs/facts.py checks the same in the suite):
# the figures name versions and flavours, never where a peer was installed.
machine='(^|[^[:alnum:]_.~/-])/(var|home|work|root|tmp|srv|opt|mnt|usr/local|Users)/'
if grep -n -E "$machine" "$out/figures.md" "$out/readme-figures.md" >&2; then
	echo "update-docs.sh: the figures above name a path of this machine; fix what printed it (bench/meson.build's versions, rcu-bench)" >&2
	exit 1
fi

if [ -n "$dest" ]; then
	mv "$out/benchmarks.md.new" "$dest/benchmarks.md"
	mv "$out/README.md.new" "$dest/README.md"
	echo "wrote $dest/benchmarks.md $dest/README.md and the plots (text output in $out/rcu-bench.txt)"
else
	mv "$out/benchmarks.md.new" "$doc"
	mv "$out/README.md.new" "$readme"
	echo "updated $doc, $readme and the plots in $plots (text output in $out/rcu-bench.txt)"
fi
