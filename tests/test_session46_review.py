"""Review of the session-46 readers (text_clauses, _spelt_before, flag_sets, implicit entry moves, trace_modes,
the `sum` source's code), fed made-up harbour docs and data. The fifteen misfires the review found are fixed; each
test here asserts what the reader should do."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import synth
from synth.envsynth.codegen import DIG, _pysource, header_source
from synth.envsynth.entry_moves import each_entry_moves
from synth.envsynth.entry_texts import learned_text
from synth.envsynth.stated_fields import flag_sets
from synth.envsynth.text_clauses import with_sums

# --- helpers ------------------------------------------------------------------------------------------------------


def _run(source: dict[str, Any], record: dict[str, Any]) -> Any:
    """The value a learned source's generated code gives for a record."""
    expr = _pysource(source, "t")
    module = header_source("check", synth.PIPELINE_VERSION, expr) + DIG.format(fn="t")
    ns: dict[str, Any] = {}
    exec(compile(module, "<review>", "exec"), ns)
    return eval(expr, {**ns, "record": record, "arguments": {}, "env_state": {}})


def _nodes(node: Any) -> list[dict[str, Any]]:
    """Every dict inside a source, itself included."""
    if isinstance(node, list):
        return [n for v in node for n in _nodes(v)]
    if not isinstance(node, dict):
        return []
    return [node] + [n for v in node.values() for n in _nodes(v)]


def _sums(found: Any) -> list[dict[str, Any]]:
    return [n for n in _nodes(found) if n.get("from") == "sum"]


# --- flagged clauses ----------------------------------------------------------------------------------------------


def test_a_mid_text_flag_clause_is_dropped_cleanly_when_the_flag_is_false() -> None:
    samples = [
        ("boat B1 out, fuel returned, fee 3", {"boat": "B1", "fee": 3, "fuel_returned": True}, []),
        ("boat B2 out, fuel returned, fee 4", {"boat": "B2", "fee": 4, "fuel_returned": True}, []),
    ]
    found = learned_text(samples)
    assert found is not None
    assert _run(found, {"boat": "B7", "fee": 9, "fuel_returned": True}) == "boat B7 out, fuel returned, fee 9"
    assert _run(found, {"boat": "B7", "fee": 9, "fuel_returned": False}) == "boat B7 out, fee 9"


def test_a_clause_that_goes_on_past_the_flag_words_stays_literal() -> None:
    samples = [
        ("boat B1 out, fuel returned late", {"boat": "B1", "fuel_returned": True}, []),
        ("boat B2 out, fuel returned late", {"boat": "B2", "fuel_returned": True}, []),
    ]
    found = learned_text(samples)
    assert found == {
        "from": "concat",
        "parts": ["boat ", {"from": "record", "path": ["boat"]}, " out, fuel returned late"],
    }


def test_a_flag_true_in_only_some_samples_keeps_the_clause_literal() -> None:
    samples = [
        ("boat B1 out, fuel returned", {"boat": "B1", "fuel_returned": True}, []),
        ("boat B2 out, fuel returned", {"boat": "B2", "fuel_returned": False}, []),
    ]
    found = learned_text(samples)
    assert found is not None and not [n for n in _nodes(found) if n.get("from") == "flag"]


def test_a_flag_clause_opening_a_parenthesis_does_not_leave_it_unbalanced() -> None:
    samples = [
        ("cancelled (fuel returned, fee 8.40)", {"fee": 8.4, "fuel_returned": True, "pier": "P1"}, []),
        ("cancelled (fuel returned, fee 3.10)", {"fee": 3.1, "fuel_returned": True, "pier": "P1"}, []),
    ]
    found = learned_text(samples)
    assert found is not None
    assert _run(found, {"fee": 8.4, "fuel_returned": True}) == "cancelled (fuel returned, fee 8.40)"
    held = _run(found, {"fee": 2.0, "fuel_returned": False})
    assert held.count("(") == held.count(")"), held


# --- sums ---------------------------------------------------------------------------------------------------------


def test_a_float_sum_is_learned_and_written_without_float_noise() -> None:
    samples = [
        ("0.3 t of ballast loaded", {"hull": "H1", "loads": [{"t": 0.1}, {"t": 0.2}]}, []),
        ("0.7 t of ballast loaded", {"hull": "H2", "loads": [{"t": 0.3}, {"t": 0.4}]}, []),
    ]
    found = learned_text(samples)
    assert _sums(found) == [{"from": "sum", "list": "loads", "field": "t"}]
    assert _run(found, {"loads": [{"t": 0.1}, {"t": 0.2}]}) == "0.3 t of ballast loaded"
    assert _run(found, {"loads": [{"t": 1.1}, {"t": 2.2}]}) == "3.3 t of ballast loaded"


def test_a_whole_float_sum_is_written_as_the_data_writes_it() -> None:
    samples = [
        ("500 litre(s) fuelled", {"lines": [{"q": 200.0}, {"q": 300.0}]}, []),
        ("40 litre(s) fuelled", {"lines": [{"q": 40.0}]}, []),
    ]
    found = learned_text(samples)
    assert found is not None and _sums(found)
    assert _run(found, {"lines": [{"q": 12.0}, {"q": 3.0}]}) == "15 litre(s) fuelled"


def test_the_sum_code_skips_flags_blanks_and_odd_entries() -> None:
    source = {"from": "sum", "list": "lines", "field": "q"}
    assert _run(source, {"lines": [{"q": 2}, {"q": True}, {"q": None}, "buoy", {"q": 0.5}, {}]}) == 2.5
    assert _run(source, {"lines": None}) == 0 and _run(source, {}) == 0 and _run(source, {"lines": []}) == 0


def test_with_sums_leaves_odd_lists_alone_and_never_counts_a_flag_as_one() -> None:
    record = {
        "empty": [],
        "names": ["Tern", "Gull"],
        "mixed": [{"q": 1}, "buoy"],
        "crew": [{"aboard": True, "share": 2}, {"aboard": True, "share": 3}],
        "flagged": [{"n": True}, {"n": 2}],
        "gaps": [{"n": 1}, {"n": None}],
    }
    out = with_sums(record)
    added = {k: v for k, v in out.items() if k not in record}
    assert added == {"crew#sum#share": 5}
    assert {k: out[k] for k in record} == record


def test_a_three_decimal_total_is_found() -> None:
    samples = [
        ("1.125 t of ballast loaded", {"hull": "H1", "loads": [{"t": 0.5}, {"t": 0.625}]}, []),
        ("0.875 t of ballast loaded", {"hull": "H2", "loads": [{"t": 0.25}, {"t": 0.625}]}, []),
    ]
    found = learned_text(samples)
    assert _sums(found) == [{"from": "sum", "list": "loads", "field": "t"}]


def test_two_samples_counting_a_list_are_not_read_as_a_sum() -> None:
    samples = [
        ("2 berth(s) held", {"skipper": "Ana", "berths": [{"nights": 1}, {"nights": 1}]}, []),
        ("1 berth(s) held", {"skipper": "Bo", "berths": [{"nights": 1}]}, []),
    ]
    assert not _sums(learned_text(samples))


def test_three_samples_counting_a_list_are_its_count_not_a_sum() -> None:
    samples = [
        ("2 berth(s) held", {"skipper": "Ana", "berths": [{"nights": 1}, {"nights": 1}]}, []),
        ("1 berth(s) held", {"skipper": "Bo", "berths": [{"nights": 1}]}, []),
        ("3 berth(s) held", {"skipper": "Cy", "berths": [{"nights": 1}, {"nights": 1}, {"nights": 1}]}, []),
    ]
    found = learned_text(samples)
    assert found == {"from": "concat", "parts": [{"from": "count", "path": ["berths"]}, " berth(s) held"]}


def test_a_sum_two_lists_share_is_read_the_same_whatever_the_key_order() -> None:
    def sample(boat: str, lines: list[int], spares: list[int], reverse: bool) -> tuple[str, dict[str, Any], list]:
        items = [("boat", boat), ("lines", [{"q": n} for n in lines]), ("spares", [{"q": n} for n in spares])]
        record = dict(reversed(items) if reverse else items)
        return (f"{sum(lines)} litre(s) for {boat}", record, [])

    forward = [sample("B1", [20, 30], [50], False), sample("B2", [4, 5], [9], False)]
    backward = [sample("B1", [20, 30], [50], True), sample("B2", [4, 5], [9], True)]
    found = learned_text(forward)
    assert found is not None and found == learned_text(backward)
    assert _sums(found) == [{"from": "sum", "list": "lines", "field": "q"}]


# --- values the words before them name ----------------------------------------------------------------------------


def test_a_shared_value_after_a_longer_word_than_the_field_stays_literal() -> None:
    samples = [
        ("boat B1 docked 3 days", {"boat": "B1", "dock": 3}, []),
        ("boat B2 docked 3 days", {"boat": "B2", "dock": 3}, []),
    ]
    found = learned_text(samples)
    assert found == {"from": "concat", "parts": ["boat ", {"from": "record", "path": ["boat"]}, " docked 3 days"]}


def test_rev_names_the_revision_even_when_every_sample_shares_it() -> None:
    samples = [
        ("hull rev 3 surveyed at berth 7", {"revision": 3, "berth": 7}, []),
        ("hull rev 3 surveyed at berth 9", {"revision": 3, "berth": 9}, []),
    ]
    found = learned_text(samples)
    assert {"from": "record", "path": ["revision"]} in found["parts"]


def test_a_singular_noun_before_a_number_does_not_name_a_plural_count() -> None:
    samples = [
        ("moved to berth 2, skipper Ana", {"berths": 2, "skipper": "Ana"}, []),
        ("moved to berth 2, skipper Bo", {"berths": 2, "skipper": "Bo"}, []),
    ]
    found = learned_text(samples)
    assert found == {"from": "concat", "parts": ["moved to berth 2, skipper ", {"from": "record", "path": ["skipper"]}]}


# --- flag_sets ----------------------------------------------------------------------------------------------------

FLAGS = {"fuel_drawn": {"type": "boolean"}, "moored": {"type": "boolean"}, "status": {"type": "string"}}


def _flags(text: str) -> list[tuple[str, Any]]:
    return [(e["field"], e["source"]["value"]) for e in flag_sets(text, FLAGS, set())]


def test_a_negated_or_unchanged_flag_is_not_set() -> None:
    assert _flags("`fuel_drawn` never becomes true.") == []
    assert _flags("The status becomes `moored`; fuel_drawn remains false.") == []
    assert _flags("fuel_drawn does not become true.") == []
    assert _flags("`fuel_drawn` is never set to true.") == []


def test_two_flags_in_one_sentence_are_both_set() -> None:
    assert _flags("`fuel_drawn` is set to `True`; `moored` turns false.") == [("fuel_drawn", True), ("moored", False)]
    assert _flags("The charter is moored.\n`moored` becomes true.") == [("moored", True)]


def test_a_whenever_clause_does_not_set_the_flag() -> None:
    assert _flags("Whenever the tank runs dry, `fuel_drawn` becomes false.") == []


def test_a_plain_sentence_starting_with_a_backticked_flag_is_read() -> None:
    assert _flags("If given, the skipper's note is stored. `fuel_drawn` becomes true.") == [("fuel_drawn", True)]


def test_an_if_in_a_neighbouring_clause_does_not_hide_the_flag() -> None:
    assert _flags("The skipper's comments are stored if given; `fuel_drawn` becomes true.") == [("fuel_drawn", True)]


def test_a_flag_set_with_an_exception_is_not_set_unconditionally() -> None:
    assert _flags("`fuel_drawn` becomes true, except for day sails, where it stays false.") == []


def test_a_relative_clause_about_the_flag_does_not_set_it() -> None:
    assert _flags("A charter whose `fuel_drawn` becomes true can no longer be revised.") == []


# --- implicit entry moves -----------------------------------------------------------------------------------------


def _schema(extra_lists: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    def listed(props: dict[str, Any]) -> dict[str, Any]:
        return {"type": "array", "items": {"type": "object", "properties": props}}

    lines = {"lines": listed({"depot_id": {"type": "string"}, "quantity": {"type": "integer"}})}
    lines.update({k: listed(v) for k, v in (extra_lists or {}).items()})
    return {
        "type": "object",
        "properties": {
            "charters": {"type": "object", "additionalProperties": {"type": "object", "properties": lines}},
            "depots": {
                "type": "object",
                "additionalProperties": {"type": "object", "properties": {"fuel_litres": {"type": "integer"}}},
            },
        },
    }


def _moves(text: str, schema: dict[str, Any] | None = None) -> list[tuple[str, str, str, int]]:
    found = each_entry_moves(text, "charters", schema or _schema())
    return [(e["list"], e["field"], e["amount"], e["sign"]) for e in found]


def test_a_backticked_linked_number_moves_and_goes_back_with_the_right_sign() -> None:
    assert _moves("The fuel is drawn from `fuel_litres`.") == [("lines", "fuel_litres", "quantity", -1)]
    assert _moves("On cancel the fuel goes back into fuel_litres.") == [("lines", "fuel_litres", "quantity", 1)]


def test_an_implicit_move_needs_the_literal_name_a_plain_bullet_and_one_count() -> None:
    assert _moves("The fuel is taken from fuel litres.") == []  # spaced: not the field named literally
    assert _moves("* boarding: the fuel is taken from fuel_litres.") == []
    two_counts = copy.deepcopy(_schema())
    items = two_counts["properties"]["charters"]["additionalProperties"]["properties"]["lines"]["items"]
    items["properties"]["units"] = {"type": "integer"}
    assert _moves("The fuel is taken from fuel_litres.", two_counts) == []


def test_a_stock_check_sentence_moves_nothing() -> None:
    assert _moves("The litres drawn from a depot must not exceed its fuel_litres.") == []


def test_fuel_that_is_not_returned_is_not_put_back() -> None:
    assert _moves("Fuel already drawn is not returned to stock; fuel_litres is left as it is.") == []


def test_a_negated_draw_moves_nothing() -> None:
    assert _moves("Nothing is taken from fuel_litres.") == []
    assert _moves("The fuel is never taken from fuel_litres; it is only checked.") == []


def test_an_unnamed_move_with_two_candidate_lists_is_not_applied_twice() -> None:
    schema = _schema({"spares": {"depot_id": {"type": "string"}, "quantity": {"type": "integer"}}})
    assert len(_moves("The fuel is taken from fuel_litres.", schema)) <= 1


def test_fuel_returned_to_the_named_number_goes_back() -> None:
    assert _moves("On a cancelled voyage the fuel is returned to fuel_litres.") == [
        ("lines", "fuel_litres", "quantity", 1)
    ]


# --- trace_modes ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def answer_plan(tmp_path_factory):
    import tests.test_session46_readers as r46
    from synth.envsynth.mode_rules import mode_transition
    from synth.envsynth.plan import ToolPlan
    from synth.spec import ToolSpec

    tmp = tmp_path_factory.mktemp("answer")
    _, schema = r46._answer_module(tmp)
    spec = ToolSpec("answer_plan", r46.ANSWER_TEXT, r46.ANSWER_PARAMS)
    base = ToolPlan(kind="update", collection="charters", key_field="charter_id", key_param="charter_id")
    plan = mode_transition(spec, base, schema, r46.POLICY, list(r46.DATA["charters"].values()), r46.DATA)
    return r46, spec, plan, tmp


def test_a_failed_recorded_call_does_not_count_towards_learning_a_value(answer_plan) -> None:
    from synth.envsynth.trace_modes import mode_variants
    from tests.recorded import recorded_cases

    r46, spec, plan, tmp = answer_plan
    refused = r46._revise_call("CH-7", "sail at dawn")
    refused.update(ok=False, output={"error": "unknown charter"}, changes=[])
    recorded = recorded_cases(tmp / "f.jsonl", [r46._revise_call("CH-4", "reef early"), refused], "answer_plan")
    assert sorted(c.expect_error for c in recorded) == [False, True]
    assert mode_variants(spec, plan, recorded) == []


def test_mode_variants_do_not_depend_on_the_order_of_the_recorded_calls(answer_plan) -> None:
    from synth.envsynth.trace_modes import mode_variants
    from tests.recorded import recorded_cases

    r46, spec, plan, tmp = answer_plan
    calls = [("CH-4", "move the stop to Tern Island"), ("CH-7", "sail at dawn")]
    one = recorded_cases(tmp / "o1.jsonl", [r46._revise_call(*c) for c in calls], "answer_plan")
    two = recorded_cases(tmp / "o2.jsonl", [r46._revise_call(*c) for c in reversed(calls)], "answer_plan")
    first = [json.dumps(v.to_dict(), sort_keys=True) for v in mode_variants(spec, plan, one)]
    assert first and first == [json.dumps(v.to_dict(), sort_keys=True) for v in mode_variants(spec, plan, two)]
