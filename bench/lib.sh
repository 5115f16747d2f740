# Shared by the bench/*.sh scripts (sourced, not run).

# best_us RUNS ITEM...: for each ITEM `FILE::COMMAND ARGS`, the best wall
# time in microseconds of `COMMAND ARGS < FILE > /dev/null` over RUNS rounds.
# Every round takes each item in turn, so all figures see the same machine
# load; timing is done inside one Python process (no `date` forks).
best_us() {
  python3 - "$@" <<'PY'
import shlex, subprocess, sys, time
runs, items = int(sys.argv[1]), [i.split("::", 1) for i in sys.argv[2:]]
best = [float("inf")] * len(items)
for _ in range(runs):
    for i, (path, cmd) in enumerate(items):
        with open(path, "rb") as inp, open("/dev/null", "wb") as out:
            t0 = time.perf_counter()
            subprocess.run(shlex.split(cmd), stdin=inp, stdout=out, check=False)
            best[i] = min(best[i], time.perf_counter() - t0)
print(" ".join(str(int(t * 1e6)) for t in best))
PY
}

# ms MICROSECONDS: "12.3 ms"
ms() { awk -v u="$1" 'BEGIN { printf "%.1f ms", u / 1000 }'; }

# ratio A B: "1.23x"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }

# peak_kb FILE COMMAND ARGS: the peak resident memory in KiB of one run of
# `COMMAND ARGS < FILE > /dev/null` (the child's own maximum RSS, from
# wait4; the kernel's figure that `/usr/bin/time -f %M` also prints).
peak_kb() {
  python3 - "$@" <<'PY'
import os, subprocess, sys
path, cmd = sys.argv[1], sys.argv[2:]
with open(path, "rb") as inp, open("/dev/null", "wb") as out:
    child = subprocess.Popen(cmd, stdin=inp, stdout=out)
    _, _, usage = os.wait4(child.pid, 0)
print(usage.ru_maxrss)
PY
}

# mb KIB: "12.3 MB" (MiB)
mb() { awk -v k="$1" 'BEGIN { printf "%.1f MB", k / 1024 }'; }

# kit_gen PROBLEM ARGS...: one input from the kit's generator (seeded, the
# same bytes on every machine), built by `cargo build --release`.
kit_gen() {
  local kit=${CARGO_TARGET_DIR:-target}/release/kit
  [ -x "$kit" ] || { echo "build first: cargo build --release ($kit missing)" >&2; return 1; }
  "$kit" gen "$@"
}
