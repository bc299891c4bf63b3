"""Review of the session-44 readers (commit dbe28e8): made-up harbour docs, sample data and recorded calls on which
a reader read a rule that is not there, missed the one that is, or crashed. Eleven were fixed and their tests now
pass; the one xfail left states the correct behaviour still missing (a text learned from two identical samples keeps
their number as written). The other plain tests pin behaviour checked and found right."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase
from synth.spec import ToolSpec
from tests.schemas import collection

S, N, B = {"type": "string"}, {"type": "integer"}, {"type": "boolean"}
TODAY = "2031-04-02"


# --- trace_today.recorded_business_date ----------------------------------------------------------------------------


def _paid_mooring(key: str) -> SimpleNamespace:
    """A write recorded as the whole record: the season's end date it already held comes back unchanged."""
    before = {"mooring_id": key, "season_end": "2031-10-31", "status": "due"}
    return SimpleNamespace(
        arguments={"mooring_id": key},
        ok=True,
        state={"moorings": {key: before}},
        changes=[{"path": f"/moorings/{key}", "value": {**before, "status": "paid"}}],
    )


def test_a_date_the_record_already_held_is_no_business_date() -> None:
    from synth.envsynth.trace_today import recorded_business_date

    calls = [_paid_mooring("M1"), _paid_mooring("M2"), _paid_mooring("M3")]
    assert recorded_business_date(calls) is None  # the season end (in the future) was never stamped by a clock


def test_a_date_given_inside_a_list_argument_is_no_clock() -> None:
    from synth.envsynth.trace_today import recorded_business_date

    def call(key: str) -> SimpleNamespace:
        return SimpleNamespace(
            arguments={"legs": [{"day": "2031-05-01"}]},
            ok=True,
            state={},
            changes=[{"path": f"/charters/{key}", "value": {"legs": [{"day": "2031-05-01"}]}}],
        )

    assert recorded_business_date([call("C1"), call("C2"), call("C3")]) is None


# --- figure_bounds and the LEFT_WORDS guard of filter_rules._described_bound ---------------------------------------

FREE_PARAM = {"type": "integer", "description": "Only piers with at least this many free berths."}
PIER_PLAN = ToolPlan(kind="filter", collection="piers", key_field="pier_id", filter_params=["status"])


def _find_piers(param: dict[str, Any]) -> ToolSpec:
    return ToolSpec(
        "find_piers", "List piers.", {"type": "object", "properties": {"status": S, "min_free_berths": param}}
    )


def test_a_longest_boat_length_is_no_capacity_of_berths() -> None:
    from synth.envsynth.figure_bounds import figure_bounds

    pier = {"pier_id": S, "berth_count": N, "berths_occupied": N, "max_length": N, "status": S}
    schema = {"type": "object", "properties": {"piers": collection(pier)}}
    bounded = figure_bounds(_find_piers(FREE_PARAM), PIER_PLAN, schema)
    lefts = [c.get("calc", {}).get("left") for c in bounded.scope_checks]
    assert "max_length" not in lefts  # free berths are no boat length minus occupied berths


def test_a_stored_count_of_free_berths_still_bounds_min_free_berths() -> None:
    from synth.envsynth.figure_bounds import figure_bounds
    from synth.envsynth.filter_rules import refine_filter

    pier = {"pier_id": S, "free_berth_count": N, "depth": N, "status": S}
    schema = {"type": "object", "properties": {"piers": collection(pier)}}
    spec = _find_piers(FREE_PARAM)
    refined = refine_filter(spec, PIER_PLAN, schema)
    bounded = figure_bounds(spec, refined, schema)
    mapped = (refined.param_map.get("min_free_berths") or {}).get("path")
    assert mapped == ["free_berth_count"] or any(c.get("arg") == "min_free_berths" for c in bounded.scope_checks)


# --- dated_only.only_on_checks --------------------------------------------------------------------------------------

CHARTER = {"charter_id": S, "sailing_date": {"type": "string", "format": "date"}, "fuel_pier": S}


def test_not_only_on_the_sailing_date_is_no_one_day_rule() -> None:
    from synth.envsynth.dated_only import only_on_checks

    sentence = "Boarding is not only possible on the sailing date but also on the day before it."
    assert only_on_checks(sentence, CHARTER, TODAY) == []


def test_only_on_a_place_is_no_date_rule() -> None:
    from synth.envsynth.dated_only import only_on_checks

    assert only_on_checks("Refuelling is only possible on the fuel pier.", CHARTER, TODAY) == []


# --- flag_rules: the by-name `<field>_only` fallback ---------------------------------------------------------------


def test_a_flag_documented_as_ignored_keeps_every_record() -> None:
    from synth.envsynth.flag_rules import flag_conditions

    record = {"berth_id": S, "metered": B, "size": S}
    text = "Deprecated: ignored by the harbour since metering ended; has no effect."
    assert flag_conditions("metered_only", text, record) == []


# --- kept_params._kept_in_list --------------------------------------------------------------------------------------


def test_a_parameter_said_not_to_go_to_the_history_is_not_kept_there() -> None:
    from synth.envsynth.kept_params import _kept_in_list

    props = {"charter_id": S, "history": {"type": "array"}, "status": S}
    assert not _kept_in_list(
        "Free-text reason, stored as the charter's cancel reason (not added to the history).", props
    )


def test_a_history_that_is_no_list_keeps_nothing() -> None:
    from synth.envsynth.kept_params import _kept_in_list

    assert not _kept_in_list("Kept in the history.", {"charter_id": S, "history": S})


# --- example_answers: a counted list ----------------------------------------------------------------------------


def test_an_example_counting_a_stored_list_answers_its_length() -> None:
    from synth.envsynth.example_answers import example_answer

    own = {"charter_id": S, "status": S, "crew": {"type": "array"}}
    schema = {"type": "object", "properties": {"charters": collection(own)}}
    example = {"charter_id": "C-7", "status": "boarded", "crew": 3}
    params = {"type": "object", "properties": {"charter_id": S}}
    spec = ToolSpec("board_charter", "Boards a charter.", params, returns={"type": "object", "example": example})
    sample = {"charters": {"C-7": {"charter_id": "C-7", "status": "booked", "crew": ["Ines", "Olaf", "Ana"]}}}
    plan = ToolPlan(kind="recorded_update", collection="charters", key_field="charter_id", key_param="charter_id")
    answered = example_answer(spec, plan, schema, sample, TODAY)
    assert answered.output_map.get("crew") == {"op": "len", "path": ["crew"]}


# --- entry_numbers ------------------------------------------------------------------------------------------------


def test_yes_no_marks_of_entries_are_no_numbering() -> None:
    from synth.envsynth.entry_numbers import numbered_entries

    entry = {"type": "object", "properties": {"item": S, "checked": B}}
    given = {"type": "array", "items": {"type": "object", "properties": {"item": S}}}
    own = {"survey_id": S, "items": {"type": "array", "items": entry}}
    schema = {"type": "object", "properties": {"surveys": collection(own)}}
    spec = ToolSpec("log_survey", "Logs a hull survey.", {"type": "object", "properties": {"items": given}})
    plan = ToolPlan(kind="create", collection="surveys", key_field="survey_id", fields=["items"])
    sample = {
        "surveys": {
            "V1": {
                "survey_id": "V1",
                "items": [{"item": "keel", "checked": True}, {"item": "rudder", "checked": True}],
            },
            "V2": {"survey_id": "V2", "items": [{"item": "mast", "checked": True}]},
        }
    }
    assert numbered_entries(spec, plan, schema, sample) == plan  # True == 1, yet no place number


# --- trace_rows.learned_rows ----------------------------------------------------------------------------------------

ROW_PLAN = ToolPlan(kind="filter", collection="berths", key_field="berth_id", filter_params=["size"])


def _listed(state: dict[str, Any], args: dict[str, Any], keys: list[str]) -> TestCase:
    return TestCase(
        tool="find_berths",
        origin="recorded",
        state=state,
        arguments=args,
        expect_error=False,
        expect_result=[state["berths"][k] for k in keys],
        has_expected_result=True,
    )


def test_a_reference_reads_the_piers_it_names_when_keys_are_numbers() -> None:
    from synth.envsynth.trace_rows import learned_rows

    def berth(key: str, pier: int, size: str, crane: int) -> dict[str, Any]:
        return {"berth_id": key, "pier_id": pier, "size": size, "crane_id": crane}

    berths = {
        b["berth_id"]: b
        for b in [
            berth("B1", 1, "small", 1),
            berth("B2", 2, "small", 2),  # on the silted pier
            berth("B3", 1, "large", 3),
            berth("B4", 2, "large", 1),  # on the silted pier
            berth("B5", 3, "small", 2),
        ]
    }
    piers = {str(i): {"pier_id": i, "status": s} for i, s in ((1, "open"), (2, "silted"), (3, "open"))}
    cranes = {str(i): {"crane_id": i, "status": "working"} for i in (1, 2, 3)}
    state = {"berths": berths, "piers": piers, "cranes": cranes}
    recorded = [_listed(state, {"size": "small"}, ["B1", "B5"]), _listed(state, {"size": "large"}, ["B3"])]
    outputs = [[berths[k] for k in ("B1", "B2", "B5")], [berths[k] for k in ("B3", "B4")]]
    learned = learned_rows(ROW_PLAN, recorded, outputs, None)
    assert learned is not None
    assert {"op": "linked", "via": "pier_id", "collection": "piers", "field": "status", "dropped": ["silted"]} in (
        learned.scope_checks
    )


def test_an_argument_dropping_records_on_both_sides_is_no_bound() -> None:
    from synth.envsynth.trace_rows import learned_rows

    def berth(key: str, pier: int, size: str) -> dict[str, Any]:
        return {"berth_id": key, "pier_number": pier, "size": size}

    berths = {
        b["berth_id"]: b
        for b in [
            berth("B1", 1, "small"),
            berth("B2", 2, "small"),
            berth("B3", 3, "large"),
            berth("B4", 2, "large"),
            berth("B5", 3, "small"),
            berth("B6", 1, "large"),
        ]
    }
    state = {"berths": berths}
    # the real system lists the berths of the pier asked for: pier 2 leaves out pier 1 and pier 3 alike
    recorded = [_listed(state, {"pier": 2}, ["B2", "B4"]), _listed(state, {"pier": 3}, ["B3", "B5"])]
    outputs = [list(berths.values()), list(berths.values())]
    learned = learned_rows(ROW_PLAN, recorded, outputs, None)
    bounds = [c for c in (learned.scope_checks if learned else []) if c["op"] == "bound" and c["arg"] == "pier"]
    assert bounds == []  # ">=" keeps pier 3 for pier 2, which the system left out


# --- trace_outputs._own_reading ------------------------------------------------------------------------------------

CHARTER_PLAN = ToolPlan(kind="filter", collection="charters", key_field="charter_id", filter_params=["skipper"])


def _charters(records: dict[str, Any], key: str, extra: dict[str, Any]) -> TestCase:
    skipper = records[key]["skipper"]
    return TestCase(
        tool="list_charters",
        origin="recorded",
        state={"charters": records},
        arguments={"skipper": skipper},
        expect_error=False,
        expect_result=[{"charter_id": key, "skipper": skipper, **extra}],
        has_expected_result=True,
    )


def test_a_constant_answer_is_not_read_off_an_unrelated_key() -> None:
    from synth.envsynth.trace_outputs import answered_fields

    records = {
        "C1": {"charter_id": "C1", "skipper": "Ines", "fare": {"base": 30.0, "discount": 0.0}},
        "C2": {"charter_id": "C2", "skipper": "Olaf", "fare": {"base": 12.0, "discount": 0.0}},
    }
    recorded = [_charters(records, "C1", {"deposit": 0.0}), _charters(records, "C2", {"deposit": 0.0})]
    learned = answered_fields(CHARTER_PLAN, recorded)
    assert learned is None or learned.output_map.get("deposit") != {"op": "nested", "path": ["fare", "discount"]}


def test_an_object_field_holding_text_in_one_record_does_not_crash() -> None:
    from synth.envsynth.trace_outputs import answered_fields

    records = {
        "C1": {"charter_id": "C1", "skipper": "Ines", "fare": {"base": 30.0, "total": 36.0}},
        "C2": {"charter_id": "C2", "skipper": "Olaf", "fare": "waived"},
    }
    recorded = [_charters(records, "C1", {"total": 36.0}), _charters(records, "C2", {"total": 0.0})]
    learned = answered_fields(CHARTER_PLAN, recorded)  # raises AttributeError: 'str' object has no attribute 'get'
    assert learned is None or learned.output_map.get("total") != {"op": "nested", "path": ["fare", "total"]}


# --- trace_switch.learn_cases (through trace_learn._learned) -------------------------------------------------------


def _paid(method: str, total: float, skipper: str, key: str) -> tuple[Any, dict[str, Any], dict[str, Any], dict]:
    note = {"card": f"Paid {total:.2f} by card", "account": f"Billed {total:.2f} to {skipper}"}.get(method)
    note = note or f"Paid {total:.2f} from harbour credit"
    return note, {"charter_id": key, "method": method}, {"charter_id": key, "total": total, "skipper": skipper}, {}


def test_a_part_whose_two_samples_agree_still_reads_the_total() -> None:
    """Two credit payments of the same 17.00 dues: the shared money figure is still the record's total (fixed in
    session 47, entry_texts._search reads a shared two-decimal figure before the literal)."""
    from synth.envsynth.codegen import _pysource, header_source
    from synth.envsynth.trace_learn import _learned

    samples = [
        _paid("card", 28.0, "Ines", "C1"),
        _paid("card", 214.4, "Olaf", "C2"),
        _paid("account", 152.0, "Bay Club", "C3"),
        _paid("account", 124.0, "Reef Club", "C4"),
        _paid("credit", 17.0, "Ines", "C5"),  # the standard harbour dues, paid twice from credit
        _paid("credit", 17.0, "Olaf", "C6"),
    ]
    source = _learned(samples, "charter_id")
    assert source is not None
    ns: dict[str, Any] = {}
    exec(header_source("harbour", "0.0", "fg_text()"), ns)
    exec("def dig_t(node, path):\n    for p in path:\n        node = node.get(p)\n    return node\n", ns)
    note, args, record, _ = _paid("credit", 48.6, "Ines", "C7")
    assert eval(_pysource(source, "t"), {**ns, "arguments": args, "record": record, "env_state": {}}) == note
