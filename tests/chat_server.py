"""A real OpenAI-compatible chat-completions server on 127.0.0.1 for tests.

It speaks ``POST /v1/chat/completions`` and answers with replies from a policy function
``policy(request_json) -> str`` (scripted per test). Requests are recorded for assertions.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class ChatServer:
    """``with ChatServer(policy) as server: server.base_url`` -> ``http://127.0.0.1:PORT/v1``."""

    def __init__(self, policy: Callable[[dict[str, Any]], str], model: str = "test-model") -> None:
        self.policy, self.model = policy, model
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self.send_error(404, "only /v1/chat/completions is served")
                    return
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                server.requests.append(body)
                server.headers.append(dict(self.headers))
                reply = server.policy(body)
                payload = json.dumps({
                    "id": f"chatcmpl-{len(server.requests)}",
                    "object": "chat.completion",
                    "model": body.get("model", server.model),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": reply}}],
                    "usage": {"prompt_tokens": 100, "completion_tokens": max(1, len(reply) // 4),
                              "total_tokens": 100 + max(1, len(reply) // 4)},
                }).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
