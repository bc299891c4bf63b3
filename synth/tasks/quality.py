"""Task quality figures of an environment's tasks (the `quality` block of `forgegym verify --json`).

- placeholder values: a gold argument in a typed field (a pattern, enum, format or examples in the
  tool's or the record's schema, or a formatted kind by name: zip, city, email, date, code) that
  breaks its pattern or enum, or reads like a sentence;
- instructions that name a tool, the environment's folder id, or an opaque id (a record key with
  digits, 6+ characters: '#W3130816', a uuid) the user would have to look up;
- lookups: a gold argument read from an earlier result or chosen by a reasoning step;
- questions: tasks without a write; difficulty: the spread of DAG depth, lookups and reasoning steps.

`targets` holds the thresholds of issue 22 and `meets` whether each holds.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from synth.task import Task
from synth.tasks.envmodel import EnvModel, json_type
from synth.tasks.typed_values import field_schema_named, singular_name, typed_kind
from synth.tasks.values import text_kind
from synth.words import split_words

TARGETS = {
    "placeholder_share_max": 0.0,
    "names_tool_or_id_share_max": 0.10,
    "lookup_share_min": 0.50,
    "no_write_share_min": 0.10,
    "probes_ok_share_min": 1.0,
}


@dataclass
class TaskQuality:
    """The figures of one task."""

    task_id: str
    placeholders: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    lookups: int = 0
    writes: int = 0
    depth: int = 0
    reasoning: int = 0


def is_placeholder(value: Any, name: str, schema: dict[str, Any]) -> bool:
    """True when a text value in a typed field breaks the field's pattern or enum, or reads like a sentence."""
    if not isinstance(value, str):
        return False
    enum = list(schema.get("enum") or schema.get("x-enum") or [])
    if enum and value not in enum:
        return True
    pattern = schema.get("pattern")
    if pattern:
        try:
            return re.search(str(pattern), value) is None
        except re.error:
            return False
    kind = typed_kind(name) or (text_kind(name) if text_kind(name) not in ("text", "person") else None)
    kind = kind or ("format" if schema.get("format") or schema.get("examples") else None)
    return bool(kind) and not KIND_OK.get(kind, _short)(value)


def _short(v: str) -> bool:
    return len(v.split()) <= 2


KIND_OK = {
    "zip": lambda v: bool(re.fullmatch(r"[A-Za-z0-9 -]{3,10}", v)) and any(c.isdigit() for c in v),
    "street": lambda v: any(c.isdigit() for c in v) and len(v.split()) <= 6,
    "unit": lambda v: len(v.split()) <= 3,
    "city": lambda v: len(v.split()) <= 3 and not any(c.isdigit() for c in v),
    "state": lambda v: len(v.split()) <= 3 and not any(c.isdigit() for c in v),
    "country": lambda v: len(v.split()) <= 3 and not any(c.isdigit() for c in v),
    "code": lambda v: " " not in v.strip(),
    "email": lambda v: "@" in v and " " not in v,
    "url": lambda v: "://" in v or v.startswith("/"),
    "phone": lambda v: sum(c.isdigit() for c in v) >= 4,
    "date": lambda v: any(c.isdigit() for c in v),
}


def _leaves(value: Any, name: str) -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        return [x for k, v in value.items() for x in _leaves(v, k)]
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v, name)]
    return [(name, value)]


def _schema_for(model: EnvModel, tool_name: str, pname: str, leaf: str) -> dict[str, Any]:
    tool = model.tools.get(tool_name)
    own = ((tool.props.get(pname) if tool else None) or {}) if leaf == pname else {}
    if json_type(own) == "array":  # a list argument: each element is judged by the items' schema
        own = own.get("items") or {}
    hint = field_schema_named(model, tool.collection if tool else None, leaf) or field_schema_named(
        model, tool.collection if tool else None, singular_name(leaf)
    )
    merged = {**hint, **own}
    return merged if json_type(merged) in ("string", "enum") or merged.get("pattern") else {}


def opaque_ids(task: Task, model: EnvModel | None = None) -> set[str]:
    """Record keys of the task's state that look like internal ids (digits, 6+ characters); keys of a
    collection keyed by a name the user chose (username, name, email) are theirs to know."""
    out = set()
    for cname, recs in task.initial_state.items():
        col = model.collections.get(cname) if model is not None else None
        if col is not None and set(split_words(col.key_field or "")) & {"name", "username", "email", "title"}:
            continue
        if isinstance(recs, dict):
            for k in recs:
                if len(str(k)) >= 6 and re.search(r"\d", str(k)):
                    out.add(str(k))
    return out


def task_quality(task: Task, model: EnvModel) -> TaskQuality:
    """The quality figures of one task."""
    q = TaskQuality(task_id=task.task_id)
    for a in task.gold_actions:
        for pname, value in a.arguments.items():
            for leaf, v in _leaves(value, pname):
                if is_placeholder(v, leaf, _schema_for(model, a.name, pname, leaf)):
                    q.placeholders.append(f"{a.name}.{leaf}={v!r}")
    text = task.user_instruction
    low = text.lower()
    for name in model.tools:
        if len(name) > 3 and re.search(r"(?<![a-z0-9_])" + re.escape(name.lower()) + r"(?![a-z0-9_])", low):
            q.names.append(f"tool {name}")
    if "_" in model.env_id and model.env_id.lower() in low:
        q.names.append(f"folder id {model.env_id}")
    for key in sorted(opaque_ids(task, model)):
        if key.lower() in low:
            q.names.append(f"id {key}")
    nodes = (task.provenance.get("dag") or {}).get("nodes") or []
    q.lookups = sum(1 for n in nodes for s in (n.get("args") or {}).values() if s.get("source") in ("output", "reason"))
    q.writes = sum(1 for a in task.gold_actions if a.name in model.tools and model.tools[a.name].is_write)
    q.depth = int(task.difficulty.get("depth") or 0)
    q.reasoning = int(task.difficulty.get("reasoning_nodes") or 0)
    return q


def quality_summary(tasks: list[Task], model: EnvModel, probes_ok: int | None = None) -> dict[str, Any]:
    """Shares, difficulty spread and whether each target of `TARGETS` is met."""
    qs = [task_quality(t, model) for t in tasks]
    n = len(qs) or 1
    out: dict[str, Any] = {
        "tasks": len(qs),
        "placeholder_tasks": sum(1 for q in qs if q.placeholders),
        "names_tool_or_id_tasks": sum(1 for q in qs if q.names),
        "lookup_tasks": sum(1 for q in qs if q.lookups),
        "no_write_tasks": sum(1 for q in qs if not q.writes),
        "depth": dict(sorted(Counter(q.depth for q in qs).items())),
        "lookups": dict(sorted(Counter(q.lookups for q in qs).items())),
        "reasoning": dict(sorted(Counter(q.reasoning for q in qs).items())),
        "policy_checks": sum(1 for t in tasks if t.provenance.get("refused_calls")),  # refusals
        "examples": {
            "placeholders": [x for q in qs for x in q.placeholders][:5],
            "names": [f"{q.task_id}: {x}" for q in qs for x in q.names][:5],
        },
    }
    shares = {
        "placeholder_share": out["placeholder_tasks"] / n,
        "names_tool_or_id_share": out["names_tool_or_id_tasks"] / n,
        "lookup_share": out["lookup_tasks"] / n,
        "no_write_share": out["no_write_tasks"] / n,
    }
    if probes_ok is not None:
        shares["probes_ok_share"] = probes_ok / n
    out.update({k: round(v, 3) for k, v in shares.items()})
    meets = {}
    for key, bound in TARGETS.items():
        share = key.rsplit("_", 1)[0]
        if share in shares:
            meets[key] = shares[share] <= bound if key.endswith("_max") else shares[share] >= bound
    out["meets"] = meets
    out["targets"] = dict(TARGETS)
    return out
