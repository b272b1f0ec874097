#!/usr/bin/env bash
# The test suite: the README's test command.
#   scripts/test.sh            every test of every flavour that is not in the `slow` suite
#   scripts/test.sh --asan     the same under AddressSanitizer + UndefinedBehaviorSanitizer (not the
#                              compile, docs and size checks, which build with compilers and
#                              flags of their own: a sanitizer build cannot change them)
#   scripts/test.sh --tsan     the same under ThreadSanitizer
#   scripts/test.sh --slow     the long runs (torture, stress) as well
#   scripts/test.sh --musl     the same built against musl (musl-gcc, scripts/musl.ini), on
#                              test/runner.h, without the doc checks (they are the host's)
#   scripts/test.sh --genmc    GenMC on rcu.h itself (RC11 and IMM, 2 readers): verify/genmc/run.sh,
#                              then on rcu_lfht.h: verify/genmc/lfht.sh
#   scripts/test.sh --genmc-deep  the same with 3 readers (long)
#   scripts/test.sh --stress   the fork, callback, SRCU, registration and torture programs again and
#                              again under CPU load that the script starts itself (one spinning
#                              process per CPU), for STRESS_SECONDS (default 420) in all; any
#                              failure fails the run and prints that program's output
#   scripts/test.sh --liburcu  liburcu's own test programs built unchanged against rcu.h
#                              (-I compat/liburcu), liburcu itself as the control:
#                              scripts/liburcu-tests.sh (skipped when ../shared is absent)
#   scripts/test.sh --all      default, ASan+UBSan, TSan, musl, stress, the spin model, GenMC and
#                              liburcu's tests: what CI runs
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
# Meson prints its errors where its progress goes: keep both, and show them if it fails.
quietly() { local out; out=$("$@" 2>&1) || { printf '%s\n' "$out" >&2; return 1; }; }

# The closing line CI reads, counted from meson's log of this run.
summary() { # summary <build dir>
	python3 - "$1/meson-logs/testlog.json" "$1" <<'PY'
import json, re, sys
ok = bad = skip = 0
for line in open(sys.argv[1]):
    t = json.loads(line)
    r = t["result"]
    if r in ("OK", "EXPECTEDFAIL"): ok += 1
    elif r == "SKIP": skip += 1
    else:
        bad += 1
        # Again here, where the end of a long log shows it: what the failed program said about
        # its failures (CI keeps only the end of the output).
        out = ((t.get("stdout") or "") + (t.get("stderr") or "")).splitlines()
        said = [l for l in out if re.search(r"FAIL|\[----\]|Assertion|ERROR|Sanitizer|hung|signal", l)]
        print(f"== {sys.argv[2]}: {t['name']}: {r} after {t.get('duration', 0):.1f} s; it said:")
        for l in (said or out)[-40:]: print("   " + l)
        hung = [i for i, l in enumerate(out) if l.startswith("hung:")]
        if hung: # a forked child's threads, as test_child_alarm() printed them
            for l in out[hung[0]:hung[0] + 150]: print("   " + l)
print(f"{sys.argv[2]}: {ok} passed, {bad} failed, {skip} skipped")
PY
}

# After a failure: did the machine itself stop meanwhile? A virtual machine whose CPU the host
# did not run for tens of seconds (the kernel reports "workqueue lockup ... stuck for 38s!") fails
# timed liveness bounds that nothing in the project could meet; say so beside the failure.
host_stalls() { # host_stalls <uptime in seconds when the run began>
	dmesg 2>/dev/null | awk -v t0="$1" -F'[][]' '$2 + 0 >= t0 + 0 && /lockup|stall|hung_task/ {
		print "host: the kernel reported, " int($2 - t0) " s into this run: " $3 }' | head -5 || :
}

# Build only what the tests outside the excluded suites need (a sanitizer build has no use for the
# benchmarks, and musl cannot build bench/measure.c): build_for_tests <build dir> <suite>...
build_for_tests() {
	local dir=$1; shift
	local targets
	targets=$(meson introspect "$dir" --tests --targets | python3 -c '
import json, sys
skip = set(sys.argv[1:])
d = json.load(sys.stdin)
files = {t["id"]: t["filename"] for t in d["targets"]}
need = set()
for t in d["tests"]:
    if skip & set(s.split(":")[-1].split("+")[-1] for s in t["suite"]): continue
    for i in t.get("depends", []):
        for f in files.get(i, []): need.add(f)
print("\n".join(sorted(need)))' "$@")
	# shellcheck disable=SC2046,SC2086 # one target a word
	[ -z "$targets" ] || ninja -C "$dir" $(printf '%s\n' "$targets" | sed "s|^$PWD/$dir/||") --quiet
}

run() { # run <build dir> <suites to leave out...> -- <meson test args...> -- <meson setup args...>
	local dir=$1; shift
	local skip=() targs=() sargs=()
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do skip+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do targs+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	sargs=("$@")
	if [ ! -f "$dir/build.ninja" ]; then
		quietly meson setup "$dir" "${sargs[@]}"
	fi
	if [ "$dir" = build ]; then
		ninja -C "$dir" --quiet # the main job's build: everything, benchmarks included
	else
		build_for_tests "$dir" "${skip[@]}"
	fi
	local rc=0 sel=() up0
	for s in "${skip[@]}"; do sel+=(--no-suite "$s"); done
	up0=$(cut -d' ' -f1 /proc/uptime 2>/dev/null || echo 0)
	meson test -C "$dir" --no-rebuild --print-errorlogs "${sel[@]}" "${targs[@]}" || rc=$?
	summary "$dir"
	[ "$rc" = 0 ] || host_stalls "$up0"
	return $rc
}

# musl: build only what the selected tests need (bench/ has glibc-only code), then run them.
run_musl() {
	command -v musl-gcc >/dev/null || { echo "test.sh --musl: no musl-gcc (Debian: apt-get install musl-tools)" >&2; return 1; }
	run build-musl slow docs -- -- --native-file scripts/musl.ini
}

# Stress: what a busy user machine does to the racy tests. The programs of the build's topics
# below, in every flavour, round after round in a shuffled order, nproc at a time, beside nproc
# spinning processes, until STRESS_SECONDS have passed (a round that has started is finished).
# A failure is a defect to root-cause (docs/testing.md), never a flake: the run fails and shows it.
run_stress() { # run_stress <build dir>
	local dir budget=${STRESS_SECONDS:-420} jobs
	dir=$(cd "$1" 2>/dev/null && pwd) || { quietly meson setup "$1" && dir=$(cd "$1" && pwd); }
	jobs=$(nproc 2>/dev/null || echo 2)
	[ -f "$dir/build.ninja" ] || quietly meson setup "$dir"
	local topics="fork call_rcu polled registration srcu srcu_domains srcu_fork torture torture_delay"
	local progs=() t f
	for t in $topics; do
		for f in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' rcu_flavours/flavours.txt); do
			progs+=("test/$t-$f")
		done
	done
	ninja -C "$dir" --quiet "${progs[@]}"
	local out spin=() start now rounds=0 runs=0 failed=0
	out=$(mktemp -d)
	for _ in $(seq "$jobs"); do
		(exec yes >/dev/null) &
		spin+=($!)
	done
	# shellcheck disable=SC2064 # expand now: the pids are known
	# (set -e holds in the trap too: the spinners are usually reaped by then, so kill must not fail it)
	trap "kill ${spin[*]} 2>/dev/null || :; rm -rf '$out'" EXIT
	start=$(date +%s)
	local up0
	up0=$(cut -d' ' -f1 /proc/uptime 2>/dev/null || echo 0)
	while :; do
		now=$(date +%s)
		[ $((now - start)) -lt "$budget" ] || break
		rounds=$((rounds + 1))
		# shellcheck disable=SC2046 # one program a word
		printf '%s\n' $(printf '%s\n' "${progs[@]}" | shuf) |
			xargs -P "$jobs" -I{} sh -c 'n=$(echo "{}" | tr / _); \
				if ! timeout 300 "$1/{}" --jobs=1 >"$2/$n.$3.log" 2>&1; then echo "{}" >>"$2/failed"; \
				else rm -f "$2/$n.$3.log"; fi' sh "$dir" "$out" "$rounds"
		runs=$((runs + ${#progs[@]}))
	done
	kill "${spin[@]}" 2>/dev/null
	# A test's children that a timeout orphaned (the runners fork one per test) must not linger.
	pkill -KILL -f "^$dir/test/" 2>/dev/null || true
	now=$(date +%s)
	if [ -f "$out/failed" ]; then
		failed=$(wc -l <"$out/failed")
		for log in "$out"/*.log; do
			echo "== stress: $(basename "$log" .log) failed:"
			grep -E 'FAIL|\[----\] |Synthesis|assert|killed|signal|hung' "$log" | head -20
		done
	fi
	[ "$failed" = 0 ] || host_stalls "$up0"
	echo "stress: $runs runs of ${#progs[@]} programs ($rounds rounds) in $((now - start)) s beside $jobs spinning processes: $((runs - failed)) passed, $failed failed"
	[ "$failed" = 0 ]
}

# The sanitizer builds: -O1 -g1, half the compile time of -O2 -g, with the file and line a report
# prints (docs/testing.md, "Sanitizers"). A build directory set up before keeps its options.
sanitizer_build=(-Doptimization=1 -Ddebug=false -Dc_args=-g1 -Dcpp_args=-g1)

mode=${1:-default}
case "$mode" in
default) run build slow -- -- ;;
--slow) run build -- -- ;;
--asan) ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	run build-asan slow compile docs size -- --timeout-multiplier 3 -- \
	-Db_sanitize=address,undefined -Db_lundef=false "${sanitizer_build[@]}" ;;
--tsan) # TSan: the same suite. Criterion cannot start under TSan (its issue #274: "Could not
	# initialize inheritable arena"), so test/meson.build builds the tests against test/runner.h.
	# TSan sleeps atexit_sleep_ms (default 1000) before a process exits, so that threads still
	# running can show races with the exit: every test's child did, a second each, half of this
	# step's test time. 100 ms still lets the RCU worker and a test's leftovers run into the exit.
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:atexit_sleep_ms=100 RCU_TEST_TIMEOUT_SCALE=4 \
	run build-tsan slow compile docs size -- --timeout-multiplier 4 -- \
	-Db_sanitize=thread -Db_lundef=false "${sanitizer_build[@]}" ;;
--musl) run_musl ;;
--stress) run_stress build ;;
--genmc) verify/genmc/run.sh && exec verify/genmc/lfht.sh ;;
--liburcu) # 77 is its skip (no liburcu source beside the repository): not a failure.
	liburcu_rc=0
	scripts/liburcu-tests.sh || liburcu_rc=$?
	[ "$liburcu_rc" = 0 ] || [ "$liburcu_rc" = 77 ] || exit "$liburcu_rc" ;;
--genmc-deep) exec verify/genmc/run.sh --deep ;;
--all)
	# Each step says how long it took (CI's budget is 90 minutes for this and the main job).
	timed() { # timed <allowed exit statuses> -- <command...>
		local ok=() t0 rc=0
		while [ "$1" != "--" ]; do ok+=("$1"); shift; done
		shift
		t0=$(date +%s)
		"$@" || rc=$?
		echo "== test.sh --all: '$*' took $(($(date +%s) - t0)) s (exit status $rc)"
		for o in "${ok[@]}"; do [ "$rc" != "$o" ] || return 0; done
		exit "$rc"
	}
	timed 0 -- "$0"
	timed 0 -- "$0" --asan
	timed 0 -- "$0" --tsan
	timed 0 -- "$0" --musl
	timed 0 -- "$0" --stress
	if [ -x verify/spin/run.sh ]; then timed 0 -- verify/spin/run.sh; fi
	# GenMC: 77 is its skip (no GenMC and no ../shared to build it from); anything else fails.
	timed 0 77 -- verify/genmc/run.sh
	timed 0 77 -- verify/genmc/lfht.sh
	timed 0 -- "$0" --liburcu
	python3 - build build-asan build-tsan build-musl <<'PY'
import json, sys
ok = bad = skip = 0
for d in sys.argv[1:]:
    for line in open(d + "/meson-logs/testlog.json"):
        r = json.loads(line)["result"]
        if r in ("OK", "EXPECTEDFAIL"): ok += 1
        elif r == "SKIP": skip += 1
        else: bad += 1
print(f"all: {ok} passed, {bad} failed, {skip} skipped")
PY
	;;
*) echo "usage: $0 [--asan|--tsan|--musl|--slow|--stress|--genmc|--genmc-deep|--liburcu|--all]" >&2; exit 2 ;;
esac
