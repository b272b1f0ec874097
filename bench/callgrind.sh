#!/bin/sh
# SPDX-License-Identifier: 0BSD
# bench/callgrind.sh: instructions per read-side section (lock + dereference + field read +
# unlock, with the loop's own increment and branch), for every flavour of rcu.h and every peer,
# counted by valgrind's callgrind: deterministic, so one run each is enough.
#
#   bench/callgrind.sh BUILD/bench/rcu-bench [N] [--disasm]
#
# Each implementation runs `rcu-bench --insn ID N`: a warm-up, then N sections inside
# bench_insn_measure(), the only function whose instructions are collected
# (--collect-atstart=no --toggle-collect). The figure is that count / N. --disasm also prints each
# loop as compiled (objdump of the implementation's object file). Writes callgrind.csv and
# callgrind.md (the table in Markdown) next to rcu-bench.
set -eu

bench=${1:?usage: callgrind.sh path/to/rcu-bench [N] [--disasm]}
n=100000
disasm=0
shift
for a in "$@"; do
	case $a in
	--disasm) disasm=1 ;;
	*) n=$a ;;
	esac
done
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed" >&2; exit 0; }
dir=$(cd "$(dirname "$bench")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
csv=$dir/callgrind.csv

echo "id,instructions_per_section" >"$csv"
for id in $("$bench" --list); do
	out=$tmp/cg.out
	valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
		--toggle-collect=bench_insn_measure "$bench" --insn "$id" "$n" >/dev/null 2>"$tmp/log" ||
		{ echo "callgrind.sh: $id failed:" >&2; cat "$tmp/log" >&2; continue; }
	ir=$(awk '/^(summary|totals):/ { print $2; exit }' "$out")
	echo "$id,$(awk -v ir="$ir" -v n="$n" 'BEGIN { printf "%.2f", ir / n }')" >>"$csv"
done

report() { # $1: text or md
	awk -F, -v n="$n" -v fmt="$1" '
		function row(a, b, c, d, e, f) {
			if (fmt == "md")
				printf "| %s | %s | %s | %s | %s | %s |\n", a, b, c, d, e, f
			else
				printf "  %-8s %8s %8s %14s %10s %12s\n", a, b, c, d, e, f
		}
		function get(k) { return (k in v) ? v[k] : "-" }
		NR > 1 { v[$1] = $2 }
		END {
			if (fmt == "md") {
				printf "**instructions per read-side section** (callgrind, %d sections; the loop'"'"'s own increment, compare, branch and add are included: see the floor)\n\n", n
				row("flavour", "ours", "liburcu", "ours/liburcu", "ours, .so", "liburcu, .so")
				print "| --- | ---: | ---: | ---: | ---: | ---: |"
			} else {
				printf "instructions per read-side section (callgrind, %d sections; the loop'"'"'s own\n", n
				print "increment, compare, branch and add are included: see the floor)"
				row("flavour", "ours", "liburcu", "ours/liburcu", "ours .so", "liburcu .so")
			}
			split("qsbr memb mb bp", f, " ")
			for (i = 1; i <= 4; i++) {
				o = get("ours-" f[i]); u = get("liburcu-" f[i])
				r = (o != "-" && u != "-" && u > 0) ? sprintf("%.2f", o / u) : "-"
				row(f[i], o, u, r, get("so:ours-" f[i]), get("so:liburcu-" f[i]))
			}
			split("ck_epoch rwlock floor", g, " ")
			for (i = 1; i <= 3; i++)
				if (g[i] in v)
					row(g[i], v[g[i]], "", "", g[i] == "floor" ? get("so:floor") : "", "")
		}' "$csv"
}
report text
report md >"$dir/callgrind.md"
echo "wrote $csv $dir/callgrind.md"

if [ "$disasm" = 1 ]; then
	for obj in "$dir"/libbench-*.a.p/*.o; do
		case $obj in *map.c.o) continue ;; esac
		lib=$(basename "$(dirname "$obj")" .a.p)
		echo
		echo "== ${lib#libbench-}"
		objdump -d --no-show-raw-insn "$obj" |
			awk '/<(body|ck|floor|rwlock)_read_loop>:/ { p = 1 } p && /^$/ { p = 0 } p'
	done
fi
