#!/bin/sh
# A planted solution that never finishes, for `kit judge`'s TLE.
exec sleep 60
