"""list_sizes: "<value> <records> take N to M <entries>" bounds a created record's list, under the value."""

from __future__ import annotations

from typing import Any

from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.list_sizes import list_sizes
from synth.envsynth.shape_code import holds

OWN = {"kind": {"type": "string", "enum": ["private", "group"]}, "passengers": {"type": "array"}, "skipper": {}}
DOCS = """Books a charter.

Rules:
- Private charters take 1 to 8 passengers. Parties of 9 or more book as a group.
- Group charters take 9 to 40 passengers.
"""


def _refused(checks: list[dict[str, Any]], record: dict[str, Any]) -> bool:
    arguments: dict[str, Any] = {}
    return any(
        (not c.get("when") or eval(holds(c["when"]), {}, {"record": record, "arguments": arguments}))
        and not fg_check(c, arguments, record, {})
        for c in checks
    )


def test_a_value_before_the_kind_bounds_the_list_while_the_record_holds_it() -> None:
    checks = list_sizes(DOCS, "charters", OWN)
    assert _refused(checks, {"kind": "private", "passengers": [{}] * 9})
    assert not _refused(checks, {"kind": "private", "passengers": [{}] * 8})
    assert _refused(checks, {"kind": "private", "passengers": []})  # "1 to 8": at least one
    assert not _refused(checks, {"kind": "group", "passengers": [{}] * 9})
    assert _refused(checks, {"kind": "group", "passengers": [{}] * 41})
    assert not _refused(checks, {"kind": "group", "passengers": [{}] * 2})  # a lower bound above 1 is not read


def test_a_bound_without_a_value_holds_always_and_other_sentences_read_as_nothing() -> None:
    checks = list_sizes("Charters take up to 12 passengers.", "charters", OWN)
    assert checks == [{"op": "list_room", "list": "passengers", "most": 13}]
    assert list_sizes("Charters take 1 to 3 skippers.", "charters", OWN) == []  # not a list field
    assert list_sizes("Boats take 1 to 8 passengers.", "charters", OWN) == []  # another kind of record
    assert list_sizes("Coastal charters take 1 to 8 passengers.", "charters", OWN) == []  # no field holds `coastal`
