#!/usr/bin/env bash
# The cost of running a job as a process (issue 17's target: under 2 ms per job over 1,000
# jobs), and the limit targets, measured through `bench run` itself (a benchmark, not a test).
#
#   scripts/external-overhead.sh           # builds the release binary, prints the figures
#   N=5000 scripts/external-overhead.sh    # more jobs
#
# 1. Overhead: N 8-puzzles, one external solver that exits at once (`exit 0`: it reads
#    nothing and answers nothing, a wrong-answer row), --threads 1, with and without a
#    --max-memory (with one, a watchdog samples the group every 5 ms where no memory cgroup
#    can be made). Per job: the run's wall time / N, and the median and 90th percentile of
#    the rows' wall_ms (spawn to reaping); and, for scale, what bash needs to start the same
#    /bin/sh N times.
# 2. For scale: the same boards with the built-in idastar in-process and --isolate'd.
# 3. Limits: a solver that allocates without bound under --max-memory 256MiB, and one that
#    ignores SIGTERM under --timeout 1s: status, wall_ms, peak_rss_bytes.
# Timings depend on what else runs on the machine; run it on a quiet one.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
N="${N:-1000}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# run_wall CSV ARGS...: runs `bench run ARGS --out CSV`, prints the run's wall time in ms
# (from its summary line).
run_wall() {
  local csv=$1
  shift
  "$BENCH" run "$@" --out "$csv" --seed 1 2>&1 >/dev/null |
    sed -n 's/^run wall time \([0-9.]*\) \(m\?s\).*/\1 \2/p' |
    awk '{ if ($2 == "s") printf "%.1f", $1 * 1000; else printf "%.1f", $1 }'
}
# column_stats CSV COLUMN: median and 90th percentile of a numeric column.
column_stats() {
  awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
    { print $c }' "$1" | sort -g | awk '{ v[NR] = $1 } END {
      printf "median %.3f ms, p90 %.3f ms", v[int((NR + 1) / 2)], v[int(NR * 0.9)] }'
}
# cell CSV ALGORITHM COLUMN: the column of the first row of ALGORITHM.
cell() {
  python3 -c 'import csv, sys
print(next(r[sys.argv[3]] for r in csv.DictReader(open(sys.argv[1])) if r["algorithm"] == sys.argv[2]))' "$@"
}

machine
echo "- Jobs: $N 8-puzzles (bench gen --size 3x3 --count $N --seed 1), --threads 1"
"$BENCH" gen --size 3x3 --count "$N" --seed 1 --out "$TMP/eight.txt" >/dev/null 2>&1
"$BENCH" gen --size 3x3 --count 1 --seed 2 --out "$TMP/one.txt" >/dev/null 2>&1

echo
echo "== 1. a solver that exits at once =="
for mem in none 1GiB; do
  w=$(run_wall "$TMP/nop-$mem.csv" --instances "$TMP/eight.txt" --solver nop='exit 0' \
    --threads 1 --timeout 10s --max-memory "$mem")
  printf -- "- --max-memory %-5s: run %8.1f ms = %.3f ms/job; rows' wall_ms %s\n" "$mem" "$w" \
    "$(echo "$w / $N" | bc -l)" "$(column_stats "$TMP/nop-$mem.csv" wall_ms)"
done

t0=$(date +%s.%N)
for _ in $(seq "$N"); do /bin/sh -c 'exit 0' </dev/null; done
t1=$(date +%s.%N)
printf -- "- for scale, bash starting /bin/sh -c 'exit 0' %d times: %.3f ms each\n" "$N" \
  "$(echo "($t1 - $t0) * 1000 / $N" | bc -l)"

echo
echo "== 2. the built-in idastar/manhattan on the same boards =="
w=$(run_wall "$TMP/in.csv" --instances "$TMP/eight.txt" --algos idastar --threads 1 --timeout 10s)
printf -- "- in-process: run %8.1f ms = %.3f ms/job\n" "$w" "$(echo "$w / $N" | bc -l)"
w=$(run_wall "$TMP/iso.csv" --instances "$TMP/eight.txt" --algos idastar --threads 1 \
  --timeout 10s --isolate)
printf -- "- --isolate:  run %8.1f ms = %.3f ms/job; rows' wall_ms %s\n" "$w" \
  "$(echo "$w / $N" | bc -l)" "$(column_stats "$TMP/iso.csv" wall_ms)"
same=$(join -t, <(awk -F, 'NR>1 {print $3 "," $17 "," $18}' "$TMP/in.csv" | sort) \
  <(awk -F, 'NR>1 {print $3 "," $17 "," $18}' "$TMP/iso.csv" | sort) | wc -l)
echo "- rows with equal nodes_expanded and nodes_generated in both: $same of $N"

echo
echo "== 3. limits =="
"$BENCH" run --instances "$TMP/one.txt" --quiet --seed 1 --out "$TMP/limits.csv" \
  --max-memory 256MiB --timeout 1s \
  --solver eat="python3 -c 'x = []
while True: x.append(bytearray(1 << 20))'" \
  --solver deaf="trap '' TERM; while :; do sleep 0.05; done"
for a in eat deaf; do
  printf -- "- %-4s: status %s, wall_ms %s, peak_rss_bytes %s, message: %s\n" "$a" \
    "$(cell "$TMP/limits.csv" "$a" status)" "$(cell "$TMP/limits.csv" "$a" wall_ms)" \
    "$(cell "$TMP/limits.csv" "$a" peak_rss_bytes)" "$(cell "$TMP/limits.csv" "$a" message)"
done
