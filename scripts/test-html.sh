#!/usr/bin/env bash
# `bench report --html` in a real browser: generates a small run with kept solutions (two board
# sizes, a node limit so that some runs fail), writes the HTML report and drives headless
# Chromium through chromedriver (scripts/test-html.py: WebDriver over HTTP, Python standard
# library only). Checks: no console errors, the summary's rows, sorting, filters, scatter and
# coverage, solution playback down to the goal, a screenshot that is not blank; and a page made
# from results whose names carry </script><script>... loads cleanly, showing them as text.
# Installs Debian's chromium and chromium-driver if missing (needs root; without root and
# without them it skips with a message). Called by .ci/run after the cargo tests; ~10 s.
# Environment: BENCH (default: target/test-opt/bench, built if needed); SCREENSHOT=FILE.png
# keeps the screenshot (docs/report-screenshot.png is made that way); KEEP=1 keeps
# target/html-test/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
say() { echo "test-html: $*"; }

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        say "installing chromium and chromium-driver"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
    else
        say "SKIP: chromium and chromium-driver are not installed and this is not root" \
            "(apt-get install chromium chromium-driver, then run again)"
        exit 0
    fi
fi
command -v python3 >/dev/null 2>&1 || { say "FAIL: python3 is needed"; exit 1; }

if [ -z "${BENCH:-}" ]; then
    cargo build --profile test-opt --quiet --bin bench
    BENCH=$ROOT/target/test-opt/bench
fi
SHOT=""
[ -n "${SCREENSHOT:-}" ] && SHOT=$(realpath -m "$SCREENSHOT")

W=$ROOT/target/html-test
rm -rf "$W"
mkdir -p "$W"
cd "$W"
"$BENCH" gen --size 3x3 --moves 30 --count 10 --seed 11 --out eight.txt 2>/dev/null
"$BENCH" gen --size 2x4 --count 6 --seed 5 --out small.txt 2>/dev/null
"$BENCH" run --instances eight.txt small.txt --algos astar,idastar,bfs \
    --heuristics manhattan,misplaced --solutions --max-nodes 5000 --threads 2 --quiet \
    --out run.csv
"$BENCH" report run.csv --html report.html >report.txt 2>report.err || {
    cat report.err >&2
    say "FAIL: bench report --html failed"
    exit 1
}
say "report: $(wc -c <report.html) bytes; driving chromium"
python3 "$ROOT/scripts/test-html.py" --html report.html --results run.csv \
    --instances eight.txt small.txt ${SHOT:+--screenshot "$SHOT"}
# A page whose instance file name tries to close the data block and run a script.
EVIL='x</script><script>window.__pwned=1</script>.txt'
sed "s|fix.txt|$EVIL|" "$ROOT/tests/fixtures/report/shard_a.csv" >evil.csv
"$BENCH" report evil.csv --html evil.html >/dev/null 2>report.err || {
    cat report.err >&2
    say "FAIL: bench report --html failed on evil.csv"
    exit 1
}
say "hostile names: driving chromium"
python3 "$ROOT/scripts/test-html.py" --html evil.html --results evil.csv --instances eight.txt \
    --hostile "$EVIL"
cd "$ROOT"
[ -n "${KEEP:-}" ] || rm -rf "$W"
say "passed"
