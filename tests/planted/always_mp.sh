#!/bin/sh
# A planted wrong 猪国杀 solution for the kit's tests: reads the game and
# always answers that MP wins, with no hands.
cat >/dev/null
echo MP
