"""Elements a status transition appends, as the docs write them: "appends `{"stage": "fitted", "remark":
<remark or "">}` to the log".

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

from synth.envsynth.figure_terms import param_default
from synth.envsynth.prose import unwrap
from synth.words import entry_words, plural

APPEND = re.compile(
    r"\bappends?\s+(?:[^{}.;]{0,60}?\band\s+)?`?(\{[^`{}]{1,400}\})`?\s+to\s+(?:the\s+|its\s+|their\s+)?(?:\w+'s\s+)?"
    r"([A-Za-z_]+)",
    re.I,
)
ENTRY = re.compile(  # "a log entry {on: today, stage: 'torn'} is appended"
    r"\b(?:an?|one)\s+([A-Za-z_]+)\s+(?:entry|element|item|record)\s+`?(\{[^`{}]{1,400}\})`?\s+is\s+(?:appended|added)",
    re.I,
)
PASSIVE = re.compile(  # "`{"event": "enrolled"}` is appended to its journal", "a `{...}` entry is appended to `log`"
    r"`?(\{[^`{}]{1,400}\})`?\s+(?:(?:entry|element|item|record)\s+)?is\s+(?:appended|added)\s+to\s+(?:the\s+|its\s+|their\s+)?(?:\w+'s\s+)?`?([A-Za-z_]+)",
    re.I,
)
NAMED_ENTRY = re.compile(  # "appends a log entry {on: today, stage: 'returned'}"
    r"\bappends?\s+(?:[^{}.;]{0,60}?\band\s+)?(?:an?|one)\s+([A-Za-z_]+)\s+(?:entry|element|item|record)\s+"
    r"`?(\{[^`{}]{1,400}\})(?!`?\s+to\b)`?",
    re.I,
)
GETS = re.compile(r"\b([A-Za-z_]+)\s+gets\s+`?(\{[^`{}]{1,400}\})`?", re.I)  # "log gets {stage: 'x'}"
WITH_ENTRY = re.compile(  # "its status becomes 'parked' with a history entry {date, status: 'parked'}"
    r"\bwith\s+(?:an?|one)\s+(?:new\s+)?([A-Za-z_]+)\s+(?:entry|element|item|record|note)\s+`?(\{[^`{}]{1,400}\})`?",
    re.I,
)
RECORDS_ENTRY = re.compile(  # "The job records the hours, status 'done', and a log entry {date, status: 'done'}"
    r"\brecords?\b[^.{}]{0,300}?\band\s+(?:an?|one)\s+(?:new\s+)?([A-Za-z_]+)\s+(?:entry|element|item|record|note)\s+"
    r"`?(\{[^`{}]{1,400}\})`?",
    re.I,
)
BARE = re.compile(r"(:\s*)([A-Za-z_]\w*)(\s*[,}])")  # a bare name as a value: `"reason": reason`
PLACEHOLDER = re.compile(  # `<remark>`, `<remark or "">`, `<toll to 1 decimals>`, `<toll at 3 decimals, like '0.125'>`
    r"<\s*(\w+(?:\s\w+)?)(?:\s+(?:with|to|in|at)\s+(\d)\s+decimals?(?:,[^<>]*)?)?"
    r"(?:\s+or\s+(\"[^\"]*\"|'[^']*'|[\w.-]+))?\s*>"
)
MARK = "\x00arg\x00"


def _default(text: str) -> Any:
    if text[:1] == "'" and text[-1:] == "'":
        return text[1:-1]
    try:
        return json.loads(text)
    except ValueError:
        return text


# a quoted value that holds a placeholder; a quote inside a placeholder (`like '0.125'`) does not end it
QUOTED_WITH_PLACEHOLDER = re.compile(
    r"""([:\[]\s*|,\s*)(['"])((?:(?!\2)[^<>{}]|<[^<>]*>)*<[^<>]*>(?:(?!\2)[^<>{}]|<[^<>]*>)*)\2"""
)


def is_number(schema: Any) -> bool:
    """Whether a field schema holds numbers (`"number"`, `["number", "null"]`, integers too)."""
    kinds = schema.get("type") if isinstance(schema, dict) else None
    kinds = kinds if isinstance(kinds, list) else [kinds]
    return any(k in ("number", "integer") for k in kinds)


def number_fields(props: dict[str, Any]) -> list[str]:
    """The record's number fields, sorted."""
    return sorted(f for f, s in props.items() if is_number(s))


def _record_field(name: str, record_props: dict[str, Any]) -> str | None:
    """The record field a placeholder names: its own name, else the one number field whose last word it is
    (`<fee>` for `berth_fee`)."""
    if name in record_props:
        return name
    ends = [f for f, s in record_props.items() if is_number(s) and f.split("_")[-1] == name]
    return ends[0] if len(ends) == 1 else None


def _dated(name: str) -> bool:
    """A name that holds a day: `date`, `<word>_date`, `<word>_on`."""
    return name == "date" or name.endswith(("_date", "_on"))


def _arguments(sources: list[Any]) -> set[str]:
    """The argument names these sources read (inside fixed numbers and texts too)."""
    out: set[str] = set()
    for source in sources:
        if not isinstance(source, dict):
            continue
        if source.get("from") == "arg":
            out.add(source["name"])
        out |= _arguments([source.get("of")] + list(source.get("parts") or []))
    return out


KEY = re.compile(r"([{,]\s*)([A-Za-z_]\w*)(\s*:)")  # an unquoted key: `{stage: 'torn'}`
THE_NAME = re.compile(r"(:\s*)the\s+([A-Za-z_]\w*)(\s*[,}])")  # `{note: the reason}`
LONE_KEY = re.compile(r"([{,]\s*)([A-Za-z_]\w*)(\s*)(?=[,}])")  # a key with no value: `{date, stage: 'torn'}`
SINGLE = re.compile(r"'([^'\\\"]*)'")


def element_rule(
    body: str,
    record_props: dict[str, Any],
    params: dict[str, Any],
    named: dict[str, Any] | None = None,
    today: str | None = None,
) -> dict[str, Any] | None:
    """{"fields": {name: source}} of an element the docs write as JSON, or in the looser form `{stage: 'torn',
    remark: <damage>}` (unquoted keys, single quotes); None when it does not parse or names no parameter it uses.
    A placeholder of two words names the parameter they join (`<sailor id>`); `named` gives the sources of
    placeholders that are no parameter (the id of the element the call adds). A key written alone (`{date, stage:
    'torn'}`) holds the value of that name: the parameter, the record's field, or for a day the business date."""
    sources: dict[str, dict[str, Any]] = {}

    def source_of(m: re.Match[str]) -> dict[str, Any]:
        name, decimals, default = m.group(1).replace(" ", "_"), m.group(2), m.group(3)
        fresh = re.match(r"(?:new|updated|resulting)_(\w+)$", name)  # `<new total>`: the record's, once changed
        if fresh and name not in params and _record_field(fresh.group(1), record_props):
            name = fresh.group(1)
        if name in (named or {}) and name not in params:
            source = dict((named or {})[name])
        elif name == "today" and today and name not in params and name not in record_props:  # `<today>`
            source = {"from": "const", "value": today}
        elif name not in params and default is None and _record_field(name, record_props):  # `<total>`: its own
            source = {"from": "record", "path": [_record_field(name, record_props)]}
        else:
            source = {"from": "arg", "name": name}
            if default is not None:
                source["default"] = _default(default)
            elif name in params and param_default(params[name] or {}) is not None:  # "`harbour` (default)"
                source["default"] = param_default(params[name] or {})
        return {"from": "fixed", "of": source, "decimals": int(decimals)} if decimals else source

    def mark(m: re.Match[str]) -> str:
        token = f"{MARK}{len(sources)}"
        sources[token] = source_of(m)
        return json.dumps(token)

    def spliced(m: re.Match[str]) -> str:  # a quoted value with placeholders in it: `note: '<pier>, <fee>'`
        inner, parts, cursor = m.group(3), [], 0
        for found in PLACEHOLDER.finditer(inner):
            parts += [inner[cursor : found.start()], source_of(found)] if found.start() > cursor else [source_of(found)]
            cursor = found.end()
        parts += [inner[cursor:]] if cursor < len(inner) else []
        token = f"{MARK}{len(sources)}"
        sources[token] = {"from": "concat", "parts": parts}
        return m.group(1) + json.dumps(token)

    def bare(m: re.Match[str]) -> str:
        name = m.group(2)
        if name in ("true", "false", "null"):
            return m.group(0)
        token = f"{MARK}{len(sources)}"
        if name == "today" and today and name not in params and name not in record_props:  # the business date
            sources[token] = {"from": "const", "value": today}
            return m.group(1) + json.dumps(token) + m.group(3)
        field = _record_field(name, record_props) if name not in params else None
        if field is None and name not in params and today and _dated(name):  # `{date, ...}`: the business date
            sources[token] = {"from": "const", "value": today}
            return m.group(1) + json.dumps(token) + m.group(3)
        sources[token] = {"from": "record", "path": [field]} if field else {"from": "arg", "name": name}
        if not field and name in params and param_default(params[name] or {}) is not None:  # "`harbour` (default)"
            sources[token]["default"] = param_default(params[name] or {})
        return m.group(1) + json.dumps(token) + m.group(3)

    body = THE_NAME.sub(  # `note: the reason`: the parameter (or the record's field) of that name
        lambda m: (
            m.group(1) + m.group(2) + m.group(3) if m.group(2) in params or m.group(2) in record_props else m.group(0)
        ),
        body,
    )
    if KEY.search(body):  # `{date, stage: 'torn'}`: a key written alone holds the value of that name
        body = LONE_KEY.sub(lambda m: f"{m.group(1)}{m.group(2)}: {m.group(2)}{m.group(3)}", body)
    text = QUOTED_WITH_PLACEHOLDER.sub(spliced, body)
    text = PLACEHOLDER.sub(mark, text)
    text = SINGLE.sub(lambda m: json.dumps(m.group(1)), text)
    text = KEY.sub(lambda m: m.group(1) + json.dumps(m.group(2)) + m.group(3), text)
    try:
        element = json.loads(BARE.sub(bare, text))
    except ValueError:
        return None
    if not isinstance(element, dict) or any(name not in params for name in _arguments(list(sources.values()))):
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
    ("appends {...} to the log", "{...} is appended to its log", "log gets {...}", "a log entry {...} is
    appended", "appends a log entry {...}")."""
    out = []
    lists = {plural(f.lower()): f for f, s in record_props.items() if isinstance(s, dict) and s.get("type") == "array"}
    text = unwrap(text)
    found = APPEND.findall(text) + PASSIVE.findall(text)
    found += [(body, target) for target, body in GETS.findall(text) + ENTRY.findall(text) + NAMED_ENTRY.findall(text)]
    found += [(body, target) for target, body in WITH_ENTRY.findall(text) + RECORDS_ENTRY.findall(text)]
    found += [(body, target) for target, body in noted_entries(text, record_props)]
    for body, target in found:
        field = lists.get(plural(target.lower()))
        if field is None or any(e["field"] == field for e in out):
            continue
        if SHORTHAND.match(body):  # `{date, status, note}`: each name its value
            body = _spelt_out(body, lambda n: n)
        rule = element_rule(body, record_props, params, named, today)
        if rule is not None:
            rule = _given_keys(text, body, rule, record_props[field], params)  # "(with `"note"` when one is given)"
            out.append({"op": "append", "field": field, "items": [_blank_text(rule, record_props[field], params)]})
    return out


GIVEN_KEY = re.compile(r"\(\s*with\s+`?\"?(\w+)\"?`?\s+(?:when|if)\s+(?:one\s+is\s+|it\s+is\s+)?given\s*\)", re.I)


def _given_keys(
    text: str, body: str, rule: dict[str, Any], list_schema: dict[str, Any], params: dict[str, Any]
) -> dict[str, Any]:
    """The rule with a key the docs add after the written entry only when its argument is given ("appends `{...}`
    to the history (with `"note"` when one is given)"): an optional argument of that name that the entries hold."""
    at = text.find(body)
    aside = GIVEN_KEY.search(text[at + len(body) : at + len(body) + 120]) if at >= 0 else None
    items = (list_schema.get("items") or {}).get("properties") or {}
    name = aside.group(1) if aside else ""
    if not name or name not in params or name not in items or name in (rule.get("fields") or {}):
        return rule
    return {**rule, "fields": {**rule["fields"], name: {"from": "arg", "name": name, "optional": True}}}


NOTED = re.compile(  # "status becomes 'held' with a history note 'held at <desk_id>'"
    r"`?(?P<state>\w+)`?\s+(?:becomes|is\s+set\s+to)\s+[`'\"](?P<value>[\w-]+)[`'\"]\s+with\s+(?:an?\s+|the\s+|its\s+)?"
    r"`?(?P<list>\w+)`?\s+(?P<words>(?:\w+\s+){0,2}?)[`'\"](?P<text>[^`'\"\n]{1,160})[`'\"]",
    re.I,
)


NEW_VALUE = re.compile(r"\s*\((\w+)\s*=\s*the\s+new\s+`?(\w+)`?\)")


def noted_entries(text: str, record_props: dict[str, Any]) -> list[tuple[str, str]]:
    """(list, element body) of an entry a state change writes with a text ("status becomes 'held' with a history
    note 'held at <desk_id>'"): the entry field that knows the value (or is named like the state) takes it, the
    list's one free text field (or the one the words name) the text, a day field the business date."""
    out = []
    for m in NOTED.finditer(text):
        schema = record_props.get(m.group("list"))
        items = (schema.get("items") or {}) if isinstance(schema, dict) and schema.get("type") == "array" else {}
        props = items.get("properties") or {} if isinstance(items, dict) else {}
        known = {
            f
            for f, s in props.items()
            if isinstance(s, dict) and m.group("value") in (s.get("enum") or s.get("x-enum") or [])
        }
        holders = sorted(known or ({m.group("state")} & set(props)))
        days = [f for f, s in props.items() if _dated(f) or (isinstance(s, dict) and s.get("format") == "date")]
        free = [
            f
            for f, s in props.items()
            if isinstance(s, dict)
            and s.get("type") == "string"
            and f not in holders
            and f not in days
            and not (s.get("enum") or s.get("x-enum"))
        ]
        said = [f for f in free if f in m.group("words").split()]
        texts = said or free
        if len(holders) != 1 or len(texts) != 1 or len(days) > 1:
            continue
        said_text = m.group("text")
        defined = NEW_VALUE.match(text, m.end())  # "'try <n> failed' (n = the new `tries`)": that field (after_values)
        if defined and f"<{defined.group(1)}>" in said_text and defined.group(2) in record_props:
            said_text = said_text.replace(f"<{defined.group(1)}>", f"<{defined.group(2)}>")
        parts = {holders[0]: f"'{m.group('value')}'", texts[0]: f"'{said_text}'", **{d: "today" for d in days}}
        if any(f not in parts for f in items.get("required") or []):
            continue
        out.append((m.group("list"), "{" + ", ".join(f"{k}: {v}" for k, v in parts.items()) + "}"))
    return out


ALTERNATIVES = re.compile(r"'([^'{}]*)'(?:\s+or\s+'([^'{}]*)')+")  # `'afloat' or 'ashore'`
WHERE = r"\bwhere\s+`?{name}`?\s+is\s+('[^']*'|\"[^\"]*\")"  # "where remark is 'none'"


def first_entry(text: str, field: str, chosen: list[Any]) -> str | None:
    """The element a new record's list starts with, as the docs write it (one `<field>` entry `{...}`, or "the
    `<field>` starts with `{...}`"): of
    alternatives (`'afloat' or 'ashore'`), the one the call sets elsewhere (`chosen`: values the new record takes),
    else the first; a bare name that a later "where <name> is '...'" gives a value takes that value. None when the
    docs write no such entry."""
    spoken = rf"(?:{re.escape(field)}|{re.escape(field.replace('_', ' '))}|{re.escape(entry_words(field))})"
    found = re.search(rf"\b(?:a|an|one)\s+(?:first\s+)?{spoken}\s+entry\s+`?(\{{[^`{{}}]{{1,300}}\}})`?", text, re.I)
    found = found or re.search(  # "the log starts with `{...}`"
        rf"\b{spoken}\s+(?:starts|opens|begins)\s+with\s+`?(\{{[^`{{}}]{{1,300}}\}})`?", text, re.I
    )
    if found is None:
        return None

    def pick(m: re.Match[str]) -> str:
        options = re.findall(r"'([^'{}]*)'", m.group(0))
        return "'" + next((o for o in options if o in [str(c) for c in chosen]), options[0]) + "'"

    body = ALTERNATIVES.sub(pick, found.group(1))
    for name in re.findall(r"[{,]\s*([A-Za-z_]\w*)\s*(?=[,}])", body):  # a bare name: `{day, remark}`
        given = re.search(WHERE.format(name=re.escape(name)), text[found.end() :], re.I)
        if given:
            body = re.sub(rf"([{{,]\s*){re.escape(name)}(\s*[,}}])", rf"\g<1>{name}: {given.group(1)}\g<2>", body)
    return body


def worded_entry(text: str, field: str, list_schema: Any, params: dict[str, Any], today: str | None) -> str | None:
    """The element a new record's list starts with when the docs name it by a value ("a first log entry `moored`
    carrying the remark", "its log begins with a `moored` entry that records the remark"), written out as
    first_entry's form: the value goes to the one entry field that holds such values (its enum or the data's), each
    parameter it carries to the entry field of that name, today to a date field; None when a required entry field
    is left without a value."""
    said = rf"(?:{re.escape(field)}|{re.escape(field.replace('_', ' '))}|{re.escape(entry_words(field))})"
    plain = unwrap(text)
    found = re.search(rf"\b(?:a|an|one)\s+(?:first\s+)?{said}\s+entry\s+`([\w-]+)`", plain, re.I)
    found = found or re.search(  # "its log begins with a `moored` entry"
        rf"\b{said}\s+(?:starts|opens|begins)\s+with\s+(?:a|an|one)\s+`([\w-]+)`\s+entry\b", plain, re.I
    )
    items = list_schema.get("items") if isinstance(list_schema, dict) else None
    props = (items or {}).get("properties") if isinstance(items, dict) else None
    if found is None or not isinstance(props, dict):
        return None
    value = found.group(1)
    carried = _carried_clauses(plain[found.end() :])
    if carried is None:
        return None
    holders = [f for f, s in props.items() if isinstance(s, dict) and value in (s.get("enum") or s.get("x-enum") or [])]
    if len(holders) != 1:
        return None
    parts = {holders[0]: f"'{value}'"}
    for name in carried:
        param = "_".join(name.split())
        if param not in params or param not in props:
            return None
        default = param_default(params[param]) if isinstance(params[param], dict) else None
        parts[param] = f"<{param}>" if default is None else f"<{param} or {json.dumps(default)}>"
    for f, schema in props.items():
        if f not in parts and isinstance(schema, dict) and schema.get("format") == "date" and today:
            parts[f] = "today"
    if any(f not in parts for f in (items or {}).get("required") or []):
        return None
    return "{" + ", ".join(f"{k}: {v}" for k, v in parts.items()) + "}"


CARRY = r"(?:carrying|with|holding|(?:that|which)\s+(?:carries|holds|keeps|records))"
CARRY_WORD = re.compile(rf"^\s*,?\s*(?:and\s+)?{CARRY}\s+(?:the\s+)?", re.I)


def _carried_clauses(rest: str) -> list[str] | None:
    """The names after an entry's value ("carrying the remark, with the crew", "that records the remark"), read
    clause by clause; None when the clauses do not end the sentence or clause there. Plain string work, so no
    pattern can backtrack over a long sentence."""
    names: list[str] = []
    while True:
        lead = CARRY_WORD.match(rest)
        if lead is None:
            return names if re.match(r"\s*(?:[.;,)]|$)", rest) else None
        rest = rest[lead.end() :]
        words = re.match(r"[\w ]*", rest).group(0)
        stop = re.search(rf"\s+(?:and\s+)?{CARRY}\b", words)
        name = (words[: stop.start()] if stop else words).strip()
        if not name:
            return None
        names.append(name)
        rest = rest[len(words[: stop.start()]) if stop else len(words) :]


OBJECT_SET = re.compile(  # "`berth` = {pier, fee}", "mooring is set to {pier: <pier_id>, since: today}"
    r"`?\b([A-Za-z_]\w*)`?\s*(?:=|is\s+set\s+to|becomes)\s*`?(\{[^`{}]{1,300}\})`?", re.I
)
SHORTHAND = re.compile(r"^\{\s*[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*\s*\}$")  # `{pier, fee}`: each name its value


def _spelt_out(body: str, value: Any) -> str:
    """A `{a, b}` written out as `{a: <value(a)>, b: <value(b)>}`."""
    return "{" + ", ".join(f"{n}: {value(n)}" for n in (n.strip() for n in body.strip("{} ").split(","))) + "}"


def _shorthand_value(
    name: str, record_props: dict[str, Any], params: dict[str, Any], text: str, named: dict[str, Any]
) -> str:
    """How a key written alone in "`f` = {method, amount, date}" is read: the parameter or record field of its name
    (or a day), else the one parameter whose name ends in it (`payment_method`), the record's value before the call
    (`previous_status`), or the record number the docs define it as ("the amount charged is its fees.total");
    `named` takes the sources of the placeholders this writes."""
    if name in params or _record_field(name, record_props) or _dated(name):
        return name
    ends = [p for p in sorted(params) if p.endswith("_" + name)]
    if len(ends) == 1:
        return f"<{ends[0]}>"
    from synth.envsynth.named_paths import named_path

    earlier = re.fullmatch(r"(?:previous|old|former)_(\w+)", name)
    path = [earlier.group(1)] if earlier and earlier.group(1) in record_props else None
    defined = None if path else named_path(name, record_props, text, trailing=True)
    if path or defined:
        named[name] = {"from": "record", "path": path or defined, **({"before": True} if path else {})}
        return f"<{name}>"
    return name


def object_sets(
    text: str, record_props: dict[str, Any], params: dict[str, Any], today: str | None = None
) -> list[dict[str, Any]]:
    """`set` effects of an object field the docs write out ("`berth` = {pier, fee}": each name is the parameter,
    else the record's field, it names)."""
    out = []
    for field, body in OBJECT_SET.findall(unwrap(text)):
        kinds = (record_props.get(field) or {}).get("type") if isinstance(record_props.get(field), dict) else None
        if "object" not in (kinds if isinstance(kinds, list) else [kinds]) or any(e["field"] == field for e in out):
            continue
        named: dict[str, Any] = {}
        if SHORTHAND.match(body):
            body = _spelt_out(body, lambda n: _shorthand_value(n, record_props, params, text, named))
        rule = element_rule(body, record_props, params, named=named, today=today)
        if rule is not None:
            out.append({"op": "set", "field": field, "source": {"from": "object", "fields": rule["fields"]}})
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


def _args_read(source: Any) -> set[str]:
    """The parameters a source reads, inside texts, numbers with fixed decimals and the like too."""
    if isinstance(source, list):
        return {name for part in source for name in _args_read(part)}
    if not isinstance(source, dict):
        return set()
    own = {source["name"]} if source.get("from") == "arg" and isinstance(source.get("name"), str) else set()
    return own | {name for value in source.values() for name in _args_read(value)}


def appended_params(effects: list[dict[str, Any]]) -> set[str]:
    """The parameters these append effects read (in a logged text's parts too)."""
    return {
        name
        for e in effects
        if e.get("op") == "append"
        for rule in e.get("items", [])
        for src in (rule.get("fields") or {}).values()
        for name in _args_read(src)
    }


__all__ = ["appended_params", "docs_appends"]
