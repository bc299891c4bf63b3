"""Review probes for the session-51 readers (harbour words only): the `{count, piers}` envelope without brackets,
the other collection's rows a list answers inside each record, the state a change's answer names, states written
unquoted before the record's noun (and a rule's clause cut at its colon), an entry logged without naming its list,
and a list answer that found nothing. Right readings are plain asserts; each misfire (a reading the sentence does
not mean) or miss (a common phrasing not read) is a strict xfail asserting what the sentence means. Of the fifty
found, thirty-six were fixed in the same session and are plain asserts now; the rest stay strict xfails."""

from __future__ import annotations

import re
from typing import Any

import pytest

from synth.envsynth.answer_extras import answer_extras
from synth.envsynth.docs_entries import named_entries
from synth.envsynth.envelope import list_envelope
from synth.envsynth.gate import _found_nothing
from synth.envsynth.item_rules import stated_states
from synth.envsynth.plan import ToolPlan
from synth.envsynth.policy_rules import docs_transition, transition_rules
from synth.envsynth.returned_states import returned_state
from synth.envsynth.summary_rows import summary_rows
from synth.spec import ToolSpec
from tests.schemas import collection


def x(kind: str, reason: str, *values: Any) -> Any:
    """A probe that fails today (`kind` "misfire" or "miss"), asserting the right reading."""
    return pytest.param(*values, marks=pytest.mark.xfail(strict=True, reason=f"{kind}: {reason}"))


# ---------------------------------------------------------------- 1. list_envelope: "Returns {count, piers}"

NAME_ARG = {"type": "object", "properties": {"name": {"type": "string"}}}
FIND = ToolPlan(kind="filter", collection="piers", key_field="pier_id", filter_params=["name"])
ENV = ("piers", "count", [])


def envelope(description: str, plan: ToolPlan = FIND, returns: dict[str, Any] | None = None) -> Any:
    return list_envelope(ToolSpec("find_piers", description, NAME_ARG, returns=returns), plan)


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("Find piers. Returns {count, piers}.", ENV),
        ("Find piers. Returns {piers, count}.", ENV),
        ("Find piers. Returns {total, piers}.", ("piers", "total", [])),
        ("Find piers. Returns an object {count, piers}.", ENV),
        ("Find piers. Responds with {count, piers}.", ENV),
        ("Find piers. Returns { count, piers } (count is 0 when nothing matches).", ENV),
        ("Find piers. Returns {count, pier}.", None),  # not the collection's own name
        ("Find piers. Returns {count, berths}.", None),  # another collection
        ("Find piers. Returns {count, next_cursor}.", None),
        ("Find piers. Returns {count, piers, next_page}.", None),  # three fields: not this envelope
        ("Find piers by name; returns {count, piers}.", ENV),
        x("miss", "typed fields", "Find piers. Returns {count: integer, piers: array}.", ENV),
        x("miss", "generic list name", "Find piers. Returns {count, results}.", ("results", "count", [])),
    ],
)
def test_count_envelope_without_brackets(said: str, expected: Any) -> None:
    assert envelope(said) == expected


def test_envelope_needs_a_list_read_and_its_own_collection() -> None:
    get = ToolPlan(kind="get", collection="piers", key_field="pier_id", key_param="pier_id")
    assert envelope("Get a pier. Returns {count, piers}.", get) is None
    docks = ToolPlan(kind="search", collection="fuel_docks", key_field="fuel_dock_id")
    assert envelope("Find fuel docks. Returns {count, fuel_docks}.", docks) == ("fuel_docks", "count", [])


@pytest.mark.xfail(strict=True, reason="misfire: a total that sums fares is read as the count of trips")
def test_a_total_that_sums_fares_is_no_count() -> None:
    trips = ToolPlan(kind="filter", collection="trips", key_field="trip_id", filter_params=["name"])
    assert envelope("List trips. Returns {total, trips}; total is the sum of all fares.", trips) is None


@pytest.mark.xfail(strict=True, reason="misfire: a schema's `piers` typed object (a map) is read as the list")
def test_a_schema_object_under_the_collection_name_is_no_list() -> None:
    piers = {"type": "object", "additionalProperties": {}}
    returns = {"type": "object", "properties": {"count": {"type": "integer"}, "piers": piers}}
    assert envelope("Find piers.", returns=returns) is None


# ---------------------------------------------------------------- 2. summary_rows / answer_extras

PIER = {
    "pier_id": {"type": "string"},
    "name": {"type": "string"},
    "berth_ids": {"type": "array", "items": {"type": "string", "x-references": "berths"}},
}
BERTH = {
    "berth_id": {"type": "string"},
    "size": {"type": "string"},
    "depth": {"type": "number"},
    "pier_id": {"type": "string", "x-references": "piers"},
}
COLS = {"piers": collection(PIER), "berths": collection(BERTH)}
LISTED = {"op": "rows", "collection": "berths", "list": "berth_ids", "fields": ["berth_id", "size"]}
ROWS = ("berths", LISTED)


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        ("a berths summary (berth_id, size)", ROWS),
        ("the berths summary (berth_id, size)", ROWS),
        ("its berths (berth_id, size)", ROWS),
        ("a berths list (berth_id, size)", ROWS),
        ("a berths summary (berth_id, size, depth)", ("berths", {**LISTED, "fields": ["berth_id", "size", "depth"]})),
        ("a berths summary (berth_id)", None),  # one field: not read
        ("free berths (berth_id, size)", None),  # only some of the pier's berths
        ("a berths summary (berth_id, size) for free berths only", None),
        ("a berths count (berth_id, size)", None),
        ("the piers summary (pier_id, name)", None),  # the record's own collection
        ("a harbours summary (harbour_id, name)", None),
        ("a berths summary (`berth_id`, `size`)", ROWS),
        ("a list of berths (berth_id, size)", ROWS),
        ("a summary of its berths (berth_id, size)", ROWS),
        ("a berths summary (berth_id and size)", ROWS),
    ],
)
def test_summary_rows_phrasings(item: str, expected: Any) -> None:
    assert summary_rows(item, "piers", COLS) == expected


def test_summary_rows_by_reference_and_ambiguity() -> None:
    lone = {"piers": collection({"pier_id": {"type": "string"}}), "berths": collection(BERTH)}
    by_ref = {"op": "rows", "collection": "berths", "ref": "pier_id", "fields": ["berth_id", "depth"]}
    assert summary_rows("the berths (berth_id, depth)", "piers", lone) == ("berths", by_ref)
    two = {**PIER, "closed_berth_ids": PIER["berth_ids"]}  # two lists of berths: which one is unsaid
    assert summary_rows("a berths summary (berth_id, size)", "piers", {**COLS, "piers": collection(two)}) is None


@pytest.mark.xfail(strict=True, reason="miss: a plain `pier_id` (no x-references), which embeds() accepts")
def test_summary_rows_by_a_plain_id_field() -> None:
    plain = {"berth_id": {"type": "string"}, "size": {"type": "string"}, "pier_id": {"type": "string"}}
    cols = {"piers": collection({"pier_id": {"type": "string"}}), "berths": collection(plain)}
    assert summary_rows("a berths summary (berth_id, size)", "piers", cols) is not None


STATE_SCHEMA = {"type": "object", "properties": COLS}
EACH_PLUS = "Find piers. Returns {count, piers}, each pier plus a berths summary (berth_id, size)."
EACH_WITH = "Find piers. Returns {count, piers}, each pier with a berths summary (berth_id, size)."
PLUS_COMMA = "Find piers. Returns {count, piers} plus, for each pier, a berths summary (berth_id, size)."


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (EACH_PLUS, {"berths": LISTED}),
        ("Find piers. Returns the matching piers, each plus a berths summary (berth_id, size).", {"berths": LISTED}),
        ("Find piers. Returns {count, piers}.", {}),
        x("miss", "'each pier with a berths summary' (no 'plus')", EACH_WITH, {"berths": LISTED}),
        x("miss", "'plus, for each pier, ...' (a comma after plus)", PLUS_COMMA, {"berths": LISTED}),
    ],
)
def test_answer_extras_on_a_list_read(said: str, expected: Any) -> None:
    assert answer_extras(ToolSpec("find_piers", said, NAME_ARG), FIND, STATE_SCHEMA) == expected


def test_answer_extras_on_one_record() -> None:
    get = ToolPlan(kind="get", collection="piers", key_field="pier_id", key_param="pier_id")
    said = "Get a pier. Returns the pier plus a berths summary (berth_id, size)."
    assert answer_extras(ToolSpec("get_pier", said, NAME_ARG), get, STATE_SCHEMA) == {"berths": LISTED}


# ---------------------------------------------------------------- 3. returned_state / transition_rules

STATUS_WORD = re.compile(r"\bstatus\b", re.I)
KNOWN = ["booked", "boarding", "sailed", "cancelled"]
STATUS = {"type": "string", "x-enum": KNOWN}
CHARTER = {"properties": {"charter_id": {"type": "string"}, "status": STATUS, "notes": {"type": "string"}}}
CHARTER_ARG = {"type": "object", "properties": {"charter_id": {"type": "string"}}, "required": ["charter_id"]}


def sets(name: str, description: str) -> dict[str, Any]:
    return transition_rules(ToolSpec(name, description, CHARTER_ARG), CHARTER, "")[0]


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Returns the updated charter (status `boarding`).", "boarding"),
        ('Returns the updated charter (status "boarding").', "boarding"),
        ("Returns the charter with its status set to 'boarding'.", "boarding"),
        ("Returns the charter record (status 'boarding').", "boarding"),
        ("Returns the record (status 'boarding').", "boarding"),
        ("On success, returns the updated charter (status 'boarding').", "boarding"),
        ("Returns the charters (status 'boarding').", "boarding"),
        ("Returns the charter (skipper status 'sailed').", None),  # another record's status
        ("Returns the charter with the skipper's status 'sailed'.", None),
        ("Returns the charter (previous status 'booked').", None),
        ("Returns the charter with status not 'cancelled'.", None),
        ("Returns the updated trip (status 'boarding').", None),  # not the tool's noun
        ("Returns the updated charter (status: 'boarding').", "boarding"),
        ("Returns the updated charter, now with status 'boarding'.", "boarding"),
        ("Returns the charter object (status 'boarding').", "boarding"),
        ("Returns the updated charter (status boarding).", "boarding"),
        x("misfire", "the state left is read", "Returns the charter (status 'booked' -> 'boarding').", "boarding"),
        ("Returns the charter (status 'boarding' or 'booked').", None),
        ("Never returns the charter with status 'cancelled'.", None),
    ],
)
def test_returned_state_phrasings(sentence: str, expected: Any) -> None:
    assert returned_state(sentence, STATUS_WORD, KNOWN, {"board", "charter"}) == expected


def test_transition_rules_read_the_answered_state() -> None:
    said = "Sail a charter. Returns the charter with status 'sailed', and its fares."
    assert sets("sail_charter", said) == {"status": "sailed"}
    said = "Board a charter. Returns the updated charter (status 'boarding'). If the fuel is low, returns an error."
    assert sets("board_charter", said) == {"status": "boarding"}
    said = "Board a charter. If the skipper is late, returns the charter (status 'booked')."
    assert sets("board_charter", said) == {}
    assert sets("board_charter", "Board a charter. Returns the boat (status 'boarding').") == {}


CANCELLED = "Cancel a charter. Returns the cancelled charter (status 'cancelled')."
TWO_WORDS = "Sail a boat charter. Returns the updated boat charter (status 'sailed')."
WHEN_NO_COMMA = "Board a charter. When the skipper is late it returns the charter (status 'booked')."
TRAILING_IF = "Board a charter. Returns the charter with status 'booked' unchanged if the skipper is absent."
PASSENGER = "Seat a passenger on a charter. Returns the passenger (status 'boarding')."


@pytest.mark.parametrize(
    ("name", "said", "expected"),
    [
        ("cancel_charter", CANCELLED, {"status": "cancelled"}),
        x("miss", "a two-word noun", "sail_boat_charter", TWO_WORDS, {"status": "sailed"}),
        ("board_charter", WHEN_NO_COMMA, {}),
        ("board_charter", TRAILING_IF, {}),
        x("misfire", "the passenger's status is read as the charter's", "seat_passenger", PASSENGER, {}),
    ],
)
def test_transition_rules_probes(name: str, said: str, expected: dict[str, Any]) -> None:
    assert sets(name, said) == expected


# ---------------------------------------------------------------- 4. stated_states / _bare_before

PROPS = {
    "charter_id": {"type": "string"},
    "status": {"type": "string", "x-enum": [*KNOWN, "checked_in"]},
    "skipper_id": {"type": "string"},
}
BOOKED = {"status": ["booked"]}
BOTH = {"status": ["booked", "checked_in"]}


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("Board a booked charter.", BOOKED),
        ("Boards the booked charter. Returns the charter.", BOOKED),
        ("Board a checked-in charter.", {"status": ["checked_in"]}),
        ("Board a checked in charter.", {"status": ["checked_in"]}),
        ("Moves a booked charter to boarding.", BOOKED),
        ("Board a charter; its skipper must be booked.", {}),  # the skipper's state
        ("Board a charter. A charter must be booked: a cancelled charter must be rebooked first.", BOOKED),
        ("Board a charter. The charter must not be cancelled.", {}),
        ("Board a charter. The charter must be booked, not cancelled.", BOOKED),
        ("Board a charter. Only for charters in status booked.", BOOKED),
        ("Board a charter. Only possible while the charter is 'booked'.", BOOKED),
        ("Board the charter. A sailed charter is refused.", {}),
        ("Board the charter. Boarding a cancelled charter returns an error.", {}),
        ("Board the charter. A cancelled charter cannot be boarded.", {}),
        ("Board a charter (not a cancelled charter).", {}),
        ("Board a charter. Returns the boarding charter.", {}),
        ("Board the charter. If it is a booked charter, its fare is charged.", {}),
        ("Board a charter. See also: sail a boarding charter.", {}),
        ("Board a booked or checked-in charter.", BOTH),
        ("Board a booked charter or a checked-in charter.", BOTH),
        ("Board a charter. The charter must be: booked or checked in.", BOTH),
        ("Board a charter. The charter must not be 'cancelled'.", {}),
        ("The charter must be booked (a sailed charter cannot board).", BOOKED),  # an aside names no state (s54)
        x(
            "misfire",
            "(older) the verb, not the state",
            "Board a charter. Charters must be booked at least a day ahead.",
            {},
        ),
        x("misfire", "(older) the skipper's state", "The charter only boards when its skipper is booked.", {}),
    ],
)
def test_stated_states_phrasings(said: str, expected: dict[str, Any]) -> None:
    assert stated_states(said, "charter", PROPS) == expected


def test_blank_values_and_shared_values_are_no_states() -> None:
    blank = {**PROPS, "notes": {"type": "string", "x-enum": ["", "late"]}}
    assert stated_states("Board a charter. The charter must be '' or 'booked'.", "charter", blank) == BOOKED
    shared = {**PROPS, "fuel": {"type": "string", "x-enum": ["booked", "full"]}}  # two fields know 'booked'
    assert stated_states("Board a booked charter.", "charter", shared) == {}


PIER_STATUS = {"status": {"type": "string", "x-enum": ["open", "closed"]}}
FRESH = {"status": {"type": "string", "x-enum": ["new", "confirmed", "sailed"]}}
NEW_CHARTER = "Confirm a charter. The skipper gets a message about the new charter."


@pytest.mark.parametrize(
    ("said", "noun", "props"),
    [
        ("Close a pier. Berths of a closed pier are freed.", "pier", PIER_STATUS),
        (NEW_CHARTER, "charter", FRESH),  # a plain adjective, not the state `new`
    ],
)
def test_bare_before_common_words(said: str, noun: str, props: dict[str, Any]) -> None:
    assert stated_states(said, noun, props) == {}


def test_refused_state_is_no_precondition_of_the_transition() -> None:
    schema = {"type": "object", "properties": {"charters": collection(CHARTER["properties"])}}
    plan = ToolPlan(kind="update", collection="charters", key_field="charter_id", key_param="charter_id")
    said = "Board a charter. Returns the updated charter (status 'boarding'). A sailed charter is refused."
    found = docs_transition(ToolSpec("board_charter", said, CHARTER_ARG), plan, schema, "")
    assert found is not None and "sailed" not in (found.preconditions.get("status") or [])


# ---------------------------------------------------------------- 5. named_entries: 'a "rerouted" entry is logged'

KIND = {"type": "string", "x-enum": ["booked", "rerouted", "sailed"]}
ENTRY = {"type": "object", "properties": {"kind": KIND, "on": {"type": "string"}, "note": {"type": "string"}}}
OWN = {"charter_id": {"type": "string"}, "route": {"type": "string"}, "log": {"type": "array", "items": ENTRY}}
RECORDS = [
    {
        "charter_id": "C-1",
        "route": "north",
        "log": [
            {"kind": "booked", "on": "2031-01-01", "note": ""},
            {"kind": "rerouted", "on": "2031-01-02", "note": ""},
        ],
    },
    {"charter_id": "C-2", "route": "south", "log": [{"kind": "rerouted", "on": "2031-01-03", "note": ""}]},
]
ROUTE_ARGS = {"type": "object", "properties": {"charter_id": {"type": "string"}, "route": {"type": "string"}}}
REROUTED = [("log", "rerouted", "2031-02-03")]


def appended(said: str, own: dict[str, Any] = OWN, records: list[dict[str, Any]] = RECORDS) -> list[dict[str, Any]]:
    return named_entries(said, "charter", own, ROUTE_ARGS, records, "2031-02-03")


def logged(said: str) -> list[Any]:
    """(list, kind, date) of each unconditional append; a conditional one as it is."""
    out = []
    for e in appended(said):
        fields = e["items"][0]["fields"]
        out.append(e if e.get("when") else (e["field"], fields["kind"].get("value"), fields["on"].get("value")))
    return out


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ('Reroute a charter. A "rerouted" entry is logged.', REROUTED),
        ("Reroute a charter. A 'rerouted' entry is logged.", REROUTED),
        ("Reroute a charter. A `rerouted` entry is added.", REROUTED),
        ("Reroute a charter. A `rerouted` event is recorded.", REROUTED),
        ("Reroute a charter. A `rerouted` entry is appended for the charter.", REROUTED),
        ("Reroute a charter. A `rerouted` entry is logged (with the route as its note).", REROUTED),
        ("Reroute a charter. A `rerouted` entry is logged in the skipper's log.", []),  # another record's list
        ("Reroute a charter. A `rerouted` entry is logged to the pier's log.", []),
        ("Reroute a charter. A `rerouted` entry is not logged.", []),
        ("Reroute a charter. No `rerouted` entry is logged.", []),
        ("Reroute a charter. A `moored` entry is logged.", []),  # no list knows that kind
        ("Reroute a charter. Logs a `rerouted` entry.", REROUTED),
        ("Reroute a charter. A `rerouted` entry will be logged.", REROUTED),
        ("Reroute a charter. `rerouted` entries are logged.", REROUTED),
        ("Reroute a charter. A `rerouted` entry gets logged.", REROUTED),
        ("Reroute a charter. A rerouted entry is logged.", REROUTED),
    ],
)
def test_logged_without_a_list_named(said: str, expected: list[Any]) -> None:
    assert logged(said) == expected


@pytest.mark.parametrize(
    "said",
    [
        "Reroute a charter. If the route changes, a `rerouted` entry is logged.",
        "Reroute a charter. A `rerouted` entry is logged only if the route changes.",
    ],
)
def test_a_conditional_entry_is_not_logged_on_every_call(said: str) -> None:
    assert all(e.get("when") for e in appended(said))  # none, or each under its condition


def test_two_lists_knowing_the_kind_leave_it_unsaid() -> None:
    own = {**OWN, "crew_log": {"type": "array", "items": ENTRY}}
    records = [{**r, "crew_log": []} for r in RECORDS]
    assert appended("Reroute a charter. A `rerouted` entry is logged.", own, records) == []


# ---------------------------------------------------------------- 6. gate._found_nothing


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ({"count": 0, "piers": []}, True),
        ({"total": 0, "piers": [], "next_cursor": None}, True),
        ({"piers": []}, True),
        ([], True),
        (None, True),
        ({"count": 1, "piers": [{"pier_id": "P-1"}]}, False),
        ({"count": 0, "piers": [{}]}, False),
        ({"pier_id": "P-1", "berth_count": 0, "berth_ids": []}, False),  # a record found
        ({"fuel_level": 0, "status": "", "notes": None}, False),  # a record's zero values, no list
        ({"page": 1, "count": 0, "piers": []}, True),
        x("miss", "a null list", {"count": 0, "piers": None}, True),
    ],
)
def test_found_nothing(answer: Any, expected: bool) -> None:
    assert _found_nothing(answer) is expected
