"""A climbing gym's sign-up, refused as its one-sentence docs list ("The request is refused with an error when: a;
b; c."): a member whose status is not 'active', a member with any flag, a cancelled session, a member who has
already passed the course, a prerequisite missing from passed_courses. Each clause is a check on the records the
new sign-up names, evaluated as a generated environment evaluates it."""

from __future__ import annotations

from typing import Any

from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.refused_lists import refusal_checks, refused_bullets
from tests.schemas import collection

S = {"type": "string"}
LIST = {"type": "array", "items": S}
MEMBER = {
    "member_id": S,
    "status": {"type": "string", "x-enum": ["active", "lapsed"]},
    "flags": LIST,
    "passed_courses": LIST,
}
COURSE = {"course_code": S, "prerequisites": LIST}
SESSION = {"session_id": S, "course_code": S, "status": {"type": "string", "x-enum": ["open", "full", "cancelled"]}}
SIGNUP = {
    "signup_id": S,
    "member_id": {"type": "string", "x-references": "members"},
    "session_id": {"type": "string", "x-references": "sessions"},
    "course_code": {"type": "string", "x-references": "courses"},
}
COLS = {
    "members": collection(MEMBER),
    "courses": collection(COURSE),
    "sessions": collection(SESSION),
    "signups": collection(SIGNUP),
}
OWN = SIGNUP
TEXT = (
    "Signs a member up for a session. The request is refused with an error when: the member or session does not "
    "exist; the member's status is not 'active'; the member has any flag; the session is cancelled; the member has "
    "already passed the course; a prerequisite is missing from passed_courses. Returns the new sign-up."
)
STATE: dict[str, Any] = {
    "members": {
        "M1": {"member_id": "M1", "status": "active", "flags": [], "passed_courses": ["BASICS"]},
        "M2": {"member_id": "M2", "status": "lapsed", "flags": [], "passed_courses": ["BASICS"]},
        "M3": {"member_id": "M3", "status": "active", "flags": ["waiver"], "passed_courses": ["BASICS"]},
        "M4": {"member_id": "M4", "status": "active", "flags": [], "passed_courses": ["BASICS", "LEAD"]},
        "M5": {"member_id": "M5", "status": "active", "flags": [], "passed_courses": []},
    },
    "courses": {
        "LEAD": {"course_code": "LEAD", "prerequisites": ["BASICS"]},
        "ROPE": {"course_code": "ROPE", "prerequisites": []},
    },
    "sessions": {
        "S1": {"session_id": "S1", "course_code": "LEAD", "status": "open"},
        "S2": {"session_id": "S2", "course_code": "ROPE", "status": "cancelled"},
    },
}


def _allowed(member: str, session: str) -> bool:
    record = {"member_id": member, "session_id": session, "course_code": STATE["sessions"][session]["course_code"]}
    return all(fg_check(c, {}, record, STATE) for c in refusal_checks(TEXT, OWN, COLS))


def test_the_sentence_lists_its_clauses() -> None:
    assert refused_bullets(TEXT)[1:3] == ["the member's status is not 'active'", "the member has any flag"]
    ops = [c["op"] for c in refusal_checks(TEXT, OWN, COLS)]
    assert ops == ["linked_state", "empty", "linked_state", "lacks", "holds_all"]


def test_each_listed_refusal_refuses_and_nothing_else_does() -> None:
    assert _allowed("M1", "S1")  # active, no flag, open session, has BASICS, has not passed LEAD
    assert not _allowed("M2", "S1")  # lapsed
    assert not _allowed("M3", "S1")  # flagged
    assert not _allowed("M1", "S2")  # cancelled session
    assert not _allowed("M4", "S1")  # already passed LEAD
    assert not _allowed("M5", "S1")  # BASICS missing


def test_a_clause_naming_no_known_value_or_list_gives_no_check() -> None:
    text = "The request is refused with an error when: the member is unhappy; the member has any pets."
    assert refusal_checks(text, OWN, COLS) == []


def test_a_limit_by_a_table_of_the_linked_records_values() -> None:
    from synth.envsynth.refused_lists import table_caps

    member = {**MEMBER, "level": S, "hours_booked": {"type": "integer"}}
    cols = {**COLS, "members": collection(member)}
    own = {**SIGNUP, "hours": {"type": "integer"}}
    text = (
        "If the session has a free place, the sign-up is made unless the member's hours_booked plus the session "
        "hours would exceed the weekly limit (10 for juniors, 20 for seniors), which is an error."
    )
    sample = {"members": {"A": {"level": "junior"}, "B": {"level": "senior"}}}
    (check,) = table_caps(text, own, cols, sample)
    assert check["table"] == {"junior": 10, "senior": 20} and check["key"] == "level" and check["seat_only"]
    state = {"members": {"J": {"member_id": "J", "level": "junior", "hours_booked": 8}}}
    assert fg_check(check, {}, {"member_id": "J", "hours": 2}, state)
    assert not fg_check(check, {}, {"member_id": "J", "hours": 3}, state)  # 11 of at most 10
    assert table_caps(text.replace("(10 for juniors, 20 for seniors)", "(10)"), own, cols, sample) == []
