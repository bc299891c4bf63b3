"""A limit for one value of a parameter: "A fines block can only be released while the member's owed is 20.00 EUR
or less" refuses releasing a fines block from a member who owes more, and lets every other block go."""

from __future__ import annotations

from typing import Any

from synth.envsynth.allowed_when import allowed_checks
from synth.envsynth.plan import ToolPlan
from synth.envsynth.value_limits import value_limits
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N = {"type": "string"}, {"type": "number"}
MEMBER = {"member_id": S, "owed": N, "blocks": {"type": "array", "items": S}}
SCHEMA = {"type": "object", "properties": {"members": collection(MEMBER)}}
KINDS = {"type": "string", "enum": ["fines", "conduct", "lost_card"]}
TEXT = (
    "Releases a block from a member's card. A fines block can only be released while the member's owed is 20.00 "
    "EUR or less. Returns the member."
)
RELEASE = ToolSpec(
    "release_block",
    TEXT,
    {"type": "object", "properties": {"member_id": S, "block_type": KINDS}, "required": ["member_id", "block_type"]},
    mutates=True,
)


def _state() -> dict[str, Any]:
    return {
        "members": {
            "M1": {"member_id": "M1", "owed": 35.0, "blocks": ["fines", "conduct"]},
            "M2": {"member_id": "M2", "owed": 20.0, "blocks": ["fines"]},
        }
    }


def test_the_limit_holds_for_its_value_only() -> None:
    params = RELEASE.parameters["properties"]
    own = MEMBER
    assert value_limits(TEXT, "member", own, params) == [
        {
            "op": "bound",
            "from": "self",
            "field": "owed",
            "cmp": "<=",
            "value": 20.0,
            "when": {"arg": "block_type", "in": ["fines"]},
        }
    ]
    assert value_limits(TEXT.replace("member's", "branch's"), "member", own, params) == []  # another record's
    plan = ToolPlan(kind="item_remove", collection="members", key_field="member_id", key_param="member_id")
    plan = ToolPlan.from_dict({**plan.to_dict(), "list_field": "blocks", "op_param": "block_type"})
    plan = allowed_checks(RELEASE, plan, SCHEMA, TEXT)

    def after(key: str, blocks: list[str]) -> dict[str, Any]:
        state = _state()
        state["members"][key]["blocks"] = blocks
        return state

    run_calls(
        RELEASE,
        plan,
        SCHEMA,
        _state,
        [
            ({"member_id": "M1", "block_type": "fines"}, None),  # owes 35.00
            ({"member_id": "M1", "block_type": "conduct"}, after("M1", ["fines"])),
            ({"member_id": "M2", "block_type": "fines"}, after("M2", [])),  # 20.00 is still within
        ],
    )


def test_the_limit_in_other_words() -> None:
    params = RELEASE.parameters["properties"]
    for said, cmp in [
        ("A fines block may be released only if the member's owed is at most 20.", "<="),
        ("A fines block can only be lifted when the member's owed does not exceed EUR 20.", "<="),
        ("A fines block can only be lifted when the member's owed is at least 20.", ">="),
    ]:
        found = value_limits(said, "member", MEMBER, params)
        assert [(c["field"], c["cmp"], c["value"], c["when"]["in"]) for c in found] == [("owed", cmp, 20.0, ["fines"])]
