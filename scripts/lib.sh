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
