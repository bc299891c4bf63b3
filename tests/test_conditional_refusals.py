"""Refusals a create's list ties to some values of an argument, each said of a record the new record names: a flag
of the marina, a prefix of its district, and the skipper's kind and licence together. Read, then evaluated on the new
record by the runtime."""

from __future__ import annotations

from synth.envsynth.conditional_refusals import conditional_refusals
from synth.envsynth.expr_runtime import fg_check
from tests.schemas import collection

S = {"type": "string"}
SCHEMA = {
    "type": "object",
    "properties": {
        "berths": collection({"berth_id": S, "marina_id": S, "skipper_id": S, "berth_type": S}),
        "marinas": collection({"marina_id": S, "district": S, "conservation_area": {"type": "boolean"}}),
        "skippers": collection(
            {
                "skipper_id": S,
                "kind": {"type": "string", "x-enum": ["pro", "amateur"]},
                "licence": {"type": "string", "x-enum": ["valid", "lapsed"]},
            }
        ),
    },
}
TEXT = """Files a berth.

Refused when:
- the berth type is `houseboat` and the marina is in a conservation area (these are filed on paper);
- the berth type is `fuel` and the marina's district is residential (starts with `R-`);
- the berth type is `charter` or `race` and the skipper is not a `pro` whose `licence` is `valid`;
- the berth type is `kayak` and the marina is lovely.
"""
PARAMS = {"berth_type": S, "marina_id": S, "skipper_id": S}
STATE = {
    "marinas": {
        "M1": {"marina_id": "M1", "district": "R-2", "conservation_area": True},
        "M2": {"marina_id": "M2", "district": "C-1", "conservation_area": False},
    },
    "skippers": {
        "K1": {"skipper_id": "K1", "kind": "pro", "licence": "valid"},
        "K2": {"skipper_id": "K2", "kind": "pro", "licence": "lapsed"},
    },
}


def _checks() -> list[dict]:
    own = SCHEMA["properties"]["berths"]["additionalProperties"]["properties"]
    return conditional_refusals(TEXT, own, SCHEMA["properties"], PARAMS)


def test_three_of_the_four_clauses_are_read() -> None:
    checks = _checks()
    assert [(c["arg"], c["in"]) for c in checks] == [
        ("berth_type", ["houseboat"]),
        ("berth_type", ["fuel"]),
        ("berth_type", ["charter", "race"]),
    ]
    assert checks[0]["if"] == {"via": "marina_id", "collection": "marinas", "field": "conservation_area", "true": True}
    assert checks[1]["if"]["prefix"] == "R-"
    assert checks[2]["if"]["not_all"] == {"kind": "pro", "licence": "valid"}


def _allowed(berth_type: str, marina: str, skipper: str) -> bool:
    args = {"berth_type": berth_type, "marina_id": marina, "skipper_id": skipper}
    record = {"berth_id": "B9", **args}
    return all(fg_check(c, args, record, STATE) for c in _checks())


def test_each_refusal_holds_for_its_values_only() -> None:
    assert not _allowed("houseboat", "M1", "K1") and _allowed("houseboat", "M2", "K1")
    assert not _allowed("fuel", "M1", "K1") and _allowed("fuel", "M2", "K1")
    assert not _allowed("race", "M2", "K2") and _allowed("race", "M2", "K1")
    assert _allowed("dinghy", "M1", "K2")  # no refusal names this type
