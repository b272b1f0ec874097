#!/usr/bin/env bash
# SPDX-License-Identifier: 0BSD
# scripts/liburcu-new.sh: find the newest liburcu's source, build it once per machine, print its
# install prefix: the benchmark's second liburcu peer (scripts/main.sh passes the prefix to
# `meson setup -Dliburcu_new=`). liburcu is LGPL (its tests GPL): it is measured against, never
# part of rcu.h, and no file of it enters this repository.
#
#   scripts/liburcu-new.sh [SOURCE]
#   scripts/liburcu-new.sh --find     print the source it would build (exit 3 when there is none)
#
# The source is a userspace-rcu release tarball (*.tar.gz, *.tar.bz2) or an unpacked source tree
# (one with `bootstrap` or `configure`). Where it is looked for, first match wins:
#   1. SOURCE, or the environment variable RCU_LIBURCU_SRC;
#   2. beside the project: a userspace-rcu* tarball or tree in the directory that holds the
#      project's directory (the clone's parent);
#   3. in a sibling directory's peers/userspace-rcu/ (how a team's machines may keep peers next
#      to their clones).
# With none, it prints where it looked on stderr and exits 3; main.sh then measures without it.
# The build goes to RCU_LIBURCU_PREFIX (default: ~/.cache/rcu.h/<the source's name>), once: a
# prefix that holds liburcu already is printed at once. The first build takes minutes (autotools;
# 11 on a 2-CPU machine at a load average of 18); as root it installs autoconf, automake and
# libtool when they are missing.
# One line of progress goes to stderr, the build's own output to <prefix>.log; stdout is the
# prefix alone.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
parent=$(dirname "$root")

is_source() { # a tarball, or a tree that autotools can build
	case "$1" in
	*.tar.gz | *.tgz | *.tar.bz2) [ -f "$1" ] ;;
	*) [ -d "$1" ] && { [ -x "$1/bootstrap" ] || [ -x "$1/configure" ]; } ;;
	esac
}

find_only=false
if [ "${1:-}" = "--find" ]; then
	find_only=true
	shift
fi
src=${1:-${RCU_LIBURCU_SRC:-}}
if [ -z "$src" ]; then
	for c in "$parent"/userspace-rcu* "$parent"/*/peers/userspace-rcu/userspace-rcu*; do
		if is_source "$c"; then
			src=$c
			break
		fi
	done
fi
if [ -z "$src" ] || ! is_source "$src"; then
	{
		echo "liburcu-new.sh: no source of the newest liburcu${src:+ at $src}. Looked for:"
		echo "  RCU_LIBURCU_SRC (a userspace-rcu tarball or source tree)"
		echo "  $parent/userspace-rcu*.tar.gz or $parent/userspace-rcu*/ (beside the project)"
		echo "  $parent/*/peers/userspace-rcu/userspace-rcu*"
	} >&2
	exit 3
fi
src=$(cd "$(dirname "$src")" && pwd)/$(basename "$src")
if $find_only; then
	echo "$src"
	exit 0
fi
name=$(basename "$src")
name=${name%.tar.gz}
name=${name%.tgz}
name=${name%.tar.bz2}
prefix=${RCU_LIBURCU_PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/rcu.h/$name}

if [ -f "$prefix/lib/liburcu-memb.so" ] && [ -f "$prefix/include/urcu/urcu-memb.h" ]; then
	echo "$prefix"
	exit 0
fi

if [ "$(id -u)" = 0 ] && command -v dpkg-query >/dev/null; then
	missing=()
	for p in gcc make autoconf automake libtool; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		echo "liburcu-new.sh: installing ${missing[*]}" >&2
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq >&2
		apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
	fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -d "$src" ]; then
	cp -a "$src" "$work/src"
else
	mkdir "$work/src"
	tar -xf "$src" -C "$work/src" --strip-components=1
fi
mkdir -p "$(dirname "$prefix")"
log=$prefix.log
echo "liburcu-new.sh: building $name once (minutes; its output: $log)" >&2
if ! (
	cd "$work/src"
	[ -x configure ] || ./bootstrap
	./configure --prefix="$prefix" --disable-static
	make -j"$(nproc)"
	make install
) >"$log" 2>&1; then
	tail -n 20 "$log" >&2
	echo "liburcu-new.sh: the build failed (all of its output: $log)" >&2
	exit 1
fi
echo "$prefix"
