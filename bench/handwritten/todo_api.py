"""The Red Hat todo API (openapi_todo_redhat.yaml) written by hand: todos keyed by id, and a user profile."""

from __future__ import annotations

import random
from typing import Any

from bench.handwritten import HandError

ENV_ID = "todo_api"


def _todo(state: dict[str, Any], todo_id: str) -> dict[str, Any]:
    todo = state["todos"].get(str(todo_id))
    if todo is None:
        raise HandError(f"Todo {todo_id} not found")
    return todo


def gettodos(state: dict[str, Any]) -> list[dict[str, Any]]:
    todos = state["todos"]
    return [todos[key] for key in sorted(todos)]


def createTodo(
    state: dict[str, Any],
    title: str = "",
    id: str | None = None,
    description: str | None = None,
    dueDate: str | None = None,
    complete: bool | None = None,
) -> dict[str, Any]:
    todos = state["todos"]
    if id is None:
        id = f"{len(todos) + 1:08d}-0000-4000-8000-{len(todos) + 1:012d}"
    if id in todos:
        raise HandError(f"Todo {id} already exists")
    todo: dict[str, Any] = {"id": id, "title": title}
    for key, value in (("description", description), ("dueDate", dueDate), ("complete", complete)):
        if value is not None:
            todo[key] = value
    todos[id] = todo
    return todo


def getTodo(state: dict[str, Any], todoId: str) -> dict[str, Any]:
    return _todo(state, todoId)


def updateTodo(
    state: dict[str, Any],
    todoId: str,
    title: str | None = None,
    description: str | None = None,
    dueDate: str | None = None,
    complete: bool | None = None,
    id: str | None = None,
) -> dict[str, Any]:
    todo = _todo(state, todoId)
    for key, value in (("title", title), ("description", description), ("dueDate", dueDate), ("complete", complete)):
        if value is not None:
            todo[key] = value
    return todo


def deleteTodo(state: dict[str, Any], todoId: str) -> dict[str, Any]:
    _todo(state, todoId)
    del state["todos"][str(todoId)]
    return {"deleted": str(todoId)}


def getUserProfile(state: dict[str, Any]) -> dict[str, Any]:
    return state.get("user_profile") or {}


TOOLS = {fn.__name__: fn for fn in (gettodos, createTodo, getTodo, updateTodo, deleteTodo, getUserProfile)}
LIST_TOOLS = ("gettodos",)  # cost grows with the number of records


# state and workload ---------------------------------------------------------------------------------

WORDS = (
    "buy",
    "milk",
    "call",
    "mom",
    "write",
    "report",
    "book",
    "flight",
    "pay",
    "rent",
    "fix",
    "bike",
    "plan",
    "trip",
)


def todo_id(i: int) -> str:
    return f"{i:08x}-0000-4000-8000-{i:012x}"


def make_state(n: int, seed: int = 0) -> dict[str, Any]:
    """n todos (7 fields each) and a user profile; deterministic for (n, seed)."""
    rng = random.Random(f"todo:{n}:{seed}")
    todos = {}
    for i in range(1, n + 1):
        tid = todo_id(i)
        todos[tid] = {
            "id": tid,
            "title": " ".join(rng.choice(WORDS) for _ in range(3)),
            "description": " ".join(rng.choice(WORDS) for _ in range(8)),
            "dueDate": f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            "complete": rng.random() < 0.3,
            "author": f"user{rng.randint(1, 20)}",
            "created": f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T10:00:00Z",
        }
    profile = {"name": "Ann Lee", "given_name": "Ann", "family_name": "Lee", "preferred_username": "ann"}
    return {"todos": todos, "user_profile": profile}


def make_calls(state: dict[str, Any], count: int, rng: random.Random, list_share: float = 0.05) -> list[dict[str, Any]]:
    """A valid call mix: ~30% get, 25% update, 15% create, 10% delete, 5% list all, 5% profile, 10% failing gets."""
    live = sorted(state["todos"])
    fresh = 0
    calls: list[dict[str, Any]] = []
    for _ in range(count):
        r = rng.random()
        if r < list_share:
            calls.append({"name": "gettodos", "arguments": {}})
        elif r < 0.10 or not live:
            calls.append({"name": "getUserProfile", "arguments": {}})
        elif r < 0.40:
            calls.append({"name": "getTodo", "arguments": {"todoId": rng.choice(live)}})
        elif r < 0.65:
            # a PUT of the Todo body: the doc requires title
            args: dict[str, Any] = {"todoId": rng.choice(live), "title": " ".join(rng.choice(WORDS) for _ in range(2))}
            if rng.random() < 0.5:
                args["complete"] = rng.random() < 0.5
            calls.append({"name": "updateTodo", "arguments": args})
        elif r < 0.80:
            fresh += 1
            tid = f"ffff{rng.randrange(16**4):04x}-{fresh:04x}-4000-8000-000000000000"
            calls.append(
                {
                    "name": "createTodo",
                    "arguments": {"id": tid, "title": " ".join(rng.choice(WORDS) for _ in range(3)), "complete": False},
                }
            )
            live.append(tid)
        elif r < 0.90:
            tid = live.pop(rng.randrange(len(live)))
            calls.append({"name": "deleteTodo", "arguments": {"todoId": tid}})
        else:
            calls.append({"name": "getTodo", "arguments": {"todoId": f"missing-{rng.randrange(10**6)}"}})
    return calls


def write_call(state: dict[str, Any]) -> dict[str, Any]:
    """One update of the first todo (the 'first write' after a reset)."""
    return {
        "name": "updateTodo",
        "arguments": {"todoId": min(state["todos"]), "title": "first write", "complete": True},
    }
