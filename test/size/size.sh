#!/usr/bin/env bash
# SPDX-License-Identifier: 0BSD
# test/size/size.sh: a program pays for rcu.h's slow paths once, however many units include it
# (issue #22; docs/linking.md, "Code size").
#
#   size.sh --src ROOT --cc CC --flavour NAME [--std STD] [--cflags FLAGS] [--ldflags FLAGS]
#           [--limits READER,UPDATER] [--out DIR] [--report] [--no-limit]
#
# Builds programs of 1, 2, 8 and 64 translation units that include rcu.h with the flavour, and
# links them with CC (the system's default linker unless --ldflags says -fuse-ld=...). Two kinds
# of unit:
#   reader   a function with one rcu_read_lock()/rcu_dereference()/rcu_read_unlock() section;
#   updater  the same, plus synchronize_rcu(), call_rcu() and rcu_barrier().
# CC compiles C, or C++ when its name ends in ++ (then --std defaults to c++17). The flags are
# -O2 unless --cflags says otherwise; a user's build adds nothing for rcu.h, and nor does this.
# Each kind of unit is compiled once and copied 63 times with its own symbols renamed (objcopy
# --redefine-sym): the objects are those the compiler would give for 64 files that differ only
# in their names (but for the file name each unit's settings record carries: a few bytes).
# A unit's cost is what the program grows by per extra unit, (size(64) - size(1)) / 63, where
# size is the program's loaded bytes (`size`'s text + data columns: code, read-only data, unwind
# tables, initialised data; bss and thread-local bss take no room in the file). It fails when a
# reader unit costs more than 1024 bytes or an updater unit more than 2048 (--limits says other
# figures; --no-limit: never, for linkers that do not deduplicate: see docs/linking.md), and
# prints every figure; --report prints them as a Markdown table row.
set -euo pipefail
src='' cc=cc flavour='' out='' report=false limit=true std='' cflags=-O2 ldflags=''
limit_reader=1024 limit_updater=2048
while [ $# -gt 0 ]; do
	case $1 in
	--src) src=$2; shift 2 ;;
	--cc) cc=$2; shift 2 ;;
	--flavour) flavour=$2; shift 2 ;;
	--std) std=$2; shift 2 ;;
	--cflags) cflags=$2; shift 2 ;;
	--ldflags) ldflags=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--report) report=true; shift ;;
	--no-limit) limit=false; shift ;;
	--limits) limit_reader=${2%,*} limit_updater=${2#*,}; shift 2 ;;
	*) echo "size.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ -n "$src" ] && [ -n "$flavour" ] || { echo "usage: size.sh --src ROOT --cc CC --flavour NAME" >&2; exit 2; }
[ -n "$out" ] || { out=$(mktemp -d); trap 'rm -rf "$out"' EXIT; }
mkdir -p "$out"
FL=$(echo "$flavour" | tr 'a-z' 'A-Z')
ext=c
case $cc in *++) ext=cpp; [ -n "$std" ] || std=c++17 ;; *) [ -n "$std" ] || std=c11 ;; esac
read -r -a cf <<<"$cflags"
read -r -a lf <<<"$ldflags"
compile() { # compile SOURCE OBJECT [FLAG...]
	"$cc" -std="$std" "${cf[@]}" -DRCU_FLAVOUR_"$FL" -I"$src" "${@:3}" -c "$1" -o "$2"
}

unit() { # unit KIND: unit 0 of the kind
	cat <<'EOF'
#include "rcu.h"
struct node { int v; struct rcu_head rcu; };
extern struct node *shared_0;
struct node *shared_0;
int read_0(void);
int read_0(void)
{
	rcu_read_lock();
	struct node *p = rcu_dereference(shared_0);
	int v = p ? p->v : 0;
	rcu_read_unlock();
	return v;
}
EOF
	[ "$1" = updater ] || return 0
	cat <<'EOF'
static void free_node_0(struct rcu_head *h) { (void)h; }
void update_0(struct node *fresh);
void update_0(struct node *fresh)
{
	struct node *old = rcu_xchg_pointer(&shared_0, fresh);
	synchronize_rcu();
	if (old)
		call_rcu(&old->rcu, free_node_0);
	rcu_barrier();
}
EOF
}

main_unit() { # one main for every program: it calls the units that are linked (weak references)
	local i
	echo '#include "rcu.h"'
	echo 'struct node;'
	for ((i = 0; i < 64; i++)); do
		echo "EXTERN_C int read_$i(void) __attribute__((weak));"
		echo "EXTERN_C void update_$i(struct node *fresh) __attribute__((weak));"
	done
	echo 'int main(void)'
	echo '{'
	echo '	int s = 0;'
	echo '	rcu_register_thread();'
	for ((i = 0; i < 64; i++)); do
		echo "	if (read_$i)"
		echo "		s += read_$i();"
		echo "	if (update_$i)"
		echo "		update_$i((struct node *)0);"
	done
	echo '	rcu_unregister_thread();'
	echo '	return s;'
	echo '}'
}

loaded_size() { # bytes of text + data of a program
	size "$1" | awk 'NR == 2 { print $1 + $2 }'
}

# The relocations of OBJECT that reach into a .gnu.linkonce.t section other than their own by a
# section or local symbol: "source -> target symbol (its section)", one a line.
linkonce_refs() { # linkonce_refs OBJECT
	python3 - "$1" <<'PY'
import re, subprocess, sys
obj = sys.argv[1]
def readelf(*a):
    return subprocess.run(["readelf", "-W", *a, obj], check=True, capture_output=True, text=True).stdout
secs = {}
for m in re.finditer(r"^\s*\[\s*(\d+)\]\s+(\S+)", readelf("-S"), re.M):
    secs[m.group(1)] = m.group(2)
local = {}  # a local symbol's name -> the sections it is defined in
for line in readelf("-s").splitlines():
    f = line.split()
    if len(f) >= 8 and f[0].endswith(":") and f[4] == "LOCAL" and f[6].isdigit():
        local.setdefault(f[7], set()).add(secs.get(f[6], "?"))
bad = set()
src = None
for line in readelf("-r").splitlines():
    m = re.match(r"Relocation section '\.rela?(\S+)'", line)
    if m:
        src = m.group(1)
        continue
    f = line.split()
    if src is None or len(f) < 5 or re.search(r"eh_frame|debug", src):
        continue
    name = f[4]
    targets = {name} if name.startswith(".gnu.linkonce.t.") else local.get(name, set())
    for t in targets:
        if t.startswith(".gnu.linkonce.t.") and t != src:
            bad.add(f"{src} -> {name} ({t})")
print("\n".join(sorted(bad)))
PY
}

declare -A sz
main_unit >"$out/main.$ext"
compile "$out/main.$ext" "$out/main.o" -DEXTERN_C="$([ "$ext" = c ] || echo 'extern "C"')"
for kind in reader updater; do
	d="$out/$kind"
	mkdir -p "$d"
	unit "$kind" >"$d/u0.$ext"
	# C++ would mangle the names objcopy renames: give them C linkage.
	[ "$ext" = c ] || sed -i -e 's/^\(int read_\|void update_\)/extern "C" \1/' \
		-e 's/^extern struct node/extern "C" struct node/' "$d/u0.$ext"
	compile "$d/u0.$ext" "$d/u0.o"
	# Nothing outside a slow path's own section may point into it but through its global or
	# weak symbol (which binds to the copy the linker keeps): a jump table in .rodata, a local
	# clone (.isra, .part, .localalias) called from elsewhere, or another slow path's section
	# pointing at it by a local symbol would keep pointing into this unit's copy, and GNU ld
	# stops when it discards that section, if another unit's copy has another size (a C and a
	# C++ unit, other flags). Unwind and debug entries are dropped with it.
	bad=$(linkonce_refs "$d/u0.o")
	if [ -n "$bad" ]; then
		echo "size.sh: FAIL: in the $kind unit, sections other than a slow path's point into it:" >&2
		echo "$bad" >&2
		exit 1
	fi
	objs=("$d/u0.o")
	for ((i = 1; i < 64; i++)); do
		objcopy --redefine-sym read_0=read_$i --redefine-sym shared_0=shared_$i \
			--redefine-sym update_0=update_$i "$d/u0.o" "$d/u$i.o"
		objs+=("$d/u$i.o")
	done
	for n in 1 2 8 64; do
		"$cc" "${lf[@]}" -pthread -o "$d/prog$n" "$out/main.o" "${objs[@]:0:n}"
		"$d/prog$n" || { echo "size.sh: $kind program of $n units does not run" >&2; exit 1; }
		sz[$kind-$n]=$(loaded_size "$d/prog$n")
	done
done
fail=0
what="$flavour, $(basename "$cc") $cflags${ldflags:+ $ldflags}"
for kind in reader updater; do
	per=$(((sz[$kind-64] - sz[$kind-1]) / 63))
	max=$limit_reader
	[ "$kind" = reader ] || max=$limit_updater
	if $report; then
		echo "| $flavour | $(basename "$cc") $cflags${ldflags:+ $ldflags} | $kind | ${sz[$kind-1]} | ${sz[$kind-2]} | ${sz[$kind-8]} | ${sz[$kind-64]} | $per |"
		continue
	fi
	echo "size ($what): $kind units: 1 unit ${sz[$kind-1]} B, 2 units ${sz[$kind-2]} B, 8 units ${sz[$kind-8]} B, 64 units ${sz[$kind-64]} B: $per B per extra unit (at most $max)"
	if $limit && [ "$per" -gt "$max" ]; then
		echo "size.sh: FAIL: one more $kind unit costs $per bytes, more than $max" >&2
		fail=1
	fi
done
exit $fail
