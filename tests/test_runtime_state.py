"""State helpers (canonical JSON, hash, copy, diff, shared index) and the argument validator."""

from __future__ import annotations

import copy
import json

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synth.runtime import canonical_json, changed_paths, copy_state, state_hash
from synth.runtime.state import SharedIndex, shared_index
from synth.runtime.validate import ArgumentValidator

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)


def test_canonical_json_format() -> None:
    assert canonical_json({"b": 1, "a": [True, None, "é"]}) == '{"a":[true,null,"é"],"b":1}'
    with pytest.raises(ValueError):
        canonical_json({"x": float("nan")})


@settings(max_examples=60, deadline=None)
@given(json_values)
def test_copy_state_is_an_equal_independent_copy(value: object) -> None:
    copied = copy_state(value)
    assert copied == value and canonical_json(copied) == canonical_json(value)
    if isinstance(value, (dict, list)) and value:
        assert copied is not value
    assert changed_paths(value, copied) == []


def test_copy_state_handles_non_marshal_types() -> None:
    from collections import OrderedDict

    value = {"a": OrderedDict(x=[1]), "b": [{"c": 1}]}
    copied = copy_state(value)
    assert copied == value and copied["a"] is not value["a"] and copied["b"][0] is not value["b"][0]


@settings(max_examples=60, deadline=None)
@given(json_values, json_values)
def test_hash_equal_iff_canonical_json_equal(a: object, b: object) -> None:
    assert (state_hash(a) == state_hash(b)) == (canonical_json(a) == canonical_json(b))


def test_changed_paths() -> None:
    before = {"todos": {"t1": {"title": "a"}, "t/2": {"title": "b"}}, "n": 1, "list": [1, 2]}
    after = copy.deepcopy(before)
    after["todos"]["t1"]["title"] = "z"
    after["todos"]["t3"] = {}
    del after["todos"]["t/2"]
    after["list"].append(3)
    assert changed_paths(before, after) == ["/list", "/todos/t~12", "/todos/t1/title", "/todos/t3"]
    assert changed_paths({"x": 1}, {"x": True}) == ["/x"]  # bool is not int in JSON
    assert changed_paths(before, before) == []


def test_shared_index_paths() -> None:
    state = {"orders": {"o1": {"items": [{"sku": "a"}]}}, "n": 1}
    index = SharedIndex(state)
    assert index.path_to(state) == []
    assert index.path_to(state["orders"]["o1"]["items"][0]) == ["orders", "o1", "items", 0]
    assert index.path_to({"not": "shared"}) is None
    assert shared_index(state) is shared_index(state)


SCHEMAS = [
    {
        "type": "object",
        "properties": {
            "id": {"type": "string", "minLength": 2},
            "n": {"type": "integer", "minimum": 0},
            "flag": {"type": "boolean"},
            "kind": {"enum": ["a", "b", 3]},
        },
        "required": ["id"],
        "additionalProperties": False,
    },
    {
        "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}, "maxItems": 2},
            "x": {"type": ["number", "null"], "exclusiveMaximum": 10},
            "nested": {"type": "object", "properties": {"k": {"type": "integer"}}, "required": ["k"]},
        },
    },
    {"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}},  # slow path
    {"type": "object", "properties": {}, "nullable": True, "x-note": "ignored keywords"},
]


VALIDATORS = [(ArgumentValidator(s), jsonschema.Draft202012Validator(s)) for s in SCHEMAS]


@pytest.mark.parametrize("index", range(len(SCHEMAS)))
@settings(max_examples=100, deadline=None)
@given(
    arguments=st.dictionaries(
        st.sampled_from(["id", "n", "flag", "kind", "tags", "x", "nested", "a", "zz"]),
        json_values | st.sampled_from(["a", "b", 3, 3.0, 5, -1, 1.5, ["ab"], {"k": 1}]),
        max_size=5,
    )
)
def test_validator_agrees_with_jsonschema(index: int, arguments: dict) -> None:
    validator, reference = VALIDATORS[index]
    assert (validator.problem(arguments) is None) == reference.is_valid(arguments)


def test_validator_fast_path_and_messages() -> None:
    assert ArgumentValidator(SCHEMAS[0]).fast and ArgumentValidator(SCHEMAS[3]).fast
    assert not ArgumentValidator(SCHEMAS[2]).fast
    problem = ArgumentValidator(SCHEMAS[0]).problem({"id": "abc", "n": -1})
    assert problem == "-1 is less than the minimum of 0"
    assert ArgumentValidator(SCHEMAS[0]).problem(json.loads('{"id": "ab", "n": 2.0}')) is None
