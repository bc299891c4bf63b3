"""Readers added in session 45, each fed made-up harbour docs and data:

- sample_today.sampled_business_date: the day after the latest date a data sample's records stamp as past, when
  neither the docs nor recorded calls state a business date, and pipeline.with_business_date / date_notes joining
  it to the policy and to REPORT.md only then;
- list_scopes: a date argument that defaults to today ("from a given date (default: today)") keeps the records from
  the business date on when the call leaves it out, and its own filter reads it when given.
"""

from __future__ import annotations

import json

import synth
from synth.envsynth.codegen import header_source, render_tool
from synth.envsynth.docs_entries import business_date
from synth.envsynth.list_scopes import scope_checks
from synth.envsynth.pipeline import SynthConfig, date_notes, with_business_date
from synth.envsynth.plan import ToolPlan
from synth.envsynth.sample_today import sampled_business_date, sampled_date_line
from synth.sandbox import run_cases
from synth.spec import DocSet, ToolSpec
from tests.schemas import collection

S = {"type": "string"}
DATE = {"type": "string", "format": "date"}

SAMPLE = {
    "charters": {
        "C1": {
            "charter_id": "C1",
            "created": "2031-03-28",
            "sails_on": "2031-04-09",  # ahead: not a stamp
            "history": [{"date": "2031-03-28", "event": "created"}, {"date": "2031-03-30", "event": "paid"}],
        },
        "C2": {"charter_id": "C2", "opened_on": "2031-03-29T09:15:00Z", "scheduled_date": "2031-05-01"},
    },
    "permits": {"P1": {"permit_id": "P1", "valid_until": "2031-12-31", "expected": "2031-06-01"}},
}


# --- sample_today -------------------------------------------------------------------------------------------------


def test_the_day_after_the_latest_stamp_is_the_business_date() -> None:
    assert sampled_business_date(SAMPLE) == "2031-03-31"  # the paid entry of 03-30 is the latest stamp


def test_dates_ahead_and_unstamped_samples_imply_nothing() -> None:
    ahead = {"piers": {"P1": {"scheduled": "2031-05-01", "requested_on": "2031-05-02", "valid_from": "2031-01-01"}}}
    assert sampled_business_date(ahead) is None
    assert sampled_business_date({"boats": {"B1": {"name": "Tern"}}}) is None
    assert sampled_business_date({"boats": {"B1": {"created": "2031-02-30"}}}) is None  # no such day


def test_a_dated_list_that_is_no_log_is_no_stamp() -> None:
    plan = {"charters": {"C1": {"instalments": [{"date": "2031-06-01", "amount": 10}], "created": "2031-03-01"}}}
    assert sampled_business_date(plan) == "2031-03-02"


def test_the_implied_line_reads_back_as_the_business_date() -> None:
    assert business_date(sampled_date_line("2031-03-31")) == "2031-03-31"


def _docset(policy: str) -> DocSet:
    tool = ToolSpec("book_charter", "Books a charter.", {"type": "object", "properties": {}})
    return DocSet(tools=[tool], policy=policy)


def test_the_policy_and_the_report_gain_the_implied_date_only_when_none_is_stated(tmp_path) -> None:
    data = tmp_path / "data.json"
    data.write_text(json.dumps(SAMPLE))
    config = SynthConfig(env_id="harbour", data=str(data), data_sha256="s45")
    assert business_date(with_business_date(_docset("Be kind to skippers."), config)) == "2031-03-31"
    kind = _docset("Be kind to skippers.")
    assert date_notes(kind, with_business_date(kind, config)) == ("Assumed: " + sampled_date_line("2031-03-31"),)
    stated = "The business date is 2031-05-01."
    assert with_business_date(_docset(stated), config) == stated
    assert date_notes(_docset(stated), with_business_date(_docset(stated), config)) == ()
    assert with_business_date(_docset("Be kind."), SynthConfig(env_id="harbour")) == "Be kind."  # no data


# --- list_scopes: a date argument defaulting to today -------------------------------------------------------------

SAILING = {"sailing_id": S, "pier_id": S, "sails_on": DATE}
COLS = {"sailings": collection(SAILING)}
FROM = {"type": "string", "format": "date", "description": "Earliest sailing date, YYYY-MM-DD."}
UNTIL = {"type": "string", "format": "date", "description": "Latest sailing date, YYYY-MM-DD."}
PARAMS = {"pier_id": S, "from_date": FROM, "to_date": UNTIL}
TEXT = "List sailings from a pier from a given date (default: today), in date order."
TODAY = "2031-04-02"
FLOOR = {"op": "from", "field": "sails_on", "value": TODAY, "unless": "from_date"}


def test_a_date_argument_defaulting_to_today_floors_the_list() -> None:
    assert scope_checks(TEXT, "sailings", COLS, TODAY, PARAMS) == [FLOOR]
    own = {**PARAMS, "from_date": {**FROM, "description": "Earliest sailing date. Defaults to today."}}
    assert scope_checks("List sailings from a pier.", "sailings", COLS, TODAY, own) == [FLOOR]


def test_no_floor_without_a_date_a_default_or_one_argument() -> None:
    assert scope_checks(TEXT, "sailings", COLS, None, PARAMS) == []  # no business date
    assert scope_checks("List sailings from a given date.", "sailings", COLS, TODAY, PARAMS) == []  # no default
    both = {**PARAMS, "since": {"type": "string", "format": "date", "description": "Earliest date."}}
    assert scope_checks(TEXT, "sailings", COLS, TODAY, both) == []  # two earliest-date arguments: which?
    assert scope_checks(TEXT, "sailings", COLS, TODAY, {"pier_id": S}) == []  # no date argument


STATE = {
    "sailings": {
        "S1": {"sailing_id": "S1", "pier_id": "P1", "sails_on": "2031-03-30"},
        "S2": {"sailing_id": "S2", "pier_id": "P1", "sails_on": "2031-04-02"},
        "S3": {"sailing_id": "S3", "pier_id": "P1", "sails_on": "2031-04-05"},
    }
}


def _run(arguments: dict[str, str]) -> list[str]:
    spec = ToolSpec("find_sailings", TEXT, {"type": "object", "properties": PARAMS})
    plan = ToolPlan(kind="list", collection="sailings", key_field="sailing_id", scope_checks=[FLOOR])
    source = render_tool(spec, plan, {"type": "object", "properties": COLS})
    module = header_source("check", synth.PIPELINE_VERSION, source) + "\n\n" + source
    (outcome,) = run_cases(module, [{"function": "find_sailings", "state": STATE, "arguments": arguments}])
    assert outcome.status == "ok", outcome.error
    return [r["sailing_id"] for r in outcome.result]


def test_the_generated_list_floors_only_when_the_date_is_left_out() -> None:
    assert _run({}) == ["S2", "S3"]
    assert _run({"from_date": "2031-03-01"}) == ["S1", "S2", "S3"]  # the list plan reads no filter: all kept


# --- must_clauses: "The <noun> must ..." on a create --------------------------------------------------------------

from types import SimpleNamespace  # noqa: E402

from synth.envsynth.create_checks import create_checks  # noqa: E402
from synth.envsynth.expr_runtime import fg_check  # noqa: E402
from synth.envsynth.gate import _unset_documented_fields  # noqa: E402
from synth.envsynth.key_cases import existing_key_cases  # noqa: E402
from synth.envsynth.must_clauses import must_checks  # noqa: E402
from synth.envsynth.testgen import TestCase  # noqa: E402

HARBOUR_COLS = {
    "charters": collection({"charter_id": S, "skipper_id": S, "berth_id": S, "notes": S}),
    "skippers": collection({"skipper_id": S, "harbour_id": S}),
    "berths": collection(
        {"berth_id": S, "harbour_id": S, "status": {"type": "string", "x-enum": ["open", "closed"]}, "day": DATE}
    ),
}
OWN = HARBOUR_COLS["charters"]["additionalProperties"]["properties"]
MUST = "Book a charter. The berth must serve the skipper's harbour, be open and be dated tomorrow or later."
SAME = {
    "op": "linked_same",
    "field": "harbour_id",
    "first": {"collection": "berths", "via": "berth_id"},
    "second": {"collection": "skippers", "via": "skipper_id"},
}
OPEN = {"op": "linked_state", "collection": "berths", "via": "berth_id", "field": "status", "allowed": ["open"]}
AHEAD = {"op": "dated", "via": "berth_id", "collection": "berths", "field": "day", "cmp": ">", "value": TODAY}


def test_a_must_sentence_reads_each_predicate_against_the_linked_record() -> None:
    assert must_checks(MUST, OWN, HARBOUR_COLS, TODAY) == [SAME, OPEN, AHEAD]
    assert must_checks(MUST, OWN, HARBOUR_COLS, None) == [SAME, OPEN]  # no business date: no date check
    today_ok = "The berth must not be in the past."
    assert must_checks(today_ok, OWN, HARBOUR_COLS, TODAY) == [{**AHEAD, "cmp": ">="}]


def test_must_sentences_about_no_linked_record_read_as_nothing() -> None:
    for text in (
        "The date must be tomorrow or later.",  # an argument, no linked record
        "The berth must be painted.",  # no known value
        "The berth must serve the skipper's county.",  # no field both hold
        "The charter must be open.",  # the record itself
    ):
        assert must_checks(text, OWN, HARBOUR_COLS, TODAY) == [], text


def test_linked_same_holds_when_both_linked_records_agree() -> None:
    state = {
        "berths": {"B1": {"harbour_id": "H1"}},
        "skippers": {"K1": {"harbour_id": "H1"}, "K2": {"harbour_id": "H2"}},
    }
    assert fg_check(SAME, {}, {"berth_id": "B1", "skipper_id": "K1"}, state)
    assert not fg_check(SAME, {}, {"berth_id": "B1", "skipper_id": "K2"}, state)
    assert fg_check(SAME, {}, {"berth_id": "B9", "skipper_id": "K2"}, state)  # a missing record is another check's


def test_a_create_with_a_must_sentence_checks_the_named_records_and_its_cases_meet_them() -> None:
    params = {"skipper_id": S, "berth_id": S, "notes": S}
    spec = ToolSpec("book_charter", MUST, {"type": "object", "properties": params})
    plan = ToolPlan(kind="create", collection="charters", key_field="charter_id")
    checked = create_checks(spec, plan, {"type": "object", "properties": HARBOUR_COLS}, MUST, TODAY)
    assert checked.checks == [SAME, OPEN, AHEAD]
    assert checked.ref_checks == {"berth_id": "berths", "skipper_id": "skippers"}
    state = {
        "charters": {},
        "skippers": {"K1": {"skipper_id": "K1", "harbour_id": "H1"}},
        "berths": {"B1": {"berth_id": "B1", "harbour_id": "H2", "status": "closed", "day": "2031-03-01"}},
    }
    case = TestCase("book_charter", "x", state, {"skipper_id": "zzz", "berth_id": "yyy", "notes": "n"})
    (met,) = existing_key_cases(checked, [case], limit=1)
    record = {**met.arguments}
    assert all(fg_check(c, met.arguments, record, met.state) for c in checked.checks)


# --- reconcile: a field null in every record takes the docs' type --------------------------------------------------


def test_a_field_never_set_in_the_data_is_typed_by_the_docs(tmp_path) -> None:
    from synth.data.infer import infer_layout
    from synth.data.load import load_sample_data
    from synth.data.reconcile import grounded_schema

    records = {f"C{i}": {"charter_id": f"C{i}", "notes": None, "skipper_id": f"K{i}"} for i in range(1, 4)}
    path = tmp_path / "d.json"
    path.write_text(json.dumps({"charters": records}))
    data = load_sample_data(str(path))
    params = {"skipper_id": S, "notes": {"type": "string", "description": "Notes for the crew."}}
    create = ToolSpec("create_charter", "Create a charter.", {"type": "object", "properties": params})
    result = grounded_schema(DocSet(tools=[create]), data, infer_layout(data.states, data.path))
    notes = result.state_schema["properties"]["charters"]["additionalProperties"]["properties"]["notes"]
    assert notes["type"] == ["string", "null"]


# --- gate: a breakdown of figures left at zero ---------------------------------------------------------------------


def _priced(price: dict[str, float]) -> dict[str, object]:
    return {"charter_id": "C", "fare": price}


def test_a_breakdown_left_at_zero_that_every_stored_record_works_out_is_unset() -> None:
    # the sentence is conditional ("if"), so only the stored records say the fare is worked out at booking
    spec = ToolSpec("book_charter", "Books a charter. If the berth has rates, the fare is worked out from them.", {})
    stored = {
        f"C{i}": {**_priced({"base": 10.0 * i, "levy": 2.0, "total": 10.0 * i + 2}), "charter_id": f"C{i}"}
        for i in range(1, 4)
    }
    state = {"charters": stored}
    after = {"charters": {**stored, "C9": {**_priced({"base": 0, "levy": 0, "total": 0}), "charter_id": "C9"}}}
    case = TestCase("book_charter", "x", state, {})
    outcome = SimpleNamespace(status="ok", state_after=after)
    plan = {"kind": "create", "collection": "charters", "key_field": "charter_id"}
    assert _unset_documented_fields(spec, plan, [(case, outcome)]) != []
    same = {k: {**r, "fare": {"base": 5.0, "levy": 0.0, "total": 5.0}} for k, r in stored.items()}
    after_same = {"charters": {**same, "C9": after["charters"]["C9"]}}
    flat = SimpleNamespace(status="ok", state_after=after_same)  # every stored fare alike: a default, not worked out
    assert _unset_documented_fields(spec, plan, [(TestCase("book_charter", "x", {"charters": same}, {}), flat)]) == []


# --- list_scopes: a linked state the sample shows; an OpenAPI answer's own description orders it -------------------

from synth.envsynth.list_rules import refine_list  # noqa: E402
from synth.tooldocs import load_docs  # noqa: E402

PIERS = collection({"pier_id": S, "status": S})  # no enum: five piers, three states, too few to list
BERTHS = collection({"berth_id": S, "pier_id": {"type": "string", "x-references": "piers"}, "day": DATE, "slip": S})
LINKED_COLS = {"berths": BERTHS, "piers": PIERS}
PIER_SAMPLE = {
    "piers": {
        f"P{i}": {"pier_id": f"P{i}", "status": s} for i, s in enumerate(["open", "open", "open", "silted", "shut"])
    }
}
SHUT = "Lists berths. Berths of piers that are shut for the winter are not listed."


def test_a_linked_state_only_the_sample_shows_still_drops_records() -> None:
    dropped = {"op": "linked", "via": "pier_id", "collection": "piers", "field": "status", "dropped": ["shut"]}
    assert scope_checks(SHUT, "berths", LINKED_COLS, None, {}, PIER_SAMPLE) == [dropped]
    assert scope_checks(SHUT, "berths", LINKED_COLS, None, {}, None) == []  # no sample: no known states


OPENAPI = {
    "openapi": "3.0.3",
    "info": {"title": "Harbour", "version": "1"},
    "paths": {
        "/berths": {
            "get": {
                "operationId": "searchBerths",
                "description": "Lists free berths.",
                "parameters": [{"name": "pier_id", "in": "query", "schema": {"type": "string"}}],
                "responses": {
                    "200": {
                        "description": "Berths ordered by day and slip.",
                        "content": {"application/json": {"schema": {"type": "array", "items": {"type": "object"}}}},
                    }
                },
            }
        }
    },
}


def test_an_openapi_answers_description_orders_the_list(tmp_path) -> None:
    path = tmp_path / "harbour.json"
    path.write_text(json.dumps(OPENAPI))
    (spec,) = load_docs([str(path)]).tools
    assert spec.returns["description"] == "Berths ordered by day and slip."
    assert "ordered" not in spec.description  # the tool's own words are unchanged
    plan = ToolPlan(kind="filter", collection="berths", key_field="berth_id", filter_params=["pier_id"])
    refined = refine_list(spec, plan, {"type": "object", "properties": LINKED_COLS})
    assert refined.sort_fields == ["day", "slip"]


# --- entry_texts: one sample counting a list as "<n> <noun>(s)" -----------------------------------------------------

from synth.envsynth.entry_texts import learned_text  # noqa: E402


def test_one_sample_counting_a_list_learns_its_length() -> None:
    charter = {"charter_id": "C1", "crew": [{"name": "Ana"}, {"name": "Bo"}], "berths": 2, "status": "sailed"}
    assert learned_text([("Sailed with 2 crew(s)", charter, [])]) == {
        "from": "concat",
        "parts": ["Sailed with ", {"from": "count", "path": ["crew"]}, " crew(s)"],
    }  # not `berths`, which holds 2 too
    assert learned_text([("Sailed with 3 crew(s)", charter, [])]) is None  # not the list's length: no reading
    plain = learned_text([("Sailed with 2 boats", {"charter_id": "C1", "berths": 2}, [])])
    assert plain == {"from": "concat", "parts": ["Sailed with ", {"from": "record", "path": ["berths"]}, " boats"]}


# --- dated_only.unlapsed_checks and mode_checks: "whose hold has not expired", for every mode -----------------------

import copy  # noqa: E402

from synth.envsynth.dated_only import unlapsed_checks  # noqa: E402
from synth.envsynth.mode_checks import allowed_for_modes  # noqa: E402
from synth.envsynth.mode_rules import mode_transition  # noqa: E402
from synth.envsynth.plan_choice import run_cases as run_plan_cases  # noqa: E402
from synth.envsynth.schema_stage import SchemaResult  # noqa: E402

HOLD = {"hold_until": {"type": ["string", "null"], "format": "date"}, "sails_on": DATE, "status": S}
LAPSE = "Only reserved berths whose hold has not expired can be taken up; an expired hold must be booked again."


def test_a_hold_that_has_not_lapsed_is_on_or_after_today() -> None:
    check = {"op": "dated", "field": "hold_until", "cmp": ">=", "value": TODAY}
    assert unlapsed_checks(LAPSE, HOLD, TODAY) == [check]
    assert unlapsed_checks(LAPSE, HOLD, None) == []  # no business date
    assert unlapsed_checks("Only berths whose lease has not expired.", HOLD, TODAY) == []  # no lease date
    assert unlapsed_checks("Berths whose hold has expired are released.", HOLD, TODAY) == []  # no "not"


BERTH = {
    "berth_id": S,
    "status": {"type": "string", "x-enum": ["reserved", "taken"]},
    "hold_until": {"type": ["string", "null"], "format": "date"},
}
BERTH_SCHEMA = {"type": "object", "properties": {"berths": collection(BERTH)}}
TAKE_UP = ToolSpec(
    "take_up_berth",
    "Takes up a reserved berth. " + LAPSE + "\n\n"
    "- `card`: the status becomes 'taken'.\n- `account`: the status becomes 'taken'.",
    {
        "type": "object",
        "properties": {"berth_id": S, "payment": {"type": "string", "enum": ["card", "account"]}},
        "required": ["berth_id", "payment"],
    },
)


def test_every_mode_refuses_a_lapsed_hold() -> None:
    base = ToolPlan(kind="update", collection="berths", key_field="berth_id", key_param="berth_id")
    plan = mode_transition(TAKE_UP, base, BERTH_SCHEMA, "")
    assert plan is not None and plan.kind == "by_mode"
    checked = allowed_for_modes(TAKE_UP, plan, BERTH_SCHEMA, TAKE_UP.description, TODAY)
    lapsed = {"op": "dated", "field": "hold_until", "cmp": ">=", "value": TODAY}
    assert all(lapsed in mode["plan"]["checks"] for mode in checked.modes.values())
    state = {
        "berths": {
            "B1": {"berth_id": "B1", "status": "reserved", "hold_until": "2031-04-01"},  # lapsed yesterday
            "B2": {"berth_id": "B2", "status": "reserved", "hold_until": TODAY},
        }
    }
    taken = copy.deepcopy(state)
    taken["berths"]["B2"]["status"] = "taken"
    cases = [
        TestCase(TAKE_UP.name, "x", state, {"berth_id": "B1", "payment": "card"}, expect_error=True),
        TestCase(TAKE_UP.name, "x", state, {"berth_id": "B1", "payment": "account"}, expect_error=True),
        TestCase(TAKE_UP.name, "x", state, {"berth_id": "B2", "payment": "card"}, expect_error=False),
    ]
    cases[2].state_checks = [{"op": "equals", "state": taken}]
    source = render_tool(TAKE_UP, checked, BERTH_SCHEMA)
    res, err = run_plan_cases(source, TAKE_UP.name, cases, SchemaResult(BERTH_SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == len(cases)


# --- end to end: the implied date in REPORT.md, in the manifest's policy, and stamped by a create -------------------


def test_a_synthesized_environment_works_on_the_implied_date(tmp_path) -> None:
    from synth.envsynth.pipeline import synthesize_environment
    from synth.runtime.environment import Environment

    tools = [
        {
            "type": "function",
            "function": {
                "name": "get_charter",
                "description": "Get a charter.",
                "parameters": {
                    "type": "object",
                    "properties": {"charter_id": {"type": "string"}},
                    "required": ["charter_id"],
                },
            },
        },
        {
            "type": "function",
            "function": {
                "name": "create_charter",
                "description": "Create a charter for a skipper.",
                "parameters": {
                    "type": "object",
                    "properties": {"skipper": {"type": "string"}},
                    "required": ["skipper"],
                },
            },
        },
    ]
    charters = {
        f"C-{100 + i}": {"charter_id": f"C-{100 + i}", "skipper": f"sk{i}", "created": f"2031-03-2{i}"}
        for i in range(1, 6)
    }
    docs, data = tmp_path / "harbour_tools.json", tmp_path / "harbour.json"
    docs.write_text(json.dumps(tools))
    data.write_text(json.dumps({"charters": charters}))
    out = tmp_path / "env"
    config = SynthConfig(env_id="harbour", route="structured", data=str(data))
    draft = synthesize_environment([docs], out, None, config)
    line = sampled_date_line("2031-03-26")  # the day after the latest `created`
    assert "Assumed: " + line in (out / "REPORT.md").read_text()
    assert line in draft.manifest["policy"]  # the agent reads the date the tools work on
    env = Environment(out)
    env.reset(initial_state={"charters": charters})
    made = env.step({"name": "create_charter", "arguments": {"skipper": "sk9"}})
    assert made.info["ok"], made.observation
    assert made.info["result"]["created"] == "2031-03-26"
