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


def _key_path(node: Any, value: str, prefix: tuple[str, ...] = ()) -> tuple[str, ...] | None:
    if not isinstance(node, dict) or len(prefix) > MAX_DEPTH:
        return None
    if prefix and isinstance(node.get(value), dict):
        return prefix + (value,)
    for key in sorted(node):
        found = _key_path(node[key], value, prefix + (key,)) if isinstance(node[key], dict) else None
        if found:
            return found
    return None


def _strings(record: dict[str, Any]) -> list[tuple[list[Any], str]]:
    out: list[tuple[list[Any], str]] = []

    def walk(node: Any, path: list[Any]) -> None:
        if len(path) > MAX_DEPTH:
            return
        if isinstance(node, dict):
            for k in sorted(node):
                walk(node[k], path + [k])
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, path + [i])
        elif isinstance(node, str):
            out.append((path, node))

    walk(record, [])
    return sorted(out, key=lambda pv: (len(pv[0]), str(pv[0])))


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
    amounts = [s for s in fields.values() if s.get("from") == "record"]
    ids = [s for s in fields.values() if s.get("from") == "record"]
    for id_src in ids:
        for record in records:
            ident = fg_value(id_src, {}, record)
            path = (
                _key_path({k: v for k, v in sample.items() if k != collection}, ident)
                if isinstance(ident, str)
                else None
            )
            if not path or not fg_number(fg_dig(sample, list(path) + [name])):
                continue
            segments = []
            for part in path[1:]:
                found = [p for p, v in _strings(record) if v == part]
                segments.append({"from": "record", "path": found[0]} if found else {"from": "const", "value": part})
            if segments[-1].get("from") != "record":
                continue  # the id itself must come from the record
            for amount in amounts:
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
