"""An answer's computed figure as the docs write it: "Returns the skipper record: skipper_id, name, contact {phone,
email}, credit_limit, owed, and a computed free_credit = credit_limit - owed (null for walk-up skippers)"."""

from __future__ import annotations

from synth.envsynth.answer_extras import derived_field, null_wrapped
from synth.envsynth.formula_runtime import fg_formula
from synth.envsynth.returns_shape import returned_fields

SKIPPER = {
    "skipper_id": {"type": "string"},
    "kind": {"type": "string", "x-enum": ["member", "walk_up"]},
    "credit_limit": {"type": "number"},
    "owed": {"type": "number"},
    "name": {"type": "string"},
}
DOC = (
    'Returns the skipper record: skipper_id, name, kind ("member" or "walk_up"), contact {phone, email}, '
    "credit_limit, owed, and a computed free_credit = credit_limit - owed (null for walk-up skippers)."
)


def test_the_listed_fields_take_objects_and_computed_figures() -> None:
    fields = [(f.name, f.remark) for f in returned_fields(DOC)]
    assert [n for n, _ in fields] == ["skipper_id", "name", "kind", "contact", "credit_limit", "owed", "free_credit"]
    assert fields[-1][1] == "credit_limit - owed (null for walk-up skippers)"


def test_a_written_figure_with_its_null_aside() -> None:
    assert derived_field("free_credit", SKIPPER, DOC) == {
        "op": "calc",
        "left": "credit_limit",
        "operator": "-",
        "right": "owed",
        "floor": None,
        "null_when": {"field": "kind", "in": ["walk_up"]},
    }
    plain = "Returns ... and a computed free_credit = credit_limit - owed."
    assert "null_when" not in derived_field("free_credit", SKIPPER, plain)
    unread = "Returns ... a computed free_credit = credit_limit - owed (null for skippers at sea)."
    assert derived_field("free_credit", SKIPPER, unread) is None  # a condition not read is not dropped
    assert derived_field("free_credit", SKIPPER, "free_credit = name - owed") is None  # not two numbers


def test_a_formula_is_none_for_the_value_its_aside_names() -> None:
    node = {
        "op": "-",
        "args": [{"field": "credit_limit", "param": "skipper_id"}, {"field": "owed", "param": "skipper_id"}],
    }
    wrapped = null_wrapped("credit_limit - owed (null for walk-up skippers)", node, {"skipper_id": SKIPPER})
    assert wrapped["if_field"] == {"param": "skipper_id", "field": "kind", "in": ["walk_up"]}
    member = {"skipper_id": {"kind": "member", "credit_limit": 500.0, "owed": 120.0}}
    walk_up = {"skipper_id": {"kind": "walk_up", "credit_limit": 0.0, "owed": 0.0}}
    assert fg_formula(wrapped, {}, member, {}) == 380.0
    assert fg_formula(wrapped, {}, walk_up, {}) is None
    assert null_wrapped("credit_limit - owed", node, {"skipper_id": SKIPPER}) is node
