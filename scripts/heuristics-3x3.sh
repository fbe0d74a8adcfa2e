#!/usr/bin/env bash
# The textbook comparison of heuristics on the 8-puzzle (Russell & Norvig, "Artificial
# Intelligence: A Modern Approach", fig. 3.29 in the 3rd edition): A* and IDA* with misplaced
# tiles, Manhattan distance and linear conflict, mean nodes and b* per solution depth.
#
#   scripts/heuristics-3x3.sh            # writes results/heuristics-3x3.md and results/heuristics-3x3/
#
# Environment: SEED (default 1), PER (boards per generated set, default 100), OUT (default
# results/heuristics-3x3), BENCH (a built bench binary), THREADS (bench run --threads).
#
# `bench gen` makes boards by random walks of an exact length, not at an exact optimal depth,
# so the script generates walks of 2, 4, ..., 40 moves (PER each) plus 10 * PER uniformly random
# boards, solves them all, and groups the rows by the optimal solution length
# (`bench report --pivot depth`).
source "$(dirname "$0")/lib.sh"

SEED=${SEED:-1}
PER=${PER:-100}
OUT=${OUT:-results/heuristics-3x3}
mkdir -p "$OUT/instances" results

files=()
for m in $(seq 2 2 40); do
  f="$OUT/instances/walk$m.txt"
  "$BENCH" gen --n 3 --moves "$m" --count "$PER" --seed "$((SEED * 1000 + m))" --out "$f" 2>/dev/null
  files+=("$f")
done
f="$OUT/instances/uniform.txt"
"$BENCH" gen --n 3 --count "$((PER * 10))" --seed "$SEED" --out "$f" 2>/dev/null
files+=("$f")

csv="$OUT/results.csv"
rm -f "$csv" "$csv.meta.json"
"$BENCH" run --instances "${files[@]}" --algos astar,idastar \
  --heuristics misplaced,manhattan,linear-conflict --timeout 60s --seed "$SEED" \
  ${THREADS:+--threads "$THREADS"} --quiet --out "$csv"

"$BENCH" report "$csv" --by moves --format csv > "$OUT/by-depth.csv"
{
  echo "# Heuristics on the 8-puzzle by solution depth"
  echo
  echo "Reproduce: \`scripts/heuristics-3x3.sh\` (SEED=$SEED, PER=$PER): random walks of 2, 4, ..., 40"
  echo "moves ($PER boards each) and $((PER * 10)) uniformly random boards, grouped by optimal solution length."
  echo "\`instances\` = boards at that depth (every pair ran each once)."
  echo
  machine
  echo
  echo "## Mean nodes expanded, \`bench report --pivot depth --format markdown\`"
  echo
  "$BENCH" report "$csv" --pivot depth --format markdown 2>/dev/null
  echo
  echo "## Effective branching factor b*, \`bench report --pivot depth --pivot-value bstar --format markdown\`"
  echo
  "$BENCH" report "$csv" --pivot depth --pivot-value bstar --format markdown 2>/dev/null
  echo
  echo "## Linear conflict against Manhattan distance per instance, \`bench report --compare idastar/linear-conflict idastar/manhattan --format markdown\`"
  echo
  "$BENCH" report "$csv" --compare idastar/linear-conflict idastar/manhattan --format markdown 2>/dev/null
  echo
  echo "## Overall, \`bench report --baseline idastar/manhattan --format markdown\`"
  echo
  "$BENCH" report "$csv" --baseline idastar/manhattan --format markdown 2>/dev/null
  echo
  echo "All depths with every column: \`bench report $csv --by moves --columns all\` (also in"
  echo "$OUT/by-depth.csv). Figures: $OUT/plots/ (nodes_vs_length, time_cdf, memory_vs_length,"
  echo "bstar_by_depth; SVG and PDF)."
} > results/heuristics-3x3.md
"$BENCH" report "$csv" --plots "$OUT/plots" --plot-format svg,pdf > /dev/null 2>&1
echo "wrote results/heuristics-3x3.md"
