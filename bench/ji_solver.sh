#!/usr/bin/env bash
# Benchmark of ji_solver, best wall time of 15 runs (process start included):
# - the common variant, unlimited game (R = 0, p = 0), all 36 states
#   (tests/data/ji_solver/examples/common_unlimited_all.in), against the
#   published figure for a Python prototype, 0.8 s (target: 10 ms);
# - n = 8, C = 10, R = 1000, p = 0, all 121 states (the public max-profile
#   case tests/data/ji_solver/random/0021.in, exact fixed point after 226
#   rounds), against the 1 s budget; the same size with a 无限集 variant
#   whose values still move at round 1000 (edge/max_infinite_ji_R1000.in),
#   so that all 1000 rounds are played;
# - the same with p = 0.5 (random/0033.in);
# - the slowest certified unlimited game found (slow/random_slowest_certified.in);
# - the stall case (slow/stall.in), against the 50 ms median target;
# - 1,000 random unlimited games from `kit gen`: exit 3 count, CPU median
#   and largest (below);
# - the 1,000 random unlimited variants of the unit tests' generator
#   (bench/ji_solver_unlimited.sh, the figure docs/ji.md reports);
# - lasting effects (bench/ji_solver_lasting.sh): the anchor's variants in
#   every mode, and the common variant with a breakthrough per defence.
# Run from the repo root after `cargo build --release`.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
bin=${BIN:-target/release/ji_solver}
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 1; }

row() { # workload file reference_ms reference_label
  local us
  us=$(best_us 15 "$2::$bin")
  awk -v w="$1" -v us="$us" -v ref="$3" -v lab="$4" 'BEGIN {
    printf "| ji_solver | %s | %.2f ms | %s | %.4fx |\n", w, us / 1000, lab, us / 1000 / ref }'
}

row "common variant, unlimited, all 36 states" \
  tests/data/ji_solver/examples/common_unlimited_all.in 800 "Python prototype 800 ms (published)"
row "common variant, unlimited, vs the 10 ms target" \
  tests/data/ji_solver/examples/common_unlimited_all.in 10 "target 10 ms"
row "n = 8, C = 10, R = 1000, p = 0, 121 states" \
  tests/data/ji_solver/random/0021.in 1000 "budget 1000 ms"
row "n = 8, C = 10, R = 1000, p = 0, 无限集, all 1000 rounds played" \
  tests/data/ji_solver/edge/max_infinite_ji_R1000.in 1000 "budget 1000 ms"
row "n = 8, C = 10, R = 1000, p = 0.5, 121 states" \
  tests/data/ji_solver/random/0033.in 1000 "budget 1000 ms"
# The slowest random unlimited game found (R = 0, p = 0, n = 11, C = 10, out
# of 1000 draws): values only certified by the exact evaluation of both
# players' stationary strategies.
row "slowest certified unlimited game found (n = 11, C = 10, R = 0, p = 0)" \
  tests/data/ji_solver/slow/random_slowest_certified.in 1000 "budget 1000 ms"
# The stall case (R = 0, p = 0, n = 7, C = 10): lim V_k is -1/3 where the
# unlimited game's value is 0; the proof by the exact check (docs/ji.md).
row "stall: value 0 where lim V_k = -1/3, proved (n = 7, C = 10, R = 0, p = 0)" \
  tests/data/ji_solver/slow/stall.in 50 "median target 50 ms"
# The unlimited game on 1,000 random variants (`kit gen ji_solver --profile
# unlimited`, 2..12 skills, seed 1, every state queried): how many draws
# exit 3 (kit draws those again and counts them), and the CPU time (user +
# sys of the child) per proved input, median and largest, against the
# targets: a 50 ms median and 1 s per input.
kit=${KIT:-target/release/kit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
summary=$("$kit" gen ji_solver --profile unlimited --seed 1 --count 1000 --out "$tmp/cases")
redrawn=$(echo "$summary" | sed -n 's/.*; \([0-9]*\) inputs\{0,1\} without an answer w.*/\1/p')
python3 - "$bin" "$tmp/cases" "${redrawn:-0}" <<'PY'
import glob, os, resource, statistics, subprocess, sys
solver, folder, redrawn = sys.argv[1], sys.argv[2], int(sys.argv[3])
cpu = []
for case in sorted(glob.glob(os.path.join(folder, "*.in"))):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(case, "rb") as f:
        subprocess.run([solver], stdin=f, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
median, worst = statistics.median(cpu), max(cpu)
draws = len(cpu) + redrawn
print(f"| ji_solver | unlimited game, 1,000 random variants (kit gen unlimited, 2..12 skills): "
      f"{len(cpu)} proved, {redrawn} of {draws} draws exit 3 | CPU median {median:.1f} ms, "
      f"max {worst:.1f} ms | median target 50 ms, 1 s per input | {median / 50:.4f}x |")
PY
BIN=$bin KIT_SEEDS= bench/ji_solver_unlimited.sh
BIN=$bin bench/ji_solver_lasting.sh
