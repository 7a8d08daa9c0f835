"""A real OpenAI-compatible chat-completions server on 127.0.0.1 for tests.

It speaks ``POST /v1/chat/completions`` and answers with replies from a policy function
``policy(request_json) -> str`` (scripted per test). Requests are recorded for assertions.

Failures can be scripted for retry tests: ``server.fail(429, times=2)`` answers the next two
requests with HTTP 429 (``retry_after`` adds the header), ``server.fail("sleep", seconds=2)``
waits before answering (past a client's timeout), ``server.fail("drop")`` closes the
connection without a reply. Every request that reaches the endpoint is counted in
``server.attempts``; ``server.requests`` holds the bodies of those answered with a reply.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class ChatServer:
    """``with ChatServer(policy) as server: server.base_url`` -> ``http://127.0.0.1:PORT/v1``."""

    def __init__(self, policy: Callable[[dict[str, Any]], str], model: str = "test-model",
                 refuse: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None) -> None:
        """``refuse(body)``: an OpenAI error object to answer with HTTP 400 (the request is then counted in
        ``refused``, not in ``requests``), or None to answer with the policy's reply."""
        self.policy, self.model, self.refuse = policy, model, refuse
        self.refused: list[dict[str, Any]] = []
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.attempts = 0
        self._failures: list[tuple[Any, dict[str, Any]]] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def send_json(self, status: int, data: Any, headers: dict[str, str] | None = None) -> None:
                payload = json.dumps(data).encode()
                self.send_response(status)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self.send_error(404, "only /v1/chat/completions is served")
                    return
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                with server._lock:
                    server.attempts += 1
                    failure = server._failures.pop(0) if server._failures else None
                if failure is not None:
                    kind, opts = failure
                    if kind == "drop":
                        self.close_connection = True
                        self.connection.shutdown(2)
                        return
                    if kind == "sleep":
                        time.sleep(opts.get("seconds", 1.0))
                    else:
                        retry = {} if opts.get("retry_after") is None else {"Retry-After": str(opts["retry_after"])}
                        self.send_json(int(kind), {"error": {"message": opts.get("message", f"scripted {kind}"),
                                                             "code": opts.get("code", kind)}}, retry)
                        return
                refusal = server.refuse(body) if server.refuse else None
                if refusal is not None:
                    with server._lock:
                        server.refused.append(body)
                    self.send_json(400, {"error": refusal})
                    return
                server.requests.append(body)
                server.headers.append(dict(self.headers))
                reply = server.policy(body)
                completion = {
                    "id": f"chatcmpl-{len(server.requests)}",
                    "object": "chat.completion",
                    "model": body.get("model", server.model),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": reply}}],
                    "usage": {"prompt_tokens": 100, "completion_tokens": max(1, len(reply or "") // 4),
                              "total_tokens": 100 + max(1, len(reply or "") // 4)},
                }
                try:
                    self.send_json(200, completion)
                except OSError:  # the client gave up (a scripted timeout)
                    pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def fail(self, kind: int | str, times: int = 1, **opts: Any) -> None:
        """Script the next ``times`` requests to fail: an HTTP status, ``"sleep"`` or ``"drop"``."""
        if not (isinstance(kind, int) or kind in ("sleep", "drop")):
            raise ValueError(f"invalid failure {kind!r}; valid: an HTTP status code, 'sleep', 'drop'")
        with self._lock:
            self._failures += [(kind, opts)] * times

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
