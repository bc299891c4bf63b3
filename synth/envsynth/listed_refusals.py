"""The refusals a create priced by a sibling quote lists ("The request is refused when: - the docket is not
`open`: ..."), read over the records the quote names and links, as yes/no nodes that refuse the call when they
hold (code_templates/_blocks.j2 `guards`). Each bullet's condition is one of:

- "the <noun> is not <value>": the record's field knowing the value holds another;
- "its <date field> is before today": the date is past the business date;
- "<field> is 0": a number of the one record holding it is 0;
- "<argument> is outside 1..<participle> <field>": the argument (as the quote reads it) is below the number or
  above the field of the record the participle names ("outside 1..booked berths");
- "the <thing> belongs to an <field words> on the <noun>'s <words> list": a value of one record is an entry of a
  list of another;
- "an <own noun> for the same <noun> is still <a> or <b>": a stored record of the created kind naming the same
  record is in one of those states (`open_record`, which reads the state);
- "the <noun> is <flag> and the last non-<state> <word> of this <noun> was less than N days ago": the record's
  yes/no field holds and a stored record of the created kind naming it, in another state, carries a `<word>...`
  date within N days of the business date (`recent_record`).
A list with a bullet none of these reads gives no refusals: a partial list would let the rest through silently.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _props
from synth.envsynth.quote_scope import participle_stem
from synth.spec import field_by_words, known_values, list_by_words
from synth.words import singular

BULLETS = re.compile(r"\brefused\s+when:\s*\n((?:\s*-\s+[^\n]+\n?)+)", re.I)
CONDITION = re.compile(r"^\s*-\s+(.+?)(?::\s*\"|:\s*$|$)")
NOT_STATE = re.compile(r"the\s+(\w+)\s+is\s+not\s+`?([\w-]+)`?", re.I)
PAST = re.compile(r"its\s+`?(\w+)`?\s+date\s+is\s+before\s+today", re.I)
ZERO = re.compile(r"`?(\w+)`?\s+is\s+0", re.I)
OUTSIDE = re.compile(r"`?(\w+)`?\s+is\s+outside\s+(\d+)\s*\.\.\s*([a-z]+ed)\s+`?(\w+)`?", re.I)
BELONGS = re.compile(
    r"the\s+[\w ]+?\s+belongs\s+to\s+an?\s+([\w ]+?)\s+on\s+the\s+\w+['\u2019]s\s+([\w ]+?)\s+list", re.I
)
OPEN = re.compile(r"an?\s+(\w+)\s+for\s+the\s+same\s+(\w+)\s+is\s+(?:still\s+)?`?([\w-]+)`?\s+or\s+`?([\w-]+)`?", re.I)
RECENT = re.compile(
    r"the\s+\w+\s+is\s+(\w+)\s+and\s+the\s+last\s+non-(\w+)\s+(\w+)\s+of\s+this\s+(\w+)\s+was\s+less\s+than\s+(\d+)"
    r"\s+days\s+ago",
    re.I,
)


def _params(quote: dict[str, Any]) -> dict[str, str]:
    """{parameter or link: collection} of every record the quote reads."""
    return {**dict(quote.get("named") or {}), **{k: v[2] for k, v in (quote.get("linked") or {}).items()}}


def _noun_param(noun: str, params: dict[str, str]) -> str | None:
    found = [p for p, c in params.items() if singular(c) == noun.lower() or p == f"{noun.lower()}_id"]
    return found[0] if len(found) == 1 else None


def _one_holder(field: str, params: dict[str, str], cols: dict[str, Any], kind: str | None = None) -> str | None:
    found = [
        p
        for p, c in params.items()
        if isinstance(_props(cols, c).get(field), dict)
        and (kind is None or kind in str(_props(cols, c)[field].get("type")))
    ]
    return found[0] if len(found) == 1 else None


def _condition(text: str, quote: dict[str, Any], cols: dict[str, Any], own: str, today: str | None, last: list) -> Any:
    params, steps = _params(quote), dict(quote.get("steps") or [])
    if m := NOT_STATE.fullmatch(text):
        p = _noun_param(m.group(1), params)
        fields = [f for f, s in _props(cols, params[p]).items() if m.group(2) in known_values(s)] if p else []
        last[:] = [p] if p else last
        return {"not": {"test": {"field": fields[0], "param": p}, "in": [m.group(2)]}} if len(fields) == 1 else None
    if (m := PAST.fullmatch(text)) and last and today and m.group(1) in _props(cols, params[last[0]]):
        return {"op": ">", "args": [{"days_since": m.group(1), "param": last[0], "today": today}, {"num": 0}]}
    if (m := ZERO.fullmatch(text)) and (p := _one_holder(m.group(1), params, cols)):
        return {"test": {"field": m.group(1), "param": p}, "in": [0]}
    if (m := OUTSIDE.fullmatch(text)) and m.group(1) in steps:
        stem = participle_stem(m.group(3))
        holders = [p for p, c in params.items() if singular(c).startswith(stem) and m.group(4) in _props(cols, c)]
        if len(holders) != 1:
            return None
        low = {"op": "<", "args": [steps[m.group(1)], {"num": int(m.group(2))}]}
        return {"any": [low, {"op": ">", "args": [steps[m.group(1)], {"field": m.group(4), "param": holders[0]}]}]}
    if m := BELONGS.fullmatch(text):
        one = [(p, f) for p, c in params.items() if (f := field_by_words(m.group(1), _props(cols, c)))]
        lists = [(p, f) for p, c in params.items() if (f := list_by_words(m.group(2), _props(cols, c)))]
        if len(one) != 1 or len(lists) != 1:
            return None
        return {"member": {"field": one[0][1], "param": one[0][0]}, "of": {"field": lists[0][1], "param": lists[0][0]}}
    return _stored(text, quote, cols, own, today)


def _stored(text: str, quote: dict[str, Any], cols: dict[str, Any], own: str, today: str | None) -> Any:
    """A condition on stored records of the created kind naming the same record as the call."""
    params, mine = _params(quote), _props(cols, own)
    if (m := OPEN.fullmatch(text)) and singular(own).endswith(singular(m.group(1).lower())):
        p = _noun_param(m.group(2), params)
        state = [f for f, s in mine.items() if {m.group(3), m.group(4)} <= set(known_values(s))]
        if p in (quote.get("named") or {}) and p in mine and len(state) == 1:
            return {"open_record": {"collection": own, "field": p, "state": state[0], "in": [m.group(3), m.group(4)]}}
    if (m := RECENT.fullmatch(text)) and today:
        p = _noun_param(m.group(4), params)
        flag = _one_holder(m.group(1).lower(), params, cols, "boolean")
        state = [f for f, s in mine.items() if m.group(2) in known_values(s)]
        dated = [f for f, s in mine.items() if f.startswith(m.group(3).lower()) and (s or {}).get("format") == "date"]
        if p in (quote.get("named") or {}) and p in mine and flag and len(state) == 1 and len(dated) == 1:
            recent = {"collection": own, "field": p, "state": state[0], "not_in": [m.group(2)], "date": dated[0]}
            recent.update(days=int(m.group(5)), today=today)
            return {"flag": {"field": m.group(1).lower(), "param": flag}, "recent_record": recent}
    return None


def listed_refusals(text: str, quote: dict[str, Any], cols: dict[str, Any], own: str, today: str | None) -> list:
    """[{"when": node} | {"open_record": ...} | {"flag", "recent_record"}] for the docs' list of refusals, or []
    when some bullet does not read."""
    m = BULLETS.search(text)
    if not m:
        return []
    out: list[Any] = []
    last: list[str] = []
    for line in [one for one in m.group(1).splitlines() if one.strip()]:
        said = CONDITION.match(line)
        found = _condition(said.group(1).strip().rstrip(".;"), quote, cols, own, today, last) if said else None
        if found is None:
            return []
        said_text = said.group(1).strip().rstrip(".;") if said else ""
        out.append(
            {**found, "said": said_text}
            if {"open_record", "recent_record"} & set(found)
            else {"when": found, "said": said_text}
        )
    return out


BETWEEN = re.compile(r"`?(\w+)`?\s+must\s+be\s+between\s+(\d+)\s+and\s+<\w+>\s+\(the\s+([a-z]+ed)\s+`?(\w+)`?\)", re.I)


def bound_refusals(text: str, quote: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """ "quantity must be between 1 and <n> (the booked quantity)": the argument, as the quote reads it, within 1
    and the field of the record the participle names."""
    out = []
    for m in BETWEEN.finditer(text):
        found = _condition(
            f"{m.group(1)} is outside {m.group(2)}..{m.group(3)} {m.group(4)}", quote, cols, "", None, []
        )
        out += [{"when": found, "said": m.group(0)}] if found else []
    return out


__all__ = ["bound_refusals", "listed_refusals"]
