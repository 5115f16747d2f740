#!/usr/bin/env bash
# The unlimited game (R = 0, p = 0) of ji_solver on 1,000 random variants:
# how many exit 3 (not proved), and the CPU time per input (user + sys of
# the child, from getrusage), median, 99th percentile and largest.
#
# The variants are those of the unit tests' generator
# (tests/unit/ji_solver.rs: `random_variant(rng, 12, 10)`, xorshift
# 13/7/17, seed 0x2545_f491_4f6c_dd1d, 1 to 12 skills, C <= 10), drawn
# here again by a port of it, every (C+1)^2 state queried: the first 40 are
# those of the test `random_unlimited_games_are_certified`.
# Usage (from the repo root, after `cargo build --release`):
#   bench/ji_solver_unlimited.sh [COUNT [SEED]]   (COUNT 0: kit seeds only)
# BIN=path overrides the binary; KEEP=dir keeps the inputs and lists the
# exit-3 ones in dir/refused.txt; MAX_N and MAX_C (default 12 and 10) draw
# larger variants (docs/ji.md: 40 draws with MAX_N=40 MAX_C=21).
# Then, with kit built (KIT=path overrides target/release/kit), 1,000 draws
# of `kit gen ji_solver --profile unlimited` for each seed of KIT_SEEDS
# (default "1 2 3"; empty skips them): kit draws an input without an
# answer (exit 3) again and counts it, so the row gives the exit 3 per
# 1,000 draws and the CPU per proved input.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-target/release/ji_solver}
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 1; }
python3 - "$bin" "${1:-1000}" "${2:-0x2545f4914f6cdd1d}" "${KEEP:-}" "${MAX_N:-12}" "${MAX_C:-10}" <<'PY'
import os, resource, statistics, subprocess, sys, tempfile
solver, count, seed, keep = sys.argv[1], int(sys.argv[2]), int(sys.argv[3], 0), sys.argv[4]
max_n, max_c = int(sys.argv[5]), int(sys.argv[6])
MASK = (1 << 64) - 1
state = seed

def below(n):
    global state
    state ^= (state << 13) & MASK
    state ^= state >> 7
    state ^= (state << 17) & MASK
    return state % n

def random_variant(max_n, max_c):
    # The same draws, in the same order, as the unit tests' generator.
    n = 1 + below(max_n)
    c = below(max_c + 1)
    delta, req = [], []
    for i in range(n):
        kind = below(3)
        d = 1 + below(3) if kind == 0 else 0 if kind == 1 else -below(c + 1)
        least = max(-d, 0)
        r = least if i == 0 else least + below(c - least + 1)
        delta.append(d)
        req.append(r)
    beats = [[False] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            k = below(3)
            if k == 0:
                beats[i][j] = True
            elif k == 1:
                beats[j][i] = True
    text = f"{n}\n"
    for i in range(n):
        lst = [f"s{j}" for j in range(n) if beats[i][j]]
        text += f"s{i} {delta[i]} {req[i]} {len(lst)} {' '.join(lst)}\n"
    return text, max(req)

folder = keep or tempfile.mkdtemp()
os.makedirs(folder, exist_ok=True)
cpu, refused = [], []
for k in range(count):
    text, c = random_variant(max_n, max_c)
    states = "".join(f"{a} {b}\n" for a in range(c + 1) for b in range(c + 1))
    data = f"{text}0 0\n{(c + 1) ** 2}\n{states}".encode()
    path = os.path.join(folder, f"{k:04}.in")
    with open(path, "wb") as f:
        f.write(data)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(path, "rb") as f:
        rc = subprocess.run([solver], stdin=f, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL).returncode
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
    if rc == 3:
        refused.append(k)
    elif rc != 0:
        sys.exit(f"{path}: exit {rc}")
if keep:
    with open(os.path.join(folder, "refused.txt"), "w") as f:
        f.write("".join(f"{k:04}.in\n" for k in refused))
cpu.sort()
if not cpu:  # COUNT 0: the kit seeds only
    sys.exit(0)
p99 = cpu[min(len(cpu) - 1, (99 * len(cpu)) // 100)]
print(f"| ji_solver | unlimited game, {count} random variants of the unit tests' generator "
      f"(1..{max_n} skills, C <= {max_c}, seed {seed:#x}): {count - len(refused)} proved, "
      f"{len(refused)} exit 3 | CPU median {statistics.median(cpu):.1f} ms, "
      f"99th percentile {p99:.1f} ms, max {cpu[-1]:.1f} ms | median target 50 ms, 1 s per input "
      f"| {statistics.median(cpu) / 50:.4f}x |")
if refused:
    print("exit 3:", " ".join(f"{k:04}.in" for k in refused), file=sys.stderr)
PY
kit=${KIT:-target/release/kit}
for seed in ${KIT_SEEDS-1 2 3}; do
  [ -x "$kit" ] || { echo "build kit first: cargo build --release -p kit" >&2; exit 1; }
  cases=$(mktemp -d)
  summary=$("$kit" gen ji_solver --profile unlimited --seed "$seed" --count 1000 --out "$cases" --solver "$bin")
  redrawn=$(echo "$summary" | sed -n 's/.*; \([0-9]*\) inputs\{0,1\} without an answer w.*/\1/p')
  python3 - "$bin" "$cases" "${redrawn:-0}" "$seed" <<'PY'
import glob, os, resource, statistics, subprocess, sys
solver, folder, redrawn, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
cpu = []
for case in sorted(glob.glob(os.path.join(folder, "*.in"))):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(case, "rb") as f:
        subprocess.run([solver], stdin=f, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
print(f"| ji_solver | unlimited game, kit gen --profile unlimited seed {seed}: {redrawn} of "
      f"{len(cpu) + redrawn} draws exit 3 | CPU median {statistics.median(cpu):.1f} ms, "
      f"max {max(cpu):.1f} ms (proved inputs) | median target 50 ms, 1 s per input "
      f"| {statistics.median(cpu) / 50:.4f}x |")
PY
  rm -rf "$cases"
done
