"""A berth stay checked in: two tab lines posted as the docs spell them (a kind, an amount read off the stay, a text
with the stay's nights in it, the business date, the next position ids), the balance recomputed from the tab and the
payments as the sample stays show it, and the berth the call assigns marked occupied; allowed from the arrival date
until the day before departure, on a free berth of the stay's class. Planned, rendered and run."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.allowed_when import allowed_checks
from synth.envsynth.list_totals import with_list_totals
from synth.envsynth.plan import ToolPlan
from synth.envsynth.posted_lines import posted_lines, with_posted_lines
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N = {"type": "string"}, {"type": "number"}
KINDS = {"type": "string", "x-enum": ["BERTH", "LEVY", "FUEL"]}
LINE = {"type": "object", "properties": {"line_id": S, "kind": KINDS, "description": S, "amount": N, "date": S}}
PAID = {"type": "object", "properties": {"payment_id": S, "amount": N, "date": S}}
STAY = {
    "stay_id": S,
    "berth_id": {"type": ["string", "null"]},
    "berth_class_id": S,
    "arrival": S,
    "departure": S,
    "status": {"type": "string", "x-enum": ["booked", "moored", "left"]},
    "nights": {"type": "integer"},
    "berth_total": N,
    "levy": N,
    "balance": N,
    "tab": {"type": "array", "items": LINE},
    "payments": {"type": "array", "items": PAID},
}
SCHEMA = {
    "type": "object",
    "properties": {
        "stays": collection(STAY),
        "berths": collection(
            {"berth_id": S, "berth_class_id": S, "status": {"type": "string", "x-enum": ["free", "occupied", "closed"]}}
        ),
    },
}
TODAY = "2030-06-01"
TEXT = (
    "Checks a `booked` stay in and assigns a berth.\n\nEffects: the berth becomes `occupied`; the stay's `berth_id` "
    "is set; two tab lines are posted, dated the business date: `BERTH` (amount `berth_total`, description "
    "`Berth charges, N nights`) and `LEVY` (amount `levy`, description `Harbour levy`); `balance` is recomputed "
    "(tab total minus payments, so prepayments count); status becomes `moored`. Allowed from the arrival date "
    "(inclusive) until the day before departure. The berth must be of the stay's berth class and have status `free`."
)
SPEC = ToolSpec(
    "check_in_stay",
    TEXT,
    {"type": "object", "properties": {"stay_id": S, "berth_id": S}, "required": ["stay_id", "berth_id"]},
)


def _line(n: int, kind: str, amount: float) -> dict[str, Any]:
    return {"line_id": f"L{n}", "kind": kind, "description": kind.lower(), "amount": amount, "date": "2030-05-01"}


def _stay(key: str, status: str, tab: list[dict[str, Any]], paid: list[float], nights: int = 2) -> dict[str, Any]:
    payments = [{"payment_id": f"P{i + 1}", "amount": a, "date": "2030-05-01"} for i, a in enumerate(paid)]
    balance = round(sum(e["amount"] for e in tab) - sum(paid), 2)
    stay = {"stay_id": key, "berth_id": None, "status": status, "nights": nights, "berth_total": 80.0, "levy": 6.4}
    stay.update(berth_class_id="C1", arrival="2030-06-01", departure="2030-06-03")
    return {**stay, "balance": balance, "tab": tab, "payments": payments}


def _state() -> dict[str, Any]:
    return {
        "stays": {
            "S1": _stay("S1", "left", [_line(1, "BERTH", 80.0), _line(2, "LEVY", 6.4), _line(3, "FUEL", 20.0)], [50.0]),
            "S2": _stay("S2", "moored", [_line(1, "BERTH", 120.0), _line(2, "LEVY", 9.6)], []),
            "S3": _stay("S3", "left", [_line(1, "BERTH", 40.0), _line(2, "LEVY", 3.2)], [43.2]),
            "S4": _stay("S4", "booked", [], [30.0], nights=3),
            "S5": _stay("S5", "booked", [], []),
            "S6": {**_stay("S6", "booked", [], []), "arrival": "2030-06-02", "departure": "2030-06-04"},
            "S7": {**_stay("S7", "booked", [], []), "arrival": "2030-05-30", "departure": "2030-06-01"},
        },
        "berths": {
            "B1": {"berth_id": "B1", "berth_class_id": "C1", "status": "free"},
            "B2": {"berth_id": "B2", "berth_class_id": "C1", "status": "free"},
            "B3": {"berth_id": "B3", "berth_class_id": "C2", "status": "free"},
            "B4": {"berth_id": "B4", "berth_class_id": "C1", "status": "closed"},
        },
    }


def _plan() -> ToolPlan:
    base = ToolPlan(
        kind="recorded_update",
        collection="stays",
        key_field="stay_id",
        key_param="stay_id",
        preconditions={"status": ["booked"]},
        effects=[
            {"op": "set", "field": "status", "source": {"from": "const", "value": "moored"}},
            {"op": "ref_set", "collection": "berths", "via": "berth_id", "field": "status", "value": "occupied"},
            {"op": "set", "field": "berth_id", "source": {"from": "arg", "name": "berth_id"}},
        ],
    )
    posted = with_posted_lines(base, SCHEMA, TEXT, _state(), TODAY)
    totals = with_list_totals(posted, SCHEMA, TEXT, _state(), posted.effects[-1]["field"])
    return allowed_checks(SPEC, totals, SCHEMA, TEXT, TODAY)


def test_the_lines_are_read_as_spelt() -> None:
    own = SCHEMA["properties"]["stays"]["additionalProperties"]["properties"]
    effect = posted_lines(TEXT, own, list(_state()["stays"].values()), TODAY)
    assert effect is not None and effect["field"] == "tab"
    first, second = (item["fields"] for item in effect["items"])
    assert first["amount"] == {"from": "record", "path": ["berth_total"]}
    assert first["description"]["parts"] == ["Berth charges, ", {"from": "record", "path": ["nights"]}, " nights"]
    assert (first["line_id"]["prefix"], first["line_id"]["after"], second["line_id"]["after"]) == ("L", 1, 2)
    assert second["description"] == {"from": "const", "value": "Harbour levy"} and second["date"]["value"] == TODAY
    unknown = TEXT.replace("`LEVY` (amount", "`TOLL` (amount")  # a kind no entry field knows
    assert posted_lines(unknown, own, list(_state()["stays"].values()), TODAY) is None


def test_a_check_in_posts_the_lines_and_recomputes_the_balance() -> None:
    plan = _plan()
    assert [e["op"] for e in plan.effects][-2:] == ["append", "derive"]
    named = [(c["op"], c["field"]) for c in plan.checks if c["op"].startswith("named_")]
    assert named == [("named_same", "berth_class_id"), ("named_state", "status")]
    assert [(c["field"], c["cmp"]) for c in plan.checks if c["op"] == "dated"] == [
        ("arrival", "<="),
        ("departure", ">"),
    ]

    def checked_in(key: str, berth: str) -> dict[str, Any]:
        out = copy.deepcopy(_state())
        stay = out["stays"][key]
        lines = [
            {
                "line_id": "L1",
                "kind": "BERTH",
                "description": f"Berth charges, {stay['nights']} nights",
                "amount": 80.0,
            },
            {"line_id": "L2", "kind": "LEVY", "description": "Harbour levy", "amount": 6.4},
        ]
        stay["tab"] = [{**line, "date": TODAY} for line in lines]
        stay.update(
            status="moored", berth_id=berth, balance=round(86.4 - sum(p["amount"] for p in stay["payments"]), 2)
        )
        out["berths"][berth]["status"] = "occupied"
        return out

    calls = [
        ({"stay_id": "S4", "berth_id": "B2"}, checked_in("S4", "B2")),  # a prepayment of 30 counts
        ({"stay_id": "S5", "berth_id": "B1"}, checked_in("S5", "B1")),
        ({"stay_id": "S2", "berth_id": "B1"}, None),  # already moored
        ({"stay_id": "S6", "berth_id": "B1"}, None),  # arrives tomorrow
        ({"stay_id": "S7", "berth_id": "B1"}, None),  # departs today
        ({"stay_id": "S5", "berth_id": "B3"}, None),  # a berth of another class
        ({"stay_id": "S5", "berth_id": "B4"}, None),  # a closed berth
    ]
    run_calls(SPEC, plan, SCHEMA, _state, calls)
