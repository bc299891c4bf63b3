"""Entry texts that show a number of the record relative to the change. Entries are worked out from the record as
the call found it (code_templates/recorded_update.py.j2 computes every effect's values before applying any), so:
- "'try <n> failed' (n = the new `tries`)" while the same change adds 1 to `tries`: the entry's reading of the
  field becomes the field plus the change's constant step (after_values);
- "2 berths moved to ..." learned from the one sample entry while the change sets `spare_berths` to 0 and the docs
  say the berths move: the number is the field as the call found it (moved_counts), not the sample's 2.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.docs_appends import NEW_VALUE
from synth.envsynth.text_clauses import replaced_sources


def _step(effects: list[dict[str, Any]], key_param: str | None, field: str) -> dict[str, Any] | None:
    """The constant step the change moves its own record's field by ({"plus"|"minus": [{"const"}]}), or None."""
    for e in effects:
        path = e.get("path") or []
        own = len(path) == 2 and path[0] == {"from": "arg", "name": key_param} and path[1].get("value") == field
        expr = ((e.get("delta") or {}).get("expr") or {}) if e.get("op") == "adjust" and own else {}
        terms = expr.get("plus", []) + expr.get("minus", [])
        if len(terms) == 1 and "const" in terms[0] and set(expr) <= {"plus", "minus"}:
            return expr
    return None


def _rewritten(node: Any, field: str, step: dict[str, Any]) -> Any:
    """The node with each plain reading of the record's field replaced by the field moved by the step."""
    moved = {"plus": [{"path": [field]}, *step.get("plus", [])], "minus": list(step.get("minus", []))}
    plain = {"from": "record", "path": [field]}
    return replaced_sources(node, lambda v: {"from": "expr", "expr": moved} if v == plain else None)


def after_values(text: str, effects: list[dict[str, Any]], key_param: str | None) -> list[dict[str, Any]]:
    """The effects with each appended entry's reading of a field the docs call "the new <field>" taken after the
    change's step on it."""
    fields = [m.group(2) for m in NEW_VALUE.finditer(text)]
    out = effects
    for field in fields:
        step = _step(out, key_param, field)
        if step is None:
            continue
        out = [_rewritten(e, field, step) if e.get("op") == "append" else e for e in out]
    return out


COUNTED = re.compile(r"(?<![\w.])(\d+)\s+([a-z]+)\b")  # "2 berths moved": a number and the noun it counts


def _zeroed(effects: list[dict[str, Any]], text: str, noun: str) -> str | None:
    """The one number field the change sets to 0 with a word of its name ending with the counted noun ("berths" of
    `spare_berths`), when the docs say it moves."""
    found = [
        e["field"]
        for e in effects
        if e.get("op") == "set"
        and e.get("source") == {"from": "const", "value": 0}
        and any(word.endswith(noun) for word in str(e.get("field")).split("_"))
        and re.search(rf"\b{re.escape(e['field'])}`?\s+(?:\w+\s+)?move", text)
    ]
    return found[0] if len(found) == 1 else None


def _counted(node: Any, effects: list[dict[str, Any]], text: str) -> Any:
    if isinstance(node, dict) and node.get("from") == "concat":
        parts: list[Any] = []
        for part in node.get("parts") or []:
            m = COUNTED.search(part) if isinstance(part, str) else None
            field = _zeroed(effects, text, m.group(2)) if m else None
            if m and field:
                parts += [p for p in (part[: m.start(1)],) if p] + [{"from": "record", "path": [field], "before": True}]
                parts.append(part[m.end(1) :])
            else:
                parts.append(_counted(part, effects, text))
        return {**node, "parts": parts}
    if isinstance(node, dict):
        return {k: _counted(v, effects, text) for k, v in node.items()}
    return [_counted(v, effects, text) for v in node] if isinstance(node, list) else node


def moved_counts(text: str, effects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The effects with a count an appended entry's learned text holds as a literal ("2 berths moved") read from the
    number field the change empties, as the call found it."""
    return [_counted(e, effects, text) if e.get("op") == "append" else e for e in effects]


__all__ = ["after_values", "moved_counts"]
