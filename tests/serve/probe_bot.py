#!/usr/bin/env python3
"""A bot that tries to reach a port on 127.0.0.1 and says on stderr whether it could."""
import socket
import sys

port = int(sys.argv[1])
try:
    with socket.create_connection(("127.0.0.1", port), timeout=3) as s:
        s.sendall(b"GET /api/state HTTP/1.1\r\nHost: x\r\n\r\n")
        reply = s.recv(100)
        print(f"probe: connected, got {reply[:12]!r}", file=sys.stderr, flush=True)
except OSError as e:
    print(f"probe: could not connect ({e})", file=sys.stderr, flush=True)
sys.exit(0)
