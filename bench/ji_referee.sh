#!/usr/bin/env bash
# Benchmark of ji_referee: one record of r = 200000 rounds (the public case
# tests/data/ji_referee/random/0050.in, 1.3 MB, every round is played), best
# of 15 runs, against `wc -w` on the same bytes (an I/O-and-tokenising floor:
# it reads and splits the input just as the referee must, and does nothing
# else). Run from the repo root after `cargo build --release`.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
bin=${BIN:-target/release/ji_referee}
input=tests/data/ji_referee/random/0050.in
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 1; }

read -r ours floor < <(best_us 15 "$input::$bin" "$input::wc -w")
echo "| ji_referee | r = 200000 rounds, 1.3 MB (random/0050) | $(ms "$ours") | wc -w same input: $(ms "$floor") | $(ratio "$ours" "$floor") |"
