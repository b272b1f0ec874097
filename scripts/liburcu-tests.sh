#!/usr/bin/env bash
# SPDX-License-Identifier: 0BSD
#
# scripts/liburcu-tests.sh: liburcu's own test programs, built without a change against rcu.h
# (one -I compat/liburcu) and, as the control in the same run, against liburcu itself.
#
#   scripts/liburcu-tests.sh [--full] [--out DIR] [--markdown FILE] [--only NAME...]
#
# What it does, each time:
#   1. extracts tests/ and src/ of liburcu's source tarball (../shared/peers/userspace-rcu beside
#      the repository) into the build folder (default build-liburcu-tests/): liburcu's code is
#      never part of this repository; it is used here, at test time, as a user would;
#   2. builds liburcu (the newest, once per machine: ../shared/peers/userspace-rcu/build.sh, which
#      prints its install prefix) for the control;
#   3. builds every program that tests/benchmark, tests/regression and tests/unit build (their
#      Makefile.am lists, the C and the C++ variants, the _dynlink ones), plus the programs of
#      tests/unit that liburcu ships but does not build, twice: against rcu.h (-I compat/liburcu,
#      no library) and against liburcu (-I and -l of its prefix). The same flags otherwise:
#      -O2 -g -pthread, the -I of liburcu's tests/ and src/ (its tests use src/'s internal
#      helpers), a config.h as liburcu's configure writes on Linux;
#   4. runs them as liburcu's CI does (`make check` and `make regtest`), with its scripts where
#      it has them: the unit tests and their .tap scripts; the regression .tap scripts: the fork
#      tests, and rcutorture in each flavour, C and C++, in each mode (perf, rperf, uperf, stress)
#      with the global call_rcu worker, and in C perf with per-CPU and per-thread workers (10 of
#      the 24 scripts per flavour; --full runs all 96, which repeat the same modes with the other
#      call_rcu worker set-ups: 56 runs more per implementation, 16 of them stress runs of 10 s
#      each); hashtable_1_seconds.tap's
#      runs; the benchmark programs of urcu_1_seconds.tap once each at its first point (2 readers,
#      2 updaters, 1 second; its full sweep is 691 runs); the other benchmark programs, which
#      liburcu's CI only builds, once each for 1 second, except test_barrier and the benchmark's
#      test_uatomic (fixed loops of two minutes each on a busy 2-CPU machine) and test_urcu_wfs
#      (it starts its enqueuers into tid_enqueuer[i], a stale index, and fails against liburcu
#      itself): built only;
#   5. prints the table program x flavour: builds, passes, for liburcu and for rcu.h.
#
# Exit status: 0 when every program that builds and passes against liburcu builds and passes
# against rcu.h, except the programs listed as pending below (each with its reason; a pending
# program that waits for a header of the compat folder stops being pending when the header is
# there). 77 (skipped) only when ../shared/peers/userspace-rcu is absent. 1 otherwise.
#
# --markdown FILE also writes the table as Markdown (docs/liburcu-tests.md holds the last one).
# --only NAME...  builds and runs only those programs (names as in the table), for quick checks.
# LIBURCU_PEER=DIR  liburcu's source directory, when it is not ../shared/peers/userspace-rcu.
set -u
# The whole script is one function, read in full before it runs: an edit of this file while it
# runs (it takes minutes) cannot change what the run does.
main() {
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/build-liburcu-tests
markdown=
full=0
only=()
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$2; shift 2 ;;
	--full) full=1; shift ;;
	--markdown) markdown=$2; shift 2 ;;
	--only) shift; only=("$@"); break ;;
	*) echo "usage: $0 [--full] [--out DIR] [--markdown FILE] [--only NAME...]" >&2; exit 2 ;;
	esac
done

# LIBURCU_PEER overrides where liburcu's source is (a worktree that is not beside ../shared).
peer=${LIBURCU_PEER:-$root/../shared/peers/userspace-rcu}
tarball=$(ls "$peer"/userspace-rcu-*.tar.gz 2>/dev/null | head -n 1)
if [ -z "$tarball" ]; then
	echo "liburcu-tests: skipped: no liburcu source beside the repository ($peer/userspace-rcu-*.tar.gz)"
	exit 77
fi
start=$(date +%s)
jobs=$(nproc 2>/dev/null || echo 2)

# The control: liburcu built from the same tarball (once per machine).
prefix=$("$peer/build.sh") || { echo "liburcu-tests: $peer/build.sh failed: no control" >&2; exit 1; }

# 1. liburcu's tests and src/, extracted afresh.
src=$out/src
rm -rf "$out"
mkdir -p "$src"
top=$(tar -tzf "$tarball" | head -n 1 | cut -d/ -f1)
tar -xzf "$tarball" -C "$src" --strip-components=1 "$top/tests" "$top/src" || exit 1
# Against rcu.h, a liburcu header that compat/liburcu lacks must not be found in the system's
# include directories (Debian's liburcu-dev may be installed): each is shadowed by one that stops
# the build with its name, searched after compat/liburcu.
mkdir -p "$out/missing"
(cd "$prefix/include" && find urcu.h urcu-*.h urcu -name '*.h') | while read -r h; do
	[ -f "$root/compat/liburcu/$h" ] && continue
	mkdir -p "$out/missing/$(dirname "$h")"
	echo "#error \"<$h> is not in compat/liburcu (the build would take the system's liburcu header)\"" >"$out/missing/$h"
done
# What liburcu's configure defines on Linux (AC_USE_SYSTEM_EXTENSIONS, AC_CHECK_FUNCS, ...).
cat >"$out/config.h" <<'EOF'
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#define HAVE_ATEXIT 1
#define HAVE_GETTID 1
#define HAVE_GETTIMEOFDAY 1
#define HAVE_MEMSET 1
#define HAVE_MUNMAP 1
#define HAVE_RAND_R 1
#define HAVE_SCHED_GETCPU 1
#define HAVE_SCHED_SETAFFINITY 1
#define HAVE_STRERROR 1
#define HAVE_STRTOUL 1
#define HAVE_SYSCONF 1
#define HAVE_LIMITS_H 1
#define HAVE_STDDEF_H 1
#define HAVE_SYS_PARAM_H 1
#define HAVE_SYS_TIME_H 1
EOF

# The programs. One line each: name | directory | language | sources | extra flags | liburcu's
# libraries (the control links them) | flavour | how it runs:
#   tap               run it; its TAP output must be complete and all "ok"
#   script FILE [ARGS]  liburcu's script FILE of the directory (TAP), which runs the program(s)
#   taps PREFIX       each of liburcu's .tap scripts PREFIX_*.tap of the directory, those ending
#                     in _cxx.tap for the C++ program, the others for the C one (TAP)
#   args ARGS         run it with ARGS; exit status 0
#   build             liburcu's CI builds it and runs it nowhere (and it needs input to run)
# Flavour: the RCU flavour the program uses (all: one of each in several units; "-": none).
programs() {
	local mf="test_urcu_multiflavor.c test_urcu_multiflavor-memb.c test_urcu_multiflavor-mb.c test_urcu_multiflavor-qsbr.c test_urcu_multiflavor-bp.c"
	local mfx="test_urcu_multiflavor_cxx.cpp test_urcu_multiflavor-memb_cxx.cpp test_urcu_multiflavor-mb_cxx.cpp test_urcu_multiflavor-qsbr_cxx.cpp test_urcu_multiflavor-bp_cxx.cpp"
	local all="urcu urcu-mb urcu-qsbr urcu-bp urcu-common"
	local b="args 2 2 1 -d 0 -b 32768" # urcu_1_seconds.tap's first point of its update-fraction sweep
	cat <<EOF
get_cpu_mask_from_sysfs|unit|c|get_cpu_mask_from_sysfs.c|||-|script test_get_cpu_mask_from_sysfs
get_cpu_mask_from_sysfs_cxx|unit|c++|get_cpu_mask_from_sysfs_cxx.cpp|||-|script test_get_cpu_mask_from_sysfs_cxx
get_max_cpuid_from_sysfs|unit|c|get_max_cpuid_from_sysfs.c|||-|script test_get_max_cpuid_from_sysfs
get_max_cpuid_from_sysfs_cxx|unit|c++|get_max_cpuid_from_sysfs_cxx.cpp|||-|script test_get_max_cpuid_from_sysfs_cxx
test_arch|unit|c|test_arch.c||urcu-common|-|tap
test_arch_cxx|unit|c++|test_arch_cxx.cpp||urcu-common|-|tap
test_get_max_cpuid_from_mask|unit|c|test_get_max_cpuid_from_mask.c|||-|tap
test_get_max_cpuid_from_mask_cxx|unit|c++|test_get_max_cpuid_from_mask_cxx.cpp|||-|tap
test_get_possible_cpus_array_len|unit|c|test_get_possible_cpus_array_len.c|||-|tap
test_get_possible_cpus_array_len_cxx|unit|c++|test_get_possible_cpus_array_len_cxx.cpp|||-|tap
test_uatomic|unit|c|test_uatomic.c||urcu-common|-|tap
test_uatomic_cxx|unit|c++|test_uatomic_cxx.cpp||urcu-common|-|tap
test_urcu_multiflavor|unit|c|$mf||$all|all|tap
test_urcu_multiflavor_cxx|unit|c++|$mfx||$all|all|tap
test_urcu_multiflavor_dynlink|unit|c|$mf|-DDYNAMIC_LINK_TEST|$all|all|tap
test_urcu_multiflavor_dynlink_cxx|unit|c++|$mfx|-DDYNAMIC_LINK_TEST|$all|all|tap
test_urcu_multiflavor_single_unit|unit|c|test_urcu_multiflavor_single_unit.c||$all|all|tap
test_urcu_multiflavor_single_unit_cxx|unit|c++|test_urcu_multiflavor_single_unit_cxx.cpp||$all|all|tap
test_urcu_multiflavor_single_unit_dynlink|unit|c|test_urcu_multiflavor_single_unit.c|-DDYNAMIC_LINK_TEST|$all|all|tap
test_urcu_multiflavor_single_unit_dynlink_cxx|unit|c++|test_urcu_multiflavor_single_unit_cxx.cpp|-DDYNAMIC_LINK_TEST|$all|all|tap
test_build|unit|c|test_build.c||urcu-common urcu-cds|all|tap
test_build_cxx|unit|c++|test_build_cxx.cpp||urcu-common urcu-cds|all|tap
test_build_dynlink|unit|c|test_build.c|-DDYNAMIC_LINK_TEST|urcu urcu-common urcu-cds|all|tap
test_build_dynlink_cxx|unit|c++|test_build_cxx.cpp|-DDYNAMIC_LINK_TEST|urcu urcu-common urcu-cds|all|tap
test_lfstack|unit|c|test_lfstack.c||urcu-common urcu-cds|-|tap
test_wfcqueue|unit|c|test_wfcqueue.c||urcu-common|-|tap
test_wfqueue|unit|c|test_wfqueue.c||urcu-common|-|tap
test_wfstack|unit|c|test_wfstack.c||urcu-common|-|tap
test_urcu_fork.tap|regression|c|test_urcu_fork.c||urcu urcu-common|memb|tap
test_urcu_fork_cxx.tap|regression|c++|test_urcu_fork_cxx.cpp||urcu urcu-common|memb|tap
rcutorture_urcu_membarrier|regression|c|urcutorture.c|-DRCU_MEMBARRIER|urcu urcu-common|memb|taps test_rcutorture_urcu_membarrier
rcutorture_urcu_membarrier_cxx|regression|c++|urcutorture_cxx.cpp|-DRCU_MEMBARRIER|urcu urcu-common|memb|taps test_rcutorture_urcu_membarrier
rcutorture_urcu_mb|regression|c|urcutorture.c|-DRCU_MB|urcu-mb urcu-common|mb|taps test_rcutorture_urcu_mb
rcutorture_urcu_mb_cxx|regression|c++|urcutorture_cxx.cpp|-DRCU_MB|urcu-mb urcu-common|mb|taps test_rcutorture_urcu_mb
rcutorture_urcu_qsbr|regression|c|urcutorture.c|-DTORTURE_QSBR -DRCU_QSBR|urcu-qsbr urcu-common|qsbr|taps test_rcutorture_urcu_qsbr
rcutorture_urcu_qsbr_cxx|regression|c++|urcutorture_cxx.cpp|-DTORTURE_QSBR -DRCU_QSBR|urcu-qsbr urcu-common|qsbr|taps test_rcutorture_urcu_qsbr
rcutorture_urcu_bp|regression|c|urcutorture.c|-DRCU_BP|urcu-bp urcu-common|bp|taps test_rcutorture_urcu_bp
rcutorture_urcu_bp_cxx|regression|c++|urcutorture_cxx.cpp|-DRCU_BP|urcu-bp urcu-common|bp|taps test_rcutorture_urcu_bp
test_urcu|benchmark|c|test_urcu.c common-states.c||urcu urcu-common|memb|$b
test_urcu_dynamic_link|benchmark|c|test_urcu.c common-states.c|-DDYNAMIC_LINK_TEST|urcu urcu-common|memb|args 2 2 1
test_urcu_timing|benchmark|c|test_urcu_timing.c common-states.c||urcu urcu-common|memb|args 2 2
test_urcu_yield|benchmark|c|test_urcu.c common-states.c ../common/debug-yield.c|-DDEBUG_YIELD|urcu urcu-common|memb|args 2 2 1 -r -w
test_urcu_mb|benchmark|c|test_urcu.c common-states.c|-DRCU_MB|urcu-mb urcu-common|mb|$b
test_urcu_qsbr|benchmark|c|test_urcu_qsbr.c common-states.c||urcu-qsbr urcu-common|qsbr|$b
test_urcu_qsbr_timing|benchmark|c|test_urcu_qsbr_timing.c common-states.c||urcu-qsbr urcu-common|qsbr|args 2 2
test_urcu_qsbr_dynamic_link|benchmark|c|test_urcu_qsbr.c common-states.c|-DDYNAMIC_LINK_TEST|urcu-qsbr urcu-common|qsbr|args 2 2 1
test_urcu_gc|benchmark|c|test_urcu_gc.c common-states.c||urcu urcu-common|memb|$b
test_urcu_lgc|benchmark|c|test_urcu_gc.c common-states.c|-DTEST_LOCAL_GC|urcu urcu-common|memb|$b
test_urcu_mb_gc|benchmark|c|test_urcu_gc.c common-states.c|-DRCU_MB|urcu-mb urcu-common|mb|$b
test_urcu_mb_lgc|benchmark|c|test_urcu_gc.c common-states.c|-DTEST_LOCAL_GC -DRCU_MB|urcu-mb urcu-common|mb|$b
test_urcu_qsbr_gc|benchmark|c|test_urcu_qsbr_gc.c common-states.c||urcu-qsbr urcu-common|qsbr|$b
test_urcu_qsbr_lgc|benchmark|c|test_urcu_qsbr_gc.c common-states.c|-DTEST_LOCAL_GC|urcu-qsbr urcu-common|qsbr|$b
test_urcu_defer|benchmark|c|test_urcu_defer.c common-states.c||urcu urcu-common|memb|args 2 2 1
test_urcu_assign|benchmark|c|test_urcu_assign.c common-states.c||urcu urcu-common|memb|args 2 2 1
test_urcu_assign_dynamic_link|benchmark|c|test_urcu_assign.c common-states.c|-DDYNAMIC_LINK_TEST|urcu urcu-common|memb|args 2 2 1
test_urcu_bp|benchmark|c|test_urcu_bp.c common-states.c||urcu-bp urcu-common|bp|args 2 2 1
test_urcu_bp_dynamic_link|benchmark|c|test_urcu_bp.c common-states.c|-DDYNAMIC_LINK_TEST|urcu-bp urcu-common|bp|args 2 2 1
test_rwlock|benchmark|c|test_rwlock.c common-states.c||urcu urcu-common|-|$b
test_rwlock_timing|benchmark|c|test_rwlock_timing.c common-states.c||urcu urcu-common|-|args 2 2
test_perthreadlock|benchmark|c|test_perthreadlock.c common-states.c||urcu urcu-common|-|$b
test_perthreadlock_timing|benchmark|c|test_perthreadlock_timing.c common-states.c||urcu urcu-common|-|args 2 2
test_mutex|benchmark|c|test_mutex.c common-states.c|||-|$b
test_looplen|benchmark|c|test_looplen.c common-states.c|||-|args
test_cycles_per_loop|benchmark|c|test_cycles_per_loop.c|||-|args
test_uatomic_bench|benchmark|c|test_uatomic.c|||-|build
test_barrier|benchmark|c|test_barrier.c|||-|build
test_urcu_lfq|benchmark|c|test_urcu_lfq.c common-states.c||urcu urcu-common urcu-cds|memb|args 2 2 1
test_urcu_lfq_dynlink|benchmark|c|test_urcu_lfq.c common-states.c|-DDYNAMIC_LINK_TEST|urcu urcu-common urcu-cds|memb|args 2 2 1
test_urcu_wfq|benchmark|c|test_urcu_wfq.c common-states.c||urcu urcu-common|memb|args 2 2 1
test_urcu_wfq_dynlink|benchmark|c|test_urcu_wfq.c common-states.c|-DDYNAMIC_LINK_TEST|urcu urcu-common|memb|args 2 2 1
test_urcu_wfcq|benchmark|c|test_urcu_wfcq.c common-states.c||urcu-common|-|args 2 2 1
test_urcu_wfcq_dynlink|benchmark|c|test_urcu_wfcq.c common-states.c|-DDYNAMIC_LINK_TEST|urcu-common|-|args 2 2 1
test_urcu_lfs|benchmark|c|test_urcu_lfs.c common-states.c||urcu urcu-common urcu-cds|memb|args 2 2 1
test_urcu_lfs_dynlink|benchmark|c|test_urcu_lfs.c common-states.c|-DDYNAMIC_LINK_TEST|urcu urcu-common urcu-cds|memb|args 2 2 1
test_urcu_lfs_rcu|benchmark|c|test_urcu_lfs_rcu.c common-states.c||urcu urcu-common urcu-cds|memb|args 2 2 1
test_urcu_lfs_rcu_dynlink|benchmark|c|test_urcu_lfs_rcu.c common-states.c|-DDYNAMIC_LINK_TEST|urcu urcu-common urcu-cds|memb|args 2 2 1
test_urcu_wfs|benchmark|c|test_urcu_wfs.c common-states.c||urcu-common|-|build
test_urcu_wfs_dynlink|benchmark|c|test_urcu_wfs.c common-states.c|-DDYNAMIC_LINK_TEST|urcu-common|-|build
test_urcu_hash|benchmark|c|test_urcu_hash.c test_urcu_hash_rw.c test_urcu_hash_unique.c common-states.c|-DRCU_QSBR|urcu-qsbr urcu-common urcu-cds|qsbr|script runhash.sh 1
EOF
}

# Programs that may fail against rcu.h for a known reason, until the work named is merged:
# name | header of compat/liburcu whose arrival ends the excuse ("-": none, the lead's list) | reason
# (none today: every program passes).
pending() {
	:
}

selected() { # selected NAME: in --only's list, or no list
	[ ${#only[@]} -eq 0 ] && return 0
	local n
	for n in "${only[@]}"; do [ "$n" = "$1" ] && return 0; done
	return 1
}

# 2. Build. impl: rcuh (compat/liburcu over rcu.h) or liburcu (the control).
impl_flags() { # impl_flags IMPL: include and link flags
	case "$1" in
	rcuh) echo "-I$root/compat/liburcu -I$out/missing" ;;
	liburcu) echo "-I$prefix/include" ;;
	esac
}
impl_libs() { # impl_libs IMPL LIBS...
	local impl=$1 l; shift
	[ "$impl" = liburcu ] || return 0
	printf -- '-L%s/lib -Wl,-rpath,%s/lib' "$prefix" "$prefix"
	for l in "$@"; do printf ' -l%s' "$l"; done
}
dir_flags() { # dir_flags DIR
	local f="-I$src/src -I$src/tests/common -I$src/tests/utils"
	[ "$1" = benchmark ] && f="$f -include $src/tests/benchmark/common-states.h"
	echo "$f"
}

build_one() { # build_one IMPL LINE: compile and link one program; its log holds the commands
	local impl=$1 line=$2 name dir lang srcs extra libs flavour run
	IFS='|' read -r name dir lang srcs extra libs flavour run <<<"$line"
	local bdir=$out/$impl/tests/$dir log=$out/$impl/log/$name.build.log
	local cc=gcc s files=()
	[ "$lang" = c++ ] && cc=g++
	for s in $srcs; do files+=("$src/tests/$dir/$s"); done
	# shellcheck disable=SC2046,SC2086 # flags are words
	{
		echo "+ $cc -O2 -g -pthread -include $out/config.h $(impl_flags "$impl") $(dir_flags "$dir") $extra ${files[*]} $out/$impl/tap.o -o $bdir/$name $(impl_libs "$impl" $libs)"
		$cc -O2 -g -pthread -include "$out/config.h" $(impl_flags "$impl") $(dir_flags "$dir") $extra "${files[@]}" \
			-x none "$out/$impl/tap.o" -o "$bdir/$name" $(impl_libs "$impl" $libs)
	} >"$log" 2>&1
	echo $? >"$out/$impl/log/$name.build.rc"
}

# TAP output complete and all "ok": the plan 1..N, N results, none "not ok". $1: the output file.
tap_ok() {
	awk '
		/^1\.\.[0-9]+/ { split($1, p, "\\.\\."); plan += p[2]; plans++ }
		/^ok/ { ok++ }
		/^not ok/ { bad++ }
		END { exit !(plans > 0 && bad == 0 && ok == plan) }' "$1"
}

run_one() { # run_one IMPL LINE: run one program as liburcu's CI does; records rc and a summary
	local impl=$1 line=$2 name dir lang srcs extra libs flavour run
	IFS='|' read -r name dir lang srcs extra libs flavour run <<<"$line"
	local bdir=$out/$impl/tests/$dir log=$out/$impl/log/$name.run.log rc=0 note=
	local env=(env URCU_TESTS_SRCDIR="$src/tests" URCU_TESTS_BUILDDIR="$out/$impl/tests" URCU_TESTS_OS_TYPE=linux)
	local t0; t0=$(date +%s)
	set -- $run
	case "$1" in
	build) note="built only (as liburcu's CI)"; : >"$log" ;;
	tap)
		(cd "$bdir" && timeout 300 "${env[@]}" "./$name") >"$log" 2>&1 || rc=$?
		[ "$rc" = 0 ] && ! tap_ok "$log" && rc=1 ;;
	script)
		local script=$src/tests/$dir/$2
		shift 2
		(cd "$bdir" && timeout 600 "${env[@]}" bash "$script" "$@") >"$log" 2>&1 || rc=$?
		[ "$rc" = 0 ] && ! tap_ok "$log" && rc=1 ;;
	taps)
		local t n=0 bad=0
		: >"$log"
		for t in "$src/tests/$dir/$2"_*.tap; do
			case "$t" in *_cxx.tap) [ "$lang" = c++ ] || continue ;; *) [ "$lang" = c ] || continue ;; esac
			case "$full $t" in 1*|*_global.tap|*_global_cxx.tap|*_perf_percpu.tap|*_perf_perthread.tap) ;; *) continue ;; esac
			n=$((n + 1))
			echo "### $(basename "$t")" >>"$log"
			local one=$out/$impl/log/$name.one
			if (cd "$bdir" && timeout 300 "${env[@]}" bash "$t") >"$one" 2>&1 && tap_ok "$one"; then :; else
				bad=$((bad + 1))
				echo "### FAILED: $(basename "$t")" >>"$log"
			fi
			cat "$one" >>"$log"
		done
		note="$((n - bad))/$n runs"
		[ "$n" -gt 0 ] && [ "$bad" = 0 ] || rc=1 ;;
	args)
		shift
		(cd "$bdir" && timeout 300 "./$name" "$@") >"$log" 2>&1 || rc=$? ;;
	esac
	# The checks planned (TAP "1..N", summed): rcu.h must run as many as liburcu does (test_uatomic
	# plans fewer when UATOMIC_HAS_ATOMIC_BYTE or _SHORT is missing, and still passes).
	awk '/^1\.\.[0-9]+/ { split($1, p, "\\.\\."); n += p[2] } END { print n + 0 }' "$log" >"$out/$impl/log/$name.plan"
	echo "$rc" >"$out/$impl/log/$name.run.rc"
	echo $(($(date +%s) - t0)) >"$out/$impl/log/$name.secs"
	echo "$note" >"$out/$impl/log/$name.note"
}

mapfile -t lines < <(programs)
sel=()
for l in "${lines[@]}"; do selected "${l%%|*}" && sel+=("$l"); done
[ ${#sel[@]} -gt 0 ] || { echo "liburcu-tests: no program named ${only[*]}" >&2; exit 2; }

for impl in liburcu rcuh; do
	mkdir -p "$out/$impl/log" "$out/$impl/tests/unit" "$out/$impl/tests/benchmark" "$out/$impl/tests/regression" \
		"$out/$impl/tests/utils"
	gcc -O2 -g -c -include "$out/config.h" -I"$src/tests/utils" "$src/tests/utils/tap.c" -o "$out/$impl/tap.o" || exit 1
done
echo "liburcu-tests: building ${#sel[@]} programs against liburcu ($prefix) and against rcu.h (compat/liburcu), $jobs at a time"
export -f build_one impl_flags impl_libs dir_flags
export out src root prefix
for impl in liburcu rcuh; do
	for l in "${sel[@]}"; do printf '%s\0%s\0' "$impl" "$l"; done
done | xargs -0 -n 2 -P "$jobs" bash -c 'build_one "$0" "$1"'
built=$(date +%s)

# 3. Run: the control and rcu.h side by side, each one program at a time. Most of these programs
# run for a set time (their durations, as liburcu's CI gives them), so two at once halve the wall
# time (4 min of CI's) and change nothing that is checked: they report pass or fail, and the
# figures they print are not compared here (bench/ does that, on a quiet machine).
echo "liburcu-tests: running (logs in $out/<liburcu|rcuh>/log)"
run_impl() { # run_impl IMPL: its programs, one at a time
	local l name
	for l in "${sel[@]}"; do
		name=${l%%|*}
		if [ "$(cat "$out/$1/log/$name.build.rc")" = 0 ]; then
			run_one "$1" "$l"
		fi
	done
}
run_impl liburcu &
run_impl rcuh
wait
ran=$(date +%s)

# 4. The table, and the verdict.
mapfile -t pend < <(pending)
pending_reason() { # pending_reason NAME: the reason, while it holds
	local p n hdr why
	for p in "${pend[@]}"; do
		IFS='|' read -r n hdr why <<<"$p"
		[ "$n" = "$1" ] || continue
		if [ "$hdr" = - ] || [ ! -f "$root/compat/liburcu/$hdr" ]; then
			echo "$why"
		fi
		return
	done
}
state() { # state IMPL NAME: "builds passes" words (rcu.h: also as many planned checks as liburcu)
	local b r
	b=$(cat "$out/$1/log/$2.build.rc" 2>/dev/null || echo 1)
	if [ "$b" != 0 ]; then echo "no -"; return; fi
	r=$(cat "$out/$1/log/$2.run.rc" 2>/dev/null || echo 1)
	if [ "$1" = rcuh ] && [ "$(cat "$out/rcuh/log/$2.plan" 2>/dev/null)" != "$(cat "$out/liburcu/log/$2.plan" 2>/dev/null)" ]; then
		r=1
	fi
	[ "$r" = 0 ] && echo "yes yes" || echo "yes no"
}
checks() { # checks IMPL NAME: the TAP checks planned, if any
	local n; n=$(cat "$out/$1/log/$2.plan" 2>/dev/null)
	case "$n" in ''|0) ;; 1) echo "1 check" ;; *) echo "$n checks" ;; esac
}
yn() { case "$1" in yes) echo yes ;; no) echo "**no**" ;; *) echo "$1" ;; esac; }
fail=0 n_ok=0 n_pend=0 n_ctl=0
table=$(
	echo "| program | flavour | liburcu: builds | liburcu: passes | rcu.h: builds | rcu.h: passes | note |"
	echo "| --- | --- | --- | --- | --- | --- | --- |"
	for l in "${sel[@]}"; do
		IFS='|' read -r name dir lang srcs extra libs flavour run <<<"$l"
		read -r lb lp <<<"$(state liburcu "$name")"
		read -r rb rp <<<"$(state rcuh "$name")"
		note=$(cat "$out/rcuh/log/$name.note" 2>/dev/null)
		lc=$(checks liburcu "$name") rc=$(checks rcuh "$name")
		if [ -n "$lc$rc" ] && [ "$rb" = yes ]; then
			note="${note:+$note; }${rc:-0 checks}$([ "$lc" = "$rc" ] || echo " (liburcu: ${lc:-0 checks})")"
		fi
		why=$(pending_reason "$name")
		if [ "$lb $lp" != "yes yes" ]; then
			note="control fails: not counted${note:+; $note}"
		elif [ "$rb $rp" = "yes yes" ]; then
			[ -n "$why" ] && note="${note:+$note; }passes although listed as pending: take it off the list"
		elif [ -n "$why" ]; then
			note="pending: $why${note:+; $note}"
		else
			note="FAILS${note:+; $note}"
		fi
		echo "| $name | $flavour | $(yn "$lb") | $(yn "$lp") | $(yn "$rb") | $(yn "$rp") | $note |"
	done
)
for l in "${sel[@]}"; do
	name=${l%%|*}
	[ "$(state liburcu "$name")" = "yes yes" ] || continue
	n_ctl=$((n_ctl + 1))
	if [ "$(state rcuh "$name")" = "yes yes" ]; then
		n_ok=$((n_ok + 1))
		[ -n "$(pending_reason "$name")" ] && fail=1 # listed as pending but passes: the list is stale
	elif [ -n "$(pending_reason "$name")" ]; then
		n_pend=$((n_pend + 1))
	else
		fail=1
	fi
done
end=$(date +%s)
summary="liburcu-tests: ${#sel[@]} programs; $n_ctl build and pass against liburcu; of those $n_ok build and pass against rcu.h, $n_pend pending, $((n_ctl - n_ok - n_pend)) failing. Build $((built - start)) s, runs $((ran - built)) s, total $((end - start)) s."
echo "$table"
echo "$summary"
if [ -n "$markdown" ]; then
	{
		echo "$table"
		echo
		echo "$summary"
	} >"$markdown"
fi
return $fail
}
main "$@"
exit $?
