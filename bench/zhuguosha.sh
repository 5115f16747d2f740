#!/usr/bin/env bash
# Benchmark of zhuguosha: instructions per game (whole process, valgrind
# callgrind "Collected" total) on long games: `kit gen zhuguosha --profile
# max_deck --seed S` (m = 2000 deck cards) for S = 1..10. `kit gen` only
# emits games that end (it draws again when our solver exits 3 on a
# never-ending one, which the reference could not play); a game our solver
# still rejects is skipped and the next seed taken. Compared with the fixed
# published figure for the fastest accepted C++ solution: about 9.4 million
# instructions per game (g++ -O2, same measure). Run from the repo root after
# `cargo build --release`.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
bin=${BIN:-${CARGO_TARGET_DIR:-target}/release/zhuguosha}
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 1; }
ref=9400000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

total=0
games=0
seed=0
while [ "$games" -lt 10 ] && [ "$seed" -lt 100 ]; do
  seed=$((seed + 1))
  kit_gen zhuguosha --profile max_deck --seed "$seed" >"$tmp/in"
  if ! "$bin" <"$tmp/in" >/dev/null 2>&1; then
    continue # no answer
  fi
  n=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" <"$tmp/in" 2>&1 >/dev/null |
    sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
  total=$((total + n))
  games=$((games + 1))
done
mean=$((total / games))
ratio=$(awk -v a="$mean" -v b="$ref" 'BEGIN { printf "%.3f", a / b }')
echo "| zhuguosha | max_deck games (m = 2000), mean of $games seeds | $(awk -v a="$mean" 'BEGIN { printf "%.2f M instructions", a / 1e6 }') | fastest accepted C++ (g++ -O2): 9.4 M instructions | ${ratio}x |"
