#!/usr/bin/env bash
# Conformance: a smart-dog client written from the seed's text alone, in Node.js (the sample bots
# are C++ and Python), joins with a user name of its own choosing (`join SomeName`, as the seed
# and the original's runner.js do) and plays a whole game through `arbiter play`, under the
# default sandbox and with --sandbox none. The wire log must verify.
# Usage: seed_client_game.sh ARBITER BOTS_DIR SHARED_DATA_DIR
set -euo pipefail
arbiter=$1 bots=$2 data=$3
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v node > /dev/null; then
    echo "skipped: no node on this machine (Debian package nodejs)"
    exit 77
fi
work=$(mktemp -d -t arbiter-seed-client.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# The client lives in its own folder (dir=): the sandbox shows a bot its folder.
mkdir -p "$work/client"
cp "$here/seed_client.js" "$work/client/"

for sandbox in auto none; do
    out="$work/$sandbox"
    mkdir -p "$out"
    "$arbiter" -q play smartdog --map "$data/smartdog/maps/simple-1.txt" --turns 60 --seed 4 --sandbox "$sandbox" \
        --bot "name=node dir=$work/client cmd=\"node seed_client.js -host {host} -port {port} -name SomeName\"" \
        --bot "name=herder cmd=$bots/smartdog/herder" \
        --replay "$out/wire.txt" --record "$out/record.json" --out "$out" > "$out/stdout" 2>&1 ||
        fail "--sandbox $sandbox: arbiter play failed: $(tail -5 "$out/stdout")"
    grep -q '^P1 > join SomeName$' "$out/wire.txt" || fail "--sandbox $sandbox: no 'join SomeName' in the wire log"
    grep -q '^P1 < finished' "$out/wire.txt" || fail "--sandbox $sandbox: the client was not told the game finished"
    # It really played: it sent commands on every turn.
    [ "$(grep -c '^P1 > do ' "$out/wire.txt")" -ge 60 ] || fail "--sandbox $sandbox: fewer than 60 commands from the client"
    python3 - "$out/record.json" <<'PY' || fail "--sandbox $sandbox: record"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["turns"] == 60, r["turns"]
for p in r["participants"]:
    assert p["status"] == "ok", p
PY
    [ "$("$arbiter" verify smartdog "$out/wire.txt")" = "OK 60" ] || fail "--sandbox $sandbox: the wire log does not verify"
    echo "--sandbox $sandbox: the seed client played 60 turns as SomeName"
done
