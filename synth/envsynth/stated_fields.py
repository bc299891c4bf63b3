"""Fields a change's docs spell out by name, beyond its state (docs_transition):

- "<field> records the <noun> (with its <other noun> when given)": the field takes the parameter the noun names,
  followed, when the call gives it, by the parameter the other noun names, written the way the sample records
  write two parts ("Harbor Lane Pharmacy (555-0300)": a space and brackets);
- "all of its <field> move to ... (the local count drops to 0)": a number of the record named in the sentence
  takes the number it "drops to" (falls to, is reset to, goes down to);
- a date the data shows set on every record in the new state and empty on every record in the states the call
  moves from (`approved_on`) takes the business date, though the docs do not name it; "`expires_on` is today plus
  180 days" takes that day;
- a parameter the call keeps goes to the one text field (`stamped_text`), or the number field sharing a word with it
  (`stamped_numbers`: `mileage_km` -> `mileage_in`), that the data shows the new state filling;
- a required parameter written into a field that references another collection must name such a record
  (`reference_args`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.words import singular

RECORDS = re.compile(
    r"`?\b(?P<field>\w+)`?\s+(?:records|holds|stores|keeps|takes)\s+the\s+(?P<noun>[a-z][a-z ]{0,30}?)"
    r"(?:\s*\(\s*(?:with|plus)\s+(?:its|their|the)\s+(?P<extra>[a-z][a-z ]{0,30}?)\s+(?:when|if)\s+"
    r"(?:given|provided|passed|supplied)\s*\))?(?=\s*[,.;)]|\s+and\b|\s*$)",
    re.I,
)
IS_PARAM = re.compile(r"`(\w+)`\s+is\s+(?:the\s+)?`?(\w+)`?(?=\s*[,.;)]|\s+and\b|\s*$)")
DROPS = re.compile(
    r"\b(?:drops?|falls?|goes\s+down|is\s+reset|resets?|is\s+zeroed)\s+to\s+(\d+(?:\.\d+)?)\b(?!\s*%)", re.I
)
TWO_PARTS = re.compile(r"^(.+?)(\s*[(\[]\s*|,\s+|\s+-\s+|\s*/\s*)([^()\[\]]+?)(\s*[)\]])?$")
SENTENCES = re.compile(r"(?<=[.!?])\s+(?=[A-Z])|\n")


def _words(name: str) -> list[str]:
    return [singular(w) for w in re.findall(r"[a-z]+", name.lower())]


def _param(noun: str, params: dict[str, Any], skip: set[str]) -> str | None:
    """The parameter whose name holds a word of the noun (its last word first; "phone number" -> `x_phone`), the
    one with the fewest other words."""
    for word in reversed(noun.lower().split()):
        named = sorted((len(_words(p)), p) for p in params if p not in skip and singular(word) in _words(p))
        if named and (len(named) == 1 or named[0][0] < named[1][0]):
            return named[0][1]
    return None


def read_args(node: Any) -> set[str]:
    """The parameters a source (or a list of effects) reads."""
    if isinstance(node, dict):
        own = {node["name"]} if node.get("from") == "arg" and isinstance(node.get("name"), str) else set()
        return own.union(*(read_args(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(read_args(v) for v in node))
    return set()


def _joined_form(field: str, records: list[dict[str, Any]]) -> tuple[str, str] | None:
    """(between, after) of the sample values written in two parts ("A (B)"), when they all agree."""
    forms = set()
    for record in records:
        value = record.get(field)
        m = TWO_PARTS.match(value) if isinstance(value, str) else None
        if m and (m.group(4) is not None) == ("(" in m.group(2) or "[" in m.group(2)):
            forms.add((m.group(2), m.group(4) or ""))
    return forms.pop() if len(forms) == 1 else None


def recorded_params(
    text: str, props: dict[str, Any], params: dict[str, Any], key_param: str | None, records: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """`set` effects of "<field> records the <noun> (with its <other noun> when given)" and of "`<field>` is the
    <parameter>"."""
    out = []
    for m in RECORDS.finditer(text):
        field = m.group("field")
        if field not in props or field in params or any(e["field"] == field for e in out):
            continue
        main = _param(m.group("noun"), params, {key_param or ""})
        if main is None:
            continue
        source: dict[str, Any] = {"from": "arg", "name": main}
        extra = _param(m.group("extra"), params, {key_param or "", main}) if m.group("extra") else None
        form = _joined_form(field, records) if extra else None
        if extra and form:
            arg = {"from": "arg", "name": extra}
            tail = {"from": "concat", "parts": [p for p in (form[0], arg, form[1]) if p != ""]}
            source = {"from": "concat", "parts": [source, {"from": "given", "test": arg, "then": tail, "else": ""}]}
        out.append({"op": "set", "field": field, "source": source})
    for m in IS_PARAM.finditer(text):  # "`reviewed_by` is the reviewer", the parameter by its own name
        field, param = m.group(1), m.group(2)
        if field in props and field not in params and param in params and param != key_param:
            if not any(e["field"] == field for e in out):
                out.append({"op": "set", "field": field, "source": {"from": "arg", "name": param}})
    return out


def dropped_counts(text: str, props: dict[str, Any]) -> list[dict[str, Any]]:
    """`set` effects of a number of the record the sentence names that "drops to" a number."""
    numbers = [f for f, s in props.items() if isinstance(s, dict) and s.get("type") in ("number", "integer")]
    out = []
    for sentence in SENTENCES.split(text):
        for m in DROPS.finditer(sentence):
            before = sentence[max(0, m.start() - 160) : m.start()]
            if re.search(r"\b(?:if|when|once|until|whenever|unless|before)\b[^,;()]*$", before, re.I):
                continue  # a condition ("if the balance falls to 0, ..."), not a change
            named = [(before.rfind(f), f) for f in numbers if re.search(rf"\b{re.escape(f)}\b", before)]
            if not named:
                continue
            field = max(named)[1]
            value = float(m.group(1)) if "." in m.group(1) else int(m.group(1))
            if not any(e["field"] == field for e in out):
                out.append({"op": "set", "field": field, "source": {"from": "const", "value": value}})
    return out


DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def stamped_dates(
    props: dict[str, Any],
    records: list[dict[str, Any]],
    sets: dict[str, Any],
    allowed: dict[str, list[Any]],
    today: str | None,
) -> list[dict[str, Any]]:
    """`set` effects stamping the business date on a date field the data shows set on every record in the state the
    call moves to and empty on every record in the states it moves from (`approved_on` of approved records)."""
    if not today or len(sets) != 1:
        return []
    ((state_field, target),) = sets.items()
    before = [r for r in records if r.get(state_field) in (allowed.get(state_field) or [])] or [
        r for r in records if not allowed.get(state_field) and r.get(state_field) != target
    ]  # the states it moves from, or every other state when the docs name none
    after = [r for r in records if r.get(state_field) == target]
    out = []
    for field in sorted(props):
        if field == state_field or not before or not after:
            continue
        if all(isinstance(r.get(field), str) and DAY.match(r[field]) for r in after) and all(
            r.get(field) in (None, "") for r in before
        ):
            out.append({"op": "set", "field": field, "source": {"from": "const", "value": today}})
    return out


def stamped_text(
    props: dict[str, Any],
    records: list[dict[str, Any]],
    sets: dict[str, Any],
    allowed: dict[str, list[Any]],
    taken: set,
) -> str | None:
    """The one text field (not a date) the data shows filled on every record in the state the call moves to and
    empty on every record in the states it moves from, which no other effect writes: where the call keeps what it
    was given (a `decision_note` of decided records), rather than a field of its own."""
    if len(sets) != 1:
        return None
    ((state_field, target),) = sets.items()
    before = [r for r in records if r.get(state_field) in (allowed.get(state_field) or [])] or [
        r for r in records if not allowed.get(state_field) and r.get(state_field) != target
    ]  # the states it moves from, or every other state when the docs name none
    after = [r for r in records if r.get(state_field) == target]
    if not before or not after:
        return None
    found = [
        f
        for f in sorted(props)
        if f != state_field
        and f not in taken
        and all(isinstance(r.get(f), str) and r[f] and not DAY.match(r[f]) for r in after)
        and all(r.get(f) in (None, "") for r in before)
    ]
    return found[0] if len(found) == 1 else None


def stamped_numbers(
    props: dict[str, Any],
    records: list[dict[str, Any]],
    sets: dict[str, Any],
    allowed: dict[str, list[Any]],
    params: dict[str, Any],
    taken: set,
) -> dict[str, str]:
    """{number parameter: field} where the one field sharing a word with the parameter (`mileage_km` ->
    `mileage_in`) is a number on every record in the state the call moves to and empty on every record in the
    states it moves from: the reading the call takes is kept there."""
    if len(sets) != 1:
        return {}
    ((state_field, target),) = sets.items()
    before = [r for r in records if r.get(state_field) in (allowed.get(state_field) or [])] or [
        r for r in records if not allowed.get(state_field) and r.get(state_field) != target
    ]
    after = [r for r in records if r.get(state_field) == target]
    if not before or not after:
        return {}
    filled = [
        f
        for f in sorted(props)
        if f not in taken
        and f not in params
        and all(isinstance(r.get(f), (int, float)) and not isinstance(r.get(f), bool) for r in after)
        and all(r.get(f) is None for r in before)
    ]
    out = {}
    for name, schema in sorted(params.items()):
        if (schema or {}).get("type") not in ("integer", "number"):
            continue
        words = {w for w in _words(name) if len(w) > 2}
        found = [f for f in filled if words & set(_words(f))]
        if len(found) == 1 and found[0] not in out.values():
            out[name] = found[0]
    return out


def later_dates(text: str, props: dict[str, Any], today: str | None, taken: set) -> list[dict[str, Any]]:
    """`set` effects of the date fields the docs put a fixed number of days after the business date ("`expires_on`
    is today plus 180 days"): a constant, as the business date is one."""
    from datetime import date, timedelta

    from synth.envsynth.lasting_dates import days_later

    out = []
    for field in sorted(props):
        later = days_later(text, field, props, {}, today) if field not in taken else None
        if later is not None and "days" in later and today:
            day = (date.fromisoformat(today) + timedelta(days=later["days"])).isoformat()
            out.append({"op": "set", "field": field, "source": {"from": "const", "value": day}})
    return out


FLAG_SET = re.compile(
    r"`?\b(?P<field>[a-z]\w*)`?\s+(?:becomes|is\s+set\s+to|turns)\s+`?(?P<value>true|false)\b`?", re.I
)
CONDITIONAL = re.compile(
    r"^\s*(?:[-*]\s|if\b|when(?:ever)?\b|unless\b|once\b|where\b|after\b)|\b(?:if|unless|otherwise|except|whenever)\b",
    re.I,
)
RELATIVE = re.compile(r"\b(?:whose|which|that|once|after|until)\s+`?\w+`?\s+(?:becomes|is\s+set\s+to|turns)\s", re.I)
CLAUSES = re.compile(r"(?<=[.!?;])\s+|\n")


def flag_sets(text: str, props: dict[str, Any], taken: set) -> list[dict[str, Any]]:
    """`set` effects of the record's yes/no fields a change's docs say it turns on or off ("`fuel_drawn` becomes
    true"), in sentences that set them whatever the record holds (no condition, not a bullet of one state)."""
    out: list[dict[str, Any]] = []
    for sentence in CLAUSES.split(text):
        if CONDITIONAL.search(sentence):
            continue
        for m in FLAG_SET.finditer(sentence):
            if RELATIVE.search(sentence[max(0, m.start() - 12) : m.end() + 1]):
                continue  # "a charter whose `fuel_drawn` becomes true cannot ...": a rule, not this call's change
            field = m.group("field")
            if (props.get(field) or {}).get("type") != "boolean" or field in taken:
                continue
            if any(e["field"] == field for e in out):
                continue
            value = m.group("value").lower() == "true"
            out.append({"op": "set", "field": field, "source": {"from": "const", "value": value}})
    return out


def reference_args(
    props: dict[str, Any], spec_params: dict[str, Any], state_schema: dict[str, Any], effects: list[dict[str, Any]]
) -> dict[str, str]:
    """{parameter: collection} for the required parameters a change writes into a field that references another
    collection's records (`hub_id` -> hubs): a value naming no such record is refused, not stored."""
    params = set(spec_params.get("required") or []) & set(spec_params.get("properties") or {})
    cols = state_schema.get("properties") or {}
    written = {
        e["source"]["name"]: e.get("field")
        for e in effects
        if e.get("op") == "set" and (e.get("source") or {}).get("from") == "arg"
    }
    out = {}
    for name, field in sorted(written.items()):
        other = (props.get(field) or {}).get("x-references") if isinstance(props.get(field), dict) else None
        if name in params and other in cols:
            out[name] = other
    return out


__all__ = [
    "dropped_counts",
    "flag_sets",
    "later_dates",
    "read_args",
    "recorded_params",
    "reference_args",
    "stamped_dates",
    "stamped_numbers",
    "stamped_text",
]
