#!/usr/bin/env bash
# SPDX-License-Identifier: 0BSD
#
# test/port/port.sh: build one ported program and run it (meson test, suite `port`).
#
#   port.sh --compiler CC --lang c|c++ --flavour F --src ROOT --out DIR [--sanitize LIST]
#           [--compat liburcu|kernel] [--liburcu "CFLAGS" --liburcu-libs "LIBS"] [--skip REASON]
#           [--warn "FLAGS"] PROGRAM.c
#
# The program is compiled here, in the test, not by the build: a port that does not compile (a
# name rcu.h lacks, a warning it causes) is then one failing test whose log holds the compiler's
# messages, not a broken build. Flags: -O2 -g -Wall -Wextra -Wpedantic -Werror and --warn's,
# C11 or C++17 (`-x c++` over the same .c file), -DRCU_FLAVOUR_<F>, -pthread, and the build's
# sanitizers (with which -O1 -g1 instead of -O2 -g, as the sanitizer builds of scripts/test.sh).
# --compat adds -I ROOT/compat/<liburcu|kernel>: the program's own includes (<urcu.h>,
# <linux/rcupdate.h>, ...) then find rcu.h's, with no change to its source.
# With --liburcu the program is built as the original instead (-DPORT_LIBURCU, the given liburcu
# flags, warnings not fatal: liburcu's headers are not the subject), as the control that proves
# the program is liburcu code whose checks hold under liburcu. --skip: report the test skipped
# (exit 77) with the reason, without building it. The control also gets
# -fno-strict-aliasing: liburcu's cds_hlist functions store through the bucket head cast to a
# node (urcu/hlist.h), which GCC at -O2 reorders against the program's own reads of the head
# (liburcu_hlist.c's emptiness check fails without it); rcu.h's hash lists do not cast. Exit status: the program's, or 1
# when it does not compile, or 124 when it runs past 60 s.
set -u
compiler= lang=c flavour= src= out= sanitize=none liburcu= liburcu_libs= original=0 skip= compat= warn=
while [ $# -gt 1 ]; do
	case "$1" in
	--compiler) compiler=$2; shift 2 ;;
	--lang) lang=$2; shift 2 ;;
	--flavour) flavour=$2; shift 2 ;;
	--src) src=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--sanitize) sanitize=$2; shift 2 ;;
	--liburcu) liburcu=$2; original=1; shift 2 ;;
	--liburcu-libs) liburcu_libs=$2; shift 2 ;;
	--skip) skip=$2; shift 2 ;;
	--compat) compat=$2; shift 2 ;;
	--warn) warn=$2; shift 2 ;;
	*) break ;;
	esac
done
prog=${1:?usage: port.sh --compiler CC --lang c|c++ --flavour F --src ROOT --out DIR PROGRAM.c}
if [ -n "$skip" ]; then
	echo "port.sh: skipped: $skip"
	exit 77
fi
mkdir -p "$(dirname "$out")"

std=-std=c11
[ "$lang" = c++ ] && std=-std=c++17
[ "$sanitize" = none ] && sanitize=
level=(-O2 -g)
[ -z "$sanitize" ] || level=(-O1 -g1)
flags=(-x "$lang" "$std" "${level[@]}" -Wall -Wextra -Wpedantic -DRCU_FLAVOUR_"$(echo "$flavour" | tr a-z A-Z)")
if [ "$original" = 1 ]; then
	# shellcheck disable=SC2206 # the flags are words
	flags+=(-DPORT_LIBURCU -fno-strict-aliasing $liburcu)
else
	# shellcheck disable=SC2206 # the flags are words
	flags+=(-Werror $warn -I"$src" -I"$src/test/port")
	[ -n "$compat" ] && flags+=(-I"$src/compat/$compat" -MD -MF "$out.d")
fi
if [ -n "$sanitize" ]; then
	flags+=(-fsanitize="$sanitize" -fno-omit-frame-pointer)
fi
echo "port.sh: $compiler ${flags[*]} $prog -x none -o $out -pthread $liburcu_libs"
# shellcheck disable=SC2086 # the compiler may be a command with arguments; the libraries are words
if ! $compiler "${flags[@]}" "$prog" -x none -o "$out" -pthread $liburcu_libs; then
	echo "port.sh: $(basename "$prog") does not compile as $lang ($flavour)"
	exit 1
fi
# A header the compat folder lacks would be taken from an installed liburcu (or the kernel's
# headers, if installed): the port must read only rcu.h's.
if [ -n "$compat" ] && grep -oE '[^ ]*/(urcu/[^ ]*|urcu[-_a-z]*|linux/(rcupdate|rculist|srcu|list))\.h' "$out.d" | grep -v "^$src/compat/" | grep -q .; then
	echo "port.sh: $(basename "$prog") includes headers from outside $src/compat:"
	grep -oE '[^ ]*/(urcu/[^ ]*|urcu[-_a-z]*|linux/(rcupdate|rculist|srcu|list))\.h' "$out.d" | grep -v "^$src/compat/" | sort -u
	exit 1
fi
timeout 60 "$out"
