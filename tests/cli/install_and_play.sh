#!/usr/bin/env bash
# An installed arbiter plays every game from outside the source tree:
# - `cmake --install BUILD --prefix P` puts arbiter in P/bin, the sample bots in
#   P/lib/arbiter/bots, the configs and the games' maps and fields in P/share/arbiter;
# - the installed arbiter names those folders for ${ARBITER_BOTS} and ${ARBITER_DATA} (never the
#   build's or the source tree's), plays a match of each of the five games with installed bots
#   and data from an unrelated folder, and runs an installed config's tournament;
# - `cpack` makes a Debian package holding the same files, with its library dependencies, and
#   the arbiter unpacked from it finds its bots and data as well.
# Usage: install_and_play.sh BUILD_DIR
set -u
build=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "FAIL: $*"
    echo "--- stdout"; cat "$tmp/out" 2>/dev/null; echo "--- stderr"; cat "$tmp/err" 2>/dev/null
    exit 1
}

prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >"$tmp/out" 2>"$tmp/err" || fail "cmake --install"
for f in bin/arbiter lib/arbiter/bots/planowanie/heuristic_bot lib/arbiter/bots/koehandel/value_bot.py \
         share/arbiter/configs/demo.json share/arbiter/data/ants/maps/maze_02p_02.map \
         share/arbiter/data/samurai/fields/sample.dighere share/arbiter/data/smartdog/maps/simple-1.txt; do
    [ -e "$prefix/$f" ] || fail "cmake --install wrote no $f"
done

# Plays each game with the arbiter under ROOT (an install prefix), from a folder of its own.
play_every_game() {
    local root=$1 arbiter=$1/bin/arbiter bots=$1/lib/arbiter/bots data=$1/share/arbiter/data
    local work
    work=$(mktemp -d "$tmp/work.XXXX")
    cd "$work" || exit 1
    "$arbiter" --version >"$tmp/out" 2>"$tmp/err" || fail "$arbiter --version"
    grep -qx "sample bots (\${ARBITER_BOTS}): $bots" "$tmp/out" || fail "installed arbiter does not name $bots"
    grep -qx "game data (\${ARBITER_DATA}): $data" "$tmp/out" || fail "installed arbiter does not name $data"
    "$arbiter" play planowanie --seed 2 --bot "name=h cmd=$bots/planowanie/heuristic_bot" \
        --bot "name=r cmd=\"$bots/planowanie/random_bot 1\"" >"$tmp/out" 2>"$tmp/err" || fail "planowanie from $root"
    "$arbiter" play ants --map "$data/ants/maps/maze_02p_02.map" --turns 30 --bot "name=g cmd=$bots/ants/greedy_bot" \
        --bot "name=h cmd=$bots/ants/hunter_bot" >"$tmp/out" 2>"$tmp/err" || fail "ants from $root"
    "$arbiter" play samurai --field "$data/samurai/fields/sample.dighere" --bot "name=g cmd=$bots/samurai/greedy_digger" \
        --bot "name=r cmd=$bots/samurai/random_player" >"$tmp/out" 2>"$tmp/err" || fail "samurai from $root"
    "$arbiter" play smartdog --map "$data/smartdog/maps/simple-1.txt" --bot "name=h cmd=$bots/smartdog/herder" \
        --bot "name=r cmd=$bots/smartdog/random_dog" >"$tmp/out" 2>"$tmp/err" || fail "smartdog from $root"
    "$arbiter" play koehandel --seed 1 --bot "name=a cmd=$bots/koehandel/value_bot" \
        --bot "name=b cmd=$bots/koehandel/value_bot" --bot "name=c cmd=$bots/koehandel/value_bot" \
        >"$tmp/out" 2>"$tmp/err" || fail "koehandel from $root"
    "$arbiter" view arbiter-out/koehandel-* --out page.html >"$tmp/out" 2>"$tmp/err" || fail "view from $root"
    grep -q "<canvas\|<svg" page.html || fail "the installed arbiter's viewer page has no board"
    # An installed config: its bots are ${ARBITER_BOTS}, its outputs go beside the database.
    "$arbiter" tournament -q --config "$root/share/arbiter/configs/demo.json" --db demo.sqlite --rounds 1 \
        >"$tmp/out" 2>"$tmp/err" || fail "the installed demo config from $root"
    "$arbiter" rate --db demo.sqlite >"$tmp/out" 2>"$tmp/err" || fail "rate from $root"
    grep -q "heuristic-a" "$tmp/out" || fail "no ratings after the installed demo config"
    cd "$tmp" || exit 1
}
play_every_game "$prefix"

# The Debian package: the same files under /usr, and the libraries it needs as dependencies.
(cd "$build" && cpack -G DEB -B "$tmp/package") >"$tmp/out" 2>"$tmp/err" || fail "cpack"
deb=$(ls "$tmp"/package/arbiter_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "cpack made no .deb"
dpkg-deb -f "$deb" Depends >"$tmp/out" 2>"$tmp/err" || fail "dpkg-deb -f"
grep -q "libsqlite3" "$tmp/out" || fail "the package does not depend on libsqlite3"
dpkg-deb -x "$deb" "$tmp/unpacked" >"$tmp/out" 2>"$tmp/err" || fail "dpkg-deb -x"
[ -x "$tmp/unpacked/usr/bin/arbiter" ] || fail "the package has no usr/bin/arbiter"
play_every_game "$tmp/unpacked/usr"
echo "installed and packaged arbiter: five games, a config's tournament, the viewer"
