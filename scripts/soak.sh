#!/usr/bin/env bash
# scripts/soak.sh: the README's test command again and again, from a fresh clone, on a machine
# kept busy, until a run fails or the runs are done.
#
#   scripts/soak.sh [--runs N] [--musl] [--spinners K] [--fresh] [--out DIR]
#
# It clones the repository's committed HEAD (not the working tree) into DIR (default: a new
# temporary directory), starts K processes that spin (`yes > /dev/null`, default 2, as a user's
# other work would), and runs `scripts/test.sh` (with --musl: `scripts/test.sh --musl`) in the
# clone N times in a row (default 10). The first run builds; the others run every test again on
# the same build, as a user who runs the command twice does; with --fresh each run has a clone
# of its own, built from nothing. After each run it prints one line: the run's number, its
# summary line, how long it took and the load average when it ended. It stops at the first run
# that fails, prints where that run's whole output is, and exits 1; it exits 0 when N
# consecutive runs passed. A failure is a defect to root-cause (docs/testing.md), never a run
# to repeat until it passes.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
runs=10 musl='' spinners=2 fresh='' out=''
while [ $# -gt 0 ]; do
	case "$1" in
	--runs) runs=$2; shift 2 ;;
	--musl) musl=--musl; shift ;;
	--spinners) spinners=$2; shift 2 ;;
	--fresh) fresh=1; shift ;;
	--out) out=$2; shift 2 ;;
	*) echo "usage: $0 [--runs N] [--musl] [--spinners K] [--fresh] [--out DIR]" >&2; exit 2 ;;
	esac
done
case "$runs,$spinners" in
*[!0-9,]* | ,* | *, | 0,*) echo "soak.sh: --runs takes a number from 1, --spinners a number from 0" >&2; exit 2 ;;
esac
[ -n "$out" ] || out=$(mktemp -d)
mkdir -p "$out"
out=$(cd "$out" && pwd)
commit=$(git -C "$here" rev-parse HEAD)
libc=glibc
[ -z "$musl" ] || libc=musl

# The spinners die with this script, however it ends (setpriv's parent-death signal covers a
# SIGKILL of the script, which its EXIT trap cannot). An interrupted run (SIGINT, SIGTERM) takes
# its test.sh down with it and is not counted: it says so and exits 130.
spin=() running=
stop_spinners() { [ ${#spin[@]} = 0 ] || kill "${spin[@]}" 2>/dev/null || :; spin=(); }
interrupted() {
	[ -z "$running" ] || kill -TERM -- "-$running" 2>/dev/null || :
	echo "soak: interrupted${i:+ during run $i}; not a result"
	exit 130
}
trap stop_spinners EXIT
trap interrupted INT TERM
deathsig=()
command -v setpriv >/dev/null && deathsig=(setpriv --pdeathsig KILL)
for _ in $(seq "$spinners"); do
	(exec "${deathsig[@]}" yes >/dev/null) &
	spin+=($!)
done

clone() { # clone <directory>: a fresh clone of the commit under test
	rm -rf "$1"
	git clone -q "$here" "$1"
	git -C "$1" checkout -q "$commit"
}

echo "soak: $runs runs of 'scripts/test.sh${musl:+ $musl}' ($libc) of ${commit:0:12} in $out, beside $spinners spinning processes"
start=$(date +%s)
tree=$out/clone
[ -n "$fresh" ] || clone "$tree"
for i in $(seq "$runs"); do
	if [ -n "$fresh" ]; then tree=$out/clone-$i; clone "$tree"; fi
	log=$out/run-$i.log
	t0=$(date +%s)
	rc=0
	# In a session (and process group) of its own, so that an interruption can stop all of it.
	# shellcheck disable=SC2086 # $musl is one word or none
	(cd "$tree" && exec setsid -w scripts/test.sh $musl) >"$log" 2>&1 &
	running=$!
	wait "$running" || rc=$?
	running=
	t=$(($(date +%s) - t0))
	said=$(grep -E '^build(-musl)?: [0-9]+ passed' "$log" | tail -1 || :)
	echo "soak: run $i of $runs: ${said:-no summary line} (exit status $rc), $t s, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	if [ "$rc" != 0 ]; then
		echo "soak: run $i failed; its whole output: $log; what it said of its failures:"
		grep -E '^== |^   |FAIL|host:' "$log" | tail -60 || :
		echo "soak: $((i - 1)) consecutive runs passed before run $i failed ($(($(date +%s) - start)) s)"
		exit 1
	fi
	# A fresh clone per run: the last one is kept, the others' builds are only disk.
	if [ -n "$fresh" ] && [ "$i" -lt "$runs" ]; then rm -rf "$tree"; fi
done
echo "soak: $runs of $runs consecutive runs passed ($libc, ${commit:0:12}, $spinners spinning processes, $(($(date +%s) - start)) s)"
