"""run_cases: the separate, resource-limited process that validates generated code."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from synth.sandbox import STATUSES, CaseOutcome, run_cases

MINI = Path(__file__).parent / "data" / "envs" / "mini_todo"

SOURCE = """
import itertools


def ok(state, value=1):
    state["seen"] = value
    return {"value": value}


def fail(state):
    state["seen"] = "partial"
    raise ToolError("domain failure")


def crash(state):
    state["seen"] = "partial"
    return {}["missing"]


def spin(state):
    while True:
        pass


def c_spin(state):
    return any(itertools.repeat(0))


def hog(state):
    return len("x" * 10**10)


def not_json(state):
    return {"nan": float("nan")}


def store_set(state):
    state["bad"] = {1, 2}
    return 1
"""


def case(function: str, state: dict | None = None, **arguments: object) -> dict:
    return {"function": function, "state": {"seen": None} if state is None else state, "arguments": arguments}


def test_statuses_and_state_after() -> None:
    out = run_cases(
        SOURCE,
        [
            case("ok", value=3),
            case("fail"),
            case("crash"),
            case("spin"),
            case("hog"),
            case("not_json"),
            case("store_set"),
            case("missing"),
            case("ok"),
        ],
        cpu_seconds=0.3,
    )
    assert all(isinstance(o, CaseOutcome) and o.status in STATUSES for o in out)
    assert [o.status for o in out] == [
        "ok",
        "tool_error",
        "exception",
        "timeout",
        "memory",
        "non_json",
        "non_json",
        "exception",
        "ok",
    ]
    assert out[0].result == {"value": 3} and out[0].state_after == {"seen": 3}
    assert out[1].error == "domain failure" and out[1].state_after == {"seen": None}  # rolled back
    assert "KeyError" in out[2].error and "line 17 of env.py" in out[2].error
    assert out[2].state_after == {"seen": None}
    assert "CPU time limit" in out[3].error and out[3].state_after is None
    assert "MemoryError" in out[4].error
    assert "not JSON-serializable" in out[5].error
    assert "state is not JSON-serializable" in out[6].error
    assert "not defined" in out[7].error
    assert out[8].result == {"value": 1}  # the worker survived everything before


def test_worker_death_reruns_the_rest_in_a_fresh_process() -> None:
    cases = [case("ok", value=1), case("c_spin"), case("ok", value=2)]
    out = run_cases(SOURCE, cases, cpu_seconds=0.3)
    assert [o.status for o in out] == ["ok", "timeout", "ok"]
    assert "SIGXCPU" in out[1].error and out[2].result == {"value": 2}


@pytest.mark.slow
def test_restarts_are_bounded() -> None:
    cases = [case("c_spin"), case("c_spin"), case("ok")]
    out = run_cases(SOURCE, cases, cpu_seconds=0.2, max_restarts=1)
    assert [o.status for o in out] == ["timeout", "timeout", "timeout"]
    assert out[2].error.startswith("not run: the worker died on an earlier case")


def test_wall_clock_limit_kills_the_worker() -> None:
    start = time.perf_counter()
    out = run_cases(SOURCE, [case("c_spin")], cpu_seconds=30, wall_timeout_s=1.0, max_restarts=0)
    assert out[0].status == "timeout" and "wall-clock" in out[0].error
    assert time.perf_counter() - start < 10


def test_load_failure_is_reported_for_every_case() -> None:
    out = run_cases("import os\n\ndef ok(state):\n    return 1\n", [case("ok"), case("ok")])
    assert [o.status for o in out] == ["violation", "violation"]
    assert all("import of 'os' is not allowed" in o.error for o in out)
    out = run_cases("def ok(state):\n    return 1\n\nX = 1 // 0\n", [case("ok")])
    assert out[0].status == "violation" and "ZeroDivisionError" in out[0].error


def test_mini_todo_tests_pass_and_a_batch_of_50_is_fast() -> None:
    tests = json.loads((MINI / "tests.json").read_text())
    source = (MINI / "env.py").read_text()
    cases = [{"function": t["tool"], "state": t["state"], "arguments": t["arguments"]} for t in tests]
    batch = (cases * 5)[:50]
    run_cases(source, cases[:1])  # warm the file cache
    start = time.perf_counter()
    out = run_cases(source, batch)
    elapsed = time.perf_counter() - start
    print(f"50 cases in one worker: {elapsed * 1000:.0f} ms")
    assert elapsed < 3.0  # well under a second on an idle machine; generous for a loaded CI box
    for test, outcome in zip(tests * 5, out):
        if "error" in test["expect"]:
            assert outcome.status == "tool_error", (test, outcome)
            assert outcome.state_after == test["state"]
        else:
            assert outcome.status == "ok" and outcome.result == test["expect"]["result"], (test, outcome)
        if test["expect_state"] is not None:
            assert outcome.state_after == test["expect_state"]


def test_empty_batch() -> None:
    assert run_cases("def f(state):\n    return 1\n", []) == []


def test_a_timer_tick_that_arrives_after_disarm_is_ignored(monkeypatch) -> None:
    """A tick queued just before the timer stopped must not kill the worker outside a case."""
    import pytest

    from synth.sandbox import limits
    from synth.sandbox.errors import CaseTimeout

    monkeypatch.setattr(limits, "_armed", True)
    with pytest.raises(CaseTimeout):
        limits._on_timer(0, None)
    limits.disarm_case()
    assert limits._armed is False
    limits._on_timer(0, None)  # no exception once disarmed


def test_memory_hogs_that_time_out_are_reported_not_crashed() -> None:
    source = "def grow(state):\n    items = []\n    while True:\n        items.append('x' * 10000)\n"
    outcomes = run_cases(source, [case("grow") for _ in range(4)], cpu_seconds=0.5, memory_mb=512)
    assert [o.status in ("timeout", "memory") for o in outcomes] == [True] * 4, [o.error for o in outcomes]
