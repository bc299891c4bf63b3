"""Readers added in session 54, each on harbour docs: a list entry priced from a tariff (a flat price, else a rate
card at the class of the boat the parent names), the log line the data writes for every added entry, states
written with a hyphen ("laid-up"), error messages that are no moves, and an example answer holding a text."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.card_prices import card_prices
from synth.envsynth.docs_counters import docs_counters
from synth.envsynth.entry_logs import data_logged, logged_kind
from synth.envsynth.entry_texts import learned_text
from synth.envsynth.example_answers import _combined
from synth.envsynth.item_rules import refine_item, stated_states
from synth.envsynth.plan import ToolPlan
from synth.envsynth.priors import tool_priors
from synth.envsynth.testgen import _adds_to_own_list, _links_on_file
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N, INT = {"type": "string"}, {"type": "number"}, {"type": "integer"}
SERVICE = {
    "type": "object",
    "properties": {
        "line_id": S,
        "code": S,
        "description": S,
        "quantity": INT,
        "unit_price": N,
        "amount": N,
        "added_on": S,
        "note": S,
    },
    "required": ["line_id", "code", "quantity", "unit_price", "amount"],
}
EVENT = {"type": "string", "x-enum": ["arrived", "service_added"]}
LOG = {"type": "array", "items": {"type": "object", "properties": {"date": S, "event": EVENT, "note": S}}}
BERTHING = {
    "berthing_id": S,
    "boat_id": S,
    "nights": INT,
    "status": {"type": "string", "x-enum": ["booked", "moored", "laid_up", "left"]},
    "services": {"type": "array", "items": SERVICE},
    "log": LOG,
}
SCHEMA = {
    "type": "object",
    "properties": {
        "tariffs": collection({"code": S, "description": S, "price": N, "rates": {"type": "object"}}),
        "boats": collection({"boat_id": S, "hull_class": S, "mast": S}),
        "berthings": collection(BERTHING),
    },
}
TARIFFS = {
    "HAUL": {"code": "HAUL", "description": "Lift out", "price": 40.0},
    "PUMP": {"code": "PUMP", "description": "Bilge pump-out", "price": 12.0},
    "SCRUB": {"code": "SCRUB", "description": "Hull scrub", "rates": {"dinghy": 22.0, "keelboat": 34.0}},
}
CLASS = {"K1": "keelboat", "K2": "keelboat", "D1": "dinghy", "D2": "dinghy"}


def _berthing(key: str, boat: str, code: str, quantity: int, aside: str = "") -> dict[str, Any]:
    tariff = TARIFFS[code]
    price = tariff.get("price") or tariff["rates"][CLASS[boat]]
    line = {
        "line_id": "SV-1",
        "code": code,
        "description": tariff["description"],
        "quantity": quantity,
        "unit_price": price,
        "amount": price * quantity,
        "added_on": "2031-03-0" + key[-1],
    }
    log = [
        {"date": "2031-02-01", "event": "arrived", "note": f"Moored {boat}"},
        {
            "date": line["added_on"],
            "event": "service_added",
            "note": f"SV-1 {code} x{quantity} £{price * quantity:.2f}",
        },
    ]
    log[-1]["note"] += aside
    return {"berthing_id": key, "boat_id": boat, "nights": 5, "status": "moored", "services": [line], "log": log}


def _sample() -> dict[str, Any]:
    return {
        "tariffs": copy.deepcopy(TARIFFS),
        "boats": {
            k: {"boat_id": k, "hull_class": v, "mast": "sloop" if k[0] == "K" else "una"} for k, v in CLASS.items()
        },
        "berthings": {
            "B1": _berthing("B1", "K1", "SCRUB", 1),
            "B2": _berthing("B2", "D1", "HAUL", 1),
            "B3": _berthing("B3", "D2", "SCRUB", 2),
            "B4": _berthing("B4", "K2", "PUMP", 3, " (added at arrival)"),
            "B5": {"berthing_id": "B5", "boat_id": "K2", "nights": 4, "status": "moored", "services": [], "log": []},
        },
    }


ADD = ToolSpec(
    "add_berthing_service",
    "Add a chargeable service to a booked or moored berthing, by tariff code: SCRUB is priced by the boat's hull "
    "class; HAUL and PUMP are charged each. Returns the berthing. Errors: 'Services can only be added to booked "
    "or moored berthings (B-9 is left)', 'quantity 8 exceeds the 5 nights of berthing B-2'.",
    {
        "type": "object",
        "properties": {"berthing_id": S, "code": S, "quantity": INT, "note": S},
        "required": ["berthing_id", "code"],
    },
)
BASE = dict(collection="berthings", key_field="berthing_id", key_param="berthing_id", list_field="services")


def test_the_price_is_the_tariffs_flat_one_else_its_card_at_the_boats_class() -> None:
    found = card_prices(
        _sample(), "berthings", "services", ["code", "quantity"], ["unit_price", "amount"], ADD.description
    )
    assert found == [
        {
            "op": "entry_card_price",
            "field": "unit_price",
            "collection": "tariffs",
            "by": "code",
            "number": "price",
            "card": "rates",
            "chain": [{"via": "boat_id", "collection": "boats"}],
            "key": "hull_class",
        }
    ]
    # two entries are too few to tell a rule from a coincidence
    few = _sample()
    few["berthings"] = {k: few["berthings"][k] for k in ("B1", "B2")}
    assert card_prices(few, "berthings", "services", ["code"], ["unit_price"], ADD.description) == []


def test_the_data_logs_every_added_service_by_its_line_id() -> None:
    records = list(_sample()["berthings"].values())
    assert logged_kind(records, "services", "line_id") == ("log", "event", "service_added")
    effects = data_logged("berthing", BERTHING, ADD.parameters, records, "2031-03-09", "services", "line_id")
    assert len(effects) == 1 and effects[0]["field"] == "log"
    note = effects[0]["items"][0]["fields"]["note"]
    assert note["parts"][0] == {"from": "new_element", "field": "line_id"}  # the new line's id, not "SV-1"
    # a log that does not name the line by its id tells nothing
    unnamed = copy.deepcopy(records)
    for r in unnamed:
        for e in r["log"]:
            e["note"] = e["note"].replace("SV-1 ", "")
    assert logged_kind(unnamed, "services", "line_id") is None


def test_a_few_texts_ending_on_an_aside_keep_the_plain_template() -> None:
    texts = ["SV-1 SCRUB x1 34.00", "SV-1 HAUL x1 40.00", "SV-1 SCRUB x2 44.00", "SV-1 PUMP x3 36.00 (at arrival)"]
    elements = [("SCRUB", 1, 34.0), ("HAUL", 1, 40.0), ("SCRUB", 2, 44.0), ("PUMP", 3, 36.0)]
    samples = [
        (t, {"services": [e]}, [e])
        for t, e in zip(texts, ({"code": c, "quantity": q, "amount": a} for c, q, a in elements))
    ]
    found = learned_text(samples)
    assert found is not None and found["from"] == "concat"
    assert {"from": "new_element", "field": "quantity"} in found["parts"]
    two = samples[:2] + [(t + " (late)", r, es) for t, r, es in samples[2:]]  # half of them: no rule
    assert learned_text(two) is None


def test_adding_a_service_prices_it_and_logs_it() -> None:
    plan = ToolPlan(
        kind="item_add",
        fields=["code", "quantity", "note", "added_on"],
        item_key="line_id",
        key_format={"prefix": "SV-"},
        initial_values={"quantity": 1, "added_on": "2031-03-09"},
        **BASE,
    )
    plan = refine_item(ADD, plan, SCHEMA, ADD.description, _sample(), "2031-03-09")
    assert plan.preconditions == {"status": ["booked", "moored"]}
    assert not [e for e in plan.effects if e["op"] == "adjust"]  # the errors' "exceeds the 5 nights" moves nothing
    after = _sample()
    line = {"line_id": "SV-1", "code": "SCRUB", "quantity": 2, "added_on": "2031-03-09"}
    line.update({"description": "Hull scrub", "unit_price": 34.0, "amount": 68.0})
    after["berthings"]["B5"]["services"].append(line)
    after["berthings"]["B5"]["log"].append(
        {"date": "2031-03-09", "event": "service_added", "note": "SV-1 SCRUB x2 £68.00"}
    )
    lost = _sample()
    del lost["boats"]["K2"]  # no class to price the scrub by: refused, nothing half-written
    run_calls(
        ADD,
        plan,
        SCHEMA,
        _sample,
        [({"berthing_id": "B5", "code": "SCRUB", "quantity": 2}, after), ({"berthing_id": "B5", "code": "WAX"}, None)],
    )
    run_calls(ADD, plan, SCHEMA, lambda: copy.deepcopy(lost), [({"berthing_id": "B5", "code": "SCRUB"}, None)])


def test_states_spelt_with_a_hyphen_and_not_those_of_an_aside() -> None:
    props = {"status": BERTHING["status"]}
    said = "Fenders can only be added to moored or laid-up berthings (B-2 is left)."
    assert stated_states(said, "berthing", props) == {"status": ["moored", "laid_up"]}


def test_quoted_errors_are_no_moves() -> None:
    schema = {"properties": {"berthings": collection(BERTHING)}}
    text = "Adds fenders to a berthing. Errors: 'quantity 8 exceeds the 5 nights of berthing B-2'."
    params = {"berthing_id": S, "quantity": INT}
    assert docs_counters(text, "berthings", "berthing_id", schema, params, ["add", "fenders"]) == []
    assert docs_counters("Adds fenders; the nights rise by the quantity.", "berthings", "berthing_id", schema, params)


def test_an_added_entry_is_tested_on_a_berthing_on_file_with_its_boat() -> None:
    spec = ToolSpec("add_berthing_service", ADD.description, ADD.parameters)
    pri = tool_priors(spec)
    assert _adds_to_own_list(pri, SCHEMA, "berthings")
    assert not _adds_to_own_list(tool_priors(ToolSpec("add_berthing", "Adds a berthing.", {})), SCHEMA, "berthings")
    cut = _sample()
    del cut["boats"]["K1"]
    schema = {**SCHEMA, "examples": [_sample()]}
    _links_on_file(cut, schema, "berthings", "B1")
    assert cut["boats"]["K1"]["hull_class"] == "keelboat"


def test_an_example_answer_holding_a_text_is_no_sum() -> None:
    example = {"refund": 12.0, "paid": 20.0, "fee": 8.0, "reason": "weather"}
    assert _combined("reason", example, ["refund", "paid", "fee"]) is None
    assert _combined("refund", example, ["paid", "fee"]) == {
        "op": "answer_calc",
        "left": "paid",
        "operator": "-",
        "right": "fee",
    }


def test_write_verbs_of_a_desk() -> None:
    for name in ("top_up_wallet", "swap_mooring", "settle_tab", "request_lift", "manage_berth"):
        assert tool_priors(ToolSpec(name, "Does it.", {})).mutates is True, name
    assert tool_priors(ToolSpec("browse_tariffs", "The tariffs.", {})).kind_guess == "list"
