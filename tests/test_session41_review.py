"""Readings the review of session 41's readers asked to rule out (made-up marina domain): a later event is no
state set, a defined figure ends its phrase, "is given" is no value, a table's headers in order, a gerund's own
participle only, a tool named after a list by whole words, a date span's own bounds."""

from __future__ import annotations

from synth.envsynth.named_paths import named_path
from synth.envsynth.numbered_lines import arg_value
from synth.envsynth.object_toggle import _named_list
from synth.envsynth.param_dates import described_dates
from synth.envsynth.policy_rules import NOUN_BECOMES, _now
from synth.envsynth.state_moves import table_moves
from synth.envsynth.target_effects import _target

OWN = {"charges": {"type": "object", "properties": {"total": {"type": "number"}}}, "dues": {"type": "number"}}


def _becomes(sentence: str) -> list[str]:
    return [m.group(2) for m in NOUN_BECOMES.finditer(sentence) if _now(m, sentence)]


def test_a_return_said_of_a_later_event_sets_nothing() -> None:
    assert _becomes("The boat returns to `afloat` when `launch_boat` is called.") == []
    assert _becomes("The berth goes back to `free`, a log entry is written.") == ["free"]
    assert _becomes("The berth becomes `free` when the boat leaves.") == ["free"]  # not one of the return verbs


def test_a_defined_figure_is_the_whole_phrase() -> None:
    assert named_path("fee_charged", OWN, "The fee charged is the boat's charges.total.") == ["charges", "total"]
    assert named_path("fee_charged", OWN, "The fee charged is the boat's dues plus a 5.00 harbour tax.") is None


def test_a_defined_figure_of_another_record_is_not_this_one() -> None:
    text = "The fee charged is the skipper's dues."
    assert named_path("fee_charged", OWN, text, noun="boat") is None
    assert named_path("fee_charged", OWN, text, noun="skipper") == ["dues"]
    assert named_path("fee_charged", OWN, "The fee charged is its dues.", noun="boat") == ["dues"]


def test_only_a_real_value_of_the_argument_is_a_condition() -> None:
    params = {"early_settle": {"type": "boolean"}, "hull": {"type": "string", "enum": ["mono", "multi"]}}
    assert arg_value("early_settle", "true", params) is True
    assert arg_value("early_settle", "given", params) is None
    assert arg_value("hull", "multi", params) == "multi"
    assert arg_value("hull", "set", params) is None
    assert arg_value("tide", "high", params) is None


def test_a_table_read_with_its_headers_reversed_draws_nothing() -> None:
    assert table_moves("| To | From |\n|---|---|\n| `afloat` | `docked` |") == []
    assert table_moves("| Current rate | Next rate |\n|---|---|\n| `low` | `high` |") == []
    assert table_moves("| From | To |\n|---|---|\n| `afloat` | `docked` |") == [("afloat", "`docked`")]


def test_a_row_with_a_value_but_no_state_first_is_skipped_not_the_end() -> None:
    text = "| From | To |\n|---|---|\n| any state | `scrapped` |\n| `afloat` | `docked` |"
    assert table_moves(text) == [("afloat", "`docked`")]


def test_a_gerund_leads_only_its_own_participle() -> None:
    targets = ["docked", "settled", "open", "cancelled", "pending"]
    assert _target("Docking sets `docked_on`.", targets) == "docked"
    assert _target("Opening clears `closed_on`.", targets) == "open"
    assert _target("Cancelling sets `scrapped_on`.", targets) == "cancelled"
    assert _target("Setting a reminder sets `remind_on`.", targets) is None
    assert _target("Pending boats wait.", targets) is None


def test_a_list_is_named_by_whole_words_of_the_tool() -> None:
    entries = {"type": "array", "items": {"type": "object"}}
    own = {"log": entries, "crew": entries, "crew_list": entries}
    assert _named_list("update_login_hours", own) == ""
    assert _named_list("update_crew_list", own) == "crew_list"
    assert _named_list("update_log", own) == "log"


def test_a_span_from_today_allows_today() -> None:
    params = {"dock_day": {"type": "string", "description": "`YYYY-MM-DD`, between today and 30 days after today."}}
    checks = described_dates(params, "2031-03-10")
    assert sorted((c["cmp"], c.get("days")) for c in checks) == [("<=", 30), (">=", None)]
    params["dock_day"]["description"] = "`YYYY-MM-DD`, between the business date and 7 days after the business date."
    assert [c.get("days") for c in described_dates(params, "2031-03-10") if c["cmp"] == "<="] == [7]
