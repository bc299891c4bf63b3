"""HTTP environment server (FastAPI): list environments and tasks, run isolated sessions, step, verify.

    app = create_app(["envs_generated"], idle_timeout_s=600, max_sessions=4096)
    uvicorn.run(app, host="127.0.0.1", port=8765)

Endpoints (OpenAPI spec at /openapi.json, interactive docs at /docs):

    GET    /health                               {"status": "ok", "envs", "sessions", "reclaimed"}
    GET    /envs                                 [{"env_id", "title", "num_tools", "num_tasks"}]
    GET    /envs/{env_id}                        env summary + "tools" (OpenAI schemas) + "system_prompt"
    GET    /envs/{env_id}/tasks                  [{"task_id", "user_instruction", "intent", "difficulty", ...}]
    GET    /envs/{env_id}/tasks/{task_id}        the whole task (gold actions and final state included)
    POST   /sessions                             {"env_id", "task_id"?, "initial_state"?} -> session + observation
    GET    /sessions                             open sessions
    POST   /sessions/{id}/step                   {"name", "arguments"} or an OpenAI tool call -> observation
    GET    /sessions/{id}/observation            last observation (?include_state=true adds the state)
    POST   /sessions/{id}/verify                 {"agent_messages": [...]} -> {"reward", "breakdown"}
    DELETE /sessions/{id}                        close

A request that is not well formed gets 400 (body is not JSON) or 422 (wrong fields), an unknown
environment, task or session 404, too many open sessions 429, a body over the size limit 413; each
with a `detail` string. A well-formed tool call that the environment rejects (unknown tool, bad
arguments, a domain error) is not an HTTP error: the agent sees `Error: ...` as its observation.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any, Iterable, Union

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator

from synth.interop.catalog import EnvCatalog, EnvEntry
from synth.interop.prompting import system_prompt
from synth.interop.sessions import SessionError, SessionManager

MAX_BODY_BYTES = 4 * 1024 * 1024


class CreateSessionRequest(BaseModel):
    """Start an episode: of a task (`task_id`), from a given state, or from the empty state."""

    model_config = ConfigDict(extra="forbid")
    env_id: str = Field(min_length=1)
    task_id: Union[str, None] = None
    initial_state: Union[dict[str, Any], None] = None


class StepRequest(BaseModel):
    """One tool call: `{"name", "arguments"}` (arguments an object or a JSON string), or an OpenAI tool
    call `{"id", "type": "function", "function": {"name", "arguments"}}`."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1)
    arguments: Union[dict[str, Any], str] = Field(default_factory=dict)
    call_id: Union[str, None] = None

    @model_validator(mode="before")
    @classmethod
    def _unwrap_openai(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("function"), dict):
            extra = set(data) - {"id", "type", "function"}
            if extra:
                raise ValueError(f"unexpected fields beside 'function': {sorted(extra)}")
            if data.get("type", "function") != "function":
                raise ValueError(f"tool call type must be 'function', not {data.get('type')!r}")
            fn = data["function"]
            out = {"name": fn.get("name"), "arguments": fn.get("arguments", {})}
            if data.get("id") is not None:
                out["call_id"] = data["id"]
            return out
        return data


class VerifyRequest(BaseModel):
    """What the agent said (strings or OpenAI-style messages; only assistant text counts for facts)."""

    model_config = ConfigDict(extra="forbid")
    agent_messages: list[Union[str, dict[str, Any]]] = Field(default_factory=list)


def _env_summary(entry: EnvEntry) -> dict[str, Any]:
    return {
        "env_id": entry.env_id,
        "title": entry.title,
        "num_tools": len(entry.definition.tools),
        "num_tasks": len(entry.tasks),
        "excluded_tools": sorted(entry.definition.excluded),
    }


def _task_summary(task: Any) -> dict[str, Any]:
    return {
        "task_id": task.task_id,
        "env_id": task.env_id,
        "user_instruction": task.user_instruction,
        "intent": task.intent,
        "difficulty": task.difficulty,
        "num_gold_actions": len(task.gold_actions),
    }


def _error_text(errors: list[dict[str, Any]]) -> str:
    parts = []
    for err in errors[:5]:
        loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        parts.append(f"{loc}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(SessionError)
    async def _session_error(request: Request, exc: SessionError) -> JSONResponse:
        return JSONResponse(status_code=exc.status, content={"detail": exc.detail})

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))}
            for e in exc.errors()
        ]
        if any(e["type"] == "json_invalid" for e in errors):
            return JSONResponse(
                status_code=400,
                content={"detail": f"the request body is not valid JSON: {_error_text(errors)}", "errors": errors},
            )
        if any(e["loc"] == ["body"] and e["type"] in ("model_attributes_type", "dict_type") for e in errors):
            return JSONResponse(
                status_code=400,
                content={
                    "detail": "the request body must be a JSON object (sent with Content-Type: application/json)",
                    "errors": errors,
                },
            )
        return JSONResponse(
            status_code=422, content={"detail": f"invalid request: {_error_text(errors)}", "errors": errors}
        )


def create_app(
    env_dirs: Iterable[str | Path] | EnvCatalog,
    idle_timeout_s: float = 600.0,
    max_sessions: int = 4096,
    max_body_bytes: int = MAX_BODY_BYTES,
) -> FastAPI:
    """The FastAPI app serving the environments under `env_dirs` (folders, or folders of folders)."""
    catalog = env_dirs if isinstance(env_dirs, EnvCatalog) else EnvCatalog(env_dirs)
    manager = SessionManager(catalog, idle_timeout_s=idle_timeout_s, max_sessions=max_sessions)
    reap_every = min(max(idle_timeout_s / 4.0, 0.05), 30.0)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        async def reaper() -> None:
            while True:
                await asyncio.sleep(reap_every)
                manager.reap()

        task = asyncio.create_task(reaper())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    app = FastAPI(
        title="forgegym environment server",
        version="1",
        lifespan=lifespan,
        description="Stateful tool-use environments synthesized by forgegym: sessions, tool calls, rewards.",
    )
    app.state.manager = manager
    app.state.catalog = catalog
    _install_error_handlers(app)

    @app.middleware("http")
    async def limit_body(request: Request, call_next):
        length = request.headers.get("content-length")
        if length is not None:
            if not length.isdigit():
                return JSONResponse(status_code=400, content={"detail": f"bad Content-Length header {length!r}"})
            if int(length) > max_body_bytes:
                return JSONResponse(
                    status_code=413,
                    content={"detail": f"request body of {length} bytes is over the limit of {max_body_bytes} bytes"},
                )
        return await call_next(request)

    @app.get("/health")
    def health() -> dict[str, Any]:
        return {"status": "ok", "envs": len(catalog), "sessions": len(manager), "reclaimed": manager.reclaimed}

    @app.get("/envs")
    def list_envs() -> list[dict[str, Any]]:
        return [_env_summary(catalog.get(env_id)) for env_id in catalog.env_ids()]

    @app.get("/envs/{env_id}")
    def get_env(env_id: str) -> dict[str, Any]:
        entry = manager.entry(env_id)
        return {**_env_summary(entry), "tools": entry.tool_schemas(), "system_prompt": system_prompt(entry)}

    @app.get("/envs/{env_id}/tasks")
    def list_tasks(env_id: str) -> list[dict[str, Any]]:
        entry = manager.entry(env_id)
        return [_task_summary(entry.tasks[t]) for t in sorted(entry.tasks)]

    @app.get("/envs/{env_id}/tasks/{task_id}")
    def get_task(env_id: str, task_id: str) -> dict[str, Any]:
        return manager.task(env_id, task_id).to_dict()

    @app.post("/sessions", status_code=201)
    def create_session(body: CreateSessionRequest) -> dict[str, Any]:
        session = manager.create(body.env_id, body.task_id, body.initial_state)
        return {
            **session.describe(),
            "observation": session.observation,
            "tools": session.entry.tool_schemas(),
            "system_prompt": system_prompt(session.entry),
            "instruction": session.task.user_instruction if session.task else None,
        }

    @app.get("/sessions")
    def list_sessions() -> list[dict[str, Any]]:
        return manager.list_sessions()

    @app.post("/sessions/{session_id}/step")
    def step(session_id: str, body: StepRequest) -> dict[str, Any]:
        session, result = manager.step(session_id, {"name": body.name, "arguments": body.arguments})
        info = {k: result.info.get(k) for k in ("ok", "error_kind", "tool", "error")}
        return {**session.describe(), "observation": result.observation, "call_id": body.call_id, "info": info}

    @app.get("/sessions/{session_id}/observation")
    def observe(
        session_id: str, include_state: bool = Query(False, description="Add the live state.")
    ) -> dict[str, Any]:
        session = manager.get(session_id)
        with session.lock:
            out = {**session.describe(), "observation": session.observation, "state_hash": session.env.state_hash()}
            if include_state:
                out["state"] = session.env.state_copy()
        return out

    @app.post("/sessions/{session_id}/verify")
    def verify(session_id: str, body: Union[VerifyRequest, None] = None) -> dict[str, Any]:
        session, reward = manager.verify(session_id, (body.agent_messages if body else None))
        return {**session.describe(), **reward.to_dict()}

    @app.delete("/sessions/{session_id}")
    def close(session_id: str) -> dict[str, Any]:
        session = manager.close(session_id)
        return {**session.describe(), "closed": True}

    return app


def serve(
    env_dirs: Iterable[str | Path],
    host: str = "127.0.0.1",
    port: int = 8765,
    idle_timeout_s: float = 600.0,
    max_sessions: int = 4096,
    log_level: str = "info",
) -> None:
    """Run the server until interrupted (uvicorn)."""
    import uvicorn

    app = create_app(env_dirs, idle_timeout_s=idle_timeout_s, max_sessions=max_sessions)
    uvicorn.run(app, host=host, port=port, log_level=log_level)
