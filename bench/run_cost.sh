#!/usr/bin/env bash
# The cost of running a program as a judge does, per way of measuring
# (docs/kit.md): a control group per run (`KIT_CGROUP=v1`, or v2 where
# delegated) against no group (`KIT_CGROUP=off`: every descendant followed
# through /proc), both against a bare shell loop that runs our 猪国杀
# solver on the same small cases. Rows: `kit judge` on 150 cases (target
# <= 1.25x the bare loop), and `kit stress --count 400` at --jobs 1 and 2
# (each case runs our solver and the program: against a bare loop over
# 2 x 400 runs). Best of 5 wall times, all items taken in turn in every
# round so that they see the same load. A mode the machine lacks is
# skipped (its row says so). Run from the repo root after `cargo build
# --release`.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
target=$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd)
[ -x "$target/kit" ] && [ -x "$target/zhuguosha" ] ||
  { echo "build first: cargo build --release" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/empty"
# kit's line on how it measures (once per command) is left out.
quiet() { "$@" 2> >(grep -v '^kit: measuring' >&2); }
quiet "$target/kit" gen zhuguosha --count 150 --out "$tmp/judge" >/dev/null
quiet "$target/kit" gen zhuguosha --count 400 --out "$tmp/stress" >/dev/null
solver=$target/zhuguosha
bare() { # DIR REPEAT: the solver on every case of DIR, REPEAT times, from sh
  echo "$tmp/empty::sh -c 'for k in \$(seq $2); do for f in $1/*.in; do $solver < \$f > /dev/null; done; done'"
}
# The modes this machine has: a forced mode that cannot be used says so.
modes=()
for mode in v2 v1 off; do
  # (Kept whole: `grep -q` may end first and fail the pipeline.)
  said=$(KIT_CGROUP=$mode "$target/kit" judge zhuguosha "$tmp/judge/0000.in" -- "$solver" 2>&1 >/dev/null)
  if [[ $said == *"no cgroup"* ]]; then
    echo "| kit | run cost, KIT_CGROUP=$mode | skipped: not available here | | |"
  else
    modes+=("$mode")
  fi
done
items=("$(bare "$tmp/judge" 1)" "$(bare "$tmp/stress" 2)")
for mode in "${modes[@]}"; do
  items+=("$tmp/empty::env KIT_CGROUP=$mode $target/kit judge zhuguosha --dir $tmp/judge -- $solver")
  for jobs in 1 2; do
    items+=("$tmp/empty::env KIT_CGROUP=$mode $target/kit stress zhuguosha --count 400 --jobs $jobs --out $tmp/failures -- $solver")
  done
done
read -r -a t < <(quiet best_us 5 "${items[@]}")
k=2
for mode in "${modes[@]}"; do
  echo "| kit | \`kit judge zhuguosha\`, 150 cases, KIT_CGROUP=$mode (target <= 1.25x) | $(ms "${t[$k]}") | bare sh loop: $(ms "${t[0]}") | $(ratio "${t[$k]}" "${t[0]}") |"
  for jobs in 1 2; do
    k=$((k + 1))
    echo "| kit | \`kit stress zhuguosha\`, 400 cases, --jobs $jobs, KIT_CGROUP=$mode | $(ms "${t[$k]}") | bare sh loop, 800 runs: $(ms "${t[1]}") | $(ratio "${t[$k]}" "${t[1]}") |"
  done
  k=$((k + 1))
done
