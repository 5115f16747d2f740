#!/bin/sh
# Prints without end: OLE, stopped as soon as its output is over the limit.
cat >/dev/null
exec yes
