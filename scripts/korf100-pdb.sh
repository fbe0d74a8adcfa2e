#!/usr/bin/env bash
# Korf's 100 15-puzzle instances by IDA* with pattern databases (blank-first goal).
#
#   scripts/korf100-pdb.sh [HEURISTIC...]      default: pdb:7-8 pdb:6-6-3
#
# Builds the databases into the cache first (`bench pdb build`, timed separately), then solves
# the 100 instances per heuristic and prints per-instance rows plus a summary line
# (generated nodes per instance, total search time). Fails if a solution is not at the published
# optimal length. Cache directory: $NPUZZLE_PDB_DIR or the default (see README).
set -euo pipefail
cd "$(dirname "$0")/.."
heuristics=("$@")
[ ${#heuristics[@]} -gt 0 ] || heuristics=(pdb:7-8 pdb:6-6-3)
data=data/korf100.tsv
cargo build --release --quiet --bin bench --example korf100
for h in "${heuristics[@]}"; do
  echo "== $h: database build/load"
  /usr/bin/time -f "   wall %e s, peak RSS %M KB" target/release/bench pdb build "$h" --goal blank-first
  echo "== $h: Korf's 100"
  out=$(mktemp)
  target/release/examples/korf100 "$h" "$data" > "$out"
  tail -n 1 "$out"
  echo "   per-instance rows: $out"
done
