"""Test helpers: a small in-memory todo environment (tools as Python functions) and a fake LLM client.

Used by the unit tests so the task pipeline runs in well under a second without the runtime's
sandbox or a model server.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from synth.tasks.runner import FunctionRunner


class ToolFailure(Exception):
    """A domain failure of the test environment."""


def _todos(state: dict) -> dict:
    return state.setdefault("todos", {})


def create_todo(state, title, priority=3, project_id=None, tags=None):
    if project_id is not None and str(project_id) not in state.get("projects", {}):
        raise ToolFailure(f"project {project_id} not found")
    n = state.get("next_todo_id", 1)
    while str(n) in _todos(state):
        n += 1
    rec = {"id": n, "title": title, "done": False, "priority": priority, "tags": list(tags or [])}
    if project_id is not None:
        rec["project_id"] = project_id
    _todos(state)[str(n)] = rec
    state["next_todo_id"] = n + 1
    return copy.deepcopy(rec)


def get_todo(state, todo_id):
    rec = _todos(state).get(str(todo_id))
    if rec is None:
        raise ToolFailure(f"todo {todo_id} not found")
    return copy.deepcopy(rec)


def list_todos(state, done=None):
    return [
        copy.deepcopy(r)
        for k, r in sorted(_todos(state).items(), key=lambda kv: int(kv[0]))
        if done is None or r.get("done") == done
    ]


def search_todos(state, query):
    q = str(query).lower()
    return [
        copy.deepcopy(r)
        for k, r in sorted(_todos(state).items(), key=lambda kv: int(kv[0]))
        if q in r.get("title", "").lower()
    ]


def update_todo(state, todo_id, title=None, done=None, priority=None):
    rec = _todos(state).get(str(todo_id))
    if rec is None:
        raise ToolFailure(f"todo {todo_id} not found")
    if priority is not None and not 1 <= priority <= 5:
        raise ToolFailure("priority must be 1..5")
    for k, v in (("title", title), ("done", done), ("priority", priority)):
        if v is not None:
            rec[k] = v
    return copy.deepcopy(rec)


def delete_todo(state, todo_id):
    if str(todo_id) not in _todos(state):
        raise ToolFailure(f"todo {todo_id} not found")
    del _todos(state)[str(todo_id)]
    return {"deleted": todo_id}


def create_project(state, name):
    projects = state.setdefault("projects", {})
    n = 1
    while str(n) in projects:
        n += 1
    projects[str(n)] = {"id": n, "name": name}
    return copy.deepcopy(projects[str(n)])


def list_projects(state):
    return [copy.deepcopy(r) for k, r in sorted(state.get("projects", {}).items(), key=lambda kv: int(kv[0]))]


FUNCTIONS = {
    f.__name__: f
    for f in (create_todo, get_todo, list_todos, search_todos, update_todo, delete_todo, create_project, list_projects)
}

TODO_RECORD = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "title": {"type": "string"},
        "done": {"type": "boolean"},
        "priority": {"type": "integer", "minimum": 1, "maximum": 5},
        "tags": {"type": "array", "items": {"type": "string"}},
        "project_id": {"type": "integer"},
    },
    "required": ["id", "title", "done", "priority"],
}
PROJECT_RECORD = {
    "type": "object",
    "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
    "required": ["id", "name"],
}
STATE_SCHEMA = {
    "type": "object",
    "properties": {
        "todos": {"type": "object", "additionalProperties": TODO_RECORD, "x-key-field": "id"},
        "projects": {"type": "object", "additionalProperties": PROJECT_RECORD, "x-key-field": "id"},
        "next_todo_id": {"type": "integer"},
    },
    "required": ["todos", "projects", "next_todo_id"],
}


def _tool(name, desc, props, required, kind, reads, writes, key_param, collection, returns=None):
    return {
        "name": name,
        "description": desc,
        "function": name,
        "parameters": {"type": "object", "properties": props, "required": required},
        "returns": returns,
        "mutates": bool(writes),
        "kind": kind,
        "reads": reads,
        "writes": writes,
        "key_param": key_param,
        "collection": collection,
    }


def manifest_tools() -> list[dict[str, Any]]:
    """Manifest tool entries with the hints environment synthesis writes."""
    tid = {"type": "integer", "description": "id of the todo"}
    return [
        _tool(
            "create_todo",
            "Create a todo.",
            {
                "title": {"type": "string"},
                "priority": {"type": "integer", "minimum": 1, "maximum": 5},
                "project_id": {"type": "integer"},
                "tags": {"type": "array", "items": {"type": "string"}},
            },
            ["title"],
            "create",
            ["todos", "projects"],
            ["todos"],
            None,
            "todos",
        ),
        _tool(
            "get_todo", "Get one todo by id.", {"todo_id": tid}, ["todo_id"], "get", ["todos"], [], "todo_id", "todos"
        ),
        _tool(
            "list_todos",
            "List todos, optionally only done or open ones.",
            {"done": {"type": "boolean"}},
            [],
            "list",
            ["todos"],
            [],
            None,
            "todos",
        ),
        _tool(
            "search_todos",
            "Find todos whose title contains the query.",
            {"query": {"type": "string"}},
            ["query"],
            "search",
            ["todos"],
            [],
            "query",
            "todos",
        ),
        _tool(
            "update_todo",
            "Change a todo's title, done flag or priority.",
            {
                "todo_id": tid,
                "title": {"type": "string"},
                "done": {"type": "boolean"},
                "priority": {"type": "integer", "minimum": 1, "maximum": 5},
            },
            ["todo_id"],
            "update",
            ["todos"],
            ["todos"],
            "todo_id",
            "todos",
        ),
        _tool(
            "delete_todo",
            "Delete a todo.",
            {"todo_id": tid},
            ["todo_id"],
            "delete",
            ["todos"],
            ["todos"],
            "todo_id",
            "todos",
        ),
        _tool(
            "create_project",
            "Create a project.",
            {"name": {"type": "string"}},
            ["name"],
            "create",
            ["projects"],
            ["projects"],
            None,
            "projects",
        ),
        _tool("list_projects", "List projects.", {}, [], "list", ["projects"], [], None, "projects"),
    ]


def write_env_dir(path: str | Path, env_id: str = "fake_todo") -> Path:
    """An environment folder (manifest.json, state_schema.json) for the functions above."""
    d = Path(path)
    d.mkdir(parents=True, exist_ok=True)
    manifest = {"env_id": env_id, "title": "a todo list", "tools": manifest_tools(), "state_schema": STATE_SCHEMA}
    (d / "manifest.json").write_text(json.dumps(manifest, sort_keys=True, indent=1))
    (d / "state_schema.json").write_text(json.dumps(STATE_SCHEMA, sort_keys=True, indent=1))
    return d


def function_runner() -> FunctionRunner:
    return FunctionRunner(FUNCTIONS)


@dataclass
class FakeChat:
    text: str
    cached: bool = True


@dataclass
class FakeLLM:
    """A deterministic stand-in for synth.llm's client: yes to edge questions, short titles,
    and a request that copies the clauses it was given (so instruction checks pass)."""

    answer_no: bool = False
    calls: list[str] = field(default_factory=list)

    def chat(self, messages: list[dict], max_tokens: int = 256, tag: str = "", **kw: Any) -> FakeChat:
        prompt = messages[-1]["content"]
        self.calls.append(tag)
        if tag == "tasks.edge":
            return FakeChat("No." if self.answer_no else "Yes.")
        if tag == "tasks.text":
            m = re.search(r"about (\w+)", prompt)
            return FakeChat(f"Plan the {m.group(1) if m else 'day'} list {len(self.calls)}")
        if tag == "tasks.instruction":
            draft = next(
                ln[len("Message: ") :] for ln in messages[0]["content"].splitlines() if ln.startswith("Message: ")
            )
            return FakeChat("Hello! " + draft.replace("I would like you to", "Could you please"))
        return FakeChat("yes")

    def json(self, messages: list[dict], schema: dict, **kw: Any) -> Any:
        raise NotImplementedError("the task pipeline asks no JSON questions")
