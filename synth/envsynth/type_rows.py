"""Per-kind conditions a create's docs give in a table: a header with an "allowed when" column and one row per value
of an argument, the one whose values they are or the one the first column is headed by ("`haul` | boat `afloat`,
crane `free` | 25.00"). Each condition of a row's cell that names a
record an argument names and a value one of its fields knows ("boat `afloat`": the boat `boat_id` names holds
`afloat` in its one field knowing it) is a `named_state` check guarded on the argument's value. Also read:
"... with no `open` hire" (no stored `hires` record naming the same records is in that state:
`none_stored`; or the object so named on a record an argument names does not hold it: `named_nested`), "the dues
are paid (zero or less)" (that number of a record an argument names is at most 0: `bound`), "an `open` hire is in
place" (such a stored record, or object, exists: `some_stored`, `named_nested`), and a clause of alternatives joined
by "or" when each is read (`any_of`). A clause of any other form is not read."""

from __future__ import annotations

import re
from typing import Any

from synth.spec import known_values
from synth.spec import record_props as _props
from synth.words import plural

ALLOWED_WHEN = re.compile(r"^\s*allowed\s+(?:when|if|only\s+when)\s*$", re.I)
SAID = re.compile(r"^(?:and\s+)?(?:the\s+)?([a-z]\w*)\s+`([\w-]+)`", re.I)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def type_row_checks(text: str, params: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """`named_state` checks, each with a `when` on the row's argument value (module docstring)."""
    lines = text.splitlines()
    out: list[dict[str, Any]] = []
    for i, line in enumerate(lines):
        cells = _cells(line) if "|" in line else []
        column = next((j for j, c in enumerate(cells) if ALLOWED_WHEN.match(c)), None)
        if column is None:
            continue
        rows = []
        for row in lines[i + 1 :]:
            if "|" not in row:
                if row.strip():
                    break
                continue
            found = _cells(row)
            value = re.fullmatch(r"`([\w-]+)`", found[0]) if found else None
            if value and len(found) > column:
                rows.append((value.group(1), found[column]))
        kinds = {v for v, _ in rows}
        args = [p for p, s in sorted(params.items()) if kinds and kinds <= set(known_values(s))]
        head = "_".join(cells[0].strip("`").lower().split()) if cells else ""
        args = args or ([head] if head in params and kinds else [])  # the column the argument heads
        if len(args) != 1:
            continue
        for value, cell in rows:
            for clause in re.split(r",\s*", cell):
                parts = [_clause(c, params, cols) for c in re.split(r"\s+or\s+(?![^()]*\))", clause.strip())]
                if not parts or not all(parts):
                    continue
                checks = [c for part in parts for c in part]
                joined = checks if len(parts) == 1 else [{"op": "any_of", "checks": checks}]
                out += [{**c, "when": {"arg": args[0], "in": [value]}} for c in joined]
    return out


PAID = re.compile(
    r"^(?:and\s+)?the\s+([a-z]+)\s+(?:is|are)\s+(?:paid|settled|cleared)(?:\s*\((?:zero\s+or\s+less|zero)\))?$", re.I
)
IN_PLACE = re.compile(r"^(?:and\s+)?an?\s+`([\w-]+)`\s+([a-z]+(?:\s+[a-z]+)?)\s+is\s+in\s+place$", re.I)
WITH_NO = re.compile(r"^\s+with\s+no\s+`([\w-]+)`\s+([a-z]+(?:\s+[a-z]+)?)$", re.I)


def _stored(state: str, words: str, params: dict[str, Any], cols: dict[str, Any], op: str) -> dict[str, Any] | None:
    """A `none_stored` / `some_stored` check on the records of the kind the words name that name the call's
    records (the arguments that are their fields) and hold the state."""
    col = plural("_".join(words.lower().split()))
    theirs = _props(cols, col)
    match = {p: {"arg": p} for p in sorted(params) if p.endswith("_id") and p in theirs}
    where = [f for f, s in sorted(theirs.items()) if state in known_values(s)]
    if match and len(where) == 1:
        return {"op": op, "collection": col, "match": match, "where": {where[0]: [state]}}
    return _nested(state, words, params, cols, op == "none_stored")


def _holders(field: str, params: dict[str, Any], cols: dict[str, Any]) -> list[tuple[str, str]]:
    """(argument, collection) for each `<noun>_id` argument whose collection's records hold the field."""
    return [(p, plural(p[:-3])) for p in sorted(params) if p.endswith("_id") and field in _props(cols, plural(p[:-3]))]


def _nested(state: str, words: str, params: dict[str, Any], cols: dict[str, Any], negated: bool) -> dict | None:
    """The object the words name on a record an argument names holding (or not) the state in its one field that
    knows it, or its `status` (`named_nested`)."""
    obj = "_".join(words.lower().split())
    held = _holders(obj, params, cols)
    sub = ((_props(cols, held[0][1]).get(obj) or {}).get("properties") or {}) if len(held) == 1 else {}
    fields = [f for f, s in sorted(sub.items()) if state in known_values(s or {})] or [
        f for f in sub if f in ("status", "state")
    ]
    if len(fields) != 1:
        return None
    check = {"op": "named_nested", "arg": held[0][0], "collection": held[0][1], "path": [obj, fields[0]]}
    return {**check, "in": [state], **({"not": True} if negated else {})}


def _clause(clause: str, params: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """The checks one condition of a row gives, or [] when it is not read."""
    if (said := SAID.match(clause)) and said.group(1).lower() not in ("a", "an"):
        noun, state = said.group(1).lower(), said.group(2)
        arg, col = f"{noun}_id", plural(noun)
        fields = [f for f, s in sorted(_props(cols, col).items()) if state in known_values(s)] if col in cols else []
        if arg not in params or len(fields) != 1:
            return []
        out = [{"op": "named_state", "arg": arg, "collection": col, "field": fields[0], "allowed": [state]}]
        rest = clause[said.end() :]
        if not rest.strip():
            return out
        other = _stored(m.group(1), m.group(2), params, cols, "none_stored") if (m := WITH_NO.match(rest)) else None
        return out + [other] if other else out
    if (m := PAID.match(clause.strip())) and len(held := _holders(m.group(1), params, cols)) == 1:
        return [
            {"op": "bound", "collection": held[0][1], "via": held[0][0], "field": m.group(1), "cmp": "<=", "value": 0}
        ]
    if (m := IN_PLACE.match(clause.strip())) and (
        found := _stored(m.group(1), m.group(2), params, cols, "some_stored")
    ):
        return [found]
    return []


__all__ = ["type_row_checks"]
