"""The HTTP environment server on loopback: concurrent gold replays, isolation, bad requests, idle reclaim."""

from __future__ import annotations

import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from synth.interop.catalog import EnvCatalog
from synth.interop.client import EnvClient, EnvClientError
from synth.interop.export import final_reply
from synth.interop.server import create_app
from synth.interop.sessions import NotFound, SessionManager
from synth.verify import states_match

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "data" / "envs" / "mini_todo"
GENERATED = (
    sorted(p for p in (ROOT / "envs_generated").glob("*") if (p / "tasks.jsonl").is_file())
    if (ROOT / "envs_generated").is_dir()
    else []
)
ENV_DIRS = [FIXTURE, *GENERATED]


class LoopbackServer:
    """uvicorn in a thread on 127.0.0.1, on a port the OS picked (the socket is bound before start)."""

    def __init__(self, app):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> "LoopbackServer":
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


@pytest.fixture(scope="module")
def catalog() -> EnvCatalog:
    return EnvCatalog(ENV_DIRS)


@pytest.fixture(scope="module")
def server(catalog):
    with LoopbackServer(create_app(catalog, idle_timeout_s=600, max_sessions=256)) as srv:
        yield srv


def _all_tasks(catalog):
    return [(entry.env_id, task) for entry, task in catalog.all_tasks() if task.gold_actions]


@pytest.mark.slow
def test_fifty_concurrent_gold_sessions(server, catalog):
    tasks = _all_tasks(catalog)
    assert tasks, "the fixture must have tasks"
    plan = [tasks[i % len(tasks)] for i in range(50)]
    with EnvClient(server.url, max_connections=32) as client:
        assert {e["env_id"] for e in client.list_envs()} == set(catalog.env_ids())
        with ThreadPoolExecutor(max_workers=16) as pool:
            sessions = list(pool.map(lambda et: client.create_session(et[0], task_id=et[1].task_id), plan))
            ids = [s["session_id"] for s in sessions]
            assert len(set(ids)) == 50
            open_ids = {s["session_id"] for s in client.list_sessions()}
            assert set(ids) <= open_ids  # all 50 are open at the same time
            observations: dict[str, list[str]] = {sid: [] for sid in ids}
            longest = max(len(t.gold_actions) for _, t in plan)
            for k in range(longest):  # step k of every session at once: episodes interleave
                todo = [(sid, t.gold_actions[k]) for sid, (_, t) in zip(ids, plan) if k < len(t.gold_actions)]
                results = list(pool.map(lambda sa: client.step(sa[0], sa[1].name, sa[1].arguments), todo))
                for (sid, _), res in zip(todo, results):
                    assert res["info"]["ok"], res
                    observations[sid].append(res["observation"])
            rewards = list(pool.map(lambda st: client.verify(st[0], [final_reply(st[1][1])]), zip(ids, plan)))
        for sid, (env_id, task), rew in zip(ids, plan, rewards):
            assert rew["reward"] == 1.0, (task.task_id, rew["breakdown"])
            if task.gold_outputs:
                assert observations[sid] == task.gold_observations()
            state = client.observe(sid, include_state=True)["state"]
            assert states_match(task.gold_final_state, state, task.checks.exempt_paths)
        for sid in ids:
            assert client.close(sid)["closed"] is True
        assert client.health()["sessions"] == 0


def test_sessions_are_isolated(server, catalog):
    entry = catalog.get("mini_todo")
    task = entry.task("mini_todo-0001")
    with EnvClient(server.url) as client:
        a = client.create_session("mini_todo", task_id=task.task_id)["session_id"]
        b = client.create_session("mini_todo", task_id=task.task_id)["session_id"]
        client.step(a, "create_todo", {"title": "only in a"})
        assert client.observe(b, include_state=True)["state"] == task.initial_state
        assert client.observe(a)["steps"] == 1 and client.observe(b)["steps"] == 0
        assert client.verify(b)["reward"] == 0.0  # nothing done in b
        # free play from a given state, no task: stepping works, verifying is refused
        c = client.create_session("mini_todo", initial_state={"todos": {}, "next_id": 1})["session_id"]
        assert client.step(c, "create_todo", {"title": "x"})["observation"].startswith('{"complete": false, "id": "t1"')
        with pytest.raises(EnvClientError) as err:
            client.verify(c)
        assert err.value.status == 400 and "without a task" in err.value.detail
        for sid in (a, b, c):
            client.close(sid)


def test_tool_errors_are_observations_not_http_errors(server):
    with EnvClient(server.url) as client:
        sid = client.create_session("mini_todo", task_id="mini_todo-0001")["session_id"]
        bad_tool = client.step(sid, "no_such_tool", {})
        assert bad_tool["info"]["ok"] is False and bad_tool["observation"].startswith("Error:")
        bad_args = client.step(sid, "get_todo", {"todo_id": 5})
        assert bad_args["info"]["error_kind"] == "invalid_arguments"
        bad_json = client.step(sid, "get_todo", '{"todo_id": ')
        assert bad_json["info"]["error_kind"] == "invalid_arguments" and "JSON" in bad_json["observation"]
        excluded = client.step(sid, "share_todo", {})
        assert "not available" in excluded["observation"]
        openai_style = client.step(
            sid, {"id": "c7", "type": "function", "function": {"name": "get_todo", "arguments": '{"todo_id": "t1"}'}}
        )
        assert openai_style["info"]["ok"] and openai_style["call_id"] == "c7"
        client.close(sid)


def test_malformed_requests_get_4xx_and_server_keeps_serving(server):
    with EnvClient(server.url) as client:
        sid = client.create_session("mini_todo", task_id="mini_todo-0002")["session_id"]
    big = b'{"name": "get_todo", "arguments": {"todo_id": "' + b"x" * (5 * 1024 * 1024) + b'"}}'
    json_headers = {"content-type": "application/json"}
    cases = [
        ("POST", "/sessions", {"content": b"{not json", "headers": json_headers}, 400),
        ("POST", "/sessions", {"content": b"[1, 2]", "headers": json_headers}, 400),
        ("POST", "/sessions", {"content": b"plain text"}, 400),
        ("POST", "/sessions", {"json": {}}, 422),
        ("POST", "/sessions", {"json": {"env_id": "mini_todo", "color": "red"}}, 422),
        ("POST", "/sessions", {"json": {"env_id": 7}}, 422),
        ("POST", "/sessions", {"json": {"env_id": "nope"}}, 404),
        ("POST", "/sessions", {"json": {"env_id": "mini_todo", "task_id": "nope"}}, 404),
        ("POST", "/sessions", {"json": {"env_id": "mini_todo", "task_id": "mini_todo-0001", "initial_state": {}}}, 400),
        ("POST", "/sessions", {"json": {"env_id": "mini_todo", "initial_state": [1]}}, 422),
        ("POST", f"/sessions/{sid}/step", {"json": {"arguments": {}}}, 422),
        ("POST", f"/sessions/{sid}/step", {"json": {"name": ""}}, 422),
        ("POST", f"/sessions/{sid}/step", {"json": {"name": "get_todo", "arguments": 3}}, 422),
        ("POST", f"/sessions/{sid}/step", {"json": {"type": "nope", "function": {"name": "get_todo"}}}, 422),
        (
            "POST",
            f"/sessions/{sid}/step",
            {"content": b'{"name": "get_todo", "arguments": {', "headers": json_headers},
            400,
        ),
        ("POST", f"/sessions/{sid}/step", {"content": big, "headers": json_headers}, 413),
        ("POST", "/sessions/does-not-exist/step", {"json": {"name": "get_todo"}}, 404),
        ("GET", "/sessions/does-not-exist/observation", {}, 404),
        ("POST", "/sessions/does-not-exist/verify", {}, 404),
        ("DELETE", "/sessions/does-not-exist", {}, 404),
        ("GET", "/envs/nope", {}, 404),
        ("GET", "/envs/nope/tasks", {}, 404),
        ("GET", "/envs/mini_todo/tasks/nope", {}, 404),
        ("POST", f"/sessions/{sid}/verify", {"json": {"agent_messages": "not a list"}}, 422),
        ("GET", f"/sessions/{sid}/observation?include_state=maybe", {}, 422),
        ("PUT", "/sessions", {"json": {}}, 405),
        ("GET", "/no/such/route", {}, 404),
    ]
    with httpx.Client(base_url=server.url, timeout=30) as http:
        for method, path, kwargs, expected in cases:
            response = http.request(method, path, **kwargs)
            assert response.status_code == expected, (method, path, response.status_code, response.text[:300])
            detail = response.json().get("detail")
            assert isinstance(detail, str) and detail, (method, path, response.text[:300])
        unknown = http.post("/sessions/does-not-exist/step", json={"name": "get_todo"}).json()["detail"]
        assert "does-not-exist" in unknown
        assert http.get("/health").json()["status"] == "ok"
    with EnvClient(server.url) as client:  # the malformed requests left the session and the server intact
        assert client.observe(sid)["steps"] == 0
        for action in client.get_task("mini_todo", "mini_todo-0002")["gold_actions"]:
            assert client.step(sid, action["name"], action["arguments"])["info"]["ok"]
        assert client.verify(sid)["reward"] == 1.0
        client.close(sid)
        with pytest.raises(EnvClientError) as err:
            client.close(sid)
        assert err.value.status == 404


def test_openapi_spec_is_served(server):
    spec = httpx.get(server.url + "/openapi.json", timeout=30).json()
    paths = spec["paths"]
    for path in (
        "/envs",
        "/envs/{env_id}/tasks",
        "/sessions",
        "/sessions/{session_id}/step",
        "/sessions/{session_id}/observation",
        "/sessions/{session_id}/verify",
        "/sessions/{session_id}",
    ):
        assert path in paths, path
    assert "StepRequest" in spec["components"]["schemas"]


def test_idle_sessions_are_reclaimed_in_background(catalog):
    with LoopbackServer(create_app(catalog, idle_timeout_s=0.3)) as srv, EnvClient(srv.url) as client:
        sid = client.create_session("mini_todo", task_id="mini_todo-0001")["session_id"]
        busy = client.create_session("mini_todo", task_id="mini_todo-0001")["session_id"]
        deadline = time.monotonic() + 10
        while client.health()["sessions"] > 1 and time.monotonic() < deadline:
            client.observe(busy)  # a session in use stays
            time.sleep(0.05)
        health = client.health()
        assert health["sessions"] == 1 and health["reclaimed"] >= 1
        with pytest.raises(EnvClientError) as err:
            client.step(sid, "get_todo", {"todo_id": "t1"})
        assert err.value.status == 404 and "reclaimed" in err.value.detail
        assert client.step(busy, "get_todo", {"todo_id": "t1"})["info"]["ok"]


def test_session_limit_gives_429(catalog):
    with TestClient(create_app(catalog, max_sessions=2)) as http:
        for _ in range(2):
            assert http.post("/sessions", json={"env_id": "mini_todo"}).status_code == 201
        refused = http.post("/sessions", json={"env_id": "mini_todo"})
        assert refused.status_code == 429 and "limit is 2" in refused.json()["detail"]


def test_session_manager_idle_clock():
    now = [0.0]
    manager = SessionManager(EnvCatalog([FIXTURE]), idle_timeout_s=10, clock=lambda: now[0])
    a = manager.create("mini_todo", "mini_todo-0001").session_id
    b = manager.create("mini_todo", "mini_todo-0001").session_id
    now[0] = 8.0
    manager.get(a)  # touching a restarts its idle clock
    now[0] = 10.5
    assert manager.reap() == 1 and len(manager) == 1
    with pytest.raises(NotFound):
        manager.get(b)
    now[0] = 17.9
    assert manager.get(a).session_id == a  # idle 9.9 s: still there
    now[0] = 28.0
    assert manager.reap() == 1 and manager.reclaimed == 2
