"""Small docs readers of the marina tools, each fed a few lines of made-up harbour docs:

- state_moves: a "From | To" table of moves (table_moves) and the move map arrow_moves builds from it;
- target_effects: what a move does for one target only ("Docking sets `docked_on`; going back to `afloat` clears
  it. Hauling ... removes the boat from the pier's `moored`");
- named_paths / answer_extras: a figure the docs define as one of the record's numbers ("The fee charged is the
  boat's charges.total");
- docs_appends: an object field written as `{method, amount, date}` (object_sets) and a `{date, status, note}`
  entry appended to a log (docs_appends);
- returns_shape: the answer's fields written in braces, a fixed value among them;
- mode_rules: one segment per value of an enum argument ('verdict = "accept": ...');
- policy_rules: NOUN_BECOMES reading "goes back to" / "returns to" / "reverts to";
- docs_counters: bullet items of an argument's values guarding every clause of the item (_pieces);
- param_dates: "between the business date and 30 days after it" on an argument documented as `YYYY-MM-DD`;
- sampling: a string documented as `YYYY-MM-DD` sampled as a real date.
"""

from __future__ import annotations

import datetime
import random

import pytest

from synth.envsynth.answer_extras import derived_field
from synth.envsynth.clause_guards import _pieces
from synth.envsynth.docs_appends import docs_appends, object_sets
from synth.envsynth.mode_rules import mode_segments
from synth.envsynth.named_paths import named_path
from synth.envsynth.param_dates import described_dates
from synth.envsynth.policy_rules import NOUN_BECOMES
from synth.envsynth.returns_shape import parse_braces, returned_fields
from synth.envsynth.sampling import sample_value
from synth.envsynth.state_moves import arrow_moves, table_moves
from synth.envsynth.target_effects import target_effects
from synth.spec import ToolSpec

TODAY = "2025-06-01"

# ---------------------------------------------------------------------------------------------------------------
# state_moves: a "From | To" table of moves
# ---------------------------------------------------------------------------------------------------------------

BOAT_STATES = {"status": {"type": "string", "x-enum": ["afloat", "docked", "hauled"]}, "name": {"type": "string"}}
MOVE_ARGS = {"boat_id": {"type": "string"}, "status": {"type": "string"}}

MOVES_TABLE = """Moves a boat along its states:

| From | To |
|---|---|
| `afloat` | `docked`, `hauled` |

| `docked` | `docked` (re-dock), `afloat` (undock), `hauled` |
| `hauled` | — (final) |

Returns the boat.
"""


def test_table_moves_reads_each_row_with_its_cell() -> None:
    assert table_moves(MOVES_TABLE) == [
        ("afloat", "`docked`, `hauled`"),
        ("docked", "`docked` (re-dock), `afloat` (undock), `hauled`"),
        ("hauled", "— (final)"),
    ]


def test_table_moves_reads_rows_without_outer_pipes() -> None:
    text = "Current status | Allowed next\n---|---\n`afloat` | `docked`\n\n`docked` | `afloat`, `hauled`\n"
    assert table_moves(text) == [("afloat", "`docked`"), ("docked", "`afloat`, `hauled`")]


def test_arrow_moves_builds_the_map_from_a_table() -> None:
    assert arrow_moves(MOVES_TABLE, BOAT_STATES, MOVE_ARGS) == {
        "field": "status",
        "arg": "status",
        "map": {"afloat": ["docked", "hauled"], "docked": ["docked", "afloat", "hauled"], "hauled": []},
    }


def test_rows_outside_a_table_are_ignored() -> None:
    text = "`afloat` | `docked`, `hauled`\n`docked` | `afloat`\n"
    assert table_moves(text) == []
    assert arrow_moves(text, BOAT_STATES, MOVE_ARGS) is None


def test_table_with_another_header_yields_nothing() -> None:
    text = "| Field | Meaning |\n|---|---|\n| `afloat` | `docked`, `hauled` |\n| `docked` | `afloat` |\n"
    assert table_moves(text) == []
    assert arrow_moves(text, BOAT_STATES, MOVE_ARGS) is None


def test_a_following_table_of_another_header_adds_no_moves() -> None:
    text = (
        "| From | To |\n|---|---|\n| `afloat` | `docked` |\n| `docked` | `afloat` |\n\n"
        "| Field | Meaning |\n|---|---|\n| `status` | where the boat is |\n"
    )
    assert table_moves(text) == [("afloat", "`docked`"), ("docked", "`afloat`")]
    assert arrow_moves(text, BOAT_STATES, MOVE_ARGS) == {
        "field": "status",
        "arg": "status",
        "map": {"afloat": ["docked"], "docked": ["afloat"]},
    }


# ---------------------------------------------------------------------------------------------------------------
# target_effects: effects tied to one target of the move
# ---------------------------------------------------------------------------------------------------------------

BOAT = {
    "boat_id": {"type": "string"},
    "pier_id": {"type": "string"},
    "status": {"type": "string", "x-enum": ["afloat", "docked", "hauled"]},
    "docked_on": {"type": ["string", "null"]},
    "hauled_on": {"type": ["string", "null"]},
    "hauler": {"type": ["string", "null"]},
    "hull_note": {"type": "string"},
}
PIER = {"pier_id": {"type": "string"}, "moored": {"type": "array", "items": {"type": "string"}}}


def _marina(pier: dict) -> dict:
    return {
        "boats": {"type": "object", "additionalProperties": {"type": "object", "properties": BOAT}},
        "piers": {"type": "object", "additionalProperties": {"type": "object", "properties": pier}},
    }


MARINA = _marina(PIER)
BOAT_ARGS = {
    "boat_id": {"type": "string"},
    "status": {"type": "string", "enum": ["afloat", "docked", "hauled"]},
    "hauler": {"type": "string"},
}
MOVED = {
    "field": "status",
    "arg": "status",
    "map": {"afloat": ["docked", "hauled"], "docked": ["afloat", "hauled"], "hauled": []},
}


def _when(target: str) -> dict:
    return {"arg": "status", "in": [target]}


def _effects(text: str, cols: dict = MARINA) -> list[dict]:
    return target_effects(text, BOAT, cols, BOAT_ARGS, MOVED, TODAY)


def test_gerund_leads_its_target_and_a_date_field_gets_today() -> None:
    assert _effects("Docking sets `docked_on`.") == [
        {"op": "set", "field": "docked_on", "source": {"from": "const", "value": TODAY}, "when": _when("docked")}
    ]


def test_going_back_clears_the_field_the_sentence_before_named() -> None:
    effects = _effects("Docking sets `docked_on`; going back to `afloat` clears it.")
    assert effects[1:] == [
        {"op": "set", "field": "docked_on", "source": {"from": "const", "value": None}, "when": _when("afloat")}
    ]


def test_field_that_is_argument_and_record_field_is_set_from_the_argument() -> None:
    assert _effects("Hauling sets `hauled_on` and sets `hauler`.") == [
        {"op": "set", "field": "hauled_on", "source": {"from": "const", "value": TODAY}, "when": _when("hauled")},
        {"op": "set", "field": "hauler", "source": {"from": "arg", "name": "hauler"}, "when": _when("hauled")},
    ]


def test_field_neither_argument_nor_date_is_not_set() -> None:
    assert _effects("Docking sets `hull_note`.") == []


def test_gerund_matching_no_target_adds_nothing() -> None:
    assert _effects("Walking sets `docked_on`; sailing sets `hauled_on`.") == []


def test_sentence_opening_on_no_target_adds_nothing() -> None:
    assert _effects("The crew sets `docked_on` and clears `hauler`.") == []


def test_removal_from_the_pier_list_is_a_ref_pull_for_the_target() -> None:
    effects = _effects("Hauling sets `hauled_on` and removes the boat from the pier's `moored`.")
    pull = effects[-1]
    assert len(effects) == 2 and len(pull) == 6
    assert "piers" in pull.values()
    assert {k: v for k, v in pull.items() if v != "piers"} == {
        "op": "ref_pull",
        "via": "pier_id",
        "list": "moored",
        "field": "boat_id",
        "when": _when("hauled"),
    }


def test_removal_needs_the_pier_field_to_be_a_list() -> None:
    cols = _marina({"pier_id": {"type": "string"}, "moored": {"type": "integer"}})
    assert _effects("Hauling removes the boat from the pier's `moored`.", cols) == []


def test_whole_text_gives_each_target_its_own_effects() -> None:
    text = (
        "Docking sets `docked_on`; going back to `afloat` clears it. Hauling sets `hauled_on` and sets `hauler` "
        "and removes the boat from the pier's `moored`. Walking sets `docked_on`."
    )
    assert [(e["op"], e["field"], e["when"]["in"]) for e in _effects(text)] == [
        ("set", "docked_on", ["docked"]),
        ("set", "docked_on", ["afloat"]),
        ("set", "hauled_on", ["hauled"]),
        ("set", "hauler", ["hauled"]),
        ("ref_pull", "boat_id", ["hauled"]),
    ]


# ---------------------------------------------------------------------------------------------------------------
# named_paths / answer_extras: a figure defined as one of the record's numbers
# ---------------------------------------------------------------------------------------------------------------

CHARGED = {
    "charges": {"type": "object", "properties": {"total": {"type": "number"}, "label": {"type": "string"}}},
    "dues": {"type": "number"},
    "name": {"type": "string"},
}
FEE_SAID = "The fee charged is the boat's charges.total."


def test_named_path_reads_a_dotted_path() -> None:
    assert named_path("fee_charged", CHARGED, FEE_SAID) == ["charges", "total"]


def test_named_path_trailing_lets_one_word_follow_the_name() -> None:
    assert named_path("fee", CHARGED, FEE_SAID, trailing=True) == ["charges", "total"]
    assert named_path("fee", CHARGED, FEE_SAID) is None


@pytest.mark.parametrize(
    "said",
    [
        "The fee charged is the boat's charges.label.",  # text, not a number
        "The fee charged is the boat's charges.crane.",  # no such key
        "The fee charged is the boat's name.",  # a text field
        "The fee charged is the boat's mast_height.",  # no such field
    ],
)
def test_named_path_of_no_number_is_none(said: str) -> None:
    assert named_path("fee_charged", CHARGED, said) is None


def test_derived_field_of_a_two_step_path_is_nested() -> None:
    assert derived_field("fee_charged", CHARGED, FEE_SAID) == {"op": "nested", "path": ["charges", "total"]}


def test_derived_field_of_a_one_step_path_is_own() -> None:
    said = "The fee charged is the boat's dues."
    assert derived_field("fee_charged", CHARGED, said) == {"op": "own", "field": "dues"}


# ---------------------------------------------------------------------------------------------------------------
# docs_appends: an object field written in shorthand, and an entry appended to a log
# ---------------------------------------------------------------------------------------------------------------

MOORED_BOAT = {
    "mooring": {"type": ["object", "null"]},
    "charges": {"type": "object", "properties": {"total": {"type": "number"}}},
    "status": {"type": "string", "x-enum": ["afloat", "docked"]},
}
MOORING_ARGS = {"boat_id": {"type": "string"}, "mooring_method": {"type": "string", "enum": ["buoy", "pontoon"]}}
AMOUNT_SAID = "The amount charged is the boat's charges.total."


def test_object_sets_reads_each_shorthand_key() -> None:
    text = f'Side effects: status becomes "docked", mooring = {{method, amount, date}}. {AMOUNT_SAID}'
    assert object_sets(text, MOORED_BOAT, MOORING_ARGS, TODAY) == [
        {
            "op": "set",
            "field": "mooring",
            "source": {
                "from": "object",
                "fields": {
                    "method": {"from": "arg", "name": "mooring_method"},
                    "amount": {"from": "record", "path": ["charges", "total"]},
                    "date": {"from": "const", "value": TODAY},
                },
            },
        }
    ]


def test_object_sets_previous_status_reads_the_value_before_the_call() -> None:
    text = f"Side effects: mooring = {{method, previous_status}}. {AMOUNT_SAID}"
    (effect,) = object_sets(text, MOORED_BOAT, MOORING_ARGS, TODAY)
    assert effect["source"]["fields"]["previous_status"] == {"from": "record", "path": ["status"], "before": True}


def test_object_sets_key_nothing_defines_gives_no_effect() -> None:
    assert object_sets("Side effects: mooring = {method, amount, date}.", MOORED_BOAT, MOORING_ARGS, TODAY) == []


LOGGED_BOAT = {
    "status": {"type": "string"},
    "log": {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"date": {"type": "string"}, "status": {"type": "string"}, "note": {"type": "string"}},
        },
    },
}
LOG_ARGS = {"boat_id": {"type": "string"}, "status": {"type": "string"}, "note": {"type": "string"}}


def test_docs_appends_shorthand_entry_takes_today_and_the_arguments() -> None:
    text = "Every change is logged: a `{date, status, note}` entry is appended to `log`."
    assert docs_appends(text, LOGGED_BOAT, LOG_ARGS, today=TODAY) == [
        {
            "op": "append",
            "field": "log",
            "items": [
                {
                    "fields": {
                        "date": {"from": "const", "value": TODAY},
                        "status": {"from": "arg", "name": "status", "default": ""},
                        "note": {"from": "arg", "name": "note", "default": ""},
                    }
                }
            ],
        }
    ]


def test_docs_appends_to_no_list_of_the_record_gives_nothing() -> None:
    text = "a `{date, status, note}` entry is appended to `crew`."
    assert docs_appends(text, LOGGED_BOAT, LOG_ARGS, today=TODAY) == []


# ---------------------------------------------------------------------------------------------------------------
# returns_shape: the answer's fields in braces
# ---------------------------------------------------------------------------------------------------------------


def test_returned_fields_keeps_a_fixed_value_as_a_literal() -> None:
    fields = returned_fields('Returns a slip: {boat_id, status: "docked", fee_charged, skipper_id}.')
    assert [f.name for f in fields] == ["boat_id", "status", "fee_charged", "skipper_id"]
    assert [f.literal for f in fields] == [False, True, False, False]
    assert fields[1].remark == '"docked"'


def test_group_of_literals_only_is_no_shape() -> None:
    assert parse_braces("{kind: 'x'}") is None
    assert parse_braces('{kind: "x", length: 12}') is None
    assert returned_fields("Returns {kind: 'x'}.") == []


def test_group_with_one_plain_field_is_a_shape() -> None:
    fields = parse_braces("{boat_id, kind: 'x'}")
    assert fields is not None
    assert [(f.name, f.literal) for f in fields] == [("boat_id", False), ("kind", True)]


# ---------------------------------------------------------------------------------------------------------------
# mode_rules: one segment per value
# ---------------------------------------------------------------------------------------------------------------

VERDICT_ARGS = {
    "type": "object",
    "properties": {
        "berth_id": {"type": "string"},
        "verdict": {"type": "string", "enum": ["accept", "refuse"]},
        "notes": {"type": "string"},
    },
}


def test_mode_segments_reads_arg_equals_value_paragraphs() -> None:
    text = (
        'Settles a berth claim.\n\nverdict = "accept": the berth becomes "taken".\n\n'
        'verdict = "refuse": notes are required. The berth goes back to "free".\n\nReturns the berth.'
    )
    spec = ToolSpec("settle_berth", text, VERDICT_ARGS)
    assert mode_segments(spec) == (
        "verdict",
        {"accept": 'the berth becomes "taken".', "refuse": 'notes are required. The berth goes back to "free".'},
        "Settles a berth claim. Returns the berth.",
    )


def test_mode_segments_needs_every_value_described() -> None:
    text = 'Settles a berth claim.\n\nverdict = "accept": the berth becomes "taken".'
    assert mode_segments(ToolSpec("settle_berth", text, VERDICT_ARGS)) is None


# ---------------------------------------------------------------------------------------------------------------
# policy_rules: NOUN_BECOMES
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    ['The berth goes back to "free"', "the berth returns to `free`", "the berth reverts to 'free'"],
)
def test_noun_becomes_reads_a_return_to_a_state(said: str) -> None:
    found = NOUN_BECOMES.search(said)
    assert found is not None and found.group(2) == "free"


def test_noun_becomes_needs_matching_marks() -> None:
    assert NOUN_BECOMES.search("the berth goes back to 'free\"") is None


# ---------------------------------------------------------------------------------------------------------------
# docs_counters: bullet items guard their clauses
# ---------------------------------------------------------------------------------------------------------------

METHOD_ARGS = {"mooring_method": {"type": "string", "enum": ["pontoon", "buoy"]}}
PONTOON = {"arg": "mooring_method", "default": None, "in": ["pontoon"]}
BUOY = {"arg": "mooring_method", "default": None, "in": ["buoy"]}


def test_pieces_of_a_bullet_carry_its_value() -> None:
    text = (
        'mooring_method:\n- "pontoon": a pontoon mooring. Only for boats under 12 m; '
        "the fee is added to the skipper's dues.\n"
        '- "buoy": free.'
    )
    assert _pieces(text, {}, METHOD_ARGS) == [
        ("mooring_method:", None),
        ('- "pontoon": a pontoon mooring.', PONTOON),
        ("Only for boats under 12 m;", PONTOON),
        ("the fee is added to the skipper's dues.", PONTOON),
        ('- "buoy": free.', BUOY),
    ]


def test_pieces_line_after_a_bullet_carries_no_guard() -> None:
    text = 'By mooring method:\n- "pontoon": a pontoon mooring.\nThe skipper pays the harbour fee.'
    assert _pieces(text, {}, METHOD_ARGS) == [
        ("By mooring method:", None),
        ('- "pontoon": a pontoon mooring.', PONTOON),
        ("The skipper pays the harbour fee.", None),
    ]


def test_pieces_indented_line_goes_on_with_its_bullet() -> None:
    text = 'mooring_method:\n- "pontoon": a pontoon mooring.\n  The fee is added to the dues.\n- "buoy": free.'
    said, guard = _pieces(text, {}, METHOD_ARGS)[2]
    assert (said.strip(), guard) == ("The fee is added to the dues.", PONTOON)


def test_pieces_bullets_under_no_line_naming_the_parameter_carry_no_guard() -> None:
    text = 'Sort keys:\n- "pontoon": moorings on pontoons first.'
    assert _pieces(text, {}, METHOD_ARGS) == [("Sort keys:", None), ('- "pontoon": moorings on pontoons first.', None)]


# ---------------------------------------------------------------------------------------------------------------
# param_dates and sampling: an argument documented as `YYYY-MM-DD`
# ---------------------------------------------------------------------------------------------------------------

WINDOW = "Must fall between the business date and 30 days after it."


def test_described_dates_reads_a_window_after_the_business_date() -> None:
    args = {"docking_on": {"type": "string", "description": f"Dock date, `YYYY-MM-DD`. {WINDOW}"}}
    assert described_dates(args, TODAY) == [
        {"op": "arg_date", "arg": "docking_on", "today": TODAY, "cmp": ">="},
        {"op": "arg_date", "arg": "docking_on", "today": TODAY, "cmp": "<=", "days": 30},
    ]


def test_described_dates_skips_an_argument_that_is_no_date() -> None:
    args = {"crew_size": {"type": "string", "description": f"Crew on board. {WINDOW}"}}
    assert described_dates(args, TODAY) == []


@pytest.mark.parametrize("seed", range(8))
def test_sample_value_of_a_documented_date_is_an_iso_date(seed: int) -> None:
    schema = {"type": "string", "description": "Dock date, `YYYY-MM-DD`."}
    value = sample_value(schema, random.Random(seed))
    assert datetime.date.fromisoformat(value).isoformat() == value
