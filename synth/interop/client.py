"""A small synchronous client for the environment server (httpx).

    with EnvClient("http://127.0.0.1:8765") as client:
        session = client.create_session("todo_api", task_id="todo_api-0001")
        out = client.step(session["session_id"], "create_todo", {"title": "buy milk"})
        reward = client.verify(session["session_id"], agent_messages=["Done."])["reward"]
        client.close(session["session_id"])

Every method returns the server's JSON; an HTTP error raises `EnvClientError` with the status and the
server's `detail`. One client may be shared by many threads (httpx.Client is thread-safe).
"""

from __future__ import annotations

from typing import Any

import httpx

from synth.spec import ToolCall


class EnvClientError(Exception):
    """The server answered with an HTTP error."""

    def __init__(self, status: int, detail: str, method: str = "", path: str = ""):
        super().__init__(f"{method} {path}: HTTP {status}: {detail}".strip())
        self.status = status
        self.detail = detail


class EnvClient:
    """Client of `forgegym env serve`."""

    def __init__(
        self,
        base_url: str,
        timeout: float = 30.0,
        max_connections: int = 64,
        transport: httpx.BaseTransport | None = None,
    ):
        limits = httpx.Limits(max_connections=max_connections, max_keepalive_connections=max_connections)
        self._http = httpx.Client(base_url=base_url.rstrip("/"), timeout=timeout, limits=limits, transport=transport)

    def __enter__(self) -> "EnvClient":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.shutdown()

    def shutdown(self) -> None:
        """Close the HTTP connections (not any session)."""
        self._http.close()

    def _request(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self._http.request(method, path, **kwargs)
        if response.status_code >= 400:
            try:
                detail = response.json().get("detail", response.text)
            except ValueError:
                detail = response.text
            raise EnvClientError(response.status_code, str(detail), method, path)
        return response.json()

    # catalog ------------------------------------------------------------------------------------
    def health(self) -> dict[str, Any]:
        return self._request("GET", "/health")

    def list_envs(self) -> list[dict[str, Any]]:
        """[{"env_id", "title", "num_tools", "num_tasks", ...}]"""
        return self._request("GET", "/envs")

    def get_env(self, env_id: str) -> dict[str, Any]:
        """The environment's summary, OpenAI tool schemas and system prompt."""
        return self._request("GET", f"/envs/{env_id}")

    def list_tasks(self, env_id: str) -> list[dict[str, Any]]:
        """Task summaries (no gold data)."""
        return self._request("GET", f"/envs/{env_id}/tasks")

    def get_task(self, env_id: str, task_id: str) -> dict[str, Any]:
        """The whole task, gold actions included."""
        return self._request("GET", f"/envs/{env_id}/tasks/{task_id}")

    # sessions -----------------------------------------------------------------------------------
    def create_session(
        self, env_id: str, task_id: str | None = None, initial_state: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Start an episode; the answer has session_id, observation, tools, system_prompt, instruction."""
        body: dict[str, Any] = {"env_id": env_id}
        if task_id is not None:
            body["task_id"] = task_id
        if initial_state is not None:
            body["initial_state"] = initial_state
        return self._request("POST", "/sessions", json=body)

    def step(
        self, session_id: str, tool: str | ToolCall | dict[str, Any], arguments: dict[str, Any] | str | None = None
    ) -> dict[str, Any]:
        """One tool call: `step(sid, "name", {...})`, `step(sid, ToolCall(...))`, or an OpenAI tool-call dict."""
        if isinstance(tool, ToolCall):
            body: dict[str, Any] = {"name": tool.name, "arguments": tool.arguments}
            if tool.call_id:
                body["call_id"] = tool.call_id
        elif isinstance(tool, dict):
            body = dict(tool)
        else:
            body = {"name": tool, "arguments": {} if arguments is None else arguments}
        return self._request("POST", f"/sessions/{session_id}/step", json=body)

    def observe(self, session_id: str, include_state: bool = False) -> dict[str, Any]:
        """The last observation, step count and state hash (and the state itself when asked)."""
        params = {"include_state": "true"} if include_state else None
        return self._request("GET", f"/sessions/{session_id}/observation", params=params)

    def verify(self, session_id: str, agent_messages: list[Any] | None = None) -> dict[str, Any]:
        """{"reward", "breakdown", ...} for the session's current state and the agent's replies."""
        return self._request("POST", f"/sessions/{session_id}/verify", json={"agent_messages": agent_messages or []})

    def close(self, session_id: str) -> dict[str, Any]:
        """End the session on the server."""
        return self._request("DELETE", f"/sessions/{session_id}")

    def list_sessions(self) -> list[dict[str, Any]]:
        return self._request("GET", "/sessions")
