"""Readers added in session 53, each for a phrasing in general (harbour words only): a settle call whose payment
methods are described one bullet per value, where one method draws on "the stored credit of the skipper on the
charter" (a linked record's number named by one of its words and its holder after "of the"), the balance "must cover
the whole total", and another method is for "club group charters only" (words that are values of the record's own
closed fields); the test case the docs allow, made to meet the balance it draws on; and a create whose errors say
"404: Unknown berth or skipper", checking each reference the call passes, and only when it passes it."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.create_rules import MUST_EXIST, refine_create
from synth.envsynth.docs_counters import covered, docs_counters
from synth.envsynth.mode_rules import mode_transition
from synth.envsynth.only_kinds import only_kinds
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import allowed_cases
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N = {"type": "string"}, {"type": "number"}
CHARTER = {
    "charter_id": S,
    "skipper_id": {"type": ["string", "null"]},
    "status": {"type": "string", "enum": ["held", "settled"]},
    "charter_type": {"type": "string", "enum": ["single", "group"]},
    "party_kind": {"type": ["string", "null"], "x-enum": ["club", "family"]},
    "total": N,
    "method": {"type": ["string", "null"]},
}
SKIPPER = {"skipper_id": S, "name": S, "credit_balance": N, "trips": N}
SCHEMA = {"type": "object", "properties": {"charters": collection(CHARTER), "skippers": collection(SKIPPER)}}
METHOD = {"type": "string", "enum": ["card", "purse", "tab"]}
SETTLE = ToolSpec(
    "settle_charter",
    "Takes payment and moves a `held` charter to `settled`.\n\nPayment methods:\n"
    "- `card`: the total is charged to the card at the desk.\n"
    "- `purse`: the total is taken from the stored credit of the skipper on the charter; the balance must cover "
    "the whole total (no split payments).\n"
    "- `tab`: club group charters only; the total becomes billed to the club later.",
    {"type": "object", "properties": {"charter_id": S, "method": METHOD}, "required": ["charter_id", "method"]},
)
PLAN = ToolPlan(kind="update", collection="charters", key_field="charter_id", key_param="charter_id")


def _state() -> dict[str, Any]:
    def charter(key: str, skipper: str | None, kind: str, party: str | None, total: float) -> dict[str, Any]:
        return {
            "charter_id": key,
            "skipper_id": skipper,
            "status": "held",
            "charter_type": kind,
            "party_kind": party,
            "total": total,
            "method": None,
        }

    return {
        "skippers": {
            "K1": {"skipper_id": "K1", "name": "Ana", "credit_balance": 50.0, "trips": 3},
            "K2": {"skipper_id": "K2", "name": "Bo", "credit_balance": 5.0, "trips": 1},
        },
        "charters": {
            "C1": charter("C1", "K1", "single", None, 30.0),
            "C2": charter("C2", "K2", "single", None, 30.0),
            "C3": charter("C3", None, "group", "club", 120.0),
            "C4": charter("C4", None, "group", "family", 90.0),
        },
    }


def test_a_number_of_the_linked_record_named_by_its_word_and_its_holder() -> None:
    params = SETTLE.parameters["properties"]
    said = "the total is taken from the stored credit of the skipper on the charter; the balance must cover it"
    moves = docs_counters(said, "charters", "charter_id", SCHEMA, params)
    path = [{"from": "record", "path": ["skipper_id"]}, {"from": "const", "value": "credit_balance"}]
    assert moves == [
        {
            "op": "adjust",
            "collection": "skippers",
            "path": path,
            "delta": {"from": "expr", "expr": {"minus": [{"path": ["total"]}]}},
        }
    ]
    assert [c["op"] for c in covered(moves, said)] == ["enough"]
    # a word two of its numbers share, or one too short to tell, names nothing; nor does a holder not linked
    shared = {**SKIPPER, "credit_limit": N}
    two = {"type": "object", "properties": {"charters": collection(CHARTER), "skippers": collection(shared)}}
    assert docs_counters(said, "charters", "charter_id", two, params) == []
    assert (
        docs_counters("the total is taken from the credit of the pier", "charters", "charter_id", SCHEMA, params) == []
    )


def test_words_that_are_values_of_the_record_allow_the_change_on_those_kinds_only() -> None:
    params = SETTLE.parameters["properties"]
    checks = only_kinds("club group charters only; the total becomes due", "charters", CHARTER, params)
    assert checks == [
        {"op": "value_is", "source": {"from": "record", "path": ["charter_type"]}, "in": ["group"]},
        {"op": "value_is", "source": {"from": "record", "path": ["party_kind"]}, "in": ["club"]},
    ]
    assert only_kinds("Only for group charters.", "charters", CHARTER, params)[0]["in"] == ["group"]
    assert only_kinds("Only held charters can be settled.", "charters", CHARTER, params) == []  # no "only" after
    assert only_kinds("weekend charters only", "charters", CHARTER, params) == []  # not a value of a field
    bulleted = "Payment method:\n- `tab`: club group charters only.\n- `card`: anyone."
    when = {"arg": "method", "default": None, "in": ["tab"]}
    assert [c["when"] for c in only_kinds(bulleted, "charters", CHARTER, params)] == [when, when]
    unheaded = "Ways to pay:\n- `tab`: club group charters only."  # the bullets follow no line naming `method`
    assert only_kinds(unheaded, "charters", CHARTER, params) == []


def test_each_method_settles_as_its_bullet_says() -> None:
    plan = mode_transition(SETTLE, PLAN, SCHEMA, "")
    assert plan is not None and plan.kind == "by_mode" and plan.op_param == "method"

    def after(key: str, method: str, credit: float | None = None) -> dict[str, Any]:
        state = _state()
        state["charters"][key].update({"status": "settled", "method": method})
        if credit is not None:
            state["skippers"][state["charters"][key]["skipper_id"]]["credit_balance"] = credit
        return state

    run_calls(
        SETTLE,
        plan,
        SCHEMA,
        _state,
        [
            ({"charter_id": "C1", "method": "card"}, after("C1", "card")),
            ({"charter_id": "C1", "method": "purse"}, after("C1", "purse", 20.0)),
            ({"charter_id": "C2", "method": "purse"}, None),  # 5.00 of credit does not cover 30.00
            ({"charter_id": "C3", "method": "tab"}, after("C3", "tab")),
            ({"charter_id": "C4", "method": "tab"}, None),  # a family group
            ({"charter_id": "C1", "method": "tab"}, None),  # a single charter
        ],
    )


def test_the_case_the_docs_allow_meets_the_balance_its_method_draws_on() -> None:
    plan = mode_transition(SETTLE, PLAN, SCHEMA, "")
    assert plan is not None
    state = _state()
    state["charters"]["C0"] = {**copy.deepcopy(state["charters"]["C2"]), "charter_id": "C0", "status": "settled"}
    made = allowed_cases(plan, [Case(SETTLE.name, "llm", state, {"charter_id": "C2", "method": "purse"})])
    assert len(made) == 1 and made[0].arguments == {"charter_id": "C0", "method": "purse"}
    assert made[0].state["charters"]["C0"]["status"] == "held"
    assert made[0].state["skippers"]["K2"]["credit_balance"] == 30.0  # raised to cover the total
    assert state["skippers"]["K2"]["credit_balance"] == 5.0  # the case's own state is left as it was


BERTH = {"berth_id": S, "status": S}
LAYOVER = {"layover_id": S, "berth_id": S, "skipper_id": {"type": ["string", "null"]}, "nights": N}
LAYOVERS = {
    "type": "object",
    "properties": {"layovers": collection(LAYOVER), "berths": collection(BERTH), "skippers": collection(SKIPPER)},
}
CREATE = ToolSpec(
    "book_layover",
    "Books a layover at a berth.\n\nErrors: 400: Invalid request; 404: Unknown berth or skipper.",
    {
        "type": "object",
        "properties": {"berth_id": S, "skipper_id": S, "nights": N},
        "required": ["berth_id", "nights"],
    },
)


def test_a_404_on_a_create_checks_the_references_the_call_passes() -> None:
    assert MUST_EXIST.search("404: Unknown berth or skipper") and MUST_EXIST.search("404: No such berth")
    assert not MUST_EXIST.search("Returns 404 codes for the page.")
    base = ToolPlan(
        kind="create", collection="layovers", key_field="layover_id", fields=["berth_id", "skipper_id", "nights"]
    )
    plan = refine_create(CREATE, base, LAYOVERS, CREATE.description)
    assert plan.ref_checks == {"berth_id": "berths", "skipper_id": "skippers"}
    assert plan.ref_optional == ["skipper_id"]

    def state() -> dict[str, Any]:
        return {
            "layovers": {},
            "berths": {"B1": {"berth_id": "B1", "status": "free"}},
            "skippers": {"K1": {"skipper_id": "K1", "name": "Ana", "credit_balance": 0.0, "trips": 0}},
        }

    def made(**fields: Any) -> dict[str, Any]:
        after = state()
        after["layovers"]["1"] = {"layover_id": "1", **fields}
        return after

    run_calls(
        CREATE,
        plan,
        LAYOVERS,
        state,
        [
            ({"berth_id": "B1", "nights": 2}, made(berth_id="B1", nights=2)),  # no skipper named: none to look up
            ({"berth_id": "B1", "skipper_id": "K1", "nights": 2}, made(berth_id="B1", skipper_id="K1", nights=2)),
            ({"berth_id": "B9", "nights": 2}, None),
            ({"berth_id": "B1", "skipper_id": "K9", "nights": 2}, None),
        ],
    )


def test_the_new_record_an_argument_names_is_no_sign_of_a_create() -> None:
    from synth.envsynth.priors import tool_priors

    def said(name: str, description: str, *params: str) -> str | None:
        spec = ToolSpec(name, description, {"type": "object", "properties": {p: S for p in params}})
        return tool_priors(spec).described_kind

    move = "Move a charter to another sailing. The new sailing must be open and in the future."
    assert said("shift_charter", move, "charter_id", "new_sailing_id") is None  # `new_sailing_id` names it
    made = "Move a charter to another sailing. The new charter starts on it."
    assert said("shift_charter", made, "charter_id", "new_sailing_id") == "create"  # no argument names a new charter
    assert said("shift_charter", move, "charter_id", "sailing_id") == "create"  # as before: no `new_` argument


def test_a_happy_create_names_records_the_state_holds() -> None:
    import random

    from synth.envsynth.sampling import named_records_exist

    state = _state()
    args = {"charter_id": "C9", "skipper_id": "K7", "total": 12.0}  # K7 is in the data, not in this sampled state
    named_records_exist(args, state, SCHEMA, random.Random(0), "charters")
    assert args["skipper_id"] in state["skippers"] and args["charter_id"] == "C9"  # the new record's own key kept
    kept = {"charter_id": "C9", "skipper_id": "K2"}
    named_records_exist(kept, state, SCHEMA, random.Random(0), "charters")
    assert kept == {"charter_id": "C9", "skipper_id": "K2"}  # already on file: left as it is
    empty = {"charter_id": "C9", "skipper_id": "K7"}
    named_records_exist(empty, {"charters": {}, "skippers": {}}, SCHEMA, random.Random(0), "charters")
    assert empty["skipper_id"] == "K7"  # no skipper on file to name
