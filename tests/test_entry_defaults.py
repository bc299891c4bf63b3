"""A hotel folio line posted by a call that gives only a code and an amount: the entry's schema also requires a line
id, the posting date, the currency every sample line holds, a `voided` flag and a note the call may leave out. The
line takes the next id in the lines' sequence, the business date, the shared currency, the note's documented default
and the flag every sample line holds, so the state keeps its schema and the tool can be published; a field that
nothing tells (a clerk that differs from line to line) is not guessed."""

from __future__ import annotations

from typing import Any

from synth.envsynth.entry_defaults import entry_defaults
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N, B = {"type": "string"}, {"type": "number"}, {"type": "boolean"}
LINE = {
    "type": "object",
    "properties": {
        "line_id": S,
        "code": S,
        "amount": N,
        "posted_on": {"type": "string", "format": "date"},
        "currency": S,
        "voided": B,
        "note": S,
        "clerk": S,
    },
    "required": ["line_id", "code", "amount", "posted_on", "currency", "voided", "note"],
}
STAY = {"stay_id": S, "folio": {"type": "array", "items": LINE}}
SCHEMA = {"type": "object", "properties": {"stays": collection(STAY)}}
POST = ToolSpec(
    "post_charge",
    "Posts a charge to a stay's folio.",
    {
        "type": "object",
        "properties": {
            "stay_id": S,
            "code": S,
            "amount": N,
            "note": {"type": "string", "description": "A remark for the line.", "default": "none"},
        },
        "required": ["stay_id", "code", "amount"],
    },
    mutates=True,
)
TODAY = "2031-05-02"


def _line(line_id: str, code: str, amount: float, note: str = "none") -> dict[str, Any]:
    return {
        "line_id": line_id,
        "code": code,
        "amount": amount,
        "posted_on": "2031-04-30",
        "currency": "EUR",
        "voided": False,
        "note": note,
    }


def _state() -> dict[str, Any]:
    return {
        "stays": {
            "ST-1": {"stay_id": "ST-1", "folio": [_line("LN-0001", "ROOM", 120.0), _line("LN-0002", "BAR", 14.5)]},
            "ST-2": {"stay_id": "ST-2", "folio": [_line("LN-0003", "ROOM", 95.0, "late arrival")]},
        }
    }


def _plan() -> ToolPlan:
    plain = ToolPlan(kind="item_add", collection="stays", key_field="stay_id", key_param="stay_id")
    plain = ToolPlan.from_dict({**plain.to_dict(), "list_field": "folio", "fields": ["code", "amount", "note"]})
    return entry_defaults(POST, plain, SCHEMA, _state(), TODAY)


def test_each_required_field_gets_what_the_data_and_docs_say() -> None:
    plan = _plan()
    assert plan.item_key == "line_id" and plan.key_format == {"prefix": "LN-", "digits": 4}
    assert plan.initial_values == {"posted_on": TODAY, "currency": "EUR", "voided": False, "note": "none"}


def test_a_field_nothing_tells_stays_missing() -> None:
    # the clerk differs from line to line and nothing says who posts: no blank is guessed
    required = [*LINE["required"], "clerk"]
    stay = {**STAY, "folio": {"type": "array", "items": {**LINE, "required": required}}}
    state = _state()
    for i, line in enumerate(state["stays"]["ST-1"]["folio"] + state["stays"]["ST-2"]["folio"]):
        line["clerk"] = f"clerk {i}"
    plain = ToolPlan(kind="item_add", collection="stays", key_field="stay_id", key_param="stay_id")
    plain = ToolPlan.from_dict({**plain.to_dict(), "list_field": "folio", "fields": ["code", "amount", "note"]})
    schema = {"type": "object", "properties": {"stays": collection(stay)}}
    assert "clerk" not in entry_defaults(POST, plain, schema, state, TODAY).initial_values


def test_a_posted_line_keeps_the_schema() -> None:
    after = _state()
    after["stays"]["ST-2"]["folio"].append(
        {**_line("LN-0004", "SPA", 40.0), "posted_on": TODAY}  # one id sequence across the stays
    )
    given = _state()
    given["stays"]["ST-2"]["folio"].append({**_line("LN-0004", "SPA", 40.0, "massage"), "posted_on": TODAY})
    run_calls(
        POST,
        _plan(),
        SCHEMA,
        _state,
        [
            ({"stay_id": "ST-2", "code": "SPA", "amount": 40.0}, after),
            ({"stay_id": "ST-2", "code": "SPA", "amount": 40.0, "note": "massage"}, given),
        ],
    )


def test_nothing_changes_when_everything_is_set() -> None:
    plain = ToolPlan(kind="item_add", collection="stays", key_field="stay_id", key_param="stay_id")
    full = {**LINE, "required": ["code", "amount"]}
    plain = ToolPlan.from_dict({**plain.to_dict(), "list_field": "folio", "fields": ["code", "amount"]})
    schema = {
        "type": "object",
        "properties": {"stays": collection({**STAY, "folio": {"type": "array", "items": full}})},
    }
    assert entry_defaults(POST, plain, schema, _state(), TODAY) == plain


def test_a_date_the_schema_does_not_mark_is_read_off_the_sample_lines() -> None:
    # data-inferred schemas carry no `format`: the sample lines, all `YYYY-MM-DD`, show the field holds a day
    plain_line = {**LINE, "properties": {**LINE["properties"], "posted_on": S}}
    schema = {
        "type": "object",
        "properties": {"stays": collection({**STAY, "folio": {"type": "array", "items": plain_line}})},
    }
    plain = ToolPlan(kind="item_add", collection="stays", key_field="stay_id", key_param="stay_id")
    plain = ToolPlan.from_dict({**plain.to_dict(), "list_field": "folio", "fields": ["code", "amount", "note"]})
    assert entry_defaults(POST, plain, schema, _state(), TODAY).initial_values["posted_on"] == TODAY
    state = _state()
    state["stays"]["ST-2"]["folio"][0]["posted_on"] = "late"  # not every line holds a day: nothing is guessed
    assert "posted_on" not in entry_defaults(POST, plain, schema, state, TODAY).initial_values


def test_a_value_the_docs_give_the_new_line() -> None:
    # the clerk differs from line to line, but the docs say what a new line holds
    required = [*LINE["required"], "clerk"]
    stay = {**STAY, "folio": {"type": "array", "items": {**LINE, "required": required}}}
    schema = {"type": "object", "properties": {"stays": collection(stay)}}
    state = _state()
    for i, line in enumerate(state["stays"]["ST-1"]["folio"] + state["stays"]["ST-2"]["folio"]):
        line["clerk"] = f"clerk {i}"
    plain = ToolPlan(kind="item_add", collection="stays", key_field="stay_id", key_param="stay_id")
    plain = ToolPlan.from_dict({**plain.to_dict(), "list_field": "folio", "fields": ["code", "amount", "note"]})
    written = 'Posts a charge to a stay\'s folio, as `{"code": ..., "amount": ..., "clerk": "night desk"}`.'
    named = "Posts a charge to a stay's folio with `clerk` 'night desk'."
    added = "Adds a charge to a stay's folio as 'night desk'."  # the one open text field
    for text in (written, named, added):
        spec = ToolSpec(POST.name, text, POST.parameters, mutates=True)
        assert entry_defaults(spec, plain, schema, state, TODAY).initial_values["clerk"] == "night desk", text
    for text in ("Posts a charge to a stay's folio.", "Posts a charge; refused when the `clerk` is 'night desk'."):
        vague = ToolSpec(POST.name, text, POST.parameters, mutates=True)
        assert "clerk" not in entry_defaults(vague, plain, schema, state, TODAY).initial_values, text


def test_a_left_out_text_is_another_argument_in_the_case_the_docs_name() -> None:
    text = "Posts a charge to a stay's folio with the given `note` (default: the `code` in title case, e.g. `Bar`)."
    params = {**POST.parameters["properties"], "note": {"type": "string"}}  # no schema default this time
    cased = ToolSpec("post_charge", text, {**POST.parameters, "properties": params}, mutates=True)
    plain = ToolPlan(kind="item_add", collection="stays", key_field="stay_id", key_param="stay_id")
    plain = ToolPlan.from_dict({**plain.to_dict(), "list_field": "folio", "fields": ["code", "amount", "note"]})
    plan = entry_defaults(cased, plain, SCHEMA, _state(), TODAY)
    assert [e for e in plan.effects if e["op"] == "entry_cased"] == [
        {"op": "entry_cased", "field": "note", "arg": "code", "case": "title"}
    ]
    after = _state()
    after["stays"]["ST-1"]["folio"].append({**_line("LN-0004", "SPA", 40.0, "Spa"), "posted_on": TODAY})
    given = _state()
    given["stays"]["ST-1"]["folio"].append({**_line("LN-0004", "SPA", 40.0, "facial"), "posted_on": TODAY})
    calls = [
        ({"stay_id": "ST-1", "code": "SPA", "amount": 40.0}, after),
        ({"stay_id": "ST-1", "code": "SPA", "amount": 40.0, "note": "facial"}, given),
    ]
    run_calls(cased, plan, SCHEMA, _state, calls)
