"""A finished firing, read from its docs: the job "records" its hours, state and log entry; the cart it names goes
back to service at the bay the call names, with no open job and its service date stamped; the bay must be active
with a free slot; the job's cost is the sibling estimate's total. Planned by the pipeline's readings, rendered and
run."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.allowed_when import allowed_checks
from synth.envsynth.docs_appends import docs_appends
from synth.envsynth.linked_extras import linked_extras
from synth.envsynth.named_args import named_arg_checks
from synth.envsynth.plan import ToolPlan
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.quote_effects import figure_sets
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N = {"type": "string"}, {"type": "number"}
TODAY = "2031-02-03"
NOTE = {"type": "object", "properties": {"date": S, "status": S, "note": S}}
SCHEMA = {
    "type": "object",
    "properties": {
        "jobs": collection(
            {
                "job_id": S,
                "cart_id": S,
                "status": {"type": "string", "x-enum": ["firing", "done", "open"]},
                "hours": N,
                "cost": N,
                "finished_on": {"type": ["string", "null"]},
                "log": {"type": "array", "items": NOTE},
            }
        ),
        "carts": collection(
            {
                "cart_id": S,
                "status": {"type": "string", "x-enum": ["ready", "in_kiln"]},
                "bay_id": {"type": ["string", "null"]},
                "open_job_id": {"type": ["string", "null"]},
                "serviced_on": {"type": ["string", "null"]},
            }
        ),
        "bays": collection(
            {"bay_id": S, "status": {"type": "string", "x-enum": ["active", "shut"]}, "parked": N, "slots": N}
        ),
    },
}
TEXT = (
    "Finish a firing and put the cart back at a bay. The job must be 'firing'; the bay must be active and have a "
    "free slot (parked below slots). The job records the actual hours, status 'done', finished_on the business "
    "date, and a log entry {date, status: 'done', note: 'returned to <bay_id>'}. The cart becomes 'ready' at that "
    f"bay with no open job and serviced_on set to the business date. The business date is {TODAY}."
)
PARAMS = {
    "type": "object",
    "properties": {"job_id": S, "bay_id": S, "hours": N},
    "required": ["job_id", "bay_id", "hours"],
}
SPEC = ToolSpec("finish_firing", TEXT, PARAMS)


def _state() -> dict[str, Any]:
    return {
        "jobs": {
            "J1": {
                "job_id": "J1",
                "cart_id": "C1",
                "status": "firing",
                "hours": 1.0,
                "cost": 0.0,
                "finished_on": None,
                "log": [],
            },
            "J2": {
                "job_id": "J2",
                "cart_id": "C2",
                "status": "open",
                "hours": 1.0,
                "cost": 0.0,
                "finished_on": None,
                "log": [],
            },
        },
        "carts": {
            "C1": {"cart_id": "C1", "status": "in_kiln", "bay_id": None, "open_job_id": "J1", "serviced_on": None},
            "C2": {"cart_id": "C2", "status": "ready", "bay_id": "B1", "open_job_id": None, "serviced_on": None},
        },
        "bays": {
            "B1": {"bay_id": "B1", "status": "active", "parked": 1, "slots": 3},
            "B2": {"bay_id": "B2", "status": "active", "parked": 3, "slots": 3},
            "B3": {"bay_id": "B3", "status": "shut", "parked": 0, "slots": 3},
        },
    }


def test_each_reading() -> None:
    own = SCHEMA["properties"]["jobs"]["additionalProperties"]["properties"]
    cols = SCHEMA["properties"]
    extras = linked_extras(TEXT, "jobs", SCHEMA, PARAMS["properties"], TODAY)
    assert [(e["field"], e.get("arg"), e["value"]) for e in extras] == [
        ("bay_id", "bay_id", None),
        ("open_job_id", None, None),
        ("serviced_on", None, TODAY),
    ]
    assert linked_extras(TEXT.replace("at that bay ", ""), "jobs", SCHEMA, PARAMS["properties"], TODAY)[0]["field"] == (
        "open_job_id"
    )
    checks = named_arg_checks(TEXT.split(". ")[1], PARAMS["properties"], own, cols, "jobs")
    assert checks == [
        {"op": "named_state", "arg": "bay_id", "collection": "bays", "field": "status", "allowed": ["active"]},
        {"op": "named_less", "arg": "bay_id", "collection": "bays", "a": "parked", "b": "slots"},
    ]
    (logged,) = docs_appends(TEXT, own, PARAMS["properties"], today=TODAY)
    assert logged["field"] == "log" and logged["items"][0]["fields"]["status"] == {"from": "const", "value": "done"}
    said = "The job records the cost (the `estimate_firing` total for those hours) and the hours."
    assert figure_sets(said, ["total", "labour"], ["cost", "hours"]) == {"cost": "total"}
    assert figure_sets("The job records the cost and the hours.", ["total"], ["cost", "hours"]) == {}


def test_a_finished_firing_puts_the_cart_back() -> None:
    base = ToolPlan(kind="update", collection="jobs", key_field="job_id", key_param="job_id")
    plan = docs_transition(SPEC, base, SCHEMA, "", list(_state()["jobs"].values()), _state())
    assert plan is not None
    plan = allowed_checks(SPEC, plan, SCHEMA, TEXT, TODAY)

    def finished() -> dict[str, Any]:
        out = copy.deepcopy(_state())
        out["jobs"]["J1"].update(status="done", hours=2.5, finished_on=TODAY)
        out["jobs"]["J1"]["log"].append({"date": TODAY, "status": "done", "note": "returned to B1"})
        out["carts"]["C1"].update(status="ready", bay_id="B1", open_job_id=None, serviced_on=TODAY)
        return out

    calls = [
        ({"job_id": "J1", "bay_id": "B1", "hours": 2.5}, finished()),
        ({"job_id": "J1", "bay_id": "B2", "hours": 2.5}, None),  # no free slot
        ({"job_id": "J1", "bay_id": "B3", "hours": 2.5}, None),  # a shut bay
        ({"job_id": "J2", "bay_id": "B1", "hours": 2.5}, None),  # not firing
    ]
    run_calls(SPEC, plan, SCHEMA, _state, calls)
