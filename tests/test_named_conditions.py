"""A bike-share quote whose voucher must be active, have uses left (uses < max_uses) and be for all stations
(station_id null) or for this one: a voucher failing any of them is refused before pricing, one passing all is
applied; a tool that points to another's description ("see quote_ride") reads the conditions there; and the publish
gate finds a succeeding call by leaving out optional arguments when every test call happened to pick a refused
voucher."""

from __future__ import annotations

from typing import Any

from synth.envsynth import testgen
from synth.envsynth.codegen import header_source, render_tool
from synth.envsynth.formula_rules import quote_plan
from synth.envsynth.gate import gate_problems
from synth.envsynth.named_conditions import conditions, with_named_conditions
from synth.envsynth.plan import ToolPlan
from synth.sandbox import run_cases
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N, B = {"type": "string"}, {"type": "number"}, {"type": "boolean"}
VOUCHER = {
    "code": S,
    "percent_off": N,
    "active": B,
    "uses": N,
    "max_uses": N,
    "station_id": {"type": ["string", "null"]},
}
SCHEMA = {
    "type": "object",
    "properties": {"stations": collection({"station_id": S, "minute_rate": N}), "vouchers": collection(VOUCHER)},
}
SAID = (
    "A voucher code: must exist, be active, have uses left (uses < max_uses) and be either for all stations "
    "(station_id null) or for this station."
)
PRICING = (
    "Price a ride. Computes base (minutes x the station's minute_rate), discount (voucher percent of the base, "
    "rounded to cents) and total = base - discount. Returns {station_id, minutes, base, discount, total}."
)


def _spec(name: str, voucher_said: str) -> ToolSpec:
    props = {
        "station_id": S,
        "minutes": {"type": "integer"},
        "voucher": {"type": "string", "description": voucher_said},
    }
    return ToolSpec(name, PRICING, {"type": "object", "properties": props, "required": ["station_id", "minutes"]})


QUOTE = _spec("quote_ride", SAID)
POINTING = _spec("price_ride", "A voucher code to apply; it must be usable here (see quote_ride).")


def _state() -> dict[str, Any]:
    def voucher(code: str, active: bool, uses: int, station: str | None) -> dict[str, Any]:
        return {"code": code, "percent_off": 10, "active": active, "uses": uses, "max_uses": 5, "station_id": station}

    return {
        "stations": {"S1": {"station_id": "S1", "minute_rate": 0.5}, "S2": {"station_id": "S2", "minute_rate": 0.4}},
        "vouchers": {
            "ALL": voucher("ALL", True, 1, None),
            "HERE": voucher("HERE", True, 4, "S1"),
            "OFF": voucher("OFF", False, 0, None),
            "SPENT": voucher("SPENT", True, 5, None),
            "THERE": voucher("THERE", True, 0, "S2"),
        },
    }


def _plan(spec: ToolSpec) -> ToolPlan:
    plan = quote_plan(spec, ToolPlan(kind="get"), SCHEMA, _state(), "")
    assert plan.kind == "quote"
    return with_named_conditions(spec, plan, SCHEMA, [QUOTE, POINTING])


def test_the_must_list_reads_a_flag_a_limit_and_an_empty_or_own_link() -> None:
    params = QUOTE.parameters["properties"]
    assert conditions(SAID, VOUCHER, params) == [
        {"op": "less", "a": "uses", "b": "max_uses", "or_equal": False},
        {"op": "empty_or_arg", "field": "station_id", "arg": "station_id"},
        {"op": "flag", "field": "active"},
    ]
    assert conditions("A voucher code to apply.", VOUCHER, params) == []


def test_a_refused_voucher_is_refused_and_a_good_one_applied() -> None:
    for spec in (QUOTE, POINTING):
        plan = _plan(spec)
        assert [c["op"] for c in plan.quote["named_checks"]["voucher"]] == ["less", "empty_or_arg", "flag"]
        calls = [({"station_id": "S1", "minutes": 20, "voucher": v}, None) for v in ("OFF", "SPENT", "THERE", "NONE")]
        for good in ("ALL", "HERE"):
            calls.append(({"station_id": "S1", "minutes": 20, "voucher": good}, _state()))
        run_calls(spec, plan, SCHEMA, _state, calls)
        source = render_tool(spec, plan, SCHEMA)
        module = header_source("t", "0", source) + "\n\n" + source
        call = {
            "function": spec.name,
            "state": _state(),
            "arguments": {"station_id": "S1", "minutes": 20, "voucher": "HERE"},
        }
        answer = run_cases(module, [call])[0].result
        assert answer["base"] == 10.0 and answer["discount"] == 1.0 and answer["total"] == 9.0


def test_the_gate_leaves_out_optional_arguments_before_it_says_no_call_succeeds() -> None:
    plan = _plan(QUOTE)
    source = render_tool(QUOTE, plan, SCHEMA)
    refused = [
        testgen.TestCase("quote_ride", "x", _state(), {"station_id": "S1", "minutes": 20, "voucher": v}).to_dict()
        for v in ("OFF", "THERE")
    ]
    assert not any("no call succeeds" in p for p in gate_problems(QUOTE, plan.to_dict(), source, "quote_ride", refused))
    hopeless = [testgen.TestCase("quote_ride", "x", _state(), {"station_id": "S9", "minutes": 20}).to_dict()]
    assert any("no call succeeds" in p for p in gate_problems(QUOTE, plan.to_dict(), source, "quote_ride", hopeless))
