#!/usr/bin/env bash
# The unlimited game (R = 0, p = 0) of ji_solver by size: for each C of
# SIZES, COUNT random variants whose largest req is exactly C (1 to 12
# skills, xorshift 13/7/17 from SEED; every state queried), and the
# ladder (`charge 1 0 0`, `big -C C 1 charge`: whoever is ahead wins);
# per row the states a layer, how many exit 0 (proved), and the CPU per
# input (user + sys of the child, from getrusage), median and largest.
# Usage (from the repo root, after `cargo build --release`):
#   bench/ji_solver_scale.sh [COUNT [SEED]]
# BIN=path overrides the binary; SIZES="10 21 ..." the sizes; KEEP=dir
# keeps the inputs. Last, the discounted game: the common variant at every
# state with p = 1 and p = 0.0001 (R = 0), CPU median of 21 runs each and
# their ratio (the goal: within 3x).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-target/release/ji_solver}
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 1; }
python3 - "$bin" "${1:-12}" "${2:-0x9e3779b97f4a7c15}" "${SIZES:-10 21 22 30 45 63 100 1000}" "${KEEP:-}" <<'PY'
import os, resource, statistics, subprocess, sys, tempfile
solver, count, seed, sizes, keep = sys.argv[1], int(sys.argv[2]), int(sys.argv[3], 0), sys.argv[4], sys.argv[5]
MASK = (1 << 64) - 1
state = seed

def below(n):
    global state
    state ^= (state << 13) & MASK
    state ^= state >> 7
    state ^= (state << 17) & MASK
    return state % n

def random_variant(c, max_n=12):
    n = 2 + below(max_n - 1)
    delta, req = [], []
    for i in range(n):
        kind = below(3)
        d = 1 + below(3) if kind == 0 else 0 if kind == 1 else -below(c + 1)
        least = max(-d, 0)
        r = least if i == 0 else least + below(c - least + 1)
        delta.append(d)
        req.append(r)
    # One skill needs exactly C (its req stays above its cost: delta >= -C).
    req[1 + below(n - 1)] = c
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
        text += f"s{i} {delta[i]} {req[i]} {len(lst)} {' '.join(lst)}".rstrip() + "\n"
    return text

def run(path):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(path, "rb") as f:
        rc = subprocess.run([solver], stdin=f, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL).returncode
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return rc, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime

def fmt(s):
    return f"{s * 1000:.1f} ms" if s < 1 else f"{s:.2f} s"

folder = keep or tempfile.mkdtemp()
os.makedirs(folder, exist_ok=True)
print("| C | states a layer | set | proved (exit 0) | CPU median | CPU max |")
print("| --- | --- | --- | --- | --- | --- |")
for c in map(int, sizes.split()):
    w = c + 1
    # Every state queried up to C = 63; beyond, a diagonal and its neighbours.
    if c <= 63:
        queries = [(a, b) for a in range(w) for b in range(w)]
    else:
        queries = [(a, b) for a in range(w) for b in (a - 1, a, a + 1) if 0 <= b <= c]
    qtext = f"0 0\n{len(queries)}\n" + "".join(f"{a} {b}\n" for a, b in queries)
    sets = [("ladder", [f"2\ncharge 1 0 0\nbig -{c} {c} 1 charge\n"])]
    if c <= 100:
        sets.insert(0, (f"{count} random", [random_variant(c) for _ in range(count)]))
    for name, variants in sets:
        rows = []
        for k, text in enumerate(variants):
            path = os.path.join(folder, f"C{c}_{name.split()[-1]}_{k:03}.in")
            with open(path, "w") as f:
                f.write(text + qtext)
            rows.append(run(path))
        cpu = [t for _, t in rows]
        proved = sum(1 for rc, _ in rows if rc == 0)
        print(f"| {c} | {w * w:,} | {name} | {proved} of {len(rows)} | {fmt(statistics.median(cpu))} | {fmt(max(cpu))} |", flush=True)

common = open("tests/data/ji_variant/common.txt").read()
queries = "".join(f"{a} {b}\n" for a in range(6) for b in range(6))
medians = {}
for p in ("1", "0.0001"):
    path = os.path.join(folder, f"common_p{p}.in")
    with open(path, "w") as f:
        f.write(f"{common}0 {p}\n36\n{queries}")
    runs = [run(path) for _ in range(21)]
    assert all(rc == 0 for rc, _ in runs), p
    medians[p] = statistics.median(t for _, t in runs)
    print(f"common variant, R = 0, p = {p}: exit 0, CPU median {fmt(medians[p])}")
print(f"ratio p = 0.0001 / p = 1: {medians['0.0001'] / max(medians['1'], 1e-6):.2f}")
PY
