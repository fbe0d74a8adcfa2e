#!/usr/bin/env bash
# Splitting overhead and load balance of `bench split` (docs/split.md), per instance:
#   - the single-process search: `bench run --threads 1` of the same algorithm and heuristic
#     (its cpu_ms minus its setup_ms: the search thread's CPU, set-up excluded);
#   - for each piece count P: plan, the P pieces run as local processes JOBS at a time, combine;
#     the pieces' summed search CPU / the single-process search CPU (overhead; the planner's
#     CPU is given apart), and the slowest piece's CPU / the mean (imbalance).
# Prints one Markdown table row per (instance, P) after a header; the work directory keeps
# every plan, piece file and result.
#
# Usage: scripts/split-scaling.sh INSTANCES_FILE "ID..." [ALGO] [HEURISTIC] [GOAL] ["P..."]
#   e.g. scripts/split-scaling.sh ../shared/data/korf100.tsv "82 88" idastar-fsm manhattan \
#            blank-first "8 64"
# Environment: BENCH (default target/release/bench), JOBS (pieces at once, one process each;
# default: cores), ONE_PROCESS=1 (instead: all pieces at once as threads of one
# `bench split piece --piece 1-P` process, sharing one copy of the pattern databases),
# PDB_DIR (--pdb-dir for every command), PLAN_ARGS (more `bench split plan` options, e.g.
# "--frontier 16000"), WORK (default target/split-scaling). Beside the CPU figures: the
# 1-minute load average when the pieces ended, and the combined row's generated nodes over the
# single process's (exact, unlike CPU on a shared machine).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
file=$1 ids=$2 algo=${3:-idastar-fsm} heuristic=${4:-manhattan} goal=${5:-blank-first} counts=${6:-"8 64"}
BENCH=${BENCH:-target/release/bench}
JOBS=${JOBS:-$(nproc)}
WORK=${WORK:-target/split-scaling}
ONE_PROCESS=${ONE_PROCESS:-}
pdb=()
[ -z "${PDB_DIR:-}" ] || pdb=(--pdb-dir "$PDB_DIR")
read -r -a plan_args <<<"${PLAN_ARGS:-}"
[ -x "$BENCH" ] || { echo "split-scaling: $BENCH not built (cargo build --release)" >&2; exit 1; }
mkdir -p "$WORK"

col() { # col CSV NAME: the column NAME of the first data row
    awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR == 2 { print $c[n] }' "$1"
}

at_once="JOBS=$JOBS"
[ -z "$ONE_PROCESS" ] || at_once="all at once, one process"
echo "| instance | algorithm/heuristic | moves | single CPU s | pieces | pieces' CPU s | overhead (pieces/single) | plan CPU s | imbalance (slowest/mean) | wall s ($at_once) | load | nodes (pieces/single) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for id in $ids; do
    # The single-process search of the same board (read from a plan): its thread's CPU minus
    # the heuristic's set-up (set-up wall time, at least its CPU on that thread: if anything,
    # this understates the single process's search CPU).
    d0=$WORK/board-$id
    rm -rf "$d0"
    "$BENCH" split plan --instances "$file" --id "$id" --pieces 1 --algos "$algo" --heuristics "$heuristic" \
        --goal "$goal" --out "$d0" --quiet --probe-nodes 0 "${pdb[@]}"
    python3 -c "import json; p = json.load(open('$d0/plan.json')); c = p['cols']; t = p['tiles']; print(json.dumps([t[i:i + c] for i in range(0, len(t), c)]))" >"$d0/board.json"
    "$BENCH" run --instances "$d0/board.json" --algos "$algo" --heuristics "$heuristic" --goal "$goal" \
        --threads 1 --timeout none --out "$d0/single.csv" --quiet "${pdb[@]}" >/dev/null
    cpu=$(python3 -c "
import csv
r = next(csv.DictReader(open('$d0/single.csv')))
print('%.3f' % ((float(r['cpu_ms']) - float(r['setup_ms'])) / 1000))")
    moves=$(col "$d0/single.csv" moves)
    nodes=$(col "$d0/single.csv" nodes_generated)
    for p in $counts; do
        d=$WORK/split-$id-$p
        rm -rf "$d"
        start=$(date +%s.%N)
        "$BENCH" split plan --instances "$file" --id "$id" --pieces "$p" --algos "$algo" \
            --heuristics "$heuristic" --goal "$goal" --out "$d" --quiet "${pdb[@]}" "${plan_args[@]}"
        if [ -n "$ONE_PROCESS" ]; then
            "$BENCH" split piece --out "$d" --piece "1-$p" --quiet "${pdb[@]}"
        else
            seq 1 "$p" | xargs -P "$JOBS" -I{} "$BENCH" split piece --out "$d" --piece {} --quiet "${pdb[@]}"
        fi
        load=$(cut -d' ' -f1 /proc/loadavg)
        "$BENCH" split combine --out "$d" --quiet || true
        wall=$(echo "$(date +%s.%N) - $start" | bc)
        read -r sum max mean < <(awk -F, 'NR > 1 { s += $4; n++; if ($4 > m) m = $4 } END { printf "%.3f %.3f %.3f\n", s / 1000, m / 1000, s / n / 1000 }' "$d/pieces.csv")
        plan_cpu=$(python3 -c "import json; print('%.3f' % (json.load(open('$d/plan.json'))['plan_cpu_us'] / 1e6))")
        smoves=$(col "$d/result.csv" moves)
        snodes=$(col "$d/result.csv" nodes_generated)
        [ "$smoves" = "$moves" ] || echo "split-scaling: instance $id, $p pieces: $smoves moves, single-process $moves" >&2
        printf '| %s #%s | %s/%s | %s | %s | %s | %s | %s | %s | %s | %.1f | %s | %s |\n' "$(basename "$file")" "$id" "$algo" "$heuristic" \
            "$smoves" "$cpu" "$p" "$sum" "$(echo "scale=3; $sum / $cpu" | bc)" "$plan_cpu" \
            "$(echo "scale=2; $max / $mean" | bc)" "$wall" "$load" "$(echo "scale=3; $snodes / $nodes" | bc)"
    done
done
