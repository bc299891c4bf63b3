"""Launch notes with a tail written only while the launch's `swapped` flag holds ("launched for DK-103; spare HL-402
fitted for HL-401"), learned by flag_tails.flag_tail from sample launches: the head every note shares, then a tail
whose values come from the launch, the first of its hull lines, or the docket it names; run end to end through
create_entries.opening_entries and the rendered create."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.codegen import _pysource
from synth.envsynth.create_entries import opening_entries
from synth.envsynth.entry_texts import learned_text
from synth.envsynth.flag_tails import flag_tail
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

TODAY = "2031-06-01"
S, INT, B = {"type": "string"}, {"type": "integer"}, {"type": "boolean"}
DOCKET = {"from": "record", "path": ["docket_id"]}
SPARE = {"from": "record", "path": ["lines", 0, "hull_id"]}
DOCKED_HULL = {"from": "linked", "collection": "dockets", "via": "docket_id", "field": "hull_id"}
SWAPPED = {"from": "record", "path": ["swapped"]}
TAIL = {"from": "concat", "parts": ["; spare ", SPARE, " fitted for ", DOCKED_HULL]}
EXPECTED = {"from": "concat", "parts": ["launched for ", DOCKET, {"from": "flag", "test": SWAPPED, "then": TAIL}]}
DOCKETS = {d: {"docket_id": d, "hull_id": h} for d, h in [("DK-101", "HL-301"), ("DK-102", "HL-302")]}
DOCKETS.update({d: {"docket_id": d, "hull_id": h} for d, h in [("DK-103", "HL-401"), ("DK-104", "HL-501")]})
NOTES = {
    "LA-1": "launched for DK-101",
    "LA-2": "launched for DK-102",
    "LA-3": "launched for DK-103; spare HL-402 fitted for HL-401",
    "LA-4": "launched for DK-104; spare HL-502 fitted for HL-501",
}


def _launch(key: str, docket: str, swapped: bool, spare: str, **more: Any) -> dict[str, Any]:
    return {
        "launch_id": key,
        "docket_id": docket,
        "swapped": swapped,
        "lines": [{"hull_id": spare, "crew": 2}],
        "history": [{"event": "launched", "date": "2031-05-0" + key[-1], "note": NOTES[key]}],
        **more,
    }


LAUNCHES = [
    _launch("LA-1", "DK-101", False, "HL-301"),
    _launch("LA-2", "DK-102", False, "HL-302"),
    _launch("LA-3", "DK-103", True, "HL-402"),
    _launch("LA-4", "DK-104", True, "HL-502"),
]
SAMPLE = {"dockets": DOCKETS, "launches": {r["launch_id"]: r for r in LAUNCHES}}


def _samples(launches: list[dict[str, Any]], notes: dict[str, str] | None = None) -> list:
    return [((notes or NOTES)[r["launch_id"]], r, []) for r in launches]


def test_tail_written_only_while_the_flag_holds() -> None:
    samples = _samples(LAUNCHES)
    assert learned_text(samples) is None  # the tail's values are no scalar of the launch: entry_texts gives up
    assert flag_tail(samples, SAMPLE) == EXPECTED


def test_one_plain_and_one_flagged_sample_are_enough() -> None:
    assert flag_tail(_samples([LAUNCHES[0], LAUNCHES[2]]), SAMPLE) == EXPECTED


def test_the_flag_that_splits_the_notes_is_taken() -> None:
    marked = [dict(r, afloat=True, crewed=i in (0, 2)) for i, r in enumerate(LAUNCHES)]  # neither splits them
    found = flag_tail(_samples(marked), {**SAMPLE, "launches": {r["launch_id"]: r for r in marked}})
    assert found == EXPECTED


def test_a_record_value_with_two_decimals_in_the_tail() -> None:
    fees = [dict(r, spare_fee=fee) for r, fee in zip(LAUNCHES, (0.0, 0.0, 45.0, 60.5))]
    notes = {**NOTES, "LA-3": "launched for DK-103; spare fee 45.00", "LA-4": "launched for DK-104; spare fee 60.50"}
    found = flag_tail(_samples(fees, notes), SAMPLE)
    fee = {"from": "fixed", "of": {"from": "record", "path": ["spare_fee"]}, "decimals": 2}
    assert found is not None and found["parts"][-1]["then"] == {"from": "concat", "parts": ["; spare fee ", fee]}


def test_none_when_one_template_cannot_write_every_tail() -> None:
    notes = {**NOTES, "LA-4": "launched for DK-104; HL-502 spare, replacing HL-501"}
    assert flag_tail(_samples(LAUNCHES, notes), SAMPLE) is None


def test_none_when_no_flag_splits_the_samples() -> None:
    unflagged = [{k: v for k, v in r.items() if k != "swapped"} for r in LAUNCHES]
    assert flag_tail(_samples(unflagged), SAMPLE) is None
    all_set = [dict(r, swapped=True) for r in LAUNCHES]
    assert flag_tail(_samples(all_set), SAMPLE) is None


def test_none_when_a_flagged_note_has_no_tail_after_the_head() -> None:
    assert flag_tail(_samples(LAUNCHES, {**NOTES, "LA-4": "launched for DK-104"}), SAMPLE) is None
    assert flag_tail(_samples(LAUNCHES, {**NOTES, "LA-4": "sailed for DK-104; spare HL-502"}), SAMPLE) is None


def test_none_when_the_tail_shows_no_value() -> None:
    notes = {**NOTES, "LA-3": "launched for DK-103; spare fitted", "LA-4": "launched for DK-104; spare fitted"}
    assert flag_tail(_samples(LAUNCHES, notes), SAMPLE) is None


def test_the_linked_value_needs_the_linked_record() -> None:
    bare = {"launches": SAMPLE["launches"]}  # no dockets in the state: nothing writes "HL-401"
    assert flag_tail(_samples(LAUNCHES), bare) is None


def test_the_flag_source_shows_the_tail_only_for_true() -> None:
    code = _pysource({"from": "flag", "test": SWAPPED, "then": {"from": "concat", "parts": ["; spare"]}}, "fn")
    scope = {"fg_text": "".join, "dig_fn": lambda record, path: record.get(path[0])}
    shown = [eval(code, {**scope, "record": {"swapped": flag}}) for flag in (True, False, None, "yes", 1)]
    assert shown == ["; spare", "", "", "", ""]


HISTORY_ENTRY = {"event": {"type": "string", "enum": ["launched", "recovered"]}, "date": S, "note": S}
HISTORY = {"type": "array", "items": {"type": "object", "properties": HISTORY_ENTRY}}
LINES = {"type": "array", "items": {"type": "object", "properties": {"hull_id": S, "crew": INT}}}
LAUNCH = {
    "launch_id": S,
    "docket_id": {"type": "string", "x-references": "dockets"},
    "swapped": B,
    "lines": LINES,
    "history": HISTORY,
}
SCHEMA = {
    "type": "object",
    "properties": {"dockets": collection({"docket_id": S, "hull_id": S}), "launches": collection(LAUNCH)},
}
TEXT = 'Launches a boat for a docket. The launch is stored with a "launched" history entry.'
PARAMS = {"docket_id": S, "swapped": B, "lines": LINES}
LOG = ToolSpec("log_launch", TEXT, {"type": "object", "properties": PARAMS, "required": ["docket_id"]}, mutates=True)
BASE = ToolPlan(
    kind="create",
    collection="launches",
    key_field="launch_id",
    fields=list(PARAMS),
    id_type="pattern",
    key_format={"prefix": "LA-", "digits": 1},
)


def test_the_launch_opens_its_history_with_the_tail_while_swapped() -> None:
    plan = opening_entries(LOG, BASE, SCHEMA, TEXT, SAMPLE, TODAY)
    [append] = [e for e in plan.effects if e["op"] == "append"]
    assert append["field"] == "history" and append["items"][0]["fields"]["note"] == EXPECTED
    spare = [{"hull_id": "HL-700", "crew": 3}]

    def launched(arguments: dict[str, Any], note: str) -> dict[str, Any]:
        after = copy.deepcopy(SAMPLE)
        entry = {"event": "launched", "date": TODAY, "note": note}
        after["launches"]["LA-5"] = {"launch_id": "LA-5", **arguments, "history": [entry]}
        return after

    swapped = {"docket_id": "DK-102", "swapped": True, "lines": spare}
    kept = {"docket_id": "DK-102", "swapped": False, "lines": spare}
    unsaid = {"docket_id": "DK-101", "lines": spare}
    calls = [
        (swapped, launched(swapped, "launched for DK-102; spare HL-700 fitted for HL-302")),
        (kept, launched(kept, "launched for DK-102")),
        (unsaid, launched(unsaid, "launched for DK-101")),  # no flag given: no tail
    ]
    run_calls(LOG, plan, SCHEMA, lambda: copy.deepcopy(SAMPLE), calls)
