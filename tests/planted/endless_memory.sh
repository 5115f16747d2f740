#!/bin/sh
# Allocates without end: a string 1 MB longer at each step (each step a
# copy of the whole, so it grows at tens of MB a second, not GB): MLE, and
# stopped near the memory limit rather than at the time limit.
cat >/dev/null
awk 'BEGIN { s = "x"; for (i = 0; i < 20; i++) s = s s; while (1) t = t s }'
