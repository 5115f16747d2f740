#!/usr/bin/env bash
# Benchmark of the 集 trainer: one default `t` from a fresh start with
# --seed 1 on the common variant, then `e`. Prints one markdown row:
#   | ji | workload | exploitability X after G generations (T s CPU) | reference | ratio |
# where the ratio is X / 0.1 (the bound we require; the goal is 0.02,
# the uniform AI scores 0.5). The training curve (exploitability every 50
# generations) goes to stderr and to $JI_CURVE (default /tmp/ji_curve.txt).
# With JI_VARIANT=FILE, the same on that variant (docs/ji_trainer.md's
# breakthrough figure: JI_VARIANT=tests/data/ji_solver/bobozan/k4_a1_b2.variant).
# Run from the repo root after `cargo build --release`.
set -euo pipefail
target="${CARGO_TARGET_DIR:-target}"
case "$target" in /*) ;; *) target="$(pwd)/$target" ;; esac
bin="$target/release/ji"
[ -x "$bin" ] || { echo "bench/ji.sh: $bin not built (cargo build --release)" >&2; exit 1; }
curve="${JI_CURVE:-/tmp/ji_curve.txt}"
variant_args=()
workload="common variant"
reference="uniform AI 0.5 / target 0.1"
if [ -n "${JI_VARIANT:-}" ]; then
  variant_args=(--variant "$(cd "$(dirname "$JI_VARIANT")" && pwd)/$(basename "$JI_VARIANT")")
  workload="$(basename "$JI_VARIANT")"
  reference="target 0.1"
fi
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
# CPU seconds (user + sys), not wall time: on a shared machine the wall
# time of the same run varies by 2x, its CPU time much less.
TIMEFORMAT='%U %S'
{ time (cd "$dir" && printf 't\ne\n' | "$bin" --seed 1 ${variant_args[@]+"${variant_args[@]}"} >"$dir/transcript"); } 2>"$dir/cpu"
grep '^generation' "$dir/transcript" \
  | sed -E 's/^generation ([0-9]+): best fitness (-?[0-9.]+), exploitability ([0-9.]+)$/\1 \3/' > "$curve"
{ echo "generation exploitability"; cat "$curve"; } >&2
gens=$(tail -1 "$curve" | cut -d' ' -f1)
x=$(sed -n 's/^exploitability: //p' "$dir/transcript")
cpu=$(awk '{ print $1 + $2 }' "$dir/cpu")
awk -v x="$x" -v g="$gens" -v cpu="$cpu" -v w="$workload" -v r="$reference" 'BEGIN {
  printf "| ji | default t, --seed 1, %s | exploitability %s after %s generations (%.1f s CPU) | %s | %.3f |\n", w, x, g, cpu, r, x / 0.1 }'
