"""What a search's docs say beyond its parameters' names: a boolean the search never returns ("Retired boats (active =
false) are never returned"), a bound a parameter names by a shared word (`min_fuel`: "at least this many litres
aboard" -> `fuel_litres`), a reference check worded "unknown skipper id", and summary fields made from a list (its
length by the list's first word, `line_count` of `line_items`; "the rate of the lowest hire band")."""

from __future__ import annotations

from synth.envsynth.answer_extras import derived_field
from synth.envsynth.filter_rules import refine_filter
from synth.envsynth.list_rules import list_scope, sort_fields
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec

BOAT = {
    "boat_id": {"type": "string"},
    "skipper_id": {"type": "string", "x-references": "skippers"},
    "active": {"type": "boolean"},
    "fuel_litres": {"type": "integer"},
    "length_m": {"type": "number"},
    "line_items": {"type": "array", "items": {"type": "object", "properties": {"qty": {"type": "integer"}}}},
    "hire_bands": {
        "type": "array",
        "items": {"type": "object", "properties": {"min_days": {"type": "integer"}, "day_rate": {"type": "number"}}},
    },
}
SCHEMA = {
    "type": "object",
    "properties": {
        "boats": {"type": "object", "additionalProperties": {"type": "object", "properties": BOAT}},
        "skippers": {"type": "object", "additionalProperties": {"type": "object", "properties": {}}},
    },
}


def test_a_boolean_the_search_never_returns() -> None:
    assert list_scope("Retired boats (active = false) are never returned by a search.", BOAT) == {"active": [True]}
    assert list_scope("Boats with `active` is true are never listed.", BOAT) == {"active": [False]}
    assert list_scope("Every boat is returned, active or not.", BOAT) == {}


def _refined(description: str, props: dict, filter_params: list[str] | None = None) -> ToolPlan:
    spec = ToolSpec("search_boats", description, {"type": "object", "properties": props})
    plan = ToolPlan(kind="filter", collection="boats", key_field="boat_id", filter_params=filter_params or [])
    return refine_filter(spec, plan, SCHEMA)


def test_a_bound_named_by_a_shared_word() -> None:
    props = {"min_fuel": {"type": "integer", "description": "Only boats with at least this many litres aboard."}}
    assert _refined("Search boats.", props).param_map["min_fuel"] == {
        "path": ["fuel_litres"],
        "via": None,
        "collection": None,
        "op": "min",
    }
    vague = {"min_size": {"type": "integer", "description": "Only boats at least this big."}}
    assert "min_size" not in _refined("Search boats.", vague).param_map  # no number field shares `size`


def test_an_unknown_named_record_is_an_error() -> None:
    props = {"skipper_id": {"type": "string"}}
    assert _refined("List a skipper's boats. Errors: unknown skipper id.", props, ["skipper_id"]).ref_checks == {
        "skipper_id": "skippers"
    }
    assert _refined("List a skipper's boats. Errors: unknown status.", props, ["skipper_id"]).ref_checks == {}


def test_summary_fields_made_from_a_list() -> None:
    assert derived_field("line_count", BOAT, "") == {"op": "len", "path": ["line_items"]}
    text = (
        "Each summary: {boat_id, base_rate (the rate of the lowest hire band), top_rate (the rate of the highest band)}"
    )
    assert derived_field("base_rate", BOAT, text) == {
        "op": "end_entry",
        "path": ["hire_bands", "day_rate"],
        "last": False,
    }
    assert derived_field("top_rate", BOAT, text) == {
        "op": "end_entry",
        "path": ["hire_bands", "day_rate"],
        "last": True,
    }
    assert derived_field("base_rate", BOAT, "base_rate (the rate of the lowest crew)") is None  # no such list


def test_an_order_followed_by_the_summary_shape() -> None:
    dated = {**BOAT, "placed_on": {"type": "string"}}
    text = "Returns a list of summaries sorted by placed_on, then boat_id: {boat_id, placed_on, line_count}."
    assert sort_fields(text, dated) == ["placed_on", "boat_id"]
