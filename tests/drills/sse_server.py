"""A misbehaving OpenAI-compatible model server on 127.0.0.1, as its own process (so a drill can
kill it with SIGKILL). It speaks real HTTP/1.1 and server-sent events, the way llama.cpp's and
vLLM's servers stream `/v1/chat/completions`.

    python sse_server.py MODE      prints "PORT <n>" when listening

MODE: `ok` (a short reply), `malformed` (one good chunk, then a `data:` line that is not JSON),
`stall` (a few chunks, then silence with SSE keep-alive comments every 0.2 s), `silent_first`
(headers and keep-alive comments, never a token), `slow` (a chunk every 0.2 s for ever: a drill
kills the process mid-stream). Every request is logged to stderr as "REQUEST <path>".
"""
from __future__ import annotations

import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def chunk(content: str | None = None, finish: str | None = None) -> bytes:
    delta = {"content": content} if content is not None else {}
    body = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "fake",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return b"data: " + json.dumps(body).encode() + b"\n\n"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    mode = "ok"

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 - /v1/models
        body = json.dumps({"object": "list", "data": [{"id": "fake", "object": "model"}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _send(self, data: bytes) -> None:
        # Chunked transfer encoding, as uvicorn and llama-server stream: a cut is then detectable.
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def do_POST(self) -> None:  # noqa: N802
        print(f"REQUEST {self.path}", file=sys.stderr, flush=True)
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if not self.path.endswith("/chat/completions"):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        mode = self.mode
        try:
            if mode == "ok":
                for piece in ("Hello", " from", " the fake server."):
                    self._send(chunk(piece))
                self._send(chunk(finish="stop") + b"data: [DONE]\n\n")
                self.wfile.write(b"0\r\n\r\n")
            elif mode == "malformed":
                self._send(chunk("Hel"))
                self._send(b'data: {"choices": [{"delta": {"content": "lo"}\n\n')  # cut-off JSON
                time.sleep(30)
            elif mode == "stall":
                for piece in ("one", " two", " three"):
                    self._send(chunk(piece))
                while True:  # alive, but no token ever again
                    time.sleep(0.2)
                    self._send(b": keep-alive\n\n")
            elif mode == "silent_first":
                while True:
                    time.sleep(0.2)
                    self._send(b": keep-alive\n\n")
            elif mode == "slow":
                i = 0
                while True:
                    self._send(chunk(f"w{i} "))
                    i += 1
                    time.sleep(0.2)
        except (BrokenPipeError, ConnectionResetError):
            pass


def main() -> None:
    Handler.mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    print(f"PORT {httpd.server_address[1]}", flush=True)
    httpd.serve_forever()


if __name__ == "__main__":
    main()
