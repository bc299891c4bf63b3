"""What a quote's lines (quote_lines.py) read beyond their element's and record's own fields:

- an element field whose values are the keys of another collection names a record of it ("finishing": "gloss" is
  the `gloss` entry of `coatings` keyed by `code`), in scope under the element field's name ("the coating's
  per-metre rate"); a value no record has (`none`) reads as no record;
- "the <entry> with the highest <field> that is not above the line's own <figure>": the entry of the line record's
  one list whose entries hold that field, picked by it, and the entry's one other number is the figure the numbered
  line names ("1. Unit price: ... uses the band with the highest min_metres not above the line's metres");
- a trailing "x 1.5 when ... (hull = 2)" multiplies by the factor when the element (or call) holds that value, and
  "(0 for "none")" makes the figure 0 when the one field holding that value holds it;
- "<flag> is false when the <units> asked for that <noun> across the whole <job> exceed its <field>": whether the
  sum of the number the elements naming the same record ask for stays within the record's field;
- a line field no docs define that every stored entry of the sample (at least three, two values or more) holds equal
  to one field of the record its key names (`label` = the mooring's `name`): that field.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.data_copies import keyed_records, sample_records
from synth.envsynth.figure_terms import spoken
from synth.words import singular, split_words

PICK = re.compile(
    r"\bthe\s+([\w-]+)\s+with\s+the\s+(highest|largest|greatest|lowest|smallest)\s+`?(\w+)`?\s+(?:that\s+is\s+)?"
    r"(not\s+above|not\s+over|not\s+more\s+than|no\s+more\s+than|at\s+most|not\s+below|at\s+least)\s+"
    r"(?:the\s+)?(?:[\w-]+['\u2019]s\s+(?:own\s+)?)?`?(\w+)`?",
    re.I,
)
FACTOR = re.compile(r",?\s+(?:x|×|times)\s+(\d+(?:\.\d+)?)\s+when\b[^()]*\(\s*`?(\w+)`?\s*=\s*\"?([\w-]+)\"?\s*\)\s*$")
ZERO_FOR = re.compile(r"\s*\(\s*0\s+(?:for|when)\s+[\"'`]?([\w-]+)[\"'`]?\s*\)\s*$")
ACROSS = (  # after the figure's name
    r"`?\s+is\s+false\s+when\s+the\s+[\w\s-]{0,30}?\s+for\s+that\s+[\w-]+\s+across\s+the\s+whole\s+[\w-]+"
    r"\s+exceeds?\s+(?:its|the\s+[\w-]+['\u2019]s)\s+`?(\w+)`?"
)


def count_fields(props: dict[str, Any]) -> list[str]:
    """The number fields of an element or entry that count something: numbers without an enum (`nights`, not
    `hulls` 1 or 2)."""
    return [
        f
        for f, s in sorted(props.items())
        if isinstance(s, dict) and s.get("type") in ("integer", "number") and not s.get("enum")
    ]


def element_links(element: dict[str, Any], cols: dict[str, Any], sample: dict[str, Any]) -> dict[str, str]:
    """{element field: collection}: a text field whose enum (of codes) holds at least half the keys of a sample
    collection its name's first word names (`service` -> `harbour_services`)."""
    out: dict[str, str] = {}
    for field, schema in sorted(element.items()):
        listed = (schema or {}).get("enum") or [] if isinstance(schema, dict) else []
        values = {v for v in listed if isinstance(v, str) and not v.isdigit()}  # codes, not numbers or objects
        words = split_words(field)
        if not values or not words:
            continue
        named = [c for c in sorted(cols) if singular(words[0]) in {singular(w) for w in split_words(c)}]
        hits = [
            c for c in named if (keys := set(keyed_records(sample, c))) and 2 * len(keys & values) >= len(keys) >= 2
        ]
        if len(hits) == 1:
            out[field] = hits[0]
    return out


def _value(text: str, holders: dict[str, dict[str, Any]]) -> tuple[str, Any] | None:
    """(holder, value as its field stores it) of the one holder field whose enum holds this value."""
    hits = []
    for holder, fields in sorted(holders.items()):
        for field, schema in sorted(fields.items()):
            for v in (schema or {}).get("enum") or [] if isinstance(schema, dict) else []:
                if str(v) == text:
                    hits.append((holder, field, v))
    return (hits[0][0], {"field": hits[0][1], "value": hits[0][2]}) if len(hits) == 1 else None


def modified(
    text: str, holders: dict[str, dict[str, Any]], parse: Any, params: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """A line formula with a trailing factor "x 1.5 when ... (hulls = 2)" (a field of the element, else a parameter
    of the call) or "(0 for "none")", else None."""
    zero = ZERO_FOR.search(text)
    if zero:
        inner = modified(text[: zero.start()], holders, parse, params) or parse(text[: zero.start()])
        held = _value(zero.group(1), holders)
        if inner is None or held is None:
            return None
        cond = {"param": held[0], "field": held[1]["field"], "in": [held[1]["value"]]}
        return {"if_field": cond, "then": {"num": 0}, "else": inner}
    factor = FACTOR.search(text)
    if factor is None:
        return None
    inner = parse(text[: factor.start()])
    holder = [h for h, fields in sorted(holders.items()) if factor.group(2) in fields]
    given = (params or {}).get(factor.group(2)) if not holder else None
    schema = (holders.get(holder[0]) or {}).get(factor.group(2)) if len(holder) == 1 else given
    enum = (schema or {}).get("enum") or [] if isinstance(schema, dict) else []
    value = next((v for v in enum if str(v) == factor.group(3)), None)
    if inner is None or value is None:
        return None
    number = float(factor.group(1)) if "." in factor.group(1) else int(factor.group(1))
    scaled = {"then": {"num": number}, "else": {"num": 1}}
    if holder:
        return {
            "op": "*",
            "args": [inner, {"if_field": {"param": holder[0], "field": factor.group(2), "in": [value]}, **scaled}],
        }
    when = {"arg": factor.group(2), "default": (schema or {}).get("default"), "in": [value]}
    return {"op": "*", "args": [inner, {"when": when, **scaled}]}


def _numbered_text(name: str, docs: str) -> str:
    """The text of the numbered line whose label names the figure ("1. Unit price: ...")."""
    words = split_words(name)
    for said in re.finditer(r"^\s*\d+[.)]\s+([A-Za-z][\w -]{0,40}?):\s*([^\n]+)", docs, re.M):
        if split_words(said.group(1).lower()) == words:
            return said.group(2)
    return ""


def pick_node(name: str, docs: str, record: str, fields: dict[str, Any], at: Any) -> dict[str, Any] | None:
    """ "the tier with the highest min_qty that is not above the line's own quantity": the figure the line names."""
    said = PICK.search(_numbered_text(name, docs))
    if said is None:
        return None
    by = said.group(3)
    lists = [
        (f, (s.get("items") or {}).get("properties") or {})
        for f, s in sorted(fields.items())
        if isinstance(s, dict) and s.get("type") == "array" and by in ((s.get("items") or {}).get("properties") or {})
    ]
    numbers = (
        [f for f, s in sorted(lists[0][1].items()) if f != by and (s or {}).get("type") in ("number", "integer")]
        if len(lists) == 1
        else []
    )
    point = at(said.group(5))
    if len(numbers) != 1 or point is None:
        return None
    most = said.group(2).lower() in ("highest", "largest", "greatest")
    within = "<=" if re.match(r"not\s+above|not\s+over|not\s+more|no\s+more|at\s+most", said.group(4), re.I) else ">="
    return {
        "pick": {
            "param": record,
            "list": lists[0][0],
            "by": by,
            "most": most,
            "cmp": within,
            "at": point,
            "value": numbers[0],
        }
    }


def across_node(name: str, docs: str, source: dict[str, Any], record: str, element: str) -> dict[str, Any] | None:
    """ "space_ok is false when the nights asked for that mooring across the whole booking exceed its free_nights"."""
    said = re.search(rf"\b{spoken(name)}" + ACROSS, docs, re.I)
    counts = count_fields(source["element"])
    if said is None or len(counts) != 1 or not source.get("key"):
        return None
    asked = {"across": {"param": source["param"], "key": source["key"], "of": counts[0], "at": element}}
    return {"op": "<=", "args": [asked, {"field": said.group(1), "param": record}]}


def copied_field(name: str, source: dict[str, Any], sample: dict[str, Any], record: str) -> dict[str, Any] | None:
    """The field of the line's record every stored entry of this name copies (`description` <- `name`)."""
    key, col = source.get("key"), source.get("collection")
    held = keyed_records(sample, col) if col else {}
    entries = [
        e
        for c in sorted(sample)
        for r in sample_records(sample, c)
        for v in r.values()
        if isinstance(v, list)
        for e in v
        if isinstance(e, dict) and key in e and name in e
    ]
    named = [(e[name], held.get(str(e[key]))) for e in entries if isinstance(held.get(str(e[key])), dict)]
    if len(named) < 3 or len({str(v) for v, _ in named}) < 2:
        return None
    fields = [f for f in sorted(named[0][1]) if f != name and all(r.get(f) == v for v, r in named)]
    return {"field": fields[0], "param": record} if len(fields) == 1 else None
