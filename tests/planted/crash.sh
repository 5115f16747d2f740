#!/bin/sh
# A planted crashing solution for the kit's tests: reads its input, says
# why on stderr, and dies by SIGSEGV.
cat >/dev/null
echo "planted crash" >&2
kill -SEGV $$
