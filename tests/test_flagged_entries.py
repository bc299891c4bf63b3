"""An argument a change needs only while an entry of the record's list names a flagged record (flagged_entries.py),
read from the docs' errors and checked by list_runtime.fg_list_rule `flag_needs`."""

from __future__ import annotations

from synth.envsynth.flagged_entries import flagged_needs
from synth.envsynth.list_runtime import fg_list_rule
from tests.schemas import collection

S = {"type": "string"}
CARGO = {"type": "object", "properties": {"line_no": {"type": "integer"}, "crate_id": {**S, "x-references": "crates"}}}
COLS = {
    "dockets": collection({"docket_id": S, "cargo": {"type": "array", "items": CARGO}}),
    "crates": collection({"crate_id": S, "hazardous": {"type": "boolean"}}),
}
SCHEMA = {"type": "object", "properties": COLS}
PARAMS = {"docket_id": S, "sealed_by": S, "signed": {"type": "boolean"}}
TEXT = (
    'Errors: "Error: docket <id> contains a hazardous crate; sealed_by (inspector initials) is required"; '
    '"Error: docket <id> contains a hazardous crate; the manifest must be signed (signed=true)".'
)
STATE = {"crates": {"C1": {"crate_id": "C1", "hazardous": True}, "C2": {"crate_id": "C2", "hazardous": False}}}


def _docket(*crates: str) -> dict:
    return {"docket_id": "D1", "cargo": [{"line_no": i + 1, "crate_id": c} for i, c in enumerate(crates)]}


def test_both_needs_are_read_from_the_errors() -> None:
    given, true = flagged_needs(TEXT, "dockets", SCHEMA, PARAMS)
    base = {"op": "flag_needs", "list": "cargo", "via": "crate_id", "collection": "crates", "flag": "hazardous"}
    assert given == {**base, "arg": "sealed_by", "need": "given"}
    assert true == {**base, "arg": "signed", "need": "true"}


def test_the_argument_is_needed_only_while_a_flagged_record_is_listed() -> None:
    given, true = flagged_needs(TEXT, "dockets", SCHEMA, PARAMS)
    flagged, plain = _docket("C2", "C1"), _docket("C2")
    assert not fg_list_rule(given, {}, flagged, STATE)
    assert fg_list_rule(given, {"sealed_by": "AB"}, flagged, STATE)
    assert fg_list_rule(given, {}, plain, STATE)
    assert not fg_list_rule(true, {"signed": False}, flagged, STATE)
    assert fg_list_rule(true, {"signed": True}, flagged, STATE)
    assert fg_list_rule(true, {}, _docket(), STATE)


def test_nothing_read_for_an_unknown_argument_or_flag() -> None:
    assert flagged_needs(TEXT, "dockets", SCHEMA, {"docket_id": S}) == []
    assert flagged_needs(TEXT.replace("hazardous", "fragile"), "dockets", SCHEMA, PARAMS) == []
