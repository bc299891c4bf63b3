"""Readers added in session 46, each fed made-up harbour docs and data:

- entry_texts.learned_text with text_clauses: a clause spelling a yes/no field's name ("..., fuel returned") is
  written only while that field is true; a number the entries of a list add up to is that sum; a value the words
  before it name ("plan v1" for `plan_version`) is the field's even where every sample holds the same;
- stated_fields.flag_sets: "`fuel_drawn` becomes true" sets the flag, not in a condition or a bullet of one state;
- entry_moves.each_entry_moves: "checked against `fuel_litres` ... and then taken from stock" moves each line's
  one count off the number it names on the linked record;
- end to end, a `by_mode` answer whose accepting value draws the fuel, sets the flag and logs its entry as the
  data's entries of that kind are written; with recorded calls, its other value's log learned from them
  (trace_modes.mode_variants);
- docs_entries: an entry written like its mirror kind's turns the data's verb ("removed" for "added");
- entry_texts.with_argument_keys and text_clauses.settled_flags: a text reading a key of an object the change never
  writes reads the argument of that name, and a flag of such an object keeps its clause as the data wrote it.
"""

from __future__ import annotations

import json

import synth
from synth.data import grounded_state_schema
from synth.envsynth.codegen import header_source, render_tool
from synth.envsynth.entry_moves import each_entry_moves
from synth.envsynth.entry_texts import learned_text
from synth.envsynth.mode_rules import mode_transition
from synth.envsynth.plan import ToolPlan
from synth.envsynth.stated_fields import flag_sets
from synth.sandbox import run_cases
from synth.spec import DocSet, ToolSpec

CANCELLED = {"prev": "boarding", "fee": 8.4, "fuel_returned": True}


# --- learned texts ------------------------------------------------------------------------------------------------


def test_a_clause_spelling_a_true_flag_is_written_only_while_it_is_true() -> None:
    record = {"cancellation": CANCELLED, "status": "cancelled"}
    found = learned_text([("gale; cancelled from boarding, fee 8.40, fuel returned", record, [])])
    assert found is not None and found["from"] == "concat"
    flag = found["parts"][-1]
    assert flag == {
        "from": "flag",
        "test": {"from": "record", "path": ["cancellation", "fuel_returned"]},
        "then": {"from": "const", "value": ", fuel returned"},
    }
    assert all(not isinstance(p, str) or "fuel returned" not in p for p in found["parts"])


def test_a_clause_naming_no_true_flag_stays_literal() -> None:
    held = {"cancellation": {**CANCELLED, "fuel_returned": False}, "status": "cancelled"}
    found = learned_text([("gale; cancelled from boarding, fee 8.40, fuel returned", held, [])])
    assert found is not None
    assert not any(isinstance(p, dict) and p.get("from") == "flag" for p in found["parts"])
    assert found["parts"][-1].endswith(", fuel returned")


def test_a_number_the_lines_add_up_to_is_their_sum() -> None:
    samples = [
        ("plan v1 accepted; 500 litre(s) drawn", {"plan_version": 1, "lines": [{"q": 200}, {"q": 300}]}, []),
        ("plan v1 accepted; 40 litre(s) drawn", {"plan_version": 1, "lines": [{"q": 40}]}, []),
    ]
    found = learned_text(samples)
    assert found is not None
    assert {"from": "sum", "list": "lines", "field": "q"} in found["parts"]
    assert {"from": "record", "path": ["plan_version"]} in found["parts"]  # "plan v1": named, though shared


def test_a_plain_template_wins_over_a_sum() -> None:
    samples = [
        ("2 boat(s) moored", {"boats": 2, "lines": [{"q": 2}]}, []),
        ("5 boat(s) moored", {"boats": 5, "lines": [{"q": 5}]}, []),
    ]
    found = learned_text(samples)
    assert found is not None and {"from": "record", "path": ["boats"]} in found["parts"]


def test_a_shared_value_the_words_before_do_not_name_stays_literal() -> None:
    samples = [
        ("berth 7 of pier 1", {"berth": 7, "rank": 1}, []),
        ("berth 9 of pier 1", {"berth": 9, "rank": 1}, []),
    ]
    found = learned_text(samples)
    assert found == {"from": "concat", "parts": ["berth ", {"from": "record", "path": ["berth"]}, " of pier 1"]}


# --- flag_sets and each_entry_moves ---------------------------------------------------------------------------------

PROPS = {"fuel_drawn": {"type": "boolean"}, "status": {"type": "string"}, "crew": {"type": "integer"}}


def test_a_flag_the_docs_turn_on_is_set() -> None:
    text = "The fuel is drawn; `fuel_drawn` becomes true and the status becomes `accepted`."
    assert flag_sets(text, PROPS, {"status"}) == [
        {"op": "set", "field": "fuel_drawn", "source": {"from": "const", "value": True}}
    ]


def test_a_flag_set_under_a_condition_or_in_a_state_bullet_is_left_alone() -> None:
    assert flag_sets("If the fuel runs short, fuel_drawn becomes false.", PROPS, set()) == []
    assert flag_sets("- boarding: the fuel goes back (fuel_drawn becomes false).", PROPS, set()) == []
    assert flag_sets("crew becomes true.", PROPS, set()) == []  # not a yes/no field
    assert flag_sets("fuel_drawn becomes true.", PROPS, {"fuel_drawn"}) == []  # set already


SCHEMA = {
    "type": "object",
    "properties": {
        "charters": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "lines": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"depot_id": {"type": "string"}, "quantity": {"type": "integer"}},
                        },
                    }
                },
            },
        },
        "depots": {
            "type": "object",
            "additionalProperties": {"type": "object", "properties": {"fuel_litres": {"type": "integer"}}},
        },
    },
}


def test_a_sentence_naming_the_linked_number_moves_each_line_count() -> None:
    text = "The fuel is checked against fuel_litres once more and then taken from stock.\nErrors: not enough fuel."
    (move,) = each_entry_moves(text, "charters", SCHEMA)
    assert move["list"] == "lines" and move["field"] == "fuel_litres" and move["amount"] == "quantity"
    assert move["sign"] == -1 and move["checked"] is True


def test_a_state_bullet_or_an_unnamed_number_moves_nothing() -> None:
    assert each_entry_moves("- boarding: the fuel is taken from fuel_litres.", "charters", SCHEMA) == []
    assert each_entry_moves("The fuel is taken from stock.", "charters", SCHEMA) == []


# --- end to end: a by_mode answer ----------------------------------------------------------------------------------

ANSWER_TEXT = (
    'Record the skipper\'s answer to the sailing plan sent for a charter. Only charters in status "plan_sent" have '
    "a plan awaiting an answer.\n\n"
    'decision = "accept": the fuel for the whole charter is checked against fuel_litres once more and then taken '
    'from stock; fuel_drawn becomes true, the status becomes "accepted", and a "plan_accepted" history entry is '
    "logged.\n\n"
    'decision = "revise": comments are required. The charter goes back to "drafted".\n\n'
    "Errors: unknown charter; not enough fuel to accept."
)
ANSWER_PARAMS = {
    "type": "object",
    "properties": {
        "charter_id": {"type": "string"},
        "decision": {"type": "string", "enum": ["accept", "revise"]},
        "comments": {"type": "string"},
    },
    "required": ["charter_id", "decision"],
}
POLICY = "The harbour desk's current business date is 2031-04-02."


def _charter(cid: str, status: str, lines: list[tuple[str, int]], version: int = 1) -> dict:
    drawn = status == "accepted"
    history = [{"date": "2031-03-20", "event": "drafted", "note": "new plan"}]
    if drawn:
        total = sum(q for _, q in lines)
        history.append(
            {
                "date": "2031-03-25",
                "event": "plan_accepted",
                "note": f"plan v{version} accepted; {total} litre(s) drawn",
            }
        )
    return {
        "charter_id": cid,
        "status": status,
        "plan_version": version,
        "fuel_drawn": drawn,
        "lines": [{"line_id": f"L{i + 1}", "depot_id": d, "quantity": q} for i, (d, q) in enumerate(lines)],
        "history": history,
    }


DATA = {
    "charters": {
        "CH-1": _charter("CH-1", "accepted", [("DP-1", 200), ("DP-2", 300)]),
        "CH-2": _charter("CH-2", "accepted", [("DP-1", 40)]),
        "CH-3": _charter("CH-3", "accepted", [("DP-2", 120), ("DP-1", 5)]),
        "CH-4": _charter("CH-4", "plan_sent", [("DP-1", 30), ("DP-2", 20)], version=2),
        "CH-5": _charter("CH-5", "drafted", [("DP-2", 10)]),
        "CH-6": _charter("CH-6", "drafted", [("DP-1", 60)]),
        "CH-7": _charter("CH-7", "plan_sent", [("DP-1", 15)]),
        "CH-8": _charter("CH-8", "drafted", [("DP-2", 5)]),
    },
    "depots": {
        "DP-1": {"depot_id": "DP-1", "fuel_litres": 1000},
        "DP-2": {"depot_id": "DP-2", "fuel_litres": 15},
        "DP-3": {"depot_id": "DP-3", "fuel_litres": 40},
        "DP-4": {"depot_id": "DP-4", "fuel_litres": 0},
    },
}


def _answer_module(tmp_path) -> tuple[str, dict]:
    path = tmp_path / "data.json"
    path.write_text(json.dumps(DATA))
    spec = ToolSpec("answer_plan", ANSWER_TEXT, ANSWER_PARAMS)
    schema = grounded_state_schema(DocSet(tools=[spec], policy=POLICY), str(path)).state_schema
    base = ToolPlan(kind="update", collection="charters", key_field="charter_id", key_param="charter_id")
    plan = mode_transition(spec, base, schema, POLICY, list(DATA["charters"].values()), DATA)
    assert plan is not None and plan.kind == "by_mode"
    source = render_tool(spec, plan, schema)
    return header_source("check", synth.PIPELINE_VERSION, source) + "\n\n" + source, schema


def test_accepting_draws_the_fuel_sets_the_flag_and_logs_as_the_data_does(tmp_path) -> None:
    module, _ = _answer_module(tmp_path)
    state = json.loads(json.dumps(DATA))
    state["depots"]["DP-2"]["fuel_litres"] = 500
    (done,) = run_cases(
        module, [{"function": "answer_plan", "state": state, "arguments": {"charter_id": "CH-4", "decision": "accept"}}]
    )
    assert done.status == "ok", done.error
    after = done.state_after["charters"]["CH-4"]
    assert after["status"] == "accepted" and after["fuel_drawn"] is True
    assert after["history"][-1] == {
        "date": "2031-04-02",
        "event": "plan_accepted",
        "note": "plan v2 accepted; 50 litre(s) drawn",
    }
    assert (
        done.state_after["depots"]["DP-1"]["fuel_litres"] == 970
        and done.state_after["depots"]["DP-2"]["fuel_litres"] == 480
    )


def test_accepting_without_the_fuel_on_hand_is_refused(tmp_path) -> None:
    module, _ = _answer_module(tmp_path)
    (short,) = run_cases(
        module, [{"function": "answer_plan", "state": DATA, "arguments": {"charter_id": "CH-4", "decision": "accept"}}]
    )
    assert short.status == "tool_error"  # DP-2 holds 15 of the 20 litres the second line needs


# --- trace_modes: one value's behaviour learned from its recorded calls ---------------------------------------------


def _revise_call(cid: str, comments: str) -> dict:
    from synth.fidelity.diff import change_list, leaf_changes

    state = json.loads(json.dumps(DATA))
    after = json.loads(json.dumps(state))
    charter = after["charters"][cid]
    charter["status"] = "drafted"
    charter["history"].append(
        {"date": "2031-04-02", "event": "revision_asked", "note": f"plan v{charter['plan_version']}: {comments}"}
    )
    return {
        "name": "answer_plan",
        "arguments": {"charter_id": cid, "decision": "revise", "comments": comments},
        "ok": True,
        "output": charter,
        "changes": change_list(leaf_changes(state, after)),
        "state": state,
    }


def test_a_value_the_docs_leave_unlogged_is_learned_from_its_recorded_calls(tmp_path) -> None:
    from synth.envsynth.plan_choice import candidate_plans
    from synth.envsynth.trace_modes import mode_variants
    from tests.recorded import recorded_cases

    _, schema = _answer_module(tmp_path)
    spec = ToolSpec("answer_plan", ANSWER_TEXT, ANSWER_PARAMS)
    base = ToolPlan(kind="update", collection="charters", key_field="charter_id", key_param="charter_id")
    plan = mode_transition(spec, base, schema, POLICY, list(DATA["charters"].values()), DATA)
    rows = [_revise_call("CH-4", "move the stop to Tern Island"), _revise_call("CH-7", "sail at dawn")]
    recorded = recorded_cases(tmp_path / "r.jsonl", rows, "answer_plan")
    variants = mode_variants(spec, plan, recorded)
    assert variants and all(v.kind == "by_mode" for v in variants)
    assert all(v.modes["accept"] == plan.modes["accept"] for v in variants)  # the other value keeps the docs'
    assert any(v in candidate_plans(spec, plan, recorded) for v in variants)
    note = {
        "from": "concat",
        "parts": ["plan v", {"from": "record", "path": ["plan_version"]}, ": ", {"from": "arg", "name": "comments"}],
    }
    logged = [
        e
        for v in variants
        for e in v.modes["revise"]["plan"]["effects"]
        if e["op"] == "append" and e["items"][0]["fields"].get("note") == note
    ]
    assert logged, [v.modes["revise"]["plan"]["effects"] for v in variants]
    assert mode_variants(spec, plan, recorded[:1]) == []  # one call is no rule


def test_a_plan_without_modes_has_no_mode_variants() -> None:
    from synth.envsynth.trace_modes import mode_variants

    plain = ToolPlan(kind="update", collection="charters", key_param="charter_id")
    assert mode_variants(ToolSpec("answer_plan", ANSWER_TEXT, ANSWER_PARAMS), plain, []) == []


# --- docs_entries: a mirrored entry turns the data's verb ------------------------------------------------------------


def test_an_entry_written_like_its_mirror_turns_the_verb() -> None:
    from synth.envsynth.docs_entries import named_entries

    line = {"type": "object", "properties": {"hull_id": {"type": "string"}, "fee": {"type": "number"}}}
    log = {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"event": {"type": "string", "x-enum": ["moored", "hull_added"]}, "note": {"type": "string"}},
        },
    }
    own = {"charter_id": {"type": "string"}, "hulls": {"type": "array", "items": line}, "log": log}

    def charter(key: str, hull: str, fee: float) -> dict:
        entry = {"event": "hull_added", "note": f"{hull} added, {fee:.2f} fee"}
        return {"charter_id": key, "hulls": [{"hull_id": hull, "fee": fee}], "log": [entry]}

    records = [charter("C1", "HL-4", 12.0), charter("C2", "HL-7", 30.5)]
    text = 'Takes a hull off a charter. A "hull_removed" log entry is written.'
    params = {"type": "object", "properties": {"charter_id": {"type": "string"}, "hull_id": {"type": "string"}}}
    (entry,) = named_entries(text, "charter", own, params, records, None, "hulls", True)
    note = entry["items"][0]["fields"]["note"]
    assert note["parts"][1] == " removed, " and "added" not in json.dumps(note)


# --- entry_texts.with_argument_keys ---------------------------------------------------------------------------------


def _cancel_effects() -> tuple[dict, dict, list[dict]]:
    flag = {
        "from": "flag",
        "test": {"from": "record", "path": ["cancellation", "fuel_returned"]},
        "then": {"from": "const", "value": "; fuel returned"},
    }
    note = {"from": "concat", "parts": ["Cancelled: ", {"from": "record", "path": ["cancellation", "reason"]}, flag]}
    effects = [
        {"op": "set", "field": "status", "source": {"from": "const", "value": "cancelled"}},
        {"op": "append", "field": "log", "items": [{"fields": {"note": note}}]},
    ]
    return flag, note, effects


def test_an_entry_reading_an_unwritten_object_key_named_as_a_parameter_reads_the_argument() -> None:
    from synth.envsynth.entry_texts import with_argument_keys

    flag, note, effects = _cancel_effects()
    params = {"charter_id": {"type": "string"}, "reason": {"type": "string"}}
    (_, logged) = with_argument_keys(effects, params)
    parts = logged["items"][0]["fields"]["note"]["parts"]
    assert parts == ["Cancelled: ", {"from": "arg", "name": "reason", "default": ""}, flag]
    written = effects + [{"op": "set", "field": "cancellation", "source": {"from": "const", "value": {}}}]
    (_, kept, _) = with_argument_keys(written, params)  # the call writes the object: its keys are read as written
    assert kept["items"][0]["fields"]["note"] == note


def test_a_flag_of_an_object_the_plan_never_writes_keeps_its_clause() -> None:
    from synth.envsynth.text_clauses import settled_flags

    flag, note, effects = _cancel_effects()
    (_, logged) = settled_flags(effects)
    assert logged["items"][0]["fields"]["note"]["parts"][-1] == flag["then"]
    written = effects + [{"op": "set", "field": "cancellation", "source": {"from": "const", "value": {}}}]
    assert settled_flags(written) == written  # written by the plan (a later stage may add it): the flag is read
    spec = ToolSpec("cancel_charter", "Cancels a charter.", {"type": "object", "properties": {}})
    plan = ToolPlan(kind="recorded_update", collection="charters", key_field="charter_id", key_param="charter_id")
    plan = ToolPlan.from_dict({**plan.to_dict(), "effects": effects})
    code = render_tool(spec, plan, {"type": "object", "properties": {}})
    assert "'; fuel returned'" in code and "fuel_returned" not in code  # the clause, not a test of the flag
