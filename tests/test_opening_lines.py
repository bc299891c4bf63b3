"""A charter booked at the price a sibling `quote_charter` gives: `balance_due` solved from the docs' equation
(opening_lines.solved_fields), the charter opening with one hull line learned from the sample charters
(opening_lines.opening_line: the quote's figures, their product, the boat's name and rig), and the docs' list of
refusals (listed_refusals) guarding the call; planned through quote_reuse and run."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.codegen import render_tool
from synth.envsynth.formula_runtime import fg_formula
from synth.envsynth.opening_lines import opening_line, solved_fields
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.quote_reuse import priced_fields, sibling_quotes
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

TODAY = "2031-06-01"
S, N, INT, B = {"type": "string"}, {"type": "number"}, {"type": "integer"}, {"type": "boolean"}
DATE = {"type": "string", "format": "date"}
BOAT_REF = {"type": "string", "x-references": "boats"}
LINE = {"boat_id": BOAT_REF, "description": S, "days": INT, "day_rate": N, "line_total": N}
LINES = {"type": "array", "items": {"type": "object", "properties": LINE}}
BOAT = {"boat_id": S, "name": S, "rig": S, "day_rate": N, "berths": INT, "survey_due": DATE, "flagged": B}
BOAT["status"] = {"type": "string", "enum": ["open", "laid_up"]}
CHARTER = {"charter_id": S, "boat_id": BOAT_REF, "days": INT, "crew": INT, "launch_date": DATE, "lines": LINES}
CHARTER["status"] = {"type": "string", "x-enum": ["open", "sailing", "closed", "cancelled"]}
CHARTER.update({name: N for name in ("charter_total", "deposit", "fees", "balance_due")})
SCHEMA = {"type": "object", "properties": {"boats": collection(BOAT), "charters": collection(CHARTER)}}
EQUATION = "balance_due = charter_total - deposit + fees"
QUOTE = ToolSpec(
    "quote_charter",
    "Prices a charter and books nothing. charter_total = day_rate x days; deposit = charter_total x 0.2; "
    "fees = 12.50 per crew. Returns {boat_id, days, day_rate, charter_total, deposit, fees}.",
    {
        "type": "object",
        "properties": {"boat_id": S, "days": INT, "crew": {"type": "integer", "default": 1}},
        "required": ["boat_id", "days"],
    },
)
REFUSED = [
    'the boat is not `open`: "boat laid up"',
    'its `survey_due` date is before today: "survey lapsed"',
    '`berths` is 0: "no berths"',
    'a charter for the same boat is still `open` or `sailing`: "boat taken"',
    'the boat is flagged and the last non-cancelled launch of this boat was less than 3 days ago: "too soon"',
]
TEXT = (
    "Books a charter of a boat, priced as quote_charter prices it. The charter is stored with status `open` and "
    f"with one hull line for the boat. Its {EQUATION}.\n\nThe request is refused when:\n"
    + "".join(f"- {one}\n" for one in REFUSED)
)
PARAMS = {"boat_id": S, "days": INT, "crew": {"type": "integer", "default": 1}, "launch_date": DATE}
BOOK = ToolSpec(
    "book_charter", TEXT, {"type": "object", "properties": PARAMS, "required": ["boat_id", "days"]}, mutates=True
)
BASE = ToolPlan(
    kind="create",
    collection="charters",
    key_field="charter_id",
    fields=list(PARAMS),
    initial_values={"status": "open"},
    id_type="pattern",
    key_format={"prefix": "CH-", "digits": 1},
)


def _line(boat: str, description: str, days: int, rate: float) -> dict[str, Any]:
    return {"boat_id": boat, "description": description, "days": days, "day_rate": rate, "line_total": days * rate}


def _boat(key: str, name: str, rig: str, rate: float, **more: Any) -> dict[str, Any]:
    base = {"boat_id": key, "name": name, "rig": rig, "day_rate": rate, "berths": 4, "status": "open"}
    return {**base, "survey_due": "2031-12-01", "flagged": False, **more}


def _charter(key: str, boat: str, status: str, launch: str, lines: list | None = None) -> dict[str, Any]:
    figures = {"charter_total": 100.0, "deposit": 20.0, "fees": 12.5, "balance_due": 92.5}
    head = {"charter_id": key, "boat_id": boat, "days": 2, "crew": 1, "status": status, "launch_date": launch}
    return {**head, **figures, "lines": lines or []}


SAMPLE = {
    "boats": {"BT-1": _boat("BT-1", "Swift", "sloop", 80.0), "BT-2": _boat("BT-2", "Gale", "ketch", 95.5)},
    "charters": {
        "CH-1": _charter("CH-1", "BT-1", "closed", "2031-05-01", [_line("BT-1", "Swift sloop", 3, 80.0)]),
        "CH-2": _charter("CH-2", "BT-2", "closed", "2031-05-03", [_line("BT-2", "Gale ketch", 2, 95.5)]),
    },
}


def _quote(steps: list[str]) -> dict[str, Any]:
    return {"named": {"boat_id": "boats"}, "steps": [[n, {"arg": n}] for n in steps]}


def test_the_left_side_is_the_signed_sum_of_the_terms() -> None:
    assign = {"charter_total": "total", "deposit": "deposit", "fees": "fees"}
    [(field, node)] = solved_fields(f"Its {EQUATION}.", assign, ["balance_due"]).items()
    assert field == "balance_due" and node["digits"] == 2
    assert node["round"]["args"][0]["args"][0] == {"val": "total"}  # the figure the field takes, not its name
    assert fg_formula(node, {}, {}, {"total": 286.35, "deposit": 57.27, "fees": 25.0}) == 254.08


def test_a_term_is_the_left_side_less_the_others() -> None:
    figures = {"balance_due": 254.08, "charter_total": 286.35, "deposit": 57.27, "fees": 25.0}
    for unknown in ("charter_total", "deposit", "fees"):
        assign = {f: f for f in figures if f != unknown}
        solved = solved_fields("`balance_due` = `charter_total` - `deposit` + `fees`", assign, [unknown])
        assert fg_formula(solved[unknown], {}, {}, figures) == figures[unknown], unknown


def test_an_equation_with_two_unknowns_solves_nothing() -> None:
    assert solved_fields(EQUATION, {"charter_total": "charter_total"}, ["balance_due", "deposit", "fees"]) == {}


def test_only_an_open_field_of_plain_figures_is_solved() -> None:
    assign = {"charter_total": "charter_total", "deposit": "deposit", "fees": "fees"}
    assert solved_fields(EQUATION, assign, ["crew"]) == {}  # the unknown is no field left unset
    grouped = {**assign, "fees": {"harbour": "harbour", "crew": "crew"}}
    assert solved_fields(EQUATION, grouped, ["balance_due"]) == {}  # a field holding an object of figures
    twice = "balance_due = charter_total - deposit + deposit"
    assert solved_fields(twice, assign, ["balance_due"]) == {}


def test_the_opening_line_reads_figures_products_shared_values_and_the_boat() -> None:
    own = dict(CHARTER)
    items = dict(LINE, kind=S)
    own["lines"] = {"type": "array", "items": {"type": "object", "properties": items}}
    sample = copy.deepcopy(SAMPLE)
    for one in sample["charters"].values():
        one["lines"][0]["kind"] = "hull"
    made = opening_line(TEXT, "charters", own, _quote(["boat_id", "days", "day_rate"]), sample)
    assert made is not None and made["op"] == "priced_line" and made["field"] == "lines"
    entry = made["entry"]
    assert entry["kind"] == {"const": "hull"} and entry["days"] == {"val": "days"}
    product = {"op": "*", "args": [{"val": "day_rate"}, {"val": "days"}]}
    assert entry["line_total"] == {"round": product, "digits": 2, "way": "nearest"}
    name = [{"field": "name", "param": "boat_id"}, {"field": "rig", "param": "boat_id"}]
    assert entry["description"] == {"join": name, "sep": " "}


def test_no_opening_line_unless_every_field_reads() -> None:
    quote = _quote(["boat_id", "days", "day_rate"])
    assert opening_line(TEXT.replace("one hull line", "its hull lines"), "charters", CHARTER, quote, SAMPLE) is None
    one = {**SAMPLE, "charters": {"CH-1": SAMPLE["charters"]["CH-1"]}}  # one sample line says nothing
    assert opening_line(TEXT, "charters", CHARTER, quote, one) is None
    unnamed = copy.deepcopy(SAMPLE)
    unnamed["charters"]["CH-2"]["lines"][0]["description"] = "Gale, a ketch"  # no fields joined by a space
    assert opening_line(TEXT, "charters", CHARTER, quote, unnamed) is None
    two = {**CHARTER, "spare_lines": LINES}  # which list the line opens is not clear
    assert opening_line(TEXT, "charters", two, quote, SAMPLE) is None
    assert opening_line(TEXT, "charters", CHARTER, quote, SAMPLE) is not None


def _plan() -> ToolPlan:
    quotes = sibling_quotes([QUOTE, BOOK], SCHEMA, SAMPLE)
    return priced_fields(BOOK, BASE, SCHEMA, [QUOTE, BOOK], quotes, TEXT, SAMPLE, TODAY)


def test_the_charter_plan_solves_lines_and_refuses() -> None:
    plan = _plan()
    assign = {"charter_total": "charter_total", "deposit": "deposit", "fees": "fees"}
    assert plan.quote["assign"] == {**assign, "balance_due": "balance_due~solved"}
    assert [e["op"] for e in plan.effects] == ["priced_line"]
    kinds = [next(k for k in ("open_record", "recent_record", "when") if k in r) for r in plan.quote["refusals"]]
    assert kinds == ["when", "when", "when", "open_record", "recent_record"]
    assert [r["said"] for r in plan.quote["refusals"]] == [one.split(": ")[0] for one in REFUSED]


STATE = {
    "boats": {
        "BT-1": _boat("BT-1", "Swift", "sloop", 95.45),
        "BT-2": _boat("BT-2", "Gale", "ketch", 90.0, status="laid_up"),
        "BT-3": _boat("BT-3", "Tern", "yawl", 90.0, survey_due="2031-05-31"),
        "BT-4": _boat("BT-4", "Skua", "cutter", 90.0, berths=0),
        "BT-5": _boat("BT-5", "Auk", "sloop", 90.0),
        "BT-6": _boat("BT-6", "Puffin", "ketch", 90.0, flagged=True),
        "BT-7": _boat("BT-7", "Gull", "sloop", 90.0, flagged=True),
    },
    "charters": {
        "CH-1": _charter("CH-1", "BT-1", "closed", "2031-05-31"),  # recent, but the boat is not flagged
        "CH-2": _charter("CH-2", "BT-5", "sailing", "2031-05-20"),
        "CH-3": _charter("CH-3", "BT-6", "closed", "2031-05-30"),
        "CH-4": _charter("CH-4", "BT-7", "closed", "2031-05-29"),  # three days ago: long enough
        "CH-5": _charter("CH-5", "BT-7", "cancelled", "2031-05-31"),  # cancelled launches do not count
    },
}
REFUSED_BOATS = ["BT-2", "BT-3", "BT-4", "BT-5", "BT-6"]


def _booked(boat: str, name: str, rate: float, total: float, deposit: float, balance: float) -> dict[str, Any]:
    after = copy.deepcopy(STATE)
    call = {"boat_id": boat, "days": 3, "crew": 2, "launch_date": "2031-06-02", "status": "open"}
    figures = {"charter_total": total, "deposit": deposit, "fees": 25.0, "balance_due": balance}
    line = {"boat_id": boat, "description": name, "days": 3, "day_rate": rate, "line_total": total}
    after["charters"]["CH-6"] = {"charter_id": "CH-6", **call, **figures, "lines": [line]}
    return after


def test_the_charter_is_booked_with_its_line_and_balance() -> None:
    good = {"boat_id": "BT-1", "days": 3, "crew": 2, "launch_date": "2031-06-02"}
    late = {**good, "boat_id": "BT-7"}
    calls = [(good, _booked("BT-1", "Swift sloop", 95.45, 286.35, 57.27, 254.08))]
    calls.append((late, _booked("BT-7", "Gull sloop", 90.0, 270.0, 54.0, 241.0)))
    calls += [({**good, "boat_id": b}, None) for b in REFUSED_BOATS]
    run_calls(BOOK, _plan(), SCHEMA, lambda: copy.deepcopy(STATE), calls)


def test_each_refusal_is_what_refuses_its_call() -> None:
    plan = _plan()
    refusals = plan.quote["refusals"]
    good = {"boat_id": "BT-1", "days": 3, "crew": 2, "launch_date": "2031-06-02"}
    for boat, refusal in zip(REFUSED_BOATS, refusals):
        rest = [r for r in refusals if r is not refusal]
        loose = ToolPlan.from_dict({**plan.to_dict(), "quote": {**plan.quote, "refusals": rest}})
        case = Case(BOOK.name, "x", STATE, {**good, "boat_id": boat}, expect_error=True)
        source = render_tool(BOOK, loose, SCHEMA)
        res, err = run_cases(source, BOOK.name, [case], SchemaResult(SCHEMA, {}, {}, "docs"))
        assert res.passed == 0 and "returned normally" in err, refusal["said"]
