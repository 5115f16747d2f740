#!/usr/bin/env bash
# Benchmark of ants_battle (run from the repo root after `cargo build --release`).
# Prints markdown rows `| ants_battle | workload | ours | reference | ratio |`.
# Speed is judged as ratios against the same binary on the same map at
# attackradius2 0, where nobody fights: reading and writing the map (the I/O
# floor). Targets: focus r2=5 <= 2x, damage and closest r2=25 <= 6x.
# Each figure is the best of RUNS wall-clock runs (default 9), process start
# included (as for the floor); the rounds interleave the workloads. The main
# 2000x2000 workloads are also run pinned to one core (`taskset -c 0`, if
# available; ratios against the floor pinned likewise): worker threads are
# optional and only buy speed, so both figures matter.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
bin=${CARGO_TARGET_DIR:-target}/release/ants_battle
gen=../shared/tools/ants_bench_map.py
runs=${RUNS:-9}
[ -x "$bin" ] || { echo "build first: cargo build --release ($bin missing)" >&2; exit 1; }
[ -f "$gen" ] || { echo "missing $gen" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

big="2000 2000 0.4 4"
python3 "$gen" $big 0 focus >"$tmp/floor.in"
python3 "$gen" $big 5 focus >"$tmp/focus5.in"
python3 "$gen" $big 25 damage >"$tmp/damage25.in"
python3 "$gen" $big 25 closest >"$tmp/closest25.in"
python3 "$gen" $big 25 support >"$tmp/support25.in"
python3 "$gen" $big 100 damage >"$tmp/damage100.in"
python3 "$gen" 200 200 0.5 4 5 focus >"$tmp/small_focus.in" # 20,000 ants

files=()
for n in floor focus5 damage25 closest25 support25 damage100 small_focus; do
  files+=("$tmp/$n.in::$bin")
done
pinned=(floor focus5 damage25 closest25 support25)
if command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null; then
  for n in "${pinned[@]}"; do files+=("$tmp/$n.in::taskset -c 0 $bin"); done
else
  pinned=()
fi
read -r -a us <<<"$(best_us "$runs" "${files[@]}")"
floor=${us[0]}
echo "| ants_battle | 2000x2000, 40% ants, 4 players, r2=0 (I/O floor) | $(ms "$floor") | - | 1.00x |"
row() { # name micros [target]
  local what="2000x2000 $1"
  [ -n "${3:-}" ] && what="$what (target <= $3x floor)"
  echo "| ants_battle | $what | $(ms "$2") | floor $(ms "$floor") | $(ratio "$2" "$floor") |"
}
row "focus r2=5" "${us[1]}" 2
row "damage r2=25" "${us[2]}" 6
row "closest r2=25" "${us[3]}" 6
row "support r2=25" "${us[4]}"
row "damage r2=100" "${us[5]}"
small=${us[6]}
echo "| ants_battle | 200x200 focus r2=5, 20,000 ants (vs official Python engine) | $(ms "$small") | 540.0 ms | $(ratio 540000 "$small") faster |"
if [ ${#pinned[@]} -gt 0 ]; then
  floor1=${us[7]}
  echo "| ants_battle | 1 core: 2000x2000 r2=0 (I/O floor) | $(ms "$floor1") | - | 1.00x |"
  i=8
  for what in "focus r2=5" "damage r2=25" "closest r2=25" "support r2=25"; do
    echo "| ants_battle | 1 core: 2000x2000 $what | $(ms "${us[$i]}") | floor $(ms "$floor1") | $(ratio "${us[$i]}" "$floor1") |"
    i=$((i + 1))
  done
fi
