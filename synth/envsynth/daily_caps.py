"""A cap on what one record takes in a day, summed over the entries its change logs: "at most 150.00 per skipper
per day", "limited to 200 litres a day", "no more than twenty litres per `skipper` per day", "a daily limit of
150.00". A negated sentence ("there is no daily limit of 200") is no cap, nor is one counting another noun ("at most
2 sailings per day" when the entry counts litres).

The change must append one entry to the record's list dated today (a constant date field) whose number field comes
from the call's amount argument; its other constant text fields are the kind (`event` = `fuel_purchase`). The check
(`day_cap`, list_runtime.fg_list_rule) adds that number over today's entries of the kind and refuses a call whose
amount takes the sum past the cap. The record's noun, when the sentence names one ("per skipper"), must be the
record's.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import negated_before
from synth.words import NUMBER_WORDS, singular

WORDS = {**NUMBER_WORDS, "hundred": 100}
NUMBER = r"(?:[£$€]\s*)?(?P<n>\d[\d,]*(?:\.\d+)?|" + "|".join(WORDS) + r")"
AT_MOST = r"(?:at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to|limited\s+to|capped\s+at)"
DAILY = re.compile(  # "at most 200 litres per skipper per day", "limited to 200 litres a day", "a daily limit of 200"
    rf"\b{AT_MOST}\s+{NUMBER}\s+(?:(?P<unit>[a-z]+)\s+)?(?:per\s+`?(?P<noun>[a-z]+)`?\s+)?(?:per|a|each)\s+day\b"
    rf"|\bdaily\s+(?:[\w-]+\s+)?limit\s+(?:is\s+|of\s+){NUMBER.replace('<n>', '<n2>')}\b",
    re.I,
)
MONEY = {"pounds", "euros", "dollars", "credits", "gbp", "eur", "usd"}


def _logged(plan: ToolPlan) -> tuple[str, dict[str, Any], str, str, list[tuple[str, str]]] | None:
    """(list, kind fields, date field, today, [(field, argument)]) of the one entry the change appends to its
    record, dated today, of a kind, holding arguments."""
    found = []
    for effect in plan.effects:
        items = (effect.get("items") or []) if effect.get("op") == "append" else []
        for item in items:
            fields = item.get("fields") or {}
            consts = {f: s["value"] for f, s in fields.items() if (s or {}).get("from") == "const"}
            dates = [f for f, v in consts.items() if isinstance(v, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", v)]
            counted = [(f, s["name"]) for f, s in fields.items() if (s or {}).get("from") == "arg"]
            kinds = {f: v for f, v in consts.items() if f not in dates and isinstance(v, str)}
            if len(dates) == 1 and len(counted) >= 1 and kinds:
                found.append((effect["field"], kinds, dates[0], consts[dates[0]], counted))
    if len(found) != 1:
        return None
    return found[0]


def with_daily_caps(plan: ToolPlan, text: str, amount: str | None) -> ToolPlan:
    """The change with a `day_cap` check for each daily cap the text states on the amount it logs."""
    logged = _logged(plan) if plan.kind == "recorded_update" and plan.collection and amount else None
    if logged is None:
        return plan
    field_list, kinds, date_field, today, counted = logged
    numbers = [f for f, a in counted if a == amount]
    checks = []
    for m in DAILY.finditer(text):
        noun, unit = m.group("noun"), (m.group("unit") or "").lower()
        if len(numbers) != 1 or (noun and singular(noun.lower()) != singular(plan.collection.lower())):
            continue
        if negated_before(text, m.start()) or (unit and unit not in MONEY and singular(unit) != singular(numbers[0])):
            continue  # "there is no daily limit of ...", "at most 2 sailings per day" (not what the entry counts)
        said = (m.group("n") or m.group("n2")).lower()
        most = float(WORDS[said] if said in WORDS else said.replace(",", ""))
        check = {
            "op": "day_cap",
            "list": field_list,
            "kind": kinds,
            "date_field": date_field,
            "today": today,
            "field": numbers[0],
            "arg": amount,
            "most": most,
        }
        checks += [check] if check not in checks and check not in plan.checks else []
    if not checks:
        return plan
    evidence = plan.evidence + ["a daily cap summed over the day's logged entries"]
    return ToolPlan.from_dict({**plan.to_dict(), "checks": plan.checks + checks, "evidence": evidence})


__all__ = ["with_daily_caps"]
