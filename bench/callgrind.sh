#!/bin/sh
# SPDX-License-Identifier: 0BSD
# bench/callgrind.sh: repeatable figures beside the times. valgrind's callgrind counts the
# instructions of every implementation (every flavour of rcu.h, both liburcu versions, the other
# peers):
#   - per read-side section (lock + dereference + field read + unlock, with the loop's own
#     increment and branch), in the executable and inside the -fPIC shared object;
#   - per read-side section of a domain (rcu.h: srcu_read_lock + srcu_dereference + field read +
#     srcu_read_unlock on a struct srcu_struct; ck_epoch: its epoch object), beside the default
#     domain's;
#   - per grace period (synchronize_rcu() from a registered thread) with no other reader, and
#     with one other registered reader that stays outside its sections, so that the grace
#     period must look at it (and MEMB/BP issue membarrier); the system calls are counted as
#     the instructions that issue them, not the kernel's.
# Deterministic, so one run each is enough, and the figures hold on a noisy machine.
#
#   bench/callgrind.sh BUILD/bench/rcu-bench [N] [--disasm]
#
# `rcu-bench --list` says which server executable holds each implementation; each runs
# `--insn ID N` (a warm-up, then N sections inside bench_insn_measure()) and `--insn-gp ID G R`
# (G = N/100 grace periods inside bench_insn_gp(), R = 0 and 1 idle readers), the only functions whose instructions are
# collected (--collect-atstart=no --toggle-collect). --disasm also prints each read loop as
# compiled (objdump of the implementation's object file). Writes callgrind.csv and callgrind.md
# (the tables in Markdown) next to rcu-bench.
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
gp=$((n / 100))
[ "$gp" -ge 1 ] || gp=1
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed" >&2; exit 0; }
dir=$(cd "$(dirname "$bench")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
csv=$dir/callgrind.csv

# count EXE FLAG ID COUNT FUNCTION [READERS]: instructions per operation, or nothing if it cannot
count() {
	out=$tmp/cg.out
	rm -f "$out"
	valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
		--toggle-collect="$5" "$1" "$2" "$3" "$4" ${6:+"$6"} >/dev/null 2>"$tmp/log" || return 1
	ir=$(awk '/^(summary|totals):/ { print $2; exit }' "$out")
	awk -v ir="$ir" -v n="$4" 'BEGIN { printf "%.2f", ir / n }'
}

"$bench" --list >"$tmp/list"
echo "id,instructions_per_section,instructions_per_gp,instructions_per_gp_1_reader,instructions_per_domain_section" >"$csv"
while read -r id exe; do
	case $id in
	map:*) continue ;;
	absent) continue ;;
	esac
	r=$(count "$exe" --insn "$id" "$n" bench_insn_measure) ||
		{ echo "callgrind.sh: $id failed:" >&2; cat "$tmp/log" >&2; continue; }
	g=- g1=- d=-
	case $id in
	so:*) ;;
	*)
		g=$(count "$exe" --insn-gp "$id" "$gp" bench_insn_gp 0) || g=-
		g1=$(count "$exe" --insn-gp "$id" "$gp" bench_insn_gp 1) || g1=-
		case $id in
		ours-* | ck_epoch) d=$(count "$exe" --insn-domain "$id" "$n" bench_insn_domain) || d=- ;;
		esac
		;;
	esac
	echo "$id,$r,$g,$g1,$d" >>"$csv"
done <"$tmp/list"

# The system liburcu's version, for the headings.
sys=$(awk '$1 ~ /^liburcu-sys-/ { print $2; exit }' "$tmp/list")
sysv=$([ -n "$sys" ] && "$sys" --list | sed -n 's/^version liburcu \([^ ,]*\).*/\1/p' || true)
sysv=${sysv:-sys}
new_absent=$(awk '$1 == "absent" && $2 == "liburcu-new" { $1 = $2 = ""; print; exit }' "$tmp/list")

report() { # $1: text or md
	awk -F, -v n="$n" -v gp="$gp" -v fmt="$1" -v sysv="$sysv" -v absent="$new_absent" '
		function row(a, b, c, d, e, f, g, h, i) {
			if (fmt == "md")
				printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", a, b, c, d, e, f, g, h, i
			else
				printf "  %-9s %8s %12s %9s %14s %12s %9s %12s %15s\n", a, b, c, d, e, f, g, h, i
		}
		function row5(a, b, c, d, e) {
			if (fmt == "md")
				printf "| %s | %s | %s | %s | %s |\n", a, b, c, d, e
			else
				printf "  %-9s %8s %8s %15s %20s\n", a, b, c, d, e
		}
		function get(k, col) { return (k in v) ? (col == 2 ? v[k] : col == 3 ? w[k] : w1[k]) : "-" }
		function ratio(a, b) { return (a != "-" && b != "-" && b > 0) ? sprintf("%.2f", a / b) : "-" }
		function title(s) { if (fmt == "md") printf "\n**%s**\n\n", s; else printf "\n%s\n", s }
		NR > 1 { v[$1] = $2; w[$1] = $3; w1[$1] = $4; dm[$1] = $5; if ($1 ~ /^ours-/) fl[++nf] = substr($1, 6) }
		END {
			if (absent != "")
				printf "%sliburcu new absent:%s\n", fmt == "md" ? "\n" : "", absent
			title("instructions per read-side section (callgrind, " n " sections; the loop'"'"'s own increment, compare, branch and add are included: see the floor)")
			row("flavour", "ours", "liburcu new", "ours/new", "liburcu " sysv, "ours/" sysv, "ours .so", "new .so", sysv " .so")
			if (fmt == "md")
				print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
			for (i = 1; i <= nf; i++) {
				f = fl[i]; o = get("ours-" f, 2); u = get("liburcu-new-" f, 2); s = get("liburcu-sys-" f, 2)
				row(f, o, u, ratio(o, u), s, ratio(o, s), get("so:ours-" f, 2), get("so:liburcu-new-" f, 2),
					get("so:liburcu-sys-" f, 2))
			}
			split("ck_epoch rwlock floor", g, " ")
			for (i = 1; i <= 3; i++)
				if (g[i] in v)
					row(g[i], v[g[i]], "", "", "", "", g[i] == "floor" ? get("so:floor", 2) : "", "", "")
			title("instructions per grace period (callgrind, " gp " synchronize_rcu() calls from a registered thread, with no other reader and with one registered reader outside its sections; system calls count as the instructions that issue them)")
			if (fmt == "md") {
				printf "| flavour | ours | liburcu new | ours/new | liburcu %s | ours/%s | 1 reader: ours | liburcu new | ours/new | liburcu %s | ours/%s |\n", sysv, sysv, sysv, sysv
				print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
			} else {
				printf "  %-9s %8s %12s %9s %14s %12s  %14s %12s %9s %14s %12s\n", "flavour", "ours", "liburcu new", "ours/new", "liburcu " sysv, "ours/" sysv, "1 reader: ours", "liburcu new", "ours/new", "liburcu " sysv, "ours/" sysv
			}
			for (i = 1; i <= nf; i++) {
				f = fl[i]; o = get("ours-" f, 3); u = get("liburcu-new-" f, 3); s = get("liburcu-sys-" f, 3)
				o1 = get("ours-" f, 4); u1 = get("liburcu-new-" f, 4); s1 = get("liburcu-sys-" f, 4)
				if (fmt == "md")
					printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", f, o, u, ratio(o, u), s, ratio(o, s), o1, u1, ratio(o1, u1), s1, ratio(o1, s1)
				else
					printf "  %-9s %8s %12s %9s %14s %12s  %14s %12s %9s %14s %12s\n", f, o, u, ratio(o, u), s, ratio(o, s), o1, u1, ratio(o1, u1), s1, ratio(o1, s1)
			}
			if ("ck_epoch" in w && w["ck_epoch"] != "-") {
				if (fmt == "md")
					printf "| ck_epoch | %s | | | | | %s | | | | |\n", w["ck_epoch"], w1["ck_epoch"]
				else
					printf "  %-9s %8s %12s %9s %14s %12s  %14s\n", "ck_epoch", w["ck_epoch"], "", "", "", "", w1["ck_epoch"]
			}
			title("instructions per read-side section of a domain (callgrind, " n " sections: srcu_read_lock + srcu_dereference + field + srcu_read_unlock on a struct srcu_struct; ck_epoch: its epoch object), beside the default domain'"'"'s")
			row5("flavour", "default", "domain", "domain/default", "domain/default memb")
			if (fmt == "md")
				print "| --- | ---: | ---: | ---: | ---: |"
			m = get("ours-memb", 2)
			for (i = 1; i <= nf; i++) {
				f = fl[i]; o = get("ours-" f, 2); d = (("ours-" f) in dm && dm["ours-" f] != "") ? dm["ours-" f] : "-"
				row5(f, o, d, ratio(d, o), ratio(d, m))
			}
			if ("ck_epoch" in dm && dm["ck_epoch"] != "" && dm["ck_epoch"] != "-")
				row5("ck_epoch", "", dm["ck_epoch"], "", ratio(dm["ck_epoch"], m))
		}' "$csv"
}
report text
report md >"$dir/callgrind.md"
echo "wrote $csv $dir/callgrind.md"

if [ "$disasm" = 1 ]; then
	for obj in "$dir"/libbench-*.a.p/*.o; do
		case $obj in *map.c.o | *measure.c.o) continue ;; esac
		lib=$(basename "$(dirname "$obj")" .a.p)
		echo
		echo "== ${lib#libbench-}"
		objdump -d --no-show-raw-insn "$obj" |
			awk '/<(body|ck|floor|rwlock)_read_loop>:/ { p = 1 } p && /^$/ { p = 0 } p'
	done
fi
