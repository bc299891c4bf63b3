"""A charter's cancellation fee by the state it is in, read from the docs' bullets (state_fees.with_state_fee): the
fee on the skipper's balance, the fuel of a boarding charter back in its tanks, the `cancellation` object recording
it all, a history note reading that object, and the plan left alone where a part is not read."""

from __future__ import annotations

from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.envsynth.state_fees import with_state_fee
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

TODAY = "2031-05-02"
S, N, B = {"type": "string"}, {"type": "number"}, {"type": "boolean"}
STATES = ["booked", "confirmed", "boarding", "underway", "docked", "cancelled"]
FUEL = {"type": "array", "items": {"type": "object", "properties": {"tank_id": S, "litres": N}}}
RECORDED = {"date": S, "reason": S, "previous_status": S, "fee": N, "fuel_returned": B}
HISTORY = {"type": "array", "items": {"type": "object", "properties": {"date": S, "note": S}}}
CHARTER = {
    "charter_id": S,
    "skipper_id": {**S, "x-references": "skippers"},
    "status": {"type": "string", "enum": STATES},
    "pricing": {"type": "object", "properties": {"hours": N, "total": N}},
    "fuel": FUEL,
    "fuel_drawn": B,
    "cancellation": {"type": ["object", "null"], "properties": RECORDED},
    "history": HISTORY,
}
COLS = {
    "charters": collection(CHARTER),
    "skippers": collection({"skipper_id": S, "balance_owed": N}),
    "tanks": collection({"tank_id": S, "fuel_litres": N}),
}
SCHEMA = {"type": "object", "properties": COLS}
HEAD = "Cancel a charter. The fee depends on how far it has gone:\n- booked or confirmed: no fee.\n"
BOARDING = (
    "- boarding (crew aboard): fee = 20% of the charter total, at least 15.00 but never more than the charter total"
)
RETURNS = "; the fuel is returned to the depot (fuel_litres goes back up, fuel_drawn becomes false)"
UNDERWAY = "- underway: fee = 70% of the charter total; the fuel is not returned.\n"
ADDED = "Any fee is added to the skipper's balance_owed."
BLOCK = " cancellation = {date, reason, previous_status, fee, fuel_returned}."
TEXT = HEAD + BOARDING + RETURNS + ".\n" + UNDERWAY + ADDED + BLOCK
PARAMS = {"type": "object", "properties": {"charter_id": S, "reason": S}, "required": ["charter_id", "reason"]}
CANCELLED = {"op": "set", "field": "status", "source": {"from": "const", "value": "cancelled"}}


def _spec(text: str = TEXT) -> ToolSpec:
    return ToolSpec("cancel_charter", text, PARAMS)


def _plan(*effects: dict[str, Any]) -> ToolPlan:
    return ToolPlan(
        kind="recorded_update",
        collection="charters",
        key_field="charter_id",
        key_param="charter_id",
        effects=[CANCELLED, *effects],
    )


def _fee_plan(text: str = TEXT, *effects: dict[str, Any], sample: dict[str, Any] | None = None) -> ToolPlan:
    return with_state_fee(_spec(text), _plan(*effects), text, SCHEMA, sample or {}, TODAY)


def _charter(
    key: str, status: str, total: float, fuel: tuple[tuple[str, float], ...] = (), drawn: bool = False
) -> dict:
    return {
        "charter_id": key,
        "skipper_id": "K1",
        "status": status,
        "pricing": {"hours": 4.0, "total": total},
        "fuel": [{"tank_id": t, "litres": n} for t, n in fuel],
        "fuel_drawn": drawn,
        "cancellation": None,
        "history": [],
    }


def _state() -> dict[str, Any]:
    return {
        "charters": {
            "C1": _charter("C1", "booked", 300.0),
            "C2": _charter("C2", "confirmed", 300.0),
            "C3": _charter("C3", "boarding", 92.5, (("T1", 40.0), ("T2", 15.5), ("T1", 10.0)), True),
            "C4": _charter("C4", "boarding", 40.0),  # 20% is 8.00: the 15.00 floor
            "C5": _charter("C5", "boarding", 12.0),  # the floor is above the total: the total
            "C6": _charter("C6", "underway", 10.25, (("T1", 30.0),), True),  # 7.175 -> 7.18 half up
            "C7": _charter("C7", "docked", 80.0),  # no bullet prices it
        },
        "skippers": {"K1": {"skipper_id": "K1", "balance_owed": 10.0}},
        "tanks": {"T1": {"tank_id": "T1", "fuel_litres": 500.0}, "T2": {"tank_id": "T2", "fuel_litres": 200.0}},
    }


def _after(key: str, fee: float, reason: str = "weather", note: str | None = None) -> dict[str, Any]:
    """The state a cancellation leaves, worked out by hand from the bullets."""
    state = _state()
    charter = state["charters"][key]
    previous, returned = charter["status"], charter["status"] == "boarding"
    if returned:
        for entry in charter["fuel"]:
            state["tanks"][entry["tank_id"]]["fuel_litres"] += entry["litres"]
        charter["fuel_drawn"] = False
    state["skippers"]["K1"]["balance_owed"] = 10.0 + fee
    charter["status"] = "cancelled"
    recorded = {"date": TODAY, "reason": reason, "previous_status": previous, "fee": fee, "fuel_returned": returned}
    charter["cancellation"] = recorded
    if note is not None:
        charter["history"] = [{"date": TODAY, "note": note}]
    return state


def _ops(plan: ToolPlan) -> list[tuple[str, str | None]]:
    return [(e["op"], e.get("field") or e.get("collection")) for e in plan.effects]


def test_the_fee_by_state_goes_on_the_skippers_balance() -> None:
    plan = _fee_plan()
    assert [name for name, _ in plan.quote["steps"]][-3:] == ["previous_status", "fee", "returned"]
    assert ("adjust", "skippers") in _ops(plan)
    fees = {"C1": 0, "C2": 0, "C3": 18.5, "C4": 15.0, "C5": 12.0, "C6": 7.18, "C7": 0}
    calls = [({"charter_id": k, "reason": "weather"}, _after(k, fee)) for k, fee in fees.items()]
    run_calls(_spec(), plan, SCHEMA, _state, [*calls, ({"charter_id": "C9", "reason": "weather"}, None)])


def test_a_boarding_charter_gives_its_fuel_back_and_others_keep_it() -> None:
    plan = _fee_plan()
    when = {"field": "status", "in": ["boarding"]}
    back = [e for e in plan.effects if e["op"] == "each_entry_adjust"]
    assert back == [
        {
            "op": "each_entry_adjust",
            "list": "fuel",
            "via": "tank_id",
            "collection": "tanks",
            "field": "fuel_litres",
            "amount": "litres",
            "sign": 1,
            "when": when,
        }
    ]
    flag = next(e for e in plan.effects if e.get("field") == "fuel_drawn")
    assert flag["source"] == {
        "from": "switch",
        "when": when,
        "then": {"from": "const", "value": False},
        "else": {"from": "record", "path": ["fuel_drawn"]},
    }
    boarding, underway = _after("C3", 18.5), _after("C6", 7.18)
    assert boarding["tanks"]["T1"]["fuel_litres"] == 550.0 and boarding["tanks"]["T2"]["fuel_litres"] == 215.5
    assert underway["tanks"] == _state()["tanks"] and underway["charters"]["C6"]["fuel_drawn"] is True
    run_calls(_spec(), plan, SCHEMA, _state, [({"charter_id": "C3", "reason": "weather"}, boarding)])
    run_calls(_spec(), plan, SCHEMA, _state, [({"charter_id": "C6", "reason": "weather"}, underway)])
    # without the returning clause the fee stays, but nothing goes back and the object cannot say `fuel_returned`
    plain = _fee_plan(HEAD + BOARDING + ".\n" + UNDERWAY + ADDED + BLOCK)
    assert _ops(plain) == [("set", "status"), ("adjust", "skippers")]
    assert "returned" not in [name for name, _ in plain.quote["steps"]]


def test_the_cancellation_object_records_date_reason_state_fee_and_return() -> None:
    plan = _fee_plan()
    block = plan.effects[-1]
    assert block == {
        "op": "set",
        "field": "cancellation",
        "source": {
            "from": "object",
            "fields": {
                "date": {"from": "const", "value": TODAY},
                "reason": {"from": "arg", "name": "reason"},
                "previous_status": {"from": "figure", "name": "previous_status"},
                "fee": {"from": "figure", "name": "fee"},
                "fuel_returned": {"from": "figure", "name": "returned"},
            },
        },
    }
    calls = [
        ({"charter_id": "C3", "reason": "engine fault"}, _after("C3", 18.5, "engine fault")),
        ({"charter_id": "C2", "reason": "skipper ill"}, _after("C2", 0, "skipper ill")),
        ({"charter_id": "C6", "reason": "gale warning"}, _after("C6", 7.18, "gale warning")),
    ]
    run_calls(_spec(), plan, SCHEMA, _state, calls)
    # a set of the object the plan already had gives way to the object the docs write out
    replaced = _fee_plan(TEXT, {"op": "set", "field": "cancellation", "source": {"from": "const", "value": None}})
    assert [e for e in replaced.effects if e.get("field") == "cancellation"] == [block]


def test_a_history_note_reads_the_object_as_the_change_records_it() -> None:
    def at(*path: str) -> dict[str, Any]:
        return {"from": "record", "path": list(path)}

    note = {
        "from": "concat",
        "parts": [
            at("cancellation", "reason"),
            "; cancelled from ",
            at("cancellation", "previous_status"),
            ", fee ",
            {"from": "fixed", "of": at("cancellation", "fee"), "decimals": 2},
        ],
    }
    entry = {"date": at("cancellation", "date"), "note": note, "total": at("pricing", "total")}
    plan = _fee_plan(TEXT, {"op": "append", "field": "history", "items": [{"fields": entry}]})
    fields = next(e for e in plan.effects if e["op"] == "append")["items"][0]["fields"]
    assert fields["date"] == {"from": "const", "value": TODAY}
    assert fields["note"]["parts"][0] == {"from": "arg", "name": "reason"}
    assert fields["note"]["parts"][4]["of"] == {"from": "figure", "name": "fee"}
    assert fields["total"] == at("pricing", "total")  # not the object's: read as before
    plan = _fee_plan(
        TEXT, {"op": "append", "field": "history", "items": [{"fields": {"date": entry["date"], "note": note}}]}
    )
    calls = [
        (
            {"charter_id": "C3", "reason": "engine fault"},
            _after("C3", 18.5, "engine fault", "engine fault; cancelled from boarding, fee 18.50"),
        ),
        (
            {"charter_id": "C1", "reason": "no crew"},
            _after("C1", 0, "no crew", "no crew; cancelled from booked, fee 0.00"),
        ),
    ]
    run_calls(_spec(), plan, SCHEMA, _state, calls)


def test_the_plan_is_unchanged_where_a_part_is_not_read() -> None:
    plan = _plan()
    no_bullets = "Cancel a charter. The charter becomes cancelled. " + ADDED
    assert with_state_fee(_spec(no_bullets), plan, no_bullets, SCHEMA, {}, TODAY) is plan
    unknown_term = TEXT.replace("70% of the charter total", "70% of the mooring deposit")
    assert with_state_fee(_spec(unknown_term), plan, unknown_term, SCHEMA, {}, TODAY) is plan
    only_no_fee = HEAD + ADDED
    assert with_state_fee(_spec(only_no_fee), plan, only_no_fee, SCHEMA, {}, TODAY) is plan
    assert with_state_fee(_spec(), plan, TEXT, SCHEMA, {}, None) is plan  # no business date
    update = ToolPlan.from_dict({**plan.to_dict(), "kind": "update"})
    assert with_state_fee(_spec(), update, TEXT, SCHEMA, {}, TODAY) is update
    from_arg = _plan()
    from_arg.effects = [{"op": "set", "field": "status", "source": {"from": "arg", "name": "reason"}}]
    assert with_state_fee(_spec(), from_arg, TEXT, SCHEMA, {}, TODAY) is from_arg


def test_a_bullet_naming_a_state_the_field_lacks_is_ignored() -> None:
    text = (
        HEAD + "- anchored: fee = 50% of the charter total.\n- boarding or anchored: fee = 5.00.\n" + UNDERWAY + ADDED
    )
    plan = _fee_plan(text)
    fee = dict(plan.quote["steps"])["fee"]["round"]
    assert fee["if_field"]["in"] == ["underway"] and fee["else"] == {"num": 0}
    lone = "Cancel a charter:\n- anchored: fee = 5.00."
    plan = _plan()
    assert with_state_fee(_spec(lone), plan, lone, SCHEMA, {}, TODAY) is plan
    # a field whose schema knows no states takes those the sample's records show
    loose = {**CHARTER, "status": S}
    schema = {"type": "object", "properties": {**COLS, "charters": collection(loose)}}
    sample = {"charters": {"X": {"status": "underway"}, "Y": {"status": "booked"}}}
    found = with_state_fee(_spec(text), _plan(), text, schema, sample, TODAY)
    assert dict(found.quote["steps"])["fee"]["round"]["if_field"]["in"] == ["underway"]
    assert with_state_fee(_spec(text), _plan(), text, schema, {}, TODAY) == _plan()


def test_an_object_key_it_cannot_fill_gives_no_object() -> None:
    text = TEXT.replace("fee, fuel_returned}", "fee, harbour_master}")
    plan = _fee_plan(text)
    assert _ops(plan) == [
        ("set", "status"),
        ("each_entry_adjust", "fuel_litres"),
        ("set", "fuel_drawn"),
        ("adjust", "skippers"),
    ]
    after = _after("C3", 18.5)  # the fuel goes back and the fee is owed, but no object is recorded
    after["charters"]["C3"]["cancellation"] = None
    run_calls(_spec(text), plan, SCHEMA, _state, [({"charter_id": "C3", "reason": "weather"}, after)])


def test_the_docstrings_example_as_wrapped() -> None:
    wrapped = TEXT.replace(RETURNS, ";\n  " + RETURNS[2:])
    assert _fee_plan(wrapped).effects == _fee_plan().effects
