"""Readers added in session 44, each fed made-up harbour docs or recorded calls:

- trace_today.recorded_business_date: the date the recorded writes stamp, learned when the docs never state it,
  and pipeline.with_recorded_date joining it to the policy only then;
- figure_bounds: `min_free_berths` "at least this many free berths" bounds an unstored figure (places left), with
  its documented default, and the figure joins the answer when the description names it;
- filter_rules: a `min_free_<x>` count of what is left is no stored number sharing a word with it;
- flag_rules: `available_only` with no condition in its words keeps the records whose boolean `available` is true;
- trace_outputs: answered values read off the record's own object (`total` of `fare`), a list's length, or a number
  summed over a list's entries, rendered by shape_code.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from synth.envsynth.codegen import header_source
from synth.envsynth.docs_entries import business_date
from synth.envsynth.figure_bounds import figure_bounds
from synth.envsynth.filter_rules import refine_filter
from synth.envsynth.flag_rules import flag_conditions
from synth.envsynth.pipeline import SynthConfig, with_recorded_date
from synth.envsynth.plan import ToolPlan
from synth.envsynth.shape_code import shape_code
from synth.envsynth.testgen import TestCase
from synth.envsynth.trace_outputs import answered_fields
from synth.envsynth.trace_today import business_date_line, recorded_business_date
from synth.spec import DocSet, ToolSpec
from tests.schemas import collection

S, N, B = {"type": "string"}, {"type": "integer"}, {"type": "boolean"}
TODAY = "2031-04-02"


def _call(args: dict[str, Any], changes: list[dict[str, Any]], ok: bool = True) -> SimpleNamespace:
    return SimpleNamespace(arguments=args, ok=ok, changes=changes)


def _set(path: str, value: Any) -> dict[str, Any]:
    return {"path": path, "value": value}


# --- trace_today ------------------------------------------------------------------------------------------------

CHARTERS = [  # each charter written stamps the business date; the sailing date is copied from the voyage, or given
    _call({"voyage_id": "V1"}, [_set("/charters/C1", {"created": TODAY, "sails_on": "2031-04-09"})]),
    _call({"voyage_id": "V2"}, [_set("/charters/C2", {"created": TODAY, "sails_on": "2031-04-11"})]),
    _call({"charter_id": "C1", "day": "2031-04-20"}, [_set("/charters/C1/sails_on", "2031-04-20")]),
    _call({"charter_id": "C2"}, [_set("/charters/C2/history/1", {"date": TODAY, "event": "cancelled"})]),
    _call({"voyage_id": "V9"}, [], ok=False),
]


def test_the_date_every_write_stamps_is_the_business_date() -> None:
    assert recorded_business_date(CHARTERS) == TODAY


def test_no_business_date_without_a_clear_lead() -> None:
    assert recorded_business_date(CHARTERS[:1]) is None  # one call is a coincidence
    copied = [  # dates copied from voyages, each its own: none leads
        _call({"voyage_id": "V1"}, [_set("/charters/C1/sails_on", "2031-04-09")]),
        _call({"voyage_id": "V2"}, [_set("/charters/C2/sails_on", "2031-04-11")]),
        _call({"voyage_id": "V3"}, [_set("/charters/C3/sails_on", "2031-04-13")]),
    ]
    assert recorded_business_date(copied) is None
    given = [_call({"day": "2031-04-20"}, [_set("/charters/C1/sails_on", "2031-04-20")])] * 3
    assert recorded_business_date(given) is None  # a date the caller gave is no clock


def test_the_learned_line_reads_back_as_the_business_date() -> None:
    assert business_date(business_date_line(TODAY)) == TODAY


def _docset(policy: str) -> DocSet:
    tool = ToolSpec("book_charter", "Books a charter.", {"type": "object", "properties": {}})
    return DocSet(tools=[tool], policy=policy)


def test_the_policy_gains_the_learned_date_only_when_the_docs_state_none(tmp_path, monkeypatch) -> None:
    import synth.envsynth.pipeline as pipeline

    monkeypatch.setattr(pipeline, "recorded_calls", lambda *a: CHARTERS)
    config = SynthConfig(env_id="harbour", traces=str(tmp_path / "t.jsonl"))
    assert business_date(with_recorded_date(_docset("Be kind to skippers."), config)) == TODAY
    stated = "The business date is 2031-05-01."
    assert with_recorded_date(_docset(stated), config) == stated


# --- figure_bounds and filter_rules ------------------------------------------------------------------------------

PIER = {"pier_id": S, "berth_capacity": N, "berths_occupied": N, "status": S}
STATE_SCHEMA = {"type": "object", "properties": {"piers": collection(PIER)}}
FREE_PARAM = {"type": "integer", "default": 1, "description": "Only piers with at least this many free berths."}
FIND = ToolSpec(
    "find_piers",
    "List piers of the harbour with their capacity and free berths.",
    {"type": "object", "properties": {"status": S, "min_free_berths": FREE_PARAM}},
)


def test_a_bound_on_free_berths_reads_capacity_minus_moored() -> None:
    plan = ToolPlan(kind="filter", collection="piers", key_field="pier_id", filter_params=["status"])
    refined = refine_filter(FIND, plan, STATE_SCHEMA)
    assert "min_free_berths" not in refined.param_map  # not `berths_occupied`, which shares a word
    bounded = figure_bounds(FIND, refined, STATE_SCHEMA)
    (check,) = bounded.scope_checks
    calc = {"left": "berth_capacity", "operator": "-", "right": "berths_occupied"}
    assert check == {"op": "bound", "arg": "min_free_berths", "cmp": ">=", "calc": calc, "default": 1}
    assert bounded.output_fields[-1] == "free_berths" and bounded.output_map["free_berths"]["op"] == "calc"


def test_no_bound_without_at_least_or_a_figure() -> None:
    plan = ToolPlan(kind="filter", collection="piers", key_field="pier_id", filter_params=["status"])
    vague = {"type": "integer", "description": "Free berths wanted."}
    spec = ToolSpec("find_piers", "List piers.", {"type": "object", "properties": {"min_free_berths": vague}})
    assert figure_bounds(spec, plan, STATE_SCHEMA) == plan
    depth = {"type": "integer", "description": "Only piers at least this deep."}
    spec = ToolSpec("find_piers", "List piers.", {"type": "object", "properties": {"min_depth": depth}})
    assert figure_bounds(spec, plan, STATE_SCHEMA) == plan  # `depth` is no figure the record gives


# --- flag_rules -------------------------------------------------------------------------------------------------


def test_a_flag_named_for_a_boolean_field_keeps_records_where_it_is_true() -> None:
    record = {"berth_id": S, "available": B, "size": S}
    assert flag_conditions("available_only", "Only return berths we let. Default false.", record) == [
        {"field": "available", "equals": True}
    ]
    assert flag_conditions("only_available", "", record) == [{"field": "available", "equals": True}]
    assert flag_conditions("include_size", "Only return berths we let.", record) == []  # no such boolean field
    assert flag_conditions("size_only", "Only return berths we let.", record) == []  # `size` is no boolean


# --- trace_outputs ----------------------------------------------------------------------------------------------

VOYAGES = {
    "K1": {"voyage_id": "K1", "fare": {"base": 30.0, "total": 36.0}, "crew": [{"n": 2}, {"n": 1}], "pier": "P1"},
    "K2": {"voyage_id": "K2", "fare": {"base": 10.0, "total": 12.0}, "crew": [{"n": 4}], "pier": "P1"},
}


def _listed(skipper: str, keys: list[str]) -> TestCase:
    answer = [
        {"voyage_id": k, "total": VOYAGES[k]["fare"]["total"], "people": sum(c["n"] for c in VOYAGES[k]["crew"])}
        | {"crew": len(VOYAGES[k]["crew"])}
        for k in keys
    ]
    return TestCase(
        tool="list_voyages",
        origin="recorded",
        state={"voyages": VOYAGES},
        arguments={"skipper": skipper},
        expect_error=False,
        expect_result=answer,
        has_expected_result=True,
    )


def test_answered_values_from_the_records_own_object_and_lists() -> None:
    plan = ToolPlan(kind="filter", collection="voyages", key_field="voyage_id", filter_params=["skipper"])
    learned = answered_fields(plan, [_listed("S1", ["K1"]), _listed("S2", ["K2"])])
    assert learned is not None
    assert learned.output_map["total"] == {"op": "nested", "path": ["fare", "total"]}
    assert learned.output_map["people"] == {"op": "sum", "path": ["crew", "n"]}
    assert learned.output_map["crew"] == {"op": "len", "path": ["crew"]}  # the list's own name
    ns: dict[str, Any] = {}
    exec(header_source("harbour", "0.0"), ns)
    exec(shape_code("list_voyages", learned), ns)
    shaped = ns["shape_list_voyages"]({}, VOYAGES["K1"], {})
    assert shaped == {"voyage_id": "K1", "total": 36.0, "people": 3, "crew": 2}


# --- gate: a field named in an obligation with a deadline is set later -------------------------------------------


def test_a_field_the_docs_name_only_in_a_later_deadline_is_no_blank_to_publish() -> None:
    from synth.envsynth.gate import _unset_documented_fields
    from synth.envsynth.testgen import TestCase as Case

    state = {"holds": {"H1": {"hold_id": "H1", "berth_id": "B1", "fee": {"card": "x"}}}}
    after = {"holds": {**state["holds"], "H2": {"hold_id": "H2", "berth_id": "B2", "fee": None}}}
    outcome = SimpleNamespace(status="ok", state_after=after)
    plan = {"kind": "create", "collection": "holds", "key_field": "hold_id"}
    params = {"type": "object", "properties": {"berth_id": S}}
    case = Case("hold_berth", "x", state, {})
    later = ToolSpec(
        "hold_berth", "Holds a berth. The hold must be settled with its fee by then or it expires.", params
    )
    assert _unset_documented_fields(later, plan, [(case, outcome)]) == []
    now = ToolSpec("hold_berth", "Holds a berth and takes the fee from the skipper's card.", params)
    assert _unset_documented_fields(now, plan, [(case, outcome)]) != []


# --- entry_numbers ------------------------------------------------------------------------------------------------

LINE = {"type": "object", "properties": {"line": N, "sku": S, "qty": N}}
REQUISITION = {"requisition_id": S, "lines": {"type": "array", "items": LINE}, "crew": {"type": "array", "items": LINE}}
REQUISITIONS = {"type": "object", "properties": {"requisitions": collection(REQUISITION)}}
GIVEN = {"type": "array", "items": {"type": "object", "properties": {"sku": S, "qty": N}}}
FILE_REQUISITION = ToolSpec(
    "file_requisition", "Files a chandlery requisition.", {"type": "object", "properties": {"lines": GIVEN}}
)


def _requisitions(*lines: list[Any]) -> dict[str, Any]:
    return {"requisitions": {f"R{i}": {"requisition_id": f"R{i}", "lines": x} for i, x in enumerate(lines)}}


def test_entries_are_numbered_by_place_as_the_data_numbers_them() -> None:
    from synth.envsynth.entry_numbers import numbered_entries

    plan = ToolPlan(kind="create", collection="requisitions", key_field="requisition_id", fields=["lines"])
    ints = _requisitions([{"line": 1, "sku": "rope"}, {"line": 2, "sku": "cleat"}], [{"line": 1, "sku": "buoy"}])
    (eff,) = numbered_entries(FILE_REQUISITION, plan, REQUISITIONS, ints).effects
    assert eff == {"op": "number_entries", "field": "lines", "key": "line", "prefix": None}
    texts = _requisitions(
        [{"line": "L1", "sku": "rope"}, {"line": "L2", "sku": "cleat"}], [{"line": "L1", "sku": "buoy"}]
    )
    assert numbered_entries(FILE_REQUISITION, plan, REQUISITIONS, texts).effects[0]["prefix"] == "L"
    shuffled = _requisitions([{"line": 2, "sku": "rope"}, {"line": 1, "sku": "cleat"}], [{"line": 1, "sku": "buoy"}])
    assert numbered_entries(FILE_REQUISITION, plan, REQUISITIONS, shuffled) == plan  # not by place
    single = _requisitions([{"line": 1, "sku": "rope"}], [{"line": 1, "sku": "buoy"}])
    assert numbered_entries(FILE_REQUISITION, plan, REQUISITIONS, single) == plan  # one entry each: no sequence seen


def test_the_generated_create_numbers_the_given_entries() -> None:
    import synth
    from synth.envsynth.codegen import header_source, render_tool
    from synth.envsynth.entry_numbers import numbered_entries
    from synth.sandbox import run_cases

    plan = ToolPlan(
        kind="create", collection="requisitions", key_field="requisition_id", fields=["lines"], id_type="int"
    )
    data = _requisitions([{"line": 1, "sku": "rope"}, {"line": 2, "sku": "cleat"}], [{"line": 1, "sku": "buoy"}])
    source = render_tool(FILE_REQUISITION, numbered_entries(FILE_REQUISITION, plan, REQUISITIONS, data), REQUISITIONS)
    module = header_source("check", synth.PIPELINE_VERSION, source) + "\n\n" + source
    args = {"lines": [{"sku": "chain", "qty": 2}, {"sku": "shackle", "qty": 4}]}
    (out,) = run_cases(module, [{"function": "file_requisition", "state": {"requisitions": {}}, "arguments": args}])
    assert out.status == "ok", out.error
    assert [e["line"] for e in out.result["lines"]] == [1, 2]


# --- trace_switch.learn_cases --------------------------------------------------------------------------------------


def _paid(method: str, total: float, skipper: str) -> tuple[Any, dict[str, Any], dict[str, Any], dict[str, Any]]:
    note = {"card": f"Paid {total:.2f} by card", "account": f"Billed {total:.2f} to {skipper}"}.get(method)
    note = note or f"Paid {total:.2f} from harbour credit"
    record = {"charter_id": "C1", "total": total, "skipper": skipper}
    return note, {"charter_id": "C1", "method": method}, record, {}


def test_a_text_written_per_payment_method_is_a_chain_of_switches() -> None:
    from synth.envsynth.codegen import _pysource
    from synth.envsynth.trace_learn import _learned

    samples = [
        _paid("card", 28.0, "Ines"),
        _paid("card", 214.4, "Olaf"),
        _paid("account", 152.0, "Bay Club"),
        _paid("account", 124.0, "Reef Club"),
        _paid("credit", 17.0, "Ines"),
        _paid("credit", 48.6, "Olaf"),
    ]
    source = _learned(samples, "charter_id")
    assert source is not None and source["from"] == "switch"
    ns: dict[str, Any] = {}
    exec(header_source("harbour", "0.0", "fg_text()"), ns)  # with the learned expressions' runtime
    exec("def dig_t(node, path):\n    for p in path:\n        node = node.get(p)\n    return node\n", ns)
    for note, args, record, _ in samples:
        assert eval(_pysource(source, "t"), {**ns, "arguments": args, "record": record, "env_state": {}}) == note
    assert _learned(samples[:4] + samples[4:5], "charter_id") is None  # one credit call: no template for it


# --- plan_choice.create_variant ------------------------------------------------------------------------------------


def _logged(args: dict[str, Any], key: str | None, ok: bool = True) -> TestCase:
    state = {"reports": {"RP-1": {"report_id": "RP-1", "kind": "wreck", "note": "old"}}}
    changes = [] if key is None else [{"path": f"/reports/{key}", "value": {"report_id": key, **args}}]
    return TestCase(
        tool="log_report",
        origin="recorded",
        state=state,
        arguments=args,
        expect_error=not ok,
        state_checks=[{"op": "changes", "changes": changes}],
    )


def test_a_plan_changing_an_unnamed_record_competes_with_a_create_when_calls_make_records() -> None:
    from synth.envsynth.collections import CollectionDraft
    from synth.envsynth.plan_choice import create_variant

    fields = {"report_id": S, "kind": S, "note": S}
    drafts = {"reports": CollectionDraft("reports", "report", fields, "report_id", key_format={"prefix": "RP-"})}
    spec = ToolSpec("log_report", "Log a report.", {"type": "object", "properties": {"kind": S, "note": S}})
    plan = ToolPlan(kind="by_mode", collection="reports", key_field="report_id", key_param="report_id")
    made = [_logged({"kind": "wreck", "note": "a"}, "RP-2"), _logged({"kind": "buoy", "note": "b"}, "RP-3")]
    variant = create_variant(spec, plan, made + [_logged({"kind": "x"}, None, ok=False)], drafts)
    assert variant is not None and variant.kind == "create" and variant.fields == ["kind", "note"]
    assert variant.key_format == {"prefix": "RP-"}
    assert create_variant(spec, plan, made[:1], drafts) is None  # one made record is no rule
    changed = _logged({"kind": "wreck"}, None)  # a success that made nothing
    assert create_variant(spec, plan, made + [changed], drafts) is None
    named = ToolPlan(kind="update", collection="reports", key_field="report_id", key_param="kind")
    assert create_variant(spec, named, made, drafts) is None  # a parameter names the record


def _moved(key: str, day: str) -> TestCase:
    state = {"holds": {k: {"hold_id": k, "day": "2031-04-01"} for k in ("H1", "H2")}}
    return TestCase(
        tool="move_hold",
        origin="recorded",
        state=state,
        arguments={"hold_id": key, "day": day},
        expect_error=False,
        state_checks=[{"op": "changes", "changes": [{"path": f"/holds/{key}/day", "value": day}]}],
    )


def test_a_create_competes_with_an_update_when_calls_change_the_record_their_key_names() -> None:
    from synth.envsynth.collections import CollectionDraft
    from synth.envsynth.plan_choice import update_variant

    drafts = {"holds": CollectionDraft("holds", "hold", {"hold_id": S, "day": S}, "hold_id")}
    spec = ToolSpec("move_hold", "Move a hold.", {"type": "object", "properties": {"hold_id": S, "day": S}})
    plan = ToolPlan(kind="create", collection="holds", key_field="hold_id", fields=["day"])
    calls = [_moved("H1", "2031-04-05"), _moved("H2", "2031-04-06")]
    variant = update_variant(spec, plan, calls, drafts)
    assert variant is not None and (variant.kind, variant.key_param, variant.fields) == ("update", "hold_id", ["day"])
    assert update_variant(spec, plan, calls[:1], drafts) is None
    unchanged = _moved("H1", "2031-04-01")  # the named record left as it was
    assert update_variant(spec, plan, calls + [unchanged], drafts) is None


# --- example_answers: a count and a key of an object; dated_only ----------------------------------------------------


def test_an_example_answer_counts_a_list_and_reads_a_key_of_an_object() -> None:
    from synth.envsynth.example_answers import example_answer

    own = {"charter_id": S, "status": S, "crew": {"type": "array"}, "charges": {"type": "object"}}
    schema = {"type": "object", "properties": {"charters": collection(own)}}
    example = {"charter_id": "C-7", "status": "boarded", "crew": 3, "balance_due": 40.0}
    params = {"type": "object", "properties": {"charter_id": S}}
    spec = ToolSpec("board_charter", "Boards a charter.", params, returns={"type": "object", "example": example})
    sample = {"charters": {"C-7": {"charter_id": "C-7", "crew": [1, 2, 3], "charges": {"due": 40.0, "paid": 0.0}}}}
    plan = ToolPlan(kind="recorded_update", collection="charters", key_field="charter_id", key_param="charter_id")
    answered = example_answer(spec, plan, schema, sample, TODAY)
    assert answered.output_map == {
        "crew": {"op": "len", "path": ["crew"]},
        "balance_due": {"op": "nested", "path": ["charges", "due"]},
    }
    paid = {"charters": {"C-7": {"charter_id": "C-7", "charges": {"due": 0.0, "paid": 40.0}}}}
    assert example_answer(spec, plan, schema, paid, TODAY) == plan  # no key holds 40.0 named like `balance_due`


def test_a_call_allowed_only_on_the_records_day() -> None:
    from synth.envsynth.dated_only import only_on_checks

    own = {"charter_id": S, "sailing_date": {"type": "string", "format": "date"}, "berth": S}
    checks = only_on_checks("Boarding is only possible on the sailing date.", own, TODAY)
    assert checks == [
        {"op": "dated", "field": "sailing_date", "cmp": "<=", "value": TODAY},
        {"op": "dated", "field": "sailing_date", "cmp": ">=", "value": TODAY},
    ]
    assert only_on_checks("Boarding is only possible on the sailing date.", own, None) == []
    assert only_on_checks("Boarding is only possible on the berth.", own, TODAY) == []  # no date
    assert only_on_checks("Boarding happens on the sailing date.", own, TODAY) == []  # no "only"


def test_a_parameter_kept_in_the_history_is_no_field_of_its_own() -> None:
    from synth.envsynth.kept_params import _kept_in_list

    props = {"charter_id": S, "history": {"type": "array"}, "status": S}
    assert _kept_in_list("Skipper's note, kept in the history.", props)
    assert _kept_in_list("Why the charter was dropped; recorded in its history", props)
    assert not _kept_in_list("Optional reason.", props)
    assert not _kept_in_list("Kept in the log.", props)  # no such list


# --- trace_learn: an adjustment made for one value of an argument -----------------------------------------------------


def _settled(key: str, method: str, skipper: str, total: float, credit: float) -> TestCase:
    state = {
        "charters": {key: {"charter_id": key, "skipper_id": skipper, "total": total, "status": "held"}},
        "skippers": {skipper: {"skipper_id": skipper, "balance": credit}},
    }
    changes = [{"path": f"/charters/{key}/status", "value": "paid"}]
    if method == "credit":
        changes.append({"path": f"/skippers/{skipper}/balance", "value": round(credit - total, 2)})
    return TestCase(
        tool="settle_charter",
        origin="recorded",
        state=state,
        arguments={"charter_id": key, "method": method},
        expect_error=False,
        state_checks=[{"op": "changes", "changes": changes}],
    )


def test_a_balance_moved_only_for_one_payment_method_is_guarded_by_it() -> None:
    from synth.envsynth.trace_learn import _adjustments

    plan = ToolPlan(kind="update", collection="charters", key_field="charter_id", key_param="charter_id")
    calls = [
        _settled("C1", "card", "S1", 30.0, 50.0),
        _settled("C2", "credit", "S2", 20.0, 45.0),
        _settled("C3", "card", "S3", 12.5, 10.0),
        _settled("C4", "credit", "S1", 7.5, 50.0),
    ]
    (rule,) = _adjustments(plan, calls)
    assert rule["when"] == {"arg": "method", "in": ["credit"]}
    assert rule["collection"] == "skippers" and rule["path"][0] == {"from": "record", "path": ["skipper_id"]}
    assert _adjustments(plan, [c for c in calls if c.arguments["method"] == "card"]) == []  # nothing moved
