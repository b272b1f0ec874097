#!/usr/bin/env bash
# The main job: build everything, run the quick-start example and the benchmark summary.
#
#   scripts/main.sh            the example, then rcu-bench --quick (about a minute of benchmarks)
#   scripts/main.sh --smoke    the example, then one very short benchmark pass (CI runs this: it
#                              proves that every step works, its figures mean nothing)
#   scripts/main.sh ARGS...    anything else is passed on to rcu-bench (e.g. --only read)
#
# Every step must succeed: a missing program or a failing one stops the job with its status.
set -euo pipefail
cd "$(dirname "$0")/.."
smoke=false
if [ "${1:-}" = "--smoke" ]; then
	smoke=true
	shift
fi
scripts/deps.sh
# Meson prints its errors where its progress goes: keep both, and show them if it fails.
quietly() { local out; out=$("$@" 2>&1) || { printf '%s\n' "$out" >&2; return 1; }; }
# The benchmark's second liburcu peer, the newest liburcu, built once per machine from its source
# by scripts/liburcu-new.sh, which says where it looks (RCU_LIBURCU_SRC, or a userspace-rcu
# tarball or tree beside the project). Without it the benchmark says it is absent and carries on.
urcu_new=
if urcu_src=$(scripts/liburcu-new.sh --find 2>/dev/null); then
	echo "== the newest liburcu: $(basename "$urcu_src")"
	urcu_new=$(scripts/liburcu-new.sh "$urcu_src") ||
		{ echo "main.sh: building the newest liburcu failed: measuring without it" >&2; urcu_new=; }
else
	echo "== the newest liburcu: no source (RCU_LIBURCU_SRC, or a userspace-rcu tarball beside the project: README.md); measuring without it"
fi
if [ ! -f build/build.ninja ]; then
	quietly meson setup build -Dliburcu_new="$urcu_new"
else
	current=$(meson introspect build --buildoptions | python3 -c \
		'import json, sys; print(next((o["value"] for o in json.load(sys.stdin) if o["name"] == "liburcu_new"), ""))')
	[ "$current" = "$urcu_new" ] || quietly meson configure build -Dliburcu_new="$urcu_new"
fi
ninja -C build --quiet # compile errors show, progress lines do not
# The default flavour on Linux; the example is built once per flavour as example-<name>-<flavour>.
example=build/examples/example-quickstart-memb
echo "== examples/quickstart.c (flavour memb): publishes two greetings, reads the second"
"$example"
bench=build/bench/rcu-bench
[ -x "$bench" ] || { echo "main.sh: $bench was not built" >&2; exit 1; }
if $smoke; then
	echo "== benchmark smoke pass (one very short run of each measurement: checks that it runs, figures mean nothing)"
	"$bench" --quick --runs 1 --window-ms 2 --callbacks 2000 --out build/bench/smoke "$@"
else
	echo "== benchmark summary (quick: medians of a few short runs; docs/benchmarks.md has the full figures)"
	"$bench" --quick "$@"
fi
