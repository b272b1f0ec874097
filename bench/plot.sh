#!/bin/sh
# SPDX-License-Identifier: 0BSD
# bench/plot.sh: draw the PNGs of docs/benchmarks.md from rcu-bench's CSV.
#
#   bench/plot.sh [BUILD/bench/rcu-bench.csv] [OUTDIR]     (defaults: build/bench/rcu-bench.csv, docs)
#
# Writes OUTDIR/bench-read.png (read-side cost per flavour and peer, in an executable and in a
# shared object), OUTDIR/bench-scaling.png (total reads/s by reader threads) and
# OUTDIR/bench-sync.png (synchronize_rcu() latency: no readers, short readers, one long reader).
set -eu

csv=${1:-build/bench/rcu-bench.csv}
out=${2:-docs}
command -v gnuplot >/dev/null || { echo "plot.sh: gnuplot is not installed" >&2; exit 1; }
[ -r "$csv" ] || { echo "plot.sh: cannot read $csv (run rcu-bench first)" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

order="ours-qsbr liburcu-qsbr ours-memb liburcu-memb ours-mb liburcu-mb ours-bp liburcu-bp ck_epoch rwlock floor"

# One row per implementation: label, then median min max of each metric given (or "-").
table() {
	awk -F, -v order="$order" -v metrics="$1" '
		NR > 1 {
			id = $2 ($3 != "" ? "-" $3 : "")
			med[$1, id] = $5; lo[$1, id] = $6; hi[$1, id] = $7
		}
		END {
			n = split(order, ids, " "); m = split(metrics, ms, " ")
			for (i = 1; i <= n; i++) {
				line = ids[i]; any = 0
				for (j = 1; j <= m; j++) {
					k = ms[j] SUBSEP ids[i]
					if (k in med) { line = line " " med[k] " " lo[k] " " hi[k]; any = 1 }
					else line = line " - - -"
				}
				if (any) print line
			}
		}' "$csv"
}

table "read_ns read_so_ns" >"$tmp/read.dat"
table "sync_idle sync_short sync_long" >"$tmp/sync.dat"
threads=$(awk -F, 'NR > 1 && $1 ~ /^scale_t/ { t = substr($1, 8) + 0; if (t > m) m = t } END { print m + 0 }' "$csv")
: >"$tmp/scale.dat"
for id in $order; do
	awk -F, -v id="$id" '
		NR > 1 && $1 ~ /^scale_t/ && ($2 ($3 != "" ? "-" $3 : "")) == id {
			print substr($1, 8) + 0, $5, $6, $7
		}' "$csv" | sort -n >"$tmp/scale-$id.dat"
done
machine=$(awk -F'"' '/"machine"/ { print $4 }' "${csv%.csv}.json" 2>/dev/null || true)
date=$(awk -F'"' '/"date"/ { print $4 }' "${csv%.csv}.json" 2>/dev/null || true)
sub="${machine:-}${date:+, $date}"

gnuplot <<GP
set terminal pngcairo size 1000,560 font "sans,10" noenhanced
set datafile missing "-"
set grid ytics
set key top left

set output "$out/bench-read.png"
set title "Read-side section (lock + dereference + field read + unlock), 1 thread\n$sub; median of runs, bars: min-max"
set ylabel "ns per section (log scale)"
set logscale y
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set xtics rotate by -30 scale 0
set yrange [0.1:*]
plot "$tmp/read.dat" using 2:3:4:xtic(1) title "loop in the executable", \
     "" using 5:6:7 title "loop in a -fPIC shared object"

set output "$out/bench-sync.png"
set title "synchronize_rcu() latency\n$sub; median of runs, bars: min-max"
set ylabel "microseconds per call (log scale)"
set yrange [0.01:*]
plot "$tmp/sync.dat" using 2:3:4:xtic(1) title "no readers", \
     "" using 5:6:7 title "reader threads in short sections", \
     "" using 8:9:10 title "one reader in 1 ms sections (calls that began inside one)"

unset style
set style data linespoints
set output "$out/bench-scaling.png"
set title "Reader scaling: total read-side sections per second\n$sub; median of runs"
set xlabel "reader threads"
set ylabel "million sections per second (log scale)"
set xtics 1 norotate scale 1
set xrange [0.8:$threads + 0.2]
set yrange [*:*]
set key outside right
plot for [id in "$order"] "$tmp/scale-".id.".dat" using 1:2 with linespoints lw 2 title id
GP
echo "wrote $out/bench-read.png $out/bench-scaling.png $out/bench-sync.png"
