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
