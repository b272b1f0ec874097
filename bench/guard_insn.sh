#!/bin/sh
# SPDX-License-Identifier: 0BSD
# bench/guard_insn.sh: instructions per read-side section (callgrind, repeatable) of the default
# domain's three ways in: plain rcu_read_lock()/rcu_read_unlock() built as C, the same built as
# C++, rcu::rcu_read_guard, and rcu::rcu_default_domain().lock()/unlock(), per flavour, at -O2
# with gcc/g++ (CC, CXX). HEADER_DIR holds the rcu.h to measure (default: the tree's), so that
# two headers can be compared:
#   git show 6c039c7:rcu.h > /tmp/old/rcu.h
#   bench/guard_insn.sh /tmp/old; bench/guard_insn.sh
# Each figure is the loop function's instructions over N sections (the loop's own increment,
# compare and branch included), after a warm-up call outside the count. The reader thread is
# registered (rcu_register_thread()) for every figure, so that old and new headers run the same
# path; the C++ figures are also given for a thread that never registers (QSBR: the guard
# aborts there, so the program dies: "aborts").
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
hdr=${1:-$root}
n=${2:-100000}
cc=${CC:-gcc}
cxx=${CXX:-g++}
command -v valgrind >/dev/null || { echo "guard_insn.sh: valgrind is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# count EXE FUNCTION ARGS...: instructions of FUNCTION per section
count() {
	exe=$1 fn=$2
	shift 2
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" --collect-atstart=no \
		--toggle-collect="$fn" "$exe" "$@" >/dev/null 2>"$tmp/log" || { cat "$tmp/log" >&2; return 1; }
	ir=$(awk '/^(summary|totals):/ { print $2; exit }' "$tmp/cg.out")
	awk -v ir="$ir" -v n="$n" 'BEGIN { printf "%.2f", ir / n }'
}

# The flavour list (rcu_flavours/flavours.txt: one name a line, '#' comments), as bench/ab.sh reads it.
flavours=$(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$root/rcu_flavours/flavours.txt" | tr '\n' ' ')
[ -n "$flavours" ] || { echo "guard_insn.sh: no flavour list in rcu_flavours/flavours.txt" >&2; exit 1; }

echo "rcu.h: $hdr/rcu.h; $n sections; $cc / $cxx -O2"
echo "| flavour | C rcu_read_lock() | C++ rcu_read_lock() | C++ rcu_read_guard | C++ rcu_default_domain().lock() | guard, unregistered thread | lock(), unregistered thread |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for fl in $flavours; do
	f=$(echo "$fl" | tr 'a-z' 'A-Z')
	"$cc" -std=c11 -O2 -DRCU_FLAVOUR_"$f" -I"$hdr" -o "$tmp/c-$fl" "$here/guard_insn.c" -pthread
	"$cxx" -x c++ -std=c++17 -O2 -DRCU_FLAVOUR_"$f" -I"$hdr" -o "$tmp/cxx-$fl" "$here/guard_insn.c" -pthread
	c=$(count "$tmp/c-$fl" guard_loop_c c "$n" register)
	cc_=$(count "$tmp/cxx-$fl" guard_loop_c c "$n" register)
	g=$(count "$tmp/cxx-$fl" "guard_loop_guard(long)" guard "$n" register)
	d=$(count "$tmp/cxx-$fl" "guard_loop_domain(long)" domain "$n" register)
	# An unregistered thread: QSBR's guard aborts (the program dies: "aborts").
	gu=$(count "$tmp/cxx-$fl" "guard_loop_guard(long)" guard "$n" 2>/dev/null || echo "aborts")
	du=$(count "$tmp/cxx-$fl" "guard_loop_domain(long)" domain "$n" 2>/dev/null || echo "aborts")
	echo "| $fl | $c | $cc_ | $g | $d | $gu | $du |"
done
