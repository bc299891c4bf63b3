"""A list of lines the call adds to or takes from by an argument's value (mode_rules.mode_segments):

    action "add" (requires boat_id and crew 1-12): appends a new line numbered after the highest existing line_no.
    The title and day_rate are copied from the catalogue. Only fitted boats (`needs_refit` false) can be added; the
    skipper's banned list is checked against the boat's rig.
    action "remove" (requires line_no): deletes that line. The lead line (`lead` true, line 1) cannot be removed.
    Charter totals (subtotal, balance) are recalculated and a line_added / line_removed entry is written.

makes a `by_mode` plan. The adding value appends a line: its number one past the highest, the arguments of the same
name, the fields "copied from" the record the argument names (`boat_id` -> boats), and the rest learned from the
lines the sample records gained after their first: a value they all share, the product of two other fields
(`line_total`), the named record's fields joined by a space ("Swift 8 m sloop"). It is refused for a named record
whose yes/no field is not the stated value, and when a value of that record is on the list of the record the
call's record links ("the skipper's banned list is checked against the boat's rig"). The removing value deletes
the line whose number the argument gives (refused when none has it, or when it holds the flag the docs protect).
Both log their own kind of the entry pair (object_toggle) and recompute the totals the docs name: a sum over the
lines every sample record agrees with, then an equation some tool's docs give ("balance = subtotal - paid").
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _props
from synth.envsynth.docs_entries import business_date, named_entries
from synth.envsynth.expr_runtime import fg_number
from synth.envsynth.list_toggle import toggle_values
from synth.envsynth.mode_rules import by_mode_plan
from synth.envsynth.object_toggle import _kind_text
from synth.envsynth.opening_lines import _joined, equations, signed
from synth.envsynth.plan import ToolPlan
from synth.envsynth.text_clauses import replaced_sources
from synth.spec import ToolSpec, field_by_words, known_values, list_by_words
from synth.words import singular

NEW_LINE = re.compile(
    r"\bappends?\s+a\s+new\s+(\w+)\s+numbered\s+after\s+the\s+highest\s+(?:existing\s+)?`?(\w+)`?", re.I
)
COPIED = re.compile(r"\bThe\s+`?(\w+)`?\s+and\s+`?(\w+)`?\s+are\s+copied\s+from\b", re.I)
ONLY = re.compile(r"\(`?(\w+)`?\s+(true|false)\)\s+can\s+be\s+added", re.I)
CHECKED = re.compile(
    r"\bthe\s+\w+['\u2019]s\s+([\w ]+?)\s+list\s+is\s+checked\s+against\s+the\s+\w+['\u2019]s\s+([\w ]+)", re.I
)
KEPT = re.compile(r"\(`?(\w+)`?\s+true\b[^()]*\)\s+cannot\s+be\s+removed", re.I)
NEEDS = re.compile(r"^\(requires\s+([^()]*)\)")
WHILE = re.compile(r"\bcan\s+only\s+be\s+\w+\s+while\s+it\s+is\s+`?([\w-]+)`?", re.I)
BARE_PAIR = re.compile(r"\b([a-z]+_[a-z]+)\s*/\s*([a-z]+_[a-z]+)\b(?=\s+\w+\s+entr)")  # "a_added / a_removed entry"
TOTALS = re.compile(r"\(([\w ,]+)\)\s+are\s+re(?:calculated|computed)", re.I)


def _plain_source(sub: str, values: list[Any], ctx: dict[str, Any]) -> dict[str, Any] | None:
    """A field of the new line that is its number, an argument, a copied field or a value every sample shares."""
    if sub == ctx["number"]:
        return {"from": "next_number", "list": ctx["list"], "field": sub}
    if sub in ctx["params"]:
        return {"from": "arg", "name": sub}
    if sub in ctx["copied"]:
        return {"from": "named", "collection": ctx["collection"], "arg": ctx["arg"], "field": sub}
    if len(values) >= 2 and all(v == values[0] for v in values):
        return {"from": "const", "value": values[0]}
    return None


def _line_sources(entries: list[dict[str, Any]], ctx: dict[str, Any]) -> dict[str, Any] | None:
    """{field: source} of the new line, or None when a field reads as nothing: the plain ones, then a product of
    two of them, then the named record's fields joined."""
    out = {sub: _plain_source(sub, [e.get(sub) for e in entries], ctx) for sub in ctx["props"]}
    for sub in [s for s, src in out.items() if src is None]:
        values = [e.get(sub) for e in entries]
        pairs = [(a, b) for a in out for b in out if a < b and out[a] and out[b] and a != sub and b != sub]
        product = [
            (a, b)
            for a, b in pairs
            if entries
            and all(fg_number(e.get(a)) and fg_number(e.get(b)) and fg_number(e.get(sub)) for e in entries)
            and all(abs(e[a] * e[b] - e[sub]) < 0.005 for e in entries)
        ]
        if len(product) == 1:
            out[sub] = {"from": "product", "of": [out[product[0][0]], out[product[0][1]]], "digits": 2}
            continue
        named = [(ctx["catalogue"] or {}).get(str(e.get(ctx["arg"]))) for e in entries]
        joined = _joined(values, named) if values and all(isinstance(v, str) for v in values) else None
        if not joined:
            return None
        parts: list[Any] = []
        for k in joined:
            parts += [" "] if parts else []
            parts.append({"from": "named", "collection": ctx["collection"], "arg": ctx["arg"], "field": k})
        out[sub] = {"from": "concat", "parts": parts}
    return out


def _logged_values(logged: list[dict[str, Any]], swap: Any) -> list[dict[str, Any]]:
    """The entries' sources with the parts `swap` answers for replaced."""
    for rule in (r for e in logged for r in e.get("items") or []):
        rule["fields"] = replaced_sources(rule["fields"], swap)
    return logged


def _sums_to(record: dict[str, Any], field: str, sub: str, name: str) -> bool:
    """The record's number `name` is the sum of `sub` over the entries of its list `field`."""
    entries = record.get(field)
    if not isinstance(entries, list) or not fg_number(record.get(name)):
        return False
    terms = [e.get(sub) for e in entries if isinstance(e, dict)]
    return all(fg_number(t) for t in terms) and abs(sum(terms) - record[name]) < 0.005


def _totals(text: str, glossary: str, own: dict[str, Any], field: str, records: list[dict]) -> list[list[Any]]:
    """[field, formula node] steps recomputing the totals the docs name: sums over the lines, then equations."""
    said = TOTALS.search(text)
    names = [n.strip() for n in said.group(1).split(",")] if said else []
    items = ((own.get(field) or {}).get("items") or {}).get("properties") or {}
    steps: list[list[Any]] = []
    for name in [n for n in names if n in own]:
        sums = [s for s in items if records and all(_sums_to(r, field, s, name) for r in records)]
        if len(sums) == 1:
            steps.append([name, {"round": {"sum": field, "of": sums[0]}, "digits": 2, "way": "nearest"}])
    done = {n for n, _ in steps}
    for left, terms in equations(glossary):
        if left in names and left not in done and all(t in own for _, t in terms) and done & {t for _, t in terms}:
            node = signed({"val": terms[0][1]}, [(sign, {"val": term}) for sign, term in terms[1:]])
            steps.append([left, {"round": node, "digits": 2, "way": "nearest"}])
            done.add(left)
    return steps


def line_toggle(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    records: list[dict[str, Any]],
    policy: str = "",
    sample: dict[str, Any] | None = None,
    glossary: str = "",
) -> ToolPlan | None:
    """The `by_mode` plan of a line toggle, or None when the docs describe no such pair of values."""
    found = toggle_values(spec, plan, state_schema)
    if found is None:
        return None
    param, segments, shared, adding, dropping, own = found
    new = NEW_LINE.search(segments[adding])
    lists = [
        f
        for f, s in own.items()
        if new and singular(f).endswith(new.group(1).lower()) and (s or {}).get("type") == "array"
    ]
    items = ((own.get(lists[0]) or {}).get("items") or {}).get("properties") or {} if len(lists) == 1 else {}
    params = spec.parameters.get("properties") or {}
    cols = state_schema.get("properties") or {}
    naming = [s for s, schema in items.items() if (schema or {}).get("x-references") in cols and s in params]
    if not items or not new or new.group(2) not in items or len(naming) != 1 or new.group(2) not in params:
        return None
    field, number, arg = lists[0], new.group(2), naming[0]
    catalogue_col = items[arg]["x-references"]
    copied = COPIED.search(segments[adding])
    entries = [e for r in records for e in (r.get(field) or [])[1:] if isinstance(e, dict)]  # lines added later
    ctx = {
        "number": number,
        "list": field,
        "params": [p for p in items if p in params and p not in (number, param)],
        "copied": [c for c in (copied.groups() if copied else ()) if c in _props(cols, catalogue_col)],
        "collection": catalogue_col,
        "arg": arg,
        "props": list(items),
        "catalogue": (sample or {}).get(catalogue_col) if isinstance((sample or {}).get(catalogue_col), dict) else {},
    }
    line = _line_sources(entries, ctx)
    if line is None:
        return None
    only = ONLY.search(segments[adding])
    requires = (
        {arg: {only.group(1): [only.group(2).lower() == "true"]}}
        if only and only.group(1) in _props(cols, catalogue_col)
        else {}
    )
    checks: list[dict[str, Any]] = []
    checked = CHECKED.search(segments[adding])
    if checked:
        holders = [
            (f, s["x-references"], lst)
            for f, s in own.items()
            if isinstance(s, dict) and s.get("x-references") in cols
            for lst in [list_by_words(checked.group(1), _props(cols, s["x-references"]))]
            if lst
        ]
        value = field_by_words(checked.group(2), _props(cols, catalogue_col))
        if len(holders) != 1 or value is None:
            return None
        via, holder_col, lst = holders[0]
        checks.append(
            {"op": "named_not_listed", "collection": catalogue_col, "arg": arg, "field": value}
            | {"holder": holder_col, "via": via, "list": lst}
        )
    kept = KEPT.search(segments[dropping])
    drop_checks = []
    if kept and kept.group(1) in items:
        drop_checks.append(
            {"op": "entry_refused", "list": field, "match": number, "arg": number, "field": kept.group(1), "in": [True]}
        )
    totals = _totals(shared, glossary, own, field, records)
    today = business_date(spec.description + "\n" + policy)
    noun = singular(plan.collection or "")
    while_in = WHILE.search(spec.description)
    states = {f: [while_in.group(1)] for f, sch in own.items() if while_in and while_in.group(1) in known_values(sch)}
    base = {**plan.to_dict(), "kind": "recorded_update", "ref_checks": {arg: catalogue_col}, "ref_requires": requires}
    base["preconditions"] = {**plan.preconditions, **states}
    modes = {}
    for value, effect, own_checks in (
        (adding, {"op": "append", "field": field, "items": [{"fields": line}]}, checks),
        (
            dropping,
            {"op": "entry_drop", "field": field, "match": number, "arg": number, "caseless": False},
            drop_checks,
        ),
    ):
        needed = NEEDS.search(segments[value])
        needs = [w for w in re.findall(r"\w+", needed.group(1)) if w in params] if needed else []
        said = _kind_text(BARE_PAIR.sub(r"`\1` / `\2`", spec.description), value)
        logged = named_entries(
            said, noun, own, spec.parameters, records, today, field, removed=effect["op"] == "entry_drop"
        )
        logged = [e for e in logged if e["field"] != field]
        if effect["op"] == "entry_drop":  # what the entry shows of the line is the line as it was
            gone = lambda v: {"from": "dropped", "index": 0, "field": v["name"]}  # noqa: E731
            logged = _logged_values(
                logged, lambda v: gone(v) if v.get("from") == "arg" and v.get("name") in set(items) - {number} else None
            )
        else:  # the new line's values, worked out as the line's own are (before it is appended)
            logged = _logged_values(logged, lambda v: line.get(v["field"]) if v.get("from") == "new_element" else None)
        effects = [effect] + logged + ([{"op": "derive", "named": {}, "steps": totals}] if totals else [])
        mode = {**base, "effects": effects, "checks": own_checks}
        if value == dropping:
            mode.update(ref_checks={}, ref_requires={})
        modes[value] = {"plan": mode, "requires": needs}
    return by_mode_plan(plan, param, modes, states, f"lines added to or taken from `{field}` by `{param}`")


__all__ = ["line_toggle"]
