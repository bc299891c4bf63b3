"""What a create takes from the profile of a record it names:

- a parameter's documented default there: "party_size: People staying. Defaults to the party_size on the camper's
  profile" -> left out, the new record's `party_size` is the named camper's;
- a payment out of a balance the profile holds: "With use_credit=true, the camper's account_credit pays first: the
  amount used is min(account_credit, total), recorded as credit_applied and deducted from the camper's
  account_credit" -> `credit_applied` is the smaller of the balance and the new record's `total` (only when the
  yes/no parameter is true), and the balance drops by it once the record is stored.

- "`end_dock_id` defaults to the start dock" (in the parameter's description): left out, it takes the new record's
  field the words name (`record_default`);
- "the deposit is moved from the customer's `deposit_balance` into the agreement's `deposit_held`": the balance
  drops by the new record's amount once it is stored, and a balance short of it refuses the call (`moved_from`).

Each becomes a create effect: {"op": "profile_default", "field", "param", "collection", "source"} and {"op":
"pay_from", "field", "of", "via", "collection", "source", "when"?} (code_templates/create.py.j2).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_checks import noun_link
from synth.envsynth.create_rules import _props
from synth.envsynth.docs_appends import is_number
from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import unwrap
from synth.spec import ToolSpec

DEFAULT = re.compile(
    r"\bdefaults?\s+to\s+(?:the\s+)?(?:(?P<noun>\w+)['\u2019]s\s+`?(?P<field>\w+)`?"
    r"|`?(?P<field2>\w+)`?\s+(?:on|in|of|from)\s+(?:the\s+)?(?P<noun2>\w+)['\u2019]s\s+(?:profile|record|account|file))",
    re.IGNORECASE,
)
SMALLER = re.compile(
    r"\bmin\(\s*`?(?P<a>\w+)`?\s*,\s*`?(?P<b>\w+)`?\s*\)[^.;]{0,40}?\b(?:recorded|stored|kept|saved)\s+(?:as|in)\s+"
    r"`?(?P<field>\w+)`?",
    re.IGNORECASE,
)
DEDUCTED = re.compile(
    r"\b(?:deducted|taken|subtracted)\s+from\s+(?:the\s+)?(?P<noun>\w+)['\u2019]s\s+`?(?P<source>\w+)`?", re.I
)
SAME_AS = re.compile(r"\bdefaults?\s+to\s+(?:the\s+)?(?:same\s+)?([a-z][\w -]{2,40}?)\s*(?:[.;,)]|$)", re.I)
MOVED = re.compile(
    r"\bmoved\s+from\s+(?:the\s+)?(?P<noun>\w+)['\u2019]s\s+`?(?P<source>\w+)`?\s+(?:in)?to\s+(?:the\s+)?"
    r"\w+['\u2019]s\s+`?(?P<field>\w+)`?",
    re.I,
)
WITH = re.compile(r"\bwith\s+`?(?P<arg>\w+)`?\s*(?:=|is)\s*`?true`?", re.IGNORECASE)


def _defaults(spec: ToolSpec, own: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for name, schema in sorted((spec.parameters.get("properties") or {}).items()):
        m = DEFAULT.search(str((schema or {}).get("description") or ""))
        if m is None or name not in own:
            continue
        noun, field = (m.group("noun"), m.group("field")) if m.group("noun") else (m.group("noun2"), m.group("field2"))
        link = noun_link(noun, own, cols)
        if link and link[0] in (spec.parameters.get("properties") or {}) and field in _props(cols, link[1]):
            out.append(
                {"op": "profile_default", "field": name, "param": link[0], "collection": link[1], "source": field}
            )
    return out


def record_defaults(spec: ToolSpec, own: dict[str, Any]) -> list[dict[str, Any]]:
    """ "defaults to the pick-up branch": a parameter left out takes the new record's field those words name."""
    out = []
    for name, schema in sorted((spec.parameters.get("properties") or {}).items()):
        m = SAME_AS.search(str((schema or {}).get("description") or ""))
        if m is None or name not in own:
            continue
        words = {w.replace("-", "") for w in m.group(1).lower().split()} | set(re.split(r"[\s-]+", m.group(1).lower()))
        hits = [f for f in sorted(own) if f != name and set(f.split("_")) - {"id"} <= words and "_" in f]
        if len(hits) == 1:
            out.append({"op": "record_default", "field": name, "source": hits[0]})
    return out


def _moves(text: str, own: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """ "the deposit is moved from the customer's `deposit_balance` into the agreement's `deposit_held`": the named
    record's balance gives the new record's amount (refused when it is short)."""
    out = []
    for m in MOVED.finditer(unwrap(text)):
        link = noun_link(m.group("noun"), own, cols)
        if link is None or not is_number(own.get(m.group("field"))):
            continue
        if is_number(_props(cols, link[1]).get(m.group("source"))):
            effect = {"op": "moved_from", "field": m.group("field"), "via": link[0], "collection": link[1]}
            out.append({**effect, "source": m.group("source")})
    return out


def _payments(spec: ToolSpec, text: str, own: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    params = spec.parameters.get("properties") or {}
    out = []
    for sentence in re.split(r"(?<=[.!?])\s+", unwrap(text)):
        smaller, taken = SMALLER.search(sentence), DEDUCTED.search(sentence)
        if smaller is None or taken is None:
            continue
        link = noun_link(taken.group("noun"), own, cols)
        source, field = taken.group("source"), smaller.group("field")
        pair = {smaller.group("a"), smaller.group("b")}
        if link is None or source not in pair or not is_number(own.get(field)):
            continue
        of = next(iter(pair - {source}), "")
        if not is_number(own.get(of)) or not is_number(_props(cols, link[1]).get(source)):
            continue
        effect = {"op": "pay_from", "field": field, "of": of, "via": link[0], "collection": link[1], "source": source}
        guard = WITH.search(sentence)
        if guard and (params.get(guard.group("arg")) or {}).get("type") == "boolean":
            effect["when"] = guard.group("arg")
        out.append(effect)
    return out


def profile_effects(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any], text: str) -> ToolPlan:
    """The create plan with the defaults and payments its docs take from a named record's profile."""
    if plan.kind != "create" or not plan.collection:
        return plan
    cols = state_schema.get("properties") or {}
    own = _props(cols, plan.collection)
    found = _defaults(spec, own, cols) + _payments(spec, text, own, cols) + record_defaults(spec, own)
    found += _moves(text, own, cols)
    found = [e for e in found if e not in plan.effects]
    if not found:
        return plan
    evidence = plan.evidence + ["taken from a named record's profile: " + ", ".join(e["field"] for e in found)]
    return ToolPlan.from_dict({**plan.to_dict(), "effects": list(plan.effects) + found, "evidence": evidence})


__all__ = ["profile_effects", "record_defaults"]
