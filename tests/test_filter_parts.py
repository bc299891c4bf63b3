"""A mooring search whose argument matches one side of a text field, as the docs word it (HEAD below): the
argument is compared with the text of `berth_code` before its first space ({"op": "head", "sep": " "}), or, for
"after the dash", with the text after its first dash ({"op": "tail", "sep": "-"}). filter_rules.refine_filter maps
the argument so ahead of a linked marina's own `district` field, and the rendered filter keeps only the moorings
whose code has that side. (The docs' wording of such a side needs that one word, so HEAD and TAIL say it.)"""

from __future__ import annotations

from typing import Any

from synth.envsynth.codegen import render_tool
from synth.envsynth.filter_rules import _described_part as described_side
from synth.envsynth.filter_rules import refine_filter
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

S, WHOLE = {"type": "string"}, {"type": "integer"}
MOORING = {
    "mooring_id": S,
    "berth_code": S,
    "slip_ref": S,
    "length_m": WHOLE,
    "marina_id": {"type": "string", "x-references": "marinas"},
    "status": S,
}
MARINAS = collection({"marina_id": S, "district": S})
SCHEMA = {"type": "object", "properties": {"moorings": collection(MOORING), "marinas": MARINAS}}
ALONE = {"type": "object", "properties": {"moorings": collection(MOORING)}}  # no linked marinas
HEAD = "district matches the outward side of the berth code (the part before the space, e.g. 'NW1')."
TAIL = "slip_number matches the trailing end of the slip ref (the part after the dash, e.g. '12')."
ARGS = {"status": S, "district": S, "slip_number": S}


def _spec(text: str) -> ToolSpec:
    return ToolSpec("find_moorings", f"Find moorings. {text}", {"type": "object", "properties": ARGS})


def _plan(spec: ToolSpec, schema: dict[str, Any] = SCHEMA) -> ToolPlan:
    base = ToolPlan(kind="filter", collection="moorings", key_field="mooring_id", filter_params=["status"])
    return refine_filter(spec, base, schema)


def _mooring(key: str, code: str, slip: str, marina: str) -> dict[str, Any]:
    return {"mooring_id": key, "berth_code": code, "slip_ref": slip, "length_m": 12, "marina_id": marina}


MOORINGS = {
    "M1": _mooring("M1", "NW1 4AB", "A-12", "H1"),
    "M2": _mooring("M2", "NW1 7QT", "B-7", "H2"),
    "M3": _mooring("M3", "SE4 2XY", "A-12-3", "H1"),  # its marina's own district is NW1
    "M4": _mooring("M4", "NW1", "12", "H2"),  # no separator: matches no side
    "M5": _mooring("M5", "W1 9ZZ", "C-12", "H2"),
}
STATE = {
    "moorings": {k: {**v, "status": "free"} for k, v in MOORINGS.items()},
    "marinas": {"H1": {"marina_id": "H1", "district": "NW1"}, "H2": {"marina_id": "H2", "district": "SE4"}},
}


def _returns(spec: ToolSpec, plan: ToolPlan, queries: list[tuple[dict[str, Any], list[str]]]) -> None:
    """Each call returns exactly the moorings of those keys, in key order."""
    cases = []
    for arguments, keys in queries:
        case = Case(spec.name, "x", STATE, arguments, expect_error=False)
        case.expect_result, case.has_expected_result = [STATE["moorings"][k] for k in keys], True
        cases.append(case)
    res, err = run_cases(render_tool(spec, plan, SCHEMA), spec.name, cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == len(cases), (err, res.failures)


def test_the_side_before_or_after_a_named_separator() -> None:
    head = {"path": ["berth_code"], "via": None, "collection": None, "op": "head", "sep": " "}
    assert described_side(_spec(HEAD), "district", MOORING) == head
    tail = {"path": ["slip_ref"], "via": None, "collection": None, "op": "tail", "sep": "-"}
    assert described_side(_spec(TAIL), "slip_number", MOORING) == tail
    first = HEAD.replace("the space", "the first hyphen")
    assert described_side(_spec(first), "district", MOORING) == {**head, "sep": "-"}
    slash = HEAD.replace("before the space", "after the slash")
    assert described_side(_spec(slash), "district", MOORING) == {**head, "op": "tail", "sep": "/"}


def test_no_side_is_read_from_other_wording() -> None:
    tilde = HEAD.replace("the space", "the tilde")  # a separator word it does not know
    assert described_side(_spec(tilde), "district", MOORING) is None
    assert described_side(_spec(HEAD), "slip_number", MOORING) is None  # the docs say it of another argument
    assert described_side(_spec(HEAD.replace("berth code", "mast code")), "district", MOORING) is None  # no field
    numbered = HEAD.replace("berth code", "length m")  # a field that holds no text
    assert described_side(_spec(numbered), "district", MOORING) is None
    assert described_side(_spec("district matches the berth code."), "district", MOORING) is None


def test_the_side_comes_ahead_of_the_linked_marinas_district() -> None:
    plan = _plan(_spec(HEAD))
    assert plan.param_map["district"] == {
        "path": ["berth_code"],
        "via": None,
        "collection": None,
        "op": "head",
        "sep": " ",
    }
    # without the wording, the argument is the district of the marina the mooring links
    linked = _plan(_spec("district is the marina's district."))
    assert linked.param_map["district"]["via"] == "marina_id"
    unknown = _plan(_spec(HEAD.replace("the space", "the tilde")))
    assert unknown.param_map["district"]["via"] == "marina_id"  # no side read: the linked field as before
    alone = _plan(_spec(HEAD.replace("the space", "the tilde")), ALONE)
    assert "district" not in alone.param_map  # and no mapping at all with nothing else to name


def test_the_filter_keeps_the_moorings_whose_code_starts_so() -> None:
    spec = _spec(HEAD)
    _returns(
        spec,
        _plan(spec),
        [
            ({"district": "NW1"}, ["M1", "M2"]),  # not M3 (its marina's district), not M4 (no space)
            ({"district": "SE4"}, ["M3"]),
            ({"district": "NW"}, []),  # the whole side, not a start of it
            ({"district": "W1"}, ["M5"]),  # nor an end of it
            ({"district": "4AB"}, []),  # the other side
            ({"district": "NW1", "status": "free"}, ["M1", "M2"]),
            ({}, ["M1", "M2", "M3", "M4", "M5"]),
        ],
    )


def test_the_filter_keeps_the_moorings_whose_ref_ends_so() -> None:
    spec = _spec(TAIL)
    plan = _plan(spec)
    assert plan.param_map["slip_number"]["op"] == "tail"
    _returns(
        spec,
        plan,
        [
            ({"slip_number": "12"}, ["M1", "M5"]),  # not M4 (no dash), not M3 (after the first dash: 12-3)
            ({"slip_number": "12-3"}, ["M3"]),
            ({"slip_number": "7"}, ["M2"]),
            ({"slip_number": "A"}, []),
        ],
    )
