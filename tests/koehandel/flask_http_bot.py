#!/usr/bin/env python3
"""A bot on Flask (its development server, threaded, HTTP/1.1 off): answers every GET with its
query. Serves 127.0.0.1:$ARBITER_PORT."""
import logging
import os

from flask import Flask, request

app = Flask(__name__)
logging.getLogger("werkzeug").setLevel(logging.ERROR)


@app.route("/")
def answer():
    return "echo=" + request.query_string.decode() + "\n", 200, {"Content-Type": "text/plain"}


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(os.environ["ARBITER_PORT"]))
