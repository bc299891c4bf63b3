"""A search that answers summaries, as markdown docs show them: an example list answer under `**Response 200**`
gives the answer's fields, one of them a key of the record's address object (`city`), and a name parameter whose
description names the record's `holder_name` matches that field (in part, ignoring case) rather than the names of
the record's contacts."""

from __future__ import annotations

from typing import Any

from synth.envsynth.codegen import render_tool
from synth.envsynth.envelope import with_envelope
from synth.envsynth.filter_rules import refine_filter
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.tooldocs.markdown import load_markdown
from tests.schemas import collection

S = {"type": "string"}
ACCOUNT = {
    "account_id": S,
    "holder_name": S,
    "status": S,
    "address": {"type": "object", "properties": {"street": S, "city": S}},
    "contacts": {"type": "array", "items": {"type": "object", "properties": {"name": S, "phone": S}}},
    "balance": {"type": "number"},
}
SCHEMA = {"type": "object", "properties": {"accounts": collection(ACCOUNT)}}
DOC = """# Water desk

### search_accounts

Finds accounts.

- name (string, optional): part of the holder name, any case.

**Response 200**: an array of account summaries:

```json
[{"account_id": "AC-1", "holder_name": "Ada Moss", "status": "active", "city": "Leeds"}]
```
"""


def _account(key: str, holder: str, city: str, contact: str) -> dict[str, Any]:
    return {
        "account_id": key,
        "holder_name": holder,
        "status": "active",
        "address": {"street": "1 Mill Lane", "city": city},
        "contacts": [{"name": contact, "phone": "555"}],
        "balance": 12.5,
    }


def test_an_example_list_answer_gives_the_fields_one_read_off_the_address() -> None:
    (spec,) = load_markdown(DOC, "water.md")
    assert spec.returns == {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"account_id": S, "holder_name": S, "status": S, "city": S},
        },
    }
    plan = refine_filter(spec, ToolPlan(kind="filter", collection="accounts"), SCHEMA)
    assert plan.param_map["name"]["path"] == ["holder_name"]  # not `contacts/*/name`: the description names it
    assert "name" in plan.partial_params
    plan = with_envelope(spec, plan, SCHEMA)
    accounts = {
        "AC-1": _account("AC-1", "Ada Moss", "Leeds", "Bo Finch"),
        "AC-2": _account("AC-2", "Cy Moss", "York", "Ada Lane"),
    }
    state = {"accounts": accounts}
    summary = {"account_id": "AC-1", "holder_name": "Ada Moss", "status": "active", "city": "Leeds"}
    found = Case("search_accounts", "x", state, {"name": "ada"}, expect_error=False, expect_result=[summary])
    found.has_expected_result = True
    res, err = run_cases(
        render_tool(spec, plan, SCHEMA), "search_accounts", [found], SchemaResult(SCHEMA, {}, {}, "docs")
    )
    assert err == "" and res.passed == 1, res.failures
