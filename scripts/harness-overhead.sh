#!/usr/bin/env bash
# Harness overhead and parallel speed-up of `bench run` (a benchmark, not a test).
#
#   scripts/harness-overhead.sh            # builds the release binary, prints the figures
#
# 1. The issue's workload: `bench gen --n 4 --moves 20 --count 1000` then
#    `bench run --algos astar,idastar,bfs` (3000 jobs), wall time of the run.
# 2. Heavier jobs: the 60 Korf instances (data/korf100.tsv) that IDA* + Manhattan
#    solves with the fewest nodes (~1.4e9 generated in all), idastar/manhattan with
#    --threads 1 and --threads 2: wall times, speed-up, and the summed per-job CPU time.
# Timings depend on what else runs on the machine; run it on a quiet one.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
BENCH="$PWD/target/release/bench"
DATA="${DATA:-$PWD/data}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

seconds() { # seconds COMMAND...: runs it, prints its wall time in seconds
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc -l | xargs printf '%.2f'
}
cpu_total_s() { # summed cpu_ms column of a results CSV, in seconds
    awk -F, 'NR==1 {for (i=1;i<=NF;i++) if ($i=="cpu_ms") c=i; next} {s+=$c} END {printf "%.2f", s/1000}' "$1"
}

echo "== 1000 4x4 instances at 20 moves, astar,idastar,bfs (defaults otherwise) =="
"$BENCH" gen --n 4 --moves 20 --count 1000 --seed 1 --out "$TMP/gen.txt" >/dev/null 2>&1
t=$(seconds "$BENCH" run --instances "$TMP/gen.txt" --algos astar,idastar,bfs --quiet --out "$TMP/gen.csv")
echo "wall ${t} s for $(($(wc -l <"$TMP/gen.csv") - 1)) jobs; summed job CPU $(cpu_total_s "$TMP/gen.csv") s"
for a in astar idastar bfs; do
    awk -F, -v a="$a" 'NR>1 && $8==a {n++; w+=$18; c+=$19} END {printf "  %-8s %4d jobs, summed wall %8.1f ms, summed cpu %8.1f ms\n", a, n, w, c}' "$TMP/gen.csv"
done

echo "== 60 easiest Korf instances, idastar manhattan, threads 1 vs 2 =="
{ head -1 "$DATA/korf100.tsv"; tail -n +2 "$DATA/korf100.tsv" | sort -t$'\t' -k3,3n | head -60; } >"$TMP/korf60.tsv"
t1=$(seconds "$BENCH" run --instances "$TMP/korf60.tsv" --threads 1 --quiet --out "$TMP/k1.csv")
t2=$(seconds "$BENCH" run --instances "$TMP/korf60.tsv" --threads 2 --quiet --out "$TMP/k2.csv")
echo "threads 1: wall ${t1} s (summed job CPU $(cpu_total_s "$TMP/k1.csv") s)"
echo "threads 2: wall ${t2} s (summed job CPU $(cpu_total_s "$TMP/k2.csv") s)"
echo "speed-up: $(echo "$t1 / $t2" | bc -l | xargs printf '%.2f')x"
