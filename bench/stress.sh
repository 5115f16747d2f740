#!/usr/bin/env bash
# Benchmark of `kit stress --jobs`: cases per second of `kit stress
# zhuguosha` with our own solver as the program under test (it agrees on
# every case, so all N cases run: for each, our solver and the program), at
# --jobs 2 against --jobs 1, best of 3 runs each, taken in turn. The target
# on a 2-core machine is >= 1.8x. Wall time is what --jobs is for, so this
# row is timed (python3), not counted; run it on an otherwise idle machine.
# What --jobs cannot share: the start-up check before the search (our
# solver run up to 300 times, one after another, to find the smallest
# input; bench/RESULTS.md measures it).
# Run from the repo root after `cargo build --release`.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
target=${CARGO_TARGET_DIR:-target}/release
[ -x "$target/kit" ] && [ -x "$target/zhuguosha" ] ||
  { echo "build first: cargo build --release" >&2; exit 1; }
cases=${CASES:-400}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/empty"
stress() {
  echo "$tmp/empty::$target/kit stress zhuguosha --count $cases --jobs $1 --out $tmp/failures -- $target/zhuguosha"
}
read -r one two < <(best_us 3 "$(stress 1)" "$(stress 2)")
target_mark=$(awk -v a="$one" -v b="$two" 'BEGIN { if (a / b < 1.8) printf ", MISSES >= 1.8x" }')
rate() { awk -v n="$cases" -v u="$1" 'BEGIN { printf "%.0f cases/s", n / (u / 1e6) }'; }
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo "?")
echo "| kit | \`kit stress zhuguosha\`, $cases cases, --jobs 2 ($cores cores) | $(rate "$two") | --jobs 1: $(rate "$one") | $(ratio "$one" "$two")$target_mark |"
# The cost of each way of measuring a run, against a bare shell loop.
bash bench/run_cost.sh
