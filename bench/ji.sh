#!/usr/bin/env bash
# Benchmark of the 集 trainer: one default `t` from a fresh start with
# --seed 1 on the common variant, then `e`. Prints one markdown row:
#   | ji | workload | exploitability X after G generations (T s CPU) | reference | ratio |
# where the ratio is X / 0.1 (the bound we require; the goal is 0.02,
# the uniform AI scores 0.5). The training curve (exploitability every 50
# generations) goes to stderr and to $JI_CURVE (default /tmp/ji_curve.txt).
# Run from the repo root after `cargo build --release`.
set -euo pipefail
target="${CARGO_TARGET_DIR:-target}"
case "$target" in /*) ;; *) target="$(pwd)/$target" ;; esac
bin="$target/release/ji"
[ -x "$bin" ] || { echo "bench/ji.sh: $bin not built (cargo build --release)" >&2; exit 1; }
curve="${JI_CURVE:-/tmp/ji_curve.txt}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
# CPU seconds (user + sys), not wall time: on a shared machine the wall
# time of the same run varies by 2x, its CPU time much less.
TIMEFORMAT='%U %S'
{ time (cd "$dir" && printf 't\ne\n' | "$bin" --seed 1 >"$dir/transcript"); } 2>"$dir/cpu"
grep '^generation' "$dir/transcript" \
  | sed -E 's/^generation ([0-9]+): best fitness (-?[0-9.]+), exploitability ([0-9.]+)$/\1 \3/' > "$curve"
{ echo "generation exploitability"; cat "$curve"; } >&2
gens=$(tail -1 "$curve" | cut -d' ' -f1)
x=$(sed -n 's/^exploitability: //p' "$dir/transcript")
cpu=$(awk '{ print $1 + $2 }' "$dir/cpu")
awk -v x="$x" -v g="$gens" -v cpu="$cpu" 'BEGIN {
  printf "| ji | default t, --seed 1, common variant | exploitability %s after %s generations (%.1f s CPU) | uniform AI 0.5 / target 0.1 | %.3f |\n", x, g, cpu, x / 0.1 }'
