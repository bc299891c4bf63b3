"""A kiln shipping quote read off a band list and a conditional share: "The weight `band` sets the base price: B1 up
to 0.5 kg 4.20; ..." picks the band a weight falls in (a weight on a limit is in that band) and its price; "if
`potter_id` is given and the potter's `kind` is 'guild', a `rebate` of 8% of (base_price + packing), rounded half up
to the cent, is taken off" is that share for guild potters and 0 for others or no potter; planned and run."""

from __future__ import annotations

from typing import Any

from synth.envsynth.band_prices import band_lists, band_node
from synth.envsynth.formula_rules import quote_plan
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import answers_pass

S, N = {"type": "string"}, {"type": "number"}
SCHEMA = {"type": "object", "properties": {"potters": collection({"potter_id": S, "kind": S})}}
STATE = {
    "potters": {
        "P1": {"potter_id": "P1", "kind": "guild"},
        "P2": {"potter_id": "P2", "kind": "hobby"},
    }
}
DOC = (
    "Price shipping a pot. The weight `band` sets the base price: B1 up to 0.5 kg 4.20; B2 up to 2 kg 6.80; B3 up "
    "to 10 kg 11.50 (a weight exactly on a limit belongs to that band). The packing adds a charge: box 1.00, crate "
    "3.50. If `potter_id` is given and the potter's `kind` is 'guild', a rebate of 8% of (base_price + "
    "packing_charge), rounded half up to the cent, is taken off; other potters and calls without one get no rebate. "
    "Returns {band, base_price, packing_charge, rebate, total}, total = base_price + packing_charge - rebate. "
    "Errors: 'Error: pots over 10 kg are not shipped'."
)
PARAMS = {
    "weight_kg": N,
    "packing": {"type": "string", "enum": ["box", "crate"]},
    "potter_id": S,
}
SPEC = ToolSpec("quote_shipping", DOC, {"type": "object", "properties": PARAMS, "required": ["weight_kg", "packing"]})


def test_the_band_list_and_the_figures_it_sets() -> None:
    [bands] = band_lists(DOC)
    assert bands["labels"] == ["B1", "B2", "B3"] and bands["limits"] == [0.5, 2.0, 10.0]
    assert bands["prices"] == [4.2, 6.8, 11.5] and bands["unit"] == "kg"
    of = {"arg": "weight_kg", "default": None}
    assert band_node("band", DOC, PARAMS) == {
        "band": {"of": of, "limits": [0.5, 2.0, 10.0], "values": ["B1", "B2", "B3"]}
    }
    assert band_node("base_price", DOC, PARAMS)["band"]["values"] == [4.2, 6.8, 11.5]
    assert band_node("rebate", DOC, PARAMS) is None
    assert band_lists("Sizes: B1 up to 2 kg 4.20; B2 up to 1 kg 6.80.") == []  # limits must rise


def test_the_quote_picks_the_band_and_gives_the_rebate_to_guild_potters_only() -> None:
    plan = quote_plan(SPEC, ToolPlan(kind="get"), SCHEMA, STATE, "")
    assert plan.kind == "quote"
    rebate = dict(plan.quote["steps"])["rebate"]
    assert rebate["if_field"] == {"param": "potter_id", "field": "kind", "in": ["guild"]}
    assert rebate["then"]["way"] == "half_up"

    def answer(band: str, base: float, packing: float, rebate: float) -> dict[str, Any]:
        total = round(base + packing - rebate, 2)
        return {"band": band, "base_price": base, "packing_charge": packing, "rebate": rebate, "total": total}

    cases = [
        ({"weight_kg": 0.5, "packing": "box"}, answer("B1", 4.2, 1.0, 0)),  # on the limit: the lower band
        ({"weight_kg": 0.6, "packing": "crate", "potter_id": "P1"}, answer("B2", 6.8, 3.5, 0.82)),  # 0.824
        ({"weight_kg": 3, "packing": "box", "potter_id": "P1"}, answer("B3", 11.5, 1.0, 1.0)),
        ({"weight_kg": 3, "packing": "box", "potter_id": "P2"}, answer("B3", 11.5, 1.0, 0)),
    ]
    assert answers_pass(SPEC, plan, SCHEMA, STATE, cases)


def test_a_share_whose_condition_names_no_record_field_is_not_read() -> None:
    from synth.envsynth.formula_rules import _scope
    from synth.envsynth.switched_figures import given_share_node

    scope = _scope(SPEC, SCHEMA["properties"], STATE, "")
    parse = lambda text: {"val": text}  # noqa: E731  (the base's own reading is not under test here)
    said = "If `potter_id` is given and the potter's `{}` is 'guild', a rebate of 8% of (x), is taken off."
    assert given_share_node("rebate", said.format("kind"), scope, parse) == {
        "if_field": {"param": "potter_id", "field": "kind", "in": ["guild"]},
        "then": {"op": "*", "args": [{"num": 0.08}, {"val": "x"}]},
        "else": {"num": 0},
    }
    assert given_share_node("rebate", said.format("grade"), scope, parse) is None  # no such field
    assert given_share_node("discount", said.format("kind"), scope, parse) is None  # another figure
