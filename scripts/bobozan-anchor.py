#!/usr/bin/env python3
"""Anchor values for 集 with breakthrough (破防), from the other public solver.

Runs KamijouToumaKun/bobozan's solve_multiple2.py and solve_multiple3.py on
copies in a scratch directory, changing only their parameter lines (k, the
action list, delta), and writes under tests/data/ji_solver/bobozan/ for each
variant NAME:

  NAME.variant  the variant in our format (docs/ji.md, "Lasting effects")
  NAME.values   the two scripts' values at every state they solve, with
                provenance in its header

usage: scripts/bobozan-anchor.py BOBOZAN_GIT_DIR [NAME ...]
       (python with numpy and scipy, e.g. /opt/bobozan-venv/bin/python)

The scripts start value iteration from numpy.random.random; each run seeds
numpy's generator first (SEED, below) and widens numpy's print precision,
both from outside the script, so a run is repeatable and its values keep
their digits. Nothing of bobozan is stored in this repository: only the
values it printed.
"""

import datetime
import os
import re
import subprocess
import sys
import tempfile

SEED = 1
DELTA = "1e-11"
# CPU seconds a script may iterate. Their iteration can converge
# sublinearly once a defence is broken (solve_multiple2.py: the change per
# sweep falls like 1/t^2 at some states), so 1e-11 is not always reached
# in any time we can spend: the run is then stopped at the budget, and the
# values it had are kept with the last full sweep's largest change.
BUDGET = {"solve_multiple2.py": 10, "solve_multiple3.py": 20}
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                   "ji_solver", "bobozan")

# name: (k, attack costs, breakthrough costs). Costs ascending, every
# breakthrough at least the cheapest attack (solve_multiple3.py reads the
# action list in order and takes its first attack as the cheapest move).
VARIANTS = {
    "k3_a1_b1": (3, [1], [1]),
    "k3_a1_b2": (3, [1], [2]),
    "k4_a1_b1": (4, [1], [1]),
    "k4_a1_b2": (4, [1], [2]),
    "k4_a1_b3": (4, [1], [3]),
    "k4_a1_a2_b3": (4, [1, 2], [3]),
    "k5_a1_b2": (5, [1], [2]),
    "k5_a1_b3": (5, [1], [3]),
    "k5_a1_b4": (5, [1], [4]),
    "k5_a1_a2_b2": (5, [1, 2], [2]),
    "k5_a1_a2_b3": (5, [1, 2], [3]),
    "k5_a2_b3": (5, [2], [3]),
    "k6_a1_b3": (6, [1], [3]),
    "k6_a1_b5": (6, [1], [5]),
    "k6_a2_b4": (6, [2], [4]),
    "k6_a3_b3": (6, [3], [3]),
    "k6_a1_a2_b4": (6, [1, 2], [4]),
    "k6_a1_a2_a3_b4": (6, [1, 2, 3], [4]),
    "k7_a1_b4": (7, [1], [4]),
    "k7_a1_a2_b5": (7, [1, 2], [5]),
    "k8_a1_b5": (8, [1], [5]),
    "k8_a1_a2_a3_b5": (8, [1, 2, 3], [5]),
}


def actions(attacks, breaks):
    """The move list in cost order (attack before breakthrough at a tie)."""
    moves = [(c, 0, f"attack{c}") for c in attacks] + [(c, 1, f"breakthrough{c}") for c in breaks]
    return [m for _, _, m in sorted(moves)]


def patched(source, k, attacks, breaks):
    """The script with its parameter lines set; every other line unchanged."""
    lines = source.split("\n")
    done = set()
    for i, line in enumerate(lines):
        if re.match(r"^k = \d+$", line):
            lines[i], _ = f"k = {k}", done.add("k")
        elif re.match(r"^delta = ", line):
            lines[i], _ = f"delta = {DELTA}", done.add("delta")
        elif re.match(r"^action_attacks = ", line):
            lines[i], _ = f"action_attacks = {[f'attack{c}' for c in attacks]!r}", done.add("a")
        elif re.match(r"^actions = ", line):
            lines[i], _ = f"actions = ['energy'] + {actions(attacks, breaks)!r} + ['defence']", done.add("b")
    assert done == {"k", "delta", "a", "b"}, done
    return "\n".join(lines)


# Runs the script (argv[1]) with numpy seeded and printing every digit; a
# CPU timer stops it at the budget (argv[2] seconds), and then the values
# it has are printed from its globals, after a line `#stopped CALLS`
# (the number of LPs solved; each LP's value is kept to measure the last
# sweep). The script's own code is not changed.
RUNNER = (
    "import numpy as np, scipy.optimize as so, signal, sys\n"
    f"np.random.seed({SEED})\n"
    "np.set_printoptions(precision=15, floatmode='unique', linewidth=10**6, threshold=10**9)\n"
    "values, solve = [], so.linprog\n"
    "def lp(*a, **kw):\n"
    "    r = solve(*a, **kw)\n"
    "    values.append(float(r.x[0]))\n"
    "    return r\n"
    "so.linprog = lp\n"
    "class Budget(BaseException): pass\n"
    "def stop(*_): raise Budget()\n"
    "signal.signal(signal.SIGPROF, stop)\n"
    "signal.setitimer(signal.ITIMER_PROF, float(sys.argv[2]))\n"
    "g = {'__name__': '__main__'}\n"
    "try:\n"
    "    exec(compile(open(sys.argv[1]).read(), sys.argv[1], 'exec'), g)\n"
    "    signal.setitimer(signal.ITIMER_PROF, 0)\n"
    "    print('#converged', len(values))\n"
    "except Budget:\n"
    "    print('#stopped', len(values))\n"
    "    for nd in [(0, 0), (0, 1), (1, 0), (1, 1)]:\n"
    "        print(g['v'][nd])\n"
    "print('#values', ' '.join(repr(x) for x in values[-4 * 4 * 64:]))\n"
)


def run(git, script, k, attacks, breaks, scratch):
    """The script's output (values in its own order), whether it converged,
    and the largest change of its last full sweep if it did not."""
    source = subprocess.run(["git", "-C", git, "show", f"HEAD:{script}"], check=True,
                            capture_output=True, text=True).stdout
    path = os.path.join(scratch, script)
    with open(path, "w") as f:
        f.write(patched(source, k, attacks, breaks))
    done = subprocess.run([sys.executable, "-c", RUNNER, path, str(BUDGET[script])],
                          check=True, capture_output=True, text=True, cwd=scratch)
    out = done.stdout
    status = re.search(r"^#(converged|stopped) (\d+)$", out, re.M)
    values = [float(x) for x in re.search(r"^#values ?(.*)$", out, re.M).group(1).split()]
    if status.group(1) == "converged":
        return out[:status.start()], "converged", None
    # One sweep of solve_multiple2.py: every state of the four tables but
    # the diagonals of (0, 0) and (1, 1).
    per = 4 * k * k - 2 * k
    calls = int(status.group(2))
    full = calls - calls % per
    last, before = values[len(values) - (calls - full) - per:], None
    if script == "solve_multiple2.py" and full >= 2 * per and len(values) >= (calls - full) + 2 * per:
        end = len(values) - (calls - full)
        last, before = values[end - per:end], values[end - 2 * per:end - per]
        change = max(abs(a - b) for a, b in zip(last, before))
    else:
        change = None
    return out[status.end():], "stopped", change


def matrices(out, k):
    """Every (k+1)x(k+1) value matrix printed, in order."""
    found, rows = [], None
    for line in out.split("\n"):
        s = line.strip()
        if s.startswith("[["):
            rows = []
        if rows is not None:
            nums = re.findall(r"[-+]?\d+\.?\d*(?:e[-+]?\d+)?", s)
            if nums:
                rows.append([float(x) for x in nums])
            if s.endswith("]]"):
                assert len(rows) == k + 1 and all(len(r) == k + 1 for r in rows), rows
                found.append(rows)
                rows = None
    return found


def tables(script, out, k, status):
    """{(A broken, B broken): matrix}, as each script prints them (when
    stopped, the runner prints them in multiple2's order)."""
    m = matrices(out, k)
    if status == "stopped" or script == "solve_multiple2.py":
        order = [(0, 0), (0, 1), (1, 0), (1, 1)]
    else:
        order = [(1, 1), (1, 0), (0, 1), (0, 0)]
    assert len(m) == 4, (script, len(m))
    return dict(zip(order, m))


def variant_text(k, attacks, breaks):
    """The variant in our format: reaching k wins, as a skill of cost k
    that beats every other; a breakthrough met by defence takes it."""
    moves = [(c, f"attack{c}") for c in attacks] + [(c, f"breakthrough{c}") for c in breaks]
    moves.sort()
    skills = [("energy", 1, 0, []), ("defence", 0, 0, [])]
    for c, name in moves:
        beaten = ["energy"] + [m for d, m in moves if d < c]
        skills.append((name, -c, c, beaten))
    names = [s[0] for s in skills]
    skills.append(("ultimate", -k, k, names))
    lines = [str(len(skills))]
    lines += [" ".join([n, str(d), str(r), str(len(b))] + b) for n, d, r, b in skills]
    lines.append(f"lasting {len(breaks)}")
    lines += [f"breakthrough{c} 1 defence 1 defence" for c in breaks]
    return "\n".join(lines) + "\n"


def main():
    git = sys.argv[1]
    names = sys.argv[2:] or list(VARIANTS)
    commit = subprocess.run(["git", "-C", git, "rev-parse", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    os.makedirs(OUT, exist_ok=True)
    for name in names:
        k, attacks, breaks = VARIANTS[name]
        with tempfile.TemporaryDirectory() as scratch:
            got, how = {}, {}
            for script in ("solve_multiple2.py", "solve_multiple3.py"):
                start = datetime.datetime.now(datetime.timezone.utc)
                out, status, change = run(git, script, k, attacks, breaks, scratch)
                got[script] = tables(script, out, k, status)
                if status == "converged":
                    how[script] = f"converged to delta {DELTA}"
                else:
                    how[script] = f"stopped after {BUDGET[script]} CPU s, not converged" + (
                        f" (last sweep's largest change {change:.1e})" if change is not None else "")
                secs = (datetime.datetime.now(datetime.timezone.utc) - start).total_seconds()
                print(f"{name} {script}: {how[script]}, {secs:.0f} s", file=sys.stderr)
        with open(os.path.join(OUT, name + ".variant"), "w") as f:
            f.write(variant_text(k, attacks, breaks))
        day = datetime.date.today().isoformat()
        acts = actions(attacks, breaks)
        with open(os.path.join(OUT, name + ".values"), "w") as f:
            f.write(f"# anchor: KamijouToumaKun/bobozan {commit}, solve_multiple2.py and\n"
                    f"# solve_multiple3.py, run {day} by scripts/bobozan-anchor.py with\n"
                    f"# k = {k}, actions = ['energy'] + {acts} + ['defence'],\n"
                    f"# delta = {DELTA}, numpy.random.seed({SEED}) before the script.\n"
                    f"# solve_multiple2.py: {how['solve_multiple2.py']}.\n"
                    f"# solve_multiple3.py: {how['solve_multiple3.py']}.\n"
                    "# Columns: A's count a, B's count b, whether A and B have lost\n"
                    "# defence (0/1), then each script's value as P(A wins) - P(B wins)\n"
                    "# (2v - 1 of its v in [0, 1]), 15 significant digits.\n"
                    "# a b A_lost B_lost multiple2 multiple3\n")
            for lost in [(0, 0), (0, 1), (1, 0), (1, 1)]:
                for a in range(k):
                    for b in range(k):
                        v2 = 2 * got["solve_multiple2.py"][lost][a][b] - 1
                        v3 = 2 * got["solve_multiple3.py"][lost][a][b] - 1
                        f.write(f"{a} {b} {lost[0]} {lost[1]} {v2:.15g} {v3:.15g}\n")


if __name__ == "__main__":
    main()
