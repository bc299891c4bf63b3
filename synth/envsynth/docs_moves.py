"""Balance moves read from the docs and the sample data (no recorded calls needed).

A transition that appends an entry with an amount and an id (a refund to a payment method) may also move a
number of the record that id names elsewhere in the state, when the tool's text says so: a sentence naming a
number field of the data (`balance`) with a word of direction ("added", "refunded" -> +; "deducted", "charged"
-> -). The path to that number is found in the sample state (the id is a map key under another collection's
record that the call's record references) and written as sources over the record, so it holds for every record.
The move applies only where the number is there (a method without a balance keeps none).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.expr_runtime import fg_dig, fg_number, fg_value
from synth.envsynth.trace_checks import key_paths, segment_sources

UP = re.compile(r"\b(add|added|adds|credit|credited|refund|refunded|returned|increase[sd]?)\b", re.IGNORECASE)
DOWN = re.compile(r"\b(deduct|deducted|charge|charged|debit|debited|subtract|subtracted|decrease[sd]?)\b", re.I)
MAX_DEPTH = 4


def _number_fields(node: Any, depth: int = 0) -> set[str]:
    """Names of number fields of records below the top of the state."""
    out: set[str] = set()
    if depth > MAX_DEPTH:
        return out
    if isinstance(node, dict):
        for key, value in node.items():
            if fg_number(value) and depth >= 2:
                out.add(key)
            elif isinstance(value, (dict, list)):
                out |= _number_fields(value, depth + 1)
    elif isinstance(node, list):
        for value in node[:20]:
            out |= _number_fields(value, depth + 1)
    return out


def docs_moves(
    text: str, effects: list[dict[str, Any]], sample: dict[str, Any] | None, collection: str
) -> list[dict[str, Any]]:
    """Adjust effects for the numbers the text says an appended entry's amount moves."""
    if not sample:
        return []
    fields = sorted(_number_fields({k: v for k, v in sample.items() if k != collection}))
    records = [r for r in (sample.get(collection) or {}).values() if isinstance(r, dict)]
    out: list[dict[str, Any]] = []
    for field in fields:
        named = re.compile(rf"\b{re.escape(field.replace('_', ' '))}\b", re.IGNORECASE)
        sentences = [s for s in re.split(r"(?<=[.!?])\s+|\n", text) if named.search(s)]
        ups = any(UP.search(s) for s in sentences)
        downs = any(DOWN.search(s) for s in sentences)
        if ups == downs:
            continue  # no sentence, or both directions: the docs do not say which way
        for eff in effects:
            if eff.get("op") != "append":
                continue
            for item in eff.get("items") or []:
                move = _move(item.get("fields") or {}, field, records, sample, collection, 1 if ups else -1)
                if move and move not in out:
                    out.append(move)
    return out


def _move(
    fields: dict[str, Any], name: str, records: list[dict[str, Any]], sample: dict[str, Any], collection: str, sign: int
) -> dict[str, Any] | None:
    sources = [s for s in fields.values() if s.get("from") == "record"]  # the entry's id and amount among them
    for id_src in sources:
        for record in records:
            ident = fg_value(id_src, {}, record)
            others = {k: v for k, v in sample.items() if k != collection}
            paths = key_paths(others, ident) if isinstance(ident, str) else []
            path = next((p for p in paths if isinstance(fg_dig(others, list(p)), dict)), None)
            if not path or not fg_number(fg_dig(sample, list(path) + [name])):
                continue
            segments = [segment_sources(part, {}, record)[0] for part in path[1:]]
            if segments[-1].get("from") != "record":
                continue  # the id itself must come from the record
            for amount in sources:
                if amount is id_src or not fg_number(fg_value(amount, {}, record)):
                    continue
                delta = (
                    amount if sign > 0 else {"from": "expr", "expr": {"minus": [{"path": amount["path"]}], "digits": 6}}
                )
                return {
                    "op": "adjust",
                    "collection": path[0],
                    "path": segments + [{"from": "const", "value": name}],
                    "delta": delta,
                }
    return None


__all__ = ["docs_moves"]
