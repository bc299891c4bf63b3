"""`forgegym env check`: reload a published environment in the sandbox and rerun its tests."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from synth.envsynth.testgen import TestCase
from synth.envsynth.tool_tests import run_tool_tests
from synth.errors import InputError
from synth.sandbox import SandboxViolation, check_source


@dataclass
class EnvCheckResult:
    env_id: str
    tools: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> {passed, total, failures}
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and all(t["passed"] == t["total"] and t["total"] > 0 for t in self.tools.values())

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "ok": self.ok}


def _read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(str(path), "(file)", f"missing {what}") from None
    except json.JSONDecodeError as ex:
        raise InputError(str(path), f"line {ex.lineno} column {ex.colno}", f"invalid JSON: {ex.msg}") from None


def check_environment(env_dir: str | Path) -> EnvCheckResult:
    """Every published tool must pass every one of its tests, in the sandbox."""
    d = Path(env_dir)
    manifest = _read_json(d / "manifest.json", "manifest")
    schema = _read_json(d / "state_schema.json", "state schema")
    tests = [TestCase.from_dict(t) for t in _read_json(d / "tests.json", "tests")]
    try:
        source = (d / "env.py").read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(str(d / "env.py"), "(file)", "missing tool code") from None
    res = EnvCheckResult(env_id=manifest.get("env_id", d.name))
    problems = check_source(source)
    if problems:
        res.problems += [f"env.py refused by the sandbox: {p}" for p in problems]
        return res
    for i, tool in enumerate(manifest.get("tools", [])):
        if "function" not in tool or "name" not in tool:
            raise InputError(str(d / "manifest.json"), f"/tools/{i}", "each tool needs `name` and `function`")
        cases = [t for t in tests if t.tool == tool["name"]]
        try:
            vr = run_tool_tests(source, tool["function"], cases, schema)
        except SandboxViolation as ex:
            res.problems.append(f"{tool['name']}: {ex}")
            continue
        res.tools[tool["name"]] = {
            "passed": vr.passed,
            "total": vr.total,
            "failures": [f.text(cases[f.index]) if f.index >= 0 else f.message for f in vr.failures[:3]],
        }
    return res
