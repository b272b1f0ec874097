#!/usr/bin/env bash
# Install what the build, the tests and the benchmarks need (Debian; run as root). Idempotent:
# installs only what is missing, so a machine that has everything is not touched.
set -euo pipefail
want=(meson ninja-build pkg-config libcriterion-dev gcc g++ clang libclang-rt-dev musl-tools liburcu-dev libck-dev spin gnuplot-nox valgrind gdb universal-ctags)
missing=()
for p in "${want[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
