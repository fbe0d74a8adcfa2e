#!/usr/bin/env bash
# The 50 24-puzzle (5 x 5) instances of Korf & Taylor / Korf & Felner, solved optimally by
# parallel IDA* with duplicate-path pruning (`idastar-par-fsm`: every iteration split across
# all cores, Taylor & Korf's move automaton) and the 6-6-6-6 additive pattern databases plus
# reflection, one instance at a time, under a time limit.
#
#   scripts/korf24.sh [--timeout 10m] [--ids 1,5,17] [--algo idastar-par] [--out results/korf24.csv] [--resume]
#
# --algo picks another search (`idastar-par`: plain parallel IDA*, whose node counts compare
# with Korf & Felner's).
#
# Builds the four databases into the cache first (`bench pdb build`, about 3 minutes and
# 1.1 GB on 2 cores; cached for later runs), then runs the instances as ordinary `bench run`
# jobs (every solution is replayed on its start board before it is written) and prints one
# line per instance: status, length, generated nodes, wall time and nodes per second.
# The run can be interrupted and continued with --resume (same --out): finished instances
# are kept. Cache directory: $NPUZZLE_PDB_DIR or the default (see README).
set -euo pipefail
cd "$(dirname "$0")/.."

timeout=10m
ids=""
algo=idastar-par-fsm
out=results/korf24.csv
resume=()
while [ $# -gt 0 ]; do
  case $1 in
    --timeout) timeout=$2; shift 2 ;;
    --ids) ids=$2; shift 2 ;;
    --algo) algo=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --resume) resume=(--resume); shift ;;
    *) echo "usage: $0 [--timeout 10m] [--ids 1,5,17] [--algo A] [--out FILE] [--resume]" >&2; exit 2 ;;
  esac
done

data=data/korf24.tsv
source scripts/lib.sh

# The instance subset, as a file of its own (Korf's tsv layout: header, then id and tiles).
mkdir -p "$(dirname "$out")"
set_file="${out%.csv}.instances.tsv"
if [ -n "$ids" ]; then
  awk -F'\t' -v ids="$ids" 'BEGIN { n = split(ids, a, ","); for (i = 1; i <= n; i++) want[a[i]] = 1 }
    NR == 1 || ($1 in want)' "$data" > "$set_file"
else
  cp "$data" "$set_file"
fi
count=$(($(wc -l < "$set_file") - 1))
[ "$count" -gt 0 ] || { echo "no instance selected by --ids $ids" >&2; exit 2; }

echo "== pdb:6-6-6-6 (5 x 5, blank-first): build or load"
/usr/bin/time -f "   wall %e s, peak RSS %M KB" \
  "$BENCH" pdb build pdb:6-6-6-6 --size 5x5 --goal blank-first

echo "== $count instance(s), $algo + pdb:6-6-6-6, limit $timeout each, $(nproc) threads"
"$BENCH" run --instances "$set_file" --algos "$algo" --heuristics pdb:6-6-6-6 \
  --timeout "$timeout" --solutions --quiet --out "$out" "${resume[@]}"

echo "== per instance ($out)"
awk -F, '
  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  { rows[$col["instance_id"] + 0] = $0 }
  END {
    printf "%4s  %-8s %6s %18s %10s %12s\n", "id", "status", "moves", "generated", "wall s", "nodes/s"
    for (id = 1; id <= 50; id++) {
      if (!(id in rows)) continue
      split(rows[id], f, ",")
      w = f[col["wall_ms"]] / 1000
      g = f[col["nodes_generated"]]
      printf "%4d  %-8s %6s %18s %10.1f %12.3g\n", id, f[col["status"]], f[col["moves"]], g, w, (w > 0 ? g / w : 0)
      if (f[col["status"]] == "solved") { solved++; nodes += g; wall += w }
    }
    printf "solved %d of %d; solved ones: %.4g nodes, %.1f s in all\n", solved, NR - 1, nodes, wall
  }' "$out"
