"""Listed refusals about the numbers and the free places of the records a new charter names (refused_bounds.py,
read by refused_lists.refusal_checks): a bullet's clauses joined by "or" (the later clause taking the bullet's
subject), "the skipper's `dues_paid` is below $N" / "is more than $N" as a `bound` on the linked skipper, "the pier
has no free place" as a `list_cap` counting the pier's own list against its cap number; the "already has an active
charter" cap (`cap_checks`), and the runtime and end-to-end refusals these checks give."""

from __future__ import annotations

from typing import Any

from synth.envsynth.create_checks import create_checks
from synth.envsynth.create_rules import refine_create
from synth.envsynth.docs_linked import record_links
from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.plan import ToolPlan
from synth.envsynth.refused_bounds import bound_refusals, bullet_clauses
from synth.envsynth.refused_lists import cap_checks, refusal_checks, refused_bullets
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S = {"type": "string"}
N = {"type": "number"}
SKIPPER = {"skipper_id": S, "dues_paid": N, "owed": N, "notes": S}
PIER = {
    "pier_id": S,
    "status": {"type": "string", "x-enum": ["open", "repair", "full"]},
    "capacity": {"type": "integer"},
    "moored": {"type": "array", "items": {"type": "string", "x-references": "skippers"}},
}
CHARTER = {
    "charter_id": S,
    "skipper_id": S,
    "pier_id": S,
    "status": {"type": "string", "x-enum": ["active", "closed"]},
}
SCHEMA = {
    "type": "object",
    "properties": {
        "skippers": collection(SKIPPER),
        "piers": collection(PIER),
        "charters": collection(CHARTER),
    },
}
COLS = SCHEMA["properties"]
OWN = CHARTER
LINKS = record_links(OWN, COLS, "")
PLACE_CHECK = {
    "op": "list_cap",
    "chain": [{"collection": "piers", "via": "pier_id"}],
    "field": "capacity",
    "list": "moored",
    "of_holder": True,
}
DUES = "the skipper's `dues_paid` is below the $300.00 dues minimum"
OWED = "the skipper's `owed` is more than **$400.00**"
REFUSED = (
    "Opens a charter for a skipper at a pier.\n\nThe charter is refused if:\n\n"
    f"- {DUES}\n- {OWED}\n- the pier is in `repair` or has no free place\n"
)


def test_a_bullets_or_clauses_each_take_the_bullets_subject() -> None:
    assert bullet_clauses("the pier is in `repair` or has no free place") == [
        "the pier is in `repair`",
        "the pier has no free place",
    ]
    assert bullet_clauses("the pier is in `repair`") == ["the pier is in `repair`"]
    assert bullet_clauses(DUES) == [DUES]
    # a clause with a subject of its own keeps it
    assert bullet_clauses("the pier is in `repair` or the skipper has no free place") == [
        "the pier is in `repair`",
        "the skipper has no free place",
    ]


def test_a_number_of_the_linked_record_below_or_above_a_figure_is_a_bound() -> None:
    assert bound_refusals([DUES], OWN, COLS, LINKS) == [
        {
            "op": "bound",
            "collection": "skippers",
            "via": "skipper_id",
            "field": "dues_paid",
            "cmp": ">=",
            "value": 300.0,
        }
    ]
    assert bound_refusals([OWED], OWN, COLS, LINKS) == [
        {"op": "bound", "collection": "skippers", "via": "skipper_id", "field": "owed", "cmp": "<=", "value": 400.0}
    ]
    (whole,) = bound_refusals(["the skipper's `owed` is more than 400"], OWN, COLS, LINKS)
    assert whole["value"] == 400 and isinstance(whole["value"], int)
    (exceeds,) = bound_refusals(["the skipper's `owed` exceeds $1,250.50"], OWN, COLS, LINKS)
    assert (exceeds["field"], exceeds["cmp"], exceeds["value"]) == ("owed", "<=", 1250.5)
    (under,) = bound_refusals(["the skipper's `dues_paid` is under **$300**"], OWN, COLS, LINKS)
    assert (under["field"], under["cmp"], under["value"]) == ("dues_paid", ">=", 300)
    # a bullet of two clauses: the bound of the first, the state of the second is refused_lists'
    assert bullet_clauses("the skipper's `owed` is more than $400.00 or the pier is in `repair`") == [
        "the skipper's `owed` is more than $400.00",
        "the pier is in `repair`",
    ]
    # `notes` is no number of the skipper; a boat is no record the charter names
    assert bound_refusals(["the skipper's `notes` is more than **$400.00**"], OWN, COLS, LINKS) == []
    assert bound_refusals(["the boat's `owed` is more than $400.00"], OWN, COLS, LINKS) == []
    assert bound_refusals(["the skipper's `sails` is below $10"], OWN, COLS, LINKS) == []


def test_no_free_place_compares_the_named_records_list_with_its_cap() -> None:
    assert bound_refusals(["the pier has no free place"], OWN, COLS, LINKS) == [PLACE_CHECK]
    assert bound_refusals(["the pier is in `repair` or has no free place"], OWN, COLS, LINKS) == [PLACE_CHECK]
    # two cap numbers: which one is meant is not said
    capped = {**PIER, "max_boats": {"type": "integer"}}
    two_caps = {**COLS, "piers": collection(capped)}
    assert bound_refusals(["the pier has no free place"], OWN, two_caps, LINKS) == []
    # the pier's list holds records no other link of the charter names (boats)
    boats = {**PIER, "moored": {"type": "array", "items": {"type": "string", "x-references": "boats"}}}
    other = {**COLS, "piers": collection(boats), "boats": collection({"boat_id": S})}
    assert bound_refusals(["the pier has no free place"], OWN, other, LINKS) == []


def test_the_refusal_list_reads_states_bounds_and_free_places() -> None:
    assert refused_bullets(REFUSED) == [DUES, OWED, "the pier is in `repair` or has no free place"]
    assert refusal_checks(REFUSED, OWN, COLS) == [
        {"op": "linked_state", "collection": "piers", "via": "pier_id", "field": "status", "allowed": ["open", "full"]},
        {
            "op": "bound",
            "collection": "skippers",
            "via": "skipper_id",
            "field": "dues_paid",
            "cmp": ">=",
            "value": 300.0,
        },
        {"op": "bound", "collection": "skippers", "via": "skipper_id", "field": "owed", "cmp": "<=", "value": 400.0},
        PLACE_CHECK,
    ]


def test_already_has_an_active_charter_caps_at_one() -> None:
    refs = {"skipper_id": "skippers", "pier_id": "piers"}
    args = {"skipper_id": S, "pier_id": S}
    lone = (
        "The charter is refused if the skipper already has an active charter (a skipper holds at most one at a time)."
    )
    assert cap_checks(lone, "charters", OWN, refs, args) == [
        {
            "op": "cap",
            "collection": "charters",
            "field": "skipper_id",
            "arg": "skipper_id",
            "where": {"status": ["active"]},
            "max": 1,
        }
    ]
    scoped = "The charter is refused if the skipper already has an active charter on any pier of the same harbour."
    assert cap_checks(scoped, "charters", OWN, refs, args) == []  # a scope not read
    unknown = "The charter is refused if the skipper already has a sunken charter."
    assert cap_checks(unknown, "charters", OWN, refs, args) == []  # no state of a charter named


def test_a_list_cap_of_the_holder_counts_the_holders_own_list() -> None:
    def state(moored: list[str]) -> dict[str, Any]:
        pier = {"pier_id": "P1", "status": "open", "capacity": 2, "moored": moored}
        return {"piers": {"P1": pier}, "skippers": {}, "charters": {}}

    record = {"charter_id": "C1", "skipper_id": "K9", "pier_id": "P1"}
    args = {"skipper_id": "K9", "pier_id": "P1"}
    assert fg_check(PLACE_CHECK, args, record, state(["K1"])) is True
    assert fg_check(PLACE_CHECK, args, record, state([])) is True
    assert fg_check(PLACE_CHECK, args, record, state(["K1", "K2"])) is False
    assert fg_check(PLACE_CHECK, args, record, state(["K1", "K2", "K3"])) is False
    # without `of_holder` the charter's own (absent) list is counted: never full
    own_list = {k: v for k, v in PLACE_CHECK.items() if k != "of_holder"}
    assert fg_check(own_list, args, record, state(["K1", "K2"])) is True
    # a pier without a cap number refuses nothing
    loose = state(["K1", "K2"])
    loose["piers"]["P1"]["capacity"] = None
    assert fg_check(PLACE_CHECK, args, record, loose) is True


def test_a_rendered_charter_refuses_as_the_bullets_say() -> None:
    spec = ToolSpec(
        "open_charter",
        REFUSED,
        {"type": "object", "properties": {"skipper_id": S, "pier_id": S}, "required": ["skipper_id", "pier_id"]},
        mutates=True,
    )
    plan = ToolPlan(
        kind="create",
        collection="charters",
        key_field="charter_id",
        fields=["skipper_id", "pier_id"],
        id_type="pattern",
        key_format={"prefix": "C", "digits": 1},
    )
    plan = create_checks(spec, refine_create(spec, plan, SCHEMA, REFUSED), SCHEMA, REFUSED, None)
    assert PLACE_CHECK in plan.checks

    def state() -> dict[str, Any]:
        def pier(key: str, status: str, moored: list[str]) -> dict[str, Any]:
            return {"pier_id": key, "status": status, "capacity": 2, "moored": moored}

        return {
            "skippers": {
                "K1": {"skipper_id": "K1", "dues_paid": 300.0, "owed": 400.0, "notes": ""},
                "K2": {"skipper_id": "K2", "dues_paid": 299.99, "owed": 0.0, "notes": ""},
                "K3": {"skipper_id": "K3", "dues_paid": 500.0, "owed": 400.01, "notes": ""},
            },
            "piers": {
                "P1": pier("P1", "open", ["K2"]),
                "P2": pier("P2", "open", ["K2", "K3"]),
                "P3": pier("P3", "repair", []),
            },
            "charters": {},
        }

    made = state()
    made["charters"]["C1"] = {"charter_id": "C1", "skipper_id": "K1", "pier_id": "P1"}
    calls = [
        ({"skipper_id": "K1", "pier_id": "P1"}, made),  # at the limits, one place left
        ({"skipper_id": "K2", "pier_id": "P1"}, None),  # dues short of 300
        ({"skipper_id": "K3", "pier_id": "P1"}, None),  # owes more than 400
        ({"skipper_id": "K1", "pier_id": "P2"}, None),  # the pier's places are all taken
        ({"skipper_id": "K1", "pier_id": "P3"}, None),  # the pier is in repair
    ]
    run_calls(spec, plan, SCHEMA, state, calls)
