"""A status change whose docs use a figure of a sibling read: the read that computes figures from the call's
parameters (quote_reuse.sibling_quotes), named in the change's docs, is computed first, from the state the call
finds, and
- a number field of the record that "is set to" (or "becomes", "=") that figure ("the toll", "that toll", "the new
  toll") takes it;
- a sentence that needs, requires, must have or works only when/if the figure is above, over, more than, greater
  than, at least or below a number refuses the call when the figure falls short;
- an entry the change appends that reads a field the change sets reads the figure (the value the field gets).
A need of "at least one <entry>" of a list field the record holds refuses the call on an empty list (`filled`).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from synth.envsynth.docs_appends import is_number
from synth.envsynth.figure_terms import spoken
from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import unwrap
from synth.envsynth.quote_reuse import fits_parameters
from synth.spec import ToolSpec
from synth.words import entry_words

SENTENCES = re.compile(r"(?<=[.;!?])\s+|\n")
COMPARE = {"above": ">", "over": ">", "more than": ">", "greater than": ">", "at least": ">=", "below": "<"}
NEEDS = re.compile(r"\b(?:needs?|requires?|must|only\s+(?:when|if))\b", re.I)


def _spoken(name: str) -> str:
    return rf"`?{spoken(name)}`?"


def _computed(quote: dict[str, Any]) -> list[str]:
    """The figures the sibling answers, in the order it computes them."""
    return [name for name, node in quote["steps"] if name in quote["fields"] and isinstance(node, dict)]


def _named(sibling: str, text: str) -> bool:
    return bool(re.search(rf"(?<![\w-]){re.escape(sibling)}(?![\w-])", text))


def figure_sets(text: str, figures: list[str], numbers: list[str]) -> dict[str, str]:
    """{record field: figure} for every "<field> is set to (that | the | this | the new) <figure>" (or "is the
    quoted <figure>", or "<field> (the <sibling> <figure> ...)")."""
    out = {}
    for field in numbers:
        for figure in figures:
            said = rf"\b{_spoken(field)}\s+(?:is\s+set\s+to|becomes|=|is)\s+(?:(?:that|the|this|its)\s+)?"
            said += r"(?:(?:new|quoted|computed|estimated)\s+)?"  # "`fee` is the quoted total (see `quote_fee`)"
            bracket = rf"\b{_spoken(field)}\s*\(\s*(?:the|its)\s+(?:`?[\w-]+`?\s+)?{_spoken(figure)}\b"
            if re.search(said + rf"{_spoken(figure)}\b", text, re.I) or re.search(bracket, text, re.I):
                out[field] = figure  # or "records the cost (the `estimate_job` total for those hours)"
    return out


def figure_guards(text: str, figures: list[str]) -> list[dict[str, Any]]:
    """[{figure, op, value}] for every sentence that needs (requires, must have) a figure above (or at least) a
    number: the need comes first ("requires a toll above 0"), not the figure ("a toll above 500 requires ...")."""
    out = []
    for sentence in SENTENCES.split(text):
        need = NEEDS.search(sentence)
        if not need:
            continue
        sentence = sentence[need.end() :]
        for figure in figures:
            words = "|".join(sorted(COMPARE, key=len, reverse=True))
            found = re.search(
                rf"\b{_spoken(figure)}\b(?:\s*\([^()]{{0,80}}\))?\s+(?:of\s+)?({words})\s+(-?\d+(?:\.\d+)?)\b",
                sentence,
                re.I,
            )
            if found:
                value = float(found.group(2))
                out.append({"figure": figure, "op": COMPARE[found.group(1).lower()], "value": value})
    return out


LIMITED = re.compile(r"\b(?:limited\s+to|capped\s+at|at\s+most|no\s+more\s+than)\s+(\d+(?:\.\d+)?)\s+`?(\w+)`?", re.I)


def spec_guards(spec: ToolSpec, figures: list[str], today: str | None) -> list[dict[str, Any]]:
    """The guards a tool's own description puts on its figures ("limited to 14 nights") and its date parameters
    ("the arrival date must not be before the business date")."""
    params = spec.parameters.get("properties") or {}
    dates = [p for p, s in params.items() if isinstance(s, dict) and s.get("format") == "date"]
    return limit_guards(spec.description, figures) + range_guards(spec.description, figures, dates, today)


def limit_guards(text: str, figures: list[str]) -> list[dict[str, Any]]:
    """[{figure, op: "<=", value}] for every "limited to N <figure>" ("stays are limited to 14 nights"): a quote
    whose figure goes past it is refused."""
    out = []
    for m in LIMITED.finditer(text):
        guard = {"figure": m.group(2), "op": "<=", "value": float(m.group(1))}
        if m.group(2) in figures and guard not in out:
            out.append(guard)
    return out


BETWEEN = re.compile(r"\bbetween\s+(\d+(?:\.\d+)?)\s+and\s+(\d+(?:\.\d+)?)\s+`?(\w+)`?", re.I)
NOT_BEFORE = re.compile(
    r"\b`?(\w+(?:\s\w+)?)`?\s+(?:may|must|can)\s*not\s+be\s+(?:before|earlier\s+than|in\s+the\s+past)"
    r"(?:\s+(?:the\s+)?(?:business\s+date|today))?",
    re.I,
)


def _date_named(words: str, dates: list[str]) -> str:
    """The date parameter a phrase names: by its name, or "the arrival date" for the one of two whose name says it
    starts the span (date_spans' start words; the first of the two when neither name says), "the departure" for the
    other."""
    from synth.envsynth.date_spans import ENDS, STARTS

    name = "_".join(words.lower().split())
    said = set(name.split("_")) - {"date", "day"}
    if name in dates or len(dates) != 2 or not said or not said <= (STARTS | ENDS):
        return name
    starting = [d for d in dates if set(d.lower().split("_")) & STARTS] or dates[:1]
    ending = [d for d in dates if d not in starting]
    return (starting if said <= STARTS else ending)[0] if len(starting) == 1 and len(ending) == 1 else name


def range_guards(text: str, figures: list[str], dates: list[str], today: str | None) -> list[dict[str, Any]]:
    """Guards for "Between 1 and 30 days" (a figure's bounds) and "the start date may not be before the business
    date" (a date parameter, compared as day numbers with the docs' business date)."""
    from synth.envsynth.date_runtime import fg_day_number

    out = []
    for m in BETWEEN.finditer(text):
        if m.group(3) in figures:
            out += [{"figure": m.group(3), "op": op, "value": float(m.group(i))} for op, i in ((">=", 1), ("<=", 2))]
    for m in NOT_BEFORE.finditer(text):
        name = _date_named(m.group(1), dates)
        if name in dates and today and fg_day_number(today) is not None:
            out.append({"figure": name, "op": ">=", "value": fg_day_number(today), "date": True})
    return out


def filled_checks(text: str, record_props: dict[str, Any]) -> list[dict[str, Any]]:
    """A `filled` check for each list field the docs need "at least one" entry of ("requires at least one hand")."""
    out = []
    for field in sorted(record_props):
        if not isinstance(record_props[field], dict) or record_props[field].get("type") != "array":
            continue
        spoken = rf"(?:{re.escape(entry_words(field))}|{re.escape(field.replace('_', ' '))}|`?{re.escape(field)}`?)"
        if re.search(rf"\b(?:needs?|requires?|must\s+have)\s+at\s+least\s+one\s+{spoken}\b", text, re.I):
            out.append({"op": "filled", "field": field})
    return out


def _reads_field(source: dict[str, Any], fields: dict[str, str]) -> str | None:
    """The set field a source reads as it is (_to_figure looks inside texts and fixed-decimals numbers)."""
    if source.get("from") == "record" and len(source.get("path") or []) == 1 and source["path"][0] in fields:
        return source["path"][0]
    return None


def _to_figure(source: dict[str, Any], fields: dict[str, str]) -> dict[str, Any]:
    field = _reads_field(source, fields)
    if field is not None:
        return {"from": "figure", "name": fields[field]}
    if source.get("from") == "fixed":
        return {**source, "of": _to_figure(source["of"], fields)}
    if source.get("from") == "concat":
        return {**source, "parts": [_to_figure(p, fields) if isinstance(p, dict) else p for p in source["parts"]]}
    if source.get("from") == "given":
        return {**source, "test": _to_figure(source["test"], fields), "then": _to_figure(source["then"], fields)}
    return source


BY_THAT = re.compile(
    r"\bthe\s+(\w+)['\u2019]s\s+`?([\w ]{1,40}?)`?\s+"
    r"(increases|grows|rises|goes\s+up|decreases|drops|falls|goes\s+down)\s+by\s+(?:that|this|the\s+same)\s+(?:amount|figure|sum|fee|total|charge)\b",
    re.I,
)


def figure_moves(
    text: str, sets: dict[str, str], record_props: dict[str, Any], cols: dict[str, Any]
) -> list[dict[str, Any]]:
    """`adjust` effects for "the <noun>'s `balance` increases by that amount" after the one figure the change sets:
    the number of the record the noun names (through the record's link to it) moves by the figure."""
    from synth.envsynth.cancel_returns import number_named
    from synth.envsynth.create_checks import noun_link
    from synth.envsynth.create_rules import _props

    if len(set(sets.values())) != 1:
        return []
    figure = {"from": "figure", "name": next(iter(sets.values()))}
    out = []
    for m in BY_THAT.finditer(text):
        link = noun_link(m.group(1), record_props, cols)
        target = number_named(m.group(2), _props(cols, link[1])) if link else None
        if link and target:
            falls = m.group(3).lower().split()[0] in ("decreases", "drops", "falls") or "down" in m.group(3).lower()
            zero = {"from": "const", "value": 0}
            delta = {"from": "difference", "new": zero, "old": figure} if falls else figure
            path = [{"from": "record", "path": [link[0]]}, {"from": "const", "value": target}]
            out.append({"op": "adjust", "collection": link[1], "path": path, "delta": delta})
    return out


def priced_change(
    spec: ToolSpec,
    plan: ToolPlan,
    text: str,
    record_props: dict[str, Any],
    specs: list[ToolSpec],
    quotes: dict[str, Any],
    cols: dict[str, Any] | None = None,
) -> ToolPlan:
    """A recorded_update plan with the sibling's figures it reads (quote, figure sets and guards), and the
    `filled` checks its text asks for; the plan unchanged when the text uses none."""
    if plan.kind != "recorded_update":
        return plan
    text = unwrap(text)
    checks = [c for c in filled_checks(text, record_props) if c not in plan.checks]
    by_name = {s.name: s for s in specs}
    numbers = sorted(f for f, s in record_props.items() if is_number(s))
    priced: dict[str, Any] = {}
    sets: dict[str, str] = {}
    for name in sorted(quotes):
        sibling = by_name.get(name)
        wrapped = fits_parameters(spec, sibling) if sibling is not None and name != spec.name else None
        if wrapped is None or not _named(name, text):
            continue
        figures = _computed(quotes[name])
        sets = figure_sets(text, figures, numbers)
        guards = figure_guards(text, figures)
        if sets or guards:
            priced = {**quotes[name], "fields": [], "assign": {}, "states": {}, "guards": guards, "wrap": wrapped}
            break
    if not priced and not checks:
        return plan
    kept = [copy.deepcopy(e) for e in plan.effects if not (e.get("op") == "set" and e.get("field") in sets)]
    for effect in kept:  # an entry that reads a field the change sets reads the value it gets
        for rule in effect.get("items", []) if effect.get("op") == "append" else []:
            if "fields" in rule:
                rule["fields"] = {k: _to_figure(v, sets) for k, v in rule["fields"].items()}
    effects = [{"op": "set", "field": f, "source": {"from": "figure", "name": g}} for f, g in sorted(sets.items())]
    effects += figure_moves(text, sets, record_props, cols or {}) + kept
    evidence = plan.evidence + (
        [f"figures of a sibling read: {', '.join(sorted(sets)) or 'guards only'}"] if priced else []
    )
    if checks:
        evidence.append("needs entries: " + ", ".join(c["field"] for c in checks))
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "quote": priced,
            "effects": effects,
            "checks": list(plan.checks) + checks,
            "evidence": evidence,
        }
    )


def priced_plan(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    specs: list[ToolSpec],
    quotes: dict[str, Any],
    text: str,
    today: str | None = None,
    sample: dict[str, Any] | None = None,
) -> ToolPlan:
    """priced_change on a status change, or on each value's change of a `by_mode` plan (read from the text every
    value shares and its own segment, as mode_rules reads it); then the objects, amounts and late fees a status
    change's docs define (`today`: the business date the docs and policy state), and the charges it itemizes
    (charge_items.py; `sample`: the sample state, whose records' breakdowns the figures must reproduce)."""
    from synth.envsynth.charge_items import with_itemized_charges
    from synth.envsynth.defined_amounts import with_defined_amounts
    from synth.envsynth.docs_entries import business_date
    from synth.envsynth.issued_objects import issued_object
    from synth.envsynth.late_fees import with_late_fee
    from synth.envsynth.mode_rules import mode_segments, value_text
    from synth.envsynth.state_fees import with_state_fee

    col = (state_schema.get("properties") or {}).get(plan.collection or "") or {}
    own = ((col.get("additionalProperties") or {}).get("properties") or {}) if isinstance(col, dict) else {}
    if plan.kind == "recorded_update":
        cols = state_schema.get("properties") or {}
        plan = priced_change(spec, plan, text, own, specs, quotes, cols)
        plan = issued_object(spec, plan, text, own, specs, quotes, cols)  # a docket the change issues (issued_objects)
        plan = with_defined_amounts(plan, text, state_schema)  # "the refund is the fee in full if ..., otherwise half"
        params = spec.parameters.get("properties") or {}
        plan = with_late_fee(plan, text, state_schema, params, today or business_date(text))  # "Late-cancellation fee"
        plan = with_state_fee(
            spec, plan, text, state_schema, sample or {}, today or business_date(text)
        )  # "- x: fee = "
        return with_itemized_charges(plan, text, state_schema, params, today or business_date(text), sample)
    found = mode_segments(spec) if plan.kind == "by_mode" else None
    if found is None:
        return plan
    _, segments, shared = found
    modes = {}
    for value, mode in plan.modes.items():
        sub = ToolPlan.from_dict(mode["plan"])
        if value in segments:
            sub = priced_change(
                spec, sub, value_text(shared, value, list(segments)) + "\n" + segments[value], own, specs, quotes
            )
        modes[value] = {**mode, "plan": sub.to_dict()}
    return ToolPlan.from_dict({**plan.to_dict(), "modes": modes})


__all__ = [
    "figure_guards",
    "figure_moves",
    "figure_sets",
    "filled_checks",
    "limit_guards",
    "priced_change",
    "priced_plan",
]
