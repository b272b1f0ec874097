#!/usr/bin/env bash
# SPDX-License-Identifier: 0BSD
#
# test/compile/check.sh: compile checks of rcu.h, run by meson test (suite "compile").
#
#   check.sh --src ROOT --out DIR --gcc GCC [--clang CLANG] [--jobs N] [--header DIR]
#            [--expect-fail "NAME ..."] GROUP
#
# Groups:
#   api     api.c (every public name) compiles with gcc and clang, -std=c11 and -std=c17,
#           -Wall -Wextra -Wpedantic -Werror, each flavour, with and without RCU_DEBUG; as -fPIC
#           shared objects that export the flavour's state; linked (a gcc and a clang object in
#           one program) and run; through the rcu_flavours/ selectors; with every configuration
#           macro; and the default flavour on Linux is MEMB.
#   reject  what rcu.h must refuse with an #error that names the problem: two flavours (each
#           pair, and a selector header plus another flavour), bad configuration values,
#           RCU_DEBUG_DEREFERENCE without RCU_DEBUG, POSIX declarations hidden by strict C on a
#           system other than Linux (shown here with __linux__ undefined; on Linux rcu.h
#           declares what strict modes hide, and a system header first compiles); rcu_lfht.h's
#           private RCU__LFHT_HELP_BATCH defined, or its model checker's override outside a
#           model checker's build.
#   deref   RCU_DEBUG_DEREFERENCE: rcu_dereference() outside a section aborts with its message;
#           inside a section (and without the macro) it does not.
#   strict  api.c under the warnings strict projects add (-Wmissing-prototypes, -Wshadow,
#           -Wconversion, -Wcast-qual, ...), which a header dropped into their tree must pass.
#   config  per-program settings are one per program: two translation units of one executable
#           that differ in any per-program macro (each of the list in rcu.h's >>doc block), or
#           a plugin that differs from its host, stop the program with SIGABRT and rcu.h's
#           sentence naming the macro, both values and both units, before main() (at dlopen()
#           for the plugin); units that differ only in per-translation-unit macros run on one
#           state. Each pair's program also checks that neither unit's object was overwritten,
#           so a header without the check fails it by what it corrupts.
#   callback
#           call_rcu()/call_srcu() with a null pointer constant as the callback, or a constant
#           below 4096 cast to the callback's type, do not compile (the error names the rule);
#           a NULL or a value below 4096 that is not a constant
#           aborts with rcu.h's sentence, in release and RCU_DEBUG builds, before anything is
#           freed; a real callback and rcu_free() (its own path) still run and free.
#   lang    C and C++ and ported code (issue #12), at -O2 with -Wall -Wextra -Wpedantic -Werror:
#           lang.c (every pointer macro on each pointer kind, the list iterators, the names of
#           RCU_LIBURCU_NAMES and RCU_KERNEL_NAMES, the C++ layer) as C11, C17, C2x and GNU C11
#           with gcc and clang in each flavour, and as C++11, C++14, C++17, C++20 and C++23 with
#           g++ and clang++ in QSBR and MEMB, C++17 in each flavour (RCU_DEBUG: C11, C++17);
#           test/cxx's sources and the C++ examples with -Werror (the suite builds them without);
#           the memory orders of the pointer macros for each pointer kind in the compilers' IR
#           (orders.py); null pointer constants in the C++ pointer macros (cxx_null.cpp);
#           rcu_domain::unlock() inlined at -O2 (cxx_domain_unlock.cpp); a null callback
#           rejected in C and C++, with a control; no dynamic initialiser in a C++ unit, with a
#           control; the names of liburcu and of the kernel that ported code meets
#           (liburcu_names.c, kernel_names.c), and both layers in one unit, built and run in C
#           and C++ (both_names.c); every header of compat/ alone (gcc C11, g++ C++11), a
#           top-level flavour header (<urcu-qsbr.h>) after another flavour refused with its
#           sentence, and the four flavour headers of compat/liburcu in one unit
#           (test/port/liburcu_multiflavour.c: each flavour first, C11 with RCU_DEBUG and
#           RCU_DEBUG_DEREFERENCE (gcc) and with and without them in turn (clang), C++11 (g++) and
#           C++23 (clang++) with RCU_DEBUG) built without a warning (also -Wredundant-decls
#           -Wshadow) and run, and with a unit of rcu.h in a further flavour (QSBR beside MB, MB
#           beside MEMB), as C++ under -flto, without a -Wodr warning; flavour headers after
#           a first header that names none (unbound_flavour.c): the prefixed names run, the
#           unprefixed rcu_flavor and cds_lfht_new() refused with their sentence; a program built from gcc, clang, g++ and clang++
#           objects and a shared object, run (one RCU); test/port/pointers.c built with clang
#           and run in each flavour, test/cxx's tests with clang and clang++ in QSBR and MB; the
#           ```cpp blocks of the docs compiled (and run when they hold main()).
#           C++ checks need --gxx and --clangxx (either may be empty); the runs need Criterion.
#   modes   rcu.h in every language mode it claims, whatever the user's feature macros and include
#           order (issue #19): modes.c with -Wall -Wextra -Wpedantic -Werror as C11, C17, C2x and
#           GNU C11 (gcc, clang) and as C++11, C++14, C++17, C++20 and C++23 (g++, clang++), each
#           with and without -pthread (whose _REENTRANT makes glibc set _POSIX_C_SOURCE
#           199506L), with no feature macro and with each of _POSIX_SOURCE, _POSIX_C_SOURCE=1, 2,
#           199309L, 199506L, 200112L, 200809L, _XOPEN_SOURCE (no value), 500, 600, 700,
#           _GNU_SOURCE, _DEFAULT_SOURCE (C++, whose compilers define _GNU_SOURCE themselves:
#           none and _POSIX_C_SOURCE=1), with the system headers
#           before and after rcu.h: with each compiler every combination of macro set, -pthread
#           and order, the standard rotating through them so that each standard meets every macro
#           set and every -pthread and order pair; each in the next configuration of a list
#           (the four flavours, RCU_DEBUG, RCU_NO_FUTEX, RCU_NO_MEMBARRIER), checked with
#           -fsyntax-only (gcc's -fsyntax-only skips -Wunused-function; the api and lang groups
#           build objects). Then, per compiler and
#           flavour, the strictest modes (-std=c11 or c++11, -pthread, headers first; and
#           _POSIX_C_SOURCE=1) built at -O2, linked and run with RCU_CHECK_STATE=1, which reaches
#           every C library call strict modes hide. With musl-gcc (scripts/musl.ini) the same for
#           musl's headers, C only.
#
# --header DIR takes rcu.h from DIR instead of ROOT (say, an older rcu.h, to show what a group
# catches: `git show 087fd8e:rcu.h > /tmp/old/rcu.h; check.sh ... --header /tmp/old config`).
# --expect-fail names checks that fail because of a known defect of rcu.h (with another C library,
# say): they are reported as XFAIL, and one that passes fails the group (take it off the list).
# The flavours are rcu_flavours/flavours.txt's.
#
# Compilations run in parallel (--jobs, default: the number of CPUs). Exit 0 when all pass;
# otherwise each failure is printed with the compiler's or the program's output.
set -u

src= out= gcc= clang= gxx= clangxx= header= xfail= jobs=$(nproc 2>/dev/null || echo 2)
while [ $# -gt 1 ]; do
	case "$1" in
	--src) src=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--gcc) gcc=$2; shift 2 ;;
	--clang) clang=$2; shift 2 ;;
	--gxx) gxx=$2; shift 2 ;;
	--clangxx) clangxx=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--header) header=$2; shift 2 ;;
	--expect-fail) xfail=$2; shift 2 ;;
	*) break ;;
	esac
done
group=${1:?usage: check.sh --src ROOT --out DIR --gcc GCC [--clang CLANG] GROUP}
[ -n "$src" ] && [ -n "$out" ] && [ -n "$gcc" ] || { echo "check.sh: --src, --out and --gcc are needed" >&2; exit 2; }

here=$src/test/compile
# The ABI number in rcu.h's external names (rcu__<flavour>_v<ABI>_...).
abi=$(sed -n 's/^#define RCU__ABI \([0-9][0-9]*\).*/\1/p' "${header:-$src}/rcu.h")
[ -n "$abi" ] || { echo "check.sh: no #define RCU__ABI in $src/rcu.h" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out"
compilers=(gcc)
[ -n "$clang" ] && compilers+=(clang)
# The flavour list: rcu_flavours/flavours.txt, upper case as in RCU_FLAVOUR_<NAME>.
mapfile -t flavours < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$src/rcu_flavours/flavours.txt" | tr 'a-z' 'A-Z')
[ ${#flavours[@]} -gt 0 ] || { echo "check.sh: no flavour in $src/rcu_flavours/flavours.txt" >&2; exit 2; }
warn=(-Wall -Wextra -Wpedantic -Werror)
inc=(-I"${header:-$src}" -I"$src") # rcu_flavours/ (whose selectors include the tree's ../rcu.h)

cc_path() {
	case "$1" in
	gcc) echo "$gcc" ;;
	clang) echo "$clang" ;;
	g++) echo "$gxx" ;;
	clang++) echo "$clangxx" ;;
	esac
}

# Each job writes $out/<name>.log and, when it passes, $out/<name>.ok.
pass() { : >"$out/$1.ok"; }

# ok_compile NAME CC ARGS...: must compile (-c) cleanly.
ok_compile() {
	local name=$1 cc; cc=$(cc_path "$2"); shift 2
	"$cc" "$@" -c -o "$out/$name.o" >"$out/$name.log" 2>&1 && pass "$name"
}

# ok_syntax NAME CC ARGS...: must pass the compiler's checks cleanly (-fsyntax-only).
ok_syntax() {
	local name=$1 cc; cc=$(cc_path "$2"); shift 2
	"$cc" "$@" -fsyntax-only >"$out/$name.log" 2>&1 && pass "$name"
}

# modes_run NAME CC ARGS...: compiled with ARGS (which name the source), linked with -pthread
# and run with RCU_CHECK_STATE=1; it must print modes.c's line.
modes_run() {
	local name=$1 cc; cc=$(cc_path "$2"); shift 2
	{
		"$cc" "$@" -c -o "$out/$name.o" && "$cc" -pthread -o "$out/$name" "$out/$name.o" &&
			RCU_CHECK_STATE=1 timeout 60 "$out/$name" >"$out/$name.out" &&
			cat "$out/$name.out" && grep -q '^modes: ran' "$out/$name.out"
	} >"$out/$name.log" 2>&1 && pass "$name"
}

# ok_run NAME CC ARGS...: must compile and link cleanly, and the program must exit 0.
ok_run() {
	local name=$1 cc; cc=$(cc_path "$2"); shift 2
	{ "$cc" "$@" -x none -pthread -o "$out/$name" && timeout 60 "$out/$name"; } >"$out/$name.log" 2>&1 && pass "$name"
}

# lto_units NAME CXX FLAVOUR: test/port/multiflavour_units.c, whose FLAVOUR is a further flavour
# of its unit, and its peer, rcu.h in FLAVOUR, as C++ with -flto, linked with -Wodr -Werror (each
# type of FLAVOUR's symbols has one definition across the units), and run.
lto_units() {
	local name=$1 cc; cc=$(cc_path "$2"); local fl=$3 first=MB
	[ "$fl" = MB ] && first=MEMB
	{ "$cc" -x c++ -std=c++17 -O2 -flto -Wall -Wextra -Werror -DRCU_FLAVOUR_"$fl" -I"${header:-$src}" \
		-c "$src/test/port/multiflavour_peer.c" -o "$out/$name-peer.o" &&
		"$cc" -x c++ -std=c++17 -O2 -flto -Wall -Wextra -Werror -DRCU_FLAVOUR_$first -DPEER="$(echo "$fl" | tr A-Z a-z)" \
			-I"${header:-$src}/compat/liburcu" -I"$src/test/port" -c "$src/test/port/multiflavour_units.c" \
			-o "$out/$name-units.o" &&
		"$cc" -flto -O2 -Wodr -Werror "$out/$name-peer.o" "$out/$name-units.o" -pthread -o "$out/$name" &&
		timeout 60 "$out/$name"; } >"$out/$name.log" 2>&1 && pass "$name"
}

# compat_header NAME CC HEADER ARGS...: a unit that includes only HEADER (of compat/liburcu or
# compat/kernel) compiles cleanly: each header stands alone, as liburcu's and the kernel's do.
compat_header() {
	local name=$1 cc; cc=$(cc_path "$2"); local h=$3; shift 3
	printf '#include <%s>\nint compat_header_unit(void);\nint compat_header_unit(void) { return 0; }\n' "$h" \
		>"$out/$name.c"
	"$cc" "$@" -I"${header:-$src}/compat/liburcu" -I"${header:-$src}/compat/kernel" -fsyntax-only \
		"$out/$name.c" >"$out/$name.log" 2>&1 && pass "$name"
}

# ok_shared NAME CC FLAVOUR ARGS...: -fPIC shared object that exports the flavour's state.
ok_shared() {
	local name=$1 cc fl=$3; cc=$(cc_path "$2"); shift 3
	local sym="rcu__$(echo "$fl" | tr 'A-Z' 'a-z')_v${abi}_state"
	{
		"$cc" "$@" -fPIC -shared -pthread -o "$out/$name.so" &&
			nm -D --defined-only "$out/$name.so" | grep -w "$sym" ||
			{ echo "shared object does not export $sym"; false; }
	} >"$out/$name.log" 2>&1 && pass "$name"
}

# ok_link_run NAME ARGS...: api.c by gcc and by clang (gcc twice without clang), linked, run.
ok_link_run() {
	local name=$1 second=gcc; shift
	[ -n "$clang" ] && second=clang
	{
		"$gcc" "$@" -c -o "$out/$name.a.o" "$here/api.c" &&
			"$(cc_path $second)" "$@" -DAPI_FN=api_exercise_b -c -o "$out/$name.b.o" "$here/api.c" &&
			"$gcc" -c -o "$out/$name.m.o" "$here/main.c" &&
			"$gcc" -pthread -o "$out/$name" "$out/$name.m.o" "$out/$name.a.o" "$out/$name.b.o" &&
			timeout 30 "$out/$name"
	} >"$out/$name.log" 2>&1 && pass "$name"
}

# must_fail NAME "WORD1 WORD2 ..." CC ARGS...: must not compile, with an error line from rcu.h
# that contains every word (whole words).
must_fail() {
	local name=$1 words=$2 cc; cc=$(cc_path "$3"); shift 3
	if "$cc" "$@" -c -o "$out/$name.o" >"$out/$name.log" 2>&1; then
		echo "compiled, but must not" >>"$out/$name.log"
		return
	fi
	local lines; lines=$(grep -E 'error' "$out/$name.log" | grep 'rcu\.h:')
	for w in $words; do
		lines=$(printf '%s\n' "$lines" | grep -w -- "$w")
	done
	if [ -n "$lines" ]; then
		pass "$name"
	else
		echo "no rcu.h error line naming all of: $words" >>"$out/$name.log"
	fi
}

# deref_case NAME FLAVOUR: RCU_DEBUG_DEREFERENCE catches a dereference outside a section only.
deref_case() {
	local name=$1 fl=$2 rc
	{
		"$gcc" -std=c11 "${warn[@]}" "${inc[@]}" -DRCU_FLAVOUR_"$fl" -DRCU_DEBUG -DRCU_DEBUG_DEREFERENCE \
			-pthread -o "$out/$name" "$here/deref_debug.c" || exit 1
		timeout 30 "$out/$name" inside || { echo "a dereference inside a section failed"; exit 1; }
		(ulimit -c 0; exec timeout 30 "$out/$name" outside) 2>"$out/$name.err"
		rc=$?
		cat "$out/$name.err"
		[ "$rc" -eq 134 ] || { echo "outside a section: exit status $rc, want 134 (SIGABRT)"; exit 1; }
		grep -q 'rcu\.h: rcu_dereference() in thread [0-9]* ".*": called outside a read-side critical section' \
			"$out/$name.err" || { echo "abort message lacks the call, the thread or the rule"; exit 1; }
		# Without the macro the check is compiled away: the same program runs to the end.
		"$gcc" -std=c11 "${warn[@]}" "${inc[@]}" -DRCU_FLAVOUR_"$fl" -DRCU_DEBUG \
			-pthread -o "$out/$name.off" "$here/deref_debug.c" || exit 1
		timeout 30 "$out/$name.off" outside || { echo "without RCU_DEBUG_DEREFERENCE: must not abort"; exit 1; }
	} >"$out/$name.log" 2>&1 && pass "$name"
}

# died_with NAME RC ERRFILE SENTENCE: the program was stopped by SIGABRT (status 134) and
# printed SENTENCE (a fixed string) on stderr.
died_with() {
	local rc=$2 err=$3 sentence=$4
	cat "$err"
	[ "$rc" -eq 134 ] || { echo "exit status $rc, want 134 (SIGABRT)"; return 1; }
	grep -qF -- "$sentence" "$err" || { printf 'stderr lacks the sentence:\n    %s\n' "$sentence"; return 1; }
}

# run_to_status OUT PROGRAM ARGS...: run with no core dump and a time limit, stderr to OUT.err;
# prints the exit status.
run_to_status() {
	local o=$1; shift
	(ulimit -c 0; exec timeout 30 "$@") 2>"$o.err" >"$o.out"
	echo $?
}

# config_pair NAME FLAVOUR MACRO UNIT_VALUE MAIN_VALUE "MAIN FLAGS" "UNIT FLAGS": config_main.c
# (linked first: the reference) and config_unit.c with their own flags in one executable. With
# MACRO empty the pair must run to the end on one state; otherwise it must stop before main()
# with the sentence naming MACRO, the unit's value and the reference's.
config_pair() {
	local name=$1 fl=$2 macro=$3 uval=$4 mval=$5 mflags=$6 uflags=$7 rc
	local exe=$out/$name main=$here/config_main.c unit=$here/config_unit.c
	(
		# shellcheck disable=SC2086 # the flags are words
		"$gcc" -std=c11 "${warn[@]}" "${inc[@]}" -DRCU_FLAVOUR_"$fl" $mflags -c -o "$exe.main.o" "$main" &&
			"$gcc" -std=c11 "${warn[@]}" "${inc[@]}" -DRCU_FLAVOUR_"$fl" $uflags -c -o "$exe.unit.o" "$unit" &&
			"$gcc" -pthread -o "$exe" "$exe.main.o" "$exe.unit.o" || exit 1
		rc=$(run_to_status "$exe" "$exe")
		if [ -z "$macro" ]; then
			cat "$exe.err"
			[ "$rc" -eq 0 ] || { echo "exit status $rc: units that differ only per translation unit must run"; exit 1; }
			grep -q 'config: both units ran on one state' "$exe.err" || exit 1
			exit 0
		fi
		died_with "$name" "$rc" "$exe.err" \
			"rcu.h: configuration mismatch in the $(echo "$fl" | tr 'A-Z' 'a-z') flavour: $macro is $uval in $unit but $mval in $main, loaded before it" || exit 1
		! grep -q 'config: main() reached' "$exe.err" || { echo "main() was reached: the check must stop the program at start-up"; exit 1; }
	) >"$out/$name.log" 2>&1 && pass "$name"
}

# config_plugin NAME FLAVOUR MACRO UNIT_VALUE HOST_VALUE "HOST FLAGS" "PLUGIN FLAGS": config_host.c
# (linked -rdynamic, so the plugin shares its state) dlopen()s config_unit.c built as a plugin.
# MACRO empty: the plugin loads and runs; otherwise dlopen() stops the program with the sentence.
config_plugin() {
	local name=$1 fl=$2 macro=$3 uval=$4 hval=$5 hflags=$6 pflags=$7 rc
	local exe=$out/$name host=$here/config_host.c unit=$here/config_unit.c
	(
		# shellcheck disable=SC2086
		"$gcc" -std=c11 "${warn[@]}" "${inc[@]}" -DRCU_FLAVOUR_"$fl" $hflags -rdynamic -pthread -o "$exe" "$host" -ldl &&
			"$gcc" -std=c11 "${warn[@]}" "${inc[@]}" -DRCU_FLAVOUR_"$fl" $pflags -fPIC -shared -pthread \
				-o "$exe.so" "$unit" || exit 1
		rc=$(run_to_status "$exe" "$exe" "$exe.so")
		if [ -z "$macro" ]; then
			cat "$exe.err"
			[ "$rc" -eq 0 ] || { echo "exit status $rc: a plugin with the host's settings must load and run"; exit 1; }
			exit 0
		fi
		died_with "$name" "$rc" "$exe.err" \
			"rcu.h: configuration mismatch in the $(echo "$fl" | tr 'A-Z' 'a-z') flavour: $macro is $uval in $unit but $hval in $host, loaded before it" || exit 1
		grep -q 'config: host started, dlopen() of the plugin' "$exe.err" || { echo "the host did not start: the check must wait for the plugin"; exit 1; }
		! grep -q 'config: dlopen() returned' "$exe.err" || { echo "dlopen() returned: the check must stop the program inside it"; exit 1; }
	) >"$out/$name.log" 2>&1 && pass "$name"
}

# must_not_compile NAME "WORD1 WORD2 ..." CC ARGS...: must not compile, with an error line that
# contains every word (whole words); for errors reported at the caller's line, not rcu.h's.
must_not_compile() {
	local name=$1 words=$2 cc; cc=$(cc_path "$3"); shift 3
	if "$cc" "$@" -c -o "$out/$name.o" >"$out/$name.log" 2>&1; then
		echo "compiled, but must not" >>"$out/$name.log"
		return
	fi
	local lines; lines=$(grep -E 'error' "$out/$name.log")
	for w in $words; do
		lines=$(printf '%s\n' "$lines" | grep -w -- "$w")
	done
	if [ -n "$lines" ]; then
		pass "$name"
	else
		echo "no error line naming all of: $words" >>"$out/$name.log"
	fi
}

# callback_case NAME FLAVOUR "FLAGS": callback.c's cases. Each bad callback aborts with the
# sentence before anything is freed; the good ones run.
callback_case() {
	local name=$1 fl=$2 flags=$3 rc exe=$out/$1 bad
	(
		# shellcheck disable=SC2086
		"$gcc" -std=c11 "${warn[@]}" "${inc[@]}" -DRCU_FLAVOUR_"$fl" $flags -pthread -o "$exe" "$here/callback.c" || exit 1
		rc=$(run_to_status "$exe" "$exe" good)
		cat "$exe.err" "$exe.out"
		[ "$rc" -eq 0 ] || { echo "good: exit status $rc: a callback and rcu_free() must still run"; exit 1; }
		for bad in null small 4095 srcu-null srcu-small; do
			echo "== $bad"
			rc=$(run_to_status "$exe" "$exe" "$bad")
			cat "$exe.out"
			case $bad in srcu-*) call="call_srcu()" ;; *) call="call_rcu()" ;; esac
			died_with "$name" "$rc" "$exe.err" "rcu.h: $call in thread " || exit 1
			grep -qF '": the callback is NULL or not a function address (below 4096)' "$exe.err" ||
				{ echo "the sentence does not say what is wrong with the callback"; exit 1; }
			! grep -q 'freed' "$exe.out" || { echo "the object was freed before the abort"; exit 1; }
		done
	) >"$out/$name.log" 2>&1 && pass "$name"
}

# must_fail_any NAME REGEX CC ARGS...: must not compile, and the compiler's output must match the
# extended REGEX (the error may point at the caller's line, as deleted functions' errors do).
must_fail_any() {
	local name=$1 re=$2 cc; cc=$(cc_path "$3"); shift 3
	if "$cc" "$@" -c -o "$out/$name.o" >"$out/$name.log" 2>&1; then
		echo "compiled, but must not" >>"$out/$name.log"
		return
	fi
	if grep -q -E -- "$re" "$out/$name.log"; then
		pass "$name"
	else
		echo "no compiler message matching: $re" >>"$out/$name.log"
	fi
}

# orders NAME FAMILY LANG ARGS...: the pointer macros' memory orders in the compiler's IR.
orders() {
	local name=$1 fam=$2 lang=$3 cc; shift 3
	if [ "$lang" = c ]; then
		cc=$(cc_path "$fam")
	elif [ "$fam" = gcc ]; then
		cc=$gxx
	else
		cc=$clangxx
	fi
	python3 "$here/orders.py" --compiler "$cc" --family "$fam" --lang "$lang" --src "$src" -- "$@" \
		>"$out/$name.log" 2>&1 && pass "$name"
}

# const_init NAME CC WANT ARGS...: const_init.cpp's object has (WANT=no) or has (WANT=yes) a
# dynamic initialiser or a guarded static.
const_init() {
	local name=$1 cc want=$3; cc=$(cc_path "$2"); shift 3
	{
		"$cc" "$@" -c -o "$out/$name.o" "$here/const_init.cpp" || exit 1
		nm "$out/$name.o" | grep -E '_GLOBAL__sub_I|__cxa_guard_acquire' >"$out/$name.dyn"
		cat "$out/$name.dyn"
		if [ "$want" = no ] && [ -s "$out/$name.dyn" ]; then
			echo "the object has a dynamic initialiser or a guarded static (above)"; exit 1
		fi
		if [ "$want" = yes ] && [ ! -s "$out/$name.dyn" ]; then
			echo "the control's dynamic initialiser was not found: the check cannot see one"; exit 1
		fi
	} >"$out/$name.log" 2>&1 && pass "$name"
}

# run_mixed NAME FLAVOUR: test/cxx's mixed program from four compilers' objects: the C host by
# clang, test/symbols/check.c by gcc, the C++ unit by g++, the C++ shared object by clang++.
run_mixed() {
	local name=$1 fl=$2 d="$out/$1.d"
	local f=(-O2 -DRCU_FLAVOUR_"$fl" -D_GNU_SOURCE -I"$src")
	mkdir -p "$d"
	{
		"$clangxx" -std=c++17 "${f[@]}" -DPEER_WHO='"C++ library (clang++)"' -fPIC -shared -pthread \
			-o "$d/libcxxpeer.so" "$src/test/cxx/peer_cxx.cpp" &&
			"$gxx" -std=c++17 "${f[@]}" -DPEER_CXX_TABLE=rcu_test_cxx_ops -DPEER_WHO='"C++ unit (g++)"' \
				-c -o "$d/unit.o" "$src/test/cxx/peer_cxx.cpp" &&
			"$clang" -std=c11 "${f[@]}" -c -o "$d/host.o" "$src/test/cxx/mixed_host.c" &&
			"$gcc" -std=c11 "${f[@]}" -c -o "$d/check.o" "$src/test/symbols/check.c" &&
			"$gxx" -pthread -o "$d/mixed" "$d/host.o" "$d/unit.o" "$d/check.o" -L"$d" -lcxxpeer \
				-Wl,-rpath,"$d" &&
			timeout 60 "$d/mixed"
	} >"$out/$name.log" 2>&1 && pass "$name"
}

# run_tests NAME FLAVOUR [cxx]: test/port/pointers.c by clang, and with `cxx` test/cxx's tests by
# clang and clang++, linked with Criterion and run.
run_tests() {
	local name=$1 fl=$2 cxx=${3:-} d="$out/$1.d"
	local f=(-O1 -g -Wall -Wextra -Wpedantic -DRCU_FLAVOUR_"$fl" -D_GNU_SOURCE -I"$src")
	mkdir -p "$d"
	{
		"$clang" -std=c11 "${f[@]}" -o "$d/pointers" "$src/test/port/pointers.c" -lcriterion -pthread &&
			timeout 120 "$d/pointers" --jobs=1 &&
			{ [ "$cxx" != cxx ] || {
			"$clang" -std=c11 "${f[@]}" -c -o "$d/main.o" "$src/test/cxx/cxx_main.c" &&
			"$clangxx" -std=c++17 "${f[@]}" -c -o "$d/api.o" "$src/test/cxx/api.cpp" &&
			"$clangxx" -std=c++17 "${f[@]}" -c -o "$d/ptr.o" "$src/test/cxx/pointers.cpp" &&
			"$clangxx" -o "$d/cxx" "$d/main.o" "$d/api.o" "$d/ptr.o" -lcriterion -pthread &&
			timeout 120 "$d/cxx" --jobs=1; }; }
	} >"$out/$name.log" 2>&1 && pass "$name"
}

# docs_cpp NAME CXX STD FLAVOUR: every ```cpp block of README.md and docs/*.md compiles (as its own
# translation unit) and, when it defines main(), runs and exits 0.
docs_cpp() {
	local name=$1 cxx std=$3 fl=$4 d="$out/$1.d"; cxx=$(cc_path "$2")
	mkdir -p "$d"
	{
		local n=0 bad=0
		for md in "$src/README.md" "$src"/docs/*.md; do
			awk -v dir="$d" -v base="$(basename "$md" .md)" '
				/^```cpp[ \t]*$/ { n++; f = sprintf("%s/%s-%d.cpp", dir, base, n); printf "#line %d \"%s\"\n", NR + 1, FILENAME > f; inb = 1; next }
				/^```/ && inb { inb = 0; close(f); next }
				inb { print > f }' "$md"
		done
		for b in "$d"/*.cpp; do
			[ -e "$b" ] || continue
			n=$((n + 1))
			if grep -q -E '^[[:space:]]*int[[:space:]]+main[[:space:]]*\(' "$b"; then
				"$cxx" -std="$std" -O2 -Wall -Wextra -Wpedantic -Werror -DRCU_FLAVOUR_"$fl" -I"$src" \
					-pthread -o "${b%.cpp}" "$b" && timeout 60 "${b%.cpp}" || { echo "FAILED: $b"; bad=1; }
			else
				"$cxx" -std="$std" -O2 -Wall -Wextra -Wpedantic -Werror -DRCU_FLAVOUR_"$fl" -I"$src" \
					-c -o "${b%.cpp}.o" "$b" || { echo "FAILED: $b"; bad=1; }
			fi
		done
		echo "$n C++ blocks"
		[ "$n" -gt 0 ] || { echo "no \`\`\`cpp block found in the docs"; exit 1; }
		[ "$bad" = 0 ]
	} >"$out/$name.log" 2>&1 && pass "$name"
}

# The headers of compat/ a program includes (paths as in its #include lines).
compat_headers() {
	local d h
	for d in liburcu kernel; do
		(cd "${header:-$src}/compat/$d" && find . -name '*.h' | sed 's|^\./||' | sort) | while read -r h; do
			case "$h" in rcu_liburcu_names.h|rcu_kernel_names.h|rcu_instance.h|rcu_instance_names.h) continue ;; esac
			if [ "$h" = urcu/cds.h ] && grep -o '"[a-z]*\.h"' "${header:-$src}/compat/$d/$h" | tr -d '"' |
				while read -r i; do [ -f "${header:-$src}/compat/$d/urcu/$i" ] || echo missing; done | grep -q .; then
				continue
			fi
			echo "$h"
		done
	done
}

declare -a names=()
job() {
	names+=("$1")
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
	done
	"$2" "$1" "${@:3}" &
}

api="$here/api.c"
case "$group" in
api)
	for c in "${compilers[@]}"; do
		for std in c11 c17; do
			for fl in "${flavours[@]}"; do
				job "api-$c-$std-$fl" ok_compile "$c" -std=$std "${warn[@]}" "${inc[@]}" -DRCU_FLAVOUR_$fl "$api"
				job "api-$c-$std-$fl-debug" ok_compile "$c" -std=$std "${warn[@]}" "${inc[@]}" -DRCU_FLAVOUR_$fl -DRCU_DEBUG "$api"
			done
		done
		for fl in "${flavours[@]}"; do
			job "shared-$c-$fl" ok_shared "$c" "$fl" -std=c11 "${warn[@]}" "${inc[@]}" -DRCU_FLAVOUR_$fl "$api"
			job "shared-$c-$fl-debug" ok_shared "$c" "$fl" -std=c11 "${warn[@]}" "${inc[@]}" -DRCU_FLAVOUR_$fl -DRCU_DEBUG "$api"
		done
	done
	for fl in "${flavours[@]}"; do
		job "run-$fl" ok_link_run -std=c11 "${warn[@]}" "${inc[@]}" -DRCU_FLAVOUR_$fl
		job "run-$fl-debug" ok_link_run -std=c11 "${warn[@]}" "${inc[@]}" -DRCU_FLAVOUR_$fl -DRCU_DEBUG
		job "selector-$fl" ok_compile gcc -std=c11 "${warn[@]}" "${inc[@]}" -DAPI_SELECTOR_$fl "$api"
		job "config-$fl" ok_link_run -std=c17 "${warn[@]}" "${inc[@]}" -DRCU_FLAVOUR_$fl \
			-DRCU_NO_MEMBARRIER -DRCU_NO_FUTEX -DRCU_CALLBACK_HIGH_WATER=5 -DRCU_STALL_TIMEOUT_MS=100 \
			-DAPI_CUSTOM_FREE '-DRCU_TLS_MODEL="global-dynamic"' -DRCU_CACHE_LINE=128 -DRCU_DEBUG -DRCU_DEBUG_DELAY
	done
	job "default-flavour" ok_compile gcc -std=c11 "${warn[@]}" "${inc[@]}" "$api"
	;;
reject)
	not_linux=(-U__linux__ -U__linux -Ulinux -U__gnu_linux__) # rcu.h's path for other systems
	pairs=()
	for ((i = 0; i < ${#flavours[@]}; i++)); do
		for ((j = i + 1; j < ${#flavours[@]}; j++)); do
			pairs+=("${flavours[i]} ${flavours[j]}")
		done
	done
	for c in "${compilers[@]}"; do
		for p in "${pairs[@]}"; do
			set -- $p
			job "two-flavours-$c-$1-$2" must_fail "$p" "$c" -std=c11 "${inc[@]}" -DRCU_FLAVOUR_$1 -DRCU_FLAVOUR_$2 "$api"
			job "two-flavours-$c-$2-$1" must_fail "$p" "$c" -std=c11 "${inc[@]}" -DRCU_FLAVOUR_$2 -DRCU_FLAVOUR_$1 "$api"
		done
		for fl in "${flavours[@]}"; do
			[ "$fl" = QSBR ] && continue # selector_conflict.c includes rcu_flavours/qsbr.h
			job "selector-plus-$c-$fl" must_fail "QSBR $fl" "$c" -std=c11 "${inc[@]}" -DRCU_FLAVOUR_$fl "$here/selector_conflict.c"
		done
		job "high-water-0-$c" must_fail RCU_CALLBACK_HIGH_WATER "$c" -std=c11 "${inc[@]}" -DRCU_CALLBACK_HIGH_WATER=0 "$api"
		job "stall-negative-$c" must_fail RCU_STALL_TIMEOUT_MS "$c" -std=c11 "${inc[@]}" -DRCU_STALL_TIMEOUT_MS=-1 "$api"
		job "deref-without-debug-$c" must_fail "RCU_DEBUG_DEREFERENCE RCU_DEBUG" "$c" -std=c11 "${inc[@]}" -DRCU_DEBUG_DEREFERENCE "$api"
		# rcu_lfht.h's batch of help changes what a weak function does without changing its tag.
		job "lfht-help-batch-$c" must_fail_any 'rcu_lfht\.h: RCU__LFHT_HELP_BATCH is not a configuration macro' \
			"$c" -std=c11 "${inc[@]}" -D_GNU_SOURCE -DRCU__LFHT_HELP_BATCH=4 "$here/lfht_config.c"
		job "lfht-model-help-batch-$c" must_fail_any 'rcu_lfht\.h: RCU__LFHT_MODEL_HELP_BATCH is for model checkers' \
			"$c" -std=c11 "${inc[@]}" -D_GNU_SOURCE -DRCU__LFHT_MODEL_HELP_BATCH=1 "$here/lfht_config.c"
		# Strict C with a system header first: on Linux rcu.h declares what the mode hides and
		# compiles (issue #19: -pthread's _REENTRANT used to let the guard pass and the build die
		# on readlink()); elsewhere it stops with the #error, shown here by hiding __linux__.
		job "posix-late-$c" ok_compile "$c" -std=c11 "${warn[@]}" "${inc[@]}" "$here/posix_late.c"
		job "posix-late-pthread-$c" ok_compile "$c" -std=c11 -pthread "${warn[@]}" "${inc[@]}" "$here/posix_late.c"
		job "posix-hidden-other-$c" must_fail POSIX "$c" -std=c11 "${inc[@]}" "${not_linux[@]}" "$here/posix_late.c"
		# Controls: the same sources compile once the one problem is gone.
		job "posix-asked-other-$c" ok_compile "$c" -std=c11 "${warn[@]}" "${inc[@]}" "${not_linux[@]}" \
			-D_DEFAULT_SOURCE "$here/posix_late.c"
		# What an old _POSIX_C_SOURCE and -pthread show is the C library's choice: glibc hides the
		# clocks from _POSIX_C_SOURCE=1 and shows POSIX to -pthread (its _REENTRANT sets
		# _POSIX_C_SOURCE 199506L); musl shows everything to any _POSIX_C_SOURCE and nothing to
		# -pthread. rcu.h stops exactly where the declarations are hidden.
		if printf '#include <features.h>\n#ifndef __GLIBC__\n#error not glibc\n#endif\n' |
			"$(cc_path "$c")" -std=c11 -E -x c - >/dev/null 2>&1; then
			old_posix=(must_fail POSIX "$c" -std=c11) pthread_posix=(ok_compile "$c" -std=c11 "${warn[@]}")
		else
			old_posix=(ok_compile "$c" -std=c11 "${warn[@]}") pthread_posix=(must_fail POSIX "$c" -std=c11)
		fi
		job "posix-hidden-other-old-$c" "${old_posix[@]}" "${inc[@]}" "${not_linux[@]}" -D_POSIX_C_SOURCE=1 \
			"$here/posix_late.c"
		job "posix-pthread-other-$c" "${pthread_posix[@]}" -pthread "${inc[@]}" "${not_linux[@]}" "$here/posix_late.c"
		# The other feature macros rcu.h's sentence suggests are enough too.
		job "posix-c-source-$c" ok_compile "$c" -std=c11 "${warn[@]}" "${inc[@]}" -D_POSIX_C_SOURCE=200809L "$api"
		job "xopen-source-$c" ok_compile "$c" -std=c11 "${warn[@]}" "${inc[@]}" -D_XOPEN_SOURCE=700 "$api"
		job "selector-alone-$c" ok_compile "$c" -std=c11 "${warn[@]}" "${inc[@]}" "$here/selector_conflict.c"
		job "high-water-1-$c" ok_compile "$c" -std=c11 "${warn[@]}" "${inc[@]}" -DRCU_CALLBACK_HIGH_WATER=1 "$api"
		job "lfht-config-$c" ok_compile "$c" -std=c11 "${warn[@]}" "${inc[@]}" -D_GNU_SOURCE "$here/lfht_config.c"
	done
	;;
deref)
	for fl in "${flavours[@]}"; do
		job "deref-$fl" deref_case "$fl"
	done
	;;
strict)
	strict=(-Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wmissing-declarations -Wundef -Wconversion
		-Wsign-conversion -Wcast-qual -Wcast-align -Wredundant-decls -Wpointer-arith -Wwrite-strings
		-Wold-style-definition -Wvla -Wformat=2)
	for c in "${compilers[@]}"; do
		extra=()
		[ "$c" = clang ] && extra=(-Wmissing-variable-declarations)
		for fl in "${flavours[@]}"; do
			job "strict-$c-$fl" ok_compile "$c" -std=c11 "${warn[@]}" "${strict[@]}" "${extra[@]}" "${inc[@]}" -DRCU_FLAVOUR_$fl "$api"
			job "strict-$c-$fl-debug" ok_compile "$c" -std=c11 "${warn[@]}" "${strict[@]}" "${extra[@]}" "${inc[@]}" -DRCU_FLAVOUR_$fl -DRCU_DEBUG "$api"
		done
	done
	;;
config)
	lower() { echo "$1" | tr 'A-Z' 'a-z'; }
	# RCU_DEBUG (struct rcu_head's size) in every flavour and both orders.
	for fl in "${flavours[@]}"; do
		job "debug-unit-$(lower "$fl")" config_pair "$fl" RCU_DEBUG defined "not defined" "" "-DRCU_DEBUG"
		job "debug-main-$(lower "$fl")" config_pair "$fl" RCU_DEBUG "not defined" defined "-DRCU_DEBUG" ""
	done
	# Every other per-program macro, each in the next flavour of the list.
	# macro | the unit's flags | its value | the reference's flags | its value
	cases=(
		"RCU_DEBUG_DELAY|-DRCU_DEBUG_DELAY|defined||not defined"
		"RCU_NO_MEMBARRIER|-DRCU_NO_MEMBARRIER|defined||not defined"
		"RCU_NO_FUTEX|-DRCU_NO_FUTEX|defined||not defined"
		"RCU_C11_FENCES|-DRCU_C11_FENCES|defined||not defined"
		"RCU_CACHE_LINE|-DRCU_CACHE_LINE=256|256|-DRCU_CACHE_LINE=64|64"
		"RCU_SRCU_NESTING|-DRCU_SRCU_NESTING=8|8||4"
		"RCU_CALLBACK_HIGH_WATER|-DRCU_CALLBACK_HIGH_WATER=5|5||10000"
		"RCU_STALL_TIMEOUT_MS|-DRCU_STALL_TIMEOUT_MS=100|100||0"
		"RCU_SPIN_SCANS|-DRCU_SPIN_SCANS=7|7|-DRCU_SPIN_SCANS=9|9"
		"RCU_FREE(p)|-DCFG_CUSTOM_FREE|cfg_free(p)||free(p)"
		"RCU_MB_EXIT_FENCE|-DRCU_MB_EXIT_FENCE|defined||not defined"
	)
	k=0
	for c in "${cases[@]}"; do
		IFS='|' read -r macro uflags uval mflags mval <<<"$c"
		fl=${flavours[k % ${#flavours[@]}]}
		k=$((k + 1))
		tag=$(echo "$macro" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9\n' '-' | sed 's/-*$//')
		job "$tag-$(lower "$fl")" config_pair "$fl" "$macro" "$uval" "$mval" "$mflags" "$uflags"
	done
	# Per translation unit: units that differ in these share one state and run.
	for fl in "${flavours[@]}"; do
		job "same-$(lower "$fl")" config_pair "$fl" "" "" "" "" ""
		job "tls-model-$(lower "$fl")" config_pair "$fl" "" "" "" "" "-DCFG_TLS_GD"
		job "debug-dereference-$(lower "$fl")" config_pair "$fl" "" "" "" "-DRCU_DEBUG" "-DRCU_DEBUG -DRCU_DEBUG_DEREFERENCE"
		job "liburcu-names-$(lower "$fl")" config_pair "$fl" "" "" "" "" "-DRCU_LIBURCU_NAMES"
		job "kernel-names-$(lower "$fl")" config_pair "$fl" "" "" "" "-DRCU_KERNEL_NAMES" ""
	done
	# A plugin against its host: the abort happens in dlopen(); a matching plugin loads.
	fl=${flavours[0]}
	job "plugin-debug-$(lower "$fl")" config_plugin "$fl" RCU_DEBUG defined "not defined" "" "-DRCU_DEBUG"
	job "plugin-srcu-nesting-$(lower "$fl")" config_plugin "$fl" RCU_SRCU_NESTING 8 4 "" "-DRCU_SRCU_NESTING=8"
	job "plugin-same-$(lower "$fl")" config_plugin "$fl" "" "" "" "-DRCU_NO_FUTEX" "-DRCU_NO_FUTEX -DCFG_TLS_GD"
	;;
callback)
	for c in "${compilers[@]}"; do
		for k in NULL ZERO ZERO_L VOID_NULL SRCU_NULL; do
			job "null-constant-$c-$k" must_not_compile "callback null constant" "$c" -std=c11 "${inc[@]}" \
				-DRCU_FLAVOUR_${flavours[0]} -DCB_CONSTANT_$k "$here/callback.c"
		done
		# A constant cast to the callback's type: the value is known at compile time too.
		for v in 0 16 4095; do
			job "cast-constant-$c-$v" must_not_compile "callback constant 4096" "$c" -std=c11 "${inc[@]}" \
				-DRCU_FLAVOUR_${flavours[0]} -DCB_CONSTANT_CAST=$v "$here/callback.c"
		done
		# Control: the same file without the constant compiles cleanly.
		job "null-constant-$c-none" ok_compile "$c" -std=c11 "${warn[@]}" "${inc[@]}" -DRCU_FLAVOUR_${flavours[0]} "$here/callback.c"
	done
	for fl in "${flavours[@]}"; do
		job "run-$(echo "$fl" | tr 'A-Z' 'a-z')" callback_case "$fl" ""
		job "run-$(echo "$fl" | tr 'A-Z' 'a-z')-debug" callback_case "$fl" "-DRCU_DEBUG"
	done
	;;
lang)
	ow=(-O2 -Wall -Wextra -Wpedantic -Werror)
	lang_c="$here/lang.c"
	for c in "${compilers[@]}"; do
		for std in c11 c17 c2x gnu11; do
			for fl in "${flavours[@]}"; do
				job "lang-$c-$std-$fl" ok_compile "$c" -std=$std "${ow[@]}" "${inc[@]}" -DRCU_FLAVOUR_$fl "$lang_c"
			done
		done
		for fl in "${flavours[@]}"; do
			job "lang-$c-c11-$fl-debug" ok_compile "$c" -std=c11 "${ow[@]}" "${inc[@]}" -DRCU_FLAVOUR_$fl -DRCU_DEBUG "$lang_c"
			job "orders-$c-c-$fl" orders "$c" c -std=c11 -DRCU_FLAVOUR_$fl
			job "liburcu-names-$c-$fl" ok_compile "$c" -std=c11 "${ow[@]}" "${inc[@]}" -DRCU_FLAVOUR_$fl "$here/liburcu_names.c"
			job "kernel-names-$c-$fl" ok_compile "$c" -std=c11 "${ow[@]}" "${inc[@]}" -DRCU_FLAVOUR_$fl "$here/kernel_names.c"
			# Both name layers in one unit (issue #19): through rcu.h's macros, and through the
			# compat folders' headers in the other order.
			job "both-names-$c-$fl" ok_run "$c" -std=c11 "${ow[@]}" "${inc[@]}" -DRCU_FLAVOUR_$fl "$here/both_names.c"
			job "both-names-compat-$c-$fl" ok_run "$c" -std=c11 "${ow[@]}" "${inc[@]}" -I"${header:-$src}/compat/liburcu" \
				-I"${header:-$src}/compat/kernel" -DBOTH_NAMES_REVERSED -DRCU_FLAVOUR_$fl "$here/both_names.c"
		done
		job "reject-null-ok-$c" ok_compile "$c" -std=c11 "${ow[@]}" "${inc[@]}" -DCASE_OK "$here/reject_null_callback.c"
		# Every header of the compat folder alone (urcu/cds.h once the headers it gathers exist;
		# rcu_liburcu_names.h and rcu_kernel_names.h are rcu.h's, after it), and a second flavour
		# in one unit refused with the sentence that names the fix.
		if [ "$c" = gcc ]; then
			for h in $(compat_headers); do
				job "compat-header-$c-${h//\//_}" compat_header "$c" "$h" -std=c11 "${ow[@]}"
			done
		fi
		job "compat-second-flavour-$c" must_fail_any 'include <urcu-qsbr.h> before the other urcu headers' "$c" \
			-std=c11 -I"${header:-$src}/compat/liburcu" -include urcu.h -x c "${header:-$src}/compat/liburcu/urcu-qsbr.h"
		# The four flavour headers of liburcu in one unit (compat/liburcu/rcu_instance.h), each
		# flavour first once: no warning, also of the two that renamed and repeated declarations
		# would draw, and each an RCU of its own. gcc with RCU_DEBUG and RCU_DEBUG_DEREFERENCE in
		# every flavour; clang with and without them in turn. (The port suite builds and runs the
		# same program without RCU_DEBUG, gcc, in every flavour: port-liburcu_multiflavour-c-*.)
		for i in "${!flavours[@]}"; do
			fl=${flavours[$i]}
			dbg="-DRCU_DEBUG -DRCU_DEBUG_DEREFERENCE"
			[ "$c" = gcc ] || [ $((i % 2)) = 1 ] || dbg=
			# shellcheck disable=SC2086 # the debug flags are words
			job "compat-all-flavours-$c-$fl${dbg:+-debug}" ok_run "$c" -std=c11 "${ow[@]}" -Wredundant-decls -Wshadow \
				-I"${header:-$src}/compat/liburcu" -DRCU_FLAVOUR_$fl $dbg "$src/test/port/liburcu_multiflavour.c"
		done
		# A first header that names no flavour, then two flavour headers: MEMB is the first
		# flavour, by default; the prefixed names work, the unprefixed ones that would mean MEMB
		# do not compile.
		job "compat-unbound-flavour-$c" ok_run "$c" -std=c11 "${ow[@]}" -I"${header:-$src}/compat/liburcu" \
			"$here/unbound_flavour.c"
		for case in LFHT_NEW RCU_FLAVOR; do
			job "compat-unbound-flavour-$c-$case" must_fail_any 'no header named its first one' "$c" -std=c11 \
				-I"${header:-$src}/compat/liburcu" -DCASE_$case "$here/unbound_flavour.c"
		done
		for case in CALL_RCU_NULL CALL_RCU_ZERO CALL_SRCU_NULL; do
			job "reject-null-$c-$case" must_fail_any 'null pointer constant' "$c" -std=c11 "${inc[@]}" \
				-DCASE_$case "$here/reject_null_callback.c"
		done
	done
	cxxs=()
	[ -n "$gxx" ] && cxxs+=(g++)
	[ -n "$clangxx" ] && cxxs+=(clang++)
	for c in "${cxxs[@]}"; do
		fam=gcc
		[ "$c" = clang++ ] && fam=clang
		# Every standard in QSBR and MEMB (the read sides that differ most), C++17 in all four.
		for std in c++11 c++14 c++17 c++20 c++2b; do
			for fl in QSBR MEMB; do
				job "lang-$c-$std-$fl" ok_compile "$c" -x c++ -std=$std "${ow[@]}" "${inc[@]}" -DRCU_FLAVOUR_$fl "$lang_c"
			done
		done
		for fl in MB BP; do
			job "lang-$c-c++17-$fl" ok_compile "$c" -x c++ -std=c++17 "${ow[@]}" "${inc[@]}" -DRCU_FLAVOUR_$fl "$lang_c"
		done
		for fl in "${flavours[@]}"; do
			job "both-names-$c-c++17-$fl" ok_run "$c" -x c++ -std=c++17 "${ow[@]}" "${inc[@]}" -DRCU_FLAVOUR_$fl "$here/both_names.c"
			job "lang-$c-c++17-$fl-debug" ok_compile "$c" -x c++ -std=c++17 "${ow[@]}" "${inc[@]}" -DRCU_FLAVOUR_$fl -DRCU_DEBUG "$lang_c"
			job "orders-$fam-c++-$fl" orders "$fam" c++ -std=c++2b -DRCU_FLAVOUR_$fl
			job "const-init-$c-$fl" const_init "$c" no -std=c++17 -O2 "${inc[@]}" -DRCU_FLAVOUR_$fl
		done
		job "const-init-control-$c" const_init "$c" yes -std=c++17 -O2 "${inc[@]}" -DCONST_INIT_CONTROL
		# The warnings gate of test/cxx (built without -Werror by the suite): QSBR and MEMB, whose
		# read sides differ most.
		for fl in QSBR MEMB; do
			for e in cxx_config cxx_p2545; do
				job "cxx-examples-$c-$e-$fl" ok_compile "$c" -std=c++17 "${ow[@]}" "${inc[@]}" -DRCU_FLAVOUR_$fl \
					"$src/examples/$e.cpp"
			done
			for t in api pointers static_domain p2545; do
				job "cxx-tests-$c-$t-$fl" ok_compile "$c" -std=c++17 "${ow[@]}" "${inc[@]}" -D_GNU_SOURCE \
					-DRCU_FLAVOUR_$fl "$src/test/cxx/$t.cpp"
			done
		done
		for std in c++11 c++17 c++2b; do
			job "cxx-null-$c-$std" ok_compile "$c" -std=$std "${ow[@]}" "${inc[@]}" "$here/cxx_null.cpp"
			job "cxx-domain-unlock-$c-$std" ok_compile "$c" -std=$std "${ow[@]}" "${inc[@]}" "$here/cxx_domain_unlock.cpp"
		done
		job "reject-null-ok-$c" ok_compile "$c" -x c++ -std=c++17 "${ow[@]}" "${inc[@]}" -DCASE_OK "$here/reject_null_callback.c"
		# The two-unit program under -flto without a -Wodr warning: the further flavour QSBR beside
		# a first MB unit, and MB beside a first MEMB unit (multiflavour_units.c's two choices).
		if [ "$c" = g++ ]; then
			for fl in QSBR MB; do
				job "compat-flavour-units-lto-$c-$fl" lto_units "$c" "$fl"
			done
		fi
		# The four-flavour unit as C++ with RCU_DEBUG: the oldest standard with g++, the newest with
		# clang++ (the port suite builds it as C++17, g++, each flavour first).
		std="c++11"
		[ "$c" = clang++ ] && std="c++2b"
		job "compat-all-flavours-$c-$std" ok_run "$c" -x c++ -std=$std "${ow[@]}" -I"${header:-$src}/compat/liburcu" \
			-DRCU_FLAVOUR_QSBR -DRCU_DEBUG "$src/test/port/liburcu_multiflavour.c"
		if [ "$c" = g++ ]; then
			for h in $(compat_headers); do
				job "compat-header-$c-c++11-${h//\//_}" compat_header "$c" "$h" -x c++ -std=c++11 "${ow[@]}"
			done
		fi
		for case in CALL_RCU_NULL CALL_RCU_ZERO CALL_SRCU_NULL CALL_RCU_NULLPTR CALL_SRCU_NULLPTR; do
			job "reject-null-$c-$case" must_fail_any 'deleted|ambiguous|no matching|invalid conversion' "$c" \
				-x c++ -std=c++17 "${inc[@]}" -DCASE_$case "$here/reject_null_callback.c"
		done
		job "docs-cpp-$c" docs_cpp "$c" c++17 MEMB
		job "docs-cpp-$c-qsbr" docs_cpp "$c" c++17 QSBR
	done
	if [ -n "$gxx" ] && [ -n "$clangxx" ] && [ -n "$clang" ]; then
		for fl in "${flavours[@]}"; do
			job "run-mixed-compilers-$fl" run_mixed "$fl"
			extra=()
			case "$fl" in QSBR | MB) extra=(cxx) ;; esac # the C++ tests: the two read sides
			job "run-tests-clang-$fl" run_tests "$fl" "${extra[@]}"
		done
	fi
	;;
modes)
	modes_src="$here/modes.c"
	# The user's feature macros: none, then each (old values included).
	fsets=(none _POSIX_SOURCE _POSIX_C_SOURCE=1 _POSIX_C_SOURCE=2 _POSIX_C_SOURCE=199309L
		_POSIX_C_SOURCE=199506L _POSIX_C_SOURCE=200112L _POSIX_C_SOURCE=200809L _XOPEN_SOURCE
		_XOPEN_SOURCE=500 _XOPEN_SOURCE=600 _XOPEN_SOURCE=700 _GNU_SOURCE _DEFAULT_SOURCE)
	# g++ and clang++ define _GNU_SOURCE themselves (libstdc++ needs it), so a C++ user's macros
	# change less: a few, to keep the C++ part (the slow one) short.
	cxx_fsets=(none _POSIX_C_SOURCE=1)
	# Each combination in the next of these configurations (they reach different calls).
	configs=()
	for fl in "${flavours[@]}"; do configs+=("-DRCU_FLAVOUR_$fl"); done
	configs+=("-DRCU_FLAVOUR_${flavours[0]} -DRCU_DEBUG" "-DRCU_NO_FUTEX" "-DRCU_NO_MEMBARRIER")
	# Each compiler checks every combination of feature macros, -pthread and header order; the
	# standard rotates through them (offset by the macro set's position and the compiler), so that
	# every standard meets every macro set and every -pthread and order pair, with each compiler:
	# the standards differ in what they define (strict C's __STRICT_ANSI__, C++'s _GNU_SOURCE),
	# not in how they meet a feature macro. (Every standard with every combination was 528
	# compilations, four fifths of them repeats of one another: 268 s of CI's default step.)
	cstds=(c11 c17 c2x gnu11)
	cxxstds=(c++11 c++14 c++17 c++20 c++2b)
	ccs=()
	for c in "${compilers[@]}"; do ccs+=("$c"); done
	[ -n "$gxx" ] && ccs+=(g++)
	[ -n "$clangxx" ] && ccs+=(clang++)
	k=0 ci=0
	for c in "${ccs[@]}"; do
		x=() sets=("${fsets[@]}") stds=("${cstds[@]}")
		case $c in *++) x=(-x c++) sets=("${cxx_fsets[@]}") stds=("${cxxstds[@]}") ;; esac
		fi=0
		for fs in "${sets[@]}"; do
			fm=()
			[ "$fs" = none ] || fm=(-D"$fs")
			j=0
			for pt in nopthread pthread; do
				p=()
				[ "$pt" = pthread ] && p=(-pthread)
				for order in first after; do
					o=()
					[ "$order" = first ] && o=(-DMODES_SYSTEM_FIRST)
					std=${stds[(j + fi + 2 * ci) % ${#stds[@]}]}
					cfg=${configs[k % ${#configs[@]}]}
					k=$((k + 1)) j=$((j + 1))
					# shellcheck disable=SC2086 # cfg is words
					job "modes-$c-$std-$fs-$pt-$order" ok_syntax "$c" "${x[@]}" -std=$std "${warn[@]}" \
						"${inc[@]}" "${fm[@]}" "${p[@]}" "${o[@]}" $cfg "$modes_src"
				done
			done
			fi=$((fi + 1))
		done
		ci=$((ci + 1))
	done
	# Built, linked and run: the declarations rcu.h makes for what strict modes hide reach the C
	# library's functions (RCU_CHECK_STATE=1: the split-state scan, readlink() included).
	for c in "${compilers[@]}" ${gxx:+g++} ${clangxx:+clang++}; do
		std=c11 x=()
		case $c in *++) std=c++11 x=(-x c++) ;; esac
		for fl in "${flavours[@]}"; do
			job "modes-run-$c-$std-pthread-first-$fl" modes_run "$c" "${x[@]}" -std=$std -O2 "${warn[@]}" \
				"${inc[@]}" -pthread -DMODES_SYSTEM_FIRST -DRCU_FLAVOUR_$fl "$modes_src"
		done
		job "modes-run-$c-$std-posix1-first" modes_run "$c" "${x[@]}" -std=$std -O2 "${warn[@]}" \
			"${inc[@]}" -D_POSIX_C_SOURCE=1 -DMODES_SYSTEM_FIRST -DRCU_NO_FUTEX "$modes_src"
	done
	;;
*)
	echo "check.sh: unknown group $group" >&2
	exit 2
	;;
esac
wait

# The default flavour on Linux is MEMB: its state symbol is in the object.
if [ "$group" = api ] && [ -e "$out/default-flavour.ok" ] && ! nm "$out/default-flavour.o" | grep -qw "rcu__memb_v${abi}_state"; then
	echo "the default flavour's object does not define rcu__memb_v${abi}_state" >>"$out/default-flavour.log"
	rm -f "$out/default-flavour.ok"
fi

failed=0 xfailed=0
for n in "${names[@]}"; do
	known=false
	for x in $xfail; do [ "$x" = "$n" ] && known=true; done
	if [ ! -e "$out/$n.ok" ] && $known; then
		xfailed=$((xfailed + 1))
		echo "XFAIL $n (a known defect: see --expect-fail in test/compile/meson.build)"
		sed -n '1,6p' "$out/$n.log" | sed 's/^/    /'
	elif [ ! -e "$out/$n.ok" ]; then
		failed=$((failed + 1))
		echo "FAIL $n"
		sed -n '1,25p' "$out/$n.log" | sed 's/^/    /'
	elif $known; then
		failed=$((failed + 1))
		echo "XPASS $n: expected to fail but passes; take it off --expect-fail in test/compile/meson.build"
	fi
done
echo "compile/$group: $((${#names[@]} - failed - xfailed)) of ${#names[@]} checks passed, $xfailed expected to fail"
[ "$failed" -eq 0 ]
