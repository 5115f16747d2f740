#!/bin/sh
# A planted solution that computes for ever, for `kit judge`'s TLE (CPU
# time over the limit; hang.sh, which sleeps, is an ILE).
cat >/dev/null
while :; do :; done
