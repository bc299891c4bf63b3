"""A charter's "The request is refused when:" bullet list read by listed_refusals.listed_refusals into refusals over
the boat, docket and skipper a sibling quote reads (a state, a lapsed date, a zero, a crew outside the docked
berths, a rig the skipper is barred from) and over stored charters (one still open, one launched too recently);
a list with one bullet it cannot read gives none."""

from __future__ import annotations

from typing import Any

from synth.envsynth.formula_runtime import fg_formula
from synth.envsynth.listed_refusals import bound_refusals, listed_refusals
from tests.schemas import collection

TODAY = "2031-06-01"
S, N, INT, B = {"type": "string"}, {"type": "number"}, {"type": "integer"}, {"type": "boolean"}
DATE = {"type": "string", "format": "date"}
STATUS = {"type": "string", "x-enum": ["open", "sailing", "closed", "cancelled"]}
COLS = {
    "boats": collection(
        {
            "boat_id": S,
            "docket_id": S,
            "rig": S,
            "status": {"type": "string", "enum": ["open", "laid_up"]},
            "survey_due": DATE,
            "flagged": B,
        }
    ),
    "dockets": collection({"docket_id": S, "berths": INT}),
    "skippers": collection({"skipper_id": S, "barred_rigs": {"type": "array", "items": S}, "strikes": INT}),
    "charters": collection(
        {"charter_id": S, "boat_id": S, "skipper_id": S, "status": STATUS, "launch_date": DATE, "total": N}
    ),
}
CREW = {"arg": "crew", "default": 1}
QUOTE = {
    "named": {"boat_id": "boats", "skipper_id": "skippers"},
    "linked": {"docket_id": ["boat_id", "docket_id", "dockets"]},
    "steps": [["crew", CREW], ["total", {"num": 100}]],
}


def _refusals(*bullets: str, today: str | None = TODAY, quote: dict | None = None) -> list[dict[str, Any]]:
    text = "Books a charter.\n\nThe request is refused when:\n" + "".join(f"- {b}\n" for b in bullets)
    return listed_refusals(text, quote or QUOTE, COLS, "charters", today)


def _holds(node: dict[str, Any], named: dict[str, Any], arguments: dict[str, Any] | None = None) -> bool:
    return fg_formula(node, arguments or {}, named, {}) is True


def test_a_state_and_a_lapsed_date_of_the_boat() -> None:
    status, survey = _refusals('the boat is not `open`: "laid up"', "its `survey_due` date is before today.")
    not_open = {"not": {"test": {"field": "status", "param": "boat_id"}, "in": ["open"]}}
    assert status == {"when": not_open, "said": "the boat is not `open`"}
    assert survey["said"] == "its `survey_due` date is before today"
    lapsed = {"boat_id": {"status": "open", "survey_due": "2031-05-31"}}
    assert _holds(survey["when"], lapsed) and not _holds(status["when"], lapsed)
    assert not _holds(survey["when"], {"boat_id": {"survey_due": TODAY}})
    assert _holds(status["when"], {"boat_id": {"status": "laid_up"}})


def test_a_zero_on_the_one_record_holding_the_field() -> None:
    [zero] = _refusals("`strikes` is 0")
    assert zero["when"] == {"test": {"field": "strikes", "param": "skipper_id"}, "in": [0]}


def test_a_crew_outside_the_docked_berths_of_a_linked_record() -> None:
    [outside] = _refusals("`crew` is outside 1..docked `berths`")
    named = {"docket_id": {"berths": 4}}
    assert [_holds(outside["when"], named, {"crew": n}) for n in (0, 1, 4, 5)] == [True, False, False, True]
    assert _refusals("`crew` is outside 1..booked `berths`") == []  # no record the participle names
    assert _refusals("`sails` is outside 1..docked `berths`") == []  # no figure of the quote


def test_a_rig_the_skipper_is_barred_from() -> None:
    [barred] = _refusals("the boat belongs to a rig on the skipper's barred rig list")
    of = {"field": "barred_rigs", "param": "skipper_id"}
    assert barred["when"] == {"member": {"field": "rig", "param": "boat_id"}, "of": of}
    named = {"boat_id": {"rig": "ketch"}, "skipper_id": {"barred_rigs": ["yawl", "ketch"]}}
    assert _holds(barred["when"], named)
    assert not _holds(barred["when"], {**named, "skipper_id": {"barred_rigs": ["yawl"]}})


def test_a_list_named_in_the_plural_as_its_field_is() -> None:
    [barred] = _refusals("the boat belongs to a rig on the skipper's barred rigs list")
    assert barred["when"]["of"] == {"field": "barred_rigs", "param": "skipper_id"}


def test_a_charter_still_open_for_the_same_boat() -> None:
    [still] = _refusals('a charter for the same boat is still `open` or `sailing`: "boat taken"')
    opened = {"collection": "charters", "field": "boat_id", "state": "status", "in": ["open", "sailing"]}
    assert still == {"open_record": opened, "said": "a charter for the same boat is still `open` or `sailing`"}
    assert _refusals("a docket for the same boat is still `open` or `sailing`") == []  # not the created kind
    assert _refusals("a charter for the same boat is still `open` or `moored`") == []  # no field knows both


def test_a_flagged_boat_launched_too_recently() -> None:
    said = "the boat is flagged and the last non-cancelled launch of this boat was less than 3 days ago"
    [recent] = _refusals(said)
    assert recent["flag"] == {"field": "flagged", "param": "boat_id"}
    assert recent["recent_record"] == {
        "collection": "charters",
        "field": "boat_id",
        "state": "status",
        "not_in": ["cancelled"],
        "date": "launch_date",
        "days": 3,
        "today": TODAY,
    }
    assert _refusals(said, today=None) == []  # no business date to count from
    assert _refusals(said.replace("flagged", "moored")) == []  # no yes/no field of that name


def test_one_unreadable_bullet_gives_no_refusals() -> None:
    readable = ['the boat is not `open`: "laid up"', "`strikes` is 0"]
    assert len(_refusals(*readable)) == 2
    assert _refusals(*readable, "the tide is too low") == []
    assert _refusals("its `survey_due` date is before today") == []  # no record said before it
    assert _refusals("the boat is not `moored`") == []  # no field knows the value


def test_no_list_no_refusals() -> None:
    text = "Books a charter. It is refused when the boat is not `open`."
    assert listed_refusals(text, QUOTE, COLS, "charters", TODAY) == []


def test_a_bound_the_quote_states() -> None:
    text = "`crew` must be between 1 and <n> (the docked `berths`)."
    [bound] = bound_refusals(text, QUOTE, COLS)
    assert bound["said"] == "`crew` must be between 1 and <n> (the docked `berths`)"
    assert _holds(bound["when"], {"docket_id": {"berths": 2}}, {"crew": 3})
    assert bound_refusals(text.replace("docked", "booked"), QUOTE, COLS) == []
