"""An amount a change's docs define by a rule and then move: "The refund is the berthing's `fee` in full if it has
no failed lifts, otherwise half of it (rounded half up to the penny). If the fee was paid from the purse (`paid_by`
'purse'), the refund is added to the skipper's `credit`; cash payments are refunded at the desk."

- The amount: a number of the call's record in full when a condition holds, otherwise a share of it (half, a third,
  a quarter, N%), rounded to cents (half up when so said). A condition is "it has no <words>" (the one number field
  of the record those words name is 0) or "it is (still) `<state>`" (a closed field holding that value).
- A move: "the <amount> is added to (credited to) the <noun>'s `<field>`" moves that number of the record the noun
  links to by the amount; an "If ... (`<field>` '<value>')" before it in the sentence holds the move to records in
  that state (a `when` guard).
The amount is computed first, on the record as the call finds it, as a figure of the change (a one-step `quote`,
rendered like a sibling read's figures), so the move and the answer (`answer_figures`) read the same value.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.amount_answers import amount_answer
from synth.envsynth.create_checks import noun_link
from synth.envsynth.docs_appends import is_number
from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import unwrap
from synth.spec import known_values
from synth.spec import record_props as _props
from synth.words import singular

SHARES = {"half": 0.5, "a third": 1 / 3, "one third": 1 / 3, "a quarter": 0.25, "one quarter": 0.25}
DEFINED = re.compile(
    r"\bthe\s+(?P<name>[a-z]\w*)\s+is\s+the\s+(?P<noun>[\w-]+?)['\u2019]s\s+`?(?P<field>\w+)`?\s+in\s+full\s+"
    r"(?:if|when)\s+(?P<cond>[^,;.]+?),?\s+otherwise\s+(?P<share>half|a\s+third|one\s+third|a\s+quarter|one\s+quarter"
    r"|(?P<pct>\d+(?:\.\d+)?)\s*%)\s+of\s+it(?P<rest>[^.]*)",
    re.I,
)
HAS_NO = re.compile(r"^it\s+has\s+(?:had\s+)?no\s+(?P<words>[a-z][a-z ]{1,60})$", re.I)
IS_STATE = re.compile(r"^it\s+is\s+(?:still\s+)?[`'\"]?(?P<value>[\w-]+)[`'\"]?$", re.I)
MOVED_TO = (
    r"\bthe\s+{name}\s+is\s+(?:added|credited|paid\s+back)\s+to\s+the\s+"
    r"(?P<noun>[\w-]+?)['\u2019]s\s+`?(?P<field>\w+)`?"
)
GUARD = re.compile(r"\(\s*`?(?P<field>\w+)`?\s+[`'\"](?P<value>[\w-]+)[`'\"]\s*\)")


def _condition(cond: str, own: dict[str, Any], key_param: str) -> dict[str, Any] | None:
    """The `if_field` test of "it has no failed lifts" or "it is `moored`", or None."""
    if m := HAS_NO.match(cond.strip()):
        words = {singular(w) for w in m.group("words").lower().split()}
        hits = [f for f, s in own.items() if is_number(s) and {singular(w) for w in f.split("_")} <= words]
        return {"param": key_param, "field": hits[0], "in": [0, 0.0]} if len(hits) == 1 else None
    if m := IS_STATE.match(cond.strip()):
        holders = [f for f, s in own.items() if m.group("value") in known_values(s)]
        return {"param": key_param, "field": holders[0], "in": [m.group("value")]} if len(holders) == 1 else None
    return None


def defined_amounts(text: str, own: dict[str, Any], key_param: str) -> dict[str, dict[str, Any]]:
    """{amount name: formula node} for each amount the text defines in full-or-a-share form."""
    out = {}
    for m in DEFINED.finditer(text):
        if not is_number(own.get(m.group("field"))):
            continue
        test = _condition(m.group("cond"), own, key_param)
        if test is None:
            continue
        share = float(m.group("pct")) / 100 if m.group("pct") else SHARES[re.sub(r"\s+", " ", m.group("share").lower())]
        full = {"field": m.group("field"), "param": key_param}
        part: dict[str, Any] = {"op": "*", "args": [full, {"num": share}]}
        if re.search(r"\bround", m.group("rest"), re.I):  # "(rounded half up to the penny)"
            way = {"way": "half_up"} if re.search(r"\bhalf\s+up\b", m.group("rest"), re.I) else {}
            part = {"round": part, "digits": 2, **way}
        out[m.group("name").lower()] = {"if_field": test, "then": full, "else": part}
    return out


def amount_moves(text: str, names: list[str], own: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """`adjust` effects for "the <amount> is added to the <noun>'s `<field>`", guarded by the state an "If ...
    (`<field>` '<value>')" before it names."""
    out = []
    for sentence in re.split(r"(?<=[.;])\s+", text):
        for name in names:
            for m in re.finditer(MOVED_TO.format(name=re.escape(name)), sentence, re.I):
                link = noun_link(m.group("noun").replace("-", ""), own, cols)
                if link is None or not is_number(_props(cols, link[1]).get(m.group("field"))):
                    continue
                path = [{"from": "record", "path": [link[0]]}, {"from": "const", "value": m.group("field")}]
                effect = {
                    "op": "adjust",
                    "collection": link[1],
                    "path": path,
                    "delta": {"from": "figure", "name": name},
                }
                before = sentence[: m.start()]
                guard = GUARD.search(before) if re.match(r"\s*(?:if|when)\b", before, re.I) else None
                if guard and guard.group("field") in own:
                    effect["when"] = {"field": guard.group("field"), "in": [guard.group("value")]}
                out.append(effect)
    return out


def with_defined_amounts(plan: ToolPlan, text: str, state_schema: dict[str, Any]) -> ToolPlan:
    """The status change's plan with the amounts its docs define computed first and the moves they make; the plan
    unchanged when it defines none, or already computes a sibling's figures."""
    if plan.kind != "recorded_update" or plan.quote or not plan.collection or not plan.key_param:
        return plan
    cols = state_schema.get("properties") or {}
    own = _props(cols, plan.collection)
    text = unwrap(text)
    amounts = defined_amounts(text, own, plan.key_param)
    if not amounts:
        return plan
    moves = amount_moves(text, sorted(amounts), own, cols)
    steps = [[name, node] for name, node in sorted(amounts.items())]
    quote = {"named": {plan.key_param: plan.collection}, "select": {}, "steps": steps, "fields": [], "assign": {}}
    quote.update({"states": {}, "guards": []})
    evidence = plan.evidence + ["amounts defined by a rule: " + ", ".join(sorted(amounts))]
    plan = ToolPlan.from_dict(
        {**plan.to_dict(), "quote": quote, "effects": list(plan.effects) + moves, "evidence": evidence}
    )
    return amount_answer(plan, text, state_schema, sorted(amounts))  # "Returns {..., refund, ...}"


__all__ = ["amount_moves", "defined_amounts", "with_defined_amounts"]
