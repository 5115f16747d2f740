#!/bin/sh
# The wrong solution of README.md's "Checking your own solution": our 猪国杀
# solver with the 无懈可击 rule removed (no trick is ever cancelled, and
# nobody plays a J). It is made from src/bin/zhuguosha.rs at build time, so
# it stays our solver in every other rule:
#
#   sh examples/no_wuxie.sh        # writes ./no_wuxie
#
# The change: `fn negated` (does a chain of 无懈可击 cancel this trick?)
# answers "no" at once.
set -eu
cd "$(dirname "$0")/.."
mkdir -p target/examples
awk '
  /fn negated\(/ { inside = 1 }
  inside && /\{/ { sub(/\{/, "{ return false; // EXAMPLE: 无懈可击 never cancels\n"); inside = 0; done = 1 }
  { print }
  END { if (!done) { print "examples/no_wuxie.sh: fn negated( not found in src/bin/zhuguosha.rs" > "/dev/stderr"; exit 1 } }
' src/bin/zhuguosha.rs >target/examples/no_wuxie.rs
rustc --edition 2021 -O -A warnings -o no_wuxie target/examples/no_wuxie.rs
echo "built ./no_wuxie (our zhuguosha without 无懈可击)"
