"""Review probes for the docs readers added in session 54, all in harbour words.

Probed, each with near variants of its docstring examples (which it must read) and near misses (which it must not):
- `mode_rules`: `mode_segments` / `_bare_label` on bare-value clauses ("suspend (...) stops ...; reactivate brings
  ...", "power_on / power_off switch ..."), and `_verb_state` (participles, `re...ate` stems, `x_on` / `x_off`);
- `returns_shape._possessive_fields` through `returned_fields` ("Returns the berth's status, hold_reason and ...");
- `refusals.refused_kinds` in the tool's own verb ("Retired skippers cannot be topped up");
- `docs_counters` with `_added_to`, `OPENS_ADDING` and `ERRORS_TAIL` ("Add credit to a skipper's purse");
- `priors.tool_priors` for the new write verbs of names (swap, settle, top, ...) and `browse`;
- `get_rules._naming_field` and `SPELT_NUMBER` (a skipper looked up by one of their boats' hull numbers);
- `envelope._returned_with` and `their_totals` ("with every boat of the skipper in full", "dues and their
  dues_total");
- `item_rules.stated_states` / `_bare_values` (hyphenated states, asides in brackets);
- `policy_rules.NOUN_BECOMES_BARE` / `MARKED_AFTER_AND` ("the tab marked settled", without "is"), also through
  `transition_rules`.

Probes the readers get right are plain cases; those they misread (misfire) or do not read (miss) are strict xfails
whose reason says why. Of the review's 32 misfires and misses, 10 were fixed in the same session ("credit card" is no
credit balance, `top_` without `up` no write, "with or without spaces" and not "+15%" as a spelt number, the records
answered only "with" / "and" them, "their <x>_total" or "their total" only, "marked" without "is" only after "and"
at a clause's end); they are plain cases now, and 22 stay strict xfails.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from synth.envsynth.docs_counters import OPENS_ADDING, docs_counters
from synth.envsynth.envelope import _returned_with, their_totals
from synth.envsynth.get_rules import SPELT_NUMBER, _naming_field
from synth.envsynth.item_rules import stated_states
from synth.envsynth.mode_rules import _verb_state, mode_segments
from synth.envsynth.policy_rules import MARKED_AFTER_AND, NOUN_BECOMES_BARE, transition_rules
from synth.envsynth.priors import tool_priors
from synth.envsynth.refusals import refused_kinds
from synth.envsynth.returns_shape import returned_fields
from synth.spec import ToolSpec
from tests.schemas import collection

S, N, INT, B = {"type": "string"}, {"type": "number"}, {"type": "integer"}, {"type": "boolean"}


def misfire(*values: Any, why: str, id: str) -> Any:
    """A probe the reader misreads."""
    return pytest.param(*values, id=id, marks=pytest.mark.xfail(strict=True, reason=f"misfire: {why}"))


def miss(*values: Any, why: str, id: str) -> Any:
    """A probe the reader does not read."""
    return pytest.param(*values, id=id, marks=pytest.mark.xfail(strict=True, reason=f"miss: {why}"))


def enum(*values: str) -> dict[str, Any]:
    return {"type": "string", "enum": list(values)}


# --- mode_rules: bare-value clauses -------------------------------------------------------------------------------


def _modes(description: str, values: list[str], param: str = "action") -> Any:
    props = {"boat_id": S, param: enum(*values)}
    return mode_segments(ToolSpec("manage_mooring", description, {"type": "object", "properties": props}))


MODE_READ = [
    pytest.param(
        "Change a mooring's state. suspend (reason gale or repairs; the mooring must be active) halts every charge; "
        "reactivate brings a suspended mooring back.",
        ["suspend", "reactivate"],
        {"suspend": "(reason gale or repairs; the mooring must be active) halts", "reactivate": "brings a suspended"},
        id="aside-then-verb",
    ),
    pytest.param(
        "Work the berth. power_on / power_off switch the shore power; water_on / water_off switch the standpipe.",
        ["power_on", "power_off", "water_on", "water_off"],
        {"power_on": "switch the shore power", "water_off": "switch the standpipe"},
        id="two-shared-pairs",
    ),
    pytest.param(
        "Move a boat on the hard. haul lifts it onto the slipway; launch puts it back afloat. Returns the boat.",
        ["haul", "launch"],
        {"haul": "lifts it onto the slipway", "launch": "puts it back afloat."},
        id="returns-closes-the-last",
    ),
    pytest.param(
        "Manage a tender.\nlaunch puts it in the water.\nrecover lifts it onto the pier.",
        ["launch", "recover"],
        {"launch": "puts it in the water", "recover": "lifts it onto the pier"},
        id="one-per-row",
    ),
    miss(
        "Change a mooring's state. Suspend (reason gale or repairs) halts every charge. Reactivate brings a "
        "suspended mooring back.",
        ["suspend", "reactivate"],
        {"suspend": "(reason gale or repairs) halts", "reactivate": "brings a suspended"},
        why="a value capitalised at the start of its sentence is no label",
        id="capitalised-values",
    ),
    misfire(
        "Change a boat's berth state (e.g. suspend a boat during a gale). suspend stops every service; reactivate "
        "brings it back.",
        ["suspend", "reactivate"],
        {"suspend": "stops every service", "reactivate": "brings it back"},
        why='"e.g. suspend a boat" in an aside is read as the label, so the segment starts there',
        id="eg-before-the-label",
    ),
]


@pytest.mark.parametrize(("description", "values", "segments"), MODE_READ)
def test_bare_value_clauses_are_read(description: str, values: list[str], segments: dict[str, str]) -> None:
    found = _modes(description, values)
    assert found is not None and found[0] == "action"
    for value, start in segments.items():
        assert found[1][value].startswith(start), (value, found[1][value])


MODE_NOT = [
    pytest.param(
        "The crane can haul or launch any boat under twelve tonnes.", ["haul", "launch"], id="values-inside-a-sentence"
    ),
    pytest.param(
        "Move a boat. haul is charged per metre; launch is free.", ["haul", "launch"], id="value-then-is-no-verb"
    ),
    pytest.param(
        "Change a boat's state. suspend stops every service. Returns the boat.",
        ["suspend", "reactivate", "retire"],
        id="one-value-undescribed",
    ),
    misfire(
        "Move a boat. dock fees are charged per night from arrival. undock frees the berth.",
        ["dock", "undock"],
        why='a lower-case value word opening an ordinary sentence ("dock fees are charged") is read as its label',
        id="value-word-opens-a-sentence",
    ),
    misfire(
        "Work the tender. launch crews must wear lifejackets. recover lifts the tender onto the pier.",
        ["launch", "recover"],
        why='"launch crews must wear lifejackets" is read as the `launch` clause',
        id="value-as-a-noun-modifier",
    ),
]


@pytest.mark.parametrize(("description", "values"), MODE_NOT)
def test_plain_sentences_are_no_value_clauses(description: str, values: list[str]) -> None:
    assert _modes(description, values) is None


STATUS = {"status": enum("active", "suspended", "hauled", "stopped", "retired", "moored")}
VERB_STATES = [
    pytest.param(STATUS, "suspend", {"status": "suspended"}, id="suspend"),
    pytest.param({"status": enum("afloat", "hauled")}, "haul", {"status": "hauled"}, id="haul-ed"),
    pytest.param({"status": enum("active", "suspended")}, "reactivate", {"status": "active"}, id="reactivate"),
    pytest.param({"lights_enabled": B, "status": S}, "lights_on", {"lights_enabled": True}, id="lights-on"),
    pytest.param({"power_enabled": B, "power_metered": B}, "power_on", None, id="two-flags-ambiguous"),
    miss(
        {"status": enum("afloat", "laid_up")},
        "lay_up",
        {"status": "laid_up"},
        why="an irregular two-word participle (lay_up -> laid_up) is not spelt",
        id="lay-up",
    ),
    miss(
        {"status": enum("afloat", "hauled_out")},
        "haul_out",
        {"status": "hauled_out"},
        why="a phrasal verb's participle (haul_out -> hauled_out) is not spelt",
        id="haul-out",
    ),
    miss(
        {"lights": B, "status": S},
        "lights_on",
        {"lights": True},
        why="a yes/no field named exactly by the words before _on (`lights`) is not taken",
        id="flag-without-suffix",
    ),
]


@pytest.mark.parametrize(("own", "value", "expected"), VERB_STATES)
def test_a_verb_value_leads_to_its_state(own: dict[str, Any], value: str, expected: Any) -> None:
    assert _verb_state(own, value) == expected


# --- returns_shape: "Returns the boat's a, b and c" ---------------------------------------------------------------


def _names(text: str) -> list[str]:
    return [f.name for f in returned_fields(text)]


RETURNED = [
    pytest.param(
        "Hold a berth. Returns the berth's status, hold_reason and power_enabled.",
        ["berth_id", "status", "hold_reason", "power_enabled"],
        id="berth",
    ),
    pytest.param(
        "Returns the tender's `status`, `fuel_level` and `hull_no`.",
        ["tender_id", "status", "fuel_level", "hull_no"],
        id="backticked",
    ),
    pytest.param(
        "Returns the mooring's status, hold_reason (null unless held) and power_enabled.",
        ["mooring_id", "status", "hold_reason", "power_enabled"],
        id="remark-in-brackets",
    ),
    pytest.param(
        "Returns the charter\u2019s status, skipper_id and return_pier.",
        ["charter_id", "status", "skipper_id", "return_pier"],
        id="curly-apostrophe",
    ),
    pytest.param("Returns the skipper's name, purse and status.", [], id="plain-words"),
    pytest.param("Returns the boat's status, and sets lights_enabled to false.", [], id="an-effect-after"),
    miss(
        "Returns the tender's fuel_level and status.",
        ["tender_id", "fuel_level", "status"],
        why="two fields joined by 'and' without a comma are not read",
        id="two-fields",
    ),
    miss(
        "Returns the boat's status, hold_reason and power_enabled fields.",
        ["boat_id", "status", "hold_reason", "power_enabled"],
        why='a trailing "fields" after the last name drops the whole list',
        id="trailing-fields",
    ),
    miss(
        "Returns the boat's new status, hold_reason and power_enabled.",
        ["boat_id", "status", "hold_reason", "power_enabled"],
        why='an adjective before the first field ("new status") hides the list',
        id="new-status",
    ),
]


@pytest.mark.parametrize(("text", "expected"), RETURNED)
def test_a_possessive_returns_sentence(text: str, expected: list[str]) -> None:
    assert _names(text) == expected


# --- refusals: "Retired skippers cannot be topped up" in the tool's own verb -----------------------------------


SKIPPER = {"status": enum("active", "suspended", "retired")}
TAB = {"status": enum("open", "disputed", "closed")}
CHARTER = {"status": enum("pending", "sailing", "completed", "cancelled")}
BOAT = {"status": enum("afloat", "laid_up", "sunk")}
REFUSED = [
    pytest.param(
        "Retired skippers cannot be topped up.", "skipper", SKIPPER, "top_up_purse", {"status": ["active", "suspended"]}
    ),
    pytest.param(
        "Suspended and retired skippers may not be topped up.",
        "skipper",
        SKIPPER,
        "top_up_purse",
        {"status": ["active"]},
        id="two-states",
    ),
    pytest.param("Closed tabs cannot be settled.", "tab", TAB, "settle_tab", {"status": ["open", "disputed"]}),
    pytest.param("Retired skippers cannot be topped up.", "skipper", SKIPPER, "pay_dues", {}, id="another-verb"),
    pytest.param("Retired boats cannot be topped up.", "skipper", SKIPPER, "top_up_purse", {}, id="another-noun"),
    pytest.param(
        "Tenders of retired skippers cannot be topped up.",
        "tender",
        {"status": enum("active", "retired")},
        "top_up_fuel",
        {},
        id="said-of-another-noun",
    ),
    pytest.param("Guest skippers cannot be topped up.", "skipper", SKIPPER, "top_up_purse", {}, id="not-a-state"),
    miss(
        "Laid-up boats cannot be moved.",
        "boat",
        BOAT,
        "move_boat",
        {"status": ["afloat", "sunk"]},
        why='a hyphenated state ("Laid-up" for laid_up) is not matched',
        id="hyphenated-state",
    ),
    miss(
        "Disputed tabs cannot be paid.",
        "tab",
        TAB,
        "pay_tab",
        {"status": ["open", "closed"]},
        why='an irregular participle of the tool\'s verb ("paid" of pay) is not read',
        id="irregular-paid",
    ),
    miss(
        "Retired skippers cannot top up their purse.",
        "skipper",
        SKIPPER,
        "top_up_purse",
        {"status": ["active", "suspended"]},
        why="the tool's verb in the active voice is not read",
        id="active-voice",
    ),
    misfire(
        "Active skippers cannot be topped up above the 500.00 cap.",
        "skipper",
        SKIPPER,
        "top_up_purse",
        {},
        why="a cap on active skippers' top-ups is read as refusing active skippers",
        id="a-cap-not-a-refusal",
    ),
]


@pytest.mark.parametrize(("text", "noun", "props", "name", "expected"), REFUSED)
def test_a_refusal_in_the_tools_own_verb(
    text: str, noun: str, props: dict[str, Any], name: str, expected: dict[str, Any]
) -> None:
    assert refused_kinds(text, noun, props, name) == expected


# --- docs_counters: "Add credit to a skipper's purse" -------------------------------------------------------------


SKIPPERS = {
    "properties": {
        "skippers": collection({"skipper_id": S, "status": S, "credit_balance": N, "topups_count": INT, "dues_owed": N})
    }
}
AMOUNT = {"skipper_id": S, "amount": N}


def _moved(text: str, params: dict[str, Any] = AMOUNT, words: list[str] | None = None) -> list[tuple[str, Any]]:
    """(field, delta) of each move read."""
    found = docs_counters(text, "skippers", "skipper_id", SKIPPERS, params, words or ["top", "up", "purse"])
    return [(e["path"][-1]["value"], e["delta"]["expr"]) for e in found]


CREDIT = ("credit_balance", {"plus": [{"arg": "amount"}]})
ONE_MORE = ("topups_count", {"plus": [{"const": 1}]})
COUNTED = [
    pytest.param("Add credit to a skipper's purse.", [CREDIT], id="docstring"),
    pytest.param("Adds credit to the skipper's purse; the amount must be positive.", [CREDIT], id="adds-then-rule"),
    pytest.param(
        "Add credit to a skipper's purse. Errors: 'amount must be positive', 'skipper S-9 is retired'.",
        [CREDIT],
        id="errors-tail",
    ),
    pytest.param(
        "Add credit to a skipper's purse.\nErrors: 'amount must be positive'\nThe topups_count rises by one.",
        [CREDIT, ONE_MORE],
        id="errors-row-then-a-move",
    ),
    pytest.param("Add a note to a skipper's file.", [], id="add-a-note"),
    pytest.param("Adding credit to a retired skipper's purse is refused.", [], id="gerund-refusal"),
    miss(
        "Top up credit on a skipper's harbour card.",
        [CREDIT],
        why='"Top up" opens an adding sentence (OPENS_ADDING) but is no upward word, so nothing moves',
        id="top-up",
    ),
    miss(
        "Load credit onto a skipper's harbour card.",
        [CREDIT],
        why='"Load" opens an adding sentence (OPENS_ADDING) but is no upward word, so nothing moves',
        id="load",
    ),
    miss(
        "Add credit to a skipper's purse. Errors: 'amount must be positive'. The topups_count rises by one.",
        [CREDIT, ONE_MORE],
        why="an Errors list in mid-paragraph hides the move after it (the tail is cut to the end of that text)",
        id="errors-mid-paragraph",
    ),
    pytest.param(
        "Pay dues by card. Credit card payments are added to the skipper's statement.",
        [],
        id="credit-card-payments",
    ),
]


@pytest.mark.parametrize(("text", "expected"), COUNTED)
def test_credit_added_to_a_purse(text: str, expected: list[tuple[str, Any]]) -> None:
    assert _moved(text) == expected


CARD = {"skipper_id": S, "card_number": S}
CARD_MONTH = {"skipper_id": S, "card_number": S, "expiry_month": INT}
CARDS = [
    pytest.param("Add credit card details to a skipper's file.", CARD, id="credit-card-no-number"),
    pytest.param(
        "Add credit card details to a skipper's file.",
        CARD_MONTH,
        id="credit-card-with-a-month",
    ),
]


@pytest.mark.parametrize(("text", "params"), CARDS)
def test_credit_card_details_move_no_balance(text: str, params: dict[str, Any]) -> None:
    assert _moved(text, params, ["add", "card"]) == []


OPENS = [
    ("Add credit to a purse", True),
    ("Credits 20.00 to a purse", True),
    miss(
        "Tops up the skipper's credit",
        True,
        why='"Tops up the ..." is shut out by the article rule meant for "Add a <thing>"',
        id="tops-up-the",
    ),
    ("Loads credit onto a card", True),
    ("The purse adds up", False),
]


@pytest.mark.parametrize(("text", "opens"), OPENS)
def test_a_sentence_opening_by_adding(text: str, opens: bool) -> None:
    assert bool(OPENS_ADDING.match(text)) is opens


# --- priors: verbs of names ---------------------------------------------------------------------------------------

WRITES = [
    ("swap_mooring", "Swap two boats between their moorings."),
    ("settle_tab", "Settle a skipper's open bar tab."),
    ("topUpPurse", "Add credit to a skipper's purse."),
    ("manage_berth", "Change a berth's state."),
    ("request_crane", "Ask the yard for a crane lift on a given day."),
    ("replace_fender", "Replace a worn fender on a pier."),
    ("reschedule_charter", "Move a charter to other dates."),
    ("extend_charter", "Add nights to a charter."),
    ("upgrade_berth", "Move a boat to a larger berth."),
    ("downgrade_berth", "Move a boat to a smaller berth."),
]


@pytest.mark.parametrize(("name", "description"), WRITES)
def test_a_write_verb_of_a_name(name: str, description: str) -> None:
    assert tool_priors(ToolSpec(name, description, {})).mutates is True


READS = [
    pytest.param("browse_moorings", "The moorings of a pier, page by page.", "list", id="browse"),
    pytest.param("settle_tab", "Lists the tabs a settlement would close.", None, id="lists-opening"),
]


@pytest.mark.parametrize(("name", "description", "kind"), READS)
def test_a_read_of_a_name(name: str, description: str, kind: str | None) -> None:
    priors = tool_priors(ToolSpec(name, description, {}))
    assert priors.mutates is not True
    if kind:
        assert priors.kind_guess == kind


def test_a_leaderboard_named_top_is_no_write() -> None:
    assert tool_priors(ToolSpec("top_skippers", "The ten skippers with the highest dues.", {})).mutates is not True


@pytest.mark.xfail(strict=True, reason="misfire: swap_options, a read of the moorings a boat could move to, writes")
def test_swap_options_is_no_write() -> None:
    assert tool_priors(ToolSpec("swap_options", "The free moorings a boat could swap to.", {})).mutates is not True


# --- get_rules: a skipper looked up by one of their boats' hull numbers -----------------------------------------


def _state(**cols: dict[str, Any]) -> dict[str, Any]:
    return {"properties": {name: collection(props) for name, props in cols.items()}}


SKIP = {"skipper_id": S, "name": S}
NAMING = [
    pytest.param(_state(skippers=SKIP, boats={"boat_id": S, "skipper_id": S, "hull_no": S}), ("boats", "skipper_id")),
    pytest.param(
        _state(
            skippers=SKIP, boats={"boat_id": S, "master": {"type": "string", "x-references": "skippers"}, "hull_no": S}
        ),
        ("boats", "master"),
        id="x-references",
    ),
    pytest.param(
        _state(
            skippers=SKIP,
            boats={"boat_id": S, "skipper_id": S, "hull_no": S},
            tenders={"tender_id": S, "skipper_id": S, "hull_no": S},
        ),
        None,
        id="two-collections-hold-it",
    ),
    pytest.param(
        _state(
            skippers=SKIP,
            boats={
                "boat_id": S,
                "skipper_id": S,
                "mate": {"type": "string", "x-references": "skippers"},
                "hull_no": S,
            },
        ),
        None,
        id="two-links-to-skippers",
    ),
]


@pytest.mark.parametrize(("state", "expected"), NAMING)
def test_a_field_of_records_naming_the_skipper(state: dict[str, Any], expected: Any) -> None:
    assert _naming_field("hull_no", "skippers", state) == expected


SPELT = [
    pytest.param("Hull numbers may be given with spaces.", True),
    pytest.param("Radio numbers in international format are accepted.", True),
    pytest.param("Look up a skipper by id or by one of their boats' hull numbers.", False),
    pytest.param(
        "Hull numbers may be written with or without spaces.",
        True,
        id="with-or-without-spaces",
    ),
    pytest.param(
        "Returns the skipper and their dues (overdue dues carry +15%).",
        False,
        id="a-plus-percent",
    ),
]


@pytest.mark.parametrize(("text", "spelt"), SPELT)
def test_a_number_spelt_loosely(text: str, spelt: bool) -> None:
    assert bool(SPELT_NUMBER.search(text)) is spelt


# --- envelope: answered with the records naming it, and their totals ----------------------------------------------


WITH = [
    pytest.param("Returns the skipper with every boat of the skipper in full.", "boats", True, id="docstring"),
    pytest.param("Returns the skipper record with each boat they sail.", "boats", True, id="each"),
    pytest.param("Returns the skipper, with the skipper's open mooring tabs.", "tabs", True, id="possessive"),
    pytest.param("Returns the skipper with the number of boats they own.", "boats", False, id="a-count"),
    pytest.param("Returns the skipper without boats; each boat is on list_boats.", "boats", False, id="without"),
    pytest.param(
        "Returns the skipper with their dues_total across all boats.",
        "boats",
        False,
        id="a-total-across-boats",
    ),
    pytest.param(
        "Returns the skipper with name, status and purse; use list_boats to see each boat of the skipper.",
        "boats",
        False,
        id="pointer-to-another-tool",
    ),
]


@pytest.mark.parametrize(("text", "col", "returned"), WITH)
def test_answered_with_the_records_naming_it(text: str, col: str, returned: bool) -> None:
    assert _returned_with(text, col, "skipper") is returned


DUES = {"type": "array", "items": {"type": "object", "properties": {"date": S, "amount": N}}}
TABS = {"type": "array", "items": {"type": "object", "properties": {"tab_id": S, "total": N, "paid": N}}}
OWN = _state(skippers={"skipper_id": S, "name": S, "purse": N, "dues": DUES, "tabs": TABS})
DUES_SUM = {"op": "sum", "path": ["dues", "amount"]}
TOTALS = [
    pytest.param("Returns the skipper (name, purse, dues and their dues_total).", {"dues_total": DUES_SUM}),
    pytest.param("Returns the skipper with dues and their total.", {"total": DUES_SUM}, id="their-total"),
    pytest.param("Returns the skipper with tabs and their tabs_total.", {}, id="two-numbers-ambiguous"),
    pytest.param(
        "Returns the skipper with `dues` and their `dues_total`.",
        {"dues_total": DUES_SUM},
        id="backticked",
    ),
    pytest.param(
        "Returns the skipper with dues and their due dates.",
        {},
        id="their-dates",
    ),
]


@pytest.mark.parametrize(("text", "expected"), TOTALS)
def test_their_totals(text: str, expected: dict[str, Any]) -> None:
    draft: Any = SimpleNamespace(kind="get", collection="skippers")
    assert their_totals(ToolSpec("get_skipper", text, {}), draft, OWN) == expected


# --- item_rules: hyphenated states and asides ---------------------------------------------------------------------


BERTH = {"status": enum("booked", "moored", "laid_up", "checked_in", "hauled", "hauled_out", "left")}
STATED = [
    pytest.param(
        "Fuel can only be sold to moored or laid-up berths.", "berth", {"status": ["moored", "laid_up"]}, id="laid-up"
    ),
    pytest.param(
        "The berth must be checked-in or moored.", "berth", {"status": ["checked_in", "moored"]}, id="checked-in"
    ),
    pytest.param(
        "Fenders can only be added to moored or laid-up berths (B-2 is left).",
        "berth",
        {"status": ["moored", "laid_up"]},
        id="aside-names-none",
    ),
    pytest.param(
        "Cranes (both yard lifts) may only take hauled-out berths.",
        "berth",
        {"status": ["hauled_out"]},
        id="aside-first",
    ),
    pytest.param(
        "Only hauled-out berths can be scrubbed.", "berth", {"status": ["hauled_out"]}, id="hauled-out-not-hauled"
    ),
    miss(
        "Berths must be out of the water (hauled-out or laid-up) to be scrubbed.",
        "berth",
        {"status": ["hauled_out", "laid_up"]},
        why="states given only in brackets as the rule's own wording are dropped with the aside",
        id="states-in-brackets",
    ),
    misfire(
        "The skipper must hold an active harbour card.",
        "skipper",
        {},
        why='"an active harbour card" is read as the skipper needing status active',
        id="a-value-word-of-another-thing",
    ),
]


@pytest.mark.parametrize(("text", "noun", "expected"), STATED)
def test_states_a_record_must_hold(text: str, noun: str, expected: dict[str, Any]) -> None:
    props = BERTH if noun == "berth" else {"status": enum("active", "retired")}
    assert stated_states(text, noun, props) == expected


# --- policy_rules: "the tab marked settled" ---------------------------------------------------------------------


MARKED = [
    pytest.param("The purse is charged and the tab marked settled.", "settled", id="marked"),
    pytest.param("The boat leaves and the mooring marked as vacant.", "vacant", id="marked-as"),
    pytest.param("The lift is done and the boat marked laid-up.", "laid-up", id="hyphenated"),
    pytest.param("The tab marked `settled` is closed.", None, id="quoted-is-not-bare"),
    miss(
        "The dues are cleared and the skipper's tab marked settled.",
        "settled",
        why='a possessive before the noun ("the skipper\'s tab marked") is not read',
        id="possessive-noun",
    ),
    pytest.param(
        "The tender marked lost in the last survey is not refuelled.",
        None,
        id="which-record",
    ),
]


@pytest.mark.parametrize(("text", "value"), MARKED)
def test_a_noun_marked_without_is(text: str, value: str | None) -> None:
    found = [m.group(1) for m in [*NOUN_BECOMES_BARE.finditer(text), *MARKED_AFTER_AND.finditer(text)]]
    assert (found[0] if found else None) == value


TAB_RECORD = {"properties": {"tab_id": S, "status": enum("open", "settled", "written_off")}}
TRANSITIONS = [
    pytest.param("Take the last payment; the skipper is charged and the tab marked settled.", {"status": "settled"}),
    pytest.param("Only a tab marked open can take a payment.", {}, id="only"),
    pytest.param("When the last payment lands, the tab marked settled.", {}, id="when"),
]


@pytest.mark.parametrize(("text", "sets"), TRANSITIONS)
def test_a_tab_marked_through_transition_rules(text: str, sets: dict[str, Any]) -> None:
    assert transition_rules(ToolSpec("settle_tab", text, {}), TAB_RECORD, "")[0] == sets
