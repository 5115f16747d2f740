#!/usr/bin/env bash
# The cost of running a program as a judge does, per way of measuring
# (docs/kit.md): a control group per run (`KIT_CGROUP=v1`, or v2 where
# delegated) and no group (`KIT_CGROUP=off`: every descendant followed
# through /proc), against a bare shell loop that runs our 猪国杀 solver on
# the same small cases. Rows: `kit judge` on 150 cases (target <= 1.25x
# the bare loop), and `kit stress --count 400` at --jobs 1 and 2 (each
# case runs our solver and the program: against a bare loop over 2 x 400
# runs; target: --jobs 2 at least 1.8x --jobs 1 on two cores).
#
# Each item is run RUNS times (default 5), all items in turn in every
# round, the order reversed every other round (paired runs, so that all
# see the same load). Two figures per item: the best wall time, and the
# median CPU time (user + system of kit and everything it reaped, from
# wait4), which a loaded machine moves far less than the wall time. With
# PREV=FOLDER (a previous release's `kit`, e.g. built in a `git worktree`
# of it), its rows are measured in the same rounds, side by side. A mode
# the machine lacks is skipped (its row says so). Run from the repo root
# after `cargo build --release`.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
target=$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd)
[ -x "$target/kit" ] && [ -x "$target/zhuguosha" ] ||
  { echo "build first: cargo build --release" >&2; exit 1; }
prev=${PREV:-}
[ -z "$prev" ] || [ -x "$prev/kit" ] || { echo "PREV=$prev has no kit" >&2; exit 1; }
runs=${RUNS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
quiet() { "$@" 2> >(grep -v '^kit: measuring' >&2); }
quiet "$target/kit" gen zhuguosha --count 150 --out "$tmp/judge" >/dev/null
quiet "$target/kit" gen zhuguosha --count 400 --out "$tmp/stress" >/dev/null
solver=$target/zhuguosha
bare() { # DIR REPEAT: the solver on every case of DIR, REPEAT times, from sh
  echo "sh -c 'for k in \$(seq $2); do for f in $1/*.in; do $solver < \$f > /dev/null; done; done'"
}
# The modes this machine has: a forced mode that cannot be used says so.
modes=()
for mode in v2 v1 off; do
  said=$(KIT_CGROUP=$mode "$target/kit" judge zhuguosha "$tmp/judge/0000.in" -- "$solver" 2>&1 >/dev/null)
  if [[ $said == *"no cgroup"* ]]; then
    echo "| kit | run cost, KIT_CGROUP=$mode | skipped: not available here | | |"
  else
    modes+=("$mode")
  fi
done
kits=("$target")
names=("this kit")
[ -z "$prev" ] || { kits+=("$prev"); names+=("previous release"); }
items=("$(bare "$tmp/judge" 1)" "$(bare "$tmp/stress" 2)")
for mode in "${modes[@]}"; do
  for k in "${kits[@]}"; do
    items+=("env KIT_CGROUP=$mode $k/kit judge zhuguosha --dir $tmp/judge -- $solver")
    for jobs in 1 2; do
      items+=("env KIT_CGROUP=$mode $k/kit stress zhuguosha --count 400 --jobs $jobs --out $tmp/failures -- $solver")
    done
  done
done
# One line per item: best wall and median CPU, in microseconds.
mapfile -t figures < <(python3 - "$runs" "${items[@]}" <<'PY'
import os, shlex, statistics, subprocess, sys, time
runs, items = int(sys.argv[1]), sys.argv[2:]
wall = [[] for _ in items]
cpu = [[] for _ in items]
for r in range(runs):
    order = range(len(items)) if r % 2 == 0 else reversed(range(len(items)))
    for i in order:
        with open("/dev/null", "rb") as inp, open("/dev/null", "wb") as out:
            t0 = time.perf_counter()
            p = subprocess.Popen(shlex.split(items[i]), stdin=inp, stdout=out, stderr=subprocess.DEVNULL)
            _, _, usage = os.wait4(p.pid, 0)
            wall[i].append(time.perf_counter() - t0)
            cpu[i].append(usage.ru_utime + usage.ru_stime)
for w, c in zip(wall, cpu):
    print(int(min(w) * 1e6), int(statistics.median(c) * 1e6))
PY
)
fig() { # K: "W ms wall, C ms CPU" of item K
  read -r w c <<<"${figures[$1]}"
  echo "$(ms "$w") wall, $(ms "$c") CPU"
}
ratios() { # K BASE: "wall ratio, CPU ratio" of item K against item BASE
  read -r w c <<<"${figures[$1]}"
  read -r bw bc <<<"${figures[$2]}"
  echo "$(ratio "$w" "$bw") wall, $(ratio "$c" "$bc") CPU"
}
target_mark() { # K BASE LIMIT: ", MISSES <= LIMITx" when the wall or the CPU
  # ratio is over it (on a loaded machine the wall ratio alone can hide it)
  read -r w c <<<"${figures[$1]}"
  read -r bw bc <<<"${figures[$2]}"
  awk -v a="$w" -v b="$bw" -v c="$c" -v d="$bc" -v l="$3" \
    'BEGIN { if (a / b > l || c / d > l) printf ", MISSES <= %sx", l }'
}
k=2
for mode in "${modes[@]}"; do
  for n in "${!kits[@]}"; do
    who=${names[$n]}
    echo "| kit | \`kit judge zhuguosha\`, 150 cases, KIT_CGROUP=$mode, $who (target <= 1.25x) | $(fig $k) | bare sh loop: $(fig 0) | $(ratios $k 0)$(target_mark $k 0 1.25) |"
    for jobs in 1 2; do
      echo "| kit | \`kit stress zhuguosha\`, 400 cases, --jobs $jobs, KIT_CGROUP=$mode, $who | $(fig $((k + jobs))) | bare sh loop, 800 runs: $(fig 1) | $(ratios $((k + jobs)) 1) |"
    done
    read -r one _ <<<"${figures[$((k + 1))]}"
    read -r two _ <<<"${figures[$((k + 2))]}"
    speed=$(awk -v a="$one" -v b="$two" 'BEGIN { printf "%.2fx", a / b }')
    miss=$(awk -v a="$one" -v b="$two" 'BEGIN { if (a / b < 1.8) printf ", MISSES >= 1.8x" }')
    echo "| kit | \`kit stress\` --jobs 2 against --jobs 1, KIT_CGROUP=$mode, $who (target >= 1.8x) | $(ms "$two") wall | --jobs 1: $(ms "$one") wall | $speed$miss |"
    k=$((k + 3))
  done
done
