#!/usr/bin/env python3
"""Echo bots for the channel benchmark: with --stdio, each stdin line is answered with one line;
otherwise an HTTP server on 127.0.0.1:$ARBITER_PORT answers every GET with its query.
--http10 answers as HTTP/1.0 (a connection per request), the default is HTTP/1.1 keep-alive."""
import os
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer


class Echo(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0" if "--http10" in sys.argv else "HTTP/1.1"

    def do_GET(self):
        body = ("money=t&echo=" + self.path.partition("?")[2] + "\n").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


if "--stdio" in sys.argv:
    for line in sys.stdin:
        sys.stdout.write("money=t\n")
        sys.stdout.flush()
else:
    HTTPServer(("127.0.0.1", int(os.environ["ARBITER_PORT"])), Echo).serve_forever()
