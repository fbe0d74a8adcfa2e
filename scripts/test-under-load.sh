#!/bin/sh
# Runs the README's test command (cargo test --profile test-opt) three times in a row while
# two busy loops keep both cores of a 2-core machine busy, and reports each run's verdict and
# time. Proves the suite cannot flake under load (issue 31): every run must pass.
#
# Usage: scripts/test-under-load.sh [RUNS]   (from the repository root; default 3 runs)
# The busy processes are this script's own children, killed on exit (trap), whatever ends it.
set -u
runs=${1:-3}
busy=""
cleanup() {
    for pid in $busy; do kill "$pid" 2>/dev/null; done
}
trap cleanup EXIT INT TERM
for _ in 1 2; do
    yes >/dev/null &
    busy="$busy $!"
done
echo "load: 2 busy processes ($busy ), $(nproc) cores"
failed=0
i=1
while [ "$i" -le "$runs" ]; do
    start=$(date +%s)
    if cargo test --profile test-opt >"/tmp/test-under-load.$$.$i.log" 2>&1; then
        verdict=pass
    else
        verdict=FAIL
        failed=$((failed + 1))
    fi
    echo "run $i: $verdict in $(( $(date +%s) - start )) s (log /tmp/test-under-load.$$.$i.log)"
    i=$((i + 1))
done
echo "$((runs - failed)) of $runs runs passed under load"
[ "$failed" -eq 0 ]
