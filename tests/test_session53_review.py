"""Review probes for the session-53 readers (harbour words only): a linked record's number named by one of its
words and the record after "of the" (and the `enough` check "must cover" gives it), "<kind> charters only",
"404: Unknown <noun>" on a create with optional references, "The new <noun> must be ..." beside a `new_<noun>_id`
argument, the allowed test case made to meet its mode's checks, and preconditions learned from recorded calls.
Phrasings each should read, in general, and near-misses it must leave alone; known misreadings are strict xfails."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from synth.envsynth.create_rules import MUST_EXIST, refine_create
from synth.envsynth.docs_counters import covered, docs_counters
from synth.envsynth.mode_rules import mode_transition
from synth.envsynth.only_kinds import only_kinds
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import allowed_cases
from synth.envsynth.priors import tool_priors
from synth.envsynth.testgen import TestCase as Case
from synth.envsynth.trace_learn import learned_variants
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.test_session53_traces import DOCS_PLAN as REMOVING
from tests.test_session53_traces import SPEC as REMOVE
from tests.tool_calls import run_calls

S, N = {"type": "string"}, {"type": "number"}
METHOD = {"type": "string", "enum": ["card", "purse", "tab"]}
CHARTER = {
    "charter_id": S,
    "skipper_id": {"type": ["string", "null"]},
    "status": {"type": "string", "enum": ["held", "settled"]},
    "charter_type": {"type": "string", "enum": ["single", "group"]},
    "party_kind": {"type": ["string", "null"], "x-enum": ["club", "family", "cadet", "sea_scouts"]},
    "total": N,
    "hire_fee": N,
    "method": {"type": ["string", "null"]},
}
SKIPPER = {"skipper_id": S, "name": S, "credit_balance": N, "trips": N}
SCHEMA = {"type": "object", "properties": {"charters": collection(CHARTER), "skippers": collection(SKIPPER)}}
PARAMS = {"charter_id": S, "method": METHOD}
BY_SKIPPER = [{"from": "record", "path": ["skipper_id"]}, {"from": "const", "value": "credit_balance"}]
TOTAL = {"path": ["total"]}


def _moves(
    text: str, schema: dict[str, Any] = SCHEMA, params: dict[str, Any] = PARAMS, col: str = "charters"
) -> list[tuple[str, Any, str, dict[str, Any]]]:
    """(collection, how the record is found, field, delta) of each move the text says."""
    said = docs_counters(text, col, "charter_id", schema, params)
    return [(e["collection"], e["path"][0], e["path"][-1]["value"], e["delta"]["expr"]) for e in said]


def _drawn(amount: dict[str, Any] = TOTAL, sign: str = "minus") -> list[tuple[str, Any, str, dict[str, Any]]]:
    return [("skippers", BY_SKIPPER[0], "credit_balance", {sign: [amount]})]


# --- docs_counters, "of the": "the stored credit of the skipper" ---------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "the total is deducted from the account balance of the skipper",
        "the total is taken from the prepaid credit of the skipper",
        "the total is subtracted from the remaining credit of the skipper",
        "the total is deducted from the available credit balance of the skipper",
        "the total is taken from the credit of the skipper",
        "the stored credit of the skipper drops by the total",
        "the total is taken from the stored credit of the skipper on the charter",
        "The total is taken from the stored credit of the Skipper.",
        "the total is taken from the stored credit of the charter's skipper",
        "the total is taken from the stored credit of its skipper",
        "the total is taken from the skipper's stored credit",
    ],
)
def test_of_the_reads_a_draw_on_the_skippers_credit(said: str) -> None:
    assert _moves(said) == _drawn()


def test_of_the_amount_is_a_number_of_the_record_it_names() -> None:
    assert _moves("the hire fee is taken from the stored credit of the skipper") == _drawn({"path": ["hire_fee"]})


def test_of_the_credited_back_is_a_rise() -> None:
    assert _moves("the total is added to the stored credit of the skipper") == _drawn(sign="plus")


def test_of_the_other_word_of_the_number_still_names_it() -> None:
    shared = {**SKIPPER, "credit_limit": N}  # "credit" is shared, "balance" is not
    two = {"type": "object", "properties": {"charters": collection(CHARTER), "skippers": collection(shared)}}
    assert _moves("the total is taken from the stored balance of the skipper", two) == _drawn()
    assert _moves("the total is taken from the stored credit of the skipper", two) == []


def test_of_the_skipper_only_an_argument_names() -> None:
    own = {"charter_id": S, "status": S, "total": N}
    schema = {"type": "object", "properties": {"charters": collection(own), "skippers": collection(SKIPPER)}}
    params = {"charter_id": S, "skipper_id": S, "amount": N}
    said = "the amount is taken from the prepaid credit of the skipper"
    head = {"from": "arg", "name": "skipper_id"}
    assert _moves(said, schema, params) == [("skippers", head, "credit_balance", {"minus": [{"arg": "amount"}]})]


def test_of_the_holder_named_by_a_referencing_link() -> None:
    own = {k: v for k, v in CHARTER.items() if k != "skipper_id"}
    own["holder_id"] = {"type": "string", "x-references": "skippers"}
    schema = {"type": "object", "properties": {"charters": collection(own), "skippers": collection(SKIPPER)}}
    head = {"from": "record", "path": ["holder_id"]}
    assert _moves("the total is taken from the prepaid credit of the holder", schema) == [
        ("skippers", head, "credit_balance", {"minus": [TOTAL]})
    ]


CLUBBED = {**CHARTER, "club_id": S}
CLUB_SCHEMA = {
    "type": "object",
    "properties": {
        "charters": collection(CLUBBED),
        "skippers": collection(SKIPPER),
        "clubs": collection({"club_id": S, "account_balance": N}),
    },
}


def test_of_the_two_linked_balances_the_record_named_picks_one() -> None:
    head = {"from": "record", "path": ["club_id"]}
    assert _moves("the total is taken from the account balance of the club", CLUB_SCHEMA) == [
        ("clubs", head, "account_balance", {"minus": [TOTAL]})
    ]


@pytest.mark.xfail(strict=True, reason="the club's one-word `balance` also moves the skipper's credit_balance")
def test_of_the_one_word_number_of_another_record() -> None:
    schema = copy.deepcopy(CLUB_SCHEMA)
    schema["properties"]["clubs"] = collection({"club_id": S, "balance": N})
    head = {"from": "record", "path": ["club_id"]}
    assert _moves("the total is taken from the balance of the club", schema) == [
        ("clubs", head, "balance", {"minus": [TOTAL]})
    ]


@pytest.mark.xfail(strict=True, reason="'of the payer' also moves the skipper's credit (two links to skippers)")
def test_of_the_two_links_to_one_collection() -> None:
    own = {**CHARTER, "payer_id": {"type": "string", "x-references": "skippers"}}
    schema = {"type": "object", "properties": {"charters": collection(own), "skippers": collection(SKIPPER)}}
    head = {"from": "record", "path": ["payer_id"]}
    assert _moves("the total is taken from the prepaid credit of the payer", schema) == [
        ("skippers", head, "credit_balance", {"minus": [TOTAL]})
    ]


@pytest.mark.parametrize(
    "said",
    [
        "the total is never taken from the stored credit of the skipper",
        "The name of the skipper is printed on the receipt.",
        "The total is charged to the card of the skipper.",
        "the total is taken from the credit of the harbour master",
        "the total is taken from the stored credit of the pier",
        pytest.param(
            "the total is taken from the balance of the skipper's club",
            marks=pytest.mark.xfail(strict=True, reason="'of the skipper's club' read as the skipper's balance"),
        ),
    ],
)
def test_of_the_near_misses(said: str) -> None:
    assert _moves(said) == []


def test_of_the_own_number_of_the_charter_stays_the_charters() -> None:
    head = {"from": "arg", "name": "charter_id"}
    assert _moves("The total of the charter goes up by one.") == [("charters", head, "total", {"plus": [{"const": 1}]})]


def test_of_the_one_word_number_read_as_before() -> None:
    assert _moves("the trips of the skipper rise by one") == [
        ("skippers", BY_SKIPPER[0], "trips", {"plus": [{"const": 1}]})
    ]


# --- covered: "the balance must cover the whole total" ----------------------------------------------------------

DRAW = "The total is taken from the stored credit of the skipper."


def _covers(extra: str) -> list[str]:
    text = DRAW + " " + extra
    return [c["op"] for c in covered(docs_counters(text, "charters", "charter_id", SCHEMA, PARAMS), text)]


@pytest.mark.parametrize(
    "extra",
    [
        "The balance must cover the whole total.",
        "The call is refused when the stored credit is insufficient.",
        "If the credit is lower than the total, the call fails.",
        pytest.param(
            "The skipper's credit must be at least the total.",
            marks=pytest.mark.xfail(strict=True, reason="'must be at least' is not a SHORT phrase"),
        ),
        "Refused if the credit does not cover the total.",
    ],
)
def test_covered_a_short_balance_refuses(extra: str) -> None:
    assert _covers(extra) == ["enough"]


@pytest.mark.parametrize(
    "extra",
    [
        "Receipts are sent by email.",
        pytest.param(
            "Charters of less than two hours are free.",
            marks=pytest.mark.xfail(strict=True, reason="'less than' anywhere in the text gives an enough check"),
        ),
        pytest.param(
            "Card payments that exceed 500 need a PIN at the chandlery.",
            marks=pytest.mark.xfail(strict=True, reason="'exceed' anywhere in the text gives an enough check"),
        ),
    ],
)
def test_covered_near_misses(extra: str) -> None:
    assert _covers(extra) == []


BULLETS = (
    "Takes payment for a `held` charter.\n\nPayment method:\n"
    "- `card`: the total is charged to the card at the desk.\n"
    "- `purse`: the total is taken from the stored credit of the skipper on the charter; the balance must cover "
    "the whole total."
)
PURSE = {"arg": "method", "default": None, "in": ["purse"]}


def test_covered_bullet_move_and_check_hold_for_its_method() -> None:
    moves = docs_counters(BULLETS, "charters", "charter_id", SCHEMA, PARAMS)
    assert [m.get("when") for m in moves] == [PURSE]
    assert [c.get("when") for c in covered(moves, BULLETS)] == [PURSE]


def test_covered_bullets_under_a_plural_header() -> None:
    text = BULLETS.replace("Payment method:", "Payment methods:")
    moves = docs_counters(text, "charters", "charter_id", SCHEMA, PARAMS)
    assert [m.get("when") for m in moves] == [PURSE]


# --- only_kinds: "club group charters only" ---------------------------------------------------------------------


def _kinds(text: str, col: str = "charters", own: dict[str, Any] = CHARTER, params: dict[str, Any] = PARAMS) -> list:
    """(field, values, the method values it holds under) of each check."""
    return [
        (c["source"]["path"][0], c["in"], (c.get("when") or {}).get("in")) for c in only_kinds(text, col, own, params)
    ]


GROUP = [("charter_type", ["group"], None)]
CLUB = [("party_kind", ["club"], None)]
TAB = ["tab"]


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("for cadet charters only", [("party_kind", ["cadet"], None)]),
        ("Available to club charters only.", CLUB),
        ("Only on group charters.", GROUP),
        ("The last sailing of the day (group charters only).", GROUP),
        ("Group charters only.", GROUP),
        ("Only for group charters of six or more.", GROUP),
        ("Applies only on group charters", GROUP),
        ("only for the group charters", GROUP),
        ("Held charters only.", [("status", ["held"], None)]),
        ("This method is for club group charters only.", GROUP + CLUB),
        ("Open to sea scouts charters only.", [("party_kind", ["sea_scouts"], None)]),
        ("only for club or cadet charters", [("party_kind", ["club", "cadet"], None)]),
        ("single or group charters only", [("charter_type", ["single", "group"], None)]),
        pytest.param(
            "Only group charters can pay by tab.",
            GROUP,
            marks=pytest.mark.xfail(strict=True, reason="'Only <kind> charters can' (only before) is not read"),
        ),
    ],
)
def test_only_kinds_reads(said: str, expected: list) -> None:
    assert _kinds(said) == expected


@pytest.mark.parametrize(
    "said",
    [
        "single-handed charters only",
        "family-friendly charters only",
        "Weekend and holiday charters only",
        "group chartering only",
        "Not available for group charters.",
        "Only held charters can be settled.",
        "Ways to pay:\n- `tab`: group charters only.\n\nMethod:\n- `card`: anyone.",
        "Payment method:\n- Tabs: club charters only.",
        "The 10% discount applies to group charters only.",
        "The skipper's name is printed on club charters only.",
    ],
)
def test_only_kinds_near_misses(said: str) -> None:
    assert _kinds(said) == []


def test_only_kinds_a_word_two_fields_know_names_neither() -> None:
    own = {**CHARTER, "skipper_kind": {"type": "string", "enum": ["club", "solo"]}}
    assert _kinds("club charters only", own=own) == []


@pytest.mark.parametrize(
    ("text", "params"),
    [
        ("Payment method:\n- `card`: anyone.\n- `tab`: club charters only.", PARAMS),
        ("Method:\n- 'tab': club charters only.", PARAMS),
        ('Method:\n- "tab": club charters only.', PARAMS),
        ("Payment method:\n- `tab`: club charters only.", {"charter_id": S, "payment_method": METHOD}),
        ("Payment methods:\n- `card`: anyone.\n- `tab`: club charters only.", PARAMS),
    ],
)
def test_only_kinds_bullet_holds_for_its_value(text: str, params: dict[str, Any]) -> None:
    assert [(f, v, w) for f, v, w in _kinds(text, params=params)] == [("party_kind", ["club"], TAB)]


def test_only_kinds_line_after_the_bullets_holds_for_every_call() -> None:
    assert _kinds("Payment method:\n- `tab`: billed later.\nClub charters only.") == CLUB


def test_only_kinds_sentence_naming_the_method_holds_for_it() -> None:
    assert _kinds("The `tab` method is available to club charters only.") == [("party_kind", ["club"], TAB)]


def test_only_kinds_two_word_collection() -> None:
    assert _kinds("group boat charters only", col="boat_charters") == GROUP


# --- MUST_EXIST and ref_optional: "404: Unknown berth or skipper" -------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "404: Unknown berth",
        "404: unknown berth_id",
        "404: Missing skipper",
        "404: No berth with that id",
        "Errors: 400 Invalid nights; HTTP 404: Unknown berth.",
        "Error 404: unknown skipper.",
        "404: Berth not found",
        "404 - Unknown berth",
        "`404`: Unknown berth",
        "Returns 404 if the berth is unknown.",
    ],
)
def test_must_exist_reads(said: str) -> None:
    assert MUST_EXIST.search(said)


@pytest.mark.parametrize(
    "said",
    [
        "A 404 page is shown for unknown paths.",
        "404: Nothing to show yet.",
        "Errors: 400 Invalid nights.",
        "Returns 404 codes for the page.",
        "409: Taken. 404: No free berth on those nights.",
    ],
)
def test_must_exist_near_misses(said: str) -> None:
    assert not MUST_EXIST.search(said)


MOORING = {
    "mooring_id": S,
    "berth_id": S,
    "skipper_id": {"type": ["string", "null"]},
    "tender_id": {"type": ["string", "null"]},
    "nights": N,
}
SAILOR = {"skipper_id": S, "name": S, "status": {"type": "string", "enum": ["active", "retired"]}}
MOORINGS = {
    "type": "object",
    "properties": {
        "moorings": collection(MOORING),
        "berths": collection({"berth_id": S, "status": S}),
        "skippers": collection(SAILOR),
        "tenders": collection({"tender_id": S, "name": S}),
    },
}


def _created(
    desc: str, required: tuple[str, ...], params: tuple[str, ...] = ("berth_id", "skipper_id", "nights")
) -> tuple[ToolSpec, ToolPlan]:
    props = {p: (N if p == "nights" else S) for p in params}
    spec = ToolSpec("create_mooring", desc, {"type": "object", "properties": props, "required": list(required)})
    base = ToolPlan(kind="create", collection="moorings", key_field="mooring_id", fields=list(params))
    return spec, refine_create(spec, base, MOORINGS, desc)


UNKNOWN = "Moors a boat at a berth.\n\nErrors: 404: Unknown berth or skipper."


@pytest.mark.parametrize(
    ("desc", "required", "params", "checked", "optional"),
    [
        (
            UNKNOWN,
            ("berth_id", "nights"),
            ("berth_id", "skipper_id", "nights"),
            ["berth_id", "skipper_id"],
            ["skipper_id"],
        ),
        (UNKNOWN, ("berth_id", "skipper_id"), ("berth_id", "skipper_id", "nights"), ["berth_id", "skipper_id"], []),
        (UNKNOWN, (), ("berth_id", "skipper_id", "nights"), ["berth_id", "skipper_id"], ["berth_id", "skipper_id"]),
        (
            "Moors a boat. Errors: 404: Missing berth.",
            ("berth_id",),
            ("berth_id", "skipper_id", "tender_id", "nights"),
            ["berth_id", "skipper_id", "tender_id"],
            ["skipper_id", "tender_id"],
        ),
        ("Moors a boat. Errors: 400 Invalid nights.", ("berth_id",), ("berth_id", "skipper_id", "nights"), [], []),
    ],
)
def test_ref_optional_lists_the_references_a_call_may_leave_out(
    desc: str, required: tuple, params: tuple, checked: list[str], optional: list[str]
) -> None:
    _, plan = _created(desc, required, params)
    assert sorted(plan.ref_checks) == checked and plan.ref_optional == optional


def test_ref_optional_skipper_checked_and_held_to_its_state_only_when_passed() -> None:
    spec, plan = _created("Moors a boat at a berth. 404: Unknown berth. The skipper must be `active`.", ("berth_id",))
    assert plan.ref_requires == {"skipper_id": {"status": ["active"]}} and plan.ref_optional == ["skipper_id"]

    def state() -> dict[str, Any]:
        return {
            "moorings": {},
            "berths": {"B1": {"berth_id": "B1", "status": "free"}},
            "skippers": {
                "K1": {"skipper_id": "K1", "name": "Ana", "status": "active"},
                "K2": {"skipper_id": "K2", "name": "Bo", "status": "retired"},
            },
            "tenders": {},
        }

    def made(**fields: Any) -> dict[str, Any]:
        after = state()
        after["moorings"]["1"] = {"mooring_id": "1", **fields}
        return after

    run_calls(
        spec,
        plan,
        MOORINGS,
        state,
        [
            ({"berth_id": "B1", "nights": 2}, made(berth_id="B1", nights=2)),
            ({"berth_id": "B1", "skipper_id": None, "nights": 2}, made(berth_id="B1", skipper_id=None, nights=2)),
            ({"berth_id": "B1", "skipper_id": "K1", "nights": 2}, made(berth_id="B1", skipper_id="K1", nights=2)),
            ({"berth_id": "B1", "skipper_id": "K2", "nights": 2}, None),  # retired
            ({"berth_id": "B1", "skipper_id": "K9", "nights": 2}, None),  # unknown
            ({"berth_id": "B9", "nights": 2}, None),  # the required berth is still checked
        ],
    )


# --- priors: "The new <noun> must be ..." beside a `new_<noun>_id` -----------------------------------------------


def _described(name: str, description: str, *params: str) -> str | None:
    spec = ToolSpec(name, description, {"type": "object", "properties": {p: S for p in params}})
    return tool_priors(spec).described_kind


MOVE = "Moves a boat to another berth. The new berth must be free."


@pytest.mark.parametrize(
    ("name", "description", "params"),
    [
        ("move_boat", MOVE, ("boat_id", "new_berth_id")),
        ("move_boat", "Moves a boat to other berths. The new berths must be free.", ("boat_id", "new_berth_id")),
        ("move_boat", MOVE, ("boatId", "newBerthId")),
        ("move_boat", "Moves a boat to another berth.\nThe new berth must be on the same pier.", ("new_berth_id",)),
        ("rename_boat", "Renames a boat. The new name must be unique in the marina.", ("boat_id", "new_name")),
        (
            "swap_skipper",
            "Puts another skipper on a charter. The new skipper's permit must be valid.",
            ("new_skipper_id",),
        ),
        ("reassign_crane", "Gives a lift another crane. The new crane must be idle.", ("lift_id", "new_crane_id")),
        ("redock", "Changes when a boat docks. The new dock date must be later.", ("boat_id", "new_dock_date")),
        ("move_boat", "Moves a boat to another berth. Returns the new berth.", ("boat_id", "new_berth_id")),
        ("move_boat", MOVE, ("boat_id", "target_berth_id")),
    ],
)
def test_new_record_an_argument_names_is_no_create(name: str, description: str, params: tuple[str, ...]) -> None:
    assert _described(name, description, *params) is None


@pytest.mark.parametrize(
    ("name", "description", "params"),
    [
        ("split_charter", "Splits a charter in two. The new charter is returned.", ("charter_id", "new_sailing_id")),
        ("move_boat", "Moves a boat. The new berth must be free. The new mooring is returned.", ("new_berth_id",)),
        ("split_charter", "Splits a charter over two sailings. The new id is returned.", ("new_sailing_id",)),
        ("boat_desk", "Registers a boat in the marina. The new boat must have a name.", ("new_boat_name",)),
        ("move_boat", MOVE, ("boat_id", "new_pier_id")),
    ],
)
def test_new_record_no_argument_names_is_still_a_create(name: str, description: str, params: tuple[str, ...]) -> None:
    assert _described(name, description, *params) == "create"


# --- allowed_cases / _meet_enough: the balance the mode draws on raised to cover it ------------------------------

SETTLE = ToolSpec(
    "settle_charter",
    "Takes payment and moves a `held` charter to `settled`.\n\nPayment methods:\n"
    "- `card`: the total is charged to the card at the desk.\n"
    "- `purse`: the total is taken from the stored credit of the skipper on the charter; the balance must cover "
    "the whole total.\n"
    "- `tab`: club group charters only; the total becomes due on the club's tab.",
    {"type": "object", "properties": {"charter_id": S, "method": METHOD}, "required": ["charter_id", "method"]},
)
SETTLING = ToolPlan(kind="update", collection="charters", key_field="charter_id", key_param="charter_id")


def _charter(key: str, skipper: str | None, total: float, status: str = "held") -> dict[str, Any]:
    return {
        "charter_id": key,
        "skipper_id": skipper,
        "status": status,
        "charter_type": "single",
        "party_kind": None,
        "total": total,
        "hire_fee": 0.0,
        "method": None,
    }


def _harbour(first: dict[str, Any], credit: Any = 5.0) -> dict[str, Any]:
    """C0 (the record the allowed case acts on) and C2, whose skipper K2 holds `credit`."""
    return {
        "skippers": {"K2": {"skipper_id": "K2", "name": "Bo", "credit_balance": credit, "trips": 1}},
        "charters": {"C0": first, "C2": _charter("C2", "K2", 30.0)},
    }


def _allowed(plan: ToolPlan, state: dict[str, Any], arguments: dict[str, Any]) -> Case:
    made = allowed_cases(plan, [Case(SETTLE.name, "llm", state, arguments)])
    assert len(made) == 1
    return made[0]


def _by_mode() -> ToolPlan:
    plan = mode_transition(SETTLE, SETTLING, SCHEMA, "")
    assert plan is not None and plan.kind == "by_mode"
    return plan


@pytest.mark.parametrize(
    ("method", "total", "credit", "after"),
    [
        ("purse", 30.0, 5.0, 30.0),  # raised to the total
        ("purse", 30.55, 5.0, 30.55),
        ("purse", 30, 5, 30),  # whole numbers are kept whole
        ("purse", 30.0, 50.0, 50.0),  # a balance that covers it is left alone, not lowered
        ("purse", 30.0, None, None),  # no balance to raise
        ("card", 30.0, 5.0, 5.0),  # the card draws on no balance
    ],
)
def test_meet_mode_checks_balance(method: str, total: float, credit: Any, after: Any) -> None:
    made = _allowed(
        _by_mode(), _harbour(_charter("C0", "K2", total, "settled"), credit), {"charter_id": "C2", "method": method}
    )
    assert made.arguments == {"charter_id": "C0", "method": method}
    assert made.state["charters"]["C0"]["status"] == "held"
    assert made.state["skippers"]["K2"]["credit_balance"] == after


def test_meet_mode_checks_no_skipper_on_the_charter_adds_none() -> None:
    made = _allowed(_by_mode(), _harbour(_charter("C0", None, 30.0)), {"charter_id": "C2", "method": "purse"})
    assert made.state["skippers"] == _harbour(_charter("C0", None, 30.0))["skippers"]


def test_meet_mode_checks_unknown_skipper_adds_no_record() -> None:
    made = _allowed(_by_mode(), _harbour(_charter("C0", "K9", 30.0)), {"charter_id": "C2", "method": "purse"})
    assert sorted(made.state["skippers"]) == ["K2"]


def test_meet_mode_checks_tab_kinds() -> None:
    made = _allowed(_by_mode(), _harbour(_charter("C0", "K2", 30.0)), {"charter_id": "C2", "method": "tab"})
    kept = made.state["charters"]["C0"]
    assert (kept["charter_type"], kept["party_kind"]) == ("group", "club")


ENOUGH = {
    "op": "enough",
    "collection": "skippers",
    "path": [{"from": "record", "path": ["skipper_id"]}],
    "field": "credit_balance",
    "amount": {"plus": [TOTAL]},
}


def _update(*checks: dict[str, Any]) -> ToolPlan:
    return ToolPlan(
        kind="update",
        collection="charters",
        key_field="charter_id",
        key_param="charter_id",
        preconditions={"status": ["held"]},
        checks=list(checks),
    )


@pytest.mark.parametrize(
    ("check", "arguments", "total", "after"),
    [
        (ENOUGH, {"charter_id": "C2"}, 30.0, 30.0),  # a plain update plan's check is met too
        ({**ENOUGH, "amount": {"plus": [{"arg": "amount"}]}}, {"charter_id": "C2", "amount": 42}, 30.0, 42),
        (
            {**ENOUGH, "amount": {"plus": [{"arg": "amount"}]}, "most": 100.0},
            {"charter_id": "C2", "amount": 42},
            30.0,
            5.0,
        ),
        ({**ENOUGH, "when": PURSE}, {"charter_id": "C2", "method": "purse"}, 30.0, 30.0),
        ({**ENOUGH, "amount": {"plus": [TOTAL], "times": 0.75}}, {"charter_id": "C2"}, 13.5, 10.125),
    ],
)
def test_meet_enough_on_an_update(check: dict[str, Any], arguments: dict[str, Any], total: float, after: Any) -> None:
    state = _harbour(_charter("C0", "K2", total, "settled"))
    made = _allowed(_update(check), state, arguments)
    assert made.state["skippers"]["K2"]["credit_balance"] == after
    assert state["skippers"]["K2"]["credit_balance"] == 5.0  # the case's own state is left as it was


# --- trace_learn: no amount as a precondition; the entry removal kept as a check ---------------------------------

LISTED = {
    "op": "entry_named",
    "collection": "moorings",
    "via_arg": "mooring_id",
    "list": "tenders",
    "field": "name",
    "arg": "name",
}


def _moorings(**extra: dict[str, Any]) -> dict[str, Any]:
    """M1 (booked, Puffin), M2 (moored, Tern), M3 (booked, Skua); `extra`: per field, each mooring's value."""
    out = {}
    for key, status, tender in (("M1", "booked", "Puffin"), ("M2", "moored", "Tern"), ("M3", "booked", "Skua")):
        out[key] = {"mooring_id": key, "status": status, "total": 60.0, "tenders": [{"name": tender, "fee": 10.0}]}
        out[key].update({field: values[key] for field, values in extra.items()})
    return {"moorings": out}


def _calls(state: dict[str, Any], changes: list[dict[str, Any]]) -> list[Case]:
    ok = Case(REMOVE.name, "trace", copy.deepcopy(state), {"mooring_id": "M1", "name": "Puffin"}, expect_error=False)
    ok.state_checks = [{"op": "changes", "changes": changes}]
    refused = Case(REMOVE.name, "trace", copy.deepcopy(state), {"mooring_id": "M2", "name": "Tern"}, expect_error=True)
    return [ok, refused]


def _learned(plan: ToolPlan, recorded: list[Case]) -> list[ToolPlan]:
    return [v for v in learned_variants(REMOVE, plan, recorded) if v.kind == "recorded_update"]


REMOVED = [
    {"path": "/moorings/M1/tenders", "value": []},
    {"path": "/moorings/M1/tenders/0/name", "deleted": True},
    {"path": "/moorings/M1/tenders/0/fee", "deleted": True},
]


@pytest.mark.parametrize(
    ("field", "values", "after", "learned"),
    [
        ("paid", {"M1": False, "M2": True, "M3": False}, True, {"paid": [False]}),  # a yes/no is a state
        ("closed_on", {"M1": None, "M2": "2026-01-01", "M3": None}, "2026-05-01", {"closed_on": [None]}),
        ("stage", {"M1": 1, "M2": 2, "M3": 1}, 2, {}),  # a number is not held as a state
        ("crane", {"M1": {"id": "C1"}, "M2": {"id": "C2"}, "M3": {"id": "C1"}}, {"id": "C3"}, {}),  # nor an object
        ("notes", {"M1": [], "M2": ["x"], "M3": []}, ["y"], {}),  # nor a list
    ],
)
def test_learned_preconditions_only_of_state_like_values(field: str, values: dict, after: Any, learned: dict) -> None:
    plain = copy.deepcopy(REMOVING)
    plain.kind, plain.preconditions = "update", {}
    recorded = _calls(_moorings(**{field: values}), [{"path": f"/moorings/M1/{field}", "value": after}])
    variants = _learned(plain, recorded)
    assert variants and variants[0].preconditions == learned


def test_entry_there_kept_with_the_docs_state() -> None:
    kept = _learned(REMOVING, _calls(_moorings(), REMOVED))[0]
    assert kept.preconditions == {"status": ["booked"]} and LISTED in kept.checks


def test_entry_there_not_on_an_update() -> None:
    plain = copy.deepcopy(REMOVING)
    plain.kind = "update"
    assert not any(c["op"] == "entry_named" for v in _learned(plain, _calls(_moorings(), REMOVED)) for c in v.checks)


def test_entry_there_without_a_docs_state() -> None:
    bare = copy.deepcopy(REMOVING)
    bare.preconditions = {}
    assert any(LISTED in v.checks for v in _learned(bare, _calls(_moorings(), REMOVED)))


def test_entry_there_not_doubled() -> None:
    held = copy.deepcopy(REMOVING)
    held.checks = [LISTED]
    kept = _learned(held, _calls(_moorings(), REMOVED))[0]
    assert kept.checks.count(LISTED) == 1
