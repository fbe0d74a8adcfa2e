#!/usr/bin/env bash
# The Python package (python/, docs/python.md): built from source with `pip install ./python`
# in a fresh virtual environment, then checked against the `bench` binary by pytest
# (python/tests/). CI runs it after `cargo test --profile test-opt`, whose build of `bench` it
# reuses (else it builds one). Installs python3-venv as root when `python3 -m venv` fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bench=${NPUZZLE_BENCH:-target/test-opt/bench}
if [ ! -x "$bench" ]; then
    cargo build --profile test-opt --bin bench
fi
bench=$(realpath "$bench")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
if ! python3 -m venv "$scratch/venv" 2>/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
        rm -rf "$scratch/venv"
        python3 -m venv "$scratch/venv"
    else
        echo "test-python: python3 -m venv failed; install python3-venv" >&2
        exit 1
    fi
fi
py="$scratch/venv/bin/python"
"$py" -m pip install -q --disable-pip-version-check pytest numpy pandas
start=$(date +%s)
"$py" -m pip install -q --disable-pip-version-check ./python
echo "test-python: pip install ./python took $(( $(date +%s) - start )) s"
NPUZZLE_BENCH="$bench" "$py" -m pytest -q -p no:cacheprovider python/tests
