"""A keyed write learned from recorded calls (a seed library lending a packet to another branch): what it answers
(the packet as left, the branch given, the count it moved before it dropped to 0, the business date), and a text
with a tail shown only when an optional argument is given ("North (555-01)"); rendered, the plan reproduces every
recorded call, and the docs' own refusals stay in the learned plan."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synth.envsynth.codegen import render_tool
from synth.envsynth.entry_texts import learned_text
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.trace_answers import answered_write
from synth.envsynth.trace_learn import learned_variants
from synth.fidelity.diff import change_list, leaf_changes
from synth.spec import ToolSpec
from tests.recorded import recorded_cases

S = {"type": "string"}
LEND = ToolSpec(
    "lend_packet",
    "Lend a packet's remaining sowings to another branch.",
    {"type": "object", "properties": {"packet_id": S, "branch": S, "phone": S}, "required": ["packet_id", "branch"]},
)
DAY = "2030-04-02"


def _lend(key: str, sowings: int, branch: str, phone: str | None, whole: bool = False) -> dict[str, Any]:
    before = {"packet_id": key, "status": "open", "sowings": sowings, "lent_to": None, "log": []}
    where = branch + (f" ({phone})" if phone else "")
    entry = {"on": DAY, "detail": f"{sowings} sowings lent to {where}"}
    after = {**before, "status": "lent", "sowings": 0, "lent_to": where, "log": [entry]}
    state = {"packets": {key: before}}
    args = {"packet_id": key, "branch": branch, **({"phone": phone} if phone else {})}
    output = {"packet_id": key, "status": "lent", "lent_to": where, "sowings_lent": sowings, "lent_on": DAY}
    output = after if whole else output
    changes = change_list(leaf_changes(state, {"packets": {key: after}}))
    return {"name": "lend_packet", "arguments": args, "ok": True, "output": output, "changes": changes, "state": state}


def _recorded(tmp_path: Path, rows: list[dict[str, Any]]) -> list:
    return recorded_cases(tmp_path / "t.jsonl", rows, "lend_packet")


def test_the_answer_and_the_optional_tail_are_learned_and_reproduce_every_call(tmp_path: Path) -> None:
    rows = [_lend("K1", 3, "North", None), _lend("K2", 2, "Quay", "555-01"), _lend("K3", 5, "Hill", "555-07")]
    recorded = _recorded(tmp_path, rows)
    fields, mapped = answered_write("packets", "packet_id", recorded)
    assert fields == ["packet_id", "status", "lent_to", "sowings_lent", "lent_on"]
    assert mapped == {"sowings_lent": {"op": "before", "path": ["sowings"]}, "lent_on": {"op": "const", "value": DAY}}
    plain = ToolPlan(kind="update", collection="packets", key_param="packet_id", fields=[])
    variants = learned_variants(LEND, plain, recorded)  # the docs' plan answering as recorded comes first
    learned = next(v for v in variants if v.output_fields and v.kind == "recorded_update")  # the answer, shaped
    lent_to = next(e["source"] for e in learned.effects if e.get("field") == "lent_to")
    phone = {"from": "arg", "name": "phone"}
    tail = {"from": "given", "test": phone, "then": {"from": "concat", "parts": [" (", phone, ")"]}, "else": ""}
    assert lent_to == {"from": "concat", "parts": [{"from": "arg", "name": "branch"}, tail]}
    schema = SchemaResult({"type": "object", "properties": {}}, {}, {}, "docs")
    res, err = run_cases(render_tool(LEND, learned, schema.state_schema), "lend_packet", recorded, schema)
    assert err == "" and res.passed == 3


def test_no_answer_rule_from_one_call_the_whole_record_or_an_unexplained_value(tmp_path: Path) -> None:
    assert answered_write("packets", "packet_id", _recorded(tmp_path, [_lend("K1", 3, "North", None)])) is None
    rows = [_lend("K1", 3, "North", None), _lend("K2", 2, "Quay", "555-01")]
    rows[1]["output"]["sowings_lent"] = 9  # nothing the call saw holds 9, and the answers differ
    assert answered_write("packets", "packet_id", _recorded(tmp_path, rows)) is None
    whole = [_lend("K1", 3, "North", None, whole=True), _lend("K2", 2, "Quay", None, whole=True)]
    assert answered_write("packets", "packet_id", _recorded(tmp_path, whole)) is None  # the default answer


def test_a_tail_needs_the_same_words_around_the_value_in_every_call() -> None:
    record = {"code": "A"}
    rows = [
        ("North", record, [{"branch": "North"}]),
        ("Quay (555-01)", record, [{"branch": "Quay", "phone": "555-01"}]),
        ("Hill [555-07]", record, [{"branch": "Hill", "phone": "555-07"}]),
    ]
    assert learned_text(rows) is None  # brackets and parentheses: no one tail
    assert learned_text(rows[:2]) is not None
