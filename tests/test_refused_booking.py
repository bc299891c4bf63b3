"""A boat charter's booking, worded as a vendor's booking docs: "The booking is refused when:" bullets (a sailor
whose account is not `active`, a boat whose status is not `free`, a permit that expires before the end date, a
sailor who already has 2 open charters), the start dock copied from the boat the data shows it mostly copies (the
boat moves on later), the end dock defaulting to the start dock, the estimate priced exactly like the quote (its
figures read with the booking's own docks), the bond moved from the sailor's balance (refused when short), and
"the vessel's status becomes `held`" for the boat the booking names. Then the one-sample entry text, the merged cap
of an item add and the figures a create or an edit takes from a quote."""

from __future__ import annotations

from typing import Any

from synth.envsynth.create_checks import create_checks
from synth.envsynth.create_profile import profile_effects
from synth.envsynth.create_rules import refine_create
from synth.envsynth.entry_texts import learned_text
from synth.envsynth.item_rules import _merged_caps
from synth.envsynth.plan import ToolPlan
from synth.envsynth.quote_reuse import _meant_figure, priced_fields, sibling_quotes
from synth.envsynth.refused_lists import refused_bullets
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N = {"type": "string"}, {"type": "number"}
DATE = {"type": "string", "format": "date"}
SAILOR = {
    "sailor_id": S,
    "status": {"type": "string", "x-enum": ["active", "barred"]},
    "tier": {"type": "string", "x-enum": ["deckhand", "skipper", "captain"]},
    "bond_balance": N,
    "permit_expiry": DATE,
}
BOAT = {
    "boat_id": S,
    "boat_class": {"type": "string", "x-enum": ["dinghy", "keelboat"]},
    "dock_id": S,
    "status": {"type": "string", "x-enum": ["free", "held", "out", "repair"]},
}
CHARTER = {
    "charter_id": S,
    "sailor_id": S,
    "boat_id": S,
    "boat_class": S,
    "start_dock_id": S,
    "end_dock_id": S,
    "start_date": DATE,
    "end_date": DATE,
    "status": {"type": "string", "x-enum": ["held", "out", "closed", "cancelled"]},
    "estimated_total": N,
    "bond_held": N,
}
SCHEMA = {
    "type": "object",
    "properties": {
        "sailors": collection(SAILOR),
        "boats": collection(BOAT),
        "docks": collection({"dock_id": S, "name": S}),
        "charters": collection(CHARTER),
    },
}
QUOTE = ToolSpec(
    "quote_charter",
    "Prices a charter; nothing is booked.\n\n"
    "1. **Days** = end_date - start_date.\n"
    "2. **Base** = day rate x days. Day rates: dinghy 30.00, keelboat 80.00.\n"
    "3. **Transfer fee** of 15.00 when both docks are given and differ.\n\n"
    "`total` = base + transfer fee. The response also states the bond the charter would require (waived for "
    "captain sailors).",
    {
        "type": "object",
        "properties": {
            "boat_class": {"type": "string", "enum": ["dinghy", "keelboat"]},
            "start_date": DATE,
            "end_date": DATE,
            "sailor_id": S,
            "start_dock_id": S,
            "end_dock_id": S,
        },
        "required": ["boat_class", "start_date", "end_date"],
    },
    returns={
        "type": "object",
        "properties": {
            "boat_class": S,
            "days": {"type": "integer"},
            "day_rate": N,
            "base": N,
            "transfer_fee": N,
            "total": N,
            "bond_required": N,
        },
    },
)
BOOK_TEXT = """Books a specific boat for a sailor and returns the new charter in status `held`. The boat leaves from
the dock where it is moored; `end_dock_id` defaults to that same dock.

The booking is refused when:
- the sailor does not exist or their account is not `active`;
- the boat does not exist or its status is not `free`;
- the sailing permit on file expires before the end date;
- the sailor already has 2 open charters (held or out).

On success: the charter gets the next number in the `C-1xxx` series, the estimated total is priced exactly like
`quote_charter`, the bond is moved from the sailor's `bond_balance` into the charter's `bond_held`, and the
vessel's status becomes `held`."""
BOOK = ToolSpec(
    "book_charter",
    BOOK_TEXT,
    {
        "type": "object",
        "properties": {
            "sailor_id": S,
            "boat_id": S,
            "start_date": DATE,
            "end_date": DATE,
            "end_dock_id": {"type": "string", "description": "Where the boat comes back; defaults to the start dock."},
        },
        "required": ["sailor_id", "boat_id", "start_date", "end_date"],
    },
    mutates=True,
)
POLICY = "The business date is 2034-05-01.\n\nA bond is moved when booking: 50.00 for dinghy, 120.00 keelboat."
TODAY = "2034-05-01"


def _charter(key: str, sailor: str, boat: str, cls: str, dock: str, status: str) -> dict[str, Any]:
    return {
        "charter_id": key,
        "sailor_id": sailor,
        "boat_id": boat,
        "boat_class": cls,
        "start_dock_id": dock,
        "end_dock_id": dock,
        "start_date": "2034-04-01",
        "end_date": "2034-04-03",
        "status": status,
        "estimated_total": 60.0,
        "bond_held": 0.0,
    }


def _state() -> dict[str, Any]:
    def sailor(key: str, status: str, tier: str, bond: float, permit: str) -> dict[str, Any]:
        return {"sailor_id": key, "status": status, "tier": tier, "bond_balance": bond, "permit_expiry": permit}

    return {
        "sailors": {
            "S1": sailor("S1", "active", "skipper", 200.0, "2035-01-01"),
            "S2": sailor("S2", "barred", "skipper", 200.0, "2035-01-01"),
            "S3": sailor("S3", "active", "captain", 0.0, "2034-05-03"),
            "S4": sailor("S4", "active", "deckhand", 500.0, "2035-01-01"),
            "S5": sailor("S5", "active", "deckhand", 40.0, "2035-01-01"),
        },
        "boats": {
            "B1": {"boat_id": "B1", "boat_class": "dinghy", "dock_id": "D1", "status": "free"},
            "B2": {"boat_id": "B2", "boat_class": "keelboat", "dock_id": "D2", "status": "free"},
            "B3": {"boat_id": "B3", "boat_class": "dinghy", "dock_id": "D1", "status": "repair"},
            "B4": {"boat_id": "B4", "boat_class": "keelboat", "dock_id": "D1", "status": "free"},
        },
        "docks": {"D1": {"dock_id": "D1", "name": "North"}, "D2": {"dock_id": "D2", "name": "South"}},
        "charters": {
            "C-1001": _charter("C-1001", "S4", "B1", "dinghy", "D1", "held"),
            "C-1002": _charter("C-1002", "S4", "B2", "keelboat", "D2", "out"),
            "C-1003": _charter("C-1003", "S1", "B3", "dinghy", "D1", "closed"),
            "C-1004": _charter("C-1004", "S1", "B4", "keelboat", "D2", "closed"),  # B4 has moved to D1 since
            "C-1005": _charter("C-1005", "S2", "B2", "keelboat", "D2", "closed"),
        },
    }


def _plan() -> ToolPlan:
    base = ToolPlan(
        kind="create",
        collection="charters",
        key_field="charter_id",
        fields=["sailor_id", "boat_id", "start_date", "end_date", "end_dock_id"],
        id_type="pattern",
        key_format={"prefix": "C-", "digits": 4},
        initial_values={"status": "held"},
    )
    text = BOOK_TEXT + "\n" + POLICY
    plan = refine_create(BOOK, base, SCHEMA, text, TODAY, _state(), POLICY)
    quotes = sibling_quotes([QUOTE], SCHEMA, _state(), POLICY)
    plan = priced_fields(BOOK, plan, SCHEMA, [QUOTE, BOOK], quotes, text, _state())
    plan = profile_effects(BOOK, plan, SCHEMA, text)
    return create_checks(BOOK, plan, SCHEMA, text, TODAY)


def test_the_refusals_the_copies_the_price_and_the_moves_are_read() -> None:
    assert len(refused_bullets(BOOK_TEXT)) == 4
    plan = _plan()
    assert plan.quote["assign"] == {"estimated_total": "total", "bond_held": "bond_required"}
    assert plan.quote["profile"] == {"boat_class": ["boat_id", "boats", "boat_class"]}
    assert plan.quote["from_new"] == ["boat_class", "end_dock_id", "start_dock_id"]
    effects = {e["op"]: e for e in plan.effects}
    assert effects["record_default"] == {"op": "record_default", "field": "end_dock_id", "source": "start_dock_id"}
    assert effects["moved_from"]["source"] == "bond_balance" and effects["moved_from"]["field"] == "bond_held"
    copied = [e for e in plan.effects if e["op"] == "copied"]
    assert {
        "op": "copied",
        "field": "start_dock_id",
        "via": "boat_id",
        "collection": "boats",
        "source": "dock_id",
    } in copied
    assert plan.ref_sets == [{"param": "boat_id", "collection": "boats", "field": "status", "value": "held"}]
    checks = [c for c in plan.checks if c["op"] in ("linked_state", "dated")]
    assert [(c["op"], c["field"], c.get("allowed"), c.get("value_field")) for c in checks] == [
        ("linked_state", "status", ["active"], None),
        ("linked_state", "status", ["free"], None),
        ("dated", "permit_expiry", None, "end_date"),
    ]
    assert [c["collection"] for c in checks[:2]] == ["sailors", "boats"]
    (cap,) = [c for c in plan.checks if c["op"] == "cap"]
    assert (cap["max"], cap["where"]) == (2, {"status": ["held", "out"]})


def test_bookings_price_move_the_bond_and_refuse_as_listed() -> None:
    plan = _plan()

    def booked(
        key: str, sailor: str, boat: str, span: tuple[str, str], docks: tuple[str, str], total: float, bond: float
    ):
        out = _state()
        cls = out["boats"][boat]["boat_class"]
        out["charters"][key] = {
            "charter_id": key,
            "sailor_id": sailor,
            "boat_id": boat,
            "boat_class": cls,
            "start_dock_id": docks[0],
            "end_dock_id": docks[1],
            "start_date": span[0],
            "end_date": span[1],
            "status": "held",
            "estimated_total": total,
            "bond_held": bond,
        }
        out["sailors"][sailor]["bond_balance"] = round(out["sailors"][sailor]["bond_balance"] - bond, 2)
        out["boats"][boat]["status"] = "held"
        return out

    calls = [
        (
            {"sailor_id": "S1", "boat_id": "B2", "start_date": "2034-05-10", "end_date": "2034-05-13"},
            booked("C-1006", "S1", "B2", ("2034-05-10", "2034-05-13"), ("D2", "D2"), 240.0, 120.0),
        ),
        (
            {
                "sailor_id": "S1",
                "boat_id": "B1",
                "start_date": "2034-05-10",
                "end_date": "2034-05-12",
                "end_dock_id": "D2",
            },
            booked("C-1006", "S1", "B1", ("2034-05-10", "2034-05-12"), ("D1", "D2"), 75.0, 50.0),
        ),
        (  # a captain leaves no bond
            {"sailor_id": "S3", "boat_id": "B1", "start_date": "2034-05-02", "end_date": "2034-05-03"},
            booked("C-1006", "S3", "B1", ("2034-05-02", "2034-05-03"), ("D1", "D1"), 30.0, 0),
        ),
        ({"sailor_id": "S2", "boat_id": "B1", "start_date": "2034-05-10", "end_date": "2034-05-12"}, None),  # barred
        ({"sailor_id": "S1", "boat_id": "B3", "start_date": "2034-05-10", "end_date": "2034-05-12"}, None),  # repair
        ({"sailor_id": "S3", "boat_id": "B1", "start_date": "2034-05-02", "end_date": "2034-05-04"}, None),  # permit
        ({"sailor_id": "S4", "boat_id": "B4", "start_date": "2034-05-10", "end_date": "2034-05-12"}, None),  # 2 open
        (
            {"sailor_id": "S5", "boat_id": "B4", "start_date": "2034-05-10", "end_date": "2034-05-12"},
            None,
        ),  # bond short
    ]
    run_calls(BOOK, plan, SCHEMA, _state, calls)


def test_one_sample_shows_the_template_of_its_entry_when_each_value_reads_one_way() -> None:
    record = {"rental_id": "R1", "mileage": 41230, "extras": [{"extra_id": "X9", "quantity": 2}]}
    extras = [{"extra_id": "X2", "quantity": 1}, {"extra_id": "X9", "quantity": 2}]
    found = learned_text([("X9 x2", record, extras)])
    assert found == {
        "from": "concat",
        "parts": [{"from": "new_element", "field": "extra_id"}, " x", {"from": "new_element", "field": "quantity"}],
    }
    twice = {"rental_id": "R1", "seats": 2, "extras": extras}
    assert learned_text([("X9 x2", twice, extras)]) is None  # the 2 is the seats or the quantity


def test_a_merged_number_is_capped_by_the_record_its_element_names() -> None:
    cols = {"extras": collection({"extra_id": S, "max_per_charter": {"type": "integer"}, "max_days": N})}
    effects = [
        {"op": "merge", "match": ["extra_id"], "sum": ["quantity"]},
        {"op": "entry_copied", "field": "name", "from": "record", "collection": "extras", "by": "extra_id"},
    ]
    text = "The combined quantity must stay within the extra's maximum per charter."
    assert _merged_caps(text, effects, cols) == [
        {"op": "merged_cap", "field": "quantity", "collection": "extras", "by": "extra_id", "cap": "max_per_charter"}
    ]
    assert _merged_caps("The quantity is summed.", effects, cols) == []


def test_a_field_priced_as_a_quote_takes_the_figure_its_name_holds() -> None:
    figures = ["days", "base", "addons_total", "total", "bond_required"]
    assert _meant_figure("estimated_total", figures) == "total"  # not `addons_total`
    assert _meant_figure("bond_held", figures) == "bond_required"
    assert _meant_figure("amount_due", figures) == "bond_required"  # nothing it names: the figure computed last
    assert _meant_figure("levy_total", ["levy", "berth_total", "total"]) == "levy"  # not the bare `total`
    assert _meant_figure("levies", ["levy", "total"]) == "levy"  # in the singular


def test_an_add_past_the_merged_cap_is_refused() -> None:
    line = {"type": "object", "properties": {"extra_id": S, "name": S, "quantity": {"type": "integer"}}}
    schema = {
        "type": "object",
        "properties": {
            "extras": collection({"extra_id": S, "name": S, "max_per_charter": {"type": "integer"}}),
            "charters": collection({"charter_id": S, "extras": {"type": "array", "items": line}}),
        },
    }
    spec = ToolSpec(
        "add_extra",
        "Adds units of an extra to a charter; the combined quantity must stay within the extra's maximum per charter.",
        {"type": "object", "properties": {"charter_id": S, "extra_id": S, "quantity": {"type": "integer"}}},
        mutates=True,
    )
    effects = [
        {"op": "merge", "match": ["extra_id"], "sum": ["quantity"]},
        {"op": "entry_copied", "field": "name", "from": "record", "collection": "extras", "by": "extra_id"},
    ]
    effects += _merged_caps(spec.description, effects, schema["properties"])
    plan = ToolPlan(
        kind="item_add",
        collection="charters",
        key_field="charter_id",
        key_param="charter_id",
        list_field="extras",
        fields=["extra_id", "quantity"],
        effects=effects,
    )

    def state() -> dict[str, Any]:
        return {
            "extras": {"X1": {"extra_id": "X1", "name": "Seat", "max_per_charter": 3}},
            "charters": {"C1": {"charter_id": "C1", "extras": [{"extra_id": "X1", "name": "Seat", "quantity": 2}]}},
        }

    after = state()
    after["charters"]["C1"]["extras"][0]["quantity"] = 3
    calls = [
        ({"charter_id": "C1", "extra_id": "X1", "quantity": 1}, after),
        ({"charter_id": "C1", "extra_id": "X1", "quantity": 2}, None),  # 4 of at most 3
    ]
    run_calls(spec, plan, schema, state, calls)


def test_words_that_name_no_field_or_value_change_nothing() -> None:
    from synth.envsynth.create_profile import record_defaults
    from synth.envsynth.create_sets import aliased_sets

    own = CHARTER
    vague = ToolSpec(
        "book_charter",
        "",
        {
            "type": "object",
            "properties": {"end_dock_id": {"type": "string", "description": "Defaults to the harbour."}},
        },
    )
    assert record_defaults(vague, own) == []  # no field of the charter is called a harbour
    refs = {"sailor_id": "sailors", "boat_id": "boats"}
    cols = SCHEMA["properties"]
    assert aliased_sets(["the vessel's status becomes `sunk`."], refs, cols, []) == []  # no record knows `sunk`
    assert aliased_sets(["If paid, the vessel's status becomes `held`."], refs, cols, []) == []  # a condition
    assert aliased_sets(["the vessel's status becomes `held`."], refs, cols, []) == [
        {"param": "boat_id", "collection": "boats", "field": "status", "value": "held"}
    ]
