"""Quotes with lines: an answer field the docs give as a list of entries ("Answers with {skipper_id, moorings:
[{mooring_id, metres, charge}], metres_total}") is computed once per element of the call's list parameter, and
totals sum a line figure.

The elements are ids of a collection's records (`mooring_ids`), or objects with a field that names one
(`[{"mooring_id", "nights"}]`), or plain objects (`[{"pier", "metres"}]`); the parameter chosen holds at least half
of the line's fields (an element field's schema default fills what the element leaves out; an element named like its
record is in scope as `<record>_request`). Each line field is, in this order: a field of the element, of the record
it names, or of a record that one links (`pier_id` -> the pier); else a formula the docs give for it ("charge =
metres x the tier's berthing rate", "charge is ...", "charge (...)"), read as formula_rules.py reads the quote's own
figures, with the element's records in scope, or, for the one line figure left, "each line costs <formula>" (a
formula "..., but never more than <cap>, times quantity" is min(...) times the quantity). A trailing "doubled when
<value>" (halved, tripled, waived) applies when an enum parameter holds that value. "A pier levy is added unless
daytime" makes that line field a term of the line's own total, 0 for that value; a line total the docs give no
formula for (`berth_total`) adds the computed figures and those terms (a discount or rebate among them is taken
off). A total is the sum of a line field: `total_metres`, `metres_total`, a field that "totals the nights of all
visits" (or whose own description says "sum of ...", or "total = sum of line totals"), or `total` over the lines'
own totals. A list parameter whose every element field the line entries echo is the lines' source even when they
hold fewer than half of its fields; what lines read beyond their element and record (a band off the record's list,
a factor for a value, a record an element's code names, a sum across the call's lines, a copied field) is in
line_pricing.py, their refusals in line_checks.py.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from synth.envsynth.create_rules import _props
from synth.envsynth.figure_terms import param_default, spoken, stated_formulas
from synth.envsynth.formula_rules import _definition, operand, parse_formula
from synth.envsynth.line_checks import line_checks
from synth.envsynth.line_pricing import across_node, copied_field, element_links, modified, pick_node
from synth.envsynth.price_lists import price_lists, price_node
from synth.envsynth.returns_shape import ReturnedField
from synth.spec import ToolSpec
from synth.words import plural, singular, split_words

ELEMENT_KEYS = re.compile(r'"(\w+)"\s*:')  # an element written as JSON in the parameter's description
VALUE = r"(?:\s+(?:for|when|with|under|on|if))?\s+(?:an?\s+|the\s+)?([\w-]+)"
MODIFIER = re.compile(
    rf",?\s*(halved|doubled|tripled|waived|free)(?=\s+(?:for|when|with|under|on|if)\b){VALUE}\s*$", re.I
)
FACTORS = {"halved": 0.5, "doubled": 2, "tripled": 3, "waived": 0, "free": 0}
ADDED = re.compile(  # "A pier levy is added unless daytime"; not "is added to the balance"
    rf"(?:the\s+|an?\s+)?((?:\w+['\u2019]s\s+)?[\w ]{{2,40}}?)\s+is\s+added\b(?!\s+to\b)"
    rf"(?:\s+(?:except|unless){VALUE})?",
    re.I,
)
EACH_COSTS = re.compile(
    r"\beach\s+(?:line|entry|item)\s+(?:costs|is\s+charged|is\s+priced\s+at)\s+(.+?)(?:\.\s|\.$|$)", re.I | re.S
)
TOTAL_NAME = re.compile(r"^(?:sub)?total$|_total$|^total_|^amount$")
TAKEN_OFF = re.compile(r"discount|rebate|credit|deduct|reduction", re.I)
SUMMED = r"(?:is\s+the\s+(?:sum|total)\s+of|totals|adds\s+up|sums(?:\s+up)?)"


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
    if not props:  # an element written as JSON in the parameter's own description
        for key in ELEMENT_KEYS.findall(str(schema.get("description") or "")):
            props.setdefault(key, {})
    return props


def line_source(
    spec: ToolSpec, cols: dict[str, Any], entries: list[str], record_lists: dict[str, tuple[str, Any]] | None = None
) -> dict[str, Any] | None:
    """Where a quote's lines come from: the list parameter whose elements (or the records they name) hold the most
    of the line's fields, at least half of them; else (`record_lists`: {list field: (the parameter naming its record,
    its schema)}) such a list of the record the call names ("for each part on the job"); None when none does."""
    best, best_hits = None, 0
    lists = [(p, schema, None) for p, schema in (spec.parameters.get("properties") or {}).items()]
    lists += [(f, schema, holder) for f, (holder, schema) in sorted((record_lists or {}).items())]
    for p, schema, holder in lists:
        if best is not None and holder is not None:
            break  # the call's own list first
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
        echoed = key is not None and len(element) >= 2 and set(element) <= set(entries)  # every element field shown
        if hits > best_hits and (2 * hits >= len(entries) or echoed):
            best, best_hits = {"param": p, "key": key, "collection": col, "element": element, "links": links}, hits
            best.update({"holder": holder} if holder else {})
    return best


def _line_scope(outer: Any, source: dict[str, Any], cols: dict[str, Any]) -> tuple[Any, dict[str, str]]:
    """The outer quote's scope plus the line's own records, under names that say what they are."""
    scope = copy.copy(outer)
    scope.named, scope.fields = dict(outer.named), dict(outer.fields)
    if source["collection"]:  # inside a line, "the add-on" is the line's record, not the list parameter's records
        scope.named.pop(source["param"], None)
        scope.fields.pop(source["param"], None)
    scope.defined = list(outer.defined)
    names: dict[str, str] = {}  # role -> name in scope
    if source["element"]:
        names["element"] = singular(source["param"])
        scope.fields[names["element"]] = source["element"]
    if source["collection"]:
        names["record"] = singular(source["collection"])
        if names.get("element") == names["record"]:  # `addons: [{addon_id, quantity}]` over the `addons` records
            scope.fields.pop(names["element"])
            names["element"] += "_request"
            scope.fields[names["element"]] = source["element"]
        scope.fields[names["record"]] = _props(cols, source["collection"])
    for f, col in source["links"].items():
        scope.fields[f] = _props(cols, col)
    clash = set(names.values()) | set(source["links"])
    if clash & set(outer.params) or len(clash) < len(names) + len(source["links"]):
        return None, {}
    return scope, names


def _definitions(name: str, spec: ToolSpec) -> list[str]:
    """The texts the docs give for a line field: a clause "charge is ..." or "charge = ...", else "charge (...)",
    else "the <figure> is worked out for each <element> (...)"."""
    per_line = rf"\b{spoken(name)}\s+(?:is|are)\s+(?:computed|calculated|worked\s+out|charged)\s+(?:per|for\s+each)\s+"
    per_line += r"[\w-]+\s*\(([^()]{3,120})\)"
    found = [m.group(1) for m in re.finditer(per_line, spec.description, re.I)]
    return stated_formulas(name, spec.description) + _definition(name, spec, "") + found


def _of_another(name: str, text: str, docs: str, figures: list[str]) -> bool:
    """Whether the docs give this text for another figure whose name ends in this one's (`base_charge`)."""
    said = rf"\b([\w-]+)\s+{spoken(name)}\s*(?:=|\s+is\s+)\s*{re.escape(text[:30])}"
    return any(f"{m.group(1).lower()}_{name}" in figures for m in re.finditer(said, docs, re.I))


def _by_value(spec: ToolSpec, value: str, factor: float) -> dict[str, Any] | None:
    """A factor that applies when the one enum parameter holding `value` holds it (1 otherwise)."""
    props = spec.parameters.get("properties") or {}
    holders = [p for p, s in props.items() if isinstance(s, dict) and value in (s.get("enum") or [])]
    if len(holders) != 1:
        return None
    when = {"arg": holders[0], "default": param_default(props[holders[0]]), "in": [value]}
    return {"when": when, "then": {"num": factor}, "else": {"num": 1}}


def _with_modifier(text: str, spec: ToolSpec, scope: Any) -> dict[str, Any] | None:
    """A formula, with a trailing "doubled when <value>" applying when an enum parameter holds that value."""
    m = MODIFIER.search(text)
    if not m:
        return parse_formula(text, scope)
    inner = parse_formula(text[: m.start()], scope)
    factor = _by_value(spec, m.group(2), FACTORS[m.group(1).lower()])
    return {"op": "*", "args": [inner, factor]} if inner is not None and factor is not None else None


def line_node(field: ReturnedField, spec: ToolSpec, outer: Any, cols: dict[str, Any]) -> dict[str, Any] | None:
    """The `lines` node of a list field of the answer, or None when any of its entries' fields is unknown."""
    entries = [e.name for e in field.entries]
    record_lists = {
        f: (p, schema)
        for p in outer.named
        for f, schema in sorted((outer.fields.get(p) or {}).items())
        if isinstance(schema, dict) and schema.get("type") == "array" and f not in outer.params
    }
    source = line_source(spec, cols, entries, record_lists) if entries and not field.keyed_by else None
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
    elinks = _element_links(source, scope, names, cols) if "element" in names else {}
    steps.update(_read_off(entries, steps, spec, scope, source, names))  # a tier picked, a sum across lines, a copy
    lists = price_lists(outer.docs)
    for name in [n for n in entries if n not in steps]:  # a column of a price list, at the element's value
        node = price_node(name, {h: scope.fields.get(h, {}) for h in holders if h}, lists)
        if node is not None:
            steps[name] = node
    scope.defined += list(steps)
    for _ in range(len(entries)):
        for name in [n for n in entries if n not in steps]:
            for text in _definitions(name, spec):
                if _of_another(name, text, spec.description, outer.defined):
                    continue  # "Base charge = daily rate x days" defines `base_charge`, not the line's `charge`
                if any(re.search(rf"\b{o}\b", text) for o in entries if o != name and o not in steps):
                    continue  # "berth_cost + service_cost": the other figure is found first
                own = {h: scope.fields.get(h, {}) for h in holders[:1] if h}
                node = modified(
                    text, own, lambda t: parse_formula(t, scope), scope.params
                )  # "x 1.5 when ... (hulls = 2)"
                node = node or _with_modifier(text, spec, scope)
                if node is not None:
                    steps[name] = node
                    scope.defined.append(name)
                    break
    left = [n for n in entries if n not in steps]
    costs = EACH_COSTS.search(spec.description)
    each = re.search(
        rf"\b{spoken(field.name)}\s*\(([^()]+?)\s+(?:for|per)\s+(?:each|every)\s+[\w-]+[^()]*\)", spec.description
    )
    costs = costs or each  # "parts (unit price x quantity for each part on the job)"
    if len(left) == 1 and costs:  # "each line costs daily price x days per unit, ...": the one figure left
        node = _with_modifier(costs.group(1), spec, scope)
        steps.update({left[0]: node} if node is not None else {})
    if not _added_terms(spec, scope, steps, entries) or len(steps) != len(entries):
        return None
    linked = {f: scope.fields.get(f, {}) for f in elinks}
    checks = line_checks(
        spec.description, source["element"], names, scope.fields.get(names.get("record", ""), {}), linked
    )
    if source.get("holder") and not any({"op", "round", "when"} & set(node) for node in steps.values()):
        return None  # the record's own list, each line computing nothing: the list as it is stored
    return {
        "lines": {
            "param": source["param"],
            **({"holder": source["holder"]} if source.get("holder") else {}),
            "key": source["key"],
            "collection": source["collection"],
            "names": names,
            "links": source["links"],
            "steps": [[n, steps[n]] for n in entries],
            "fields": entries,
            "defaults": {f: sch["default"] for f, sch in source["element"].items() if "default" in (sch or {})},
            **({"element_links": elinks} if elinks else {}),
            **({"checks": checks} if checks else {}),
        }
    }


def _element_links(source: dict[str, Any], scope: Any, names: dict[str, str], cols: dict[str, Any]) -> dict[str, str]:
    """The records the element's own fields name (line_pricing.element_links), put in the line's scope."""
    links = {f: c for f, c in element_links(source["element"], cols, scope.sample).items() if f not in scope.fields}
    for field, col in links.items():
        scope.fields[field] = _props(cols, col)
    return links


def _read_off(
    entries: list[str], steps: dict[str, Any], spec: ToolSpec, scope: Any, source: dict[str, Any], names: dict[str, str]
) -> dict[str, Any]:
    """Line fields read off the record's list, the call's whole list, or the sample's stored lines."""
    out: dict[str, Any] = {}
    record = names.get("record")
    for name in [n for n in entries if n not in steps and record]:
        node = pick_node(name, spec.description, record, scope.fields.get(record, {}), lambda p: operand(p, scope))
        node = node or (
            across_node(name, spec.description, source, record, names["element"])
            if "element" in names and not source.get("holder")
            else None
        )
        node = node or (copied_field(name, source, scope.sample, record) if not _definitions(name, spec) else None)
        out.update({name: node} if node is not None else {})
    return out


def _added_terms(spec: ToolSpec, scope: Any, steps: dict[str, dict[str, Any]], entries: list[str]) -> bool:
    """Terms of a line's own total ("A pier levy is added unless daytime": 0 for that value), then a line total the
    docs give no formula for; False when an exception names a value no enum parameter holds."""
    added: list[str] = []
    for m in ADDED.finditer(spec.description):
        node = operand(m.group(1), scope)
        named = [n for n, step in steps.items() if node is not None and (step == node or node == {"val": n})]
        if len(named) != 1:
            continue
        added.append(named[0])
        if m.group(2):
            exempt = _by_value(spec, m.group(2), 0)
            if exempt is None:
                return False
            steps[named[0]] = {"op": "*", "args": [steps[named[0]], exempt]}
    computed = [n for n in entries if n in steps and any(k in steps[n] for k in ("op", "round", "when"))]
    for name in [n for n in entries if n not in steps and TOTAL_NAME.search(n)]:
        terms = [n for n in entries if n in computed or n in added]
        if terms:
            node: dict[str, Any] = {"val": terms[0]}
            for term in terms[1:]:
                node = {"op": "-" if TAKEN_OFF.search(term) else "+", "args": [node, {"val": term}]}
            steps[name] = {"round": node, "digits": 2, "way": "nearest"}
    return True


def sum_node(name: str, own: str, lines: dict[str, list[str]], text: str = "") -> dict[str, Any] | None:
    """A total over a line field: `total_nights`, `nights_total`, a field that "totals the nights of all visits"
    (in the tool's description) or whose own description says "sum of the nights", `total` over the lines' own
    totals."""
    told = re.search(rf"\b{spoken(name)}(?:\s+{SUMMED}|\s*=\s*(?:the\s+)?(?:sum|total)\s+of)\s+([\w' ]+)", text, re.I)
    said = told.group(1) if told else (re.search(r"\b(?:sum|total)\s+of\s+([\w' ]+)", own, re.I) or [None, ""])[1]
    words = split_words(name)
    for lines_field, fields in lines.items():
        wanted = [singular(w) for w in split_words(str(said).replace("'s", ""))]
        wanted += ["_".join(wanted)] if len(wanted) > 1 else []  # "sum of line totals": `line_total`
        if len(words) > 1 and words[0] == "total":
            wanted.append("_".join(words[1:]))
        if len(words) > 1 and words[-1] == "total":
            wanted.append("_".join(words[:-1]))
        if name == "total":  # over the lines' own totals
            wanted += [f for f in fields if TOTAL_NAME.search(f)][:1]
        for want in wanted:
            hit = [f for f in fields if f in (want, plural(want), singular(want))]
            if len(hit) == 1:
                return {"sum": lines_field, "of": hit[0]}
    return None


def lines_total(name: str, steps: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """`addons_total` over the `addons` lines: the sum of the one line figure they compute."""
    for k, step in steps.items():
        computed = [n for n, node in (step.get("lines") or {}).get("steps", []) if "field" not in node]
        if name in (f"{k}_total", f"total_{k}") and len(computed) == 1:
            return {"sum": k, "of": computed[0]}
    return None


__all__ = ["line_node", "line_source", "lines_total", "sum_node"]
