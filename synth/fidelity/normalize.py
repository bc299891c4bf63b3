"""Normalisation of tool outputs and state values before the two sides are compared.

Rules (docs/fidelity.md): JSON is parsed out of strings, strings are stripped, floats are rounded to
6 decimals (an integral float becomes an int: JSON has one number type), key order is ignored
(canonical JSON sorts keys), tuples count as lists. Booleans stay booleans (`true` is not `1`).
"""

from __future__ import annotations

import json
import math
from typing import Any

FLOAT_DECIMALS = 6
_JSON_START = frozenset('{["-0123456789tfn')


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _parse_json_text(text: str) -> tuple[bool, Any]:
    """(True, value) when `text` is a JSON document (NaN and Infinity refused), else (False, None)."""
    if not text or text[0] not in _JSON_START:
        return False, None
    try:
        return True, json.loads(text, parse_constant=_reject_constant)
    except ValueError:
        return False, None


def _number(value: float) -> Any:
    if not math.isfinite(value):
        return repr(value)  # canonical JSON has no NaN or Infinity
    rounded = round(value, FLOAT_DECIMALS)
    if rounded == int(rounded):
        return int(rounded)
    return rounded


def normalize(value: Any) -> Any:
    """A JSON value with the normalisation rules applied, recursively."""
    kind = type(value)
    if kind is str:
        text = value.strip()
        parsed, inner = _parse_json_text(text)
        if parsed:  # a JSON string literal loses its quotes, so this ends
            return normalize(inner)
        return text
    if kind is bool or value is None:
        return value
    if kind is int:
        return value
    if kind is float:
        return _number(value)
    if isinstance(value, dict):
        return {str(key): normalize(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [normalize(item) for item in value]
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return _number(float(value))
    return str(value)


def canonical(value: Any) -> str:
    """Canonical JSON of the normalised value (sorted keys, no spaces): equal texts mean equal values."""
    return json.dumps(normalize(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def same(left: Any, right: Any) -> bool:
    """Whether two values are equal after normalisation.

    Fast for large states: subtrees that are equal as they are (same types) are not normalised. That shortcut
    uses Python's `==`, so inside such a subtree `true` and `1` compare equal, unlike in `canonical`.
    """
    if left is right:
        return True
    lk, rk = type(left), type(right)
    if lk is rk and left == right:
        return True
    if lk is dict and rk is dict:
        if left.keys() != right.keys():
            return canonical(left) == canonical(right)  # keys never change under normalisation; values may
        return all(same(left[key], right[key]) for key in left)
    if lk is list and rk is list and len(left) == len(right):
        return all(same(x, y) for x, y in zip(left, right))
    return canonical(left) == canonical(right)
