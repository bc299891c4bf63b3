"""A create's refusals listed as bullets ("The booking is refused when:" then "- ..." lines) or as the clauses of
one sentence ("The request is refused with an error when: a; b; c."), each read against the new record and the
records it names:

- "the customer does not exist or their account is not `active`", "the car does not exist or its status is not
  `available`": the named record's field holding that value must hold it (`linked_state`). The noun is the one a
  link of the record is named for, else (another word for it: "car" for a `vehicle_id`) the one linked collection
  with a field that knows the value;
- "the student has any hold": that record's list of holds must be empty (`empty`); "the section is cancelled": its
  field knowing the value must hold another (`linked_state`);
- "the student has already completed the course": the student's list named for the verb (`completed_courses`) must
  not hold the record's course (`lacks`); "a prerequisite is missing from completed_courses": every entry of the
  list named for the noun (the course's `prerequisites`) must be in that one (`holds_all`; list_runtime.py);
- "the driver licence on file expires before the end date": the linked record's expiry date (the field with the
  noun's word and "expir") is not before the record's date the words name (`dated` with `value_field`).

And limits on how many records one may hold, as a rule or as a refusal (`cap` checks, `cap_checks`): "A customer
may hold at most two open agreements (reserved or active)", "the customer already has 2 open agreements", "a
skipper cannot already have a booked berth on the same day". A balance too short for what is moved out of it is
create_profile.py's.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_checks import noun_link
from synth.envsynth.create_rules import QUOTED, _known, _name, _props, _value
from synth.envsynth.docs_linked import record_links
from synth.envsynth.prose import unwrap
from synth.envsynth.refused_bounds import bound_refusals, bullet_clauses
from synth.words import plural, singular

COUNT = r"\d+|one|two|three|four|five|six|seven|eight|nine|ten"
COUNTS = {
    w: i + 1 for i, w in enumerate(("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"))
}
CAP = re.compile(
    r"\b(?:an?|each|every)\s+(?P<owner>\w+)\s+(?:(?:may|can)\s+(?:only\s+)?(?:hold|have|keep|book|open|take|carry)"
    r"|(?:holds|has|keeps|takes|carries|works(?:\s+on)?|handles))\s+"
    rf"(?:at\s+most|up\s+to|no\s+more\s+than)\s+[*_]*(?P<n>{COUNT})[*_]*\s+(?P<rest>[^.]{{0,160}})",
    re.IGNORECASE,
)
ALREADY_HAS = re.compile(  # a refusal: "the customer already has 2 open agreements (reserved or active)"
    rf"\bthe\s+(?P<owner>\w+)\s+already\s+(?:has|holds)\s+[*_]*(?P<n>{COUNT}|an?)[*_]*\s+(?P<rest>[^.;\n]{{0,160}})",
    re.I,
)


QUALIFIED = re.compile(r"\b(?:in|of|for|on|at|with|from|under)\b", re.I)
NO_OTHER = re.compile(  # "the rack has no other firing that is `booked` or `firing`"
    r"\bthe\s+(?P<owner>\w+)\s+(?:has|holds)\s+no\s+other\s+(?P<rest>[^.;\n]{0,160})", re.I
)
NOT_ALREADY = re.compile(  # "a skipper cannot already have a booked berth on the same day"
    r"\b(?:the\s+|a\s+|an\s+)?(?P<owner>\w+)\s+(?:must|may|can|should)(?:\s+not|not|n't)\s+already\s+"
    r"(?:hold|have|own|keep|be\s+holding)\s+"
    r"(?P<rest>[^.,;]{0,120})",
    re.IGNORECASE,
)


INLINE = re.compile(
    r"\b(?:is|are)\s+(?:refused|rejected|declined)(?:\s+with\s+an\s+error)?\s+(?:when|if)\s*:[ \t]*"
    r"(\S[^\n]*?)(?:\.\s|\.$|\n)",
    re.I,
)
ALREADY = re.compile(
    r"^(?:the\s+)?([a-z][\w-]*)\s+has\s+already\s+([a-z]+ed)\s+(?:the\s+|this\s+|that\s+)?([a-z][\w-]*)$", re.I
)
MISSING = re.compile(
    r"^(?:an?\s+|the\s+|one\s+)?([a-z][\w-]*)\s+is\s+missing\s+from\s+(?:the\s+\w+['\u2019]s\s+)?`?(\w+)`?$", re.I
)
HAS_ANY = re.compile(r"^(?:the\s+)?([a-z][\w-]*)\s+has\s+any\s+([a-z][\w-]*)$", re.I)
IS_VALUE = re.compile(r"^(?:the\s+)?([a-z][\w-]*)\s+is\s+(?:in\s+|marked\s+)?[`'\"]?([a-z][\w-]*)[`'\"]?$", re.I)
OPENS = re.compile(  # "The call is refused when:" or a "Refused when:" heading, then its bullets
    r"(?:\b(?:is|are|gets?|will\s+be)\s+|^[ \t]*)(?:refused|rejected|declined)\s+(?:when|if)\s*:\s*\n", re.I | re.M
)
BULLET = re.compile(r"^\s*[-*]\s+(.*)$")
NOT_VALUE = re.compile(r"\bis\s+not\s+[`'\"]([\w-]+)[`'\"]", re.I)
FIRST_NOUN = re.compile(r"^(?:the\s+|a\s+|an\s+)?([a-z][\w-]*)", re.I)
EXPIRES = re.compile(
    r"^(?:the\s+)?(?P<what>[a-z][\w ]*?)\s+(?:on\s+file\s+|on\s+record\s+)?expires?\s+(?:before|earlier\s+than)\s+"
    r"(?:the\s+)?(?P<when>[a-z][\w ]*?)\s*$",
    re.I,
)


def refused_bullets(text: str) -> list[str]:
    """The bullets after each "is refused when:" line, wrapped lines joined; or the clauses of a "The request is
    refused with an error when: a; b; c." sentence."""
    out: list[str] = []
    for inline in INLINE.finditer(re.sub(r"[ \t]*\n[ \t]*(?=[a-z`'(])", " ", text)):
        out += [c.strip() for c in inline.group(1).split(";") if c.strip()]
    for opened in OPENS.finditer(text):
        for line in text[opened.end() :].splitlines():
            bullet = BULLET.match(line)
            if bullet:
                out.append(bullet.group(1).strip())
            elif line.strip() and out and line.startswith((" ", "\t")):
                out[-1] += " " + line.strip()
            else:
                break
    return [b.rstrip(";.").strip() for b in out]


def _linked(
    noun: str, value: str, own: dict[str, Any], cols: dict[str, Any], anyone: bool = True
) -> tuple[str, str, str] | None:
    """(link field, collection, field) of the record the noun names whose field knows the value; with `anyone`, of
    any linked record when the noun names none (another word for it: "the car" for a `vehicle_id`)."""
    link = noun_link(noun, own, cols)
    links = record_links(own, cols, "")
    candidates = [link[0]] if link else sorted(links) if anyone else []
    hits = [
        (f, links[f], field)
        for f in candidates
        for field, schema in sorted(_props(cols, links[f]).items())
        if value in [str(v) for v in _known(schema or {})]
    ]
    return hits[0] if len(hits) == 1 else None


def _plain(clause: str, own: dict[str, Any], links: dict[str, str], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """ "the student has any hold": the named record's list of holds must be empty; "the section is cancelled": its
    field knowing that value must hold another of its values."""
    if (m := HAS_ANY.match(clause)) and (link := noun_link(m.group(1), own, cols)):
        word = singular(m.group(2).lower())
        hits = [f for f, schema in sorted(_props(cols, link[1]).items()) if _is_list(schema) and singular(f) == word]
        if len(hits) == 1:
            return [{"op": "empty", "collection": link[1], "via": link[0], "field": hits[0]}]
    if m := ALREADY.match(clause):  # "the student has already completed the course"
        return _lacks(m.group(1).lower(), m.group(2).lower(), m.group(3).lower(), own, links, cols)
    if m := MISSING.match(clause):  # "a prerequisite is missing from completed_courses"
        return _holds_all(singular(m.group(1).lower()), m.group(2), links, cols)
    if (m := IS_VALUE.match(clause)) and m.group(2).lower() not in ("not", "a", "an", "the"):
        found = _linked(m.group(1), m.group(2), own, cols, anyone=False)
        if found is not None:
            via, col, field = found
            others = [str(v) for v in _known(_props(cols, col)[field] or {}) if str(v) != m.group(2)]
            return (
                [{"op": "linked_state", "collection": col, "via": via, "field": field, "allowed": others}]
                if others
                else []
            )
    return []


def _is_list(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "array"


def _lists(links: dict[str, str], cols: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(link, collection, list field) of every list the linked records hold."""
    return [
        (f, col, field)
        for f, col in sorted(links.items())
        for field, schema in sorted(_props(cols, col).items())
        if _is_list(schema)
    ]


def _lacks(noun: str, verb: str, what: str, own: dict[str, Any], links: dict[str, str], cols: dict[str, Any]):
    """`lacks`: the noun's list named for the verb (`completed_courses`) must not hold the record's link to `what`."""
    link = noun_link(noun, own, cols)
    theirs = _props(cols, link[1]) if link else {}
    held = [f for f, schema in sorted(theirs.items()) if _is_list(schema) and verb in f.split("_")]
    values = [f for f, col in links.items() if col == plural(what) and f in own]
    if link is None or len(held) != 1 or len(values) != 1:
        return []
    return [{"op": "lacks", "via": link[0], "collection": link[1], "field": held[0], "value_field": values[0]}]


def _holds_all(item: str, other: str, links: dict[str, str], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """`holds_all`: every entry of the list named for the item (`prerequisites`) is in the list `other` names."""
    lists = _lists(links, cols)
    needs = [x for x in lists if singular(x[2]) == item]
    has = [x for x in lists if x[2] == other]
    if len(needs) != 1 or len(has) != 1:
        return []
    (via, col, field), (by_via, by_col, by_field) = needs[0], has[0]
    check = {"op": "holds_all", "via": via, "collection": col, "field": field}
    return [{**check, "by_via": by_via, "by_collection": by_col, "by_field": by_field}]


def _expiry(bullet: str, own: dict[str, Any], links: dict[str, str], cols: dict[str, Any]) -> dict[str, Any] | None:
    m = EXPIRES.match(bullet)
    if not m:
        return None
    words = set(m.group("what").lower().split())
    when = "_".join(m.group("when").lower().split())
    dates = [f for f in own if f == when or f.endswith("_" + when)]
    held = [
        (via, col, field)
        for via, col in sorted(links.items())
        for field in sorted(_props(cols, col))
        if "expir" in field and words & set(field.split("_"))
    ]
    if len(held) != 1 or len(dates) != 1:
        return None
    via, col, field = held[0]
    return {"op": "dated", "field": field, "cmp": ">=", "value_field": dates[0], "via": via, "collection": col}


EXCEED = re.compile(
    r"\bunless\s+the\s+(?P<owner>[a-z]\w*)['\u2019]s\s+`?(?P<field>\w+)`?\s+plus\s+the\s+(?P<what>[a-z][\w ]*?)\s+"
    r"would\s+exceed\s+the\s+[a-z][\w ]*?\((?P<table>[^()]+)\)",
    re.I,
)


def table_caps(text: str, own: dict[str, Any], cols: dict[str, Any], sample: dict[str, Any]) -> list[dict[str, Any]]:
    """ "unless the student's credits_enrolled plus the course credits would exceed the term limit (18 for
    undergraduates, 12 for graduates)": the linked record's number plus the record's stays within the limit the
    table gives for the linked record's value (`table_cap`; list_runtime.py). A limit stated in a "has a free
    seat" sentence holds only when a seat is taken (`seat_only`: not for a waitlisted record, overflow_rules.py)."""
    from synth.envsynth.keyed_tables import grouped_items

    links = record_links(own, cols, "")
    out: list[dict[str, Any]] = []
    for m in EXCEED.finditer(unwrap(text)):
        via = (noun_link(m.group("owner"), own, cols) or (None,))[0]
        theirs = _props(cols, links[via]) if via else {}
        words = set(m.group("what").lower().split())
        added = [f for f in sorted(own) if f in words and (own[f] or {}).get("type") in ("integer", "number")]
        table = {singular(k): v for k, v in grouped_items(m.group("table")).items()}
        records = [r for r in ((sample.get(links[via]) or {}) if via else {}).values() if isinstance(r, dict)]
        keys = [f for f in sorted(theirs) if records and {str(r.get(f)) for r in records} <= set(table)]
        if via is None or m.group("field") not in theirs or len(added) != 1 or len(keys) != 1 or len(table) < 2:
            continue
        check = {"op": "table_cap", "via": via, "collection": links[via], "field": m.group("field"), "plus": added[0]}
        check.update({"key": keys[0], "table": table})
        sentence = re.split(r"(?<=[.;!?])\s", unwrap(text)[: m.start()])[-1]
        out.append(
            {**check, "seat_only": True} if re.search(r"\bfree\s+(?:seat|place|spot)\b", sentence, re.I) else check
        )
    return out


def refusal_checks(text: str, own: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """The checks the listed refusals give, in the order listed."""
    links = record_links(own, cols, "")
    out: list[dict[str, Any]] = []
    bullets = refused_bullets(text)
    for bullet in bullets:
        lead = FIRST_NOUN.match(bullet)
        for m in NOT_VALUE.finditer(bullet):
            found = _linked(lead.group(1) if lead else "", m.group(1), own, cols)
            if found is not None:
                via, col, field = found
                check = {"op": "linked_state", "collection": col, "via": via, "field": field, "allowed": [m.group(1)]}
                out += [check] if check not in out else []
        for clause in dict.fromkeys([bullet, *bullet_clauses(bullet)]):
            out += [c for c in _plain(clause, own, links, cols) if c not in out]
        expiry = _expiry(bullet, own, links, cols)
        out += [expiry] if expiry and expiry not in out else []
    return out + [c for c in bound_refusals(bullets, own, cols, links) if c not in out]


def _count(text: str) -> int:
    return int(text) if text.isdigit() else COUNTS.get(text.lower(), 1)  # "already has an active one": 1


def cap_checks(
    text: str, collection: str, own: dict[str, Any], refs: dict[str, str], params: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """`cap` checks: "A skipper may hold at most 2 active moorings (status `booked` or `moored`)": the new record is
    refused when the records of its collection naming the same record are already that many in those states;
    "a skipper cannot already have a booked berth on the same day": none such with the same `day` argument; "the
    pier has no other mooring that is `booked` or `moored`": none such."""
    out: list[dict[str, Any]] = []
    found = [(m, _count(m.group("n"))) for m in [*CAP.finditer(text), *ALREADY_HAS.finditer(text)]]
    found += [(m, 1) for m in [*NOT_ALREADY.finditer(text), *NO_OTHER.finditer(text)]]
    for m, most in found:
        param = next((p for p in refs if p[:-3].replace("_", " ").lower() == m.group("owner").lower()), None)
        owner = m.group("owner").lower()
        param = param or (owner if owner in (params or {}) and owner in own else None)  # a `skipper` parameter
        if param is None or param not in own:
            continue
        quoted = [_value(q) for q in re.findall(QUOTED, m.group("rest"))]
        aside = re.search(r"\(([\w\s,-]+)\)", m.group("rest"))  # "(reserved or active)", unquoted
        quoted += re.findall(r"[\w-]+", aside.group(1)) if aside and not quoted else []
        lone = str(m.groupdict().get("n") or "").lower() in ("a", "an")  # "already has an active mooring"
        if lone and QUALIFIED.search(m.group("rest").split("(")[0]):
            continue  # "... in any pier of the same harbour": a scope not read
        if most == 1 and (m.re is NOT_ALREADY or lone):  # unquoted states count: "a booked berth" (not "unless ...")
            quoted += re.findall(r"[\w-]+", re.split(r"\b(?:unless|except|other\s+than|but)\b", m.group("rest"))[0])
        states = {
            f: [v for v in quoted if v in _known(sub)]
            for f, sub in sorted(own.items())
            if isinstance(sub, dict) and any(v in _known(sub) for v in quoted)
        }
        if len(states) != 1:
            continue  # the records it counts must be named by their states
        check = {"op": "cap", "collection": collection, "field": param, "arg": param, "where": states, "max": most}
        same = [  # "on the same day": the records counted share the argument's value
            p
            for p in sorted(params or {})
            if p in own
            and p != param
            and re.search(rf"\b(?:for|on|at)\s+(?:that|the\s+same)\s+{_name(p)}\b", m.group("rest"), re.I)
        ]
        if same:
            check["same"] = same
        out += [check] if check not in out else []
    return out


__all__ = ["cap_checks", "refusal_checks", "refused_bullets", "table_caps"]
