# Sourced by scripts/check-pasteable and scripts/readme-sizes: what both
# need to know about the programs in src/bin/ and their caps.
#
# The four judge solvers are pasted into online judges or hosted as Kattis
# problem packages, so each is one file under its host's code limit:
# `zhuguosha.rs` under 51,200 bytes (Luogu's 50 KB, where P2482 is pasted
# today); `ants_battle.rs`, `ji_referee.rs` and `ji_solver.rs` at most
# 131,072 bytes (128 KiB, the packages' code limit, Kattis's default). The
# room is for clarity, never for bloat: a file past 7/8 of its cap gets a
# note from scripts/readme-sizes and scripts/check-pasteable (a note, not a
# failure). The trainer `ji` is never pasted: no cap, and it may be a
# folder `src/bin/ji/`.
#
# A judge compiles the pasted file, often under a time limit, and how long
# `rustc --edition 2021 -O FILE` takes depends on the machine and on how
# busy it is. So compile time is a ratio: each judge solver's compile CPU
# over `zhuguosha.rs`'s, compiled in the same run (the reference). The goal
# is at most 2x (a row over it is marked); above 4x is a failure; and 60 s
# of CPU is an absolute guard far from any figure seen (3.4 s idle, 9 s on
# a busy 2-core machine) against a compiler that runs away.

judge_solvers="zhuguosha ants_battle ji_referee ji_solver"
judge_cap=131072
zhuguosha_below=51200
compile_reference=zhuguosha
compile_target=2
compile_ratio_limit=4
compile_limit=60

# cap_of BIN: the byte cap of a judge solver (zhuguosha's is "under", the
# others' "at most").
cap_of() {
  if [ "$1" = zhuguosha ]; then echo "$zhuguosha_below"; else echo "$judge_cap"; fi
}

# near_cap BIN SIZE: whether SIZE is past 7/8 of BIN's cap.
near_cap() {
  [ "$2" -gt $(($(cap_of "$1") / 8 * 7)) ]
}

# close_to_cap BIN SIZE: whether SIZE is within 2% of BIN's cap, where one
# more shared block or a grown one breaks the file first.
close_to_cap() {
  [ "$2" -gt $(($(cap_of "$1") - $(cap_of "$1") / 50)) ]
}

# shared_blocks FILE: the marked shared blocks of FILE by size in bytes,
# largest first, as `NAME N bytes; ...` (begin and end lines included).
shared_blocks() {
  local size name list=""
  while read -r size name; do
    list="${list:+$list; }$name $(grouped "$size") bytes"
  done < <(LC_ALL=C awk '
    /^\/\/ shared: [A-Za-z0-9_-]+ begin/ { name = $3 }
    name != "" { size[name] += length($0) + 1 }
    /^\/\/ shared: [A-Za-z0-9_-]+ end/ { name = "" }
    END { for (n in size) print size[n], n }' "$1" | sort -rn)
  echo "$list"
}

# ratio SECONDS REFERENCE: SECONDS / REFERENCE with two decimals.
ratio() {
  awk -v s="$1" -v r="$2" 'BEGIN { printf "%.2f\n", (r > 0 ? s / r : 0) }'
}

# above A B: whether the number A is greater than B.
above() {
  awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'
}

# machine: one line naming the machine, for figures that depend on it.
machine() {
  local cpu
  cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
  echo "${cpu:-$(uname -m)}, $(nproc 2>/dev/null || echo '?') CPUs, $(rustc --version 2>/dev/null | awk '{print "rustc " $2}')"
}

# is_judge_solver BIN: whether BIN is one of the four.
is_judge_solver() {
  case " $judge_solvers " in *" $1 "*) return 0 ;; esac
  return 1
}

# programs: every program, one `NAME PATH` line each (PATH a file
# src/bin/NAME.rs or a folder src/bin/NAME/ with main.rs), sorted by name.
programs() {
  local p
  for p in src/bin/*; do
    if [ -f "$p" ] && [ "${p%.rs}" != "$p" ]; then
      echo "$(basename "$p" .rs) $p"
    elif [ -f "$p/main.rs" ]; then
      echo "$(basename "$p") $p"
    fi
  done | sort
}

# bytes PATH: the size of a file, or of all .rs files below a folder.
bytes() {
  if [ -d "$1" ]; then
    find "$1" -name '*.rs' -type f -exec cat {} + | wc -c | tr -d ' '
  else
    wc -c <"$1" | tr -d ' '
  fi
}

# grouped N: N with a comma every three digits (57344 -> 57,344).
grouped() {
  echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'
}

# cpu_compile RUSTC FILE OUT LOG: compiles FILE alone as a judge does
# (edition 2021, -O) into OUT, the compiler's messages into LOG. Prints the
# CPU seconds (user + sys) of the compiler and of the linker it runs, with
# two decimals: CPU, not wall time, so that a busy machine does not change
# the figure much. Returns the compiler's exit status.
cpu_compile() {
  local report
  # `times` in the command substitution's subshell: its second line is the
  # user and system time of the subshell's finished children, the compiler
  # and everything it waited for.
  report=$(
    "$1" --edition 2021 -O --crate-type bin -o "$3" "$2" >"$4" 2>&1
    echo "status $?"
    times
  )
  echo "$report" | awk '
    function seconds(t) { split(t, p, "m"); sub("s", "", p[2]); return p[1] * 60 + p[2] }
    NR == 3 { printf "%.2f\n", seconds($1) + seconds($2) }'
  return "$(echo "$report" | awk '/^status/ { print $2 }')"
}
