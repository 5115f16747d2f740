#!/usr/bin/env bash
# ji_solver on lasting effects: every translated variant of the anchor
# (tests/data/ji_solver/bobozan/, k <= 8, one or two breakthroughs), all
# its states (every count pair and lost-set pair of its .values) in each
# mode: R = 20 (p = 0), p = 5 (R = 0) and the unlimited game. One row per
# variant: the lost-set pairs, the states and the CPU time (user + sys of
# the child, from getrusage) per mode; then the median and largest over
# all variants and modes against the targets (under 50 ms median, 1 s per
# input), and the common variant with a breakthrough taking each defence
# (tests/data/ji_solver/lasting/common_breakthrough_per_defence_unlimited,
# 64 lost-set pairs), unlimited, every state, against its 2 s target.
# Run from the repo root after `cargo build --release`; BIN=path overrides
# the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-target/release/ji_solver}
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 1; }
python3 - "$bin" <<'PY'
import glob, os, resource, statistics, subprocess, sys
solver = sys.argv[1]

def cpu_ms(text):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run([solver], input=text.encode(), stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert run.returncode == 0, f"exit {run.returncode}"
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000

def lost(names):
    return f"{len(names)}" + "".join(" " + n for n in names)

modes = [("R = 20", "20 0"), ("p = 5", "0 5"), ("unlimited", "0 0")]
every = []
for path in sorted(glob.glob("tests/data/ji_solver/bobozan/*.variant")):
    name = os.path.basename(path)[:-len(".variant")]
    variant = open(path).read()
    rows = [l.split() for l in open(path[:-len(".variant")] + ".values")
            if l.strip() and not l.startswith("#")]
    queries = [f"{a} {b} lost {lost(['defence'] * int(la))} {lost(['defence'] * int(lb))}"
               for a, b, la, lb, *_ in rows]
    pairs = len({(r[2], r[3]) for r in rows})
    cells = []
    for label, line in modes:
        ms = cpu_ms(f"{variant}{line}\n{len(queries)}\n" + "\n".join(queries) + "\n")
        every.append(ms)
        cells.append(f"{label} {ms:.1f} ms")
    print(f"| ji_solver | lasting, bobozan {name}: {pairs} lost-set pairs, {len(rows)} queried states, "
          f"each mode | {', '.join(cells)} | 1 s per input | {max(every[-3:]) / 1000:.4f}x |")
median, worst = statistics.median(every), max(every)
print(f"| ji_solver | lasting, the {len(every) // 3} bobozan variants x 3 modes: median and largest "
      f"| CPU median {median:.1f} ms, max {worst:.1f} ms | median target 50 ms, 1 s per input "
      f"| {median / 50:.4f}x |")
# The common variant with a breakthrough per defence: every state of its
# 64 lost-set pairs (each side's lost set any subset of the defences).
text = open("tests/data/ji_solver/lasting/common_breakthrough_per_defence_unlimited.in").read()
variant = text[:text.index("\n0 0\n") + 1]
defences = ["小防", "中防", "大防"]
sets = [lost([d for k, d in enumerate(defences) if m >> k & 1]) for m in range(8)]
queries = [f"{a} {b} lost {la} {lb}" for la in sets for lb in sets
           for a in range(6) for b in range(6)]
ms = cpu_ms(f"{variant}0 0\n{len(queries)}\n" + "\n".join(queries) + "\n")
print(f"| ji_solver | lasting, common variant with a breakthrough per defence, unlimited: "
      f"64 lost-set pairs, {len(queries)} states | CPU {ms:.1f} ms | target 2 s | {ms / 2000:.4f}x |")
PY
