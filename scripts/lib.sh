# Shared helpers of the experiment scripts (sourced, not run).
# BENCH: the bench binary; built with `cargo build --release` unless BENCH is set.

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [ -z "${BENCH:-}" ]; then
  cargo build --release --quiet --bin bench
  BENCH=target/release/bench
fi

# The machine, for the header of a results report.
machine() {
  local cpu cores
  cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
  cores=$(nproc)
  echo "- Machine: ${cpu:-unknown CPU}, ${cores} cores available ($(uname -sr))"
  echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
}

# pivot CSV METRIC FORMAT: from `bench report --by moves --format csv` on stdin, a Markdown
# table with one row per solution length and one column per algorithm/heuristic holding
# METRIC (a column of the report CSV) printed with the printf FORMAT; `-` where empty.
pivot() {
  local metric=$1 fmt=$2
  awk -F, -v metric="$metric" -v fmt="$fmt" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    {
      d = $col["moves"]; p = $col["algorithm"] "/" $col["heuristic"]
      if (!(p in seen)) { seen[p] = 1; pairs[++np] = p }
      if (!(d in seen_d)) { seen_d[d] = 1; depths[++nd] = d }
      v[d, p] = $col[metric]; n[d] = ($col["runs"] > n[d] ? $col["runs"] : n[d])
    }
    END {
      line = "| depth | runs |"; rule = "| ---: | ---: |"
      for (j = 1; j <= np; j++) { line = line " " pairs[j] " |"; rule = rule " ---: |" }
      print line; print rule
      for (i = 1; i <= nd; i++) {
        d = depths[i]; line = "| " d " | " n[d] " |"
        for (j = 1; j <= np; j++) {
          x = v[d, pairs[j]]
          line = line " " (x == "" ? "-" : sprintf(fmt, x)) " |"
        }
        print line
      }
    }'
}
