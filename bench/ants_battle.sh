#!/usr/bin/env bash
# Benchmark of ants_battle (run from the repo root after `cargo build --release`).
# Prints markdown rows `| ants_battle | workload | ours | reference | ratio |`.
# Speed is judged as ratios against the same binary on the same map at
# attackradius2 0, where nobody fights: reading and writing the map (the I/O
# floor). Targets: focus r2=5 <= 2x, damage and closest r2=25 <= 6x.
# Each figure is the best of RUNS wall-clock runs (default 9), process start
# included (as for the floor).
set -euo pipefail
bin=${CARGO_TARGET_DIR:-target}/release/ants_battle
gen=../shared/tools/ants_bench_map.py
runs=${RUNS:-9}
[ -x "$bin" ] || { echo "build first: cargo build --release ($bin missing)" >&2; exit 1; }
[ -f "$gen" ] || { echo "missing $gen" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Best wall time in microseconds of `$bin < $1 > /dev/null` over $runs runs,
# timed in-process by Python (no `date` forks inside the measured span).
best_us() {
  python3 - "$bin" "$1" "$runs" <<'PY'
import subprocess, sys, time
binary, path, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
best = None
for _ in range(runs):
    with open(path, "rb") as inp, open("/dev/null", "wb") as out:
        t0 = time.perf_counter()
        subprocess.run([binary], stdin=inp, stdout=out, check=True)
        t = time.perf_counter() - t0
    best = t if best is None else min(best, t)
print(int(best * 1e6))
PY
}
ms() { awk -v u="$1" 'BEGIN { printf "%.1f ms", u / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }

big="2000 2000 0.4 4"
python3 "$gen" $big 0 focus >"$tmp/floor.in"
python3 "$gen" $big 5 focus >"$tmp/focus5.in"
python3 "$gen" $big 25 damage >"$tmp/damage25.in"
python3 "$gen" $big 25 closest >"$tmp/closest25.in"
python3 "$gen" $big 25 support >"$tmp/support25.in"
python3 "$gen" $big 100 damage >"$tmp/damage100.in"
python3 "$gen" 200 200 0.5 4 5 focus >"$tmp/small_focus.in" # 20,000 ants

floor=$(best_us "$tmp/floor.in")
echo "| ants_battle | 2000x2000, 40% ants, 4 players, r2=0 (I/O floor) | $(ms "$floor") | - | 1.00x |"
row() { # name file target
  local t
  t=$(best_us "$2")
  echo "| ants_battle | 2000x2000 $1 (target <= $3x floor) | $(ms "$t") | floor $(ms "$floor") | $(ratio "$t" "$floor") |"
}
row "focus r2=5" "$tmp/focus5.in" 2
row "damage r2=25" "$tmp/damage25.in" 6
row "closest r2=25" "$tmp/closest25.in" 6
row "support r2=25" "$tmp/support25.in" 6
row "damage r2=100" "$tmp/damage100.in" "-"
small=$(best_us "$tmp/small_focus.in")
echo "| ants_battle | 200x200 focus r2=5, 20,000 ants (vs official Python engine) | $(ms "$small") | 540.0 ms | $(ratio 540000 "$small") faster |"
