#!/usr/bin/env bash
# Every heuristic the project has on one seeded 4 x 4 set, with IDA* and A*.
#
#   scripts/heuristics-4x4.sh            # writes results/heuristics-4x4.md and results/heuristics-4x4/
#
# Environment: SEED (default 1), PER (boards per walk length, default 10), WALKS (random-walk
# lengths, default "30 40 60 80"), HEURISTICS (default misplaced,manhattan,linear-conflict,
# walking-distance,pdb:6-6-3: every heuristic the project has; the database builds once per run),
# ALGOS (default idastar,astar), TIMEOUT (per job, default 5s), OUT, BENCH, THREADS.
# Uniformly random 15-puzzles take IDA* + Manhattan 10^8 nodes on average and misplaced tiles
# far more, so the set is random walks of known length; the limits hit are in the report.
source "$(dirname "$0")/lib.sh"

SEED=${SEED:-1}
PER=${PER:-10}
WALKS=${WALKS:-30 40 60 80}
HEURISTICS=${HEURISTICS:-misplaced,manhattan,linear-conflict,walking-distance,pdb:6-6-3}
ALGOS=${ALGOS:-idastar,astar}
TIMEOUT=${TIMEOUT:-5s}
OUT=${OUT:-results/heuristics-4x4}
mkdir -p "$OUT/instances" results

files=()
for m in $WALKS; do
  f="$OUT/instances/walk$m.txt"
  "$BENCH" gen --n 4 --moves "$m" --count "$PER" --seed "$((SEED * 1000 + m))" --out "$f" 2>/dev/null
  files+=("$f")
done

csv="$OUT/results.csv"
rm -f "$csv" "$csv.meta.json"
"$BENCH" run --instances "${files[@]}" --algos "$ALGOS" --heuristics "$HEURISTICS" \
  --timeout "$TIMEOUT" --seed "$SEED" ${THREADS:+--threads "$THREADS"} --quiet --out "$csv"

{
  echo "# Heuristics on the 15-puzzle (one seeded set of random walks)"
  echo
  echo "Reproduce: \`scripts/heuristics-4x4.sh\` (SEED=$SEED, PER=$PER, WALKS=\"$WALKS\", TIMEOUT=$TIMEOUT,"
  echo "ALGOS=$ALGOS, HEURISTICS=$HEURISTICS). Statistics are over solved runs; runs stopped by a limit are the gap in `solved` (`--columns all` counts them by kind)."
  echo
  machine
  echo
  echo "## By pair, \`bench report --baseline idastar/manhattan --format markdown\`"
  echo
  "$BENCH" report "$csv" --baseline idastar/manhattan --format markdown
  echo
  echo "## By random-walk length, \`bench report --by scramble --format markdown\`"
  echo
  "$BENCH" report "$csv" --by scramble --format markdown
  echo
  echo "## Linear conflict and the 6-6-3 database against Manhattan distance per instance (IDA*)"
  echo
  echo "\`bench report --compare idastar/linear-conflict idastar/manhattan --format markdown\`:"
  echo
  "$BENCH" report "$csv" --compare idastar/linear-conflict idastar/manhattan --format markdown
  echo
  echo "\`bench report --compare idastar/pdb:6-6-3 idastar/manhattan --format markdown\`:"
  echo
  "$BENCH" report "$csv" --compare idastar/pdb:6-6-3 idastar/manhattan --format markdown
  echo
  echo "Every column: add \`--columns all\`. Figures: $OUT/plots/ (SVG and PDF)."
} > results/heuristics-4x4.md
"$BENCH" report "$csv" --plots "$OUT/plots" --plot-format svg,pdf > /dev/null 2>&1
echo "wrote results/heuristics-4x4.md"
