"""A small OpenAI-compatible chat server for tests, with a script of faults to serve one per request.

    with FaultServer(default_content='{"answer": "x"}') as srv:
        srv.script(delay(2.0), status(429, retry_after=1), status(500), truncated(), bad_body(), content("not json"))
        ... point an LLMClient at srv.base_url ...
        srv.count, srv.requests, srv.max_in_flight

Requests beyond the script get `default_content` (a string, or a function of the request body).
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable


@dataclass
class Step:
    """What to do with one chat request."""

    kind: str  # "delay" | "status" | "truncated" | "bad_body" | "content"
    value: object = None
    headers: dict = field(default_factory=dict)


def delay(seconds: float, then: str | None = None) -> Step:
    """Wait `seconds` before answering (beyond the client's timeout, this is a timeout)."""
    return Step("delay", (seconds, then))


def status(code: int, retry_after: float | None = None, message: str = "injected fault") -> Step:
    """Answer with an error status (and a Retry-After header when given)."""
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
    return Step("status", (code, message), headers)


def truncated() -> Step:
    """Send headers announcing a longer body than is sent, then close the connection."""
    return Step("truncated")


def bad_body() -> Step:
    """Answer 200 with a complete body that is not valid JSON."""
    return Step("bad_body")


def content(text: str) -> Step:
    """Answer 200 with this assistant message content."""
    return Step("content", text)


class FaultServer:
    """OpenAI-compatible /v1/chat/completions and /v1/models on 127.0.0.1, scripted per request."""

    def __init__(
        self,
        default_content: str | Callable[[dict], str] = "ok",
        *,
        model: str = "fake-model",
        accept_formats: tuple[str, ...] | None = None,
        reject_status: int = 400,
        latency_s: float = 0.0,
    ):
        """accept_formats: response_format types served (None: all); others get reject_status naming them."""
        self.default_content = default_content
        self.model = model
        self.accept_formats = accept_formats
        self.reject_status = reject_status
        self.latency_s = latency_s
        self.requests: list[dict] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._steps: deque[Step] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- control ---
    def script(self, *steps: Step) -> None:
        """Queue steps; each chat request consumes the next one."""
        with self._lock:
            self._steps.extend(steps)

    @property
    def count(self) -> int:
        """Chat requests received so far (including failed ones)."""
        with self._lock:
            return len(self.requests)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def start(self) -> "FaultServer":
        server = self

        class Handler(_Handler):
            owner = server

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> "FaultServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # --- used by the handler ---
    def _next(self, body: dict) -> Step:
        with self._lock:
            self.requests.append(body)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            fmt = body.get("response_format")
            if fmt is not None and self.accept_formats is not None and fmt.get("type") not in self.accept_formats:
                allowed = " or ".join(repr(t) for t in self.accept_formats) or "nothing"
                return status(self.reject_status, message=f"response_format.type: input should be {allowed}")
            return self._steps.popleft() if self._steps else Step("default")

    def _done(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def _content_for(self, body: dict) -> str:
        if callable(self.default_content):
            return self.default_content(body)
        return self.default_content


def _completion(body: dict, text: str, model: str, n: int) -> dict:
    prompt_chars = sum(len(str(m.get("content", ""))) for m in body.get("messages", []))
    prompt_tokens, completion_tokens = prompt_chars // 4 + 1, len(text) // 4 + 1
    return {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", model),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    owner: FaultServer

    def log_message(self, format, *args) -> None:  # quiet
        return

    def _send(self, code: int, payload: bytes, headers: dict | None = None, declared: int | None = None) -> None:
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(declared if declared is not None else len(payload)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(payload)
        self.wfile.flush()

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            data = {"object": "list", "data": [{"id": self.owner.model, "object": "model", "owned_by": "tests"}]}
            self._send(200, json.dumps(data).encode())
        else:
            self._send(404, b'{"error": {"message": "not found"}}')

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b"{}"
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send(404, b'{"error": {"message": "not found"}}')
            return
        body = json.loads(raw or b"{}")
        owner = self.owner
        step = owner._next(body)
        try:
            self._serve(step, body)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up (timeout)
        finally:
            owner._done()

    def _serve(self, step: Step, body: dict) -> None:
        owner = self.owner
        if owner.latency_s:
            owner._stopping.wait(owner.latency_s)
        n = owner.count
        if step.kind == "delay":
            seconds, then = step.value
            owner._stopping.wait(seconds)
            text = then if then is not None else owner._content_for(body)
            self._send(200, json.dumps(_completion(body, text, owner.model, n)).encode())
        elif step.kind == "status":
            code, message = step.value
            payload = json.dumps({"error": {"message": message, "type": "injected", "code": code}}).encode()
            self._send(code, payload, step.headers)
        elif step.kind == "truncated":
            full = json.dumps(_completion(body, owner._content_for(body), owner.model, n)).encode()
            self._send(200, full[: len(full) // 2], declared=len(full))
            self.close_connection = True
        elif step.kind == "bad_body":
            full = json.dumps(_completion(body, owner._content_for(body), owner.model, n)).encode()
            self._send(200, full[: len(full) // 2])
        elif step.kind == "content":
            self._send(200, json.dumps(_completion(body, str(step.value), owner.model, n)).encode())
        else:
            self._send(200, json.dumps(_completion(body, owner._content_for(body), owner.model, n)).encode())
