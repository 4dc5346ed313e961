#!/usr/bin/env bash
# Conformance: a smart-dog client written from the seed's text alone, in Node.js (the sample bots
# are C++ and Python), joins with a user name of its own choosing (`join SomeName`, as the seed
# and the original's runner.js do) and plays a whole game through `arbiter play`, under the
# default sandbox, with --sandbox none, and with --sandbox none on fixed ports (--port N: a port
# per seat, no seat secret needed). The wire log must verify.
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

# Two free loopback ports in a row, for --port.
port=$(python3 -c '
import socket
for p in range(20000 + __import__("os").getpid() % 20000, 65000, 7):
    try:
        for q in (p, p + 1):
            s = socket.socket(); s.bind(("127.0.0.1", q)); s.close()
        print(p); break
    except OSError:
        pass')

for run in auto none "none --port $port"; do
    sandbox=${run%% *}
    ports=()
    [ "$run" = "$sandbox" ] || ports=(--port "$port")
    out="$work/${run// /}"
    mkdir -p "$out"
    "$arbiter" -q play smartdog --map "$data/smartdog/maps/simple-1.txt" --turns 60 --seed 4 --sandbox "$sandbox" "${ports[@]}" \
        --bot "name=node dir=$work/client cmd=\"node seed_client.js -host {host} -port {port} -name SomeName\"" \
        --bot "name=herder cmd=$bots/smartdog/herder" \
        --replay "$out/wire.txt" --record "$out/record.json" --out "$out" > "$out/stdout" 2>&1 ||
        fail "--sandbox $run: arbiter play failed: $(tail -5 "$out/stdout")"
    grep -q '^P1 > join SomeName$' "$out/wire.txt" || fail "--sandbox $run: no 'join SomeName' in the wire log"
    grep -q '^P1 < finished' "$out/wire.txt" || fail "--sandbox $run: the client was not told the game finished"
    # It really played: it sent commands on every turn.
    [ "$(grep -c '^P1 > do ' "$out/wire.txt")" -ge 60 ] || fail "--sandbox $run: fewer than 60 commands from the client"
    python3 - "$out/record.json" <<'PY' || fail "--sandbox $run: record"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["turns"] == 60, r["turns"]
for p in r["participants"]:
    assert p["status"] == "ok", p
PY
    [ "$("$arbiter" verify smartdog "$out/wire.txt")" = "OK 60" ] || fail "--sandbox $run: the wire log does not verify"
    echo "--sandbox $run: the seed client played 60 turns as SomeName"
done
