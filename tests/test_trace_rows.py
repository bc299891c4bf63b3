"""Which records a list read answers and in what order, learned from recorded calls (trace_rows.py): a numeric
argument bounding a computed figure, a date floor at the business date, a state of the record or of the record it
links; each rule must keep every answered record, and the learned plan runs in a generated filter tool."""

from __future__ import annotations

import synth
from synth.envsynth.codegen import header_source, render_tool
from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase
from synth.envsynth.trace_rows import holds, learned_rows
from synth.sandbox import run_cases
from synth.spec import ToolSpec
from tests.schemas import collection

S, N = {"type": "string"}, {"type": "integer"}
BERTH = {
    "berth_id": S,
    "pier_id": {"type": "string", "x-references": "piers"},
    "free_on": {"type": "string", "format": "date"},
    "size": S,
    "places": N,
    "moored": N,
}
PIER = {"pier_id": S, "status": S}
SCHEMA = {"type": "object", "properties": {"berths": collection(BERTH), "piers": collection(PIER)}}
FREE = {"op": "calc", "left": "places", "operator": "-", "right": "moored", "floor": None}
PIERS = {
    "P1": {"pier_id": "P1", "status": "open"},
    "P2": {"pier_id": "P2", "status": "silted"},
    "P3": {"pier_id": "P3", "status": "open"},
}


def _berth(key: str, pier: str, day: str, size: str, places: int, moored: int) -> dict:
    return {"berth_id": key, "pier_id": pier, "free_on": day, "size": size, "places": places, "moored": moored}


BERTHS = {
    b["berth_id"]: b
    for b in [
        _berth("B1", "P1", "2031-04-09", "small", 6, 2),
        _berth("B2", "P1", "2031-04-01", "small", 6, 1),  # before the business date
        _berth("B3", "P2", "2031-04-08", "large", 4, 0),  # on a silted pier
        _berth("B4", "P1", "2031-04-03", "large", 5, 4),  # one place free
        _berth("B5", "P1", "2031-04-02", "small", 3, 0),
    ]
}
STATE = {"piers": PIERS, "berths": BERTHS}
PLAN = ToolPlan(
    kind="filter",
    collection="berths",
    key_field="berth_id",
    filter_params=["size"],
    output_fields=["berth_id", "free_on", "free_places"],
    output_map={"free_places": FREE},
)
SPEC = ToolSpec("find_berths", "Find berths.", {"type": "object", "properties": {"size": S, "min_free_places": N}})


def _rows(*keys: str) -> list[dict]:
    out = []
    for k in keys:
        b = BERTHS[k]
        out.append({"berth_id": k, "free_on": b["free_on"], "free_places": b["places"] - b["moored"]})
    return out


def _case(args: dict, answer: list[dict]) -> TestCase:
    return TestCase(
        tool="find_berths",
        origin="recorded",
        state=STATE,
        arguments=args,
        expect_error=False,
        expect_result=answer,
        has_expected_result=True,
    )


def _code(plan: ToolPlan, cases: list[TestCase]) -> list:
    source = render_tool(SPEC, plan, SCHEMA)
    module = header_source("check", synth.PIPELINE_VERSION, source) + "\n\n" + source
    outcomes = run_cases(
        module, [{"function": "find_berths", "state": c.state, "arguments": c.arguments} for c in cases]
    )
    assert all(o.status == "ok" for o in outcomes), [o.error for o in outcomes]
    return [o.result for o in outcomes]


# the real system: berths free from the business date (2031-04-02) on piers not silted, at least the asked number
# of places free, earliest first
RECORDED = [
    _case({"size": "small"}, _rows("B5", "B1")),
    _case({"size": "large"}, _rows("B4")),
    _case({"size": "large", "min_free_places": 2}, []),
    _case({"min_free_places": 3}, _rows("B5", "B1")),
]


def test_the_scope_and_order_are_learned_and_the_generated_tool_reproduces_every_call() -> None:
    learned = learned_rows(PLAN, RECORDED, _code(PLAN, RECORDED), "2031-04-02")
    assert learned is not None
    ops = [c["op"] for c in learned.scope_checks]
    assert ops == ["bound", "from", "linked"]  # the argument first, then the date, then the pier's state
    bound = learned.scope_checks[0]
    assert bound["arg"] == "min_free_places" and bound["cmp"] == ">=" and bound["calc"]["right"] == "moored"
    assert learned.scope_checks[2]["dropped"] == ["silted"]
    assert learned.sort_fields == ["free_on"]
    assert _code(learned, RECORDED) == [c.expect_result for c in RECORDED]


def test_nothing_is_learned_when_the_code_already_answers_as_recorded() -> None:
    plain = [_case({"size": "small"}, _rows("B1", "B2", "B5")), _case({"size": "large"}, _rows("B3", "B4"))]
    assert learned_rows(PLAN, plain, _code(PLAN, plain), "2031-04-02") is None


def test_a_rule_never_drops_an_answered_record() -> None:
    # B2 (dated before the business date) is answered here, so no date floor may be learned
    cases = [_case({"size": "small"}, _rows("B1", "B2")), _case({"size": "large"}, _rows("B4"))]
    learned = learned_rows(PLAN, cases, _code(PLAN, cases), "2031-04-02")
    assert learned is not None and all(c["op"] != "from" for c in learned.scope_checks)
    for case, got in zip(cases, _code(learned, cases)):
        answered = {r["berth_id"] for r in case.expect_result}
        assert answered <= {r["berth_id"] for r in got}


def test_without_a_business_date_no_date_floor_is_guessed() -> None:
    learned = learned_rows(PLAN, RECORDED, _code(PLAN, RECORDED), None)
    assert learned is not None and all(c["op"] != "from" for c in learned.scope_checks)


def test_one_recorded_answer_is_no_rule() -> None:
    assert learned_rows(PLAN, RECORDED[:1], _code(PLAN, RECORDED[:1]), "2031-04-02") is None


def test_a_reference_is_no_state_of_the_record() -> None:
    # only berths on pier P1 are answered: the pier's state explains it, the pier id itself must not
    cases = [_case({"size": "large"}, _rows("B4")), _case({"size": "small"}, _rows("B1", "B2", "B5"))]
    learned = learned_rows(PLAN, cases, _code(PLAN, cases), None)
    assert learned is not None
    assert [c["op"] for c in learned.scope_checks] == ["linked"]


def test_holds_reads_a_bound_with_its_default_and_without_the_argument() -> None:
    check = {"op": "bound", "arg": "min_free_places", "cmp": ">=", "calc": FREE, "default": 1}
    full = _berth("B9", "P1", "2031-04-05", "small", 2, 2)
    assert not holds(check, full, {}, STATE)  # the default bounds a call without the argument
    assert holds(check, full, {"min_free_places": 0}, STATE)
    assert holds({**check, "default": None}, full, {}, STATE)  # no argument, no default: no bound
