"""List edits that keep a record's figures true (a dye works' batches): dyeing a colour the batch already holds
merges into that colour's entry, the weaver's allowed kilos move both ways (unpicking a skein gives back the kilos
it held), the batch's figures are costed again by the sibling quote from the batch's own values, and a barred
weaver refuses the edit and the create; a priced create whose figure is 0 is no blank field."""

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
from tests.schemas import collection as _collection
from tests.tool_calls import run_calls

S, N = {"type": "string"}, {"type": "number"}
SKEINS = {"type": "array", "items": {"type": "object", "properties": {"colour": S, "kilos": N}}}


SCHEMA = {
    "type": "object",
    "properties": {
        "weavers": _collection(
            {
                "id": S,
                "standing": {"type": "string", "x-enum": ["good", "barred"]},
                "kilos_allowed": N,
                "dye_rate": N,
            }
        ),
        "batches": _collection(
            {"id": S, "weaver_id": S, "skeins": SKEINS, "kilos_total": N, "dye_cost": N, "state": {"type": "string"}}
        ),
    },
}


def _state() -> dict:
    return {
        "weavers": {
            "WV-1": {"id": "WV-1", "standing": "good", "kilos_allowed": 50, "dye_rate": 2},
            "WV-2": {"id": "WV-2", "standing": "barred", "kilos_allowed": 80, "dye_rate": 1},
        },
        "batches": {
            "BA-1": {
                "id": "BA-1",
                "weaver_id": "WV-1",
                "skeins": [{"colour": "indigo", "kilos": 10}, {"colour": "madder", "kilos": 4}],
                "kilos_total": 14,
                "dye_cost": 28,
                "state": "open",
            },
            "BA-2": {
                "id": "BA-2",
                "weaver_id": "WV-2",
                "skeins": [{"colour": "indigo", "kilos": 3}],
                "kilos_total": 3,
                "dye_cost": 3,
                "state": "open",
            },
        },
    }


QUOTE = ToolSpec(
    "price_batch",
    "Costs a dye batch for a weaver and stores nothing. Responds with {weaver_id, skeins: [{colour, kilos}], "
    "kilos_total, dye_cost}. kilos_total adds up the kilos of every skein; dye_cost = kilos_total x the weaver's "
    "dye_rate.",
    {"type": "object", "properties": {"weaver_id": S, "skeins": SKEINS}, "required": ["weaver_id", "skeins"]},
)
DYE_TEXT = (
    "Puts one more skein into a batch that is still open. A colour the batch already holds has the new kilos merged "
    "into its current entry; any other colour is appended as a fresh entry. The weaver's `kilos_allowed` drops by "
    "the kilos dyed; `kilos_total` and `dye_cost` are then refreshed from the batch itself.\n\nErrors: "
    "`batch <id> not found`; `weaver <id> is barred, and barred weavers may not dye`."
)
DYE = ToolSpec(
    "dye_skein",
    DYE_TEXT,
    {"type": "object", "properties": {"batch_id": S, "colour": S, "kilos": N}, "required": ["batch_id"]},
)
UNPICK = ToolSpec(
    "unpick_skein",
    "Drops one colour's skein from a batch. The weaver's `kilos_allowed` rises by the kilos that skein held, and "
    "`kilos_total` and `dye_cost` are refreshed.",
    {"type": "object", "properties": {"batch_id": S, "colour": S}, "required": ["batch_id", "colour"]},
)


def _plan(spec: ToolSpec, kind: str) -> ToolPlan:
    base = ToolPlan(kind=kind, collection="batches", key_field="id", key_param="batch_id", list_field="skeins")
    if kind == "item_add":
        base = ToolPlan.from_dict({**base.to_dict(), "fields": ["colour", "kilos"]})
    else:
        base = ToolPlan.from_dict({**base.to_dict(), "item_key": "colour", "op_param": "colour"})
    plan = refine_item(spec, base, SCHEMA, spec.description, _state())
    quotes = sibling_quotes([QUOTE, spec], SCHEMA, _state())
    return recomputed_fields(spec, plan, SCHEMA, [QUOTE, spec], quotes, spec.description)


def _run(spec: ToolSpec, plan: ToolPlan, calls: list[tuple[dict, dict | None]]) -> None:
    run_calls(spec, plan, SCHEMA, _state, calls)


def test_dyeing_merges_by_colour_charges_the_weaver_and_costs_the_batch_again() -> None:
    plan = _plan(DYE, "item_add")
    ops = [e["op"] for e in plan.effects]
    assert {"op": "merge", "match": ["colour"], "sum": ["kilos"]} in plan.effects and "adjust" in ops
    assert {"op": "linked_state", "collection": "weavers", "via": "weaver_id", "field": "standing"} == {
        k: v for k, v in plan.checks[-1].items() if k != "allowed"
    }
    assert plan.checks[-1]["allowed"] == ["good"]
    assert plan.quote["assign"] == {"kilos_total": "kilos_total", "dye_cost": "dye_cost"}
    assert plan.quote["from_record"] == ["weaver_id", "skeins"]
    merged = _state()
    merged["batches"]["BA-1"].update(
        skeins=[{"colour": "indigo", "kilos": 16}, {"colour": "madder", "kilos": 4}], kilos_total=20, dye_cost=40
    )
    merged["weavers"]["WV-1"]["kilos_allowed"] = 44
    added = _state()
    added["batches"]["BA-1"].update(
        skeins=[{"colour": "indigo", "kilos": 10}, {"colour": "madder", "kilos": 4}, {"colour": "weld", "kilos": 1}],
        kilos_total=15,
        dye_cost=30,
    )
    added["weavers"]["WV-1"]["kilos_allowed"] = 49
    calls = [
        ({"batch_id": "BA-1", "colour": "indigo", "kilos": 6}, merged),
        ({"batch_id": "BA-1", "colour": "weld", "kilos": 1}, added),
        ({"batch_id": "BA-2", "colour": "indigo", "kilos": 1}, None),  # the weaver is barred
    ]
    _run(DYE, plan, calls)
    unchecked = ToolPlan.from_dict({**plan.to_dict(), "checks": plan.checks[:-1]})
    barred = Case(DYE.name, "x", _state(), calls[-1][0], expect_error=True)
    res, _ = run_cases(render_tool(DYE, unchecked, SCHEMA), DYE.name, [barred], SchemaResult(SCHEMA, {}, {}, "docs"))
    assert res.passed == 0  # the weaver's standing is what refuses BA-2, nothing else


def test_unpicking_gives_back_what_the_entry_held() -> None:
    plan = _plan(UNPICK, "item_remove")
    assert [e["op"] for e in plan.effects] == ["adjust"] and plan.quote["assign"]["dye_cost"] == "dye_cost"
    after = _state()
    after["batches"]["BA-1"].update(skeins=[{"colour": "indigo", "kilos": 10}], kilos_total=10, dye_cost=20)
    after["weavers"]["WV-1"]["kilos_allowed"] = 54
    _run(UNPICK, plan, [({"batch_id": "BA-1", "colour": "madder"}, after)])


def test_what_stays_plain() -> None:
    # no "refreshed" sentence, or a sibling that needs a parameter the record has no field for: no costing
    quiet = ToolSpec("dye_skein", "Puts one more skein into a batch.", DYE.parameters)
    assert not _plan(quiet, "item_add").quote
    odd = ToolSpec(
        "price_batch", QUOTE.description, {**QUOTE.parameters, "properties": {"vat_band": S, "skeins": SKEINS}}
    )
    plan = _plan(DYE, "item_add")
    bare = ToolPlan.from_dict({**plan.to_dict(), "quote": {}})
    quotes = sibling_quotes([odd], SCHEMA, _state())
    assert not recomputed_fields(DYE, bare, SCHEMA, [odd], quotes, DYE.description).quote
    # an entry that is only summed, with no sentence merging it, merges nothing
    plain = ToolSpec("dye_skein", DYE_TEXT.replace("merged into its current entry", "weighed again"), DYE.parameters)
    assert not [e for e in _plan(plain, "item_add").effects if e["op"] == "merge"]
    # a refusal without "may not" (or the like), or naming a value no field holds, refuses nothing
    props = SCHEMA["properties"]["weavers"]["additionalProperties"]["properties"]
    assert refused_states("`weaver <id> is barred`", "weaver", props) == {}
    assert refused_states("`weaver <id> is on_leave, and on_leave weavers may not dye`", "weaver", props) == {}
    assert refused_states(DYE_TEXT, "weaver", props) == {"standing": ["good"]}


def test_a_create_refuses_a_weaver_in_a_refused_state() -> None:
    spec = ToolSpec(
        "start_batch",
        "Starts a batch for a weaver.\n\nErrors: `weaver <id> is barred; a barred weaver is not allowed to start one`.",
        {"type": "object", "properties": {"weaver_id": S}, "required": ["weaver_id"]},
    )
    plan = refine_create(spec, ToolPlan(kind="create", collection="batches", key_field="id"), SCHEMA, spec.description)
    assert plan.ref_checks == {"weaver_id": "weavers"}
    assert plan.ref_requires == {"weaver_id": {"standing": ["good"]}}


def test_reversed_words_name_a_number_and_a_priced_zero_is_no_blank() -> None:
    params = {"kilos": N}
    moves = docs_counters("The weaver's allowed kilos go down by the kilos.", "batches", "id", SCHEMA, params)
    assert [m["path"][-1]["value"] for m in moves if m["collection"] == "weavers"] == ["kilos_allowed"]
    spec = ToolSpec("start_batch", "Starts a batch; `price_batch` decides its dye_cost.", DYE.parameters)
    state = _state()
    after = {**state, "batches": {**state["batches"], "BA-9": {"id": "BA-9", "dye_cost": 0}}}
    case = Case("start_batch", "x", state, {})
    outcome = SimpleNamespace(status="ok", state_after=after)  # what the gate reads of a passing call
    plan = {"kind": "create", "collection": "batches", "key_field": "id"}
    assert _unset_documented_fields(spec, plan, [(case, outcome)]) != []
    priced = {**plan, "quote": {"assign": {"dye_cost": "dye_cost"}}}
    assert _unset_documented_fields(spec, priced, [(case, outcome)]) == []
