#!/usr/bin/env bash
# Korf's 100 15-puzzle instances through `bench run`, with a per-instance table and totals.
#
#   scripts/korf100.sh [HEURISTIC] [THREADS] [ALGO]      defaults: manhattan 2 idastar
#
# Writes results/korf100-<algo>-<heuristic>-<UTC time>.csv (+ .meta.json) and prints:
# instance, optimal length (published), moves found, nodes generated, Korf's published count
# (for idastar + manhattan: must match node for node), seconds; then the totals; then the
# `bench report` table, a Markdown report results/korf100-<algo>-<heuristic>.md and SVG figures
# in results/korf100-...-plots/.
set -euo pipefail
cd "$(dirname "$0")/.."
heuristic=${1:-manhattan}
threads=${2:-2}
algo=${3:-idastar}
cargo build --release --quiet --bin bench
bench=target/release/bench
stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=results/korf100-${algo}-${heuristic//[:\/,]/_}-${stamp}.csv
mkdir -p results
start=$(date +%s.%N)
"$bench" run --instances data/korf100.txt --algos "$algo" --heuristics "$heuristic" \
    --threads "$threads" --timeout none --max-memory none --quiet --out "$out"
end=$(date +%s.%N)
published=data/korf100.tsv
echo "results: $out"
awk -F'\t' -v OFS='\t' -v algo="$algo" -v heur="$heuristic" '
  FNR == NR { if (FNR > 1) { opt[$1] = $2; korf[$1] = $3 } next }
  FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  {
    id = $col["instance_id"]; row[id] = $0
    moves[id] = $col["moves"]; gen[id] = $col["nodes_generated"]; ms[id] = $col["wall_ms"]
    status[id] = $col["status"]
  }
  END {
    print "instance", "optimal", "moves", "generated", "korf_generated", "seconds", "status"
    for (id = 1; id <= 100; id++) {
      if (!(id in status)) continue
      same = (algo == "idastar" && heur == "manhattan") ? korf[id] : ""
      printf "%d\t%d\t%s\t%s\t%s\t%.3f\t%s\n", id, opt[id], moves[id], gen[id], same, ms[id] / 1000, status[id]
      tg += gen[id]; tk += korf[id]; ts += ms[id] / 1000; n++
      if (moves[id] == opt[id]) ok++
      if (algo == "idastar" && heur == "manhattan" && gen[id] == korf[id]) same_count++
    }
    printf "total\t%d instances\t%d optimal\t%.0f\t%s\t%.1f\t\n", n, ok, tg, (algo == "idastar" && heur == "manhattan") ? tk : "", ts
    if (algo == "idastar" && heur == "manhattan") printf "node counts equal to Korf'\''s: %d of %d\n", same_count, n
  }' "$published" <(tr ',' '\t' < "$out")
awk -v a="$start" -v b="$end" -v t="$threads" \
    'BEGIN { printf "wall time of the whole run: %.1f s (%s threads); generated nodes per CPU second: ", b - a, t }'
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  { g += $col["nodes_generated"]; c += $col["cpu_ms"] }
  END { printf "%.1f M\n", g / (c / 1000) / 1e6 }' "$out"
# The aggregate through `bench report` (table on stdout, Markdown report and figures on disk).
"$bench" report "$out" --plots "${out%.csv}-plots"
report_md=results/korf100-${algo}-${heuristic//[:\/,]/_}.md
{
  echo "# Korf's 100 15-puzzle instances: $algo + $heuristic"
  echo
  echo "Reproduce: \`scripts/korf100.sh $heuristic $threads $algo\` (results CSV: \`$out\`)."
  echo
  echo "- Machine: $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores; $threads threads"
  echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit $(git rev-parse --short HEAD)"
  echo
  "$bench" report "$out" --format markdown
  echo
  echo "Figures: \`${out%.csv}-plots/\`."
} > "$report_md"
echo "report: $report_md"
