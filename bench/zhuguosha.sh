#!/usr/bin/env bash
# Benchmark of zhuguosha: instructions per game (whole process, valgrind
# callgrind "Collected" total) on long games: `pig_gen.py SEED --profile
# max_deck` (m = 2000 deck cards), the first 10 seeds from 1 up whose game
# ends (some max_deck inputs describe a never-ending game, exit 3: the
# reference cannot play those, so they are skipped). Compared with the fixed
# published figure for the fastest accepted C++ solution: about 9.4 million
# instructions per game (g++ -O2, same measure). Run from the repo root after
# `cargo build --release`.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-target/release/zhuguosha}
gen=../shared/tools/pig_gen.py
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
  python3 "$gen" "$seed" --profile max_deck >"$tmp/in"
  if ! "$bin" <"$tmp/in" >/dev/null 2>&1; then
    continue # never-ending game
  fi
  n=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" <"$tmp/in" 2>&1 >/dev/null |
    sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
  total=$((total + n))
  games=$((games + 1))
done
mean=$((total / games))
ratio=$(awk -v a="$mean" -v b="$ref" 'BEGIN { printf "%.3f", a / b }')
echo "| zhuguosha | max_deck games (m = 2000), mean of $games seeds | $(awk -v a="$mean" 'BEGIN { printf "%.2f M instructions", a / 1e6 }') | fastest accepted C++ (g++ -O2): 9.4 M instructions | ${ratio}x |"
