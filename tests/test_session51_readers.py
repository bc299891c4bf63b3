"""Readers added in session 51, each for a phrasing in general (harbour words only): a `{count, piers}` envelope
written without brackets, the rows of another collection a list answers inside each record ("plus a berths summary
(berth_id, size)"), the state a change's answer names ("Returns the updated charter (status 'boarding')"), a state
written unquoted before the record's noun ("Board a docked charter"), the explanation after a rule's colon that
names no state, and a list read that finds nothing answering an empty envelope."""

from __future__ import annotations

import re

from synth.envsynth.answer_extras import answer_extras
from synth.envsynth.codegen import render_tool
from synth.envsynth.envelope import list_envelope, with_envelope
from synth.envsynth.gate import _found_nothing
from synth.envsynth.item_rules import stated_states
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.policy_rules import transition_rules
from synth.envsynth.returned_states import returned_state
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.summary_rows import summary_rows
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

PIER = {
    "pier_id": {"type": "string"},
    "name": {"type": "string"},
    "berth_ids": {"type": "array", "items": {"type": "string", "x-references": "berths"}},
}
BERTH = {
    "berth_id": {"type": "string"},
    "size": {"type": "string"},
    "depth": {"type": "number"},
    "pier_id": {"type": "string", "x-references": "piers"},
}
SCHEMA = {"type": "object", "properties": {"piers": collection(PIER), "berths": collection(BERTH)}}
STATE = {
    "piers": {
        "P-1": {"pier_id": "P-1", "name": "North", "berth_ids": ["B-2", "B-1"]},
        "P-2": {"pier_id": "P-2", "name": "South", "berth_ids": []},
    },
    "berths": {
        "B-1": {"berth_id": "B-1", "size": "small", "depth": 2.5, "pier_id": "P-1"},
        "B-2": {"berth_id": "B-2", "size": "large", "depth": 4.0, "pier_id": "P-1"},
    },
}
SEARCH = ToolSpec(
    "find_piers",
    "Find piers by name. Returns {count, piers}, each pier being the full record: pier_id, name, berth_ids, plus a "
    "berths summary (berth_id, size). No match is not an error: count is 0.",
    {"type": "object", "properties": {"name": {"type": "string"}}},
)
PLAN = ToolPlan(kind="filter", collection="piers", key_field="pier_id", filter_params=["name"])


def test_a_count_envelope_written_without_brackets_holds_the_tools_records() -> None:
    assert list_envelope(SEARCH, PLAN) == ("piers", "count", [])
    other = ToolSpec(SEARCH.name, "Find piers. Returns {count, harbours}.", SEARCH.parameters)
    assert list_envelope(other, PLAN) is None  # `harbours` is not the tool's collection


def test_each_record_answers_the_rows_it_lists_cut_to_the_named_fields() -> None:
    assert summary_rows("a berths summary (berth_id, size)", "piers", SCHEMA["properties"]) == (
        "berths",
        {"op": "rows", "collection": "berths", "list": "berth_ids", "fields": ["berth_id", "size"]},
    )
    assert summary_rows("a berths summary (berth_id, colour)", "piers", SCHEMA["properties"]) is None  # no field
    assert summary_rows("a harbours summary (berth_id, size)", "piers", SCHEMA["properties"]) is None
    assert answer_extras(SEARCH, PLAN, SCHEMA) == {
        "berths": {"op": "rows", "collection": "berths", "list": "berth_ids", "fields": ["berth_id", "size"]}
    }
    shaped = with_envelope(SEARCH, PLAN, SCHEMA)
    case = Case(SEARCH.name, "x", STATE, {"name": "North"}, expect_error=False)
    case.expect_result = {
        "count": 1,
        "piers": [
            {
                "pier_id": "P-1",
                "name": "North",
                "berth_ids": ["B-2", "B-1"],
                "berths": [{"berth_id": "B-2", "size": "large"}, {"berth_id": "B-1", "size": "small"}],
            }
        ],
    }
    case.has_expected_result = True
    source = render_tool(SEARCH, shaped, SCHEMA)
    res, err = run_cases(source, SEARCH.name, [case], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 1


def test_rows_that_name_the_record_when_it_lists_none() -> None:
    cols = {"piers": collection({k: v for k, v in PIER.items() if k != "berth_ids"}), "berths": collection(BERTH)}
    assert summary_rows("the berths (berth_id, depth)", "piers", cols) == (
        "berths",
        {"op": "rows", "collection": "berths", "ref": "pier_id", "fields": ["berth_id", "depth"]},
    )


def test_an_envelope_that_found_nothing_is_no_sign_of_ignored_arguments() -> None:
    assert _found_nothing({"count": 0, "piers": []}) and _found_nothing([]) and _found_nothing(None)
    assert not _found_nothing({"count": 1, "piers": [{"pier_id": "P-1"}]})
    assert not _found_nothing({"free": 0}) and not _found_nothing({"open": False, "berths": []})  # answers


STATUS = {"type": "string", "x-enum": ["booked", "boarding", "sailed", "cancelled"]}
CHARTER = {"properties": {"charter_id": {"type": "string"}, "status": STATUS, "notes": {"type": "string"}}}


def test_the_state_the_answer_names_is_the_state_the_call_leaves() -> None:
    field = re.compile(r"\bstatus\b", re.I)
    known = STATUS["x-enum"]
    said = "Board a charter. Returns the updated charter (status 'boarding')."
    assert returned_state(said, field, known, {"board", "charter"}) == "boarding"
    assert returned_state("Returns the charter with status 'sailed', and its fees.", field, known, {"charter"}) == (
        "sailed"
    )
    assert returned_state("Returns the pier (status 'boarding').", field, known, {"charter"}) is None  # not its own
    assert returned_state("Returns the charter (status 'moored').", field, known, {"charter"}) is None  # unknown
    spec = ToolSpec("board_charter", said, {"type": "object", "properties": {"charter_id": {"type": "string"}}})
    assert transition_rules(spec, CHARTER, "")[0] == {"status": "boarding"}


def test_a_state_written_unquoted_before_the_noun_and_a_rules_explanation() -> None:
    props = CHARTER["properties"]
    assert stated_states("Board a booked charter.", "charter", props) == {"status": ["booked"]}
    assert stated_states("Sail a charter that is boarding.", "charter", props) == {}  # not before the noun
    # what follows the rule's colon explains it: the charter that "must be cancelled" is another one
    said = "Only possible on the charter's day: a charter whose day has passed must be cancelled and rebooked."
    assert stated_states(said, "charter", props) == {}
    assert stated_states("The charter must be booked or boarding.", "charter", props) == {
        "status": ["booked", "boarding"]
    }
    blank = {**props, "notes": {"type": "string", "x-enum": ["", "Late"]}}  # a blank is never a state
    assert stated_states("Only the charter's skipper's '' may board.", "charter", blank) == {}
