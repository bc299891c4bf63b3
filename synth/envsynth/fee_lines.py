"""A fee a change posts as a line of its record's charges, and what was paid beyond it refunded as a negative
payment line:

    When the launch date is fewer than 2 days after the business date, a late cancellation fee of one average day
    (`hire_total` / `days`, rounded to cents) is posted as a `LATE` tab line described `Late cancellation fee`.
    Prepayments first cover the fee; what was paid beyond it is refunded to the skipper's `credit` and recorded as
    a payment line with method `credit` and a negative amount.

The fee is the record's number divided by another (to the cent, a half rounding up), due while the record's date
the words name is fewer than N days after the business date, else 0; the line is posted only for a fee above 0.
What was paid is the sum of the amounts of the record's payment list; the refund is what it exceeds the fee by (at
least 0), added to the linked record's number the docs name, and posted as a line holding the kind and its negative.
Each line's keys are read off the list's entries in the data: the id numbered by position (`L1`, `L2`, ...), the
kind, the one number, the one date (the business date) and the one text left (the description). A record figure
whose description names both lists ("Tab total minus payments") is recomputed from them afterwards, as the data
shows (list_totals.py). Figures are computed first on the record as found (a `quote` of the change).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_checks import noun_link
from synth.envsynth.data_copies import sample_records
from synth.envsynth.docs_appends import is_number
from synth.envsynth.list_totals import list_totals
from synth.envsynth.plan import ToolPlan
from synth.envsynth.posted_lines import _position_ids
from synth.envsynth.prose import unwrap
from synth.spec import ToolSpec, field_by_words, known_values
from synth.spec import record_props as _props
from synth.words import plural

NEAR = re.compile(
    r"\bwhen\s+the\s+(?P<words>[a-z][a-z ]{0,30}?)\s+is\s+(?:fewer|less)\s+than\s+(?P<n>\d+)\s+days?\s+after\s+"
    r"(?:the\s+business\s+date|today)\b[^.]*?\bis\s+posted\s+as\s+an?\s+`(?P<code>[\w-]+)`\s+(?P<list>\w+)\s+line\s+"
    r"described\s+`(?P<text>[^`]+)`",
    re.I,
)
SHARE = re.compile(r"\(\s*`(?P<num>\w+)`\s*/\s*`(?P<den>\w+)`(?P<rest>[^()]*)\)")
REFUND = re.compile(
    r"\b(?:pre)?payments\s+(?:first\s+)?cover\s+the\s+fee\s*[;,]\s*(?:and\s+)?what\s+was\s+paid\s+beyond\s+it\s+is\s+"
    r"refunded\s+to\s+the\s+(?P<noun>\w+)['\u2019]s\s+`(?P<field>\w+)`\s+and\s+recorded\s+as\s+an?\s+(?P<list>\w+)\s+"
    r"line\s+with\s+(?P<kind_field>\w+)\s+`(?P<kind>[\w-]+)`\s+and\s+a\s+negative\s+(?P<amount>\w+)",
    re.I,
)
DATE = re.compile(r"^\d{4}-\d\d-\d\d$")


def _list(word: str, own: dict[str, Any]) -> str | None:
    return next((f for f in (word, plural(word)) if (own.get(f) or {}).get("type") == "array"), None)


def _line(
    list_field: str,
    own: dict[str, Any],
    answer: dict[str, Any],
    records: list[dict[str, Any]],
    kind: str,
    amount: dict,
    text: Any,
    today: str,
) -> dict[str, Any] | None:
    """A line's fields: its position id, kind, amount, the business date and the text (None: no text key)."""
    items = ((own.get(list_field) or {}).get("items") or {}).get("properties") or {}
    entries = [e for r in records for e in r.get(list_field) or [] if isinstance(e, dict)]
    keyed = _position_ids(records, list_field)
    told = ((answer.get(list_field) or {}).get("items") or {}).get("properties") or {}  # the answer's enums too
    kinds = [k for k, s in items.items() if kind in known_values(s) + known_values(told.get(k))]
    numbers = [k for k, s in items.items() if is_number(s)]
    dates = [k for k in items if entries and all(isinstance(e.get(k), str) and DATE.match(e[k]) for e in entries)]
    if not keyed or len(kinds) != 1 or len(numbers) != 1 or len(dates) != 1:
        return None
    fields = {
        keyed[0]: {"from": "position", "prefix": keyed[1], "list": list_field, "after": 1},
        kinds[0]: {"from": "const", "value": kind},
        numbers[0]: amount,
        dates[0]: {"from": "const", "value": today},
    }
    texts = [k for k, s in items.items() if k not in fields and (s or {}).get("type") == "string"]
    if text is not None:
        if len(texts) < 1:
            return None
        described = [k for k in texts if k.startswith("desc")] or texts
        fields[described[0]] = {"from": "const", "value": text}
    return {"fields": fields}


def with_fee_lines(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    text: str,
    sample: dict[str, Any] | None,
    today: str | None,
) -> ToolPlan:
    """The change's plan with the fee line, the refund and its line, and the figures recomputed from the lists;
    unchanged when the docs give no such fee or a part of it is not read."""
    if plan.kind != "recorded_update" or plan.quote or not plan.collection or not plan.key_param or not today:
        return plan
    cols = state_schema.get("properties") or {}
    own = _props(cols, plan.collection)
    text, key = unwrap(text), plan.key_param
    m = NEAR.search(text)
    share = SHARE.search(m.group(0)) if m else None
    when = field_by_words(m.group("words"), own) if m else None
    charges = _list(m.group("list"), own) if m else None
    if not (m and share and when and charges and is_number(own.get(share["num"])) and is_number(own.get(share["den"]))):
        return plan
    records = sample_records(sample or {}, plan.collection)
    answer = (spec.returns or {}).get("properties") or {} if isinstance(spec.returns, dict) else {}
    fee_line = _line(
        charges, own, answer, records, m.group("code"), {"from": "figure", "name": "fee"}, m.group("text"), today
    )
    if fee_line is None:
        return plan
    ratio: dict[str, Any] = {
        "op": "/",
        "args": [{"field": share["num"], "param": key}, {"field": share["den"], "param": key}],
    }
    if re.search(r"\brounded\s+to\s+(?:the\s+)?cents?\b", share["rest"], re.I):
        ratio = {"round": ratio, "digits": 2, "way": "half_up"}
    since = {"days_since": when, "param": key, "today": today}
    steps: list[list[Any]] = [
        [
            "fee",
            {"if_cmp": {"a": since, "op": ">", "b": {"num": -int(m.group("n"))}}, "then": ratio, "else": {"num": 0}},
        ]
    ]
    effects = list(plan.effects) + [
        {"op": "append", "field": charges, "items": [{**fee_line, "if_positive": "fee"}], "posted": True}
    ]
    paid = REFUND.search(text)
    payments = _list(paid.group("list"), own) if paid else None
    link = noun_link(paid.group("noun"), own, cols) if paid else None
    if paid and payments and link and is_number(_props(cols, link[1]).get(paid.group("field"))):
        out = {"from": "figure", "name": "refund_line"}
        refund_line = _line(payments, own, answer, records, paid.group("kind"), out, None, today)
        items = ((own.get(payments) or {}).get("items") or {}).get("properties") or {}
        if refund_line is None or paid.group("amount") not in items:
            return plan
        steps += [
            ["paid_lines", {"field": payments, "param": key}],
            ["paid", {"sum": "paid_lines", "of": paid.group("amount")}],
            ["refund", {"op": "max", "args": [{"op": "-", "args": [{"val": "paid"}, {"val": "fee"}]}, {"num": 0}]}],
            ["refund_line", {"op": "-", "args": [{"num": 0}, {"val": "refund"}]}],
        ]
        path = [{"from": "record", "path": [link[0]]}, {"from": "const", "value": paid.group("field")}]
        effects.append(
            {"op": "adjust", "collection": link[1], "path": path, "delta": {"from": "figure", "name": "refund"}}
        )
        effects.append(
            {"op": "append", "field": payments, "items": [{**refund_line, "if_positive": "refund"}], "posted": True}
        )
    lists = [charges] + ([payments] if paid and payments else [])
    told = {f: " ".join(str((x or {}).get("description") or "") for x in (s, answer.get(f))) for f, s in own.items()}
    said = [
        f for f in own if is_number(own[f]) and all(re.search(rf"\b{re.escape(w)}\b", told[f], re.I) for w in lists)
    ]
    derive = list_totals(sample or {}, plan.collection, charges, said) if len(lists) == 2 and said else None
    effects += [derive] if derive else []
    quote = {"named": {key: plan.collection}, "select": {}, "steps": steps, "fields": [], "assign": {}}
    quote.update({"states": {}, "guards": []})
    evidence = plan.evidence + [f"a fee posted to `{charges}` while `{when}` is near, paid first from what was paid"]
    return ToolPlan.from_dict({**plan.to_dict(), "quote": quote, "effects": effects, "evidence": evidence})


__all__ = ["with_fee_lines"]
