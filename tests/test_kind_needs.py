"""Kinds of a member's boat that only some instructors may take: "Dinghies, kayaks and canoes can only be booked
with an instructor whose skills include `paddling`". The boat is the entry of the member's `boats` the lesson's
`boat_name` picks; the instructor the one the lesson names. Read, then evaluated on the new record."""

from __future__ import annotations

from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.kind_needs import kind_needs
from tests.schemas import collection

S = {"type": "string"}
BOAT = {"type": "object", "properties": {"name": S, "kind": {"type": "string", "x-enum": ["dinghy", "kayak", "yacht"]}}}
SCHEMA = {
    "type": "object",
    "properties": {
        "lessons": collection({"lesson_id": S, "member_id": S, "boat_name": S, "instructor_id": S}),
        "members": collection({"member_id": S, "boats": {"type": "array", "items": BOAT}}),
        "instructors": collection({"instructor_id": S, "skills": {"type": "array", "items": S}}),
    },
}
TEXT = (
    "Books a lesson. Dinghies, kayaks and canoes can only be booked with an instructor whose skills include `paddling`."
)
STATE = {
    "members": {
        "M1": {"member_id": "M1", "boats": [{"name": "Puff", "kind": "kayak"}, {"name": "Gull", "kind": "yacht"}]}
    },
    "instructors": {
        "I1": {"instructor_id": "I1", "skills": ["paddling", "knots"]},
        "I2": {"instructor_id": "I2", "skills": ["knots"]},
    },
}


def _checks() -> list[dict]:
    own = SCHEMA["properties"]["lessons"]["additionalProperties"]["properties"]
    return kind_needs(TEXT, own, SCHEMA["properties"])


def test_the_rule_is_read() -> None:
    (check,) = _checks()
    assert check["element"] == {
        "via": "member_id",
        "collection": "members",
        "list": "boats",
        "by": "boat_name",
        "match": "name",
        "field": "kind",
        "in": ["dinghy", "kayak", "canoe"],
    }
    assert check["holder"] == {
        "via": "instructor_id",
        "collection": "instructors",
        "field": "skills",
        "value": "paddling",
    }
    own = SCHEMA["properties"]["lessons"]["additionalProperties"]["properties"]
    assert kind_needs(TEXT.replace("an instructor", "a coach"), own, SCHEMA["properties"]) == []


def test_only_those_kinds_need_the_skill() -> None:
    (check,) = _checks()

    def allowed(boat: str, instructor: str) -> bool:
        record = {"lesson_id": "L9", "member_id": "M1", "boat_name": boat, "instructor_id": instructor}
        return fg_check(check, {}, record, STATE)

    assert allowed("Puff", "I1") and not allowed("Puff", "I2")  # a kayak needs paddling
    assert allowed("Gull", "I2")  # a yacht does not
