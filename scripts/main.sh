#!/usr/bin/env bash
# The main job: build everything, run the quick-start example and the benchmark summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null
echo "== examples/quickstart (flavour memb)"
build/examples/quickstart-memb
if [ -x build/bench/rcu-bench ]; then
	echo "== benchmark summary (quick: figures are medians of a few short runs; see docs/benchmarks.md)"
	build/bench/rcu-bench --quick "$@"
fi
