"""Rules the docs attach to one value of a parameter, in brackets after it: "Methods: `card` (needs `last4`, four
digits), `coins`, and `purse` (drawn from the skipper's `purse_balance`, which must cover the amount and is reduced
by it)".

"needs `x`" refuses a call with that value that leaves the parameter `x` out (a `given` check). "drawn from the
<noun>'s `field`" names a number of the record the call's record links to (`skipper_id` -> skippers, or the call's
own record for its own noun): "must cover the amount" refuses a call whose amount is above it (an `enough` check),
"is reduced by it" takes the amount off it (an `adjust` effect). Each holds for calls with that value only (a
`when` on the parameter). The amount is the call's one number parameter, or the one called `amount`.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.arg_limits import amount_param, valued_param
from synth.envsynth.docs_linked import record_links
from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import negated_before, unwrap
from synth.spec import ToolSpec
from synth.spec import record_props as _props
from synth.words import singular

NEEDS = re.compile(r"`(?P<value>[\w-]+)`\s*\(\s*(?:needs|requires|must\s+come\s+with)\s+`(?P<arg>\w+)`", re.I)
DRAWN = re.compile(
    r"`(?P<value>[\w-]+)`\s*\(\s*(?:drawn|taken|paid|debited)\s+from\s+(?:the\s+)?(?P<noun>\w+)['\u2019]s\s+"
    r"`(?P<field>\w+)`(?P<rest>[^)]*)\)",
    re.I,
)
OR_FROM = re.compile(  # "by card or from the skipper's purse balance", "by card or from skipper purse"
    r"\bby\s+`?(?P<first>[\w-]+)`?,?\s+or\s+from\s+(?:the\s+)?(?:(?P<noun>[a-z]\w*?)(?:['\u2019]s)?\s+)?"
    r"(?P<what>[a-z]\w*)(?P<balance>\s+balance)?\b",
    re.I,
)
COVER = re.compile(r"\bmust\s+(?:cover|be\s+at\s+least)\b", re.I)
REDUCED = re.compile(r"\b(?:is|gets)\s+(?:reduced|lowered|debited)\s+by\b|\bgoes\s+down\s+by\b", re.I)


def _holder(noun: str, collection: str, cols: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The path (sources) from the call's record to the record the noun names: [] for its own, [its link]."""
    word = singular(noun.lower())
    if word in (singular(collection), singular(collection).split("_")[-1]):
        return []
    links = [
        via
        for via, other in record_links(_props(cols, collection), cols, collection).items()
        if singular(other) == word or via[:-3] == word
    ]
    return [{"from": "record", "path": [links[0]]}] if len(links) == 1 else None


def option_rules(
    spec: ToolSpec, collection: str, key_param: str, state_schema: dict[str, Any], text: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(checks, effects) the bracketed rules of parameter values give a call on the `collection` record that
    `key_param` names."""
    params = spec.parameters.get("properties") or {}
    cols = state_schema.get("properties") or {}
    prose = unwrap(text)
    checks: list[dict[str, Any]] = []
    effects: list[dict[str, Any]] = []
    for m in NEEDS.finditer(prose):
        taker = valued_param(m.group("value"), params)
        if taker and m.group("arg") in params and m.group("arg") != taker:
            check = {"op": "given", "arg": m.group("arg"), "when": {"arg": taker, "in": [m.group("value")]}}
            checks += [check] if check not in checks else []
    amount = amount_param(params)
    for m in DRAWN.finditer(prose):
        taker = valued_param(m.group("value"), params)
        path = _holder(m.group("noun"), collection, cols)
        if amount is None or taker is None or path is None:
            continue
        other = collection if not path else record_links(_props(cols, collection), cols, collection)[path[0]["path"][0]]
        schema = _props(cols, other).get(m.group("field"))
        if not (isinstance(schema, dict) and schema.get("type") in ("number", "integer")):
            continue
        when = {"arg": taker, "in": [m.group("value")]}
        owner = path or [{"from": "arg", "name": key_param}]
        if COVER.search(m.group("rest")):
            checks.append(
                {
                    "op": "enough",
                    "collection": other,
                    "path": owner,
                    "field": m.group("field"),
                    "amount": {"plus": [{"arg": amount}]},
                    "when": when,
                }
            )
        if REDUCED.search(m.group("rest")):
            effects.append(
                {
                    "op": "adjust",
                    "collection": other,
                    "path": [*owner, {"from": "const", "value": m.group("field")}],
                    "delta": {"from": "expr", "expr": {"minus": [{"arg": amount}]}},
                    "when": when,
                }
            )
    for found in or_from(spec, collection, key_param, state_schema, prose):
        if found["op"] == "enough":
            checks += [found] if found not in checks else []
        else:
            effects += [found] if found not in effects else []
    return checks, effects


def _paid_amount(params: dict[str, Any], own: dict[str, Any], prose: str) -> dict[str, Any] | None:
    """The amount a payment takes: the call's amount parameter, else the one number of the record the text names
    as written ("The full `owed_balance` is taken")."""
    amount = amount_param(params)
    if amount is not None:
        return {"arg": amount}
    named = [f for f, s in own.items() if "_" in f and isinstance(s, dict) and s.get("type") in ("number", "integer")]
    named = [f for f in named if re.search(rf"(?<![\w`]){re.escape(f)}(?!\w)|`{re.escape(f)}`", prose)]
    return {"path": [named[0]]} if len(named) == 1 else None


def or_from(
    spec: ToolSpec, collection: str, key_param: str, state_schema: dict[str, Any], prose: str
) -> list[dict[str, Any]]:
    """The `enough` check and the `adjust` effect of a payment method that draws on a balance: "by card or from the
    skipper's purse balance", with a parameter whose values are the first method and one more naming that record
    and number (`skipper_purse`). The balance must cover the amount and is reduced by it, for that value only."""
    params = spec.parameters.get("properties") or {}
    cols = state_schema.get("properties") or {}
    out: list[dict[str, Any]] = []
    for m in OR_FROM.finditer(prose):
        if negated_before(prose, m.start()):  # "may not be paid by card or from ..."
            continue
        taker = valued_param(m.group("first"), params)
        noun = m.group("noun") or ""
        path = _holder(noun, collection, cols) if noun else None
        if taker is None or path is None:
            continue
        others = [str(v) for v in params[taker].get("enum") or [] if str(v) != m.group("first")]
        values = [v for v in others if {noun.lower(), m.group("what").lower()} <= set(v.split("_"))]
        values = values or [v for v in others if v.split("_") == [m.group("what").lower()]]  # `purse` alone
        other = collection if not path else record_links(_props(cols, collection), cols, collection)[path[0]["path"][0]]
        theirs = _props(cols, other)
        fields = [
            f
            for f, sub in theirs.items()
            if isinstance(sub, dict)
            and sub.get("type") in ("number", "integer")
            and m.group("what").lower() in f.lower().split("_")
            and (not m.group("balance") or "balance" in f.lower().split("_"))
        ]
        amount = _paid_amount(params, _props(cols, collection), prose)
        if len(values) != 1 or len(fields) != 1 or amount is None:
            continue
        when = {"arg": taker, "in": values}
        owner = path or [{"from": "arg", "name": key_param}]
        out.append(
            {
                "op": "enough",
                "collection": other,
                "path": owner,
                "field": fields[0],
                "amount": {"plus": [amount]},
                "when": when,
            }
        )
        out.append(
            {
                "op": "adjust",
                "collection": other,
                "path": [*owner, {"from": "const", "value": fields[0]}],
                "delta": {"from": "expr", "expr": {"minus": [amount]}},
                "when": when,
            }
        )
    return out


def with_option_rules(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any], text: str) -> ToolPlan:
    """The plan of a change of one record with the bracketed rules of its parameters' values added."""
    if plan.kind not in ("recorded_update", "item_add") or not plan.collection or not plan.key_param:
        return plan
    checks, effects = option_rules(spec, plan.collection, plan.key_param, state_schema, text)
    checks = [c for c in checks if c not in plan.checks]
    effects = [e for e in effects if e not in plan.effects]
    if not checks and not effects:
        return plan
    return ToolPlan.from_dict(
        {**plan.to_dict(), "checks": [*plan.checks, *checks], "effects": [*plan.effects, *effects]}
    )


__all__ = ["option_rules", "with_option_rules"]
