#!/usr/bin/env bash
# Benchmark of ji_referee: one record of r = 200000 rounds (the public case
# tests/data/ji_referee/random/0050.in, 1.3 MB, every round is played), best
# of 15 runs, against `wc -w` on the same bytes (an I/O-and-tokenising floor:
# it reads and splits the input just as the referee must, and does nothing
# else). Run from the repo root after `cargo build --release`.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-target/release/ji_referee}
input=tests/data/ji_referee/random/0050.in
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 1; }

# best wall time in microseconds of "$@" < input over 15 runs
best() {
  local b=999999999 t0 t1 d
  for _ in $(seq 15); do
    t0=$(date +%s%N)
    "$@" <"$input" >/dev/null
    t1=$(date +%s%N)
    d=$(((t1 - t0) / 1000))
    [ "$d" -lt "$b" ] && b=$d
  done
  echo "$b"
}

ours=$(best "$bin")
floor=$(best wc -w)
ratio=$(awk -v a="$ours" -v b="$floor" 'BEGIN { printf "%.2f", a / b }')
echo "| ji_referee | r = 200000 rounds, 1.3 MB (random/0050) | $(awk -v a="$ours" 'BEGIN { printf "%.1f ms", a / 1000 }') | wc -w same input: $(awk -v a="$floor" 'BEGIN { printf "%.1f ms", a / 1000 }') | ${ratio}x |"
