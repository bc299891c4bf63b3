"""A status change's fee by the state the record is in, as bullets of its docs give it:

    Cancel a charter. The fee depends on how far it has gone:
    - booked or confirmed: no fee.
    - boarding (crew aboard): fee = 20% of the charter total, at least 15.00 but never more than the charter total;
      the fuel is returned to the depot (fuel_litres goes back up, fuel_drawn becomes false).
    - underway: fee = 70% of the charter total; the fuel is not returned.
    Any fee is added to the skipper's balance_owed. cancellation = {date, reason, previous_status, fee, fuel_returned}.

- each bullet's head names states of the field the change sets (its values, or the sample's); its fee is a
  formula read as quotes read theirs (formula_rules.parse_formula), a number of an object the record keeps reading
  by its object's noun ("the charter total": `pricing.total`); states no bullet prices pay nothing;
- "the <thing> is returned ... (<field> goes back up, <flag> becomes false)" in a bullet: every entry of the record's
  list gives its count back to that number of the record the entry names, and the flag is set, in those states only;
- "fee is added to the <noun>'s <number>": the linked record's number grows by the fee;
- "<object> = {date, reason, previous_<field>, fee, <x>_returned}": the object records the business date, the call's
  argument of a key's name, the state the record was in, the fee and whether it was a returning state.

Figures are computed on the record as found (the change's `quote`), the fee rounded to the cent (half up); the plan
is unchanged when a part is not read.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_checks import noun_link
from synth.envsynth.create_rules import _props
from synth.envsynth.data_copies import field_values, sample_records
from synth.envsynth.line_pricing import count_fields
from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import unwrap
from synth.words import singular, split_words

BULLET = re.compile(r"^\s*[-*]\s+(?P<head>[^:\n]{1,100}):\s*(?P<rest>[^\n]+)$", re.M)
NO_FEE = re.compile(r"^(?:no\s+(?:fee|charge)|free)\b", re.I)
FEE = re.compile(r"^(?P<name>fee|charge|penalty)\s*=\s*(?P<formula>[^;]+?)\s*(?:;\s*(?P<after>.*))?$", re.I)
BACK = re.compile(r"\breturned\b[^()]*\(\s*`?(?P<field>\w+)`?\s+goes\s+back\s+up(?P<rest>[^()]*)\)", re.I)
BECOMES = re.compile(r"`?(\w+)`?\s+becomes\s+(true|false)\b", re.I)
ADDED = re.compile(r"\b(?:fee|charge|penalty)\s+is\s+added\s+to\s+the\s+(\w+)['\u2019]s\s+`?(\w+)`?", re.I)
BLOCK = re.compile(r"`?(\w+)`?\s*=\s*\{([\w\s,]+)\}")
COUNTS = ("quantity", "qty", "count", "units", "number")


def _named_states(head: str, known: list[str]) -> list[str]:
    words = [w for w in re.split(r"\s*,\s*|\s+or\s+|\s+and\s+", re.sub(r"\([^()]*\)", "", head).strip()) if w]
    return words if words and all(w in known for w in words) else []


def _nested(own: dict[str, Any], noun: str, key: str) -> list[list[Any]]:
    """Steps naming the numbers of the record's objects by the record's noun (`charter_total` <- pricing.total)."""
    seen: dict[str, list[str]] = {}
    for field, schema in sorted(own.items()):
        for k, sub in sorted(((schema or {}).get("properties") or {}).items()) if isinstance(schema, dict) else []:
            if isinstance(sub, dict) and sub.get("type") in ("number", "integer") and k not in own:
                seen.setdefault(k, []).append(field)
    return [[f"{noun}_{k}", {"path": [fs[0], k], "param": key}] for k, fs in sorted(seen.items()) if len(fs) == 1]


def _read(spec: Any, plan: ToolPlan, text: str, cols: dict[str, Any], sample: dict[str, Any], field: str):
    from synth.envsynth.formula_rules import parse_formula
    from synth.envsynth.quote_scope import _scope

    own = _props(cols, plan.collection)
    known = field_values(own.get(field), sample_records(sample, plan.collection), field)
    scope = _scope(spec, cols, sample)
    key = plan.key_param
    if scope.named.get(key) != plan.collection:
        return None
    steps = _nested(own, singular(plan.collection), key)
    scope.defined += [n for n, _ in steps]
    fees: list[tuple[list[str], dict[str, Any]]] = []
    returning: list[str] = []
    after_text = ""
    for bullet in BULLET.finditer(text):
        states = _named_states(bullet.group("head"), known)
        fee = FEE.match(bullet.group("rest").strip().rstrip("."))
        if not states or (fee is None and not NO_FEE.match(bullet.group("rest").strip())):
            continue
        if fee is not None:
            node = parse_formula(fee.group("formula"), scope)
            if node is None:
                return None
            fees.append((states, node))
            if fee.group("after") and BACK.search(fee.group("after")):
                returning += states
                after_text = fee.group("after")
    if not fees:
        return None
    node: dict[str, Any] = {"num": 0}
    for states, formula in reversed(fees):
        node = {"if_field": {"param": key, "field": field, "in": states}, "then": formula, "else": node}
    steps += [
        [f"previous_{field}", {"field": field, "param": key}],
        ["fee", {"round": node, "digits": 2, "way": "half_up"}],
    ]
    return steps, returning, after_text, own, known


def with_state_fee(
    spec: Any, plan: ToolPlan, text: str, state_schema: dict[str, Any], sample: dict[str, Any], today: str | None
) -> ToolPlan:
    """The status change's plan with its fee by state, the moves and sets of the returning states, the fee added to
    a linked number and the object recording it all; unchanged when the docs give no such bullets."""
    sets = [e for e in plan.effects if e.get("op") == "set" and (e.get("source") or {}).get("from") == "const"]
    if plan.kind != "recorded_update" or plan.quote or not plan.key_param or not today or not sets:
        return plan
    cols = state_schema.get("properties") or {}
    text = unwrap(_joined_bullets(text))
    read = _read(spec, plan, text, cols, sample, sets[0]["field"])
    if read is None:
        return plan
    steps, returning, after_text, own, known = read
    field = sets[0]["field"]
    effects = list(plan.effects)
    when = {"field": field, "in": returning}
    back = BACK.search(after_text) if returning else None
    if back:
        effects += _returns(own, cols, back.group("field"), when)
        for flag, value in BECOMES.findall(back.group("rest")):
            if (own.get(flag) or {}).get("type") == "boolean":
                keep = {"from": "record", "path": [flag]}
                effects.append(
                    {
                        "op": "set",
                        "field": flag,
                        "source": {
                            "from": "switch",
                            "when": when,
                            "then": {"from": "const", "value": value.lower() == "true"},
                            "else": keep,
                        },
                    }
                )
    added = ADDED.search(text)
    link = noun_link(added.group(1), own, cols) if added else None
    if link and (_props(cols, link[1]).get(added.group(2)) or {}).get("type") in ("number", "integer"):
        path = [{"from": "record", "path": [link[0]]}, {"from": "const", "value": added.group(2)}]
        effects.append(
            {"op": "adjust", "collection": link[1], "path": path, "delta": {"from": "figure", "name": "fee"}}
        )
    if returning:
        steps.append(
            [
                "returned",
                {
                    "if_field": {"param": plan.key_param, "field": field, "in": returning},
                    "then": {"const": True},
                    "else": {"const": False},
                },
            ]
        )
    block = _block(text, own, spec.parameters.get("properties") or {}, field, today, bool(returning))
    if block:
        effects = [_reading(e, block) for e in effects if e.get("field") != block["field"]] + [block]
    quote = {"named": {plan.key_param: plan.collection}, "select": {}, "steps": steps, "fields": [], "assign": {}}
    quote.update({"states": {}, "guards": []})
    evidence = plan.evidence + [f"a fee by `{field}` read from the docs' bullets"]
    return ToolPlan.from_dict({**plan.to_dict(), "quote": quote, "effects": effects, "evidence": evidence})


def _returns(own: dict[str, Any], cols: dict[str, Any], number: str, when: dict[str, Any]) -> list[dict[str, Any]]:
    """Each entry of the record's one list naming records that hold `number` gives its one count back."""
    out = []
    for list_field, schema in sorted(own.items()):
        items = ((schema.get("items") or {}).get("properties") or {}) if isinstance(schema, dict) else {}
        for via in sorted(f for f in items if f.endswith("_id")):
            target = (items.get(via) or {}).get("x-references") or next(
                (c for c in (f"{via[:-3]}s",) if c in cols), None
            )
            counts = count_fields(items)
            counts = [f for f in counts if f in COUNTS] if len(counts) > 1 else counts  # `litres` beside `hulls`
            if target and number in _props(cols, target) and len(counts) == 1:
                out.append(
                    {
                        "op": "each_entry_adjust",
                        "list": list_field,
                        "via": via,
                        "collection": target,
                        "field": number,
                        "amount": counts[0],
                        "sign": 1,
                        "when": when,
                    }
                )
    return out if len(out) == 1 else []


def _block(
    text: str, own: dict[str, Any], params: dict[str, Any], field: str, today: str, returns: bool
) -> dict[str, Any] | None:
    """The object the change records, every key read, else None."""
    said = next(
        (
            m
            for m in BLOCK.finditer(text)
            if isinstance(own.get(m.group(1)), dict) or "object" in str((own.get(m.group(1)) or {}).get("type"))
        ),
        None,
    )
    if said is None:
        return None
    sources: dict[str, Any] = {}
    for k in [k.strip() for k in said.group(2).split(",") if k.strip()]:
        if k in params:
            sources[k] = {"from": "arg", "name": k}
        elif k == "date":
            sources[k] = {"from": "const", "value": today}
        elif k == f"previous_{field}":
            sources[k] = {"from": "figure", "name": k}
        elif k == "fee":
            sources[k] = {"from": "figure", "name": "fee"}
        elif returns and "returned" in split_words(k):
            sources[k] = {"from": "figure", "name": "returned"}
        else:
            return None
    return {"op": "set", "field": said.group(1), "source": {"from": "object", "fields": sources}}


def _reading(effect: dict[str, Any], block: dict[str, Any]) -> dict[str, Any]:
    """An effect whose sources read keys of the object the change records reads them as the change records them
    (an appended note "<reason>; cancelled from <previous_status>" written with the new values)."""
    fields = block["source"]["fields"]

    def swap(node: Any) -> Any:
        if isinstance(node, dict):
            path = node.get("path") if node.get("from") == "record" else None
            if isinstance(path, list) and len(path) == 2 and path[0] == block["field"] and path[1] in fields:
                return fields[path[1]]
            return {k: swap(v) for k, v in node.items()}
        if isinstance(node, list):
            return [swap(v) for v in node]
        return node

    return swap(effect)


def _joined_bullets(text: str) -> str:
    """The text with each bullet's indented continuation lines joined onto it (a bullet wrapped after its ";")."""
    out: list[str] = []
    for line in text.split("\n"):
        if out and re.match(r"\s+\S", line) and not re.match(r"\s*[-*]\s", line) and re.match(r"\s*[-*]\s", out[-1]):
            out[-1] = out[-1].rstrip() + " " + line.strip()
        else:
            out.append(line)
    return "\n".join(out)
