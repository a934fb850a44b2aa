#!/usr/bin/env python3
"""A small HTTP/1.1 server for the tests: serves one directory on 127.0.0.1 with ETag and
Last-Modified, answers conditional requests with 304 and ranges with 206, and misbehaves on
purpose under a few paths. Prints its port on the first line of stdout; logs every answer as
one JSON line to the log file before the answer is sent.

usage: local_http_server.py DIRECTORY LOG_FILE
"""
import email.utils
import http.server
import json
import os
import socket
import sys
import threading
import time

DIRECTORY, LOG_FILE = sys.argv[1], sys.argv[2]
LOG_LOCK = threading.Lock()
HUGE_LENGTH = 200 * 1024 * 1024
CUT_ALREADY = set()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_request(self, code="-", size="-"):
        entry = {
            "method": self.command,
            "path": self.path,
            "if_none_match": self.headers.get("If-None-Match"),
            "if_modified_since": self.headers.get("If-Modified-Since"),
            "range": self.headers.get("Range"),
            "status": int(code),
        }
        with LOG_LOCK, open(LOG_FILE, "a") as log:
            log.write(json.dumps(entry) + "\n")

    def log_message(self, format, *args):
        pass

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        parts = path.strip("/").split("/", 1)
        head, rest = parts[0], (parts[1] if len(parts) > 1 else "")
        if head == "status":
            self.answer(int(rest), b"status %s\n" % rest.encode())
        elif head == "redirect-file":
            self.answer(302, b"", {"Location": "file:///etc/passwd"})
        elif head == "redirect-loop":
            self.answer(302, b"", {"Location": "/redirect-loop"})
        elif head == "redirect-port":
            port, _, target = rest.partition("/")
            self.answer(302, b"", {"Location": "http://127.0.0.1:%s/%s" % (port, target)})
        elif head == "redirect":
            self.answer(302, b"", {"Location": "/" + rest})
        elif head == "stall":
            self.stall(rest)
        elif head == "cut":
            self.cut(rest)
        elif head == "cut-once":
            with LOG_LOCK:
                first = rest not in CUT_ALREADY
                CUT_ALREADY.add(rest)
            self.cut(rest) if first else self.serve(rest, validators=True)
        elif head == "huge":
            self.send_response(200)
            self.send_header("Content-Length", str(HUGE_LENGTH))
            self.end_headers()
            self.close_connection = True
        elif head == "html":
            self.answer(200, b"<html><body><h1>Sorry</h1>Something went wrong.</body></html>\n",
                        {"Content-Type": "text/html"})
        elif head == "chunked":
            self.chunked(rest)
        elif head == "noheaders":
            self.serve(rest, validators=False)
        else:
            self.serve(path.strip("/"), validators=True)

    def answer(self, status, body, headers=None):
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def file(self, name):
        full = os.path.realpath(os.path.join(DIRECTORY, name))
        if not full.startswith(os.path.realpath(DIRECTORY) + os.sep) or not os.path.isfile(full):
            return None
        return full

    def serve(self, name, validators):
        full = self.file(name)
        if full is None:
            return self.answer(404, b"not found\n")
        info = os.stat(full)
        size = info.st_size
        headers = {"Content-Type": "application/octet-stream"}
        if validators:
            etag = '"%x-%x"' % (info.st_mtime_ns, size)
            headers["ETag"] = etag
            headers["Last-Modified"] = email.utils.formatdate(info.st_mtime, usegmt=True)
            if self.not_modified(etag, info.st_mtime):
                self.send_response(304)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                return
        start = self.range_start() if validators else None
        if start is not None and start >= size:
            return self.answer(416, b"", {"Content-Range": "bytes */%d" % size})
        status = 200
        if start is not None:
            status = 206
            headers["Content-Range"] = "bytes %d-%d/%d" % (start, size - 1, size)
        else:
            start = 0
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(size - start))
        self.end_headers()
        if self.command != "HEAD":
            self.send_file(full, start, size)

    def not_modified(self, etag, mtime):
        match = self.headers.get("If-None-Match")
        if match is not None:
            return etag in [tag.strip() for tag in match.split(",")]
        since = self.headers.get("If-Modified-Since")
        if since is not None:
            parsed = email.utils.parsedate_to_datetime(since)
            return parsed is not None and int(mtime) <= parsed.timestamp()
        return False

    def range_start(self):
        text = self.headers.get("Range")
        if not text or not text.startswith("bytes=") or not text.endswith("-"):
            return None
        try:
            return int(text[len("bytes="):-1])
        except ValueError:
            return None

    def send_file(self, full, start, end):
        with open(full, "rb") as source:
            source.seek(start)
            left = end - start
            while left > 0:
                chunk = source.read(min(left, 1 << 16))
                if not chunk:
                    break
                self.wfile.write(chunk)
                left -= len(chunk)

    def chunked(self, name):
        full = self.file(name)
        if full is None:
            return self.answer(404, b"not found\n")
        self.send_response(200)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        with open(full, "rb") as source:
            while chunk := source.read(1 << 16):
                self.wfile.write(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
        self.wfile.write(b"0\r\n\r\n")

    def stall(self, name):
        full = self.file(name)
        size = os.path.getsize(full) if full else 1000
        self.send_response(200)
        self.send_header("Content-Length", str(size))
        self.end_headers()
        self.wfile.flush()
        time.sleep(600)
        self.close_connection = True

    def cut(self, name):
        full = self.file(name)
        if full is None:
            return self.answer(404, b"not found\n")
        info = os.stat(full)
        size = info.st_size
        self.send_response(200)
        self.send_header("Content-Length", str(size))
        # The validators a whole answer has: a client resumes only onto the version (ETag) it began.
        self.send_header("ETag", '"%x-%x"' % (info.st_mtime_ns, size))
        self.send_header("Last-Modified", email.utils.formatdate(info.st_mtime, usegmt=True))
        self.end_headers()
        self.send_file(full, 0, size // 2)
        self.wfile.flush()
        self.connection.shutdown(socket.SHUT_RDWR)
        self.close_connection = True


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a client that hangs up (a refused or cancelled transfer) is expected here


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
