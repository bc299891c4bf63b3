"""A create whose docs price it by a pipe table whose rows a folded description runs together ("kind | fee `a` |
12 `b` | 8"): the prose table reader leaves such rows alone (it cannot see which column keys them), and the publish
gate holds a create that leaves a figure a table column heads at its blank value; an entry the docs write with a
`<today>` placeholder holds the business date."""

from __future__ import annotations

from types import SimpleNamespace

from synth.envsynth.docs_appends import element_rule
from synth.envsynth.gate import _unset_documented_fields
from synth.envsynth.rate_tables import rate_tables
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

S, N = {"type": "string"}, {"type": "number"}
COLS = {
    "berths": _collection({"berth_id": S, "size": {"type": "string", "x-enum": ["small", "large"]}}),
    "chits": _collection({"chit_id": S, "berth_id": S, "kind": S, "fee": N}),
}
OWN = COLS["chits"]["additionalProperties"]["properties"]
FOLDED = "Writes a chit. Per kind:\n\nkind | fee (per night)\n\n`small` | 12.00, `large` | 8.00"  # by kind, not size


def test_rows_of_a_pipe_table_are_not_read_as_a_prose_table() -> None:
    assert rate_tables(FOLDED, OWN, {"berth_id": "berths"}, COLS, ["fee"]) == []
    prose = "Writes a chit. Fee by berth size: small 12, large 8."
    assert rate_tables(prose, OWN, {"berth_id": "berths"}, COLS, ["fee"])[0]["values"] == {"small": 12.0, "large": 8.0}


def test_a_figure_a_table_column_heads_is_no_blank_to_publish() -> None:
    spec = ToolSpec("write_chit", FOLDED, {"type": "object", "properties": {"berth_id": S, "kind": S}})
    state = {"chits": {"C1": {"chit_id": "C1", "berth_id": "B1", "kind": "small", "fee": 12.0}}}
    after = {"chits": {**state["chits"], "C2": {"chit_id": "C2", "berth_id": "B1", "kind": "crane", "fee": 0}}}
    outcome = SimpleNamespace(status="ok", state_after=after)
    plan = {"kind": "create", "collection": "chits", "key_field": "chit_id"}
    case = Case("write_chit", "x", state, {})
    assert _unset_documented_fields(spec, plan, [(case, outcome)]) != []
    plain = ToolSpec("write_chit", "Writes a chit.", spec.parameters)
    assert _unset_documented_fields(plain, plan, [(case, outcome)]) == []


def test_a_today_placeholder_is_the_business_date() -> None:
    rule = element_rule('{"on": <today>, "event": "opened"}', {"on": S}, {}, None, "2031-02-03")
    assert rule == {
        "fields": {"on": {"from": "const", "value": "2031-02-03"}, "event": {"from": "const", "value": "opened"}}
    }
    assert element_rule('{"on": <today>}', {"on": S}, {}, None, None) is None  # no business date known
