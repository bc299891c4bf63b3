"""Charges a change adds on top of a record's amount, one per bullet, kept as a breakdown object and a final total:

    The boat is assumed to come back to the agreed return marina unless `return_marina_id` says otherwise.
    Charges added on top of the charter's `estimated_total`:
    * **Late fee** - for every day the business date is past `end_date`: the daily rate plus a 20.00 penalty.
    * **Fuel** - 12.00 per quarter below the level recorded at departure. Returning fuller earns nothing.
    * **Engine time** - 6 hours per booked charter day are included; each hour beyond costs 4.50.
    * **Mooring fee** - 35.00 when the boat is left at a marina other than the agreed return marina.
    Effects: ... with `returned_to_marina_id`, a `charges` breakdown and `final_total`; the boat is `free` at the
    marina where it was returned with the new engine and fuel readings.

Each bullet becomes figures of the change (a plan `quote`, computed on the record as found):
- "for every day the business date is past `<date>`: <terms>" is the days past that date (at least 0) times the sum
  of the terms ("the daily rate" is the record's `daily_rate`, "a 20.00 penalty" is 20.00);
- "<rate> per <unit> below|above the <level>" is the rate times how far the argument named by the unit
  (`fuel_quarters`) falls short of (goes beyond) the record's number of the same kind the call does not set;
- "<n> <unit>s per booked <x> day are included; each <unit> beyond costs <rate>": the argument named by the unit
  less the record's reading of the same kind is what was used, the allowance is n per day from the record's start
  date to its end date, the excess (at least 0) times the rate is the charge;
- "<amount> when the <noun> is left at a <place> other than the agreed <words>" is due when the place the call
  names ("unless `<param>` says otherwise", else the agreed one) differs from the record's field those words name.
The breakdown's keys are matched by their words: the charge by the bullet's first word and a money word
(`fuel_charge`, `late_fee`), the counts by the unit (`late_days`, `hours_used`, `excess_hours`); every key must be
read, and the figures must reproduce the breakdowns of the sample's records that hold one, or nothing is added.
The final total is the base amount plus the charges. The place is kept in the field the docs list for it, the
argument's own field (the agreed place) is left as it is, and the record the change releases takes the place and
the new readings ("at the <place> where it was returned with the new ... readings").
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.docs_appends import is_number
from synth.envsynth.entry_texts import with_new_values
from synth.envsynth.formula_runtime import fg_formula
from synth.envsynth.plan import ToolPlan
from synth.spec import record_props as _props
from synth.words import singular

HEAD = re.compile(
    r"(?:charges|fees|costs)\s+(?:are\s+)?added\s+on\s+top\s+of\s+the\s+[\w-]+?['\u2019]s\s+`(?P<base>\w+)`\s*:", re.I
)
BULLET = re.compile(r"^\s*[*-]\s+\*\*(?P<name>[^*]+)\*\*\s*(?:[-\u2013\u2014:])\s*(?P<rule>.*)$")
BREAKDOWN = re.compile(r"a\s+`(?P<obj>\w+)`\s+breakdown\s+and\s+`(?P<total>\w+)`", re.I)
NUM = r"\d+(?:\.\d+)?"
OVERDUE = re.compile(
    r"for\s+(?:every|each)\s+day\s+the\s+business\s+date\s+is\s+(?:past|after)\s+`(?P<date>\w+)`\s*:\s*"
    r"(?P<terms>(?:[^.]|\.(?=\d))+)",
    re.I,
)
SHORT = re.compile(rf"^(?P<rate>{NUM})\s+per\s+(?P<unit>[a-z]+)\s+(?P<way>below|under|above|over)\s+the\s+", re.I)
ALLOWANCE = re.compile(
    rf"^(?P<n>{NUM})\s+(?P<unit>[a-z]+)\s+per\s+booked\s+(?:[a-z]+\s+)?day\s+(?:are|is)\s+included\s*[;,]\s*"
    rf"each\s+(?P<each>[a-z]+)\s+(?:beyond|above|over)(?:\s+that)?\s+costs\s+(?P<rate>{NUM})",
    re.I,
)
ELSEWHERE = re.compile(
    rf"^(?P<amount>{NUM})\s+when\s+the\s+[\w-]+\s+is\s+(?:left|returned|dropped\s+off)\s+at\s+an?\s+[a-z]+\s+"
    r"other\s+than\s+the\s+(?:agreed\s+|booked\s+|planned\s+)?(?P<words>[a-z ]+?)\s*(?:\.|$)",
    re.I,
)
UNLESS = re.compile(r"unless\s+`(?P<param>\w+)`\s+says\s+otherwise", re.I)
LOWER = re.compile(r"cannot\s+be\s+lower\s+than\s+the\s+(?:reading|level|value)", re.I)
AT_PLACE = re.compile(r"\b(?:becomes|is)\s+`\w+`\s+at\s+the\s+(?P<words>[a-z]+)\s+where\s+it\s+was\s+[a-z]+", re.I)
NEW_READINGS = re.compile(r"\bwith\s+the\s+new\s+[a-z ,]+?readings\b", re.I)
MONEY = {"fee", "charge", "cost", "amount", "price", "surcharge", "penalty"}
EXCESS = {"excess", "extra", "over", "beyond"}


def _bullets(text: str) -> tuple[str, list[tuple[str, str]]] | None:
    """(the base amount field, [(bullet name, rule)]) of the first charges list, continuation lines joined."""
    m = HEAD.search(text)
    if not m:
        return None
    items: list[list[str]] = []
    for line in text[m.end() :].lstrip(" \t").split("\n")[1:]:
        if not line.strip():
            break
        if b := BULLET.match(line):
            items.append([b.group("name").strip(), b.group("rule").strip()])
        elif items and line.startswith((" ", "\t")):
            items[-1][1] += " " + line.strip()
        else:
            break
    return (m.group("base"), [(n, r) for n, r in items]) if items else None


def _words(name: str) -> list[str]:
    return re.findall(r"[a-z]+", name.lower().replace("-", ""))


def _by_words(words: str, own: dict[str, Any]) -> str | None:
    """The field a run of words names, as written or with `_id` ("return marina" -> `return_marina_id`)."""
    joined = "_".join(_words(words))
    return next((f for f in (joined, f"{joined}_id") if f in own), None)


def _param_by_unit(unit: str, params: dict[str, Any]) -> str | None:
    """The one number parameter whose name holds the unit ("hour" -> `engine_hours`)."""
    unit = singular(unit.lower())
    hits = [p for p, s in params.items() if is_number(s) and unit in {singular(w) for w in p.split("_")}]
    return hits[0] if len(hits) == 1 else None


def _reading(param: str, own: dict[str, Any], set_here: set[str]) -> str | None:
    """The record's one number field of the parameter's kind (its first word) that the call does not set."""
    stem = param.split("_")[0]
    hits = [f for f, s in own.items() if is_number(s) and f.split("_")[0] == stem and f not in set_here]
    return hits[0] if len(hits) == 1 else None


def _dates(end: str, own: dict[str, Any]) -> tuple[str, str] | None:
    start = next(
        (end.replace("end", w, 1) for w in ("start", "begin", "from") if end.replace("end", w, 1) in own), None
    )
    return (start, end) if "end" in end and start else None


def _terms(said: str, own: dict[str, Any], key: str) -> dict[str, Any] | None:
    """'the daily rate plus a 20.00 penalty' as a sum of record fields and numbers."""
    nodes: list[dict[str, Any]] = []
    for part in re.split(r"\s+(?:plus|\+)\s+", said.strip()):
        if n := re.match(rf"^(?:an?\s+)?(?P<n>{NUM})\b", part.strip()):
            nodes.append({"num": float(n.group("n"))})
        elif (f := re.match(r"^the\s+(?P<words>[a-z ]+)$", part.strip())) and (
            field := _by_words(f.group("words"), own)
        ):
            if not is_number(own[field]):
                return None
            nodes.append({"field": field, "param": key})
        else:
            return None
    node = nodes[0]
    for more in nodes[1:]:
        node = {"op": "+", "args": [node, more]}
    return node


def _money(values: Any) -> dict[str, Any]:
    return {"round": values, "digits": 2}


def _floor0(node: dict[str, Any]) -> dict[str, Any]:
    return {"op": "max", "args": [node, {"num": 0}]}


def _read(rule: str, ctx: dict[str, Any]) -> tuple[str, dict[str, dict[str, Any]], list[str]] | None:
    """(the charge's figure name, {figure: node} for it and its counts, count kinds in order) or None."""
    key, own, params, today = ctx["key"], ctx["own"], ctx["params"], ctx["today"]
    if (m := OVERDUE.search(rule)) and today and m.group("date") in own:
        per = _terms(m.group("terms"), own, key)
        if per is None:
            return None
        days = _floor0({"days_since": m.group("date"), "param": key, "today": today})
        return "charge", {"days": days, "charge": _money({"op": "*", "args": [{"val": "days"}, per]})}, ["days"]
    if m := SHORT.match(rule):
        arg = _param_by_unit(m.group("unit"), params)
        ref = _reading(arg, own, ctx["set_here"]) if arg else None
        if not ref:
            return None
        a, b = {"field": ref, "param": key}, {"arg": arg}
        gap = {"op": "-", "args": [a, b] if m.group("way").lower() in ("below", "under") else [b, a]}
        return "charge", {"charge": _money({"op": "*", "args": [_floor0(gap), {"num": float(m.group("rate"))}]})}, []
    m = ALLOWANCE.match(rule)
    if m and singular(m.group("each").lower()) == singular(m.group("unit").lower()) and ctx["dates"]:
        arg = _param_by_unit(m.group("unit"), params)
        ref = _reading(arg, own, ctx["set_here"]) if arg else None
        if not ref:
            return None
        start, end = ctx["dates"]
        days = {"days_between": [{"field": start, "param": key}, {"field": end, "param": key}]}
        allowed = {"op": "*", "args": [{"num": int(float(m.group("n")))}, days]}
        figures = {
            "used": {"op": "-", "args": [{"arg": arg}, {"field": ref, "param": key}]},
            "excess": _floor0({"op": "-", "args": [{"val": "used"}, allowed]}),
            "charge": _money({"op": "*", "args": [{"val": "excess"}, {"num": float(m.group("rate"))}]}),
        }
        return "charge", figures, ["used", "excess"]
    if (m := ELSEWHERE.match(rule)) and ctx["place"] and (agreed := _by_words(m.group("words"), own)):
        differ = {"differ": [{"val": "place"}, {"field": agreed, "param": key}]}
        return "charge", {"charge": _money({"op": "*", "args": [differ, {"num": float(m.group("amount"))}]})}, []
    return None


def _count_key(kind: str, rule: str, free: list[str], first: str) -> str | None:
    """The breakdown key a count is kept in: the unit's word, and an excess word for the excess."""
    unit = "day" if kind == "days" else (ALLOWANCE.match(rule) or SHORT.match(rule)).group("unit").lower()
    hits = [k for k in free if singular(unit) in {singular(w) for w in k.split("_")}]
    if kind == "excess":
        hits = [k for k in hits if set(k.split("_")) & EXCESS]
    elif kind == "used":
        hits = [k for k in hits if not set(k.split("_")) & EXCESS]
    elif len(hits) > 1:
        hits = [k for k in hits if first in k.split("_")]
    return hits[0] if len(hits) == 1 else None


def _charge_key(name: str, free: list[str]) -> str | None:
    words = _words(name)
    if not words:
        return None
    joined = "_".join(words)
    hits = [k for k in free if k == joined or (k.split("_")[0] == words[0] and set(k.split("_")[1:]) & MONEY)]
    return hits[0] if len(hits) == 1 else None


def _renamed(node: Any, names: dict[str, str]) -> Any:
    if isinstance(node, dict):
        if set(node) == {"val"} and node["val"] in names:
            return {"val": names[node["val"]]}
        return {k: _renamed(v, names) for k, v in node.items()}
    return [_renamed(v, names) for v in node] if isinstance(node, list) else node


def _dated(name: str, steps: dict[str, Any]) -> bool:
    """Whether the figure reads the business date, itself or through a figure it uses."""
    seen = repr(steps.get(name))
    return "days_since" in seen or any(_dated(v, steps) for v in re.findall(r"'val': '([^']+)'", seen) if v != name)


def _reproduces(steps: list[list[Any]], keys: dict[str, str], ctx: dict[str, Any], records: list[Any]) -> bool:
    """Whether the figures give the breakdown each sample record holds (those not reading the business date), and
    the record's total is its base plus its charges. Arguments are read back from the fields the call sets."""
    obj, total, base, charges = ctx["obj"], ctx["total"], ctx["base"], ctx["charges"]
    table = dict(steps)
    for rec in records:
        held = rec.get(obj)
        if not isinstance(held, dict) or not set(keys.values()) <= set(held):
            continue
        args = {p: rec.get(f) for f, p in ctx["from_args"].items()}
        values: dict[str, Any] = {}
        for name, node in steps:
            values[name] = fg_formula(node, args, {ctx["key"]: rec}, values)
        for figure, k in keys.items():
            if not _dated(figure, table) and not _near(values.get(figure), held.get(k)):
                return False
        kept = [held.get(keys[c]) for c in charges]
        if all(isinstance(x, (int, float)) for x in kept + [rec.get(base), rec.get(total)]):
            if not _near(round(rec[base] + sum(kept), 2), rec[total]):
                return False
    return True


def _near(a: Any, b: Any) -> bool:
    numbers = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b))
    return numbers and abs(a - b) < 0.005


def _place(text: str, own: dict[str, Any], params: dict[str, Any], key: str) -> tuple[str, str, dict] | None:
    """(the parameter naming where the change happened, the field the docs keep it in, its figure node):
    "unless `<param>` says otherwise", kept in a listed field whose words extend the parameter's."""
    m = UNLESS.search(text)
    param = m.group("param") if m and m.group("param") in params else None
    if not param:
        return None
    words = param.split("_")
    kept = [
        f
        for f in dict.fromkeys(re.findall(r"`(\w+)`", text))
        if f in own and f != param and all(any(w.startswith(p) for w in f.split("_")) for p in words)
    ]
    if len(kept) != 1:
        return None
    node = {"arg": param, "default_field": [key, param]} if param in own else {"arg": param}
    return param, kept[0], node


def with_itemized_charges(
    plan: ToolPlan,
    text: str,
    state_schema: dict[str, Any],
    params: dict[str, Any],
    today: str | None,
    sample: dict[str, Any] | None = None,
) -> ToolPlan:
    """The change's plan with its charges list read into a breakdown, a final total, the place it happened and the
    released record's new place and readings; unchanged when any part is not read or the sample disagrees."""
    if plan.kind != "recorded_update" or plan.quote or not plan.collection or not plan.key_param:
        return plan
    listed = _bullets(text)
    flat = " ".join(text.split())
    breakdown = BREAKDOWN.search(flat)
    cols = state_schema.get("properties") or {}
    own = _props(cols, plan.collection)
    if not listed or not breakdown or not is_number(own.get(listed[0])) or not is_number(own.get(breakdown["total"])):
        return plan
    keys_schema = (own.get(breakdown["obj"]) or {}).get("properties") or {}
    free = list(keys_schema)
    key = plan.key_param
    from_args = {
        e["field"]: e["source"]["name"]
        for e in plan.effects
        if e.get("op") == "set" and (e.get("source") or {}).get("from") == "arg"
    }
    place = _place(flat, own, params, key)
    if place:
        from_args = {f: p for f, p in from_args.items() if f != place[0]}
        from_args[place[1]] = place[0]
    ends = [m.group("date") for _, r in listed[1] if (m := OVERDUE.search(r))] + [f for f in own if "end" in f]
    ctx = {
        "key": key,
        "own": own,
        "params": params,
        "today": today,
        "set_here": set(from_args),
        "place": place,
        "dates": next((d for d in map(lambda e: _dates(e, own), ends) if d), None),
    }
    steps: list[list[Any]] = [["place", place[2]]] if place else []
    keys: dict[str, str] = {}
    charges: list[str] = []
    for i, (name, rule) in enumerate(listed[1]):
        read = _read(rule, ctx)
        charge = _charge_key(name, free) if read else None
        if read is None or charge is None:
            return plan
        names = {"charge": charge}
        for kind in read[2]:
            found = _count_key(kind, rule, [k for k in free if k != charge], charge.split("_")[0])
            names[kind] = found or f"{i}~{kind}"
        for kind, node in read[1].items():
            steps.append([names[kind], _renamed(node, {**names, "place": "place"})])
        keys.update({names[k]: names[k] for k in names if names[k] in free})
        free = [k for k in free if k not in keys]
        charges.append(charge)
    if free or not charges:
        return plan
    total: dict[str, Any] = {"field": listed[0], "param": key}
    for charge in charges:
        total = {"op": "+", "args": [total, {"val": charge}]}
    steps.append([breakdown["total"], _money(total)])
    records = list(((sample or {}).get(plan.collection) or {}).values())
    ctx.update({"obj": breakdown["obj"], "total": breakdown["total"], "base": listed[0], "charges": charges})
    ctx["from_args"] = from_args
    if not _reproduces(steps, keys, ctx, [r for r in records if isinstance(r, dict)]):
        return plan
    effects = [
        e
        for e in plan.effects
        if not (place and e.get("op") == "set" and e.get("field") == place[0])
        and e.get("field") not in (breakdown["obj"], breakdown["total"])
    ]
    fields = {k: {"from": "figure", "name": k} for k in keys_schema}
    effects.append({"op": "set", "field": breakdown["obj"], "source": {"from": "object", "fields": fields}})
    effects.append({"op": "set", "field": breakdown["total"], "source": {"from": "figure", "name": breakdown["total"]}})
    if place:
        effects.append({"op": "set", "field": place[1], "source": {"from": "figure", "name": "place"}})
    effects += _released(flat, effects, cols, params, place)
    lowest = [  # "the reading cannot be lower than the one taken at departure"
        {
            "op": "arg_limit",
            "arg": node["args"][0]["arg"],
            "cmp": ">=",
            "expr": {"plus": [{"path": [node["args"][1]["field"]]}]},
        }
        for _, node in steps
        if LOWER.search(flat) and isinstance(node, dict) and node.get("op") == "-" and "arg" in node["args"][0]
    ]
    named = {**_named_places(place, own), key: plan.collection}  # a place given must be a stored record
    quote = {"named": named, "select": {}, "steps": steps, "fields": [], "assign": {}}
    quote.update({"states": {}, "guards": []})
    evidence = plan.evidence + [f"charges on top of `{listed[0]}` kept in `{breakdown['obj']}`"]
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "quote": quote,
            "effects": with_new_values(effects),
            "checks": list(plan.checks) + [c for c in lowest if c not in plan.checks],
            "evidence": evidence,
        }
    )


def _named_places(place: tuple | None, own: dict[str, Any]) -> dict[str, str]:
    """{the place parameter: the collection the field it fills references}, or {}."""
    refs = [(own.get(f) or {}).get("x-references") for f in (place[1], place[0])] if place else []
    return {place[0]: next(r for r in refs if r)} if any(refs) else {}


def _released(
    text: str, effects: list[dict[str, Any]], cols: dict[str, Any], params: dict[str, Any], place: tuple | None
) -> list[dict[str, Any]]:
    """What the record the change sets free takes: the place ("at the <place> where it was returned") and the
    readings the call gives under its own field names ("with the new ... readings")."""
    out: list[dict[str, Any]] = []
    at, new = AT_PLACE.search(text), NEW_READINGS.search(text)
    for e in [e for e in effects if e.get("op") == "ref_set"]:
        theirs = _props(cols, e["collection"])
        done = {x["field"] for x in effects + out if x.get("op") == "ref_set" and x["collection"] == e["collection"]}
        where = _by_words(at.group("words"), theirs) if at and place else None
        if where and where not in done:
            out.append(
                {"op": "ref_set", "collection": e["collection"], "via": e["via"], "field": where, "figure": "place"}
            )
        for p in sorted(params) if new else []:
            if p in theirs and is_number(params[p]) and is_number(theirs[p]) and p not in done:
                out.append({"op": "ref_set", "collection": e["collection"], "via": e["via"], "field": p, "arg": p})
    return out


__all__ = ["with_itemized_charges"]
