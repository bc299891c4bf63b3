"""The Task contract: one verifiable, multi-step job in one environment (one line of tasks.jsonl)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from synth.spec import ToolCall


@dataclass
class Checks:
    """How a final state is judged.

    `exempt_paths`: JSON-pointer-like paths ("/orders/#W1/updated_at") ignored in the state comparison.
    `required_facts`: strings that must appear in the agent's replies (read-only needs).
    `fact_options`: per required fact, the other answers it could be confused with (the field's other
    enum values, other records' values); a reply naming any of them does not count as stating the fact,
    so listing every option earns nothing.
    """

    exempt_paths: list[str] = field(default_factory=list)
    required_facts: list[str] = field(default_factory=list)
    fact_options: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class Task:
    task_id: str
    env_id: str
    user_instruction: str
    intent: str
    initial_state: dict[str, Any]
    gold_actions: list[ToolCall]  # in order; tasks.jsonl holds them as [{"name": tool, "arguments": {...}}]
    gold_final_state: dict[str, Any]
    checks: Checks = field(default_factory=Checks)
    difficulty: dict[str, Any] = field(default_factory=dict)  # dag_size, depth, reasoning_nodes, pass_rate
    provenance: dict[str, Any] = field(default_factory=dict)  # walk seeds, merged sequences
    gold_outputs: list[Any] = field(default_factory=list)  # JSON result of each gold action (or its observation text)

    def gold_observations(self) -> list[str]:
        """What the agent sees after each gold action: the runtime's observation text of each output."""
        return [result_text(o) for o in self.gold_outputs]

    def to_dict(self) -> dict[str, Any]:
        """The tasks.jsonl form: plain JSON values, gold actions as `{"name", "arguments"}` objects."""
        d = asdict(self)
        d["gold_actions"] = [a.to_dict() for a in self.gold_actions]
        if not d["checks"].get("fact_options"):
            d["checks"].pop("fact_options", None)  # tasks without options keep their earlier bytes
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Task":
        """Inverse of `to_dict` (unknown keys are ignored; a malformed gold action is a TypeError)."""
        d = dict(d)
        d["checks"] = Checks(**(d.get("checks") or {}))
        if "gold_actions" in d:
            d["gold_actions"] = [ToolCall.from_dict(a) for a in d["gold_actions"] or []]
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in d.items() if k in known})


def result_text(output: Any) -> str:
    """The runtime's observation of a gold output: a JSON result encoded as the runtime does (a text result
    too, in quotes); an output kept as the observation text itself (JSON text) unchanged."""
    if isinstance(output, str):
        try:
            json.loads(output)
            return output
        except ValueError:
            pass
    return json.dumps(output, sort_keys=True, ensure_ascii=False)


def observation_text(output: Any) -> str:
    """The runtime's observation for a tool result (text stays as it is)."""
    return output if isinstance(output, str) else json.dumps(output, sort_keys=True, ensure_ascii=False)


def dump_jsonl_line(task: Task) -> str:
    """Canonical serialization (sorted keys, no spaces) so reruns are byte-identical."""
    return json.dumps(task.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def load_tasks(path: str | Path) -> list[Task]:
    """Read tasks.jsonl; a missing file means no tasks."""
    p = Path(path)
    if not p.exists():
        return []
    return [Task.from_dict(json.loads(line)) for line in p.read_text().splitlines() if line.strip()]
