#!/usr/bin/env bash
# SPDX-License-Identifier: 0BSD
#
# test/queues/compile.sh: compile checks of the queue and stack headers (rcu_wfcqueue.h,
# rcu_wfstack.h, rcu_lfstack.h) and of their liburcu names (compat/liburcu/urcu/{wfcqueue,
# lfstack,wfstack,rculfqueue,rculfstack,wfqueue}.h). Run by meson test (suite `queues`).
#
#   compile.sh --src ROOT --out DIR --gcc GCC [--clang CLANG] [--gxx GXX] [--clangxx CLANGXX]
#
# Checks:
#   alone      each header alone in a translation unit, first: C11, C17 and C2x with gcc and
#              clang at -Wall -Wextra -Wpedantic -Werror plus the warnings strict projects add
#              (test/compile's `strict` list), without and with RCU_DEBUG and RCU_DEBUG_DELAY;
#              C++11, 14, 17, 20 and 23 with g++ (also -Wold-style-cast -Wuseless-cast) and
#              clang++; each compat header alone as C11 and C++17.
#   apart      the native headers do not include rcu.h, and rcu.h does not include them: a unit
#              that includes only rcu.h has none of their names (a user who does not include
#              them pays nothing).
#   together   rcu.h, the three headers and the six compat headers in one unit, in both orders.
#   deprecated the calls of urcu/wfqueue.h and urcu/rculfstack.h warn that the header is
#              deprecated, as liburcu's do, and do not once CDS_WFQ_DEPRECATED and
#              CDS_LFS_RCU_DEPRECATED are defined (empty) first.
# Exit 0 when every check passes; each failure is printed with the compiler's output.
set -u

src= out= gcc= clang= gxx= clangxx=
while [ $# -gt 1 ]; do
	case "$1" in
	--src) src=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--gcc) gcc=$2; shift 2 ;;
	--clang) clang=$2; shift 2 ;;
	--gxx) gxx=$2; shift 2 ;;
	--clangxx) clangxx=$2; shift 2 ;;
	*) break ;;
	esac
done
[ -n "$src" ] && [ -n "$out" ] && [ -n "$gcc" ] || { echo "compile.sh: --src, --out and --gcc are needed" >&2; exit 2; }
mkdir -p "$out"

headers=(rcu_wfcqueue.h rcu_wfstack.h rcu_lfstack.h)
compat=(wfcqueue lfstack wfstack rculfqueue rculfstack wfqueue)
warn=(-Wall -Wextra -Wpedantic -Werror)
strict=(-Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wmissing-declarations -Wundef -Wconversion
	-Wsign-conversion -Wcast-qual -Wcast-align -Wredundant-decls -Wpointer-arith -Wwrite-strings
	-Wold-style-definition -Wvla -Wformat=2)
inc=(-I"$src" -I"$src/compat/liburcu")
pass=0 fail=0 n=0

# check NAME EXPECT(ok|fail) [GREP] -- COMMAND...: run the compiler; EXPECT ok must compile,
# fail must not; GREP (if not empty) must appear in its output.
check() {
	local name=$1 expect=$2 grep=$3
	shift 4
	n=$((n + 1))
	local log="$out/$n.log"
	if "$@" >"$log" 2>&1; then got=ok; else got=fail; fi
	if [ "$got" = "$expect" ] && { [ -z "$grep" ] || grep -qF -- "$grep" "$log"; }; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $name (expected $expect${grep:+ with \"$grep\"}, got $got): $*"
		sed 's/^/    /' "$log" | head -20
	fi
}

unit() { # unit FILE LINE...: a source file of the given lines
	local f=$1
	shift
	printf '%s\n' "$@" >"$f"
}

# >>alone
for h in "${headers[@]}"; do
	unit "$out/alone-$h.c" "#include \"$h\"" "int queues_alone(void);" "int queues_alone(void) { return 0; }"
	cp "$out/alone-$h.c" "$out/alone-$h.cpp"
	for cc in "$gcc" ${clang:+"$clang"}; do
		extra=()
		case "$(basename "$cc")" in clang*) extra=(-Wmissing-variable-declarations) ;; esac
		for std in c11 c17 c2x; do
			for cfg in "" -DRCU_DEBUG -DRCU_DEBUG_DELAY "-DRCU_DEBUG -DRCU_DEBUG_DELAY"; do
				# shellcheck disable=SC2086
				check "alone $h $(basename "$cc") $std $cfg" ok "" -- "$cc" -std=$std "${warn[@]}" "${strict[@]}" \
					"${extra[@]}" $cfg "${inc[@]}" -c "$out/alone-$h.c" -o /dev/null
			done
		done
	done
	for cxx in ${gxx:+"$gxx"} ${clangxx:+"$clangxx"}; do
		extra=()
		case "$(basename "$cxx")" in g++*) extra=(-Wold-style-cast -Wuseless-cast) ;; esac
		for std in c++11 c++14 c++17 c++20 c++2b; do
			check "alone $h $(basename "$cxx") $std" ok "" -- "$cxx" -std=$std "${warn[@]}" "${extra[@]}" \
				-DRCU_DEBUG -DRCU_DEBUG_DELAY "${inc[@]}" -c "$out/alone-$h.cpp" -o /dev/null
			check "alone $h $(basename "$cxx") $std release" ok "" -- "$cxx" -std=$std "${warn[@]}" "${extra[@]}" \
				"${inc[@]}" -c "$out/alone-$h.cpp" -o /dev/null
		done
	done
done
for c in "${compat[@]}"; do
	unit "$out/compat-$c.c" "#include <urcu/$c.h>" "int compat_alone(void);" "int compat_alone(void) { return 0; }"
	cp "$out/compat-$c.c" "$out/compat-$c.cpp"
	check "compat $c gcc c11" ok "" -- "$gcc" -std=c11 "${warn[@]}" "${inc[@]}" -c "$out/compat-$c.c" -o /dev/null
	[ -n "$clang" ] && check "compat $c clang c11" ok "" -- "$clang" -std=c11 "${warn[@]}" "${inc[@]}" -c "$out/compat-$c.c" -o /dev/null
	for cxx in ${gxx:+"$gxx"} ${clangxx:+"$clangxx"}; do
		check "compat $c $(basename "$cxx") c++17" ok "" -- "$cxx" -std=c++17 "${warn[@]}" "${inc[@]}" -c "$out/compat-$c.cpp" -o /dev/null
	done
done

# >>apart
for h in "${headers[@]}"; do
	guard=$(echo "${h%.h}_H" | tr 'a-z' 'A-Z')
	unit "$out/apart-$h.c" "#include \"$h\"" "#ifdef RCU_H" "#error \"$h includes rcu.h\"" "#endif" "int queues_apart(void);" "int queues_apart(void) { return 0; }"
	check "apart: $h does not include rcu.h" ok "" -- "$gcc" -std=c11 "${warn[@]}" "${inc[@]}" -c "$out/apart-$h.c" -o /dev/null
	unit "$out/apart-rcu-$h.c" "#include \"rcu.h\"" "#ifdef $guard" "#error \"rcu.h includes $h\"" "#endif" \
		"int queues_apart(void);" "int queues_apart(void) { return 0; }"
	check "apart: rcu.h does not include $h" ok "" -- "$gcc" -std=c11 "${warn[@]}" "${inc[@]}" -c "$out/apart-rcu-$h.c" -o /dev/null
done
unit "$out/apart-names.c" "#include \"rcu.h\"" "int queues_apart(void);" "int queues_apart(void) { struct rcu_wfcq_node n; rcu_wfcq_node_init(&n); return 0; }"
check "apart: rcu.h alone has no rcu_wfcq_ name" fail "rcu_wfcq_node_init" -- "$gcc" -std=c11 "${warn[@]}" "${inc[@]}" -c "$out/apart-names.c" -o /dev/null

# >>together
all=("#include \"rcu.h\"")
for h in "${headers[@]}"; do all+=("#include \"$h\""); done
for c in "${compat[@]}"; do all+=("#include <urcu/$c.h>"); done
unit "$out/together.c" "#define CDS_WFQ_DEPRECATED" "#define CDS_LFS_RCU_DEPRECATED" "${all[@]}" "int queues_together(void);" "int queues_together(void) { return 0; }"
rev=()
for ((i = ${#all[@]} - 1; i >= 0; i--)); do rev+=("${all[i]}"); done
unit "$out/together-rev.c" "#define CDS_WFQ_DEPRECATED" "#define CDS_LFS_RCU_DEPRECATED" "${rev[@]}" "int queues_together(void);" "int queues_together(void) { return 0; }"
for f in together together-rev; do
	check "$f gcc" ok "" -- "$gcc" -std=c11 "${warn[@]}" "${strict[@]}" "${inc[@]}" -c "$out/$f.c" -o /dev/null
	[ -n "$clang" ] && check "$f clang" ok "" -- "$clang" -std=c11 "${warn[@]}" "${inc[@]}" -c "$out/$f.c" -o /dev/null
	cp "$out/$f.c" "$out/$f.cpp"
	[ -n "$gxx" ] && check "$f g++" ok "" -- "$gxx" -std=c++17 "${warn[@]}" "${inc[@]}" -c "$out/$f.cpp" -o /dev/null
done

# >>deprecated
unit "$out/dep-wfq.c" "#include <urcu/wfqueue.h>" "void use(struct cds_wfq_queue *q);" "void use(struct cds_wfq_queue *q) { cds_wfq_init(q); }"
check "deprecated: cds_wfq_init() warns" fail "urcu/wfqueue.h is deprecated. Please use urcu/wfcqueue.h instead." -- \
	"$gcc" -std=c11 "${warn[@]}" "${inc[@]}" -c "$out/dep-wfq.c" -o /dev/null
unit "$out/dep-wfq-quiet.c" "#define CDS_WFQ_DEPRECATED" "#include <urcu/wfqueue.h>" "void use(struct cds_wfq_queue *q);" "void use(struct cds_wfq_queue *q) { cds_wfq_init(q); }"
check "deprecated: silenced by CDS_WFQ_DEPRECATED" ok "" -- "$gcc" -std=c11 "${warn[@]}" "${inc[@]}" -c "$out/dep-wfq-quiet.c" -o /dev/null
unit "$out/dep-lfsr.c" "#include <urcu/rculfstack.h>" "int use(struct cds_lfs_stack_rcu *s, struct cds_lfs_node_rcu *n);" \
	"int use(struct cds_lfs_stack_rcu *s, struct cds_lfs_node_rcu *n) { return cds_lfs_push_rcu(s, n); }"
check "deprecated: cds_lfs_push_rcu() warns" fail "urcu/rculfstack.h is deprecated. Please use urcu/lfstack.h instead." -- \
	"$gcc" -std=c11 "${warn[@]}" "${inc[@]}" -c "$out/dep-lfsr.c" -o /dev/null
unit "$out/dep-lfsr-quiet.c" "#define CDS_LFS_RCU_DEPRECATED" "#include <urcu/rculfstack.h>" "int use(struct cds_lfs_stack_rcu *s, struct cds_lfs_node_rcu *n);" \
	"int use(struct cds_lfs_stack_rcu *s, struct cds_lfs_node_rcu *n) { return cds_lfs_push_rcu(s, n); }"
check "deprecated: silenced by CDS_LFS_RCU_DEPRECATED" ok "" -- "$gcc" -std=c11 "${warn[@]}" "${inc[@]}" -c "$out/dep-lfsr-quiet.c" -o /dev/null

echo "queues compile checks: $pass of $n passed, $fail failed"
[ "$fail" -eq 0 ]
