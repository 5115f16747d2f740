# Sourced by scripts/check-pasteable and scripts/readme-sizes: what both
# need to know about the programs in src/bin/ and their caps.
#
# The four judge solvers are pasted into online judges: each is one file of
# at most 65,536 bytes (the usual judge limit), `zhuguosha.rs` under 51,200
# (the limits of the judges that host P2482 are unconfirmed, and it is the
# one solver users paste today), and each compiles with
# `rustc --edition 2021 -O FILE` in under 6 s of CPU (a judge compiles the
# pasted file, often under a time limit). 56 KB (57,344 bytes) is a budget
# that scripts/readme-sizes reports, not a cap. The trainer `ji` is never
# pasted: no cap, and it may be a folder `src/bin/ji/`.

judge_solvers="zhuguosha ants_battle ji_referee ji_solver"
judge_cap=65536
zhuguosha_below=51200
budget=57344
compile_limit=6

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
