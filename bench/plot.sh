#!/bin/sh
# SPDX-License-Identifier: 0BSD
# bench/plot.sh: draw the PNGs of docs/benchmarks.md from rcu-bench's CSV (and its JSON, for the
# machine, the date and the liburcu versions in the subtitles).
#
#   bench/plot.sh [BUILD/bench/rcu-bench.csv] [OUTDIR]     (defaults: build/bench/rcu-bench.csv, docs)
#
# Writes, into OUTDIR:
#   bench-read.png     read-side cost per flavour: ours, liburcu new, liburcu from the system,
#                      in an executable and in a -fPIC shared object; then the other peers
#   bench-scaling.png  total reads/s by reader threads, one line per implementation
#   bench-sync.png     synchronize_rcu() latency: no readers; p50 and p99 with a reader in short
#                      sections; one reader in 1 ms sections
#   bench-update.png   the update side: grace periods/s with 1 and 2 readers, updates/s with 2
#                      and 4 concurrent updaters
# Every series has its own colour and marker. Groups are told apart at a glance: rcu.h (ours) in
# blues and purple with solid lines, liburcu new in reds and oranges with dashed lines, the
# system's liburcu in greens with dotted lines, the other peers in brown, grey and black. In the
# bar charts the bars are grouped by flavour, ours first.
set -eu

csv=${1:-build/bench/rcu-bench.csv}
out=${2:-docs}
command -v gnuplot >/dev/null || { echo "plot.sh: gnuplot is not installed" >&2; exit 1; }
[ -r "$csv" ] || { echo "plot.sh: cannot read $csv (run rcu-bench first)" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The flavours, in the order rcu-bench measured them (the list of rcu_flavours/meson.build).
flavours=$(awk -F, 'NR > 1 && $2 == "ours" && $3 != "" && !seen[$3]++ { printf "%s ", $3 }' "$csv")
groups="ours liburcu-new liburcu-sys"
others="ck_epoch rwlock floor"

json=${csv%.csv}.json
jfield() { awk -F'"' -v k="$1" '$2 == k { print $4; exit }' "$json" 2>/dev/null || true; }
machine=$(jfield machine)
date=$(jfield date)
# The labels rcu-bench gave the liburcu groups ("liburcu new", "liburcu 0.13.2").
label() {
	l=$(awk -v g="$1" '/"name": "/ { split($0, a, "\""); if (a[4] == g) { n = split($0, b, "\"label\": \""); split(b[2], c, "\""); print c[1]; exit } }' "$json" 2>/dev/null || true)
	echo "${l:-$1}"
}
lab_new=$(label liburcu-new)
lab_sys=$(label liburcu-sys)
sub="${machine:-}${date:+, $date}"

# Colour and marker of each series: colour by group and flavour position, marker by flavour,
# dash type by group.
style() { # id -> "colour pointtype dashtype"
	id=$1
	case $id in
	ck_epoch) echo "#8c564b 3 4"; return ;;
	rwlock) echo "#7f7f7f 1 4"; return ;;
	floor) echo "#000000 2 4"; return ;;
	esac
	i=0
	for f in $flavours; do
		case $id in *-"$f") break ;; esac
		i=$((i + 1))
	done
	case $id in
	ours-*) set -- "#1f3b8f" "#1f77b4" "#17becf" "#6a3d9a" "#9ecae1" "#3f007d"; dt=1 ;;
	liburcu-new-*) set -- "#d62728" "#ff7f0e" "#e377c2" "#8c1a1a" "#fdae6b" "#f768a1"; dt=2 ;;
	*) set -- "#2ca02c" "#74c476" "#bcbd22" "#006d2c" "#c7e9c0" "#525200"; dt=3 ;;
	esac
	shift $((i % 6))
	pts="7 5 9 13 11 15"
	pt=$(echo $pts | cut -d' ' -f$((i % 6 + 1)))
	echo "$1 $pt $dt"
}

# One row per implementation, grouped by flavour (ours, new, sys), a blank row between groups,
# then the others: label colour, then median min max of each metric given (or "-").
table() {
	order=""
	for f in $flavours; do
		for g in $groups; do order="$order $g-$f"; done
		order="$order |"
	done
	order="$order $others"
	awk -F, -v order="$order" -v metrics="$1" '
		NR > 1 {
			id = $2 ($3 != "" ? "-" $3 : "")
			med[$1, id] = $5; lo[$1, id] = $6; hi[$1, id] = $7
		}
		END {
			n = split(order, ids, " "); m = split(metrics, ms, " ")
			for (i = 1; i <= n; i++) {
				if (ids[i] == "|") { if (printed) { print "\"\" " blank; printed = 0 } continue }
				line = ids[i]; any = 0; blank = ""
				for (j = 1; j <= m; j++) {
					k = ms[j] SUBSEP ids[i]
					blank = blank " - - -"
					if (k in med) { line = line " " med[k] " " lo[k] " " hi[k]; any = 1 }
					else line = line " - - -"
				}
				if (any) { print line; printed = 1 }
			}
		}' "$csv"
}

# Bar data: for each row i and metric k with a value, "k x median min max colour", where x places
# the bar in its row's cluster; the rows' labels as gnuplot xtics. $1: rows (from table), $2:
# number of metrics, $3: output prefix (writes $3.dat and $3.tics).
bardata() {
	while read -r id rest; do
		if [ "$id" = '""' ]; then
			echo "| $rest 0"
		else
			c=$(style "$id" | cut -d' ' -f1)
			echo "$id $rest $(printf '%d' "0x${c#\#}")"
		fi
	done <"$1" | awk -v nm="$2" -v dat="$3.dat" -v tics="$3.tics" '
		{
			if ($1 == "|") { x += 0.6; next }
			x += 1; w = 0.8 / nm
			for (k = 1; k <= nm; k++) {
				c = 3 * k - 1
				if ($c != "-")
					printf "%d %.3f %s %s %s %s\n", k, x + (k - (nm + 1) / 2) * w, $c, $(c + 1), $(c + 2), $NF >dat
			}
			t = t (t == "" ? "" : ", ") "\"" $1 "\" " x
		}
		END { print "set xtics (" t ")" >tics; printf "set xrange [0.3:%.1f]\n", x + 0.7 >>tics; printf "bw = %.3f\n", 0.8 / nm * 0.9 >>tics }'
}

table "read_ns read_so_ns" >"$tmp/read.rows"
table "sync_idle sync_r1_p50 sync_r1_p99 sync_long" >"$tmp/sync.rows"
table "upd_r1_u1_ups upd_r2_u1_ups upd_r1_u2_ups upd_r1_u4_ups" >"$tmp/update.rows"
bardata "$tmp/read.rows" 2 "$tmp/read"
bardata "$tmp/sync.rows" 4 "$tmp/sync"
bardata "$tmp/update.rows" 4 "$tmp/update"
threads=$(awk -F, 'NR > 1 && $1 ~ /^scale_t/ { t = substr($1, 8) + 0; if (t > m) m = t } END { print m + 0 }' "$csv")
plots=""
for g in $groups; do
	case $g in
	ours) head="rcu.h (ours)" ;;
	liburcu-new) head=$lab_new ;;
	*) head=$lab_sys ;;
	esac
	plots="$plots keyentry with lines lc rgb \"white\" title \"$head\","
	for f in $flavours; do
		id=$g-$f
		awk -F, -v id="$id" 'NR > 1 && $1 ~ /^scale_t/ && ($2 ($3 != "" ? "-" $3 : "")) == id { print substr($1, 8) + 0, $5 }' \
			"$csv" | sort -n >"$tmp/scale-$id.dat"
		[ -s "$tmp/scale-$id.dat" ] || continue
		set -- $(style "$id")
		plots="$plots \"$tmp/scale-$id.dat\" using 1:2 with linespoints lw 2 lc rgb \"$1\" pt $2 ps 1.3 dt $3 title \"$id\","
	done
done
plots="$plots keyentry with lines lc rgb \"white\" title \"others\","
for id in $others; do
	awk -F, -v id="$id" 'NR > 1 && $1 ~ /^scale_t/ && $2 == id { print substr($1, 8) + 0, $5 }' "$csv" | sort -n >"$tmp/scale-$id.dat"
	[ -s "$tmp/scale-$id.dat" ] || continue
	set -- $(style "$id")
	plots="$plots \"$tmp/scale-$id.dat\" using 1:2 with linespoints lw 2 lc rgb \"$1\" pt $2 ps 1.3 dt $3 title \"$id\","
done
plots=${plots%,}

# A clustered bar chart with min-max bars: $1 data prefix, $2 number of metrics, $3.. their
# titles. Bars take the implementation's colour; the metrics are told apart by fill pattern.
bars() {
	dat=$1.dat
	nm=$2
	shift 2
	cat "${dat%.dat}.tics"
	cmd="plot"
	for k in $(seq 1 "$nm"); do
		fill="fs solid 0.85 border -1"
		# pngcairo patterns: 4 and 5 the two diagonals, 1 a cross-hatch, 7 a dense diagonal
		[ "$k" -gt 1 ] && fill="fs pattern $(echo 0 4 5 1 7 6 | cut -d' ' -f$(( (k - 1) % 6 + 1))) border -1"
		cmd="$cmd \"$dat\" using (\$1 == $k ? \$2 : NaN):3:4:5:(bw):6 with boxerrorbars lc rgb variable $fill notitle,"
		cmd="$cmd keyentry with boxes lc rgb \"#606060\" $fill title \"$1\","
		shift
	done
	echo "${cmd%,}"
	echo "unset xrange"
}

# Each plot is drawn only when rcu-bench measured what it shows (--only may have left it out).
wrote=""
plot_bars() { # name prefix nmetrics title ylabel yrange titles...
	name=$1 prefix=$2 nm=$3 title=$4 ylabel=$5 yrange=$6
	shift 6
	if [ ! -s "$prefix.dat" ]; then
		echo "plot.sh: no figures for $name.png in $csv: not drawn" >&2
		return
	fi
	{
		echo "set output \"$out/$name.png\""
		printf 'set title "%s\\n%s; grouped by flavour: ours, %s, %s; median of runs, bars: min-max"\n' \
			"$title" "$sub" "$lab_new" "$lab_sys"
		echo "set ylabel \"$ylabel\""
		echo "set yrange $yrange"
		bars "$prefix" "$nm" "$@"
	} >>"$tmp/plot.gp"
	wrote="$wrote $out/$name.png"
}

cat >"$tmp/plot.gp" <<GP
set terminal pngcairo size 1200,620 font "sans,10" noenhanced
set datafile missing "-"
set grid ytics
set key outside top center horizontal
set xtics rotate by -40 scale 0
set logscale y
GP
plot_bars bench-read "$tmp/read" 2 "Read-side section (lock + dereference + field read + unlock), 1 thread" \
	"ns per section (log scale)" "[0.1:*]" "loop in the executable" "loop in a -fPIC shared object"
plot_bars bench-sync "$tmp/sync" 4 "synchronize_rcu() latency" "microseconds per call (log scale)" "[0.01:*]" \
	"no readers (mean)" "1 reader in short sections: p50" "1 reader in short sections: p99" \
	"1 reader in 1 ms sections (calls that began inside one)"
plot_bars bench-update "$tmp/update" 4 "The update side: replace + synchronize_rcu() + free in a loop" \
	"thousand updates (grace periods) per second (log scale)" "[*:*]" "1 updater, 1 reader" \
	"1 updater, 2 readers" "2 updaters, 1 reader" "4 updaters, 1 reader"
if [ "$threads" -gt 0 ]; then
	cat >>"$tmp/plot.gp" <<GP
set output "$out/bench-scaling.png"
set title "Reader scaling: total read-side sections per second\n$sub; median of runs"
set xlabel "reader threads"
set ylabel "million sections per second (log scale)"
set xtics 1 norotate scale 1
set xrange [0.8:$threads + 0.2]
set yrange [*:*]
set key outside right top vertical
plot $plots
GP
	wrote="$wrote $out/bench-scaling.png"
else
	echo "plot.sh: no figures for bench-scaling.png in $csv: not drawn" >&2
fi
gnuplot "$tmp/plot.gp"
echo "wrote${wrote:- nothing}"
