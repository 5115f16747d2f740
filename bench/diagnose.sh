#!/usr/bin/env bash
# Accuracy and cost of `kit diagnose`: the planted single-rule misreadings
# of tests/diagnose.rs (21 of 猪国杀, 4 of Ants and 集), each diagnosed
# alone (one at a time, for its CPU time: kit's and every program it ran,
# from /proc/self/stat), with the place of the planted rule among the
# suspects (top 1: named first). Prints the table rows of bench/RESULTS.md
# ("kit diagnose") and the top-1 / top-3 accuracy. Goals: top-1 >= 80%,
# top-3 >= 95%, under 30 s of CPU per diagnosis. About 5 minutes of CPU.
# Run from the repo root.
set -euo pipefail
cd "$(dirname "$0")/.."
KIT_DIAGNOSE_BENCH=1 cargo test --release --quiet --test diagnose planted_misreadings \
  -- --nocapture --test-threads 1 2>&1 | grep -E '^\||top-1' || true
