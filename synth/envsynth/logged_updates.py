"""A keyed write that logs what the call gives and keeps the record's latest figures in step, with no status
change: 'On success `{"date": <today>, "depth": <depth>, "by": <by>}` is appended to `soundings`, and
`last_depth` / `last_sounded_on` are updated.'

- The entry is one the docs spell out (docs_appends) holding at least one argument; that makes the call a recorded
  change even when it moves no status and no counter (policy_rules.docs_transition).
- "`a` / `b` are updated" (or "`a` and `b` are updated", "`a` is updated", not "updated to ...") sets each named
  field of the record from the entry: the entry value whose argument or entry field is named by the field's words
  (`last_depth` <- the `depth` argument), else the one value of the field's kind (a date field takes the entry's
  business date, a number field its one number).
- Its rules: "the <depth> cannot be lower than the buoy's `last_depth`" (or higher, less, more, below, above) holds
  the argument to the record's number (`arg_limit`), and "refused if `last_sounded_on` is already today" keeps a
  second call on the same business date out (`differs`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.spec import schema_types
from synth.words import singular

UPDATED = re.compile(
    r"(?P<names>`\w+`(?:\s*(?:/|,|\band\b|\bor\b)\s*`\w+`)*)\s+(?:is|are)\s+(?:also\s+|then\s+)?updated\b(?!\s+to\b)",
    re.I,
)
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
LATEST = {"last", "latest", "current", "new", "most", "recent"}  # words a kept figure's name adds to its source's


def arg_entries(written: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The spelt-out appends that hold at least one of the call's arguments."""
    return [
        e
        for e in written
        if any(
            isinstance(s, dict) and s.get("from") == "arg"
            for rule in e.get("items") or []
            for s in (rule.get("fields") or {}).values()
        )
    ]


def _words(name: str) -> set[str]:
    return {singular(w) for w in name.lower().split("_") if w}


def _is_date(schema: dict[str, Any]) -> bool:
    samples = [v for v in (schema.get("x-enum") or schema.get("examples") or []) if isinstance(v, str)]
    return schema.get("format") == "date" or (bool(samples) and all(DATE.match(v) for v in samples))


def _sources(written: list[dict[str, Any]], params: dict[str, Any]) -> list[tuple[str, dict[str, Any], str]]:
    """(entry field, its source, its kind: 'date', 'number' or '') for every field of the entries written."""
    out = []
    for effect in written:
        for rule in effect.get("items") or []:
            for sub, source in sorted((rule.get("fields") or {}).items()):
                kind = ""
                if source.get("from") == "const" and isinstance(source.get("value"), str):
                    kind = "date" if DATE.match(source["value"]) else ""
                elif source.get("from") == "arg":
                    types = set(schema_types(params.get(source.get("name")) or {}))
                    kind = "number" if types & {"number", "integer"} else ""
                out.append((sub, source, kind))
    return out


def _source_for(field: str, schema: dict[str, Any], sources: list[tuple[str, dict[str, Any], str]]) -> Any:
    """The entry value the record's field keeps, or None when none or several fit."""
    wanted = _words(field) - LATEST
    named = [
        s
        for sub, s, _ in sources
        if wanted and (_words(sub) <= wanted or (s.get("from") == "arg" and _words(s["name"]) <= wanted))
    ]
    if len({repr(s) for s in named}) == 1:
        return named[0]
    kind = "date" if _is_date(schema) else "number" if set(schema_types(schema)) & {"number", "integer"} else ""
    typed = [s for _, s, k in sources if kind and k == kind]
    return typed[0] if len({repr(s) for s in typed}) == 1 else None


def updated_fields(
    text: str, props: dict[str, Any], written: list[dict[str, Any]], params: dict[str, Any]
) -> list[dict[str, Any]]:
    """`set` effects for the record's fields the text says "are updated" alongside the entries written."""
    sources = _sources(written, params)
    out: list[dict[str, Any]] = []
    for m in UPDATED.finditer(text):
        for field in re.findall(r"`(\w+)`", m.group("names")):
            schema = props.get(field)
            if not isinstance(schema, dict) or "array" in schema_types(schema):
                continue
            source = _source_for(field, schema, sources)
            if source is not None and not any(e["field"] == field for e in out):
                out.append({"op": "set", "field": field, "source": dict(source)})
    return out


LOWER = re.compile(
    r"\bthe\s+`?(?P<arg>\w+)`?\s+(?:cannot|can\s*not|may\s+not|must\s+not)\s+be\s+"
    r"(?P<way>lower|less|smaller|below|higher|greater|more|above)\s+(?:than\s+)?the\s+(?P<noun>[\w-]+?)['\u2019]s\s+`(?P<field>\w+)`",
    re.I,
)
ALREADY = re.compile(r"`(?P<field>\w+)`\s+is\s+already\s+(?:today|the\s+business\s+date)\b", re.I)


def logged_checks(
    text: str, props: dict[str, Any], params: dict[str, Any], noun: str, today: str | None
) -> list[dict[str, Any]]:
    """The checks the rules put on the argument against the record's number and on a second call the same day."""
    out: list[dict[str, Any]] = []
    own = singular(noun.lower())
    for m in LOWER.finditer(text):
        said = singular(m.group("noun").lower().replace("-", ""))
        arg, field = m.group("arg"), m.group("field")
        numbers = {"number", "integer"}
        if said not in (own, own.split("_")[-1]) or not set(schema_types(params.get(arg) or {})) & numbers:
            continue
        if not set(schema_types(props.get(field) or {})) & numbers:
            continue
        low = m.group("way").lower() in ("lower", "less", "smaller", "below")
        limit = {"plus": [{"path": [field]}]}
        out.append({"op": "arg_limit", "arg": arg, "cmp": ">=" if low else "<=", "expr": limit})
    for m in ALREADY.finditer(text):
        if today and "string" in schema_types(props.get(m.group("field")) or {}):
            b = {"from": "const", "value": today}
            out.append({"op": "differs", "a": {"from": "record", "path": [m.group("field")]}, "b": b})
    return out


__all__ = ["arg_entries", "logged_checks", "updated_fields"]
