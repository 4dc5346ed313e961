#!/usr/bin/env bash
# Builds Remi Coulom's bayeselo (or a fork with the same layout) from a source tree already on
# disk, the way its own makefile does (one translation unit, g++ -O3), without fetching anything.
# Usage:
#   tools/bench/rating/build_bayeselo.sh SOURCE_DIR OUT_BINARY
# SOURCE_DIR is the folder holding bayeselo.cpp (or its parent with src/). Public copies: the
# GitHub repository fsmosca/BayesianElo, commit b2e6869 = bayeselo 0057 as released, HEAD = the
# optimised fork (1.5), e.g.
#   git -C BayesianElo archive b2e6869 | tar -x -C /tmp/bayeselo-src/0057
#   tools/bench/rating/build_bayeselo.sh /tmp/bayeselo-src/0057 /tmp/bayeselo/bayeselo-0057
set -euo pipefail
src=${1:?source folder holding bayeselo.cpp}
out=${2:?output binary path}
[ -f "$src/bayeselo.cpp" ] || src=$src/src
[ -f "$src/bayeselo.cpp" ] || { echo "build_bayeselo.sh: no bayeselo.cpp in $1" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
# 0057 predates C++11 ("VERSION"__DATE__ reads as a literal suffix there): compile as C++98.
# Warnings from the old sources are not ours to fix.
g++ -std=gnu++98 -O3 -w -o "$out" "$src/bayeselo.cpp"
echo "built $out"
