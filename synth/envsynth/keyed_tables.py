"""Tables the docs list after a colon, and the figures that read them (formula_rules.py builds the quote).

- "Daily rates: economy 39.00, compact 46.00, ..." is keyed by the enum argument holding those values; "by the
  customer's tier: standard 0%, silver 5%, gold 10%, platinum 15% (rounded to the cent)" by the field of a named
  record whose sample values are the table's keys (the field the phrase names when several hold them).
- "Without `customer_id` the quote is priced at the standard tier": the value a named record's field reads as when
  the call leaves the record out (`absent` on the field and table nodes; formula_runtime.fg_formula).
- "Loyalty discount on base + weekend surcharge, by the customer's tier: ... (rounded to the cent)": the figure is
  the table's percent of the formula after "on", rounded when the sentence says so (half a cent up).
- A list with the value first ("150.00 for economy and compact, 200.00 midsize") or keys joined by a slash
  ("economy/compact 150.00") is a table too; tables in brackets after a phrase are `bracket_tables`.
- "One-way fee of 45.00 when both branches are given and differ": the amount while the two parameters named for the
  noun are both given and differ (`differ_fee_node`); "(waived for platinum members)", "Platinum members pay no
  deposit": 0 while the named record's field holds that value (`waived_node`); a string answer field whose one
  schema example the docs also write ("USD") is that constant (`documented_constant`).
"""

from __future__ import annotations

import re
from typing import Any, Callable

from synth.envsynth.figure_terms import spoken
from synth.words import singular, split_words

NUMBER = r"-?\d+(?:\.\d+)?"
TABLE = re.compile(r"((?:\w+['\u2019]s\s+)?(?:[\w-]+\s+){0,3}[\w-]+)\s*\(([^()]{3,200})\)")
TABLE_ITEM = re.compile(rf"^\s*(?:and\s+|or\s+)?([\w-]+)\s+\$?({NUMBER})\s*(%|percent)?(?:\s+[A-Z]{{3}})?\s*$")
LISTED_TABLE = re.compile(r"((?:[\w-]+\s+){0,2}[\w-]+)\s*:\s*([^:.\n]*?\d(?:[^:.\n]|\.\d)*?)(?=\.\s|\.$|\n|$)")
TAIL_REMARK = re.compile(r"\s*\([^()]*\)\s*$")  # "platinum 15% (rounded to the cent)"
STOP = {"the", "a", "an", "of", "s", "by", "per", "for", "its", "their"}


def _words(text: str) -> set[str]:
    return {singular(w) for w in split_words(text)} - STOP


def _number(text: str) -> float | int:
    return float(text) if "." in text else int(text)


def _held(sample: dict[str, Any], col: str, field: str) -> set[str]:
    return {str(r.get(field)) for r in (sample.get(col) or {}).values() if isinstance(r, dict) and r.get(field)}


def _same_keys(held: set[str], keys: set[str]) -> bool:
    """A field's sample values are a table's keys: one set inside the other, at least two shared."""
    return bool(held) and (held <= keys or keys <= held) and len(held & keys) >= 2


def keyed_field(
    keys: set[str], phrase: str, named: dict[str, str], fields: dict[str, dict[str, Any]], sample: dict[str, Any]
) -> tuple[str, str] | None:
    """(parameter, field) of the one named record's field whose sample values are these keys (at least two of
    them, one set inside the other); the one the phrase names when several are."""
    hits = []
    for p, col in named.items():
        for f in sorted(fields.get(p) or {}):
            if _same_keys(_held(sample, col, f), keys):
                hits.append((p, f))
    if len(hits) > 1:
        words = _words(phrase)
        hits = [(p, f) for p, f in hits if words & _words(f)]
    return hits[0] if len(hits) == 1 else None


def grouped_items(text: str) -> dict[str, float | int]:
    """ "150.00 for economy and compact, 200.00 midsize" or "economy/compact 150.00, midsize 200.00": one value for
    each key of a group; {} when any item is of neither form."""
    out: dict[str, float | int] = {}
    for item in re.split(r",|;", text):
        first = re.fullmatch(
            rf"\s*(?:and\s+)?\$?({NUMBER})\s+(?:for\s+)?([\w-]+(?:(?:\s+and\s+|\s+or\s+|/)[\w-]+)*)\s*", item
        )
        last = re.fullmatch(rf"\s*(?:and\s+)?([\w-]+(?:(?:\s+and\s+|\s+or\s+|/)[\w-]+)*)\s+\$?({NUMBER})\s*", item)
        if not first and not last:
            return {}
        keys, number = (first.group(2), first.group(1)) if first else (last.group(1), last.group(2))  # type: ignore
        out.update({k: _number(number) for k in re.split(r"\s+and\s+|\s+or\s+|/", keys)})
    return out


def bracket_tables(
    text: str,
    named: dict[str, str],
    fields: dict[str, dict[str, Any]],
    sample: dict[str, Any],
    cut: re.Pattern[str],
    words: Callable[[str], set[str]],
) -> list[dict[str, Any]]:
    """The tables the docs give in brackets after a phrase ("the owner's club discount (none 0%, silver 10%)"), keyed
    by the named record's field whose sample values are its keys; their words: the phrase's and up to four before
    it, back to the last `cut`."""
    out = []
    for m in TABLE.finditer(text):
        parsed = [TABLE_ITEM.match(i) for i in re.split(r",|;", m.group(2))]
        if len(parsed) < 2 or not all(parsed):
            continue
        values = {x.group(1): _number(x.group(2)) for x in parsed if x}
        for p, col in named.items():
            for f in fields[p]:
                held = {str(r.get(f)) for r in (sample.get(col) or {}).values() if isinstance(r, dict)}
                if _same_keys(held, set(values)):
                    phrase = re.sub(r"\s*\(.*", "", m.group(1))
                    before = cut.split(text[: m.start()])[-1]
                    said = words(" ".join(before.split()[-4:]) + " " + phrase)
                    out.append({"words": said, "param": p, "field": f, "values": values, "text": m.group(0)})
    return out


def listed_tables(
    text: str,
    params: dict[str, Any],
    named: dict[str, str],
    fields: dict[str, dict[str, Any]],
    sample: dict[str, Any],
) -> list[dict[str, Any]]:
    """The tables listed after a colon, each keyed by an enum argument (`arg`) or a named record's field."""
    out: list[dict[str, Any]] = []
    flat = re.sub(r"\s*\n\s*", " ", text)
    for m in LISTED_TABLE.finditer(flat):
        body = m.group(2)
        if body.count(")") > body.count("("):  # "(hours x the rate of the tech's level: junior 20, master 45) + ..."
            body = body[: body.index(")")] if "(" not in body[: body.index(")")] else body
        items = re.split(r",|;|\s+and\s+", TAIL_REMARK.sub("", body))
        parsed = [TABLE_ITEM.match(i) for i in items if i.strip()]
        values = {x.group(1): _number(x.group(2)) for x in parsed if x}
        if len(parsed) < 2 or not all(parsed):
            values = grouped_items(TAIL_REMARK.sub("", body))
        if len(values) < 2:
            continue
        words = _words(m.group(1))
        opening = re.split(r"[.;!?]\s|\n", flat[: m.start(2)])[-1]  # the sentence up to the colon
        words_about = _words(opening) - words
        keyed = [p for p, sch in params.items() if isinstance(sch, dict) and set(values) <= set(sch.get("enum") or [])]
        if len(keyed) == 1:
            out.append({"words": words, "about": words_about, "arg": keyed[0], "values": values, "text": m.group(0)})
            continue
        by_field = keyed_field(set(values), m.group(1), named, fields, sample)
        if by_field is not None:
            p, f = by_field
            said = m.group(0)[: len(m.group(1)) + m.group(0)[len(m.group(1)) :].index(body) + len(body)]
            table = {"words": words, "about": words_about, "param": p, "field": f, "values": values, "text": said}
            out.append({**table, "listed": True})
    return out


def absent_values(
    text: str, params: dict[str, Any], named: dict[str, str], fields: dict[str, dict[str, Any]], sample: dict[str, Any]
) -> dict[str, dict[str, str]]:
    """{parameter: {field: value}}: "Without `customer_id` the quote is priced at the standard tier" -> the
    customer's field holding `standard` (the one whose words the sentence's last word is) reads as that."""
    out: dict[str, dict[str, str]] = {}
    for m in re.finditer(
        r"\b(?:without|with\s+no|if\s+no)\s+`?(\w+)`?[^.]*?\bat\s+the\s+([\w-]+)\s+([\w-]+)", text, re.I
    ):
        p, value, word = m.group(1), m.group(2), singular(m.group(3).lower())
        if p not in params or p not in named:
            continue
        hits = [
            f
            for f in sorted(fields.get(p) or {})
            if value in _held(sample, named[p], f) and (word in _words(f) or not _words(f) - {word})
        ]
        if len(hits) == 1:
            out.setdefault(p, {})[hits[0]] = value
    return out


def share_node(
    name: str, docs: str, tables: list[dict[str, Any]], parse: Callable[[str], dict[str, Any] | None]
) -> dict[str, Any] | None:
    """ "<Figure> on <formula>, by <phrase>: <table of percents> (rounded to the cent)": the table's percent of the
    formula; None when the docs say no such thing."""
    flat = re.sub(r"\s*\n\s*", " ", docs)
    found = re.search(rf"\b{spoken(name)}\s+(?:on|of)\s+([^,;:]+?),?\s+by\s+([^:]+?:[^:]*?)(?=\.\s|\.$|$)", flat, re.I)
    if not found:
        return None
    table = next((t for t in tables if t["text"] in found.group(0) and "%" in t["text"]), None)
    base = parse(found.group(1))
    if table is None or base is None:
        return None
    key = {"table_arg": table["arg"]} if "arg" in table else {"table": table["field"], "param": table["param"]}
    node = {"op": "*", "args": [{"op": "/", "args": [{**key, "values": table["values"]}, {"num": 100}]}, base]}
    if re.search(r"rounded\s+to\s+(?:the\s+)?cents?", found.group(0), re.I):
        return {"round": node, "digits": 2, "way": "half_up"}  # a half cent goes up, as money is rounded
    return node


def waived_node(
    name: str, node: dict[str, Any], docs: str, named: dict[str, str], fields: dict[str, Any], sample: dict[str, Any]
) -> dict[str, Any]:
    """The figure, 0 for the records a sentence naming it waives: "the refundable deposit ... (waived for platinum
    members)", "Platinum members pay no deposit" -> 0 while the named record's field holds `platinum`."""
    words = _words(name.replace("_", " "))
    flat = re.sub(r"\s*\n\s*", " ", docs)
    said = r"\bwaived\s+for\s+(?:the\s+)?([\w-]+)\b|\b([\w-]+)\s+\w+\s+(?:pay|owe)\s+no\s+([\w-]+)"
    for sentence in re.split(r"(?<=[.;!?])\s", flat):
        for m in re.finditer(said, sentence, re.I):
            value = (m.group(1) or m.group(2)).lower()
            if not words & _words(sentence if m.group(1) else m.group(3)):
                continue
            hits = [
                (p, f)
                for p, col in named.items()
                for f in sorted(fields.get(p) or {})
                if value in _held(sample, col, f)
            ]
            if len(hits) == 1:
                when = {"param": hits[0][0], "field": hits[0][1], "in": [value]}
                return {"if_field": when, "then": {"num": 0}, "else": node}
    return node


def differ_fee_node(name: str, docs: str, params: dict[str, Any]) -> dict[str, Any] | None:
    """ "One-way fee of 45.00 when both branches are given and differ": the amount when the two parameters whose
    names hold the noun are both given and differ, else 0."""
    flat = re.sub(r"\s*\n\s*", " ", docs)
    said = rf"\b{spoken(name)}\s+of\s+\$?({NUMBER})\s+(?:when|if)\s+(?:both\s+)?(?:the\s+)?([\w-]+)\s+"
    said += r"(?:are\s+given\s+and\s+)?differ"
    found = re.search(said, flat, re.I)
    if not found:
        return None
    noun = singular(found.group(2).lower())
    pair = [p for p in params if noun in {singular(w) for w in split_words(p)}]
    if len(pair) != 2:
        return None
    fee = {"num": _number(found.group(1))}
    return {"op": "*", "args": [fee, {"differ": [{"arg": p, "default": None} for p in pair]}]}


def documented_constant(schema: Any, docs: str) -> str | None:
    """The one example a string answer field's schema gives, when the docs write that value too ("USD")."""
    if not isinstance(schema, dict) or schema.get("type") != "string":
        return None
    examples = list(schema.get("examples") or []) + ([schema["example"]] if "example" in schema else [])
    if len(set(map(str, examples))) != 1 or not isinstance(examples[0], str) or not examples[0].strip():
        return None
    return examples[0] if re.search(rf"(?<![\w-]){re.escape(examples[0])}(?![\w-])", docs) else None


def sample_states(cols: dict[str, Any], col: str, sample: dict[str, Any]) -> dict[str, Any]:
    """The collection's fields, a text field without known values knowing those its sample records hold (a few
    records may each hold another state: `closed`, `open`, `upcoming`)."""
    props = dict(((cols.get(col) or {}).get("additionalProperties") or {}).get("properties") or {})
    for field, schema in props.items():
        held = [r.get(field) for r in (sample.get(col) or {}).values() if isinstance(r, dict)]
        if (
            isinstance(schema, dict)
            and schema.get("type") == "string"
            and not list(schema.get("enum") or schema.get("x-enum") or [])
            and held
        ):
            words = all(isinstance(v, str) and re.fullmatch(r"[a-z][a-z_]{1,20}", v) for v in held)
            if words and len(held) >= 3 and 2 <= len(set(held)) <= 8:
                props[field] = {**schema, "x-enum": sorted(set(held))}
    return props


__all__ = [
    "absent_values",
    "bracket_tables",
    "differ_fee_node",
    "documented_constant",
    "grouped_items",
    "keyed_field",
    "listed_tables",
    "sample_states",
    "share_node",
    "waived_node",
]
