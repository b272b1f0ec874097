#!/usr/bin/env bash
# SPDX-License-Identifier: 0BSD
#
# test/symbols/split.sh: runs one build shape's program (test/symbols/meson.build) and checks what
# rcu.h said about a split state, besides the program's own checks (its exit status).
#
#   split.sh report OBJECT_A OBJECT_B PROGRAM ARGS...   rcu.h must print its split-state sentence,
#                                                      naming both objects (their file names) and
#                                                      the fixes
#   split.sh silent PROGRAM ARGS...                    rcu.h must print no split-state sentence
#
# Whether rcu.h looks at all is the build's (RCU_DEBUG) and the environment's: RCU_CHECK_STATE,
# set to 1 or unset (rcu.h looks when it is set, to anything) as SPLIT_CHECK_STATE says (1 or
# unset; meson's test environment can set a variable but not unset one). The program's stderr is
# passed through for the test log.
set -u
expect=${1:?usage: split.sh report OBJECT_A OBJECT_B PROGRAM ARGS... | silent PROGRAM ARGS...}
shift
if [ "$expect" = report ]; then
	obj_a=$1 obj_b=$2
	shift 2
fi
case ${SPLIT_CHECK_STATE:-} in
1) export RCU_CHECK_STATE=1 ;;
unset) unset RCU_CHECK_STATE ;;
*) echo "split.sh: SPLIT_CHECK_STATE must be 1 or unset" >&2; exit 2 ;;
esac
err=$(mktemp)
trap 'rm -f "$err"' EXIT
"$@" 2>"$err"
rc=$?
cat "$err" >&2
[ "$rc" -eq 0 ] || { echo "split.sh: the program failed (exit status $rc)" >&2; exit 1; }
lines=$(grep -E "^rcu\.h: split state:" "$err")
case $expect in
silent)
	[ -z "$lines" ] || { echo "split.sh: rcu.h reported a split state where the shape has one state per flavour" >&2; exit 1; }
	;;
report)
	[ -n "$lines" ] || { echo "split.sh: rcu.h did not report the split state" >&2; exit 1; }
	re="^rcu\.h: split state: this process has 2 live copies of the [a-z]+ flavour's state, 0x[0-9a-f]+ in [^ ]+ and 0x[0-9a-f]+ in [^ ]+ \(set up now\)"
	printf '%s\n' "$lines" | grep -qE "$re" || { echo "split.sh: the sentence does not name two copies, their addresses and objects" >&2; exit 1; }
	for o in "$obj_a" "$obj_b"; do
		printf '%s\n' "$lines" | grep -qE " in [^ ]*/?$(basename "$o" | sed 's/[.]/[.]/g')( |$)" ||
			{ echo "split.sh: the sentence does not name $(basename "$o")" >&2; exit 1; }
	done
	for fix in "-rdynamic" "-Wl,--dynamic-list" "RTLD_GLOBAL" "docs/linking.md"; do
		printf '%s\n' "$lines" | grep -qF -- "$fix" || { echo "split.sh: the sentence does not give the fix $fix" >&2; exit 1; }
	done
	;;
*)
	echo "split.sh: expect report or silent, not $expect" >&2
	exit 2
	;;
esac
exit 0
