#!/usr/bin/env python3
"""HTTP bots with faults, for the HTTP seat's tests. Serves 127.0.0.1:$ARBITER_PORT.
Modes (argv[1]):
  echo      HTTP/1.1 keep-alive; body "echo=<query>&conn=<n>" (n counts connections)
  http10    HTTP/1.0, one connection per request, body up to the end of the stream
  chunked   HTTP/1.1 keep-alive, the body in chunked encoding, in three chunks
  never     never listens (sleeps)
  junk      answers bytes that are not HTTP
  late      answers after argv[2] ms (at once to 'warm' queries and information)
  late-once like late for the first request that is not 'warm' only, then at once
  late-notify  a threaded server: notifications (information, receive, end) are answered after
            argv[2] ms, decisions at once (each request on its own thread, so a decision is
            answered while a late notification is still pending)
  late-decide  the other way round: decisions are answered after argv[2] ms, notifications at
            once (threaded too)
  close     closes the connection without answering
  parens    answers "(timeout)" to everything: a reply that looks like the log's note of a failed one
  big       answers a 10 MB body
  redirect  answers 302 with a Location and a body
  drop      HTTP/1.1 without "Connection: close", but closes the connection after each reply
            (a kept connection that is gone by the next request)
"""
import os
import socket
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer, ThreadingHTTPServer

mode = sys.argv[1]
port = int(os.environ["ARBITER_PORT"])
connections = 0
late_done = False


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0" if mode == "http10" else "HTTP/1.1"

    def setup(self):
        global connections
        connections += 1
        super().setup()

    def reply(self, body, status=200, headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        if mode != "http10":
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        query = self.path.partition("?")[2]
        global late_done
        if mode == "late" and "warm" not in query and "type=information" not in query:
            time.sleep(int(sys.argv[2]) / 1000)
        if mode == "late-notify" and any("type=%s&" % t in query + "&" for t in ("information", "receive", "end")):
            time.sleep(int(sys.argv[2]) / 1000)
        if mode == "late-decide" and "warm" not in query and not any(
                "type=%s&" % t in query + "&" for t in ("information", "receive", "end")):
            time.sleep(int(sys.argv[2]) / 1000)
        if mode == "late-once" and not late_done and "warm" not in query:
            late_done = True
            time.sleep(int(sys.argv[2]) / 1000)
        if mode == "head":  # the request as received: its line and headers, in order
            fields = "|".join("%s: %s" % kv for kv in self.headers.items())
            self.reply(("head=%s|%s\n" % (self.requestline, fields)).encode())
            return
        if mode == "parens":
            self.reply(b"(timeout)\n")
            return
        if mode == "close":
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if mode == "junk":
            self.wfile.write(b"\x00\x01garbage that is not HTTP\r\n\r\n")
            self.close_connection = True
            return
        if mode == "big":
            self.reply(b"money=t" + b"x" * (10 << 20))
            return
        if mode == "redirect":
            self.reply(b"money=FFFF\n", 302, [("Location", "http://127.0.0.1:1/")])
            return
        body = ("echo=%s&conn=%d\n" % (query, connections)).encode()
        if mode == "drop":
            self.reply(body)
            self.close_connection = True
            return
        if mode == "chunked":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for part in (body[:3], body[3:7], body[7:]):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
            self.wfile.write(b"0\r\n\r\n")
            return
        self.reply(body)

    def log_message(self, *args):
        pass


if mode == "never":
    time.sleep(3600)
elif mode in ("late-notify", "late-decide"):
    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
else:
    HTTPServer(("127.0.0.1", port), Handler).serve_forever()
