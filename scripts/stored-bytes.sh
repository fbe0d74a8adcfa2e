#!/usr/bin/env bash
# Bytes of heap per stored state (peak heap / peak stored states) by board size and algorithm,
# for the searches that store states (issue 27: stored states as compact as the size allows).
#
#   scripts/stored-bytes.sh            # prints a markdown table per pass on stdout
#   BENCH=/work/baseline/bench scripts/stored-bytes.sh   # the same with another binary
#
# Passes (PASSES, default "informed blind deep") over square boards of SIZES (default
# "4 5 6 7 8 9 10 11 12"), COUNT random walks per size (default 4, seed SEED): informed, the
# informed searches and bibfs on walks of MOVES moves (default 24, heuristic manhattan); blind,
# bfs and dijkstra on walks of BLIND_MOVES (default 12); deep, DEEP_ALGOS (default astar) on
# walks of DEEP_MOVES (default 60, DEEP_COUNT walks, default 2, --timeout DEEP_TIMEOUT, default
# 10s), where they store enough nodes (10^5 to 10^7) for the fixed costs to vanish; with
# DEEP_NODES=N also --max-nodes N, so that a job stopped by it stores the same states in any
# build (a timeout stops where the machine's speed says, and the figure moves with it). Every job: --threads 1,
# --timeout TIMEOUT (default 30s), --max-memory MAXMEM (default 4GiB). The figure is the mean
# of peak_heap_bytes / peak_stored_nodes over the solved jobs (deep: solved or timed out,
# where the tables are largest), then in brackets the jobs averaged and their mean peak stored
# states; `-` where there is none. OUT (default a temporary directory)
# keeps the instances and CSVs.
source "$(dirname "$0")/lib.sh"

SIZES=${SIZES:-4 5 6 7 8 9 10 11 12}
COUNT=${COUNT:-4}
SEED=${SEED:-27}
MOVES=${MOVES:-24}
BLIND_MOVES=${BLIND_MOVES:-12}
ALGOS=${ALGOS:-astar,bibfs,greedy,wastar:2}
DEEP_MOVES=${DEEP_MOVES:-60}
DEEP_ALGOS=${DEEP_ALGOS:-astar}
DEEP_NODES=${DEEP_NODES:-}
DEEP_COUNT=${DEEP_COUNT:-2}
DEEP_TIMEOUT=${DEEP_TIMEOUT:-10s}
PASSES=${PASSES:-informed blind deep}
BLIND_ALGOS=${BLIND_ALGOS:-bfs,dijkstra}
TIMEOUT=${TIMEOUT:-30s}
MAXMEM=${MAXMEM:-4GiB}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"

# pass NAME ALGOS MOVES COUNT TIMEOUT STATUSES: generates the walks, runs them, prints the
# table over the jobs that ended with one of STATUSES (comma-separated).
pass() {
  local name=$1 algos=$2 moves=$3 count=$4 timeout=$5 statuses=$6 files=() extra=()
  [ "$name" = deep ] && [ -n "$DEEP_NODES" ] && extra=(--max-nodes "$DEEP_NODES")
  for n in $SIZES; do
    local f="$OUT/$name-${n}x$n.txt"
    rm -f "$f"
    "$BENCH" gen --rows "$n" --cols "$n" --moves "$moves" --count "$count" \
      --seed "$((SEED * 100 + n))" --out "$f" 2>/dev/null
    files+=("$f")
  done
  local csv="$OUT/$name.csv"
  rm -f "$csv" "$csv.meta.json"
  "$BENCH" run --instances "${files[@]}" --algos "$algos" --heuristics manhattan \
    --timeout "$timeout" --max-memory "$MAXMEM" --threads 1 ${extra[@]+"${extra[@]}"} \
    --out "$csv" 2> "$OUT/$name.txt"
  echo "### $name: walks of $moves moves, $count per size, --timeout $timeout, jobs $statuses"
  echo
  python3 - "$csv" "$algos" "$statuses" <<'PY'
import csv, sys
from collections import defaultdict
path, algos, statuses = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
ratios = defaultdict(list)
stored = defaultdict(list)
sizes = []
for row in csv.DictReader(open(path)):
    size = f"{row['rows']}x{row['cols']}"
    if size not in sizes:
        sizes.append(size)
    if row["status"] not in statuses or int(row["peak_stored_nodes"] or 0) == 0:
        continue
    ratios[(size, row["algorithm"])].append(
        int(row["peak_heap_bytes"]) / int(row["peak_stored_nodes"]))
    stored[(size, row["algorithm"])].append(int(row["peak_stored_nodes"]))
print("| board | cells | " + " | ".join(algos) + " |")
print("| --- | ---: | " + " | ".join("---:" for _ in algos) + " |")
for s in sorted(sizes, key=lambda s: int(s.split("x")[0]) * int(s.split("x")[1])):
    r, c = map(int, s.split("x"))
    cells = []
    for a in algos:
        v = ratios.get((s, a))
        n = stored.get((s, a))
        cells.append(f"{sum(v) / len(v):.1f} ({len(v)}, {sum(n) / len(n):.2g})" if v else "-")
    print(f"| {s} | {r * c} | " + " | ".join(cells) + " |")
PY
  echo
}

echo "Binary: $BENCH; SEED=$SEED MAXMEM=$MAXMEM; (k, s) = jobs averaged, their mean peak stored states"
echo
for p in $PASSES; do
  case $p in
    informed) pass informed "$ALGOS" "$MOVES" "$COUNT" "$TIMEOUT" solved ;;
    blind) pass blind "$BLIND_ALGOS" "$BLIND_MOVES" "$COUNT" "$TIMEOUT" solved ;;
    deep) pass deep "$DEEP_ALGOS" "$DEEP_MOVES" "$DEEP_COUNT" "$DEEP_TIMEOUT" solved,timeout,node-limit ;;
  esac
done
