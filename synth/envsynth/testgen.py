"""Generated tests per tool. They come from the docs and the LLM, never from the tool's code.

Three sources: (1) behaviour questions answered by the LLM (weak-model route) turned into concrete cases
by recipes, (2) whole cases written by the LLM (strong-model route), checked for internal consistency,
(3) examples in the docs. Property checks (any schema-valid input -> JSON or ToolError, valid state)
need no LLM and live in `property_cases`.
"""

from __future__ import annotations

import copy
import json
import random
import re
from dataclasses import asdict, dataclass, field
from typing import Any

import jsonschema

from synth.envsynth.ask import ChatClient, ask_yes_no
from synth.envsynth.priors import ToolPriors, description_verb
from synth.envsynth.sampling import (
    collections_of,
    named_records_exist,
    sample_arguments,
    sample_record,
    sample_state,
    sample_value,
    typed_key,
)
from synth.llm.prompts import render
from synth.spec import ToolSpec
from synth.words import plural, singular


@dataclass(slots=True)  # slots: a misspelt or unknown check set on a case raises instead of being ignored
class TestCase:
    """One test: a state, the arguments, and what must hold afterwards.

    `expect_error`: True / False, or None when either is acceptable. `state_checks` items:
    {"op": "unchanged"} | {"op": "absent"|"present", "collection", "key"} |
    {"op": "field_equals", "collection", "key", "field", "value"} |
    {"op": "some_record_has", "collection", "fields": {...}} | {"op": "equals", "state": {...}}.
    """

    tool: str
    origin: str  # "llm-questions" | "llm-cases" | "doc-example" | "property"
    state: dict[str, Any]
    arguments: dict[str, Any]
    expect_error: bool | None = None
    expect_result: Any = None
    has_expected_result: bool = False
    state_checks: list[dict[str, Any]] = field(default_factory=list)
    why: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "TestCase":
        return cls(**{k: v for k, v in d.items() if k in cls.__dataclass_fields__})


@dataclass
class TestView:
    """What the test writer believes about a tool, from the docs and its own LLM answers."""

    mutates: bool
    verb: str | None
    collection: str | None
    key_param: str | None
    missing_fails: bool | None
    votes: dict[str, Any] = field(default_factory=dict)


def _view(
    spec: ToolSpec, pri: ToolPriors, state_schema: dict[str, Any], client: ChatClient | None, votes: int
) -> TestView:
    cols = collections_of(state_schema)
    col = plural(pri.resource or "") if plural(pri.resource or "") in cols else None
    props = spec.parameters.get("properties") or {}
    key_param = None
    if col:
        kf = cols[col].get("x-key-field")
        res = singular(col)
        required = spec.parameters.get("required")
        for cand in pri.path_params + [kf, f"{res}Id", f"{res}_id", f"{res}Name", "id", "name"]:
            if not cand or cand not in props or props[cand].get("type") not in ("string", "integer"):
                continue
            searching = pri.kind_guess in ("search", "list")  # an update's body id may well be optional
            if searching and cand not in (required or []) and cand not in pri.path_params:
                continue  # a search's optional argument is a filter, not the record the call names
            key_param = cand
            break
    mutates = pri.mutates
    if mutates is None and "examples" in state_schema:  # grounded: the description's opening verb is the docs' word
        verb = description_verb(spec)
        mutates = None if verb is None else verb in ("create", "delete", "update")
    v: dict[str, Any] = {}
    if mutates is None and client is not None:
        vote = ask_yes_no(
            client, "envsynth_mutates.j2", votes, "tests.mutates", name=spec.name, description=spec.description[:300]
        )
        v["mutates"] = vote.to_dict()
        mutates = bool(vote.decision)
    missing = None
    if key_param and pri.kind_guess == "create":
        key_param = None  # a create names a record that need not exist yet: no unknown-key case
    if key_param and client is not None:
        vote = ask_yes_no(
            client,
            "envsynth_missing_fails.j2",
            min(votes, 2),
            "tests.missing",
            name=spec.name,
            description=spec.description[:300],
            key=key_param,
        )
        v["missing_fails"] = vote.to_dict()
        missing = vote.decision
    if missing is None and key_param and pri.kind_guess in ("get", "update", "delete"):
        missing = True  # the doc's verb: an operation on one named record fails when it is absent
    if key_param and not mutates and no_match_is_empty(spec):
        missing = False  # the docs say a search that matches nothing answers an empty list
    return TestView(
        mutates=bool(mutates), verb=pri.kind_guess, collection=col, key_param=key_param, missing_fails=missing, votes=v
    )


EMPTY_WORDS = re.compile(
    r"\b(empty (array|list|result)|possibly (none|empty)|(may|can) be empty|no (results?|matches))\b", re.I
)
NOT_FOUND_WORDS = re.compile(r"\b(not found|does not exist|no such|unknown)\b", re.I)


def no_match_is_empty(spec: ToolSpec) -> bool:
    """The docs say a read that matches nothing answers an empty list (and name no not-found error): its
    response is an array, or its text says so."""
    text = spec.description + " " + json.dumps(spec.returns or {})
    if NOT_FOUND_WORDS.search(spec.description):
        return False
    returns_list = isinstance(spec.returns, dict) and spec.returns.get("type") == "array"
    return returns_list or bool(EMPTY_WORDS.search(text))


def _state_with_record(state_schema: dict[str, Any], col: str | None, rng: random.Random) -> dict[str, Any]:
    state = sample_state(state_schema, rng, max_records=3)
    if col and not state.get(col):
        entry = collections_of(state_schema)[col]
        kf = entry.get("x-key-field")
        ktype = (entry["additionalProperties"].get("properties", {}).get(kf or "", {}) or {}).get("type")
        rec = sample_record(entry, rng, 7 if ktype == "integer" else f"{singular(col)}-7")
        state[col] = {str(rec[kf]) if kf else "k": rec}
    return state


def _adds_to_own_list(pri: ToolPriors, state_schema: dict[str, Any], col: str | None) -> bool:
    """Whether a create's name goes on past its record's noun with the noun of one of that record's list fields
    (`add_<record>_<entry>` beside a list `<entry>s`): the call adds an entry to a record on file, not a record."""
    if not col or not pri.resource or pri.resource not in pri.words:
        return False
    rest = pri.words[pri.words.index(pri.resource) + 1 :]
    props = collections_of(state_schema)[col]["additionalProperties"].get("properties", {})
    lists = {name for name, sub in props.items() if isinstance(sub, dict) and sub.get("type") == "array"}
    return len(rest) == 1 and plural(rest[0]) in lists


def _links_on_file(state: dict[str, Any], state_schema: dict[str, Any], col: str, key: str) -> None:
    """The records the named record links to (`<noun>_id` fields), copied in from another example state of the
    grounded schema when the drawn one lacks them (its cuts draw disjoint records)."""
    record = (state.get(col) or {}).get(key)
    cols = collections_of(state_schema)
    for name, value in sorted(record.items()) if isinstance(record, dict) else []:
        other = plural(name[:-3]) if name.endswith("_id") else ""
        if other not in cols or other == col or not isinstance(value, (str, int)) or isinstance(value, bool):
            continue
        held = state.setdefault(other, {})
        if not isinstance(held, dict) or str(value) in held:
            continue
        for example in state_schema.get("examples") or []:
            found = (example.get(other) or {}).get(str(value)) if isinstance(example.get(other), dict) else None
            if isinstance(found, dict):
                held[str(value)] = copy.deepcopy(found)
                break


def _accepts(field_schema: dict[str, Any], value: Any) -> bool:
    """Whether a record field's schema (enum, pattern, type) accepts `value`."""
    try:
        return jsonschema.Draft202012Validator(field_schema).is_valid(value)
    except jsonschema.exceptions.SchemaError:  # pragma: no cover - schemas are checked when built
        return True


def _named_record(state: dict[str, Any], collection: str, args: dict[str, Any]) -> dict[str, Any] | None:
    """The one record of the collection an argument names, or None."""
    records = state.get(collection) if isinstance(state.get(collection), dict) else {}
    named = [records[str(v)] for v in args.values() if isinstance(v, (str, int)) and str(v) in records]
    return named[0] if len(named) == 1 and isinstance(named[0], dict) else None


def _required_values(
    spec: ToolSpec, state: dict[str, Any], args: dict[str, Any], state_schema: dict[str, Any], rng: random.Random
) -> None:
    """Values the docs require of a call, so some calls get through (read from the docs, never the code): an
    argument that is the new state along the moves drawn ("`open` → `scheduled`") starts the record in a state
    with a move and takes one of its moves (state_moves.arrow_moves); an argument that must equal a value on file
    ("the code must equal the mooring's `gate_code`") takes it (matched_params.matching_checks)."""
    from synth.envsynth.matched_params import matching_checks
    from synth.envsynth.state_moves import arrow_moves

    params = spec.parameters.get("properties") or {}
    moved_once = False
    for name, entry in sorted(collections_of(state_schema).items()):
        record = _named_record(state, name, args)
        if record is None:
            continue
        moved = arrow_moves(spec.description, entry["additionalProperties"].get("properties", {}), params)
        if moved is not None and not moved_once:
            start = rng.choice(sorted(s for s, targets in moved["map"].items() if targets))
            record[moved["field"]] = start
            args[moved["arg"]] = rng.choice(moved["map"][start])
            moved_once = True
        for check in matching_checks(spec.description, params, name, state_schema)[0]:
            if check["op"] == "same" and record.get(check["b"]["path"][0]) is not None:
                args[check["a"]["name"]] = copy.deepcopy(record[check["b"]["path"][0]])


def question_cases(
    spec: ToolSpec,
    pri: ToolPriors,
    state_schema: dict[str, Any],
    client: ChatClient | None,
    seed: int,
    votes: int = 3,
    today: str | None = None,
) -> tuple[list[TestCase], dict[str, Any]]:
    """Route (1): concrete cases built from the docs and the LLM's answers about behaviour (`today`: the business
    date the docs state, near which a happy path's dates fall)."""
    view = _view(spec, pri, state_schema, client, votes)
    cases: list[TestCase] = []
    for i in range(2):
        rng = random.Random(f"{seed}:{spec.name}:happy:{i}")
        state = _state_with_record(state_schema, view.collection, rng)
        fresh = view.verb == "create"
        args = sample_arguments(
            spec.parameters, rng, state, state_schema, p_existing=0.0 if fresh else 1.0, today=today
        )
        # when the system numbers the new record, the records it names are on file (a call that gives the new
        # record's own key may name what it adds: left as drawn)
        made_key = collections_of(state_schema).get(view.collection or "", {}).get("x-key-field")
        if fresh and view.collection and made_key not in args:
            named_records_exist(args, state, state_schema, rng, view.collection)
        into = fresh and _adds_to_own_list(pri, state_schema, view.collection) and made_key in args
        if into and state.get(view.collection or ""):  # "add_<record>_<entry>": the record it adds to is on file
            args[made_key] = typed_key(args[made_key], rng.choice(sorted(state[view.collection or ""])))
            named_records_exist(args, state, state_schema, rng, view.collection or "")
            _links_on_file(state, state_schema, view.collection or "", str(args[made_key]))
        if view.collection:  # a happy path writes values the state's schema accepts
            rec_fields = collections_of(state_schema)[view.collection]["additionalProperties"].get("properties", {})
            for f in list(args):
                if f != view.key_param and f in rec_fields and not _accepts(rec_fields[f], args[f]):
                    args[f] = sample_value(rec_fields[f], rng)  # an enum value, or one of the data's examples
        checks: list[dict[str, Any]] = []
        key = str(args.get(view.key_param)) if view.key_param and view.key_param in args else None
        exists = bool(view.collection and key is not None and key in state.get(view.collection, {}))
        _required_values(spec, state, args, state_schema, rng)  # a drawn move, a value on file
        expect_error: bool | None = None
        if not view.mutates:
            checks.append({"op": "unchanged"})
            if exists:
                expect_error = False
        elif view.verb == "delete" and exists:
            checks.append({"op": "absent", "collection": view.collection, "key": key})
            expect_error = False
        elif view.verb == "update" and exists and view.collection:
            rec_fields = collections_of(state_schema)[view.collection]["additionalProperties"].get("properties", {})
            for f, val in args.items():
                if (
                    f in rec_fields
                    and f != view.key_param
                    and f != collections_of(state_schema)[view.collection].get("x-key-field")
                ):
                    checks.append(
                        {"op": "field_equals", "collection": view.collection, "key": key, "field": f, "value": val}
                    )
            expect_error = False
        elif into:
            expect_error = False  # an entry added to a record on file: the call succeeds
        elif view.verb == "create" and view.collection and not pri.array_params:
            rec_fields = collections_of(state_schema)[view.collection]["additionalProperties"].get("properties", {})
            kf = collections_of(state_schema)[view.collection].get("x-key-field")
            if kf in args and str(args[kf]) in state.get(view.collection, {}):
                continue
            fields = {f: v for f, v in args.items() if f in rec_fields}
            checks.append({"op": "some_record_has", "collection": view.collection, "fields": fields})
            expect_error = False
        cases.append(
            TestCase(
                spec.name,
                "llm-questions",
                state,
                args,
                expect_error,
                state_checks=checks,
                why=f"happy path ({'read-only' if not view.mutates else view.verb})",
            )
        )
    if view.key_param and view.collection and view.missing_fails is not None:
        rng = random.Random(f"{seed}:{spec.name}:missing")
        state = sample_state(state_schema, rng, max_records=2)
        args = sample_arguments(spec.parameters, rng, state, state_schema, p_existing=0.0)
        ptype = (spec.parameters.get("properties") or {})[view.key_param].get("type")
        args[view.key_param] = 987654 if ptype == "integer" else "no-such-record"
        checks = [{"op": "unchanged"}] if view.missing_fails else []
        cases.append(
            TestCase(
                spec.name,
                "llm-questions",
                state,
                args,
                view.missing_fails,
                state_checks=checks,
                why=f"unknown {view.key_param}",
            )
        )
    return cases, asdict(view)


CASES_SCHEMA = {
    "type": "object",
    "properties": {
        "cases": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "state": {"type": "object"},
                    "arguments": {"type": "object"},
                    "error": {"type": "boolean"},
                    "result": {},
                    "expect_state": {"type": "object"},
                },
                "required": ["state", "arguments"],
            },
        }
    },
    "required": ["cases"],
}


def llm_cases(
    spec: ToolSpec, state_schema: dict[str, Any], client: ChatClient, n: int = 3
) -> tuple[list[TestCase], list[str]]:
    """Route (2): whole cases written by the LLM; inconsistent ones are dropped with the reason."""
    prompt = render(
        "envsynth_test_cases.j2",
        name=spec.name,
        description=spec.description[:500],
        n=n,
        parameters=json.dumps(spec.parameters, sort_keys=True)[:1500],
        state_schema=json.dumps(state_schema, sort_keys=True)[:2500],
    )
    try:
        data = client.json([{"role": "user", "content": prompt}], CASES_SCHEMA, max_tokens=1200, tag="tests.cases").data
    except Exception as ex:  # the LLM never produced valid JSON: no cases from this route
        return [], [f"no valid cases: {ex}"]
    kept, dropped = [], []
    for raw in data.get("cases", [])[:n]:
        problem = case_consistency_problem(raw, spec, state_schema)
        if problem:
            dropped.append(problem)
            continue
        checks = [{"op": "equals", "state": raw["expect_state"]}] if "expect_state" in raw else []
        kept.append(
            TestCase(
                spec.name,
                "llm-cases",
                raw["state"],
                raw["arguments"],
                raw.get("error"),
                expect_result=raw.get("result"),
                has_expected_result="result" in raw and not raw.get("error"),
                state_checks=checks,
                why="written by the LLM",
            )
        )
    return kept, dropped


def case_consistency_problem(raw: dict[str, Any], spec: ToolSpec, state_schema: dict[str, Any]) -> str | None:
    """Why an LLM-written case cannot be right, or None."""
    for what, inst, schema in (
        ("state", raw.get("state"), state_schema),
        ("arguments", raw.get("arguments"), spec.parameters),
        ("expect_state", raw.get("expect_state", raw.get("state")), state_schema),
    ):
        err = next(jsonschema.Draft202012Validator(schema).iter_errors(inst), None)
        if err is not None:
            return f"{what} invalid: {err.message[:160]}"
    if raw.get("error") and "expect_state" in raw and raw["expect_state"] != raw["state"]:
        return "a failing call must leave the state unchanged"
    return None


def doc_example_cases(spec: ToolSpec, state_schema: dict[str, Any], seed: int) -> list[TestCase]:
    """Examples from the docs: the call must not crash and must keep the state valid."""
    out = []
    for i, ex in enumerate(spec.examples):
        args = ex.get("arguments")
        if not isinstance(args, dict) or next(jsonschema.Draft202012Validator(spec.parameters).iter_errors(args), None):
            continue
        state = sample_state(state_schema, random.Random(f"{seed}:{spec.name}:example:{i}"), max_records=2)
        out.append(TestCase(spec.name, "doc-example", state, copy.deepcopy(args), None, why="example from the docs"))
    return out


def property_cases(spec: ToolSpec, state_schema: dict[str, Any], seed: int, n: int) -> list[TestCase]:
    """Random schema-valid states and arguments: only JSON-or-ToolError and a valid final state are required."""
    out = []
    for i in range(n):
        rng = random.Random(f"{seed}:{spec.name}:prop:{i}")
        state = sample_state(state_schema, rng)
        args = sample_arguments(spec.parameters, rng, state, state_schema)
        _required_values(spec, state, args, state_schema, rng)
        out.append(TestCase(spec.name, "property", state, args, None, why="property: JSON or ToolError, valid state"))
    return out


__all__ = [
    "TestCase",
    "TestView",
    "case_consistency_problem",
    "doc_example_cases",
    "llm_cases",
    "property_cases",
    "question_cases",
]
