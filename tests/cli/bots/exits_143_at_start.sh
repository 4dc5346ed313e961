#!/bin/sh
# A bot that exits with code 143 before it reads anything: the code a shell gives a child killed
# by SIGTERM, which must still read as an exit code, not as a signal.
exit 143
