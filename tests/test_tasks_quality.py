"""Task quality figures, typed values, fact options and the sibling-swap probe (issue 22)."""

from __future__ import annotations

import random

from synth.spec import ToolCall
from synth.task import Checks, Task
from synth.tasks.envmodel import Collection, EnvModel, display_name, map_key, model_from_parts
from synth.tasks.probes import siblings
from synth.tasks.quality import is_placeholder, quality_summary
from synth.tasks.typed_values import data_values, sample_pattern, typed_value
from synth.verify import score_episode

TOOLS = [
    {
        "name": "borrow_book",
        "kind": "update",
        "collection": "books",
        "key_param": "book_id",
        "writes": ["books"],
        "parameters": {"type": "object", "properties": {"book_id": {"type": "string"}}, "required": ["book_id"]},
    },
    {
        "name": "return_book",
        "kind": "update",
        "collection": "books",
        "key_param": "book_id",
        "writes": ["books"],
        "parameters": {"type": "object", "properties": {"book_id": {"type": "string"}}, "required": ["book_id"]},
    },
    {
        "name": "get_book",
        "kind": "get",
        "collection": "books",
        "key_param": "book_id",
        "reads": ["books"],
        "writes": [],
        "parameters": {"type": "object", "properties": {"book_id": {"type": "string"}}, "required": ["book_id"]},
    },
    {
        "name": "set_zip",
        "kind": "update",
        "collection": "members",
        "key_param": "member_id",
        "writes": ["members"],
        "parameters": {
            "type": "object",
            "properties": {"member_id": {"type": "string"}, "zip": {"type": "string"}},
            "required": ["member_id", "zip"],
        },
    },
]
SCHEMA = {
    "type": "object",
    "properties": {
        "books": {
            "type": "object",
            "x-key-field": "book_id",
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "book_id": {"type": "string"},
                    "status": {"type": "string", "enum": ["in", "out", "lost"]},
                },
            },
        },
        "members": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "name": {"type": "object", "properties": {"first": {"type": "string"}}},
                    "address": {"type": "object", "properties": {"zip": {"type": "string", "pattern": "^[0-9]{5}$"}}},
                },
            },
        },
    },
}


def _model() -> EnvModel:
    return model_from_parts("city_library_tools", TOOLS, SCHEMA, title="city_library_tools")


def _task(actions, instruction="I would like to borrow a book.", facts=(), options=None, state=None):
    state = state or {"books": {"b1": {"book_id": "b1", "status": "in"}}, "members": {}}
    return Task(
        task_id="t",
        env_id="city_library_tools",
        user_instruction=instruction,
        intent="",
        initial_state=state,
        gold_actions=actions,
        gold_final_state=state,
        checks=Checks(required_facts=list(facts), fact_options=options or {}),
        provenance={"dag": {"nodes": []}},
    )


def test_a_collection_keyed_by_its_map_key_is_keyed_and_an_object_field_is_never_the_key():
    members = _model().collections["members"]
    assert members.key_field is None and members.map_keyed  # "name" is an object, not a key
    rec = {"address": {"zip": "12345"}}
    assert map_key(members, rec, {"members": {"ann_lee_1": rec}}) == "ann_lee_1"
    assert map_key(Collection("books", {}, key_field="book_id"), {"book_id": "b1"}) == "b1"


def test_display_name_never_is_the_folder_id():
    assert display_name(_model()) == "City Library"
    assert display_name(model_from_parts("petstore", [], {}, title="Swagger Petstore - OpenAPI 3.0")) == "Petstore"


def test_typed_values_follow_data_then_pattern_never_a_sentence():
    model = _model()
    state = {"members": {"m1": {"address": {"zip": "90210"}}, "m2": {"address": {"zip": "10001"}}}}
    assert data_values(state, "members", "zip") == ["10001", "90210"]
    rng = random.Random(3)
    v = typed_value({"type": "string"}, "zip", rng, state, "members", model, avoid={"90210"}, grounded=True)
    assert v == "10001"  # the data's own value, not the one to avoid
    v = typed_value({"type": "string"}, "zip", rng, {}, "members", model)
    assert v is not None and len(v) == 5 and v.isdigit()  # from the record schema's pattern
    assert typed_value({"type": "string"}, "notes", rng, {}, "members", model) is None  # free text: the pool's job
    assert sample_pattern("^#W[0-9]{7}$", rng).startswith("#W") and sample_pattern("^(a|b)$", rng) is None


def test_a_reply_listing_every_option_does_not_state_the_fact():
    t = _task([], facts=["out"], options={"out": ["in", "lost"]})
    assert score_episode(t, t.gold_final_state, ["The book is out."]).reward == 1.0
    assert score_episode(t, t.gold_final_state, ["It is in, out or lost."]).reward == 0.0
    assert score_episode(t, t.gold_final_state, ["No idea."]).reward == 0.0


def test_siblings_are_other_writes_of_the_collection_taking_the_same_arguments():
    model = _model()
    assert siblings(model, "borrow_book", {"book_id": "b1"}) == ["return_book"]
    assert siblings(model, "set_zip", {"member_id": "m1", "zip": "12345"}) == []


def test_placeholder_detection_and_quality_shares():
    model = _model()
    assert is_placeholder("Email the backup before noon", "zip", {"pattern": "^[0-9]{5}$"})
    assert is_placeholder("Sort the recipe before Monday", "flight_number", {})
    assert not is_placeholder("Sort the recipe before Monday", "title", {})
    assert is_placeholder("maybe", "status", {"enum": ["in", "out"]}) and not is_placeholder(
        "in", "status", {"enum": ["in", "out"]}
    )
    bad = _task(
        [ToolCall(name="set_zip", arguments={"member_id": "m1", "zip": "Email the backup before noon"})],
        instruction="Hi, I need help with city_library_tools. Use borrow_book on book_id_123456.",
        state={"books": {"book_id_123456": {"book_id": "book_id_123456"}}, "members": {}},
    )
    good = _task([ToolCall(name="get_book", arguments={"book_id": "b1"})], facts=["in"])
    good.provenance = {"dag": {"nodes": [{"args": {"book_id": {"source": "output"}}}]}}
    q = quality_summary([bad, good], model, probes_ok=2)
    assert q["placeholder_tasks"] == 1 and q["names_tool_or_id_tasks"] == 1
    assert q["lookup_tasks"] == 1 and q["no_write_tasks"] == 1
    assert q["meets"] == {
        "placeholder_share_max": False,
        "names_tool_or_id_share_max": False,
        "lookup_share_min": True,
        "no_write_share_min": True,
        "probes_ok_share_min": True,
    }
    assert quality_summary([good], model, probes_ok=1)["meets"]["placeholder_share_max"] is True


def test_list_elements_of_id_fields_are_checked_and_filled_from_the_data():
    """A list of ids is judged element by element; a qualified list name ('new_book_ids') takes the data's ids."""
    tools = TOOLS + [
        {
            "name": "swap_books",
            "kind": "update",
            "collection": "books",
            "key_param": "book_id",
            "writes": ["books"],
            "parameters": {
                "type": "object",
                "properties": {
                    "book_id": {"type": "string"},
                    "new_book_ids": {"type": "array", "items": {"type": "string"}},
                },
            },
        }
    ]
    model = model_from_parts("city_library_tools", tools, SCHEMA, title="city_library_tools")
    sentence = ToolCall(name="swap_books", arguments={"book_id": "b1", "new_book_ids": ["Sort the recipe today"]})
    codes = ToolCall(name="swap_books", arguments={"book_id": "b1", "new_book_ids": ["b7", "b9"]})
    summary = quality_summary([_task([sentence]), _task([codes])], model, probes_ok=2)
    assert summary["placeholder_tasks"] == 1 and "new_book_ids" in summary["examples"]["placeholders"][0]
    state = {"books": {"b1": {"book_id": "b1"}, "b2": {"book_id": "b2"}}}
    value = typed_value({"type": "string"}, "new_book_ids", random.Random(0), state, "books", model, grounded=True)
    assert value in {"b1", "b2"}
