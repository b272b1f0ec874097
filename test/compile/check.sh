#!/usr/bin/env bash
# SPDX-License-Identifier: 0BSD
#
# test/compile/check.sh: compile checks of rcu.h, run by meson test (suite "compile").
#
#   check.sh --src ROOT --out DIR --gcc GCC [--clang CLANG] [--jobs N] GROUP
#
# Groups:
#   api     api.c (every public name) compiles with gcc and clang, -std=c11 and -std=c17,
#           -Wall -Wextra -Wpedantic -Werror, each flavour, with and without RCU_DEBUG; as -fPIC
#           shared objects that export the flavour's state; linked (a gcc and a clang object in
#           one program) and run; through the rcu_flavours/ selectors; with every configuration
#           macro; and the default flavour on Linux is MEMB.
#   reject  what rcu.h must refuse with an #error that names the problem: two flavours (each
#           pair, and a selector header plus another flavour), bad configuration values,
#           RCU_DEBUG_DEREFERENCE without RCU_DEBUG, POSIX declarations hidden by strict C.
#   deref   RCU_DEBUG_DEREFERENCE: rcu_dereference() outside a section aborts with its message;
#           inside a section (and without the macro) it does not.
#   strict  api.c under the warnings strict projects add (-Wmissing-prototypes, -Wshadow,
#           -Wconversion, -Wcast-qual, ...), which a header dropped into their tree must pass.
#
# Compilations run in parallel (--jobs, default: the number of CPUs). Exit 0 when all pass;
# otherwise each failure is printed with the compiler's or the program's output.
set -u

src= out= gcc= clang= jobs=$(nproc 2>/dev/null || echo 2)
while [ $# -gt 1 ]; do
	case "$1" in
	--src) src=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--gcc) gcc=$2; shift 2 ;;
	--clang) clang=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	*) break ;;
	esac
done
group=${1:?usage: check.sh --src ROOT --out DIR --gcc GCC [--clang CLANG] GROUP}
[ -n "$src" ] && [ -n "$out" ] && [ -n "$gcc" ] || { echo "check.sh: --src, --out and --gcc are needed" >&2; exit 2; }

here=$src/test/compile
rm -rf "$out"
mkdir -p "$out"
compilers=(gcc)
[ -n "$clang" ] && compilers+=(clang)
flavours=(QSBR MEMB MB BP)
warn=(-Wall -Wextra -Wpedantic -Werror)
inc=(-I"$src")

cc_path() { if [ "$1" = gcc ]; then echo "$gcc"; else echo "$clang"; fi; }

# Each job writes $out/<name>.log and, when it passes, $out/<name>.ok.
pass() { : >"$out/$1.ok"; }

# ok_compile NAME CC ARGS...: must compile (-c) cleanly.
ok_compile() {
	local name=$1 cc; cc=$(cc_path "$2"); shift 2
	"$cc" "$@" -c -o "$out/$name.o" >"$out/$name.log" 2>&1 && pass "$name"
}

# ok_shared NAME CC FLAVOUR ARGS...: -fPIC shared object that exports the flavour's state.
ok_shared() {
	local name=$1 cc fl=$3; cc=$(cc_path "$2"); shift 3
	local sym="rcu__$(echo "$fl" | tr 'A-Z' 'a-z')_v2_state"
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
	pairs=("QSBR MEMB" "QSBR MB" "QSBR BP" "MEMB MB" "MEMB BP" "MB BP")
	for c in "${compilers[@]}"; do
		for p in "${pairs[@]}"; do
			set -- $p
			job "two-flavours-$c-$1-$2" must_fail "$p" "$c" -std=c11 "${inc[@]}" -DRCU_FLAVOUR_$1 -DRCU_FLAVOUR_$2 "$api"
			job "two-flavours-$c-$2-$1" must_fail "$p" "$c" -std=c11 "${inc[@]}" -DRCU_FLAVOUR_$2 -DRCU_FLAVOUR_$1 "$api"
		done
		for fl in MEMB MB BP; do
			job "selector-plus-$c-$fl" must_fail "QSBR $fl" "$c" -std=c11 "${inc[@]}" -DRCU_FLAVOUR_$fl "$here/selector_conflict.c"
		done
		job "high-water-0-$c" must_fail RCU_CALLBACK_HIGH_WATER "$c" -std=c11 "${inc[@]}" -DRCU_CALLBACK_HIGH_WATER=0 "$api"
		job "stall-negative-$c" must_fail RCU_STALL_TIMEOUT_MS "$c" -std=c11 "${inc[@]}" -DRCU_STALL_TIMEOUT_MS=-1 "$api"
		job "deref-without-debug-$c" must_fail "RCU_DEBUG_DEREFERENCE RCU_DEBUG" "$c" -std=c11 "${inc[@]}" -DRCU_DEBUG_DEREFERENCE "$api"
		job "posix-hidden-$c" must_fail POSIX "$c" -std=c11 "${inc[@]}" "$here/posix_late.c"
		# Controls: the same sources compile once the one problem is gone.
		job "posix-asked-$c" ok_compile "$c" -std=c11 "${warn[@]}" "${inc[@]}" -D_DEFAULT_SOURCE "$here/posix_late.c"
		job "selector-alone-$c" ok_compile "$c" -std=c11 "${warn[@]}" "${inc[@]}" "$here/selector_conflict.c"
		job "high-water-1-$c" ok_compile "$c" -std=c11 "${warn[@]}" "${inc[@]}" -DRCU_CALLBACK_HIGH_WATER=1 "$api"
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
*)
	echo "check.sh: unknown group $group" >&2
	exit 2
	;;
esac
wait

# The default flavour on Linux is MEMB: its state symbol is in the object.
if [ "$group" = api ] && [ -e "$out/default-flavour.ok" ] && ! nm "$out/default-flavour.o" | grep -qw rcu__memb_v2_state; then
	echo "the default flavour's object does not define rcu__memb_v2_state" >>"$out/default-flavour.log"
	rm -f "$out/default-flavour.ok"
fi

failed=0
for n in "${names[@]}"; do
	if [ ! -e "$out/$n.ok" ]; then
		failed=$((failed + 1))
		echo "FAIL $n"
		sed -n '1,25p' "$out/$n.log" | sed 's/^/    /'
	fi
done
echo "compile/$group: $((${#names[@]} - failed)) of ${#names[@]} checks passed"
[ "$failed" -eq 0 ]
