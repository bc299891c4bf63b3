"""Charges a boat's return adds on top of the charter's estimate, one per bullet (late fee, fuel, engine time,
mooring fee), kept as a `charges` breakdown and a `final_total`; the marina the call names, else the agreed one;
the boat set free there with the new readings; an engine reading below departure refused; and the plan left as it
was when a bullet or a breakdown key is not read, or the sample's breakdowns disagree with the figures."""

from __future__ import annotations

import copy

from synth.envsynth.charge_items import with_itemized_charges
from synth.envsynth.codegen import render_tool
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

TODAY = "2026-06-12"
S, N = {"type": "string"}, {"type": "number"}
MAYBE_N = {"type": ["number", "null"]}
BREAKDOWN = {
    "late_days": N,
    "late_fee": N,
    "fuel_charge": N,
    "hours_used": N,
    "excess_hours": N,
    "engine_charge": N,
    "mooring_fee": N,
}
CHARTER = {
    "charter_id": S,
    "boat_id": {**S, "x-references": "boats"},
    "status": {"type": "string", "x-enum": ["active", "returned"]},
    "start_date": S,
    "end_date": S,
    "daily_rate": N,
    "estimated_total": N,
    "engine_hours_out": N,
    "engine_hours_in": MAYBE_N,
    "fuel_out": N,
    "fuel_in": MAYBE_N,
    "return_marina_id": {**S, "x-references": "marinas"},
    "returned_to_marina_id": {"type": ["string", "null"], "x-references": "marinas"},
    "charges": {"type": ["object", "null"], "properties": BREAKDOWN},
    "final_total": MAYBE_N,
}
BOAT = {
    "boat_id": S,
    "status": {"type": "string", "x-enum": ["chartered", "free"]},
    "marina_id": {**S, "x-references": "marinas"},
    "engine_hours": N,
    "fuel_quarters": N,
}


def _schema(charter: dict) -> dict:
    cols = {
        "charters": collection(charter),
        "boats": collection(BOAT),
        "marinas": collection({"marina_id": S, "name": S}),
    }
    return {"type": "object", "properties": cols}


SCHEMA = _schema(CHARTER)
HEAD = (
    "Closes an `active` charter. Supply the engine hours and the fuel (quarters of a tank, 0-4) as read on return; "
    "the engine hours cannot be lower than the reading taken at departure. The boat is assumed to come back to the "
    "agreed return marina unless `return_marina_id` says otherwise.\n\n"
    "Charges added on top of the charter's `estimated_total`:\n"
)
LATE = "* **Late fee** - for every day the business date is past `end_date`: the daily rate plus a 20.00 penalty.\n"
FUEL = "* **Fuel** - 12.00 per quarter below the level recorded at departure. Returning fuller earns nothing.\n"
ENGINE = "* **Engine time** - 6 hours per booked charter day are included; each hour beyond costs 4.50.\n"
MOORING = "* **Mooring fee** - 35.00 when the boat is left at a marina other than the agreed return marina.\n"
TAIL = (
    "\nEffects: the charter becomes `returned` with `engine_hours_in`, `fuel_in`, `returned_to_marina_id`, a "
    "`charges` breakdown and `final_total`; the boat becomes `free` at the marina where it was returned with the "
    "new engine and fuel readings."
)


def _docs(*bullets: str, tail: str = TAIL) -> str:
    return HEAD + "".join(bullets) + tail


DOCS = _docs(LATE, FUEL, ENGINE, MOORING)
PARAMS = {
    "charter_id": S,
    "engine_hours": N,
    "fuel_quarters": {"type": "integer"},
    "return_marina_id": S,
}
RETURN = ToolSpec(
    "return_boat",
    DOCS,
    {"type": "object", "properties": PARAMS, "required": ["charter_id", "engine_hours", "fuel_quarters"]},
)
PLAN = ToolPlan.from_dict(
    {
        "kind": "recorded_update",
        "collection": "charters",
        "key_field": "charter_id",
        "key_param": "charter_id",
        "preconditions": {"status": ["active"]},
        "effects": [
            {"op": "set", "field": "status", "source": {"from": "const", "value": "returned"}},
            {"op": "set", "field": "engine_hours_in", "source": {"from": "arg", "name": "engine_hours"}},
            {"op": "set", "field": "fuel_in", "source": {"from": "arg", "name": "fuel_quarters"}},
            {"op": "set", "field": "return_marina_id", "source": {"from": "arg", "name": "return_marina_id"}},
            {"op": "ref_set", "collection": "boats", "via": "boat_id", "field": "status", "value": "free"},
        ],
    }
)


def _charter(key: str, boat: str, **kw) -> dict:
    base = {"charter_id": key, "boat_id": boat, "status": "active", "start_date": "2026-06-01"}
    base.update(end_date="2026-06-05", daily_rate=150.0, estimated_total=600.0, engine_hours_out=1200.0)
    base.update(engine_hours_in=None, fuel_out=4, fuel_in=None, return_marina_id="M1", returned_to_marina_id=None)
    return {**base, "charges": None, "final_total": None, **kw}


def _boat(key: str, **kw) -> dict:
    return {"boat_id": key, "status": "chartered", "marina_id": "M1", "engine_hours": 1200.0, "fuel_quarters": 4, **kw}


# returned to M2 a day late, a quarter short, 20 hours on a 2-day charter (12 included, 8 beyond)
DONE = _charter("C0", "B0", status="returned", start_date="2026-05-01", end_date="2026-05-03", estimated_total=300.0)
DONE.update(engine_hours_out=500.0, engine_hours_in=520.0, fuel_in=3, returned_to_marina_id="M2")
DONE.update(final_total=553.0)
DONE["charges"] = {
    "late_days": 1,
    "late_fee": 170.0,
    "fuel_charge": 12.0,
    "hours_used": 20.0,
    "excess_hours": 8.0,
    "engine_charge": 36.0,
    "mooring_fee": 35.0,
}
STATE = {
    "charters": {
        "C0": DONE,
        "C1": _charter("C1", "B1"),  # ended 2026-06-05: seven days late
        "C2": _charter("C2", "B2", end_date="2026-06-14", fuel_out=3),  # not yet due, fuel out at 3 quarters
    },
    "boats": {"B0": _boat("B0", status="free", marina_id="M2"), "B1": _boat("B1"), "B2": _boat("B2")},
    "marinas": {"M1": {"marina_id": "M1", "name": "North Quay"}, "M2": {"marina_id": "M2", "name": "Harbour"}},
}


def _itemized(docs: str = DOCS, today: str | None = TODAY, sample: dict | None = None, schema=SCHEMA) -> ToolPlan:
    return with_itemized_charges(PLAN, docs, schema, PARAMS, today, sample)


def _run(plan: ToolPlan, cases: list[Case]) -> tuple[int, str]:
    res, err = run_cases(render_tool(RETURN, plan, SCHEMA), RETURN.name, cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    return res.passed, err


def _after(key: str, boat: str, place: str, hours: float, fuel: int, charges: dict, total: float) -> dict:
    state = copy.deepcopy(STATE)
    state["charters"][key].update(status="returned", engine_hours_in=hours, fuel_in=fuel, final_total=total)
    state["charters"][key].update(returned_to_marina_id=place, charges=charges)
    state["boats"][boat].update(status="free", marina_id=place, engine_hours=hours, fuel_quarters=fuel)
    return state


def test_each_bullet_becomes_figures_a_breakdown_a_total_and_the_boats_new_place() -> None:
    plan = _itemized(sample=STATE)
    assert plan is not PLAN and plan.quote
    steps = dict(plan.quote["steps"])
    assert list(steps) == [
        "place",
        "late_days",
        "late_fee",
        "fuel_charge",
        "hours_used",
        "excess_hours",
        "engine_charge",
        "mooring_fee",
        "final_total",
    ]
    assert steps["place"] == {"arg": "return_marina_id", "default_field": ["charter_id", "return_marina_id"]}
    assert plan.quote["named"] == {"return_marina_id": "marinas", "charter_id": "charters"}
    fields = {e["field"]: e for e in plan.effects if e["op"] == "set"}
    assert "return_marina_id" not in fields  # the agreed marina stays as booked
    assert fields["returned_to_marina_id"]["source"] == {"from": "figure", "name": "place"}
    assert fields["final_total"]["source"] == {"from": "figure", "name": "final_total"}
    assert set(fields["charges"]["source"]["fields"]) == set(BREAKDOWN)
    boat = {e["field"]: e for e in plan.effects if e["op"] == "ref_set"}
    assert boat["marina_id"]["figure"] == "place"
    assert (boat["engine_hours"]["arg"], boat["fuel_quarters"]["arg"]) == ("engine_hours", "fuel_quarters")
    assert plan.checks == [
        {"op": "arg_limit", "arg": "engine_hours", "cmp": ">=", "expr": {"plus": [{"path": ["engine_hours_out"]}]}}
    ]


def test_a_late_return_elsewhere_and_an_on_time_one_to_the_agreed_marina() -> None:
    plan = _itemized(sample=STATE)
    # C1: 7 days late at 150 + 20; 2 quarters short; 4 booked days allow 24 hours, 31.5 used; left at M2
    late = {"late_days": 7, "late_fee": 1190.0, "fuel_charge": 24.0, "hours_used": 31.5, "excess_hours": 7.5}
    late.update(engine_charge=33.75, mooring_fee=35.0)
    # C2: not due yet; fuller than at departure; within the allowance; no marina named, so the agreed M1
    on_time = {"late_days": 0, "late_fee": 0.0, "fuel_charge": 0.0, "hours_used": 20.0, "excess_hours": 0.0}
    on_time.update(engine_charge=0.0, mooring_fee=0.0)
    expected = [
        ({"return_marina_id": "M2", "engine_hours": 1231.5, "fuel_quarters": 2}, "C1", "B1", "M2", late, 1882.75),
        ({"engine_hours": 1220.0, "fuel_quarters": 4}, "C2", "B2", "M1", on_time, 600.0),
        ({"return_marina_id": "M1", "engine_hours": 1220.0, "fuel_quarters": 4}, "C2", "B2", "M1", on_time, 600.0),
    ]
    cases = []
    for args, key, boat, place, charges, total in expected:
        case = Case(RETURN.name, "x", STATE, {"charter_id": key, **args}, expect_error=False)
        state = _after(key, boat, place, args["engine_hours"], args["fuel_quarters"], charges, total)
        assert state["charters"][key]["return_marina_id"] == "M1"  # the agreed marina is left as it was
        case.state_checks = [{"op": "equals", "state": state}]
        cases.append(case)
    passed, err = _run(plan, cases)
    assert err == "" and passed == len(cases)


def test_an_engine_reading_below_the_one_at_departure_is_refused() -> None:
    plan = _itemized(sample=STATE)
    below = Case(RETURN.name, "x", STATE, {"charter_id": "C1", "engine_hours": 1199.5, "fuel_quarters": 4})
    below.expect_error = True
    below.state_checks = [{"op": "unchanged"}]
    level = Case(RETURN.name, "x", STATE, {"charter_id": "C2", "engine_hours": 1200.0, "fuel_quarters": 3})
    level.expect_error = False
    passed, err = _run(plan, [below, level])
    assert err == "" and passed == 2


def test_a_marina_that_is_not_stored_is_refused() -> None:
    plan = _itemized(sample=STATE)
    args = {"charter_id": "C1", "engine_hours": 1210.0, "fuel_quarters": 4, "return_marina_id": "M9"}
    case = Case(RETURN.name, "x", STATE, args, expect_error=True)
    case.state_checks = [{"op": "unchanged"}]
    passed, err = _run(plan, [case])
    assert err == "" and passed == 1


def test_a_breakdown_key_no_bullet_reads_leaves_the_plan() -> None:
    charter = {**CHARTER, "charges": {"type": "object", "properties": {**BREAKDOWN, "hours_allowed": N}}}
    assert _itemized(schema=_schema(charter)) is PLAN
    assert _itemized(schema=SCHEMA) is not PLAN  # the same docs with every key read


def test_a_bullet_whose_rule_is_not_read_leaves_the_plan() -> None:
    cleaning = "* **Cleaning fee** - charged at the skipper's discretion.\n"
    assert _itemized(_docs(LATE, FUEL, ENGINE, MOORING, cleaning)) is PLAN
    assert _itemized(_docs(LATE, FUEL, ENGINE)) is PLAN  # the breakdown's `mooring_fee` is then not read


def test_a_sample_breakdown_the_figures_do_not_reproduce_leaves_the_plan() -> None:
    wrong = copy.deepcopy(STATE)
    wrong["charters"]["C0"]["charges"]["fuel_charge"] = 14.0  # one quarter short is 12.00
    wrong["charters"]["C0"]["final_total"] = 555.0  # the total agrees with the breakdown held
    assert _itemized(sample=wrong) is PLAN
    off_total = copy.deepcopy(STATE)
    off_total["charters"]["C0"]["final_total"] = 560.0  # the charges agree, their sum does not
    assert _itemized(sample=off_total) is PLAN


def test_the_dated_figures_of_a_sample_are_not_checked_and_agreeing_ones_keep_the_reading() -> None:
    other_day = copy.deepcopy(STATE)
    other_day["charters"]["C0"]["charges"].update(late_days=3, late_fee=510.0)  # read on another business date
    other_day["charters"]["C0"]["final_total"] = 893.0
    for sample in (STATE, other_day, None):
        plan = _itemized(sample=sample)
        assert plan is not PLAN and [n for n, _ in plan.quote["steps"]][-1] == "final_total"


def test_an_overdue_rule_without_a_business_date_leaves_the_plan() -> None:
    assert _itemized(today=None, sample=STATE) is PLAN
    assert _itemized(_docs(FUEL, ENGINE, MOORING), today=None) is PLAN  # `late_days` and `late_fee` not read
    charter = {**CHARTER, "charges": {"type": "object", "properties": {k: N for k in list(BREAKDOWN)[2:]}}}
    assert _itemized(_docs(FUEL, ENGINE, MOORING), today=None, schema=_schema(charter)) is not PLAN


def test_each_unit_beyond_reads_in_either_number() -> None:
    engine = ENGINE.replace("each hour beyond", "each hours beyond")
    assert _itemized(_docs(LATE, FUEL, engine, MOORING), sample=STATE) is not PLAN
    assert _itemized(_docs(LATE, FUEL, ENGINE.replace("each hour", "each day"), MOORING), sample=STATE) is PLAN


def test_a_penalty_with_cents_is_read_in_full() -> None:
    late = LATE.replace("20.00", "20.50")
    plan = _itemized(_docs(late, FUEL, ENGINE, MOORING))
    assert {"num": 20.5} in dict(plan.quote["steps"])["late_fee"]["round"]["args"][1]["args"]


def test_the_boat_is_free_at_the_marina_as_the_module_docstring_writes_it() -> None:
    plan = _itemized(_docs(LATE, FUEL, ENGINE, MOORING, tail=TAIL.replace("boat becomes", "boat is")), sample=STATE)
    assert "marina_id" in {e["field"] for e in plan.effects if e["op"] == "ref_set"}
