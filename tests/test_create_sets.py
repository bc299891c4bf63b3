"""A create that points a record it names at the new record ("its `open_firing` is set to the new firing"): planned by
create_sets.new_key_sets and rendered (the named record holds the new key after the call)."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.create_rules import refine_create
from synth.envsynth.create_sets import new_key_sets
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

TEXT = {"type": "string"}
NULLABLE = {"type": ["string", "null"]}
SCHEMA = {
    "type": "object",
    "properties": {
        "kilns": _collection({"kiln_id": TEXT, "open_firing": NULLABLE, "owner_id": TEXT}),
        "owners": _collection({"owner_id": TEXT, "open_firing": NULLABLE}),
        "firings": _collection({"firing_id": TEXT, "kiln_id": TEXT, "owner_id": TEXT, "cone": TEXT}),
    },
}
REFS = {"kiln_id": "kilns", "owner_id": "owners"}
COLS = SCHEMA["properties"]


def test_the_named_record_whose_field_takes_the_new_key() -> None:
    said = ["The kiln is booked: its `open_firing` is set to the new firing."]
    assert new_key_sets(said, REFS, COLS, "firing", []) == [
        {"param": "kiln_id", "collection": "kilns", "field": "open_firing", "new_key": True}
    ]
    owner = ["The owner's `open_firing` becomes the new firing."]
    assert new_key_sets(owner, REFS, COLS, "firing", [])[0]["collection"] == "owners"
    both = ["The kiln and the owner: its `open_firing` is set to the new firing."]
    assert new_key_sets(both, REFS, COLS, "firing", []) == []  # "its" could be either record
    assert (
        new_key_sets(["If fired, the kiln's `open_firing` is set to the new firing."], REFS, COLS, "firing", []) == []
    )
    assert new_key_sets(["The kiln's `open_firing` is set to the new owner."], REFS, COLS, "firing", []) == []
    assert new_key_sets(["The kiln's `fuel` is set to the new firing."], REFS, COLS, "firing", []) == []  # no field


def test_the_create_points_the_kiln_at_the_new_firing() -> None:
    spec = ToolSpec(
        "start_firing",
        "Starts a firing in a kiln. The new firing takes the next id. The kiln is taken: its `open_firing` is set to "
        "the new firing.",
        {"type": "object", "properties": {"kiln_id": TEXT, "owner_id": TEXT, "cone": TEXT}, "required": ["kiln_id"]},
    )
    plan = ToolPlan(
        kind="create",
        collection="firings",
        key_field="firing_id",
        fields=["kiln_id", "owner_id", "cone"],
        id_type="pattern",
        key_format={"prefix": "F", "digits": 1},
    )
    refined = refine_create(spec, plan, SCHEMA, spec.description)
    assert refined.ref_sets == [{"param": "kiln_id", "collection": "kilns", "field": "open_firing", "new_key": True}]
    state = {
        "kilns": {"K1": {"kiln_id": "K1", "open_firing": None, "owner_id": "O1"}},
        "owners": {"O1": {"owner_id": "O1", "open_firing": None}},
        "firings": {"F1": {"firing_id": "F1", "kiln_id": "K1", "owner_id": "O1", "cone": "6"}},
    }
    after = copy.deepcopy(state)
    after["firings"]["F2"] = {"firing_id": "F2", "kiln_id": "K1", "owner_id": "O1", "cone": "10"}
    after["kilns"]["K1"]["open_firing"] = "F2"
    case = Case(spec.name, "x", state, {"kiln_id": "K1", "owner_id": "O1", "cone": "10"}, expect_error=False)
    case.state_checks = [{"op": "equals", "state": after}]
    res, err = run_cases(render_tool(spec, refined, SCHEMA), spec.name, [case], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 1
