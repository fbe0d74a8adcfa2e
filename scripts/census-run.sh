#!/bin/sh
# One timed census for results/census.md: bench census on RxC with /usr/bin/time -v, the load
# (uptime) before and after, the distribution, antipodes and sidecar under results/.
# Usage: scripts/census-run.sh RxC [BENCH] [extra bench census options...]
#   BENCH defaults to target/release/bench (build it with cargo build --release).
set -eu
size=$1
bench=${2:-target/release/bench}
[ $# -ge 2 ] && shift 2 || shift 1
out=results/census_${size}.csv
log=results/census_${size}.log
mkdir -p results
{
  echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -n) $(nproc) cores"
  echo "# uptime before: $(uptime)"
  echo "# command: $bench census --size $size --out $out --antipodes results/census_${size}_antipodes.txt $*"
} >"$log"
/usr/bin/time -v "$bench" census --size "$size" --out "$out" \
  --antipodes "results/census_${size}_antipodes.txt" "$@" >>"$log" 2>&1 || status=$?
echo "# uptime after: $(uptime)" >>"$log"
echo "# exit status: ${status:-0}" >>"$log"
exit "${status:-0}"
