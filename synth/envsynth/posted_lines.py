"""Lines a change posts to a list of its record, spelt out in the docs: "two tab lines are posted, dated the business
date: `BERTH` (amount `berth_total`, description `Berth charges, N nights`) and `LEVY` (amount `levy`, description
`Harbour levy`)".

The list is the record's list field the sentence names; each line gets the kind in the one entry field whose known
values hold it, every "<entry field> `<value>`" pair (a field of the record as it stands, "N <word>" in a text
standing for the record's number field of that name, else the text as written), the business date in the entry's
one date field when the lines are "dated the business date", and, when every entry of the list in the sample has an
id of a prefix and its position (`L1`, `L2`, ...), the next such ids. A pair naming no entry field, or a kind no
field knows, leaves the lines unread. The lines are an `append` effect (`posted`: the record fields its lines read
are the lines', not changes the publish gate should look for); a figure the docs say is recomputed from the
list ("`balance` is recomputed (tab total minus payments)") follows from the sample records (list_totals.py).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _known, _props
from synth.envsynth.data_copies import sample_records
from synth.envsynth.docs_appends import is_number
from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import unwrap
from synth.words import plural, singular

POSTED = re.compile(
    r"\b(?:two|three|four|\d+)\s+(?P<list>\w+)\s+(?:lines|entries)\s+(?:are|get)\s+(?:posted|added|appended|written)"
    r"(?P<dated>,?\s+dated\s+(?:the\s+business\s+date|today))?\s*:\s*(?P<body>.+?)(?=;\s|\.\s|\.$|$)",
    re.I,
)
LINE = re.compile(r"`(?P<kind>[\w-]+)`\s*\((?P<fields>[^()]*)\)")
PAIR = re.compile(r"(\w+)\s+`([^`]*)`")


def _text(value: str, own: dict[str, Any]) -> dict[str, Any]:
    """A text as written, "N <word>" standing for the record's number field of that name."""
    m = re.search(r"\bN\s+(\w+)", value)
    words = (m.group(1), plural(m.group(1)), singular(m.group(1))) if m else ()
    field = next((f for f in words if is_number(own.get(f))), None)
    if m is None or field is None:
        return {"from": "const", "value": value}
    parts = [value[: m.start()], {"from": "record", "path": [field]}, value[m.start() + 1 :]]
    return {"from": "concat", "parts": [p for p in parts if p != ""]}


def _position_ids(records: list[dict[str, Any]], field: str) -> tuple[str, str] | None:
    """(entry field, prefix) when every entry of the list holds an id of one prefix and its position (`L1`, ...)."""
    entries = [(i, e) for r in records for i, e in enumerate(r.get(field) or []) if isinstance(e, dict)]
    if len(entries) < 2:
        return None
    for key in entries[0][1]:
        found = [re.fullmatch(rf"([A-Za-z-]*){i + 1}", str(e.get(key))) for i, e in entries]
        prefixes = {m.group(1) for m in found if m}
        if all(found) and len(prefixes) == 1:
            return key, prefixes.pop()
    return None


def posted_lines(
    text: str, own: dict[str, Any], records: list[dict[str, Any]], today: str | None
) -> dict[str, Any] | None:
    """The `append` effect of the lines the text posts to one of the record's lists, or None."""
    for m in POSTED.finditer(unwrap(text)):
        field = next((f for f in (m.group("list"), plural(m.group("list"))) if f in own), None)
        items = ((own.get(field) or {}).get("items") or {}).get("properties") or {} if field else {}
        dates = [k for k in items if k == "date" or k.endswith(("_date", "_on"))]
        keyed = _position_ids(records, field) if field else None
        lines = []
        for i, line in enumerate(LINE.finditer(m.group("body"))):
            kinds = [k for k, s in items.items() if line.group("kind") in [str(v) for v in _known(s)]]
            pairs = PAIR.findall(line.group("fields"))
            if len(kinds) != 1 or not pairs or any(k not in items for k, _ in pairs):
                return None
            fields = {kinds[0]: {"from": "const", "value": line.group("kind")}}
            for key, value in pairs:
                fields[key] = {"from": "record", "path": [value]} if value in own else _text(value, own)
            if m.group("dated") and today and len(dates) == 1:
                fields[dates[0]] = {"from": "const", "value": today}
            if keyed:
                fields[keyed[0]] = {"from": "position", "prefix": keyed[1], "list": field, "after": i + 1}
            lines.append({"fields": fields})
        if lines:
            return {"op": "append", "field": field, "items": lines, "posted": True}
    return None


def with_posted_lines(
    plan: ToolPlan, state_schema: dict[str, Any], text: str, sample: dict[str, Any], today: str | None
) -> ToolPlan:
    """A recorded change's plan with the lines its docs post to a list of its record (module docstring)."""
    if plan.kind != "recorded_update" or not plan.collection:
        return plan
    own = _props(state_schema.get("properties") or {}, plan.collection)
    effect = posted_lines(text, own, sample_records(sample, plan.collection), today)
    if effect is None or any(e.get("field") == effect["field"] for e in plan.effects):
        return plan
    evidence = plan.evidence + [f"lines posted to `{effect['field']}` as the docs spell them"]
    return ToolPlan.from_dict({**plan.to_dict(), "effects": list(plan.effects) + [effect], "evidence": evidence})


__all__ = ["posted_lines", "with_posted_lines"]
