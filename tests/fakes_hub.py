"""A small Hugging Face Hub on 127.0.0.1, faithful to what huggingface_hub's downloads use.

`HEAD /{repo}/resolve/{revision}/{filename}` answers like the hub does for an LFS file: the
commit in `X-Repo-Commit`, the file's sha256 as `X-Linked-Etag`/`ETag`, its size in
`X-Linked-Size`/`Content-Length`. `GET` streams the bytes and honours `Range: bytes=N-` with
206 Partial Content, as the hub's CDN does. Knobs for tests: `corrupt_at` flips one served byte
(the announced sha256 stays the true one), `throttle` limits bytes per second, `cut_after`
drops the connection after that many bytes of the first GET.
"""
from __future__ import annotations

import hashlib
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

COMMIT = "0123456789abcdef0123456789abcdef01234567"


class HubServer:
    def __init__(self, files: dict[str, Path], *, corrupt_at: int | None = None, throttle: int | None = None,
                 cut_after: int | None = None) -> None:
        """`files` maps "owner/repo/filename" to a local file."""
        self.files = files
        self.sha = {k: _sha256(p) for k, p in files.items()}
        self.corrupt_at = corrupt_at
        self.throttle = throttle
        self.cut_after = cut_after
        self.requests: list[tuple[str, str, str | None]] = []  # (method, path, Range header)
        self.bytes_sent = 0
        self._gets = 0
        hub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def _key(self) -> str | None:
                m = re.match(r"^/(?:api/models/)?([^/]+/[^/]+)/resolve/([^/]+)/(.+?)(\?.*)?$", self.path)
                if not m:
                    return None
                key = f"{m.group(1)}/{m.group(3)}"
                return key if key in hub.files else None

            def _headers(self, key: str, length: int, status: int, start: int = 0) -> None:
                size = hub.files[key].stat().st_size
                self.send_response(status)
                self.send_header("X-Repo-Commit", COMMIT)
                self.send_header("ETag", f'"{hub.sha[key]}"')
                self.send_header("X-Linked-Etag", f'"{hub.sha[key]}"')
                self.send_header("X-Linked-Size", str(size))
                self.send_header("Accept-Ranges", "bytes")
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Length", str(length))
                if status == 206:
                    self.send_header("Content-Range", f"bytes {start}-{size - 1}/{size}")
                self.end_headers()

            def _missing(self) -> None:
                body = b'{"error":"Entry not found"}'
                self.send_response(404)
                self.send_header("X-Error-Code", "EntryNotFound")
                self.send_header("X-Repo-Commit", COMMIT)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            def do_HEAD(self) -> None:
                hub.requests.append(("HEAD", self.path, self.headers.get("Range")))
                key = self._key()
                if key is None:
                    return self._missing()
                self._headers(key, hub.files[key].stat().st_size, 200)

            def do_GET(self) -> None:
                rng = self.headers.get("Range")
                hub.requests.append(("GET", self.path, rng))
                key = self._key()
                if key is None:
                    return self._missing()
                size = hub.files[key].stat().st_size
                start = 0
                if rng:
                    m = re.match(r"bytes=(\d+)-", rng)
                    start = int(m.group(1)) if m else 0
                if start >= size:
                    self.send_response(416)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                hub._gets += 1
                first = hub._gets == 1
                self._headers(key, size - start, 206 if start else 200, start)
                sent = 0
                began = time.monotonic()
                with open(hub.files[key], "rb") as f:
                    f.seek(start)
                    pos = start
                    while block := f.read(256 * 1024):
                        if hub.corrupt_at is not None and pos <= hub.corrupt_at < pos + len(block):
                            b = bytearray(block)
                            b[hub.corrupt_at - pos] ^= 0xFF
                            block = bytes(b)
                        if first and hub.cut_after is not None and sent + len(block) > hub.cut_after:
                            self.wfile.write(block[: hub.cut_after - sent])
                            self.wfile.flush()
                            hub.bytes_sent += hub.cut_after - sent
                            self.close_connection = True
                            self.connection.shutdown(2)
                            return
                        try:
                            self.wfile.write(block)
                        except (BrokenPipeError, ConnectionResetError):
                            return
                        sent += len(block)
                        pos += len(block)
                        hub.bytes_sent += len(block)
                        if hub.throttle:
                            ahead = sent / hub.throttle - (time.monotonic() - began)
                            if ahead > 0:
                                time.sleep(ahead)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> "HubServer":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _sha256(p: Path) -> str:
    h = hashlib.sha256()
    with open(p, "rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
    return h.hexdigest()
