"""A late-cancellation fee, taken out of what the record holds and the rest refunded: "Late-cancellation fee: one
day at the berthing's daily rate when the reason is `skipper_request` or `no_show` and the start date is less than
2 days away. Gold members never pay it. The fee is taken out of the held deposit (as far as the deposit reaches);
the rest of the deposit is refunded to the skipper's `credit`. Effects: status `cancelled`, a `cancellation` block
(reason, fee, deposit_refunded), `deposit_held` set to 0."

- The fee: "one <unit> at the <noun>'s <rate words>" is that number of the record; it is due when every condition
  holds: "the <parameter> is `a` or `b`" (the argument's value), "the <date words> is less than N days away" (that
  date of the record is fewer than N days after the business date); "<Value> members never pay it" waives it for
  records holding that value.
- "taken out of the held deposit (as far as the deposit reaches)": the fee charged is at most that number of the
  record (`fee`); "the rest of the deposit is refunded to the <noun>'s `<field>`": that number of the linked record
  grows by the rest (`refund`).
- "a `<object>` block (a, b, c)": the record's object field takes the argument of a key's name, the fee, and the rest
  for the one number key left; "`<field>` set to <number>" sets that number.
Figures are computed first on the record as found (a `quote` of the change), like defined_amounts.py's.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_checks import noun_link
from synth.envsynth.docs_appends import is_number
from synth.envsynth.entry_texts import with_new_values
from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import unwrap
from synth.spec import known_values
from synth.spec import record_props as _props
from synth.words import singular

FEE = re.compile(
    r"\blate[- ]cancell?ation\s+fee\s*:\s*one\s+(?:day|week|hour|period)\s+at\s+the\s+[\w-]+?['\u2019]s\s+"
    r"(?P<words>[a-z][a-z ]{0,30}?)\s+when\s+(?P<conds>[^.]+?)(?:\s*\([^()]*\))?\.",
    re.I,
)
ARG_IS = re.compile(r"^the\s+(?P<param>\w+)\s+is\s+(?P<values>`[\w-]+`(?:\s*(?:,|or|/)\s*`[\w-]+`)*)$", re.I)
DAYS_AWAY = re.compile(
    r"^the\s+(?P<words>[a-z][a-z ]{0,30}?)\s+is\s+(?:less|fewer)\s+than\s+(?P<n>\d+)\s+days\s+(?:away|ahead)$", re.I
)
WAIVED = re.compile(r"\b(?P<value>[A-Z][a-z]+)\s+(?:members|customers|holders|users)\s+never\s+pay\s+it\b")
COVERED = re.compile(
    r"\bfee\s+is\s+taken\s+(?:out\s+of|from)\s+the\s+(?P<words>[a-z][a-z ]{0,30}?)\s*\(as\s+far\s+as", re.I
)
REST = re.compile(
    r"\bthe\s+rest\s+of\s+the\s+[a-z]+\s+is\s+refunded\s+to\s+the\s+(?P<noun>[\w-]+?)['\u2019]s\s+`(?P<field>\w+)`",
    re.I,
)
BLOCK = re.compile(r"\ba\s+`(?P<field>\w+)`\s+(?:block|object|record)\s*\((?P<keys>[\w ,]+)\)", re.I)
SET_TO = re.compile(r"`(?P<field>\w+)`\s+set\s+to\s+(?P<n>\d+(?:\.\d+)?)\b", re.I)


def _field_by_words(words: str, own: dict[str, Any], number: bool) -> str | None:
    said = {singular(w) for w in words.lower().split()}
    hits = [
        f
        for f, s in sorted(own.items())
        if {singular(w) for w in f.split("_")} == said and (is_number(s) if number else not is_number(s))
    ]
    return hits[0] if len(hits) == 1 else None


def _due(conds: str, text: str, own: dict[str, Any], params: dict[str, Any], key: str, today: str) -> Any:
    """The fee's `when` tests around `then`, or None when a condition is not read."""
    tests: list[tuple[str, Any]] = []
    for part in re.split(r"\s+and\s+", conds.strip()):
        if (m := ARG_IS.match(part.strip())) and m.group("param") in params:
            tests.append(("arg", (m.group("param"), re.findall(r"`([\w-]+)`", m.group("values")))))
        elif (m := DAYS_AWAY.match(part.strip())) and (field := _field_by_words(m.group("words"), own, False)):
            tests.append(("days", (field, int(m.group("n")))))
        else:
            return None
    waived = [
        (f, m.group("value").lower())
        for m in WAIVED.finditer(text)
        for f, s in sorted(own.items())
        if m.group("value").lower() in known_values(s)
    ]
    return tests, waived


def _fee_node(rate: str, tests: list, waived: list, key: str, today: str) -> dict[str, Any]:
    node: dict[str, Any] = {"field": rate, "param": key}
    zero = {"num": 0}
    for field, value in waived:
        node = {"if_field": {"param": key, "field": field, "in": [value]}, "then": zero, "else": node}
    for kind, test in reversed(tests):
        if kind == "arg":
            node = {"when": {"arg": test[0], "in": test[1]}, "then": node, "else": zero}
        else:  # fewer than N days from today to the date: days since it above -N
            since = {"days_since": test[0], "param": key, "today": today}
            node = {"if_cmp": {"a": since, "op": ">", "b": {"num": -test[1]}}, "then": node, "else": zero}
    return node


def with_late_fee(
    plan: ToolPlan, text: str, state_schema: dict[str, Any], params: dict[str, Any], today: str | None
) -> ToolPlan:
    """The status change's plan with the late fee, its cover and refund, the object recording them and the numbers
    set; unchanged when the docs give no such fee or a part of it is not read."""
    if plan.kind != "recorded_update" or plan.quote or not plan.collection or not plan.key_param or not today:
        return plan
    cols = state_schema.get("properties") or {}
    own = _props(cols, plan.collection)
    text = unwrap(text)
    m = FEE.search(text)
    rate = _field_by_words(m.group("words"), own, True) if m else None
    found = _due(m.group("conds"), text, own, params, plan.key_param, today) if m and rate else None
    if not found:
        return plan
    key = plan.key_param
    steps: list[list[Any]] = [["fee_due", _fee_node(rate, found[0], found[1], key, today)]]
    covered = COVERED.search(text)
    held = _field_by_words(covered.group("words"), own, True) if covered else None
    if held:
        steps.append(["fee", {"op": "min", "args": [{"val": "fee_due"}, {"field": held, "param": key}]}])
        steps.append(["refund", {"op": "-", "args": [{"field": held, "param": key}, {"val": "fee"}]}])
    else:
        steps.append(["fee", {"val": "fee_due"}])
    effects = list(plan.effects)
    rest = REST.search(text)
    link = noun_link(rest.group("noun"), own, cols) if rest and held else None
    if link and is_number(_props(cols, link[1]).get(rest.group("field"))):
        path = [{"from": "record", "path": [link[0]]}, {"from": "const", "value": rest.group("field")}]
        effects.append(
            {"op": "adjust", "collection": link[1], "path": path, "delta": {"from": "figure", "name": "refund"}}
        )
    block = BLOCK.search(text)
    if block and isinstance(own.get(block.group("field")), dict):
        keys = [k.strip() for k in block.group("keys").split(",") if k.strip()]
        figures = ["fee", "refund"] if held else ["fee"]
        sources: dict[str, Any] = {}
        for k in keys:
            if k in params:
                sources[k] = {"from": "arg", "name": k}
            elif k in figures:
                sources[k] = {"from": "figure", "name": k}
        left = [f for f in figures if f not in [s.get("name") for s in sources.values()]]
        for k in [k for k in keys if k not in sources]:
            if len(left) == 1:
                sources[k], left = {"from": "figure", "name": left[0]}, []
        if len(sources) == len(keys):
            given = {s["name"] for s in sources.values() if s["from"] == "arg"}
            effects = [  # a value the block keeps is not also kept in a field of its own invented for it
                e
                for e in effects
                if e.get("field") != block.group("field")
                and not (e.get("op") == "set" and e.get("field") not in own and e["source"].get("name") in given)
            ]
            effects.append(
                {"op": "set", "field": block.group("field"), "source": {"from": "object", "fields": sources}}
            )
    for s in SET_TO.finditer(text):
        if is_number(own.get(s.group("field"))) and not any(e.get("field") == s.group("field") for e in effects):
            value = float(s.group("n")) if "." in s.group("n") else int(s.group("n"))
            effects.append({"op": "set", "field": s.group("field"), "source": {"from": "const", "value": value}})
    effects = with_new_values(effects)  # an entry showing the block's keys shows what the call records
    quote = {"named": {key: plan.collection}, "select": {}, "steps": steps, "fields": [], "assign": {}}
    quote.update({"states": {}, "guards": []})
    evidence = plan.evidence + [f"a late fee of the record's `{rate}`" + (f", covered by `{held}`" if held else "")]
    return ToolPlan.from_dict({**plan.to_dict(), "quote": quote, "effects": effects, "evidence": evidence})


__all__ = ["with_late_fee"]
