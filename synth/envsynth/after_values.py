"""An entry text that shows a number of the record as the change leaves it: "'try <n> failed' (n = the new
`tries`)" while the same change adds 1 to `tries`. Entries are worked out from the record as the call found it
(code_templates/recorded_update.py.j2 computes every effect's values before applying any), so the entry's reading
of the field becomes the field plus the change's constant step.
"""

from __future__ import annotations

from typing import Any

from synth.envsynth.docs_appends import NEW_VALUE


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
    if isinstance(node, dict):
        if node == {"from": "record", "path": [field]}:
            moved = {"plus": [{"path": [field]}, *step.get("plus", [])], "minus": list(step.get("minus", []))}
            return {"from": "expr", "expr": moved}
        return {k: _rewritten(v, field, step) for k, v in node.items()}
    return [_rewritten(v, field, step) for v in node] if isinstance(node, list) else node


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


__all__ = ["after_values"]
