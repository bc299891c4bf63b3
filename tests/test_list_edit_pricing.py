"""List edits that keep a record's figures true (a ship's manifest): loading cargo into a hold already on the
manifest adds to that entry, the charterer's remaining tonnage moves both ways (a discharge gives back what the
removed entry held), the manifest's figures are priced again by the sibling quote from the manifest's own values,
and a suspended charterer refuses the edit and the create; a priced create whose figure is 0 is no blank field."""

from __future__ import annotations

from types import SimpleNamespace

from synth.envsynth.codegen import render_tool
from synth.envsynth.create_rules import refine_create
from synth.envsynth.docs_counters import docs_counters
from synth.envsynth.gate import _unset_documented_fields
from synth.envsynth.item_rules import refine_item
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.quote_reuse import recomputed_fields, sibling_quotes
from synth.envsynth.refusals import refused_states
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

S, N = {"type": "string"}, {"type": "number"}
CARGO = {"type": "array", "items": {"type": "object", "properties": {"hold": S, "tonnes": N}}}


def _collection(props: dict) -> dict:
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}


SCHEMA = {
    "type": "object",
    "properties": {
        "charterers": _collection(
            {
                "id": S,
                "standing": {"type": "string", "x-enum": ["good", "suspended"]},
                "tonnes_remaining": N,
                "duty_rate": N,
            }
        ),
        "manifests": _collection(
            {"id": S, "charterer_id": S, "lots": CARGO, "weight_total": N, "duty": N, "state": {"type": "string"}}
        ),
    },
}


def _state() -> dict:
    return {
        "charterers": {
            "CH-1": {"id": "CH-1", "standing": "good", "tonnes_remaining": 50, "duty_rate": 2},
            "CH-2": {"id": "CH-2", "standing": "suspended", "tonnes_remaining": 80, "duty_rate": 1},
        },
        "manifests": {
            "MF-1": {
                "id": "MF-1",
                "charterer_id": "CH-1",
                "lots": [{"hold": "fore", "tonnes": 10}, {"hold": "aft", "tonnes": 4}],
                "weight_total": 14,
                "duty": 28,
                "state": "open",
            },
            "MF-2": {
                "id": "MF-2",
                "charterer_id": "CH-2",
                "lots": [{"hold": "fore", "tonnes": 3}],
                "weight_total": 3,
                "duty": 3,
                "state": "open",
            },
        },
    }


QUOTE = ToolSpec(
    "price_cargo",
    "Prices lots for a charterer; nothing is stored. Answers with {charterer_id, lots: [{hold, tonnes}], "
    "weight_total, duty}. weight_total totals the tonnes of all lots. duty = weight_total x the charterer's "
    "duty_rate.",
    {"type": "object", "properties": {"charterer_id": S, "lots": CARGO}, "required": ["charterer_id", "lots"]},
)
LOAD_TEXT = (
    "Loads lots onto an open manifest. When that hold is not listed yet it gets its own entry; when it is, the "
    "tonnes are added to the existing entry. The loaded tonnes are deducted from the charterer's remaining tonnes, "
    "and the manifest's weight_total and duty are recomputed.\n\nErrors: `manifest <id> not found`; "
    "`charterer <id> is suspended; lots cannot be loaded`."
)
LOAD = ToolSpec(
    "load_cargo",
    LOAD_TEXT,
    {"type": "object", "properties": {"manifest_id": S, "hold": S, "tonnes": N}, "required": ["manifest_id"]},
)
DISCHARGE = ToolSpec(
    "discharge_hold",
    "Takes a hold's entry off a manifest. Its tonnes go back to the charterer's remaining tonnes; weight_total "
    "and duty are recomputed.",
    {"type": "object", "properties": {"manifest_id": S, "hold": S}, "required": ["manifest_id", "hold"]},
)


def _plan(spec: ToolSpec, kind: str) -> ToolPlan:
    base = ToolPlan(kind=kind, collection="manifests", key_field="id", key_param="manifest_id", list_field="lots")
    if kind == "item_add":
        base = ToolPlan.from_dict({**base.to_dict(), "fields": ["hold", "tonnes"]})
    else:
        base = ToolPlan.from_dict({**base.to_dict(), "item_key": "hold", "op_param": "hold"})
    plan = refine_item(spec, base, SCHEMA, spec.description, _state())
    quotes = sibling_quotes([QUOTE, spec], SCHEMA, _state())
    return recomputed_fields(spec, plan, SCHEMA, [QUOTE, spec], quotes, spec.description)


def _run(spec: ToolSpec, plan: ToolPlan, calls: list[tuple[dict, dict | None]]) -> None:
    cases = []
    for arguments, after in calls:
        case = Case(spec.name, "x", _state(), arguments, expect_error=after is None)
        if after is not None:
            case.expect_state, case.has_expected_state = after, True
        cases.append(case)
    res, err = run_cases(render_tool(spec, plan, SCHEMA), spec.name, cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == len(calls), (err, [f.message for f in res.failures])


def test_loading_merges_by_hold_charges_the_charterer_and_prices_the_manifest_again() -> None:
    plan = _plan(LOAD, "item_add")
    ops = [e["op"] for e in plan.effects]
    assert {"op": "merge", "match": ["hold"], "sum": ["tonnes"]} in plan.effects and "adjust" in ops
    assert {"op": "linked_state", "collection": "charterers", "via": "charterer_id", "field": "standing"} == {
        k: v for k, v in plan.checks[-1].items() if k != "allowed"
    }
    assert plan.quote["assign"] == {"weight_total": "weight_total", "duty": "duty"}
    assert plan.quote["from_record"] == ["charterer_id", "lots"]
    merged = _state()
    merged["manifests"]["MF-1"].update(
        lots=[{"hold": "fore", "tonnes": 16}, {"hold": "aft", "tonnes": 4}], weight_total=20, duty=40
    )
    merged["charterers"]["CH-1"]["tonnes_remaining"] = 44
    added = _state()
    added["manifests"]["MF-1"].update(
        lots=[{"hold": "fore", "tonnes": 10}, {"hold": "aft", "tonnes": 4}, {"hold": "mid", "tonnes": 1}],
        weight_total=15,
        duty=30,
    )
    added["charterers"]["CH-1"]["tonnes_remaining"] = 49
    calls = [
        ({"manifest_id": "MF-1", "hold": "fore", "tonnes": 6}, merged),
        ({"manifest_id": "MF-1", "hold": "mid", "tonnes": 1}, added),
        ({"manifest_id": "MF-2", "hold": "fore", "tonnes": 1}, None),  # the charterer is suspended
    ]
    _run(LOAD, plan, calls)


def test_discharging_gives_back_what_the_entry_held() -> None:
    plan = _plan(DISCHARGE, "item_remove")
    assert [e["op"] for e in plan.effects] == ["adjust"] and plan.quote["assign"]["duty"] == "duty"
    after = _state()
    after["manifests"]["MF-1"].update(lots=[{"hold": "fore", "tonnes": 10}], weight_total=10, duty=20)
    after["charterers"]["CH-1"]["tonnes_remaining"] = 54
    _run(DISCHARGE, plan, [({"manifest_id": "MF-1", "hold": "aft"}, after)])


def test_what_stays_plain() -> None:
    # no "recomputed" sentence, or a sibling that needs a parameter the record has no field for: no pricing
    quiet = ToolSpec("load_cargo", "Loads lots onto a manifest.", LOAD.parameters)
    assert not _plan(quiet, "item_add").quote
    odd = ToolSpec("price_cargo", QUOTE.description, {**QUOTE.parameters, "properties": {"tide": S, "lots": CARGO}})
    plan = _plan(LOAD, "item_add")
    bare = ToolPlan.from_dict({**plan.to_dict(), "quote": {}})
    quotes = sibling_quotes([odd], SCHEMA, _state())
    assert not recomputed_fields(LOAD, bare, SCHEMA, [odd], quotes, LOAD.description).quote
    # a refusal without "cannot", or naming a value no field holds, refuses nothing
    props = SCHEMA["properties"]["charterers"]["additionalProperties"]["properties"]
    assert refused_states("`charterer <id> is suspended`", "charterer", props) == {}
    assert refused_states("`charterer <id> is asleep and cannot load`", "charterer", props) == {}
    assert refused_states(LOAD_TEXT, "charterer", props) == {"standing": ["good"]}


def test_a_create_refuses_a_charterer_in_a_refused_state() -> None:
    spec = ToolSpec(
        "open_manifest",
        "Opens a manifest for a charterer.\n\nErrors: `charterer <id> is suspended and cannot open manifests`.",
        {"type": "object", "properties": {"charterer_id": S}, "required": ["charterer_id"]},
    )
    plan = refine_create(
        spec, ToolPlan(kind="create", collection="manifests", key_field="id"), SCHEMA, spec.description
    )
    assert plan.ref_checks == {"charterer_id": "charterers"}
    assert plan.ref_requires == {"charterer_id": {"standing": ["good"]}}


def test_reversed_words_name_a_number_and_a_priced_zero_is_no_blank() -> None:
    params = {"tonnes": N}
    moves = docs_counters(
        "The tonnes are deducted from the charterer's remaining tonnes.", "manifests", "id", SCHEMA, params
    )
    assert [m["path"][-1]["value"] for m in moves if m["collection"] == "charterers"] == ["tonnes_remaining"]
    spec = ToolSpec("open_manifest", "Opens a manifest; its duty is set as `price_cargo` prices it.", LOAD.parameters)
    state = _state()
    after = {**state, "manifests": {**state["manifests"], "MF-9": {"id": "MF-9", "duty": 0}}}
    case = Case("open_manifest", "x", state, {})
    outcome = SimpleNamespace(status="ok", state_after=after)  # what the gate reads of a passing call
    plan = {"kind": "create", "collection": "manifests", "key_field": "id"}
    assert _unset_documented_fields(spec, plan, [(case, outcome)]) != []
    priced = {**plan, "quote": {"assign": {"duty": "duty"}}}
    assert _unset_documented_fields(spec, priced, [(case, outcome)]) == []
