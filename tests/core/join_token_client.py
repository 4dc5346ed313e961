#!/usr/bin/env python3
"""A TCP seat's bot that tries the join-token routing: a connection with a wrong token, then its
own (with the hub word argv[1], '-' for none), then its own token a second time. It reports what
the arbiter answered the intruding connections on its seated connection."""
import os
import socket
import sys

port, token = int(os.environ["ARBITER_PORT"]), os.environ["ARBITER_TOKEN"]
hub = "" if sys.argv[1] == "-" else " " + sys.argv[1]


def intrude(line):
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall((line + "\n").encode())
        return s.makefile().readline().strip() or "(closed)"


wrong = intrude("join not-" + token)
seat = socket.create_connection(("127.0.0.1", port))
seat.sendall(("join %s%s wrong=%s\n" % (token, hub, wrong.replace(" ", "_"))).encode())
reader = seat.makefile()
for line in reader:
    if line.strip() == "reuse":
        seat.sendall(("reuse=%s\n" % intrude("join " + token).replace(" ", "_")).encode())
    else:
        seat.sendall(("echo " + line).encode())
