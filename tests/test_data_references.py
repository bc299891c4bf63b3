"""Grounded environments keep the layout of the dev references: every state their trajectories pass through
(replayed through ../shared/references/*/adapter.py) is valid against the state schema and comes back unchanged
from `reset(initial_state=...)`."""

from __future__ import annotations

import importlib.util
import json
import time
from pathlib import Path
from typing import Any, Iterator

import jsonschema
import pytest

from synth.runtime.environment import Environment
from synth.runtime.state import state_hash

ROOT = Path(__file__).resolve().parents[1]
REFS = ROOT.parent / "shared" / "references"
DOCS = ROOT.parent / "shared" / "tooldocs"
ENVS = ROOT / "envs_generated"
CASES = {
    "tau_retail": ["tau_retail_tools.json", "tau_retail_policy.md"],
    "bfcl_file_system": ["bfcl_gorilla_file_system.json"],
}

pytestmark = pytest.mark.skipif(not REFS.is_dir(), reason=f"reference implementations not found at {REFS}")


def _adapter(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"ref_adapter_{name}", REFS / name / "adapter.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.make()


def passed_states(name: str, limit: int | None = None) -> Iterator[tuple[str, dict[str, Any]]]:
    """(where, state): each trajectory's initial state, then the state after each of its calls."""
    ref = _adapter(name)
    data_path = REFS / name / "data.json"
    data = json.loads(data_path.read_text()) if data_path.exists() else None
    lines = (REFS / name / "trajectories.jsonl").read_text().splitlines()[:limit]
    for line in lines:
        traj = json.loads(line)
        init = traj.get("initial_state", data)
        ref.reset(init)
        yield f"{traj['id']} initial", init
        for i, call in enumerate(traj["calls"]):
            ref.call(call["name"], call["arguments"])
            yield f"{traj['id']} after call {i} {call['name']}", ref.state()


def grounded_schema_of(name: str) -> dict[str, Any]:
    """The committed environment's state schema, else one inferred now from the reference data and docs."""
    if (ENVS / name / "state_schema.json").exists():
        return json.loads((ENVS / name / "state_schema.json").read_text())
    from synth.data import grounded_state_schema
    from synth.envsynth.pipeline import ingest

    data = REFS / name / "data.json"
    if not data.exists():
        from examples.bfcl_sample_states import sample_states

        tmp = ROOT / "runs" / "test_data" / f"{name}.jsonl"
        tmp.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text("".join(json.dumps(s) + "\n" for s in sample_states(REFS / name / "trajectories.jsonl")))
        data = tmp
    return grounded_state_schema(ingest([str(DOCS / d) for d in CASES[name]]), str(data)).state_schema


class _Checker:
    """Validates a state, re-validating only the records that differ from the last fully checked state."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self.full = jsonschema.Draft202012Validator(schema)
        self.base: dict[str, Any] | None = None

    def problem(self, state: dict[str, Any]) -> str | None:
        if self.base is None or sorted(state) != sorted(self.base) or len(json.dumps(state)) < 50_000:
            err = next(iter(self.full.iter_errors(state)), None)
            self.base = state
            return None if err is None else f"{'/'.join(map(str, err.absolute_path))}: {err.message[:200]}"
        for key, value in state.items():
            old = self.base[key]
            if value == old:
                continue
            entry = self.schema["properties"][key]
            sub = entry.get("additionalProperties")
            if not (isinstance(value, dict) and isinstance(sub, dict) and "$ref" not in json.dumps(sub)):
                sub_state = {k: (value if k == key else v) for k, v in self.base.items()}
                err = next(iter(self.full.iter_errors(sub_state)), None)
            else:
                rv = jsonschema.Draft202012Validator({**sub, "$defs": self.schema.get("$defs", {})})
                err = next((e for k, rec in value.items() if old.get(k) != rec for e in rv.iter_errors(rec)), None)
            if err is not None:
                return f"{key}: {'/'.join(map(str, err.absolute_path))}: {err.message[:200]}"
        return None


def _check(name: str, limit: int | None) -> int:
    schema = grounded_schema_of(name)
    checker = _Checker(schema)
    env = Environment(ENVS / name) if (ENVS / name / "env.py").exists() else None
    n = 0
    for where, state in passed_states(name, limit):
        problem = checker.problem(state)
        assert problem is None, f"{name} {where}: state breaks the grounded schema at {problem}"
        if env is not None:
            before = state_hash(state)
            t0 = time.perf_counter()
            env.reset(initial_state=state)
            assert time.perf_counter() - t0 < 0.05, "reset must not copy or convert the state"
            assert env.state == state and env.state_hash() == before
        n += 1
    return n


@pytest.mark.parametrize("name,limit", [("bfcl_file_system", None), ("tau_retail", 12)])
def test_trajectory_states_load_and_come_back_unchanged(name, limit):
    assert _check(name, limit) > (100 if name == "bfcl_file_system" else 12)


@pytest.mark.slow
def test_every_tau_retail_trajectory_state():
    assert _check("tau_retail", None) > 1000


def test_multi_megabyte_state_resets_and_writes_fast():
    env_dir = ENVS / "tau_retail"
    if not (env_dir / "env.py").exists():
        pytest.skip("envs_generated/tau_retail is not built in this checkout")
    from synth.data import load_data_states

    (state,) = load_data_states(env_dir)
    before = state_hash(state)
    env = Environment(env_dir)
    manifest = json.loads((env_dir / "manifest.json").read_text())
    changed = 0
    for tool in [t for t in manifest["tools"] if t["kind"] == "update" and t["key_param"] and t["collection"]]:
        first, second = sorted(state[tool["collection"]])[:2]
        props = tool["parameters"]["properties"]
        args = {
            p: first
            if p == tool["key_param"]
            else (props[p].get("enum") or [_value_in(state[tool["collection"]][second], p)])[0]
            for p in tool["parameters"].get("required", [])
        }
        t0 = time.perf_counter()
        env.reset(initial_state=state)
        step = env.step({"name": tool["name"], "arguments": args})
        assert time.perf_counter() - t0 < 1.0  # copy-on-write: only the written path is copied
        paths = env.changed_paths()
        assert all(p.startswith(f"/{tool['collection']}/{first}") for p in paths), paths
        changed += bool(step.info["ok"] and paths)
    assert changed >= 1  # some update writes into the data's nested records
    assert state_hash(state) == before  # the data itself is never modified


def _value_in(record: Any, name: str) -> Any:
    """The value of the first field called `name` anywhere in `record` ("x" when none)."""
    stack = [record]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if name in node and not isinstance(node[name], (dict, list)):
                return node[name]
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return "x"
