#!/usr/bin/env bash
# Splitting overhead and load balance of `bench split` (docs/split.md), per instance:
#   - the single-process search: `bench run --threads 1` of the same algorithm and heuristic
#     (its cpu_ms, set-up excluded);
#   - for each piece count P: plan, the P pieces run as local processes JOBS at a time, combine;
#     the pieces' summed search CPU / the single-process search CPU (overhead; the planner's
#     CPU is given apart), and the slowest piece's CPU / the mean (imbalance).
# Prints one Markdown table row per (instance, P) after a header; the work directory keeps
# every plan, piece file and result.
#
# Usage: scripts/split-scaling.sh INSTANCES_FILE "ID..." [ALGO] [HEURISTIC] [GOAL] ["P..."]
#   e.g. scripts/split-scaling.sh ../shared/data/korf100.tsv "82 88" idastar-fsm manhattan \
#            blank-first "8 64"
# Environment: BENCH (default target/release/bench), JOBS (pieces at once; default: cores),
# WORK (default target/split-scaling).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
file=$1 ids=$2 algo=${3:-idastar-fsm} heuristic=${4:-manhattan} goal=${5:-blank-first} counts=${6:-"8 64"}
BENCH=${BENCH:-target/release/bench}
JOBS=${JOBS:-$(nproc)}
WORK=${WORK:-target/split-scaling}
[ -x "$BENCH" ] || { echo "split-scaling: $BENCH not built (cargo build --release)" >&2; exit 1; }
mkdir -p "$WORK"

col() { # col CSV NAME: the column NAME of the first data row
    awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR == 2 { print $c[n] }' "$1"
}

echo "| instance | algorithm/heuristic | moves | single CPU s | pieces | pieces' CPU s | overhead (pieces/single) | plan CPU s | imbalance (slowest/mean) | wall s (JOBS=$JOBS) |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for id in $ids; do
    # The single-process search of the same board (read from a plan), its CPU from the kernel
    # minus the heuristic's set-up.
    d0=$WORK/board-$id
    rm -rf "$d0"
    "$BENCH" split plan --instances "$file" --id "$id" --pieces 1 --algos "$algo" --heuristics "$heuristic" \
        --goal "$goal" --out "$d0" --quiet --probe-nodes 0
    python3 -c "import json; p = json.load(open('$d0/plan.json')); c = p['cols']; t = p['tiles']; print(json.dumps([t[i:i + c] for i in range(0, len(t), c)]))" >"$d0/board.json"
    /usr/bin/time -f '%U %S' -o "$d0/time" "$BENCH" solve "$d0/board.json" --format json --algo "$algo" \
        --heuristic "$heuristic" --goal "$goal" >"$d0/solve.json" 2>/dev/null
    read -r cpu moves < <(python3 -c "
import json
u, s = map(float, open('$d0/time').read().split()[-2:])
j = json.load(open('$d0/solve.json'))
print('%.3f' % (u + s - j['setup_ms'] / 1000), j['length'])")
    for p in $counts; do
        d=$WORK/split-$id-$p
        rm -rf "$d"
        start=$(date +%s.%N)
        "$BENCH" split plan --instances "$file" --id "$id" --pieces "$p" --algos "$algo" \
            --heuristics "$heuristic" --goal "$goal" --out "$d" --quiet
        seq 1 "$p" | xargs -P "$JOBS" -I{} "$BENCH" split piece --out "$d" --piece {} --quiet
        "$BENCH" split combine --out "$d" --quiet || true
        wall=$(echo "$(date +%s.%N) - $start" | bc)
        read -r sum max mean < <(awk -F, 'NR > 1 { s += $4; n++; if ($4 > m) m = $4 } END { printf "%.3f %.3f %.3f\n", s / 1000, m / 1000, s / n / 1000 }' "$d/pieces.csv")
        plan_cpu=$(python3 -c "import json; print('%.3f' % (json.load(open('$d/plan.json'))['plan_cpu_us'] / 1e6))")
        smoves=$(col "$d/result.csv" moves)
        [ "$smoves" = "$moves" ] || echo "split-scaling: instance $id, $p pieces: $smoves moves, single-process $moves" >&2
        printf '| %s #%s | %s/%s | %s | %s | %s | %s | %s | %s | %s | %.1f |\n' "$(basename "$file")" "$id" "$algo" "$heuristic" \
            "$smoves" "$cpu" "$p" "$sum" "$(echo "scale=3; $sum / $cpu" | bc)" "$plan_cpu" \
            "$(echo "scale=2; $max / $mean" | bc)" "$wall"
    done
done
