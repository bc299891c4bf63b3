"""Quotes with lines: an answer field whose entries the docs give ("Returns {..., stays (list of {berth_id, nights,
cost}), total}") is computed once per element of the call's list parameter, and totals sum a line figure.

The elements are ids of a collection's records (`berth_ids`), or objects with a field that names one
(`[{"berth_id", "nights"}]`), or plain objects (`[{"pier", "metres"}]`). Each line field is, in this order: a field
of the element, of the record it names, or of a record that one links (`pier_id` -> the pier); else a formula the
docs give for it ("cost is nights times the berth's nightly rate", "cost (nights x rate)"), read as formula_rules.py
reads the quote's own figures, with the element's records in scope. A modifier "halved for <value>" / "doubled for
<value>" after a formula applies when an enum parameter holds that value. A total is the sum of a line field:
`total_nights` of `nights`, `nights_total`, a field whose own description says "sum of the ... nights", or `total`
over a line `subtotal` when the docs define `total` no other way.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from synth.envsynth.create_rules import _props
from synth.envsynth.returns_shape import ReturnedField
from synth.spec import ToolSpec
from synth.words import plural, singular, split_words

ELEMENT_KEYS = re.compile(r'"(\w+)"\s*:')
MODIFIER = re.compile(r",?\s*(halved|doubled|tripled|free)\s+(?:for|when|with|under)\s+([\w-]+)\s*$", re.I)
FACTORS = {"halved": 0.5, "doubled": 2, "tripled": 3, "free": 0}
ADDED = re.compile(  # "the pier's levy is added (except for daytime)", not "is added to the balance"
    r"(?:the\s+)?((?:\w+['\u2019]s\s+)?[\w ]{2,40}?)\s+is\s+added\b(?!\s+to\b)"
    r"(?:\s+(?:except|unless)\s+(?:for|when|with)\s+([\w-]+))?",
    re.I,
)
TOTAL_NAME = re.compile(r"^(?:sub)?total$|_total$|^total_|^amount$")
SUM_WORDS = re.compile(r"\b(?:sum|total)\s+of\s+(?:the\s+)?([\w' ]+)", re.I)


def _stem(name: str) -> str:
    for end in ("_ids", "_codes", "_numbers", "_id", "_code", "_number"):
        if name.endswith(end):
            return name[: -len(end)]
    return name


def _collection_of(name: str, cols: dict[str, Any]) -> str | None:
    stem = _stem(name)
    for col in (plural(singular(stem)), plural(stem), stem):
        if col in cols:
            return col
    return None


def _element_fields(schema: dict[str, Any]) -> dict[str, Any]:
    items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
    props = dict(items.get("properties") or {})
    if not props:  # `Lines of {"pier": string, "metres": integer}` in the parameter's own description
        for key in ELEMENT_KEYS.findall(str(schema.get("description") or "")):
            props.setdefault(key, {})
    return props


def line_source(spec: ToolSpec, cols: dict[str, Any], entries: list[str]) -> dict[str, Any] | None:
    """Where a quote's lines come from: the list parameter whose elements (or the records they name) hold the most
    of the line's fields; None when no list parameter holds any."""
    best, best_hits = None, 0
    for p, schema in (spec.parameters.get("properties") or {}).items():
        if not isinstance(schema, dict) or schema.get("type") != "array":
            continue
        element = _element_fields(schema)
        key = next((f for f in sorted(element) if _collection_of(f, cols) and f != _stem(f)), None)
        col = _collection_of(key, cols) if key else None if element else _collection_of(p, cols)
        record = _props(cols, col) if col else {}
        links = {
            f: s["x-references"]
            for f, s in sorted(record.items())
            if isinstance(s, dict) and s.get("x-references") in cols and s.get("x-references") != col
        }
        held = set(element) | set(record) | {f for link in links.values() for f in _props(cols, link)}
        hits = len(held & set(entries))
        if hits > best_hits:
            best, best_hits = {"param": p, "key": key, "collection": col, "element": element, "links": links}, hits
    return best


def _line_scope(outer: Any, source: dict[str, Any], cols: dict[str, Any]) -> tuple[Any, dict[str, str]]:
    """The outer quote's scope plus the line's own records, under names that say what they are."""
    scope = copy.copy(outer)
    scope.named, scope.fields = dict(outer.named), dict(outer.fields)
    scope.defined = list(outer.defined)
    names: dict[str, str] = {}  # role -> name in scope
    if source["element"]:
        names["element"] = singular(source["param"])
        scope.fields[names["element"]] = source["element"]
    if source["collection"]:
        names["record"] = singular(source["collection"])
        scope.fields[names["record"]] = _props(cols, source["collection"])
    for f, col in source["links"].items():
        scope.fields[f] = _props(cols, col)
    clash = set(names.values()) | set(source["links"])
    if clash & set(outer.params) or len(clash) < len(names) + len(source["links"]):
        return None, {}
    return scope, names


def _definitions(name: str, text: str) -> list[str]:
    """The texts the docs give for a line field: "cost is ...", "cost = ...", "cost (...)"."""
    spoken = "(?:" + "|".join(re.escape(n) for n in {name, name.replace("_", " ")}) + ")"
    clauses = re.split(r";|(?<!\d)\.(?!\d)|:", text)
    out = []
    for clause in clauses:
        m = re.search(rf"\b{spoken}\s+(?:is|=)\s+(.{{3,200}})$", clause.strip(), re.I)
        if m:
            out.append(m.group(1))
    out += [m.group(1) for m in re.finditer(rf"\b{spoken}\s*\(((?:[^()]|\([^()]*\)){{3,200}})\)", text, re.I)]
    return out


def _with_modifier(text: str, spec: ToolSpec, parse: Any) -> dict[str, Any] | None:
    """A formula with a trailing "halved for <value>" applying when an enum parameter holds that value."""
    from synth.envsynth.formula_rules import param_default

    m = MODIFIER.search(text)
    if not m:
        return parse(text)
    inner = parse(text[: m.start()])
    value = m.group(2)
    holders = [
        p
        for p, s in (spec.parameters.get("properties") or {}).items()
        if isinstance(s, dict) and value in (s.get("enum") or [])
    ]
    if inner is None or len(holders) != 1:
        return None
    default = param_default(spec.parameters["properties"][holders[0]])
    when = {"arg": holders[0], "default": default, "in": [value]}
    return {
        "op": "*",
        "args": [inner, {"when": when, "then": {"num": FACTORS[m.group(1).lower()]}, "else": {"num": 1}}],
    }


def line_node(field: ReturnedField, spec: ToolSpec, outer: Any, cols: dict[str, Any]) -> dict[str, Any] | None:
    """The `lines` node of a list field of the answer, or None when any of its entries' fields is unknown."""
    from synth.envsynth.formula_rules import parse_formula

    entries = [e.name for e in field.entries]
    source = line_source(spec, cols, entries) if entries and not field.keyed_by else None
    if source is None:
        return None
    scope, names = _line_scope(outer, source, cols)
    if scope is None:
        return None
    holders = [names.get("element"), names.get("record"), *source["links"]]
    steps: dict[str, dict[str, Any]] = {}
    for name in entries:  # the element's, the record's, then the linked records' own fields
        holder = next((h for h in holders if h and name in scope.fields.get(h, {})), None)
        if holder is not None:
            steps[name] = {"field": name, "param": holder}
    scope.defined += list(steps)
    for _ in range(len(entries)):
        for name in [n for n in entries if n not in steps]:
            for text in _definitions(name, spec.description):
                node = _with_modifier(text, spec, lambda t: parse_formula(t, scope))
                if node is not None:
                    steps[name] = node
                    scope.defined.append(name)
                    break
    _added_terms(spec, scope, steps, entries)
    if len(steps) != len(entries):
        return None
    return {
        "lines": {
            "param": source["param"],
            "key": source["key"],
            "collection": source["collection"],
            "names": names,
            "links": source["links"],
            "steps": [[n, steps[n]] for n in entries],
            "fields": entries,
        }
    }


def _added_terms(spec: ToolSpec, scope: Any, steps: dict[str, dict[str, Any]], entries: list[str]) -> None:
    """ "the pier's fee is added (except for <value>)": that line field is a term of the line's total (0 for that
    value); a line total the docs give no formula for (`subtotal`, `line_total`) sums the computed figures and
    these terms."""
    from synth.envsynth.formula_rules import _operand

    added: list[str] = []
    for m in ADDED.finditer(spec.description):
        node = _operand(m.group(1), scope)
        named = [n for n, step in steps.items() if node is not None and (step == node or node == {"val": n})]
        if len(named) != 1:
            continue
        added.append(named[0])
        if m.group(2):
            exempt = _with_modifier(f"{named[0]} free for {m.group(2)}", spec, lambda t: {"val": named[0]})
            if exempt is not None:
                steps[named[0]] = {"op": "*", "args": [steps[named[0]], exempt["args"][1]]}
    computed = [n for n in entries if n in steps and any(k in steps[n] for k in ("op", "round", "when"))]
    for name in [n for n in entries if n not in steps and TOTAL_NAME.search(n)]:
        terms = [n for n in entries if n in computed or n in added]
        if terms:
            node: dict[str, Any] = {"val": terms[0]}
            for term in terms[1:]:
                node = {"op": "+", "args": [node, {"val": term}]}
            steps[name] = {"round": node, "digits": 2, "way": "nearest"}


def sum_node(name: str, own: str, lines: dict[str, list[str]], text: str = "") -> dict[str, Any] | None:
    """A total over a line field: `total_nights`, `nights_total`, "Sum of the stays' nights" (the field's own
    description, or "<name> is the sum of ..." in the tool's), `total` of `subtotal`."""
    spoken = "(?:" + "|".join(re.escape(n) for n in {name, name.replace("_", " ")}) + ")"
    told = re.search(rf"\b{spoken}\s+(?:is|=)\s+(?:the\s+)?((?:sum|total)\s+of\s+[\w' ]+)", text, re.I)
    own = own or (told.group(1) if told else "")
    for lines_field, fields in lines.items():
        words = split_words(name)
        wanted = []
        if len(words) > 1 and words[0] == "total":
            wanted.append("_".join(words[1:]))
        if len(words) > 1 and words[-1] == "total":
            wanted.append("_".join(words[:-1]))
        said = SUM_WORDS.search(own)
        if said:
            wanted += [singular(w) for w in split_words(said.group(1).replace("'s", ""))[-1:]]
        if name == "total":  # over the lines' own totals
            wanted += [f for f in fields if TOTAL_NAME.search(f)][:1]
        for want in wanted:
            hit = [f for f in fields if f in (want, plural(want), singular(want))]
            if len(hit) == 1:
                return {"sum": lines_field, "of": hit[0]}
    return None


__all__ = ["line_node", "line_source", "sum_node"]
