"""A number argument held between a bound and a number of the record another argument names: "`crew` must be between
1 and the boat class's `max_crew`".

The noun after "the" names a collection by its words ("boat class" -> `boat_classes`), and the call names one of its
records by the parameter of that noun (`boat_class_id`). Two `arg_limit` checks (expr_runtime.fg_check) follow: the
argument at least the low bound, and at most that record's number (`via_arg`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.words import plural

BETWEEN = re.compile(
    r"`(?P<arg>\w+)`\s+must\s+be\s+between\s+(?P<low>\d+(?:\.\d+)?)\s+and\s+the\s+(?P<noun>[a-z][a-z ]{0,30}?)"
    r"['\u2019]s\s+`(?P<field>\w+)`",
    re.I,
)


def _numbers(schema: Any) -> bool:
    kind = schema.get("type") if isinstance(schema, dict) else None
    return bool({"number", "integer"} & set(kind if isinstance(kind, list) else [kind]))


def range_checks(text: str, params: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """`arg_limit` checks for each "`x` must be between N and the <noun>'s `<field>`" the text says."""
    out: list[dict[str, Any]] = []
    for m in BETWEEN.finditer(text):
        arg, noun = m.group("arg"), "_".join(m.group("noun").lower().split())
        param, col = f"{noun}_id", plural(noun)
        record = ((cols.get(col) or {}).get("additionalProperties") or {}) if isinstance(cols.get(col), dict) else {}
        if (
            not _numbers(params.get(arg))
            or param not in params
            or not _numbers((record.get("properties") or {}).get(m.group("field")))
        ):
            continue
        low = float(m.group("low")) if "." in m.group("low") else int(m.group("low"))
        out.append({"op": "arg_limit", "arg": arg, "cmp": ">=", "value": low})
        limit = {"plus": [{"path": [m.group("field")]}]}
        out.append({"op": "arg_limit", "arg": arg, "cmp": "<=", "expr": limit, "via_arg": param, "collection": col})
    return out


__all__ = ["range_checks"]
