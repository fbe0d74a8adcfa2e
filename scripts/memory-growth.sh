#!/usr/bin/env bash
# Peak heap per solution length: A* grows with the depth, IDA* stays flat (issue 17: memory
# that means something). Also times A* with --repeat to show the spread section.
#
#   scripts/memory-growth.sh        # writes results/memory-growth.md and results/memory-growth/
#
# Environment: SEED (default 1), PER (boards per walk length, default 20), WALKS (random-walk
# lengths, default "10 20 30 40 50 60"), ALGOS (default astar,idastar,bibfs), HEURISTICS
# (default linear-conflict), TIMEOUT (default 20s), MAXMEM (per job, default 1GiB), REPEAT
# (default 3), THREADS (default 2), OUT, BENCH.
source "$(dirname "$0")/lib.sh"

SEED=${SEED:-1}
PER=${PER:-20}
WALKS=${WALKS:-10 20 30 40 50 60}
ALGOS=${ALGOS:-astar,idastar,bibfs}
HEURISTICS=${HEURISTICS:-linear-conflict}
TIMEOUT=${TIMEOUT:-20s}
MAXMEM=${MAXMEM:-1GiB}
REPEAT=${REPEAT:-3}
THREADS=${THREADS:-2}
OUT=${OUT:-results/memory-growth}
mkdir -p "$OUT/instances"

files=()
for m in $WALKS; do
  f="$OUT/instances/walk$m.txt"
  rm -f "$f"
  "$BENCH" gen --n 4 --moves "$m" --count "$PER" --seed "$((SEED * 1000 + m))" --out "$f" 2>/dev/null
  files+=("$f")
done

csv="$OUT/results.csv"
rm -f "$csv" "$csv.meta.json"
"$BENCH" run --instances "${files[@]}" --algos "$ALGOS" --heuristics "$HEURISTICS" \
  --timeout "$TIMEOUT" --max-memory "$MAXMEM" --repeat "$REPEAT" --seed "$SEED" \
  --threads "$THREADS" --out "$csv" 2> "$OUT/summary.txt"
"$BENCH" report "$csv" --plots "$OUT/plots" > /dev/null 2>&1

{
  echo "# Peak heap per solution length: A* grows, IDA* stays flat"
  echo
  echo "Reproduce: \`scripts/memory-growth.sh\` (SEED=$SEED, PER=$PER, WALKS=\"$WALKS\", ALGOS=$ALGOS,"
  echo "HEURISTICS=$HEURISTICS, TIMEOUT=$TIMEOUT, MAXMEM=$MAXMEM, REPEAT=$REPEAT, THREADS=$THREADS)."
  echo "\`peak_heap_bytes\` is the search's own heap (docs/results-schema.md, Memory columns);"
  echo "means over solved runs, grouped by the optimal solution length."
  echo
  machine
  echo "- Load: $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min) when the script ended"
  echo
  echo "## Mean peak heap (bytes) by optimal solution length"
  echo
  "$BENCH" report "$csv" --by moves --format csv 2>/dev/null | pivot peak_heap_bytes_mean "%.0f"
  echo
  echo "## Mean nodes expanded by optimal solution length (for scale)"
  echo
  "$BENCH" report "$csv" --by moves --format csv 2>/dev/null | pivot expanded_mean "%.0f"
  echo
  echo "Figure: [memory_vs_length.svg](memory-growth/plots/memory_vs_length.svg)."
  echo
  echo "## The run's summary (stderr of bench run)"
  echo
  echo '```text'
  cat "$OUT/summary.txt"
  echo '```'
} > results/memory-growth.md
echo "wrote results/memory-growth.md"
