"""A transition that takes figures from the record its record names ("copies the berth's `bond` into its deposit",
"the berth's bond is added to the skipper's `owed`"), a charge per day late kept on the record and put on a linked
number, and the entry it logs on the linked record ("their log": the sentence's last owner) whose amount the data
shows to be one of the record's fields."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.docs_counters import docs_counters
from synth.envsynth.docs_dates import late_fees
from synth.envsynth.docs_linked import copied_sets
from synth.envsynth.linked_logs import linked_entries
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

S = {"type": "string"}
N = {"type": "number"}


LINE = {
    "type": "object",
    "properties": {
        "day": S,
        "what": {"type": "string", "x-enum": ["moored", "cast_off", "sunk"]},
        "ref": S,
        "sum": N,
    },
}
SCHEMA = {
    "type": "object",
    "properties": {
        "skippers": _collection({"skipper_id": S, "owed": N, "log": {"type": "array", "items": LINE}}),
        "berths": _collection({"berth_id": S, "bond": N}),
        "stays": _collection(
            {
                "stay_id": S,
                "skipper_id": S,
                "berth_id": S,
                "leave_by": {"type": "string", "format": "date"},
                "status": {"type": "string", "x-enum": ["moored", "left", "sunk"]},
                "penalty": N,
                "deposit": N,
            }
        ),
    },
}
SAMPLE = {
    "skippers": {
        "K1": {
            "skipper_id": "K1",
            "owed": 1.0,
            "log": [
                {"day": "2031-01-01", "what": "moored", "ref": "Y1", "sum": 0.0},
                {"day": "2031-01-05", "what": "sunk", "ref": "Y0", "sum": 80.0},
            ],
        }
    },
    "berths": {"B1": {"berth_id": "B1", "bond": 60.0}},
    "stays": {
        "Y0": {
            "stay_id": "Y0",
            "skipper_id": "K1",
            "berth_id": "B1",
            "leave_by": "2031-01-03",
            "status": "sunk",
            "penalty": 0.0,
            "deposit": 80.0,
        },
        "Y1": {
            "stay_id": "Y1",
            "skipper_id": "K1",
            "berth_id": "B1",
            "leave_by": "2031-02-01",
            "status": "moored",
            "penalty": 0.0,
            "deposit": 0.0,
        },
    },
}
TODAY = "2031-02-11"


def test_a_field_copied_from_the_named_record_and_a_linked_number_as_the_amount() -> None:
    text = (
        "The stay becomes 'sunk'. It copies the berth's bond into its deposit; the bond is added to the skipper's owed."
    )
    (copied,) = copied_sets(text, "stays", SCHEMA)
    assert copied == {
        "op": "set",
        "field": "deposit",
        "source": {"from": "linked", "collection": "berths", "via": "berth_id", "field": "bond"},
    }
    (move,) = docs_counters(text, "stays", "stay_id", SCHEMA, {})
    assert move["collection"] == "skippers"
    assert move["delta"]["expr"] == {"plus": [{"linked": {"collection": "berths", "via": "berth_id", "field": "bond"}}]}


def test_a_charge_per_day_late_capped_stored_and_added_to_the_linked_number() -> None:
    text = (
        "Casts off a stay (business date 2031-02-11). Late departures are charged: penalty = 1.25 per overdue day "
        "(12 at most), also put on the skipper's owed; lateness counts from the leave by date."
    )
    stored, added = late_fees(text, "stays", SCHEMA, TODAY)
    expr = {"plus": [{"late": {"path": ["leave_by"], "today": TODAY}}], "times": 1.25, "digits": 2, "most": 12.0}
    assert stored == {"op": "set", "field": "penalty", "source": {"from": "expr", "expr": expr}}
    assert added["collection"] == "skippers" and added["delta"]["expr"] == expr
    assert late_fees(text.replace(" (12 at most)", ""), "stays", SCHEMA, TODAY)[0]["source"]["expr"].get("most") is None
    assert late_fees(text, "stays", SCHEMA, None) == []  # no business date, no lateness


def test_the_sunk_line_on_their_log_takes_the_figure_the_data_shows_it_holds() -> None:
    text = (
        "Marks a stay sunk (business date 2031-02-11). The stay becomes 'sunk' and copies the berth's bond into its "
        "deposit. Because the skipper's owed rises by 1, a 'sunk' line gets written to their log."
    )
    (entry,) = linked_entries(text, "stays", SCHEMA, {"type": "object", "properties": {}}, SAMPLE, TODAY)
    own = text.replace("their log", "its log")  # "its" is the call's own record, which has no log here
    assert linked_entries(own, "stays", SCHEMA, {"type": "object", "properties": {}}, SAMPLE, TODAY) == []
    assert entry["collection"] == "skippers" and entry["via"] == "skipper_id"
    assert entry["items"][0]["fields"] == {
        "day": {"from": "const", "value": TODAY},
        "what": {"from": "const", "value": "sunk"},
        "ref": {"from": "own_key"},
        "sum": {"from": "record", "path": ["deposit"]},  # the one sunk line's sum is its stay's deposit
    }
    spec = ToolSpec("sink_stay", text, {"type": "object", "properties": {"stay_id": S}, "required": ["stay_id"]})
    base = ToolPlan(kind="update", collection="stays", key_field="stay_id", key_param="stay_id")
    plan = docs_transition(spec, base, SCHEMA, "", list(SAMPLE["stays"].values()), SAMPLE)
    case = Case(spec.name, "x", SAMPLE, {"stay_id": "Y1"}, expect_error=False)
    line = {"day": TODAY, "what": "sunk", "ref": "Y1", "sum": 60.0}
    case.state_checks = [
        {"op": "field_equals", "collection": "stays", "key": "Y1", "field": "deposit", "value": 60.0},
        {"op": "field_equals", "collection": "skippers", "key": "K1", "field": "owed", "value": 2.0},
        {
            "op": "field_equals",
            "collection": "skippers",
            "key": "K1",
            "field": "log",
            "value": SAMPLE["skippers"]["K1"]["log"] + [line],
        },
    ]
    res, err = run_cases(render_tool(spec, plan, SCHEMA), spec.name, [case], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 1


def test_late_charges_run_on_the_record_and_stop_at_the_cap() -> None:
    text = (
        "Casts off a stay (business date 2031-02-11). The stay becomes 'left'. Each day late adds to the bill: "
        "1.75 a day overdue, a maximum of 12.00, recorded in its penalty and charged to the skipper's owed."
    )
    spec = ToolSpec("cast_off", text, {"type": "object", "properties": {"stay_id": S}, "required": ["stay_id"]})
    base = ToolPlan(kind="update", collection="stays", key_field="stay_id", key_param="stay_id")
    plan = docs_transition(spec, base, SCHEMA, "", list(SAMPLE["stays"].values()), SAMPLE)
    stays = dict(SAMPLE["stays"])
    stays["Y2"] = {**stays["Y1"], "stay_id": "Y2", "leave_by": "2031-02-09"}
    stays["Y3"] = {**stays["Y1"], "stay_id": "Y3", "leave_by": "2031-03-01"}
    state = {**SAMPLE, "stays": stays}
    capped = Case(spec.name, "x", state, {"stay_id": "Y1"}, expect_error=False)  # 10 days late: 17.50, capped
    capped.state_checks = [
        {"op": "field_equals", "collection": "stays", "key": "Y1", "field": "penalty", "value": 12.0},
        {"op": "field_equals", "collection": "skippers", "key": "K1", "field": "owed", "value": 13.0},
    ]
    two_days = Case(spec.name, "x", state, {"stay_id": "Y2"}, expect_error=False)
    two_days.state_checks = [
        {"op": "field_equals", "collection": "stays", "key": "Y2", "field": "penalty", "value": 3.5}
    ]
    early = Case(spec.name, "x", state, {"stay_id": "Y3"}, expect_error=False)  # not due yet: nothing charged
    early.state_checks = [
        {"op": "field_equals", "collection": "stays", "key": "Y3", "field": "penalty", "value": 0.0},
        {"op": "field_equals", "collection": "skippers", "key": "K1", "field": "owed", "value": 1.0},
    ]
    res, err = run_cases(
        render_tool(spec, plan, SCHEMA), spec.name, [capped, two_days, early], SchemaResult(SCHEMA, {}, {}, "d")
    )
    assert err == "" and res.passed == 3
