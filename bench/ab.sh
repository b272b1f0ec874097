#!/bin/sh
# SPDX-License-Identifier: 0BSD
# bench/ab.sh: measure a modified rcu.h beside the tree's, in the same interleaved runs, to see
# whether a change to the header moves a figure (and by more than the noise: the tree's header
# built a second time, LABEL=base, gives the noise).
#
#   bench/ab.sh [-B BUILD] HEADER LABEL [rcu-bench options...]
#   e.g.  cp rcu.h /tmp/x/rcu.h; (edit /tmp/x/rcu.h)
#         bench/ab.sh /tmp/x/rcu.h spin --only update,sync --runs 9 --impl ours-mb,spin-mb,liburcu-new-mb
#
# Builds BUILD/bench/rcu-bench-LABEL (a server holding every flavour of HEADER, as rcu-bench-ours
# holds the tree's, with implementation ids LABEL-FLAVOUR) and BUILD/bench/rcu-bench-ab-LABEL (the
# driver, which knows that group too), runs the driver with the options given, then prints every
# metric's medians for ours, LABEL and liburcu new with the ratios LABEL/ours and LABEL/new.
# BUILD (default build) must have been built by ninja. Nothing in the tree changes.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
build=build
if [ "${1:-}" = "-B" ]; then
	build=${2:?ab.sh: -B needs a build directory}
	shift 2
fi
header=${1:?usage: ab.sh [-B BUILD] HEADER LABEL [rcu-bench options...]}
label=${2:?usage: ab.sh [-B BUILD] HEADER LABEL [rcu-bench options...]}
shift 2
case $label in
ours | others | liburcu-sys | liburcu-new | ab-*) echo "ab.sh: choose another label than $label" >&2; exit 2 ;;
esac
printf '%s' "$label" | grep -q '^[a-z][a-z0-9_]*$' || { echo "ab.sh: LABEL: lower-case letters, digits, _" >&2; exit 2; }
[ -r "$header" ] || { echo "ab.sh: cannot read $header" >&2; exit 1; }
hdir=$(cd "$(dirname "$header")" && pwd)
[ "$(basename "$header")" = rcu.h ] || { echo "ab.sh: HEADER must be a file named rcu.h" >&2; exit 2; }
b=$(cd "$build/bench" && pwd)
[ -x "$b/rcu-bench" ] || { echo "ab.sh: no $b/rcu-bench (ninja -C $build)" >&2; exit 1; }
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The flavour list (rcu_flavours/flavours.txt: one name a line, '#' comments), and the groups
# the tree's build made.
flavours=$(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$root/rcu_flavours/flavours.txt" | tr '\n' ' ')
[ -n "$flavours" ] || { echo "ab.sh: no flavour list in rcu_flavours/flavours.txt" >&2; exit 1; }
groups="ours,$label"
for g in others liburcu-sys liburcu-new; do
	[ -x "$b/rcu-bench-$g" ] && groups="$groups,$g"
done

cflags="-std=c11 -O2 -g -Wall -Wextra -D_GNU_SOURCE -falign-loops=64"
decl="" impls=""
for f in $flavours; do
	F=$(echo "$f" | tr a-z A-Z)
	$cc $cflags -DRCU_FLAVOUR_"$F" -DBENCH_IMPL=bench_ab_"$f" -DBENCH_LABEL="\"$label\"" \
		-I"$hdir" -I"$root/bench" -c "$root/bench/ours.c" -o "$tmp/ours-$f.o"
	decl="$decl BENCH_IMPL_DECLARE(bench_ab_$f)"
	impls="$impls BENCH_IMPL_ENTRY(bench_ab_$f)"
done
sed -e "s|@GROUP@|$label|" -e "s|@VERSION@|rcu.h from $header|" -e "s|@DECLARATIONS@|$decl|" \
	-e "s|@IMPLS@|$impls|" -e "s|@SO_IMPLS@||" -e "s|@MAPS@||" "$root/bench/registry.c.in" >"$tmp/registry.c"
$cc $cflags -I"$root/bench" "$root/bench/server.c" "$root/bench/measure.c" "$tmp/registry.c" "$tmp"/ours-*.o \
	-o "$b/rcu-bench-$label" -pthread -lm
fl=$(echo $flavours | tr ' ' ',')
$cc $cflags -I"$root/bench" -DBENCH_FLAVOURS="\"$fl\"" -DBENCH_GROUPS="\"$groups\"" \
	"$root/bench/rcu-bench.c" "$root/bench/child.c" "$root/bench/sections.c" "$root/bench/results.c" \
	"$root/bench/report.c" "$root/bench/targets.c" "$root/bench/options.c" -o "$b/rcu-bench-ab-$label" -lm
echo "ab.sh: built $b/rcu-bench-$label and $b/rcu-bench-ab-$label; measuring" >&2

out=$tmp/out
"$b/rcu-bench-ab-$label" --out "$out" "$@" >"$tmp/tables.txt"
head -3 "$tmp/tables.txt"
awk -F, -v label="$label" '
	NR > 1 { k = $1 SUBSEP $3; m[$2, k] = $5; lo[$2, k] = $6; hi[$2, k] = $7
		if (!(k in seen)) { seen[k] = 1; keys[++n] = k } }
	function cell(who, k) { return (who, k) in m ? sprintf("%.4g (%.3g-%.3g)", m[who, k], lo[who, k], hi[who, k]) : "-" }
	function q(a, b, k) { return ((a, k) in m && (b, k) in m && m[b, k] != 0) ? sprintf("%.2f", m[a, k] / m[b, k]) : "-" }
	END {
		printf "%-20s %-6s %-26s %-26s %-26s %9s %9s %9s\n", "metric", "flavour", "ours", label, "liburcu new", label "/ours", "ours/new", label "/new"
		for (i = 1; i <= n; i++) {
			k = keys[i]; split(k, a, SUBSEP)
			if (!(("ours", k) in m) && !((label, k) in m)) continue
			printf "%-20s %-6s %-26s %-26s %-26s %9s %9s %9s\n", a[1], a[2], cell("ours", k), cell(label, k),
				cell("liburcu-new", k), q(label, "ours", k), q("ours", "liburcu-new", k), q(label, "liburcu-new", k)
		}
	}' "$out/rcu-bench.csv"
