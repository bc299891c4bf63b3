"""A café's tabs: a charge posted to an `open` (new) or `held` tab, or to a `closed` one that still owes, has the
balance recomputed. The sample tabs show the balance is the charges' amounts less the payments' amounts, never
below 0 (an overpaid tab holds 0), so the new balance is worked out that way; the states the call is allowed from
are read across the aside and the later "a `closed` one"."""

from __future__ import annotations

from typing import Any

from synth.envsynth.item_rules import _named_before
from synth.envsynth.list_totals import list_totals

S, N = {"type": "string"}, {"type": "number"}
STATUS = {"type": "string", "x-enum": ["open", "held", "closed", "void"]}


def _tab(key: str, charges: list[float], payments: list[float], floor: bool = True) -> dict[str, Any]:
    owed = sum(charges) - sum(payments)
    return {
        "tab_id": key,
        "status": "open",
        "charges": [{"item": "tea", "amount": a} for a in charges],
        "payments": [{"method": "card", "amount": p} for p in payments],
        "balance": max(0.0, owed) if floor else owed,
    }


def _sample(floor: bool = True) -> dict[str, Any]:
    tabs = [
        _tab("T1", [3.5, 4.0], [2.0], floor),
        _tab("T2", [6.0], [], floor),
        _tab("T3", [2.5], [5.0], floor),  # overpaid
        _tab("T4", [1.0, 1.5, 2.0], [1.0], floor),
    ]
    return {"tabs": {t["tab_id"]: t for t in tabs}}


def test_the_balance_is_one_list_less_the_other_kept_at_zero() -> None:
    derive = list_totals(_sample(), "tabs", "charges", ["balance"])
    assert derive is not None
    node = {"op": "-", "args": [{"sum": "charges", "of": "amount"}, {"sum": "payments", "of": "amount"}]}
    assert derive["steps"] == [["balance", {"op": "max", "args": [{"num": 0}, node]}]]
    plain = list_totals(_sample(floor=False), "tabs", "charges", ["balance"])
    assert plain is not None and plain["steps"] == [["balance", node]]  # the data shows a negative balance


def test_the_allowed_states_read_across_an_aside_and_a_later_one() -> None:
    text = "Posts a charge to an `open` (new) or `held` tab, or to a `closed` one that still owes."
    assert _named_before(text, "tab", {"status": STATUS}) == {"status": ["open", "held", "closed"]}
    assert _named_before("Posts a charge to a `held` tab.", "tab", {"status": STATUS}) == {"status": ["held"]}
