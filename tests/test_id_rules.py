"""Rules on the ids a call names, said in passing: every id of a list argument names a record in a state ("the crew
... must be active sailors"), and the one who made the record cannot be removed from it; read and evaluated by the
runtime."""

from __future__ import annotations

from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.id_rules import id_rules
from tests.schemas import collection

S = {"type": "string"}
IDS = {"type": "array", "items": S}
CHARTER = {"charter_id": S, "chartered_by": S, "crew": IDS}
COLS = {
    "charters": collection(CHARTER),
    "sailors": collection({"sailor_id": S, "status": {"type": "string", "x-enum": ["active", "barred"]}}),
}
PARAMS = {"charter_id": S, "sailor_id": S, "crew": IDS}
STATE = {"sailors": {"S1": {"sailor_id": "S1", "status": "active"}, "S2": {"sailor_id": "S2", "status": "barred"}}}


def test_each_listed_id_in_a_state_and_the_maker_kept() -> None:
    text = (
        "Books a charter. The crew (the skipper plus the listed sailors, duplicates ignored) must be active sailors. "
        "Later, the sailor who chartered the boat (`chartered_by`) cannot be removed."
    )
    each, kept = id_rules(text, PARAMS, COLS, CHARTER)
    assert each == {"op": "each_named", "arg": "crew", "collection": "sailors", "field": "status", "in": ["active"]}
    assert fg_check(each, {"crew": ["S1"]}, {}, STATE) and not fg_check(each, {"crew": ["S1", "S2"]}, {}, STATE)
    assert not fg_check(each, {"crew": ["S9"]}, {}, STATE)  # no such sailor
    charter = {"charter_id": "C1", "chartered_by": "S1", "crew": ["S1", "S2"]}
    assert fg_check(kept, {"sailor_id": "S2"}, charter, STATE) and not fg_check(
        kept, {"sailor_id": "S1"}, charter, STATE
    )
    assert id_rules(text, PARAMS, COLS, None) == [each]  # a create: no record to keep anyone on
    assert id_rules(text.replace("active sailors", "happy sailors"), PARAMS, COLS, None) == []  # no such state


def test_an_entry_of_a_named_records_list_by_its_name() -> None:
    dinghy = {"type": "object", "properties": {"name": S, "hull": S}}
    cols = {
        "skippers": collection({"skipper_id": S, "dinghies": {"type": "array", "items": dinghy}}),
        "bays": collection({"bay_id": S}),
    }
    params = {"skipper_id": S, "dinghy_name": S, "bay_id": S}
    text = "Books a bay. The skipper, the dinghy (by name, as on the skipper's account) and the bay must exist."
    [check] = id_rules(text, params, cols, None)
    assert check == {
        "op": "entry_named",
        "collection": "skippers",
        "via_arg": "skipper_id",
        "list": "dinghies",
        "field": "name",
        "arg": "dinghy_name",
    }
    state = {"skippers": {"K1": {"skipper_id": "K1", "dinghies": [{"name": "Puffin", "hull": "wood"}]}}}
    assert fg_check(check, {"skipper_id": "K1", "dinghy_name": "Puffin"}, {}, state)
    assert not fg_check(check, {"skipper_id": "K1", "dinghy_name": "puffin"}, {}, state)  # exact spelling
    assert id_rules(text, {"skipper_id": S, "bay_id": S}, cols, None) == []  # no argument names the dinghy
