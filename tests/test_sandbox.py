"""Unit tests of the sandbox compiler and guards (in process): what loads, what is refused, what it does."""

from __future__ import annotations

import json

import pytest

from synth.errors import ToolError
from synth.sandbox import SandboxViolation, check_source, compile_module, load_module
from synth.sandbox.errors import SharedWrite
from synth.sandbox.journal import WriteContext, activate

GOOD = '''
"""A typical generated module."""
import math
import re
import json
from datetime import date, timedelta
from collections import Counter, defaultdict
from typing import Any, Optional

SECONDS_PER_DAY = 60 * 60 * 24
STATUSES = ("open", "done")
ID_PATTERN = re.compile(r"^t[0-9]+$")
EPOCH = date(2024, 1, 1)


def next_id(state: dict) -> str:
    number = state["next_id"]
    state["next_id"] += 1
    return "t" + str(number)


def add(state: dict, title: str, tags: Optional[list] = None) -> dict[str, Any]:
    if not title:
        raise ToolError("title must not be empty")
    todo_id = next_id(state)
    todo: dict = {"id": todo_id, "title": title, "tags": sorted(tags or [])}
    state["todos"][todo_id] = todo
    state["counts"]["added"] += 1
    return todo


def summary(state, limit=10):
    counts = Counter(t["title"][0] for t in state["todos"].values())
    by_tag = defaultdict(list)
    for todo_id, todo in sorted(state["todos"].items()):
        for tag in todo["tags"]:
            by_tag[tag].append(todo_id)
    total = 0
    total += len(state["todos"])
    return {
        "total": total,
        "letters": dict(counts),
        "by_tag": dict(by_tag),
        "text": "{} todos, {n} tags".format(total, n=len(by_tag)),
        "padded": f"{total:03d}",
        "pct": "%d%%" % 50,
        "sqrt": math.floor(math.sqrt(16)),
        "day": (EPOCH + timedelta(days=total)).isoformat(),
        "ok": bool(ID_PATTERN.match("t1")),
        "json": json.dumps({"b": 1, "a": 2}, sort_keys=True),
        "limit": limit,
    }
'''


def fresh_state() -> dict:
    return {"todos": {}, "next_id": 1, "counts": {"added": 0}}


def test_good_module_loads_and_runs() -> None:
    assert check_source(GOOD) == []
    fns = compile_module(GOOD)
    assert sorted(fns) == ["add", "next_id", "summary"]
    state = fresh_state()
    todo = fns["add"](state, title="buy milk", tags=["shop", "food"])
    assert todo == {"id": "t1", "title": "buy milk", "tags": ["food", "shop"]}
    assert state["next_id"] == 2 and state["counts"]["added"] == 1
    out = fns["summary"](state)
    assert out["total"] == 1 and out["letters"] == {"b": 1}
    assert out["by_tag"] == {"food": ["t1"], "shop": ["t1"]}
    assert out["text"] == "1 todos, 2 tags" and out["padded"] == "001" and out["pct"] == "50%"
    assert out["sqrt"] == 4 and out["day"] == "2024-01-02" and out["ok"] is True
    assert out["json"] == '{"a": 2, "b": 1}'
    with pytest.raises(ToolError, match="title must not be empty"):
        fns["add"](state, title="")


def test_tool_error_is_the_runtime_class() -> None:
    fns = compile_module("def f(state):\n    raise ToolError('nope')\n")
    with pytest.raises(ToolError) as info:
        fns["f"]({})
    assert type(info.value) is ToolError and str(info.value) == "nope"


def test_augmented_item_assignment_is_rewritten_once() -> None:
    source = (
        "def key(state):\n"
        "    state['calls'] += 1\n"
        "    return 'n'\n\n"
        "def bump(state):\n"
        "    state['nums'][key(state)] += 5\n"
        "    state['list'] += [1]\n"
        "    return state\n"
    )
    fns = compile_module(source)
    state = fns["bump"]({"calls": 0, "nums": {"n": 1}, "list": []})
    assert state == {"calls": 1, "nums": {"n": 6}, "list": [1]}  # key() evaluated exactly once


def test_syntax_error_is_a_violation_with_line() -> None:
    problems = check_source("def f(state):\n    return (\n")
    assert problems and problems[0].startswith("line ")
    with pytest.raises(SandboxViolation) as info:
        compile_module("def f(state)\n    return 1\n")
    assert "syntax error" in info.value.reason


def test_parameter_named_like_a_forbidden_builtin_is_fine() -> None:
    source = "def search(state, type=None, id=None, filter=None):\n    return [type, id, filter]\n"
    assert check_source(source) == []
    assert compile_module(source)["search"]({}, type="a", id=2) == ["a", 2, None]


@pytest.mark.parametrize(
    "source, fragment",
    [
        ("import os\n", "import of 'os' is not allowed"),
        ("from collections import abc\n", "collections.abc is not available"),
        ("def f(state):\n    return open('x')\n", "'open' is not available"),
        ("def f(state):\n    return state.__class__\n", '"__class__" is an invalid attribute name'),
        ("class A:\n    pass\n", "class definitions are not allowed"),
        ("X = 1\ndef f(state):\n    global X\n    X = 2\n", "global statements are not allowed"),
        ("def f(state, acc={}):\n    return acc\n", "must be a constant"),
        ("for i in range(3):\n    pass\n", "module-level For statements are not allowed"),
        ("X = [i for i in range(10)]\n", "ListComp is not allowed in module-level constants"),
        ("def g():\n    return 1\nX = g()\n", "calling g() is not allowed in module-level constants"),
        ("X = 'ab' * 10**9\n", "may only multiply or raise small literal values"),
        ("X = f\"{'a':>1000000000}\"\n", "f-strings are not allowed in module-level constants"),
        ("X = '%1000000000s' % 'a'\n", "'%' formatting is not allowed in module-level constants"),
        ("def f(state):\n    try:\n        pass\n    except:\n        pass\n", "bare 'except:'"),
        ("def f(state):\n    sbx_obj1 = 1\n", "reserved by the sandbox"),
        ("ToolError = ValueError\n", "must not be redefined"),
        ("async def f(state):\n    pass\n", "AsyncFunctionDef statements are not allowed"),
        ("x" * 300_000, "source is too long"),
    ],
)
def test_refused_sources(source: str, fragment: str) -> None:
    problems = check_source(source)
    assert any(fragment in p for p in problems), problems
    with pytest.raises(SandboxViolation):
        compile_module(source)


def test_bounded_module_constants_are_allowed() -> None:
    source = (
        "A = 60 * 60 * 24\nB = 2 ** 10\nC = '-' * 40\nD = [0] * 8\nE = frozenset({'a', 'b'})\n"
        "def f(state):\n    return [A, B, len(C), D, sorted(E)]\n"
    )
    assert check_source(source) == []
    assert compile_module(source)["f"]({}) == [86400, 1024, 40, [0] * 8, ["a", "b"]]


def test_module_body_error_is_a_violation() -> None:
    with pytest.raises(SandboxViolation, match="module body failed: ZeroDivisionError"):
        compile_module("X = 1 / 0\n")


def test_runtime_guards_block_dynamic_access() -> None:
    fns = compile_module(
        "import collections\n"
        "def dunder(state, name):\n    return getattr(state, name)\n"
        "def leak(state):\n    return collections.sys\n"
        "def fmt(state, text):\n    return text.format(state)\n"
        "def has(state, name):\n    return hasattr(state, name)\n"
        "def default(state):\n    return getattr(state, 'missing', 7)\n"
    )
    with pytest.raises(SandboxViolation, match="'__class__' is not allowed"):
        fns["dunder"]({}, "__class__")
    with pytest.raises(SandboxViolation, match="gi_frame"):
        fns["dunder"]({}, "gi_frame")
    with pytest.raises(SandboxViolation, match="collections.sys is not available"):
        fns["leak"]({})
    with pytest.raises(SandboxViolation, match="format field"):
        fns["fmt"]({}, "{0.__class__.__init__}")
    assert fns["fmt"]({"a": 1}, "value: {0}") == "value: {'a': 1}"
    assert fns["has"]({}, "__class__") is False and fns["has"]({}, "keys") is True
    assert fns["default"]({}) == 7


def test_module_constants_are_read_only_but_readable() -> None:
    fns = compile_module(
        "LIMITS = {'max': 5, 'tags': ['a']}\n"
        "def read(state):\n    return LIMITS['max'] + len(LIMITS['tags'])\n"
        "def write(state):\n    LIMITS['max'] = 1\n"
        "def nested(state):\n    LIMITS['tags'].append('b')\n"
        "def alias(state):\n    tags = LIMITS['tags']\n    tags += ['c']\n"
        "def copy_ok(state):\n    mine = dict(LIMITS)\n    mine['max'] = 9\n    return mine['max']\n"
    )
    for name in ("write", "nested", "alias"):
        with pytest.raises(SandboxViolation, match="read-only"):
            fns[name]({})
    assert fns["read"]({}) == 6 and fns["copy_ok"]({}) == 9


def test_clock_and_nondeterminism_are_unavailable() -> None:
    problems = check_source("import datetime\ndef f(state):\n    return datetime.date.today()\n")
    assert any("today() is not allowed" in p for p in problems)
    assert any("not deterministic" in p for p in check_source("def f(state):\n    return hash('x')\n"))
    fns = compile_module("import datetime\ndef f(state, name):\n    return getattr(datetime.datetime, name)()\n")
    with pytest.raises(SandboxViolation, match="utcnow"):
        fns["f"]({}, "utcnow")


def test_print_is_swallowed() -> None:
    fns = compile_module("def f(state):\n    print('hello', state)\n    return 1\n")
    assert fns["f"]({}) == 1


def test_write_context_rolls_back_every_written_container() -> None:
    fns = compile_module(
        "def f(state):\n"
        "    state['a']['x'] = 2\n"
        "    state['b'].append(3)\n"
        "    del state['c']\n"
        "    state['n'] += 1\n"
        "    raise ToolError('stop')\n"
    )
    state = {"a": {"x": 1}, "b": [1], "c": 0, "n": 0}
    before = json.dumps(state, sort_keys=True)
    ctx = WriteContext()
    previous = activate(ctx)
    try:
        with pytest.raises(ToolError):
            fns["f"](state)
    finally:
        activate(previous)
    assert state != json.loads(before)
    ctx.rollback()
    assert json.dumps(state, sort_keys=True) == before


def test_write_context_stops_writes_to_shared_objects() -> None:
    fns = compile_module("def f(state):\n    local = {}\n    local['k'] = 1\n    state['rec']['v'] = 2\n")
    state = {"rec": {"v": 1}}
    ctx = WriteContext({id(state["rec"])})
    previous = activate(ctx)
    try:
        with pytest.raises(SharedWrite) as info:
            fns["f"](state)
    finally:
        activate(previous)
    assert info.value.obj is state["rec"] and state == {"rec": {"v": 1}}


def test_load_module_reports_hash_and_functions() -> None:
    module = load_module("def a(state):\n    return 1\n\ndef b(state):\n    return a(state) + 1\n")
    assert len(module.sha256) == 64 and sorted(module.functions) == ["a", "b"]
    assert module.functions["b"]({}) == 2


def test_unpacking_forms() -> None:
    fns = compile_module(
        "def f(state):\n"
        "    out = []\n"
        "    for a, (b, c) in [(1, (2, 3)), (4, (5, 6))]:\n"
        "        out.append(a + b + c)\n"
        "    x, *rest = [1, 2, 3]\n"
        "    p, q = divmod(7, 2)\n"
        "    d = {k: v for k, v in {'a': 1}.items()}\n"
        "    return [out, x, rest, p, q, d, [i * j for i, j in enumerate([3, 4])]]\n"
    )
    assert fns["f"]({}) == [[6, 15], 1, [2, 3], 3, 1, {"a": 1}, [0, 4]]


def test_finally_may_not_swallow_exceptions_but_loops_inside_it_may_break() -> None:
    ok = (
        "def f(state):\n    try:\n        pass\n    finally:\n        for i in range(3):\n            if i:\n"
        "                break\n            continue\n    return 1\n"
    )
    assert check_source(ok) == []
    bad = "def f(state):\n    try:\n        pass\n    finally:\n        return 2\n"
    assert any("'return' inside 'finally'" in p for p in check_source(bad))
