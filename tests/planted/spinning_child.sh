#!/bin/sh
# A wrapper whose child does the work (as `python3 sol.py` starting a
# subprocess, or a script starting ./a.out), here spinning for ever: a
# judge counts the child's CPU time, so this is TLE, as the child run
# directly.
cat >/dev/null
sh -c 'while :; do :; done'
echo MP
