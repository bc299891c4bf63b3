"""A list read whose recorded answers wrap the records in an object (--traces): `{"pier_id": "P1", "berths": [...],
"total_fees": 140.0}`. The one key holding a list in every answer holds the records (their fields learned as for a
bare list, trace_outputs.py); each other key must have one reading in every recording: an argument answered back
(named like the key, or sharing a word with it), how many records the list holds, a number of theirs summed (a
field whose name the key holds first: `total_fees` sums `fees`), or one value every answer holds. Two recordings at
least, so one coincidence is no rule.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from synth.envsynth.expr_runtime import fg_number as _number
from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase
from synth.envsynth.trace_outputs import answered_fields
from synth.envsynth.traces import same_value as _same

MIN_RECORDINGS = 2
LIST_READS = ("filter", "list", "search")


def _summed(name: str, calls: list[tuple[dict[str, Any], list[Any]]]) -> str | None:
    """The row field whose numbers add up to the answer's `name` in every call, the one `name` holds first."""
    fields = sorted({f for _, rows in calls for r in rows if isinstance(r, dict) for f, v in r.items() if _number(v)})
    for field in sorted(fields, key=lambda f: (f not in name, f)):
        if all(
            _number(out.get(name))
            and all(isinstance(r, dict) and _number(r.get(field)) for r in rows)
            and round(sum(r[field] for r in rows), 6) == round(out[name], 6)
            for out, rows in calls
        ):
            return field
    return None


def _reading(name: str, calls: list[tuple[dict[str, Any], list[Any]]], args: list[dict[str, Any]]) -> dict | None:
    """The envelope rule giving `name` in every recorded answer, or None."""
    for arg in sorted({a for given in args for a in given}):  # named like the key, or sharing a word with it
        if arg != name and not set(arg.split("_")) & set(name.split("_")):
            continue
        if all(arg in given and _same(given[arg], out[name]) for (out, _), given in zip(calls, args, strict=True)):
            return {"op": "arg", "name": arg}
    if all(_same(out[name], len(rows)) for out, rows in calls) and len({len(rows) for _, rows in calls}) > 1:
        return {"op": "count"}
    field = _summed(name, calls)
    if field is not None and len({repr(out[name]) for out, _ in calls}) > 1:
        return {"op": "sum", "field": field}
    first = calls[0][0][name]
    if all(_same(out[name], first) for out, _ in calls) and not isinstance(first, (dict, list)):
        return {"op": "const", "value": first}
    return None


def _said_states(name: str, description: str, records: list[dict[str, Any]]) -> dict[str, list[str]]:
    """{field: values} when the sentence naming `name` names some, not all, values of one state-like field of the
    records ("total_outstanding sums what is still owed on open and overdue bills": status open or overdue)."""
    sentences = [t for t in re.split(r"(?<=[.;])\s+", description) if re.search(rf"\b{re.escape(name)}\b", t)]
    out: dict[str, list[str]] = {}
    for field in sorted({f for r in records for f in r}):
        values = sorted({r[field] for r in records if isinstance(r.get(field), str)})
        if not 2 <= len(values) <= 8 or any(not isinstance(r.get(field), (str, type(None))) for r in records):
            continue
        said = [v for v in values if any(re.search(rf"\b{re.escape(v)}\b", t) for t in sentences)]
        if 0 < len(said) < len(values):
            out[field] = said
    return out if len(out) == 1 else {}


def _where_fits(rule: dict[str, Any], name: str, calls: list[tuple[dict[str, Any], list[Any]]]) -> bool:
    ((field, values),) = rule["where"].items()
    return all(
        round(sum(r[rule["field"]] for r in rows if isinstance(r, dict) and r.get(field) in values), 6)
        == round(out[name], 6)
        for out, rows in calls
    )


def recorded_list_envelope(plan: ToolPlan, recorded: list[TestCase], description: str = "") -> ToolPlan | None:
    """The list read answering its records inside the object its recorded answers show, or None. `description`:
    the tool's, whose sentence naming a summed key may name the states of the records it adds up."""
    if plan.kind not in LIST_READS or plan.output_key:
        return None
    done = [c for c in recorded if not c.expect_error and c.expect_result is not None]
    if len(done) < MIN_RECORDINGS or not all(isinstance(c.expect_result, dict) for c in done):
        return None
    keys = sorted(done[0].expect_result)
    if any(sorted(c.expect_result) != keys for c in done):
        return None
    lists = [k for k in keys if all(isinstance(c.expect_result[k], list) for c in done)]
    if len(lists) != 1:
        return None
    rows_key = lists[0]
    calls = [(c.expect_result, c.expect_result[rows_key]) for c in done]
    extras = {}
    for name in keys:
        if name == rows_key:
            continue
        rule = _reading(name, calls, [c.arguments for c in done])
        if rule is None:
            return None
        if rule["op"] == "sum" and plan.collection:  # only the records in the states the docs name
            stored = [r for c in done for r in (c.state.get(plan.collection) or {}).values() if isinstance(r, dict)]
            where = _said_states(name, description, stored)
            rule = {**rule, "where": where} if where and _where_fits({**rule, "where": where}, name, calls) else rule
        extras[name] = rule
    unwrapped = [dataclasses.replace(c, expect_result=c.expect_result[rows_key]) for c in done]
    shaped = answered_fields(plan, unwrapped) or plan
    return ToolPlan.from_dict({**shaped.to_dict(), "output_key": rows_key, "envelope_extras": extras})


__all__ = ["recorded_list_envelope"]
