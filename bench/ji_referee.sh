#!/usr/bin/env bash
# Benchmark of ji_referee: one record of r = 200000 rounds in which every
# round is played (`kit gen ji_referee --profile max_rounds --seed 1`:
# legal moves where nobody wins, verdict CONTINUE, about 1.8 MB), best of 15
# runs, against `wc -w` (C locale) on the same bytes (an I/O-and-tokenising floor: it
# reads and splits the input just as the referee must, and does nothing
# else). Run from the repo root after `cargo build --release`.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
bin=${BIN:-${CARGO_TARGET_DIR:-target}/release/ji_referee}
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
input=$tmp/record.in
kit_gen ji_referee --profile max_rounds --seed 1 >"$input"
size=$(wc -c <"$input" | awk '{ printf "%.1f MB", $1 / 1e6 }')

read -r ours floor < <(best_us 15 "$input::$bin" "$input::env LC_ALL=C wc -w")
echo "| ji_referee | r = 200000 rounds, all played, $size (kit gen max_rounds) | $(ms "$ours") | wc -w same input: $(ms "$floor") | $(ratio "$ours" "$floor") |"
