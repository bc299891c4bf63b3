"""A sail added to a yard job must fit the rig of the boat the job links ("The sail must fit the boat's rig"): read
by fit_rules.py as a `named_holds` check whose value sits on the linked record (`through`), evaluated by
list_runtime.fg_list_rule through expr_runtime.fg_check, added by item_rules.refine_item to item_add plans and run
as generated code. Unlike "only fits <values> <noun>", an empty list fits nothing here."""

from __future__ import annotations

import synth
from synth.envsynth.codegen import header_source, render_tool
from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.fit_rules import fit_rules
from synth.envsynth.item_rules import refine_item
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.sandbox import run_cases as sandbox_cases
from synth.spec import ToolSpec
from tests.schemas import collection

S = {"type": "string"}
LIST = {"type": "array", "items": S}
JOB = {"job_id": S, "boat_id": S, "sails": LIST, "status": {"type": "string", "x-enum": ["open", "done"]}}
BOAT = {"boat_id": S, "name": S, "rig": {"type": "string", "x-enum": ["sloop", "ketch", "cutter"]}, "hull": S}
SAIL = {"sail_id": S, "name": S, "fits": LIST}
COLS = {"jobs": collection(JOB), "boats": collection(BOAT), "sails": collection(SAIL)}
SCHEMA = {"type": "object", "properties": COLS}
ARGS = {"job_id": S, "sail_id": S}
TEXT = "Adds a sail to a yard job at the marina. The sail must fit the boat's rig."
FIT = {
    "op": "named_holds",
    "param": "sail_id",
    "collection": "sails",
    "list": "fits",
    "field": "rig",
    "through": {"collection": "boats", "field": "boat_id"},
}
ADD = ToolSpec("add_job_sail", TEXT, {"type": "object", "properties": ARGS, "required": list(ARGS)})
PLAN = ToolPlan(
    kind="item_add",
    collection="jobs",
    key_field="job_id",
    key_param="job_id",
    op_param="sail_id",
    list_field="sails",
)


def _read(text: str = TEXT, cols: dict = COLS, args: dict = ARGS, on: str = "jobs", key: str = "job_id") -> list:
    return fit_rules(text, on, key, args, cols)


def _sails(lists: dict) -> dict:
    return {**COLS, "sails": collection({"sail_id": S, "name": S, **{f: LIST for f in lists}})}


def test_the_sentence_gives_one_check_through_the_linked_boat() -> None:
    assert _read() == [FIT]
    assert _read(TEXT.replace("boat's", "boat\u2019s")) == [FIT]  # a typographic apostrophe
    assert _read(TEXT.replace("The sail", "the sail")) == [FIT]


def test_the_list_is_named_by_the_verb_or_by_the_words() -> None:
    assert _read(TEXT.replace("fit", "suit"), _sails(["suits"])) == [{**FIT, "list": "suits"}]
    assert _read(TEXT.replace("fit", "suit"), _sails(["rigs"])) == [{**FIT, "list": "rigs"}]  # by the words
    assert _read(TEXT.replace("fit", "match"), _sails(["allowed_rigs"])) == [{**FIT, "list": "allowed_rigs"}]
    assert _read(TEXT, _sails(["fits", "rigs"])) == [FIT]  # the verb's list first
    assert _read(TEXT.replace("fit", "suit")) == []  # neither `suits` nor a rigs list on the sail
    assert _read(TEXT, _sails(["allowed_rigs", "rigs"])) == []  # two lists by the words: which one is not known
    as_text = {**COLS, "sails": collection({"sail_id": S, "fits": S})}
    assert _read(cols=as_text) == []  # a field of that name that is no list


def test_trailing_words_fall_back_to_the_first() -> None:
    assert _read(TEXT.replace("rig.", "rig and hull.")) == [FIT]  # "rig and": the boat's `rig`
    assert _read(TEXT.replace("rig.", "rig type.")) == [FIT]
    typed = {**COLS, "boats": collection({**BOAT, "rig_type": S})}
    assert _read(TEXT.replace("rig.", "rig type."), typed) == [{**FIT, "field": "rig_type"}]  # both words first
    assert _read(TEXT.replace("rig.", "hull and rig.")) == [{**FIT, "field": "hull"}]
    assert _read(TEXT.replace("rig.", "mast.")) == []  # the boat keeps no mast


def test_no_check_without_the_sail_argument_or_the_link() -> None:
    assert _read(args={"job_id": S}) == []  # the call names no sail
    assert _read(args={"job_id": S, "sail_ref": S}) == []
    assert _read(args={"sail_id": S}, key="sail_id") == []  # the call's own key is never the named record
    unlinked = {**COLS, "jobs": collection({k: v for k, v in JOB.items() if k != "boat_id"})}
    assert _read(cols=unlinked) == []  # the job links no boat
    renamed = {**COLS, "jobs": collection({**{k: v for k, v in JOB.items() if k != "boat_id"}, "hull_id": S})}
    assert _read(cols=renamed) == []
    rigless = {**COLS, "boats": collection({k: v for k, v in BOAT.items() if k != "rig"})}
    assert _read(cols=rigless) == []  # the boat keeps no rig
    assert _read("Adds a sail to a yard job. The sail should ideally fit the boat's rig.") == []


def test_on_the_boat_itself_the_value_is_its_own() -> None:
    boats = {**COLS, "boats": collection({**BOAT, "sails": LIST})}
    own = {k: v for k, v in FIT.items() if k != "through"}
    assert _read(cols=boats, args={"boat_id": S, "sail_id": S}, on="boats", key="boat_id") == [own]


def test_trailing_words_fall_back_to_the_first_for_the_list_too() -> None:
    assert _read(TEXT.replace("fit", "suit").replace("rig.", "rig and hull."), _sails(["rigs"])) == [
        {**FIT, "list": "rigs"}
    ]


def _state(fits: object, rig: object = "sloop", boat: object = "B1", job_rig: object = None) -> dict:
    job = {"job_id": "J1", "boat_id": boat, "sails": [], "status": "open"}
    return {
        "jobs": {"J1": {**job, **({"rig": job_rig} if job_rig is not None else {})}},
        "boats": {"B1": {"boat_id": "B1", "name": "Petrel", "rig": rig, "hull": "grp"}},
        "sails": {"S1": {"sail_id": "S1", "name": "No. 2 jib", "fits": fits}},
    }


def _fits(fits: object, rig: object = "sloop", sail: str = "S1", boat: object = "B1", job_rig: object = None) -> bool:
    state = _state(fits, rig, boat, job_rig)
    return fg_check(FIT, {"job_id": "J1", "sail_id": sail}, state["jobs"]["J1"], state)


def test_the_runtime_reads_the_rig_on_the_linked_boat() -> None:
    assert _fits(["ketch", "cutter"]) is False  # the sloop's rig is not listed
    assert _fits(["ketch", "sloop"]) is True
    assert _fits(["ketch"], rig="ketch") is True
    assert _fits(["sloop"], job_rig="ketch") is True  # the boat's rig counts, not one on the job
    assert _fits(["ketch"], job_rig="ketch") is False


def test_an_empty_list_fits_nothing_but_unknowns_pass() -> None:
    assert _fits([]) is False  # no empty_passes: an empty list fits no rig
    assert _fits(None) is False
    assert _fits("sloop") is False  # not a list
    assert _fits(["ketch"], rig=None) is True  # the boat's rig is not known: nothing to refuse
    assert _fits(["ketch"], rig="") is True
    assert _fits(["ketch"], boat="B9") is True  # no such boat: another check's business
    assert _fits(["ketch"], boat=None) is True  # the job links no boat
    assert _fits(["ketch"], sail="S9") is True  # no such sail: another check's business
    assert fg_check({**FIT, "empty_passes": True}, {"sail_id": "S1"}, _state([])["jobs"]["J1"], _state([])) is True


def test_refine_item_adds_the_check_and_the_tool_refuses_a_misfit() -> None:
    plan = refine_item(ADD, PLAN, SCHEMA, TEXT)
    assert [c for c in plan.checks if c["op"] == "named_holds"] == [FIT]
    removal = ToolPlan.from_dict({**PLAN.to_dict(), "kind": "item_remove"})
    assert not [c for c in refine_item(ADD, removal, SCHEMA, TEXT).checks if c["op"] == "named_holds"]
    source = render_tool(ADD, plan, SCHEMA)
    module = header_source("check", synth.PIPELINE_VERSION, source) + "\n\n" + source
    calls = [
        (["ketch", "cutter"], "sloop"),  # refused: the sail does not fit a sloop
        (["ketch", "sloop"], "sloop"),
        ([], "sloop"),  # refused: an empty list fits nothing
        (["cutter"], None),  # the boat's rig is not known
    ]
    cases = [
        {"function": ADD.name, "state": _state(fits, rig), "arguments": {"job_id": "J1", "sail_id": "S1"}}
        for fits, rig in calls
    ]
    outcomes = sandbox_cases(module, cases)
    assert [o.status for o in outcomes] == ["tool_error", "ok", "tool_error", "ok"]
    assert outcomes[0].state_after == cases[0]["state"]
    assert outcomes[2].state_after == cases[2]["state"]
    assert outcomes[1].state_after["jobs"]["J1"]["sails"] == ["S1"]

    fitting = Case(ADD.name, "fits", _state(["sloop"]), {"job_id": "J1", "sail_id": "S1"}, expect_error=False)
    after = _state(["sloop"])
    after["jobs"]["J1"]["sails"] = ["S1"]
    fitting.state_checks = [{"op": "equals", "state": after}]
    misfit = Case(ADD.name, "misfit", _state(["ketch"]), {"job_id": "J1", "sail_id": "S1"}, expect_error=True)
    res, err = run_cases(source, ADD.name, [fitting, misfit], SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == 2
