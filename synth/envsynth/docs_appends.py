"""Elements a status transition appends, as the docs write them: "appends `{"status": "confirmed", "note":
<note or "">}` to the history".

The element is the JSON object after "appends" (between backticks or not); a placeholder `<name>` or a bare
name is the call's argument `name` (a bare name that is a field of the record and no parameter is the record's
value), and `<name or "x">` the argument with a default when the call leaves it out. The list is the record's array
field the words after "to" name. A placeholder that names no parameter, or text that is not JSON once the
placeholders are read, gives nothing.
"""

from __future__ import annotations

import json
import re
from typing import Any

from synth.envsynth.prose import unwrap
from synth.words import plural

APPEND = re.compile(
    r"\bappends?\s+(?:[^{}.;]{0,60}?\band\s+)?`?(\{[^`{}]{1,400}\})`?\s+to\s+(?:the\s+|its\s+|their\s+)?(?:\w+'s\s+)?"
    r"([A-Za-z_]+)",
    re.I,
)
ENTRY = re.compile(  # "a history entry {date: today, event: 'dropped'} is appended"
    r"\b(?:an?|one)\s+([A-Za-z_]+)\s+(?:entry|element|item|record)\s+`?(\{[^`{}]{1,400}\})`?\s+is\s+(?:appended|added)",
    re.I,
)
PASSIVE = re.compile(  # "`{"action": "paid"}` is appended to its history"
    r"`?(\{[^`{}]{1,400}\})`?\s+is\s+(?:appended|added)\s+to\s+(?:the\s+|its\s+|their\s+)?(?:\w+'s\s+)?([A-Za-z_]+)",
    re.I,
)
GETS = re.compile(r"\b([A-Za-z_]+)\s+gets\s+`?(\{[^`{}]{1,400}\})`?", re.I)  # "history gets {event: 'x'}"
BARE = re.compile(r"(:\s*)([A-Za-z_]\w*)(\s*[,}])")  # a bare name as a value: `"reason": reason`
PLACEHOLDER = re.compile(r"<\s*(\w+(?:\s\w+)?)(?:\s+or\s+(\"[^\"]*\"|'[^']*'|[\w.-]+))?\s*>")
MARK = "\x00arg\x00"


def _default(text: str) -> Any:
    if text[:1] == "'" and text[-1:] == "'":
        return text[1:-1]
    try:
        return json.loads(text)
    except ValueError:
        return text


KEY = re.compile(r"([{,]\s*)([A-Za-z_]\w*)(\s*:)")  # an unquoted key: `{event: 'filed'}`
SINGLE = re.compile(r"'([^'\\\"]*)'")


def element_rule(
    body: str,
    record_props: dict[str, Any],
    params: dict[str, Any],
    named: dict[str, Any] | None = None,
    today: str | None = None,
) -> dict[str, Any] | None:
    """{"fields": {name: source}} of an element the docs write as JSON, or in the looser form `{event: 'filed',
    detail: <peril>}` (unquoted keys, single quotes); None when it does not parse or names no parameter it uses.
    A placeholder of two words names the parameter they join (`<sailor id>`); `named` gives the sources of
    placeholders that are no parameter (the id of the element the call adds)."""
    sources: dict[str, dict[str, Any]] = {}

    def mark(m: re.Match[str]) -> str:
        name, default = m.group(1).replace(" ", "_"), m.group(2)
        token = f"{MARK}{len(sources)}"
        if name in (named or {}) and name not in params:
            sources[token] = dict((named or {})[name])
            return json.dumps(token)
        if name not in params and name in record_props and default is None:  # `<total>`: the record's own value
            sources[token] = {"from": "record", "path": [name]}
            return json.dumps(token)
        source: dict[str, Any] = {"from": "arg", "name": name}
        if default is not None:
            source["default"] = _default(default)
        sources[token] = source
        return json.dumps(token)

    def bare(m: re.Match[str]) -> str:
        name = m.group(2)
        if name in ("true", "false", "null"):
            return m.group(0)
        token = f"{MARK}{len(sources)}"
        if name == "today" and today and name not in params and name not in record_props:  # the business date
            sources[token] = {"from": "const", "value": today}
            return m.group(1) + json.dumps(token) + m.group(3)
        in_record = name in record_props and name not in params
        sources[token] = {"from": "record", "path": [name]} if in_record else {"from": "arg", "name": name}
        return m.group(1) + json.dumps(token) + m.group(3)

    text = PLACEHOLDER.sub(mark, body)
    text = SINGLE.sub(lambda m: json.dumps(m.group(1)), text)
    text = KEY.sub(lambda m: m.group(1) + json.dumps(m.group(2)) + m.group(3), text)
    try:
        element = json.loads(BARE.sub(bare, text))
    except ValueError:
        return None
    if not isinstance(element, dict) or any(s["from"] == "arg" and s["name"] not in params for s in sources.values()):
        return None
    return {
        "fields": {
            k: sources[v] if isinstance(v, str) and v in sources else {"from": "const", "value": v}
            for k, v in element.items()
        }
    }


def docs_appends(
    text: str,
    record_props: dict[str, Any],
    params: dict[str, Any],
    named: dict[str, Any] | None = None,
    today: str | None = None,
) -> list[dict[str, Any]]:
    """`append` effects (trace_learn's form) for every element the docs say the call appends to a list field
    ("appends {...} to the history", "{...} is appended to its history", "history gets {...}", "a history entry
    {...} is appended")."""
    out = []
    lists = {plural(f.lower()): f for f, s in record_props.items() if isinstance(s, dict) and s.get("type") == "array"}
    text = unwrap(text)
    found = APPEND.findall(text) + PASSIVE.findall(text)
    found += [(body, target) for target, body in GETS.findall(text) + ENTRY.findall(text)]
    for body, target in found:
        field = lists.get(plural(target.lower()))
        if field is None or any(e["field"] == field for e in out):
            continue
        rule = element_rule(body, record_props, params, named, today)
        if rule is not None:
            out.append({"op": "append", "field": field, "items": [_blank_text(rule, record_props[field], params)]})
    return out


def _blank_text(rule: dict[str, Any], list_schema: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    """The rule with '' for a parameter left out, where the entry's field holds text only (a history `note` from
    an optional `reason`): the entry keeps its type."""
    items = (list_schema.get("items") or {}).get("properties") or {}
    fields = dict(rule.get("fields") or {})
    for sub, src in fields.items():
        schema = items.get(sub) if isinstance(items.get(sub), dict) else {}
        if (
            src.get("from") == "arg"
            and "default" not in src
            and schema.get("type") == "string"
            and src["name"] in params
        ):
            fields[sub] = {**src, "default": ""}
    return {**rule, "fields": fields} if "fields" in rule else rule


def appended_params(effects: list[dict[str, Any]]) -> set[str]:
    """The parameters these append effects read."""
    return {
        src["name"]
        for e in effects
        if e.get("op") == "append"
        for rule in e.get("items", [])
        for src in (rule.get("fields") or {}).values()
        if src.get("from") == "arg"
    }


__all__ = ["appended_params", "docs_appends"]
