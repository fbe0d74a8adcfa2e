#!/usr/bin/env bash
# The Slurm path on a live Slurm: starts the single-node cluster of scripts/slurm-local.sh
# (installing slurm-wlm and munge if needed; needs root), runs experiments through
# scripts/slurm-array.sh and checks what a cluster user relies on:
#   - submit refuses a missing binary or instance file before submitting anything;
#   - 4 shards + merge give exactly the job keys, statuses, lengths and node counts of a local
#     `bench run` of the same command, and the merge's sidecar lists the 4 shards;
#   - a shard cancelled mid-run (scancel: SIGTERM) keeps its rows, its session says
#     `interrupted`; a shard never run is reported missing by name by the merge job;
#     `resubmit` completes both with --resume, keeping the rows, without duplicate keys;
#   - a shard that hits Slurm's --time limit ends `interrupted` with its rows kept, and the
#     merge job names it;
#   - with a pattern-database heuristic, the prepare job builds the tables once into the
#     shared --pdb-dir and the shards only load them; if it fails, the array is cancelled and
#     the merge job says so; resubmit prepares again and completes;
#   - scripts/slurm-solve.sh: one of Korf's instances split into 8 pieces (2 cores) gives the
#     single-process IDA*'s solution length and, for every bound all pieces finished, its counts
#     node for node (with fixed slices and with --queue); pieces cancelled before and while
#     running leave the search unsolved, and
#     resubmit reruns exactly the unfinished pieces, keeps the finished bounds and gives the
#     same answer.
# Called by .ci/run after the cargo tests; takes about 100 s (the time-limit case waits for
# Slurm's one-minute granularity). Stops the cluster again if it started it.
# Environment: BENCH (default: target/test-opt/bench, built if needed; a relative path is
# taken from the directory the script is started in, a bare name from PATH), KEEP=1 keeps
# target/slurm-test/ and the cluster for inspection.
set -euo pipefail
# The jobs run from the test directory, so BENCH is made absolute before any cd.
case ${BENCH:-} in
    "" | /*) ;;
    */*) BENCH=$PWD/$BENCH ;;
    *) BENCH=$(command -v "$BENCH") || { echo "test-slurm: BENCH: no such command" >&2; exit 1; } ;;
esac
[ -z "${BENCH:-}" ] || [ -x "$BENCH" ] || { echo "test-slurm: BENCH=$BENCH is not an executable" >&2; exit 1; }
cd "$(dirname "$0")/.."
ROOT=$PWD
W=$ROOT/target/slurm-test
ARRAY=$ROOT/scripts/slurm-array.sh
LOCAL=$ROOT/scripts/slurm-local.sh
DEADLINE=$((SECONDS + 420))

say() { echo "test-slurm: $*"; }
dump() {
    local f
    for f in "$W"/*/logs/*.log "$W"/*/jobs; do
        [ -f "$f" ] && { echo "----- $f"; cat "$f"; }
    done
    for f in /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log; do
        [ -f "$f" ] && { echo "----- $f (last 30 lines)"; tail -30 "$f"; }
    done
    squeue 2>/dev/null || true
}
fail() { echo "test-slurm: FAIL: $*" >&2; dump >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || { say "skipped: needs root to install and start Slurm"; exit 0; }

if [ -z "${BENCH:-}" ]; then
    cargo build --profile test-opt --quiet --bin bench
    BENCH=$ROOT/target/test-opt/bench
fi
export BENCH

started=""
cleanup() {
    local rc=$?
    if [ -z "${KEEP:-}" ]; then
        local f id
        for f in "$W"/*/jobs; do
            [ -f "$f" ] || continue
            for id in $(awk '{ print $2 }' "$f"); do scancel "$id" 2>/dev/null || true; done
        done
        [ -z "$started" ] || "$LOCAL" stop || true
    fi
    exit "$rc"
}
trap cleanup EXIT

if "$LOCAL" status >/dev/null 2>&1; then
    say "using the running local cluster"
else
    "$LOCAL" start >/dev/null || fail "scripts/slurm-local.sh start"
    started=1
fi

rm -rf "$W"
mkdir -p "$W"
cd "$W"
# Relative instance paths, as a user types them: the jobs must find them from the spool.
"$BENCH" gen --size 4x4 --moves 40 --count 12 --seed 7 --out walks.txt 2>/dev/null
"$BENCH" gen --size 5x5 --count 12 --seed 3 --out hard.txt 2>/dev/null
"$BENCH" gen --size 5x5 --count 40 --seed 4 --out harder.txt 2>/dev/null
"$BENCH" gen --size 3x3 --moves 20 --count 8 --seed 5 --out small.txt 2>/dev/null
export SBATCH_ARGS="--cpus-per-task=1 --mem=512M"

# jobs_active DIR: whether a job of the experiment is queued or running.
jobs_active() {
    local id
    local out=""
    for id in $(awk '{ print $2 }' "$1/jobs"); do out+=$(squeue -h -j "$id" 2>/dev/null || true); done
    [ -n "$out" ]
}
# wait_done DIR: until every job of the experiment has ended (bounded by the test's deadline).
wait_done() {
    while jobs_active "$1"; do
        [ "$SECONDS" -lt "$DEADLINE" ] || fail "$1: jobs still queued or running at the deadline"
        sleep 1
    done
}
# project CSV [key]: the compared columns of every row (or only the job keys), sorted.
project() {
    awk -F, -v keys="${2:-}" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { k = $c["instance_file"] "," $c["instance_id"] "," $c["algorithm"] "," $c["heuristic"] "," $c["repetition"]
          print (keys ? k : k "," $c["status"] "," $c["moves"] "," $c["nodes_expanded"] "," $c["nodes_generated"]) }' "$1" | sort
}
no_duplicates() {
    local d; d=$(project "$1" key | uniq -d)
    [ -z "$d" ] || fail "$1: duplicate job keys: $d"
}
session_statuses() { grep -o '"status": *"[a-z-]*"' "$1.meta.json" | sed 's/.*"\([a-z-]*\)"$/\1/' | paste -sd' '; }
jobid() { awk -v w="$2" '$1 == w { id = $2 } END { print id }' "$1/jobs"; }

# --- checks before submitting ---
before=$(squeue -h | wc -l)
out=$(BENCH=/nonexistent/bench "$ARRAY" submit 2 pre1 --instances walks.txt 2>&1) && fail "submit with a missing binary succeeded"
grep -q "does not exist" <<<"$out" || fail "missing binary: unexpected message: $out"
out=$("$ARRAY" submit 2 pre2 --instances nosuch.txt 2>&1) && fail "submit with a missing instance file succeeded"
grep -q "nosuch.txt is not a readable file" <<<"$out" || fail "missing instances: unexpected message: $out"
out=$("$ARRAY" submit 2 pre3 --instances walks.txt --out x.csv 2>&1) && fail "submit with --out succeeded"
out=$("$ARRAY" submit 2 pre4 --instances small.txt --heuristics pdb:7-8 2>&1) && fail "submit with pdb:7-8 on 3 x 3 boards succeeded"
grep -q "pdb:7-8 is not available for a 3 x 3 board" <<<"$out" || fail "pdb:7-8 on 3 x 3: unexpected message: $out"
[ "$(squeue -h | wc -l)" -eq "$before" ] || fail "a refused submit queued jobs"
[ ! -e pre2/experiment.env ] && [ ! -e pre4 ] || fail "a refused submit wrote an experiment"
say "ok: submit refuses a missing binary, a missing instance file, --out, pattern databases the boards cannot have"

# --- the time limit, submitted first: one shard of 40 x 4 s jobs under --time=1 ---
SBATCH_ARGS="$SBATCH_ARGS --time=1" "$ARRAY" submit 1 timelimit --instances harder.txt \
    --heuristics manhattan --timeout 4s >/dev/null

# --- 4 shards + merge against a local run ---
run_opts=(--instances walks.txt --algos idastar,astar --heuristics manhattan,linear-conflict)
"$ARRAY" submit 4 main "${run_opts[@]}" >/dev/null
# --- cancel and missing: 3 shards of 4 x 1 s jobs, one at a time ---
MAX_RUNNING=1 "$ARRAY" submit 3 cancel --instances hard.txt --heuristics manhattan --timeout 1s >/dev/null
array=$(jobid cancel array)
scancel "${array}_3"   # pending behind shards 1 and 2 (MAX_RUNNING=1): never runs
"$BENCH" run "${run_opts[@]}" --seed 1 --threads 1 --quiet --out local.csv

# main: compare.
wait_done main
[ -f main/merged.csv ] || fail "main: no merged.csv"
no_duplicates main/merged.csv
diff <(project local.csv) <(project main/merged.csv) >main.diff \
    || fail "main: merged CSV differs from the local run (job keys, status, moves, nodes): $(head -20 main.diff)"
rows=$(project main/merged.csv | wc -l)
[ "$rows" -eq 48 ] || fail "main: $rows rows, expected 48"
for k in 1 2 3 4; do
    grep -q "\"file\": \".*shard-$k-of-4.csv\"" main/merged.csv.meta.json || fail "main: the merge sidecar does not list shard $k"
done
say "ok: 4 shards merged = local run (48 jobs: keys, status, moves, nodes); sidecar lists the shards"

# cancel: shard 1 mid-run.
while [ "$(awk 'END { print NR }' cancel/shard-1-of-3.csv 2>/dev/null || echo 0)" -lt 2 ]; do
    [ "$SECONDS" -lt "$DEADLINE" ] || fail "cancel: shard 1 wrote no row"
    sleep 0.2
done
scancel "${array}_1"
wait_done cancel
st=$(session_statuses cancel/shard-1-of-3.csv)
[ "$st" = interrupted ] || fail "cancel: shard 1's session is '$st', expected interrupted"
kept=$(project cancel/shard-1-of-3.csv key)
[ -n "$kept" ] || fail "cancel: shard 1 kept no row"
[ ! -e cancel/merged.csv ] || fail "cancel: merged although shards are missing"
grep -q "shard 1: session 'interrupted'" cancel/logs/merge.log || fail "cancel: the merge log does not name the interrupted shard 1"
grep -q "shard 3: missing" cancel/logs/merge.log || fail "cancel: the merge log does not name the missing shard 3"
say "ok: scancel keeps shard 1's $(wc -l <<<"$kept") row(s), session interrupted; the merge names shard 1 (interrupted) and shard 3 (missing)"
"$ARRAY" resubmit cancel >/dev/null
wait_done cancel
[ -f cancel/merged.csv ] || fail "cancel: no merged.csv after resubmit"
no_duplicates cancel/merged.csv
"$BENCH" run --instances hard.txt --heuristics manhattan --max-nodes 1 --seed 1 --quiet --out keys.csv
diff <(project keys.csv key) <(project cancel/merged.csv key) >cancel.diff || fail "cancel: job keys differ from the plan: $(head cancel.diff)"
[ -z "$(comm -23 <(echo "$kept") <(project cancel/shard-1-of-3.csv key))" ] || fail "cancel: rows of shard 1 were lost"
st=$(session_statuses cancel/shard-1-of-3.csv)
[ "$st" = "interrupted complete" ] || fail "cancel: shard 1's sessions are '$st', expected 'interrupted complete'"
say "ok: resubmit completes shards 1 and 3 with --resume: 12 jobs, no duplicates, rows kept"

# --- prepare: pattern databases built once, loaded by the shards ---
"$ARRAY" submit 2 pdb --instances small.txt --heuristics manhattan,pdb --pdb-dir pdbcache >/dev/null
wait_done pdb
[ -f pdb/merged.csv ] || fail "pdb: no merged.csv"
grep -q "built, saved" pdb/logs/prepare.log || fail "pdb: the prepare job built no table"
[ "$(ls pdbcache)" = 3x3-blank-last-1-2-3-4-5-6-7-8.pdb ] || fail "pdb: expected the one table of pdb on 3 x 3 in pdbcache/, found: $(ls pdbcache)"
[ ! pdbcache/3x3-blank-last-1-2-3-4-5-6-7-8.pdb -nt pdb/prepare.ok ] || fail "pdb: a shard rewrote the table"
! grep -qi "warning" pdb/logs/shard-*.log || fail "pdb: a shard warned: $(cat pdb/logs/shard-*.log)"
"$BENCH" --pdb-dir pdbcache run --instances small.txt --heuristics manhattan,pdb --seed 1 --quiet --out pdblocal.csv
diff <(project pdblocal.csv) <(project pdb/merged.csv) >pdb.diff || fail "pdb: merged CSV differs from the local run: $(head pdb.diff)"
say "ok: the prepare job built the pattern databases into --pdb-dir; 2 shards = local run"

# A prepare job that fails (its instance file vanished after submit): the array is cancelled,
# the merge job says why; resubmit runs the prepare job again, then the shards.
cp small.txt vanishing.txt
PREPARE_SBATCH_ARGS="--begin=now+2" "$ARRAY" submit 2 prepfail --instances vanishing.txt \
    --heuristics pdb --pdb-dir pdbcache2 >/dev/null
rm vanishing.txt
wait_done prepfail
grep -q "the prepare job did not succeed" prepfail/logs/merge.log || fail "prepfail: the merge log does not name the failed prepare job"
grep -q "shard 2: missing" prepfail/logs/merge.log || fail "prepfail: the merge log does not name the shards that never ran"
cp small.txt vanishing.txt
"$ARRAY" resubmit prepfail >/dev/null
wait_done prepfail
[ "$(project prepfail/merged.csv key | wc -l)" -eq 8 ] || fail "prepfail: no complete merged.csv after resubmit"
say "ok: a failed prepare job cancels the array and is named by the merge; resubmit prepares and completes"

# --- the time limit ---
wait_done timelimit
tl=$(jobid timelimit array)
state=$(scontrol show job "$tl" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -1)
[ "$state" = JobState=TIMEOUT ] || fail "timelimit: job $tl ended as '$state', expected TIMEOUT"
grep -q "DUE TO TIME LIMIT" timelimit/logs/shard-1.log || fail "timelimit: the log does not show the time limit"
st=$(session_statuses timelimit/shard-1-of-1.csv)
[ "$st" = interrupted ] || fail "timelimit: session '$st', expected interrupted"
n=$(project timelimit/shard-1-of-1.csv key | wc -l)
[ "$n" -gt 0 ] && [ "$n" -lt 40 ] || fail "timelimit: $n rows, expected some but not all 40"
grep -q "shard 1: session 'interrupted', $n of 40 jobs written" timelimit/logs/merge.log \
    || fail "timelimit: the merge log does not name shard 1 with its $n rows"
say "ok: --time limit: TIMEOUT, $n of 40 rows kept, session interrupted, the merge names shard 1"
# --- one instance split into pieces: scripts/slurm-solve.sh ---
SOLVE=$ROOT/scripts/slurm-solve.sh
cp "$ROOT/data/korf100.tsv" korf.tsv
# single ID: `bench solve --format json` of Korf's instance ID (the reference).
single() {
    awk -F'\t' -v id="$1" '$1 == id { print $5 }' korf.tsv | xargs -n4 \
        | "$BENCH" solve --format json --algo idastar --heuristic manhattan --goal blank-first 2>/dev/null
}
# same_as_single DIR ID: DIR's result against the single-process search.
same_as_single() {
    single "$2" >"$1.single.json"
    python3 - "$1" "$1.single.json" <<'PY' || fail "$1: the split differs from single-process IDA*"
import csv, json, sys
d, ref = sys.argv[1], json.load(open(sys.argv[2]))
row = next(csv.DictReader(open(d + "/result.csv")))
assert row["status"] == "solved" and int(row["moves"]) == ref["length"], (row["status"], row["moves"], ref["length"])
its = list(csv.DictReader(open(d + "/iterations.csv")))
per = ref["per_iteration"]
assert len(its) == len(per), (len(its), len(per))
for i, p in zip(its, per):
    if p["complete"]:
        assert i["pieces_completed"] == i["pieces"], i
        assert (int(i["bound"]), int(i["generated"]), int(i["expanded"])) == (p["bound"], p["generated"], p["expanded"]), (i, p)
assert int(its[-1]["pieces_completed"]) < int(its[-1]["pieces"]), "the last bound is reported unfinished"
PY
}
"$SOLVE" --instances korf.tsv --id 4 --pieces 8 --out split --goal blank-first --no-wait >/dev/null
wait_done split
same_as_single split 4
say "ok: slurm-solve.sh, Korf #4 in 8 pieces on 2 cores = single-process IDA* (length; counts of every finished bound)"

# The same with a shared queue of units (--queue) instead of fixed slices.
"$SOLVE" --instances korf.tsv --id 4 --pieces 8 --out splitq --goal blank-first --queue --no-wait >/dev/null
wait_done splitq
same_as_single splitq 4
ls splitq/queue/*/units >/dev/null 2>&1 || fail "splitq: no queue files: not a queue plan"
say "ok: slurm-solve.sh --queue, Korf #4 in 8 pieces = single-process IDA* (length; counts of every finished bound)"

# Cancel: pieces 7 and 8 while they wait for the plan job, piece 1 once it has finished a bound.
"$SOLVE" --instances korf.tsv --id 1 --pieces 8 --out splitcancel --goal blank-first --no-wait >/dev/null
sa=$(jobid splitcancel array)
scancel "${sa}_7" "${sa}_8"
while ! grep -q '"next_bound"' splitcancel/piece-1.json 2>/dev/null; do
    [ "$SECONDS" -lt "$DEADLINE" ] || fail "splitcancel: piece 1 finished no bound"
    sleep 0.2
done
scancel "${sa}_1"
wait_done splitcancel
[ ! -e splitcancel/piece-7.json ] && [ ! -e splitcancel/piece-8.json ] || fail "splitcancel: a cancelled waiting piece ran"
st=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["status"] }' splitcancel/result.csv)
[ "$st" != solved ] || fail "splitcancel: solved although pieces 7 and 8 never ran"
grep -q "unfinished pieces:.* 7 8" splitcancel/result.csv || fail "splitcancel: the result does not name the unfinished pieces: $(cat splitcancel/result.csv)"
unfinished=""
for k in 1 2 3 4 5 6 7 8; do
    case "$(grep -o '"state": *"[a-z-]*"' "splitcancel/piece-$k.json" 2>/dev/null | sed 's/.*"\([a-z-]*\)"$/\1/')" in
    solved|covered|exhausted) ;;
    *) unfinished+="${unfinished:+,}$k" ;;
    esac
done
bounds1=$(grep -c '"next_bound"' splitcancel/piece-1.json)
out=$("$SOLVE" resubmit splitcancel --no-wait)
grep -q "resubmitted pieces $unfinished as array" <<<"$out" || fail "splitcancel: resubmit ran '$out', expected exactly the unfinished pieces $unfinished"
wait_done splitcancel
same_as_single splitcancel 1
[ "$(grep -c '"next_bound"' splitcancel/piece-1.json)" -ge "$bounds1" ] || fail "splitcancel: piece 1 lost finished bounds"
say "ok: slurm-solve.sh cancel + resubmit: pieces $unfinished rerun, finished bounds kept, Korf #1 = single-process IDA*"

say "passed in $SECONDS s"
