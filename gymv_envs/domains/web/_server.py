"""The loopback HTTP server that serves one env's generated site (127.0.0.1, ephemeral port)."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

FONTS = Path(__file__).resolve().parents[2] / "core" / "assets" / "fonts"
STATIC = {"/static/sans.ttf": FONTS / "DejaVuSans.ttf", "/static/sans-bold.ttf": FONTS / "DejaVuSans-Bold.ttf"}


class Router:
    """What the server asks for each request; ``site`` is swapped at every reset."""

    def __init__(self) -> None:
        self.site = None
        self.lock = threading.Lock()
        self.requests = 0
        self.changes = 0  # requests to /do/... (state changes), for the judge's keyframes

    def __call__(self, path: str, query: dict[str, str]) -> tuple[int, str, bytes]:
        if path in STATIC:
            return 200, "font/ttf", STATIC[path].read_bytes()
        with self.lock:
            self.requests += 1
            if path.startswith("/do/"):
                self.changes += 1
            if self.site is None:
                return 503, "text/plain", b"no site"
            return self.site.handle(path, query)


class LoopbackServer:
    """``http.server`` in a daemon thread on 127.0.0.1, answering through a `Router`."""

    def __init__(self, router: Router) -> None:
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                parts = urlsplit(self.path)
                try:
                    status, ctype, body = router(parts.path, dict(parse_qsl(parts.query, keep_blank_values=True)))
                except Exception as exc:  # noqa: BLE001 - a site bug becomes a 500 page, not a dead server
                    status, ctype, body = 500, "text/plain", f"server error: {exc!r}".encode()
                self.send_response(status)
                if status in (302, 303):
                    self.send_header("Location", body.decode())
                    body = b""
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "max-age=86400, immutable" if ctype.startswith(("font/", "image/")) else "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                       name=f"gymv-web-{self.port}", daemon=True)
        self.thread.start()

    def close(self) -> None:
        if threading.current_thread() is self.thread:
            # The collector may run an env's finalizer (which closes its server) in any thread, this
            # server's loop too, where shutdown() would wait for the loop it is in: close from a helper.
            threading.Thread(target=self.close, daemon=True).start()
            return
        self.httpd.shutdown()
        self.httpd.server_close()
