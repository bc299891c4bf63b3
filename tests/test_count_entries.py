"""A cooking school's enrolment, priced as its quote prices a class: one apron per cook (apron ids following on
from the school-wide numbering, each at the station's tuition), `cooks` added to the station's `filled` and one to a
coupon's `stamps`, a station without enough places free refusing the enrolment, a journal that opens with the
total, and a state change under a condition the rules cannot read left out."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.count_entries import covered_counts, entry_moves, repeated_entries
from synth.envsynth.create_rules import refine_create
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.quote_reuse import priced_fields, sibling_quotes
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

S, N, INT = {"type": "string"}, {"type": "number"}, {"type": "integer"}
STATIONS = {
    "type": "array",
    "items": {"type": "object", "properties": {"station": S, "tuition": N, "places": INT, "filled": INT}},
}
APRONS = {"type": "array", "items": {"type": "object", "properties": {"apron_id": S, "station": S, "tuition": N}}}
JOURNAL = {"type": "array", "items": {"type": "object", "properties": {"what": S, "sum": N}}}


SCHEMA = {
    "type": "object",
    "properties": {
        "workshops": _collection(
            {"workshop_id": S, "state": {"type": "string", "x-enum": ["open", "closed"]}, "stations": STATIONS}
        ),
        "coupons": _collection({"coupon": S, "stamps": INT}),
        "enrolments": _collection(
            {
                "enrolment_id": S,
                "workshop_id": S,
                "coupon": {"type": ["string", "null"]},
                "aprons": APRONS,
                "journal": JOURNAL,
                "grand_total": N,
                "state": S,
            }
        ),
    },
}
COOKS = {"type": "integer", "default": 1, "description": "Number of cooks coming along."}
QUOTE = ToolSpec(
    "cost_class",
    "Costs a class and enrols nobody. Every cook pays the station's tuition, so tuition_total = tuition x cooks; "
    "apron_levy = 2.00 per cook; grand_total = tuition_total + apron_levy.",
    {"type": "object", "properties": {"workshop_id": S, "station": S, "cooks": COOKS, "coupon": S}},
    returns={
        "type": "object",
        "properties": {
            "workshop_id": S,
            "station": S,
            "cooks": INT,
            "tuition": N,
            "tuition_total": N,
            "apron_levy": N,
            "grand_total": N,
            "places_free": {
                "type": "integer",
                "description": "How many places the station still offers: (places - filled).",
            },
        },
    },
)
ENROL_TEXT = (
    "Signs cooks up for a class and issues one apron per cook, each for the chosen station at that station's tuition; "
    "the grand_total comes out the way cost_class works it out. The workshop has to be `open`, and the station needs "
    "enough places free (places - filled). Apron numbers follow on from the highest apron_id of any enrolment. "
    "Once done, it adds `cooks` to the station's `filled` and adds one to a coupon's `stamps`; should every station "
    "then be full, the workshop turns `closed`. The new enrolment's state is `pending`, and it gets one journal entry "
    '`{"what": "enrolled", "sum": <grand_total>}`.'
)
ENROL = ToolSpec(
    "enrol_cooks",
    ENROL_TEXT,
    {
        "type": "object",
        "properties": {"workshop_id": S, "station": S, "cooks": COOKS, "coupon": S},
        "required": ["workshop_id", "station"],
    },
)
STATE = {
    "workshops": {
        "S1": {
            "workshop_id": "S1",
            "state": "open",
            "stations": [
                {"station": "pastry", "tuition": 20.0, "places": 4, "filled": 1},
                {"station": "grill", "tuition": 9.0, "places": 9, "filled": 9},
            ],
        },
    },
    "coupons": {"CHEF5": {"coupon": "CHEF5", "stamps": 2}},
    "enrolments": {
        "EN-01": {
            "enrolment_id": "EN-01",
            "workshop_id": "S1",
            "coupon": None,
            "aprons": [{"apron_id": "AP-0007", "station": "pastry", "tuition": 20.0}],
            "journal": [{"what": "enrolled", "sum": 22.0}],
            "grand_total": 22.0,
            "state": "pending",
        },
        "EN-02": {
            "enrolment_id": "EN-02",
            "workshop_id": "S1",
            "coupon": None,
            "aprons": [{"apron_id": "AP-0003", "station": "grill", "tuition": 9.0}],
            "journal": [{"what": "enrolled", "sum": 11.0}],
            "grand_total": 11.0,
            "state": "pending",
        },
    },
}


def _plan() -> ToolPlan:
    base = ToolPlan(
        kind="create",
        collection="enrolments",
        key_field="enrolment_id",
        fields=["workshop_id", "coupon"],
        id_type="pattern",
        key_format={"prefix": "EN-", "digits": 2},
    )
    plan = refine_create(ENROL, base, SCHEMA, ENROL_TEXT, sample=STATE)
    quotes = sibling_quotes([QUOTE, ENROL], SCHEMA, STATE)
    return priced_fields(ENROL, plan, SCHEMA, [QUOTE, ENROL], quotes, ENROL_TEXT, STATE)


def test_the_enrolment_plan_reads_counts_moves_and_the_places_it_needs() -> None:
    plan = _plan()
    made = {e["op"]: e for e in plan.effects}
    assert made["repeat"] == {
        "op": "repeat",
        "field": "aprons",
        "count": {"arg": "cooks", "default": 1},
        "fields": {
            "station": {"from": "arg", "name": "station"},
            "tuition": {"from": "named", "param": "station", "field": "tuition"},
        },
        "sequence": {"field": "apron_id", "prefix": "AP-", "digits": 4},
    }
    moved = [(e["param"], e["field"], e["amount"], e["sign"]) for e in plan.effects if e["op"] == "entry_adjust"]
    assert moved == [("station", "filled", {"arg": "cooks", "default": 1}, 1), ("coupon", "stamps", {"num": 1}, 1)]
    assert made["covers"]["figure"] == "places_free" and made["covers"]["noun"] == "places"
    assert plan.ref_sets == []  # "should every station then be full, the workshop turns `closed`": not read
    assert plan.quote["assign"] == {"grand_total": "grand_total"}


def test_the_enrolment_runs_as_documented() -> None:
    plan = _plan()
    after = copy.deepcopy(STATE)
    after["workshops"]["S1"]["stations"][0]["filled"] = 3
    after["coupons"]["CHEF5"]["stamps"] = 3
    after["enrolments"]["EN-03"] = {
        "enrolment_id": "EN-03",
        "workshop_id": "S1",
        "coupon": "CHEF5",
        "aprons": [
            {"apron_id": "AP-0008", "station": "pastry", "tuition": 20.0},
            {"apron_id": "AP-0009", "station": "pastry", "tuition": 20.0},
        ],
        "journal": [{"what": "enrolled", "sum": 44.0}],
        "grand_total": 44.0,
        "state": "pending",
    }
    enrolled = Case(
        ENROL.name,
        "x",
        STATE,
        {"workshop_id": "S1", "station": "pastry", "cooks": 2, "coupon": "CHEF5"},
        state_checks=[{"op": "equals", "state": after}],
    )
    full = Case(ENROL.name, "x", STATE, {"workshop_id": "S1", "station": "grill"}, expect_error=True)  # no place left
    many = Case(ENROL.name, "x", STATE, {"workshop_id": "S1", "station": "pastry", "cooks": 4}, expect_error=True)
    source = render_tool(ENROL, plan, SCHEMA)
    res, err = run_cases(source, ENROL.name, [enrolled, full, many], SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == 3, (err, [f.message for f in res.failures])
    loose = ToolPlan.from_dict({**plan.to_dict(), "effects": [e for e in plan.effects if e["op"] != "covers"]})
    res, err = run_cases(
        render_tool(ENROL, loose, SCHEMA), ENROL.name, [full, many], SchemaResult(SCHEMA, {}, {}, "docs")
    )
    assert res.passed == 0 and err.count("returned normally") == 2  # the places check is what refuses them


def test_what_is_left_alone() -> None:
    params = ENROL.parameters["properties"]
    quote = _plan().quote
    # a count that is no integer parameter, or a list the record does not have
    assert repeated_entries("issues one apron per station", "enrolments", SCHEMA, params, quote, STATE) == []
    assert repeated_entries("issues one towel per cook", "enrolments", SCHEMA, params, quote, STATE) == []
    assert repeated_entries("holding `cooks` new towels", "enrolments", SCHEMA, params, quote, STATE) == []
    assert repeated_entries("holding `cooks` new aprons", "enrolments", SCHEMA, params, quote, STATE) != []
    # an entry field nothing gives a value (no parameter, nothing the quote reads, no sequence in the sample)
    bare = {**STATE, "enrolments": {}}
    assert repeated_entries(ENROL_TEXT, "enrolments", SCHEMA, params, quote, bare) == []
    # a move by an amount that is no parameter, or on a field that holds no number; "from" takes away
    assert entry_moves("it adds several to the station's `filled`", SCHEMA, params, quote) == []
    assert entry_moves("it adds one to the station's `station`", SCHEMA, params, quote) == []
    assert entry_moves("it takes one from a coupon's `stamps`", SCHEMA, params, quote)[0]["sign"] == -1
    assert entry_moves("the station's `filled` rises by cooks", SCHEMA, params, quote)[0]["amount"]["arg"] == "cooks"
    # a bracket that names no figure the quote computes
    assert covered_counts("the station needs enough places free (places - tuition)", params, quote) == []
