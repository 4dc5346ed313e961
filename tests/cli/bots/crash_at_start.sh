#!/bin/sh
# A bot that dies before it reads anything, as a bot missing a file it needs does.
echo "loading weights.bin" >&2
echo "fatal: weights.bin: no such file" >&2
exit 3
