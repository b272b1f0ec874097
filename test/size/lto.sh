#!/usr/bin/env bash
# SPDX-License-Identifier: 0BSD
# test/size/lto.sh: a program whose units are built some with -flto and some without links and
# runs when its -flto units define RCU_NO_LINKONCE (docs/linking.md, "Code size").
#
#   lto.sh --src ROOT --cc CC --flavour NAME [--ldflags FLAGS]
#
# Without the macro GNU ld and gold keep the linkonce section of the unit built without -flto and
# bind the slow paths' symbols to the -flto unit's copy, whose section they discard: the link
# fails ("defined in discarded section", "undefined reference to rcu__<flavour>_v<N>_state").
# The script says whether that still happens (a fact about the toolchain, printed, not held), and
# fails unless the program with the macro links, in both orders of the objects, and runs.
set -euo pipefail
src='' cc=cc flavour='' ldflags=''
while [ $# -gt 0 ]; do
	case $1 in
	--src) src=$2; shift 2 ;;
	--cc) cc=$2; shift 2 ;;
	--flavour) flavour=$2; shift 2 ;;
	--ldflags) ldflags=$2; shift 2 ;;
	*) echo "lto.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ -n "$src" ] && [ -n "$flavour" ] || { echo "usage: lto.sh --src ROOT --cc CC --flavour NAME" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
FL=$(echo "$flavour" | tr 'a-z' 'A-Z')
read -r -a lf <<<"$ldflags"

# The -flto unit reads and waits for a grace period; the other queues a callback and runs main().
cat >"$out/lto_unit.c" <<'EOF'
#include "rcu.h"
int lto_unit(void);
int lto_unit(void)
{
	rcu_read_lock();
	rcu_read_unlock();
	synchronize_rcu();
	return 1;
}
EOF
cat >"$out/main.c" <<'EOF'
#include "rcu.h"
#include <stdio.h>
int lto_unit(void);
static int ran;
static void cb(struct rcu_head *h)
{
	(void)h;
	ran = 1;
}
int main(void)
{
	struct rcu_head h;
	rcu_register_thread();
	call_rcu(&h, cb);
	rcu_barrier();
	int r = lto_unit();
	rcu_quiescent_state();
	rcu_unregister_thread();
	return r == 1 && ran ? 0 : 1;
}
EOF
compile() { # compile SOURCE OBJECT FLAGS...
	"$cc" -std=c11 -O2 -pthread -DRCU_FLAVOUR_"$FL" -I"$src" "${@:3}" -c "$1" -o "$2"
}
link_run() { # link_run NAME OBJECTS...: 0 when it links and the program exits 0
	local name=$1
	shift
	"$cc" -O2 -flto -pthread "${lf[@]}" "$@" -o "$out/$name" >"$out/$name.log" 2>&1 && "$out/$name"
}

compile "$out/main.c" "$out/main.o"
compile "$out/lto_unit.c" "$out/lto_plain.o" -flto
compile "$out/lto_unit.c" "$out/lto_opt.o" -flto -DRCU_NO_LINKONCE
if link_run plain "$out/lto_plain.o" "$out/main.o"; then
	echo "lto.sh: without RCU_NO_LINKONCE the mixed program links and runs with this toolchain"
else
	echo "lto.sh: without RCU_NO_LINKONCE the mixed program does not link (as docs/linking.md says):"
	grep -m 2 -E 'discarded|undefined' "$out/plain.log" | sed 's/^/  /' || :
fi
status=0
for order in "lto_opt.o main.o" "main.o lto_opt.o"; do
	read -r -a objs <<<"$order"
	if link_run opt "${objs[@]/#/$out/}"; then
		echo "lto.sh: with RCU_NO_LINKONCE in the -flto unit: links and runs ($order)"
	else
		echo "lto.sh: FAIL: with RCU_NO_LINKONCE in the -flto unit ($order):" >&2
		sed 's/^/  /' "$out/opt.log" >&2
		status=1
	fi
done
exit $status
