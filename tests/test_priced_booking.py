"""A harbour's charter booking priced by its sibling quote: the create's own "Checks, in addition to the quote's:"
bullets become refusals (a skipper's state, a balance plus the total within a credit limit, a balance that must be
0, a total cap, a line's space flag), the opening note counts the berths and adds a tail while `express` is set, the
sample's berths numbered L1, L2, ... are numbered so, and a berth removal keeps the last berth; planned and run."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.checked_bullets import checked_refusals
from synth.envsynth.codegen import DIG, _pysource, render_tool
from synth.envsynth.create_entries import KIND, opening_entries
from synth.envsynth.entry_texts import learned_text
from synth.envsynth.expr_runtime import fg_fixed, fg_number, fg_text
from synth.envsynth.formula_runtime import fg_formula
from synth.envsynth.item_rules import KEEPS, RULE, refine_item
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.quote_reuse import line_numbering, priced_fields, sibling_quotes
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N, INT = {"type": "string"}, {"type": "number"}, {"type": "integer"}
SKIPPER = {"skipper_id": S, "status": {"type": "string", "x-enum": ["active", "on_hold"]}, "balance_owed": N}
SKIPPER |= {"kind": {"type": "string", "x-enum": ["club", "visiting"]}, "credit_limit": N, "levy_pct": N}
LEG = {"berth_id": S, "mooring_id": S, "nights": INT, "line_total": N}
LOG = {"date": {"type": "string", "format": "date"}, "event": {"type": "string", "x-enum": ["created"]}, "note": S}
CHARTER = {"charter_id": S, "skipper_id": S, "status": {"type": "string", "x-enum": ["planned", "held", "sailing"]}}
CHARTER |= {"berths": {"type": "array", "items": {"type": "object", "properties": LEG}}, "total": N}
CHARTER |= {"pricing": {"type": "object", "properties": {"levy_pct": N, "subtotal": N, "levy": N}}}
CHARTER |= {
    "due_on": {"type": "string", "format": "date"},
    "history": {"type": "array", "items": {"type": "object", "properties": LOG}},
}
SCHEMA = {
    "type": "object",
    "properties": {
        "skippers": collection(SKIPPER),
        "moorings": collection({"mooring_id": S, "night_rate": N, "free_nights": INT}),
        "charters": collection(CHARTER),
    },
}
COLS = SCHEMA["properties"]
CHECKS = """Book a charter for a skipper, priced as quote_charter prices it.

Checks, in addition to the quote's:
- the skipper exists and is "active" (skippers on hold cannot book);
- berth space: for every mooring, the nights asked for across all lines must not exceed its free_nights;
- club skippers: balance_owed + the booking's total must not exceed credit_limit;
- visiting skippers: balance_owed must be 0.00 (settle first) and the booking total may not exceed 400.00.
"""
SKIPPER_IS = {"field": "kind", "param": "skipper_id"}
OWED, TOTAL = {"field": "balance_owed", "param": "skipper_id"}, {"val": "total"}
ACTIVE = {"not": {"test": {"field": "status", "param": "skipper_id"}, "in": ["active"]}}
ACTIVE = {"when": ACTIVE, "said": 'the skipper exists and is "active"'}
SPACE = {"when": {"some": "berths", "field": "space_ok", "in": [False]}}
SPACE["said"] = "for every mooring, the nights asked for across all lines must not exceed its free_nights"
OVER = {"op": ">", "args": [{"round": {"op": "+", "args": [OWED, TOTAL]}, "digits": 6}]}
OVER["args"].append({"field": "credit_limit", "param": "skipper_id"})
CAP = "the booking total may not exceed 400.00"
NONZERO = {"any": [{"op": "<", "args": [OWED, {"num": 0.0}]}, {"op": ">", "args": [OWED, {"num": 0.0}]}]}


def _for(kind: str, node: dict[str, Any]) -> dict[str, Any]:
    return {"all": [{"test": SKIPPER_IS, "in": [kind]}, node]}


def _quote(steps: list | None = None) -> dict[str, Any]:
    space = {"op": "<=", "args": [{"across": {"param": "berths", "key": "mooring_id", "of": "nights", "at": "berth"}}]}
    space["args"].append({"field": "free_nights", "param": "mooring"})
    lines = ["berths", {"lines": {"fields": ["mooring_id", "nights", "space_ok"], "steps": [["space_ok", space]]}}]
    return {"named": {"skipper_id": "skippers"}, "steps": steps or [["total", {"val": "subtotal"}], lines]}


def test_each_checked_bullet_becomes_a_refusal_under_its_label() -> None:
    assert checked_refusals(CHECKS, _quote(), COLS, {}) == [
        ACTIVE,
        SPACE,
        {"when": _for("club", OVER), "said": "balance_owed + the booking's total must not exceed credit_limit"},
        {"when": _for("visiting", NONZERO), "said": "balance_owed must be 0.00"},
        {"when": _for("visiting", {"op": ">", "args": [TOTAL, {"num": 400.0}]}), "said": CAP},
    ]


def test_a_label_no_field_holds_is_a_title_and_unread_clauses_give_nothing() -> None:
    text = "Checks:\n- gold skippers: balance_owed must be 0.00;\n- the harbour master may turn any boat away.\n"
    assert checked_refusals(text, _quote(), COLS, {}) == [{"when": NONZERO, "said": "balance_owed must be 0.00"}]
    assert checked_refusals(CHECKS.replace("Checks, in addition to the quote's:", ""), _quote(), COLS, {}) == []
    untotalled = checked_refusals(CHECKS, _quote([["subtotal", {"num": 1}]]), COLS, {})  # no total, no lines
    assert [r["said"] for r in untotalled] == [ACTIVE["said"], "balance_owed must be 0.00"]
    # a value no schema lists, read off the sample's skippers instead
    loose = {**COLS, "skippers": collection({**SKIPPER, "kind": S})}
    sample = {"skippers": {"A": {"kind": "club"}, "B": {"kind": "visiting"}}}
    assert checked_refusals(CHECKS, _quote(), loose, sample)[2]["when"] == _for("club", OVER)


def test_a_titled_bullet_is_split_into_its_clauses_too() -> None:
    # the module's docstring: a bullet's clauses are split at " and "; under a label no value holds (a title), the
    # whole body is one clause, so only its first check is read and the total cap after " and " is lost
    text = f"Checks:\n- gold skippers: balance_owed must be 0.00 and {CAP}.\n"
    assert [r["said"] for r in checked_refusals(text, _quote(), COLS, {})] == ["balance_owed must be 0.00", CAP]


def test_some_is_whether_a_line_holds_one_of_the_values() -> None:
    node = SPACE["when"]
    assert fg_formula(node, {}, {}, {"berths": [{"space_ok": True}, "x", {"space_ok": False}]}) is True
    assert fg_formula(node, {}, {}, {"berths": [{"space_ok": True}, {"space_ok": True}]}) is False
    assert fg_formula(node, {}, {}, {"berths": None}) is False and fg_formula(node, {}, {}, {}) is False


def _charter(key: str, legs: list[tuple[str, int]], total: float, express: bool = False) -> dict[str, Any]:
    berths = [
        {"berth_id": f"L{i + 1}", "mooring_id": m, "nights": n, "line_total": 0.0} for i, (m, n) in enumerate(legs)
    ]
    note = f"{len(legs)} berth(s), total {total:.2f}"
    return {
        "charter_id": key,
        "skipper_id": "SK1",
        "status": "planned",
        "berths": berths,
        "pricing": {"levy_pct": 5.0, "subtotal": round(total - 2.0, 2), "levy": 2.0},
        "total": total,
        "express": express,
        "due_on": "2031-04-01",
        "history": [{"date": "2031-03-01", "event": "created", "note": note}],
    }


SAILED = [
    _charter("C-01", [("M1", 2)], 42.0),
    _charter("C-02", [("M1", 1), ("M2", 1)], 58.28, True),
    _charter("C-03", [("M2", 2), ("M1", 1), ("M1", 3)], 116.55),
    _charter("C-04", [("M2", 1), ("M2", 4), ("M1", 2), ("M1", 1)], 230.1, True),
]
COUNT = {"from": "count", "path": ["berths"]}
SHOWN = [
    COUNT,
    " berth(s), total ",
    {"from": "fixed", "of": {"from": "record", "path": ["pricing", "total"]}, "decimals": 2},
]


def _pricing_total(charter: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in charter.items() if k not in ("total", "history")}
    return {**out, "pricing": {**out["pricing"], "total": charter["total"]}}  # the total inside an object


def test_a_note_counts_the_berths_and_adds_a_tail_while_express() -> None:
    records = [_pricing_total(c) for c in SAILED]
    samples = [
        (c["history"][0]["note"] + (", express" if c["express"] else ""), r, []) for c, r in zip(SAILED, records)
    ]
    tail = {
        "from": "switch",
        "when": {"field": "express", "in": [True]},
        "then": {"from": "const", "value": ", express"},
    }
    found = learned_text(samples)
    assert found == {"from": "concat", "parts": [*SHOWN, {**tail, "else": {"from": "const", "value": ""}}]}
    space = {"copy": copy, "fg_text": fg_text, "fg_fixed": fg_fixed, "fg_number": fg_number}
    exec(DIG.format(fn="f"), space)
    code = _pysource(found, "f")
    assert eval(code, {**space, "record": records[3]}) == "4 berth(s), total 230.10, express"
    assert eval(code, {**space, "record": {**records[0], "berths": []}}) == "0 berth(s), total 42.00"
    assert learned_text(samples[:2]) is None  # a count is read from three samples at least
    wrong = [(samples[0][0] + ", express", *samples[0][1:]), *samples[1:]]  # the tail on a charter not express
    assert learned_text(wrong) is None
    one_side = [(t.removesuffix(", express"), {**r, "express": False}, e) for t, r, e in samples[:3]]
    one_side.append((samples[3][0], records[3], []))  # one express charter only: no flag to tell the tail by
    assert learned_text(one_side) is None


def test_berths_numbered_by_position_in_every_charter() -> None:
    sample = {"charters": {c["charter_id"]: c for c in SAILED[:3]}}
    assert line_numbering(sample, "charters") == {"berths": {"berth_id": "L"}}
    assert line_numbering({"charters": list(sample["charters"].values())}, "charters") == {"berths": {"berth_id": "L"}}
    assert line_numbering({"charters": {c["charter_id"]: c for c in SAILED[:2]}}, "charters") == {}  # two records
    broken = copy.deepcopy(sample)
    broken["charters"]["C-03"]["berths"][2]["berth_id"] = "L5"
    assert line_numbering(broken, "charters") == {}
    lettered = copy.deepcopy(sample)
    lettered["charters"]["C-02"]["berths"][1]["berth_id"] = "B2"  # another prefix
    assert line_numbering(lettered, "charters") == {}
    assert line_numbering(sample, "skippers") == {}


def test_a_history_entry_named_before_its_kind() -> None:
    m = KIND.search('The charter opens with one history entry "created" dated today.')
    assert m is not None and (m.group("list_first"), m.group("kind_after")) == ("history", "created")
    m = KIND.search('It opens with a "created" history entry.')
    assert m is not None and (m.group("list"), m.group("kind")) == ("history", "created")
    assert KIND.search("one history entry per berth") is None


REMOVE_TEXT = (
    'Remove one berth from a charter that is still in status "planned" or "held". '
    "The last remaining berth cannot be removed."
)
REMOVE = ToolSpec(
    "remove_berth",
    REMOVE_TEXT,
    {"type": "object", "properties": {"charter_id": S, "berth_id": S}, "required": ["charter_id", "berth_id"]},
)


def test_a_berth_removal_needs_a_planned_or_held_charter_and_keeps_the_last_berth() -> None:
    assert RULE.search('a charter that is still in status "planned"') is not None
    assert RULE.search('a charter still in state "held"') is not None
    assert KEEPS.search("The last remaining berth cannot be removed.").group("n") is None
    assert KEEPS.search("The only skipper can't be removed").group("n") is None
    assert KEEPS.search("A charter must keep at least 2 berths.").group("n") == "2"
    assert KEEPS.search("The last berth is removed.") is None
    base = ToolPlan(kind="item_remove", collection="charters", key_param="charter_id", op_param="berth_id")
    base = ToolPlan.from_dict({**base.to_dict(), "list_field": "berths", "item_key": "berth_id"})
    plan = refine_item(REMOVE, base, SCHEMA, REMOVE_TEXT)
    assert plan.preconditions == {"status": ["planned", "held"]}
    assert plan.checks == [{"op": "keeps", "least": 1}]
    two = refine_item(REMOVE, base, SCHEMA, REMOVE_TEXT.replace("The last remaining", "A charter must keep at least 2"))
    assert two.checks == [{"op": "keeps", "least": 2}]
    state = {"charters": {c["charter_id"]: copy.deepcopy(c) for c in SAILED}}
    state["charters"]["C-03"]["status"] = "sailing"
    state["charters"]["C-04"]["status"] = "held"
    ok = Case(REMOVE.name, "x", state, {"charter_id": "C-04", "berth_id": "L2"}, expect_error=False)
    kept = [b for b in state["charters"]["C-04"]["berths"] if b["berth_id"] != "L2"]
    ok.state_checks = [
        {"op": "field_equals", "collection": "charters", "key": "C-04", "field": "berths", "value": kept}
    ]
    last = Case(REMOVE.name, "x", state, {"charter_id": "C-01", "berth_id": "L1"}, expect_error=True)
    sailing = Case(REMOVE.name, "x", state, {"charter_id": "C-03", "berth_id": "L1"}, expect_error=True)
    source = render_tool(REMOVE, plan, SCHEMA)
    res, err = run_cases(source, REMOVE.name, [ok, last, sailing], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 3


PARAMS = {
    "type": "object",
    "properties": {
        "skipper_id": S,
        "berths": {"type": "array", "items": {"type": "object", "properties": {"mooring_id": S, "nights": INT}}},
    },
    "required": ["skipper_id", "berths"],
}
QUOTE = ToolSpec(
    "quote_charter",
    """Quote a charter for a skipper. Nothing is stored. The harbour's business date is 2031-04-10.

1. line_total = nights x the mooring's night_rate.
2. subtotal = sum of line totals.
3. levy = levy_pct% of the subtotal.
4. total = subtotal + levy.

space_ok is false when the nights asked for that mooring across the whole booking exceed its free_nights.
due_on is 7 days after today.
All figures are rounded to the cent (half up).

Returns {skipper_id, berths: [{mooring_id, nights, line_total, space_ok}], levy_pct, subtotal, levy, total, due_on}.""",
    PARAMS,
)
BOOK_TEXT = CHECKS + '\nOn success the charter is stored as "planned" and opens with one history entry "created".'
BOOK = ToolSpec("book_charter", BOOK_TEXT, PARAMS, mutates=True)


def _skipper(key: str, status: str, kind: str, owed: float, limit: float, levy: float) -> dict[str, Any]:
    return {"skipper_id": key, "status": status, "kind": kind, "balance_owed": owed, "credit_limit": limit} | {
        "levy_pct": levy
    }


def _state() -> dict[str, Any]:
    charters = {c["charter_id"]: {k: v for k, v in c.items() if k != "express"} for c in copy.deepcopy(SAILED[:3])}
    return {
        "skippers": {
            "SK1": _skipper("SK1", "active", "club", 50.0, 300.0, 5.0),
            "SK2": _skipper("SK2", "active", "visiting", 0.0, 0.0, 10.0),
            "SK3": _skipper("SK3", "on_hold", "club", 0.0, 900.0, 0.0),
            "SK4": _skipper("SK4", "active", "visiting", 12.5, 0.0, 0.0),
        },
        "moorings": {
            "M1": {"mooring_id": "M1", "night_rate": 20.0, "free_nights": 20},
            "M2": {"mooring_id": "M2", "night_rate": 35.5, "free_nights": 4},
        },
        "charters": charters,
    }


def test_a_booking_priced_numbered_dated_and_refused_as_its_checks_say() -> None:
    base = ToolPlan(kind="create", collection="charters", key_field="charter_id", fields=["skipper_id", "berths"])
    base = ToolPlan.from_dict(
        {**base.to_dict(), "id_type": "pattern", "key_format": {"prefix": "C-", "digits": 2}}
        | {"ref_checks": {"skipper_id": "skippers"}, "initial_values": {"status": "planned"}}
    )
    quotes = sibling_quotes([QUOTE, BOOK], SCHEMA, _state())
    plan = priced_fields(BOOK, base, SCHEMA, [QUOTE, BOOK], quotes, BOOK_TEXT, _state())
    plan = opening_entries(BOOK, plan, SCHEMA, BOOK_TEXT, _state(), "2031-04-10")
    figures = {"levy_pct": "levy_pct", "subtotal": "subtotal", "levy": "levy"}  # a rate echoed, two computed
    assert plan.quote["assign"] == {"total": "total", "pricing": figures, "due_on": "due_on"}
    assert plan.quote["numbered"] == {"berths": {"berth_id": "L"}}
    assert plan.quote["refusals"] == checked_refusals(CHECKS, _quote(), COLS, {})  # the quote itself has none
    assert [e["field"] for e in plan.effects if e["op"] == "append"] == ["history"]

    def booked(skipper: str, legs: list[tuple[str, int, float]], levy: tuple[float, float, float], total: float):
        out = _state()
        berths = [
            {"berth_id": f"L{i + 1}", "mooring_id": m, "nights": n, "line_total": t} for i, (m, n, t) in enumerate(legs)
        ]
        note = f"{len(legs)} berth(s), total {total:.2f}"
        out["charters"]["C-04"] = {"charter_id": "C-04", "skipper_id": skipper, "status": "planned", "berths": berths}
        out["charters"]["C-04"] |= {"pricing": dict(zip(figures, levy)), "total": total, "due_on": "2031-04-17"}
        out["charters"]["C-04"]["history"] = [{"date": "2031-04-10", "event": "created", "note": note}]
        return out

    def call(skipper: str, *legs: tuple[str, int]) -> dict[str, Any]:
        return {"skipper_id": skipper, "berths": [{"mooring_id": m, "nights": n} for m, n in legs]}

    calls = [
        # 40.00 + 35.50 = 75.50; 5% levy 3.775 -> 3.78
        (
            call("SK1", ("M1", 2), ("M2", 1)),
            booked("SK1", [("M1", 2, 40.0), ("M2", 1, 35.5)], (5.0, 75.5, 3.78), 79.28),
        ),
        # M2's 4 free nights, all taken across two lines
        (
            call("SK1", ("M2", 2), ("M2", 2)),
            booked("SK1", [("M2", 2, 71.0), ("M2", 2, 71.0)], (5.0, 142.0, 7.1), 149.1),
        ),
        (call("SK2", ("M1", 1)), booked("SK2", [("M1", 1, 20.0)], (10.0, 20.0, 2.0), 22.0)),
        (call("SK3", ("M1", 1)), None),  # on hold
        (call("SK1", ("M2", 3), ("M2", 2)), None),  # 5 nights on M2, 4 free
        (call("SK1", ("M1", 10), ("M2", 2)), None),  # 50.00 + 284.55 past the 300.00 limit
        (call("SK4", ("M1", 1)), None),  # a visitor still owing 12.50
        (call("SK2", ("M1", 12), ("M2", 4)), None),  # a visitor's 420.20 past 400.00
    ]
    run_calls(BOOK, plan, SCHEMA, _state, calls)
