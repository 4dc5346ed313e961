#!/usr/bin/env bash
# Conformance: a Koehandel player written from the seed's text alone, a Node.js HTTP server (the
# sample bots are Python's http.server and C++ on Beast), plays whole games through
# `arbiter play` against the sample bots, under the default sandbox and with --sandbox none: it
# must be asked, answer in time every time (no failed reply), bid, and end the game in its seat.
# Usage: seed_server_game.sh ARBITER BOTS_DIR
set -euo pipefail
arbiter=$1 bots=$2
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v node > /dev/null; then
    echo "skipped: no node on this machine (Debian package nodejs)"
    exit 77
fi
work=$(mktemp -d -t arbiter-seed-server.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir -p "$work/player"
cp "$here/seed_server.js" "$work/player/"

for sandbox in auto none; do
    out="$work/$sandbox"
    mkdir -p "$out"
    "$arbiter" -q play koehandel --seed 3 --sandbox "$sandbox" --reply-ms 2000 \
        --bot "name=node dir=$work/player cmd=\"node seed_server.js {port}\"" \
        --bot "name=py cmd=\"python3 $bots/koehandel/value_bot.py\"" \
        --bot "name=cpp cmd=$bots/koehandel/value_bot" \
        --replay "$out/logs" --record "$out/record.json" --out "$out" > "$out/stdout" 2>&1 ||
        fail "--sandbox $sandbox: arbiter play failed: $(tail -5 "$out/stdout")"
    log="$out/logs/player1-node.log"
    [ -s "$log" ] || fail "--sandbox $sandbox: no log for the node player"
    grep -q '^> /?market=.*&id=1&type=end&message=S' "$log" || fail "--sandbox $sandbox: the node player was not told the end"
    grep -q '^< ?money=' "$log" || fail "--sandbox $sandbox: the node player never bid or paid"
    ! grep -q '^# fault' "$log" || fail "--sandbox $sandbox: a reply of the node player failed: $(grep -m1 '^# fault' "$log")"
    python3 - "$out/record.json" <<'PY' || fail "--sandbox $sandbox: record"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["turns"] >= 20, r["turns"]
node = r["participants"][0]
assert node["bot"] == "node" and node["status"] == "ok", node
assert "failed" not in node["detail"], node["detail"]
PY
    echo "--sandbox $sandbox: the seed player played $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["turns"])' "$out/record.json") turns; $(grep -c '^< ?' "$log") answers"
done
