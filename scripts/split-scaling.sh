#!/usr/bin/env bash
# Splitting overhead and load balance of `bench split` (docs/split.md), per instance and piece
# count P, measured in PAIRS pairs run in turn (the single process, then the split), so that
# the load of a shared machine falls on both sides alike:
#   - the single process: `bench run --threads 1` of the same algorithm and heuristic (its
#     cpu_ms minus its setup_ms: the search thread's CPU, set-up excluded);
#   - the split: plan (once per P), the P pieces run as local processes JOBS at a time, combine;
#     the pieces' summed search CPU / the single process's CPU (overhead, pair by pair, then
#     the median; the planner's CPU is given apart), and the slowest piece's CPU / the mean
#     (imbalance).
# Prints one Markdown table row per (instance, P) after a header; the work directory keeps
# every plan, piece file and result.
#
# Usage: scripts/split-scaling.sh INSTANCES_FILE "ID..." [ALGO] [HEURISTIC] [GOAL] ["P..."]
#   e.g. scripts/split-scaling.sh data/korf100.tsv "82 88" idastar-fsm manhattan \
#            blank-first "8 64"
# Environment: BENCH (default target/release/bench), PAIRS (default 1), JOBS (pieces at once,
# one process each; default: cores), ONE_PROCESS=1 (instead: all pieces at once as threads of
# one `bench split piece --piece 1-P` process, sharing one copy of the pattern databases),
# PDB_DIR (--pdb-dir for every command), PLAN_ARGS (more `bench split plan` options, e.g.
# "--any-optimal" or "--frontier 16000"), PIECE_ARGS (more `bench split piece` options, e.g.
# "--no-lockstep"), WORK (default target/split-scaling).
# Columns: medians over the pairs (the overhead's range beside it); the nodes ratios are the
# combined row's generated nodes over the single process's, whole and in the last bound (the
# solution's; exact counts, unlike CPU on a shared machine, but they vary from run to run with
# the pieces' timing); waits: the longest time a piece waited for others before its bounds;
# load: the 1-minute load average when the pieces ended, mean over the pairs.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
file=$1 ids=$2 algo=${3:-idastar-fsm} heuristic=${4:-manhattan} goal=${5:-blank-first} counts=${6:-"8 64"}
BENCH=${BENCH:-target/release/bench}
PAIRS=${PAIRS:-1}
JOBS=${JOBS:-$(nproc)}
WORK=${WORK:-target/split-scaling}
ONE_PROCESS=${ONE_PROCESS:-}
pdb=()
[ -z "${PDB_DIR:-}" ] || pdb=(--pdb-dir "$PDB_DIR")
read -r -a plan_args <<<"${PLAN_ARGS:-}"
read -r -a piece_args <<<"${PIECE_ARGS:-}"
[ -x "$BENCH" ] || { echo "split-scaling: $BENCH not built (cargo build --release)" >&2; exit 1; }
[[ "$PAIRS" =~ ^[1-9][0-9]*$ ]] || { echo "split-scaling: PAIRS must be a positive integer" >&2; exit 2; }
mkdir -p "$WORK"

col() { # col CSV NAME: the column NAME of the first data row
    awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR == 2 { print $c[n] }' "$1"
}

# single DIR: runs the single-process search of DIR/board.json; prints its search CPU seconds
# (its thread's CPU minus the heuristic's set-up: if anything, this understates it).
single() {
    "$BENCH" run --instances "$1/board.json" --algos "$algo" --heuristics "$heuristic" --goal "$goal" \
        --threads 1 --timeout none --out "$1/single.csv" --quiet "${pdb[@]}" >/dev/null
    python3 -c "
import csv
r = next(csv.DictReader(open('$1/single.csv')))
print('%.3f' % ((float(r['cpu_ms']) - float(r['setup_ms'])) / 1000))"
}

at_once="JOBS=$JOBS"
[ -z "$ONE_PROCESS" ] || at_once="all at once, one process"
echo "| instance | algorithm/heuristic | moves | pieces | pairs | single CPU s | pieces' CPU s | overhead (pieces/single; range) | nodes (pieces/single) | last bound nodes (pieces/single) | imbalance (slowest/mean) | longest wait s | plan CPU s | wall s ($at_once) | load |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for id in $ids; do
    d0=$WORK/board-$id
    rm -rf "$d0"
    "$BENCH" split plan --instances "$file" --id "$id" --pieces 1 --algos "$algo" --heuristics "$heuristic" \
        --goal "$goal" --out "$d0" --quiet --probe-nodes 0 "${pdb[@]}"
    python3 -c "import json; p = json.load(open('$d0/plan.json')); c = p['cols']; t = p['tiles']; print(json.dumps([t[i:i + c] for i in range(0, len(t), c)]))" >"$d0/board.json"
    for p in $counts; do
        d=$WORK/split-$id-$p
        rm -rf "$d"
        "$BENCH" split plan --instances "$file" --id "$id" --pieces "$p" --algos "$algo" \
            --heuristics "$heuristic" --goal "$goal" --out "$d/plan" --quiet "${pdb[@]}" "${plan_args[@]}"
        for r in $(seq 1 "$PAIRS"); do
            s=$d/single-$r
            mkdir -p "$s"
            cp "$d0/board.json" "$s/"
            single "$s" >"$s/cpu"
            w=$d/run-$r
            mkdir -p "$w"
            cp "$d/plan/plan.json" "$w/"
            start=$(date +%s.%N)
            if [ -n "$ONE_PROCESS" ]; then
                "$BENCH" split piece --out "$w" --piece "1-$p" --quiet "${pdb[@]}" "${piece_args[@]}"
            else
                seq 1 "$p" | xargs -P "$JOBS" -I{} "$BENCH" split piece --out "$w" --piece {} --quiet "${pdb[@]}" "${piece_args[@]}"
            fi
            cut -d' ' -f1 /proc/loadavg >"$w/load"
            echo "$(date +%s.%N) - $start" | bc >"$w/wall"
            "$BENCH" split combine --out "$w" --quiet || true
            [ "$(col "$w/result.csv" moves)" = "$(col "$s/single.csv" moves)" ] ||
                echo "split-scaling: instance $id, $p pieces, pair $r: $(col "$w/result.csv" moves) moves, single-process $(col "$s/single.csv" moves)" >&2
        done
        python3 - "$d" "$PAIRS" "$(basename "$file")" "$id" "$algo/$heuristic" "$p" <<'PY'
import csv, json, statistics, sys
d, pairs, name, ident, ah, p = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]
med = statistics.median
rows = []
for r in range(1, pairs + 1):
    s, w = f"{d}/single-{r}", f"{d}/run-{r}"
    single_cpu = float(open(f"{s}/cpu").read())
    single = next(csv.DictReader(open(f"{s}/single.csv")))
    split = next(csv.DictReader(open(f"{w}/result.csv")))
    pieces = list(csv.DictReader(open(f"{w}/pieces.csv")))
    its = list(csv.DictReader(open(f"{w}/iterations.csv")))
    cpu = [float(x["cpu_ms"]) / 1e3 for x in pieces]
    n = len(its)
    single_gen, split_gen = int(single["nodes_generated"]), int(split["nodes_generated"])
    # Every bound before the last equals the single process's node for node, so the single
    # process's last iteration is its total minus those (the root counted once per bound).
    before = sum(int(i["generated"]) for i in its[:-1]) - (n - 1)
    rows.append(dict(
        moves=split["moves"], single=single_cpu, pieces=sum(cpu), ratio=sum(cpu) / single_cpu,
        nodes=split_gen / single_gen,
        last=(split_gen - before) / (single_gen - before),
        imbalance=max(cpu) / (sum(cpu) / len(cpu)),
        wait=max(float(x.get("waited_ms") or 0) for x in pieces) / 1e3,
        wall=float(open(f"{w}/wall").read()), load=float(open(f"{w}/load").read()),
        plan=json.load(open(f"{w}/plan.json"))["plan_cpu_us"] / 1e6,
    ))
m = lambda k: med(r[k] for r in rows)
lo, hi = min(r["ratio"] for r in rows), max(r["ratio"] for r in rows)
print(f"| {name} #{ident} | {ah} | {rows[0]['moves']} | {p} | {pairs} | {m('single'):.3f} | {m('pieces'):.3f} "
      f"| {m('ratio'):.3f} ({lo:.3f}-{hi:.3f}) | {m('nodes'):.3f} | {m('last'):.3f} | {m('imbalance'):.2f} "
      f"| {m('wait'):.1f} | {m('plan'):.3f} | {m('wall'):.1f} | {statistics.mean(r['load'] for r in rows):.1f} |")
PY
    done
done
