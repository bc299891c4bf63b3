"""A computed answer learned from recorded calls (--traces): every figure of a quote the docs route could not read
becomes a formula of the quote language (formula_rules.py, run by formula_runtime.fg_formula) that gives the recorded
value in every successful call.

The records the call's parameters name (a parameter whose values are keys of one collection in every call) and the
records those name in turn (a field whose values are keys of another collection) are read like the docs' named
records. Each figure, in the answer's order, is the first of: an argument, a field of a named record or an earlier
figure (those of its own name first), or a number inside an object a named record keeps (0 when it keeps none); an
argument when given, else such a value; one constant; whole days between two dates; two numbers added, subtracted,
multiplied, divided, or their smaller or larger (rounded to the cent or not); one number times a fixed rate; one
number or a product of two over a whole divisor (a rate times minutes over 60); two numbers multiplied by a fixed
rate and rounded (a percent of a price); a sum of earlier figures, some taken off; a table keyed by a text value (a
plan's name, an argument's value) or by a number the parameter's schema lists; or a comparison of two numbers,
learned after the numbers (one with a null figure does not hold). A quote whose every figure is found from three
successful calls at least is kept, so one coincidence is no rule. Figures an optional argument adds ("With a
`skipper_id`, adds ...") are left out of an answer without it (optional_figures.py).
"""

from __future__ import annotations

import json
import re
from itertools import combinations, permutations, product
from typing import Any

from synth.envsynth.expr_runtime import fg_number
from synth.envsynth.formula_runtime import fg_formula
from synth.envsynth.optional_figures import added_with, optional_figures
from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase

MIN_CALLS = 3
ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MAX_OPERANDS = 40
MAX_SUM_TERMS = 4
Call = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]  # arguments, named records, the recorded answer


def _key_of(value: Any) -> str | None:
    return str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else None


def _named(params: list[str], ok: list[TestCase]) -> dict[str, str]:
    """{parameter: collection} for the parameters whose every given value is a key of one collection."""
    out = {}
    for name in params:
        given = [(c, _key_of(c.arguments.get(name))) for c in ok if name in c.arguments]
        if not given or any(k is None for _, k in given):
            continue
        cols = sorted({col for col, recs in given[0][0].state.items() if isinstance(recs, dict)})
        fits = [col for col in cols if all(isinstance(c.state.get(col), dict) and k in c.state[col] for c, k in given)]
        if len(fits) == 1:
            out[name] = fits[0]
    return out


def _links(named: dict[str, str], ok: list[TestCase]) -> dict[str, tuple[str, str, str]]:
    """{link name: (holder parameter, field, collection)}: a named record's field whose every value names a
    record of another collection."""
    out = {}
    for param, col in sorted(named.items()):
        held = [(c, c.state[col].get(str(c.arguments[param]))) for c in ok if param in c.arguments]
        fields = sorted({f for _, r in held if isinstance(r, dict) for f in r})
        for field in fields:
            keys = [(c, _key_of(r.get(field))) for c, r in held if isinstance(r, dict)]
            if not keys or any(k is None for _, k in keys):
                continue
            others = sorted({o for o, recs in keys[0][0].state.items() if isinstance(recs, dict) and o != col})
            fits = [o for o in others if all(isinstance(c.state.get(o), dict) and k in c.state[o] for c, k in keys)]
            if len(fits) == 1:
                out[f"{param}.{field}"] = (param, field, fits[0])
    return out


def _records(case: TestCase, named: dict[str, str], links: dict[str, tuple[str, str, str]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for param, col in named.items():
        if param in case.arguments:
            out[param] = (case.state.get(col) or {}).get(str(case.arguments[param]))
    for link, (holder, field, col) in links.items():
        if isinstance(out.get(holder), dict):
            out[link] = (case.state.get(col) or {}).get(str(out[holder].get(field)))
    return out


def _same(a: Any, b: Any) -> bool:
    if fg_number(a) and fg_number(b):
        return round(float(a), 6) == round(float(b), 6)
    return type(a) is type(b) and a == b


def _fits(node: dict[str, Any], name: str, calls: list[Call], values: list[dict[str, Any]]) -> bool:
    try:
        return all(_same(fg_formula(node, a, n, v), out[name]) for (a, n, out), v in zip(calls, values))
    except (TypeError, ValueError, KeyError, ZeroDivisionError, AttributeError):
        return False


def _operands(calls: list[Call], values: list[dict[str, Any]], params: list[str]) -> list[dict[str, Any]]:
    """Nodes every call gives a value for: earlier figures, arguments, fields of the named records."""
    nodes: list[dict[str, Any]] = [{"val": k} for k in values[0]]
    nodes += [{"arg": p} for p in params if all(p in a for a, _, _ in calls)]
    names = sorted({k for _, n, _ in calls for k in n})
    for record in names:
        fields = sorted({f for _, n, _ in calls if isinstance(n.get(record), dict) for f in n[record]})
        for field in fields:
            if all(isinstance(n.get(record), dict) and field in n[record] for _, n, _ in calls):
                nodes.append({"field": field, "param": record})
        nodes += _inner_numbers(record, fields, calls)
    return nodes


def _inner_numbers(record: str, fields: list[str], calls: list[Call]) -> list[dict[str, Any]]:
    """A number inside an object the named record keeps (a block's lessons left), 0 in the calls whose record
    keeps no such object (no block bought)."""
    out = []
    for field in fields:
        held = [n.get(record).get(field) if isinstance(n.get(record), dict) else None for _, n, _ in calls]
        if not any(isinstance(h, dict) for h in held) or not all(isinstance(h, dict) or h is None for h in held):
            continue
        inner = sorted({k for h in held if isinstance(h, dict) for k, v in h.items() if fg_number(v)})
        for key in inner:
            if all(h is None or fg_number(h.get(key)) for h in held):
                node: dict[str, Any] = {"path": [field, key], "param": record}
                out.append({**node, "default": 0} if None in held else node)
    return out


def _evaluated(node: dict[str, Any], calls: list[Call], values: list[dict[str, Any]]) -> list[Any]:
    return [fg_formula(node, a, n, v) for (a, n, _), v in zip(calls, values)]


def _numbers(nodes: list[dict[str, Any]], calls: list[Call], values: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [n for n in nodes if all(fg_number(x) and not isinstance(x, bool) for x in _evaluated(n, calls, values))][
        :MAX_OPERANDS
    ]


def _compared_first(
    node: dict[str, Any], name: str, params: list[str], held: list[Any], found: list[str]
) -> tuple[int, bool, bool, int]:
    """Operands of a yes/no in the order tried: those sharing a word with its name (`credit_can_cover`: the credit
    balance), an argument answered back last, figures that vary over the calls (not a fixed fee) first, then the
    answer's figures found last (the price, computed from the rate) before those found earlier and the records'
    fields."""
    echo = "arg" in node or node.get("val") in params
    fixed = len({repr(x) for x in held}) == 1
    order = -found.index(node["val"]) if node.get("val") in found else 1
    return -len(_words(node) & set(name.split("_"))), echo, fixed, order


def _words(node: dict[str, Any]) -> set[str]:
    """The words of the figure, argument, field or path an operand reads (`credit_balance`: credit, balance)."""
    named = node.get("val") or node.get("arg") or node.get("field") or "_".join(node.get("path") or [])
    return set(str(named).split("_")) if isinstance(named, str) else set()


def _number_or_none(held: list[Any]) -> bool:
    """Numbers in some calls and empty (null) in the others."""
    return any(x is None for x in held) and all(x is None or fg_number(x) and not isinstance(x, bool) for x in held)


def _rounded(node: dict[str, Any]) -> list[dict[str, Any]]:
    return [node, {"round": node, "digits": 2}]


def _arithmetic(nums: list[dict[str, Any]], name: str, calls: list[Call], values: list[dict[str, Any]]):
    for x, y in product(nums, nums):
        if x == y:
            continue
        for op in ("*", "+", "-", "/", "min", "max"):
            for node in _rounded({"op": op, "args": [x, y]}):
                if _fits(node, name, calls, values):
                    return node
    first = calls[0][2][name]
    if not fg_number(first):
        return None
    for x in nums:  # one number times a fixed rate
        base = _evaluated(x, calls, values)[0]
        if fg_number(base) and base:
            rate = round(first / base, 6)
            for node in _rounded({"op": "*", "args": [x, {"num": rate}]}):
                if _fits(node, name, calls, values):
                    return node
    for x in nums:  # one number over a whole divisor (minutes over 60)
        base = _evaluated(x, calls, values)[0]
        whole = _divisor(base, first)
        if whole is not None and _fits({"op": "/", "args": [x, {"num": whole}]}, name, calls, values):
            return {"op": "/", "args": [x, {"num": whole}]}
    for x, y in combinations(nums, 2):  # a product over a whole divisor (an hourly rate times minutes over 60)
        a, b = _evaluated(x, calls, values)[0], _evaluated(y, calls, values)[0]
        whole = _divisor(a * b, first) if fg_number(a) and fg_number(b) else None
        node = {"op": "/", "args": [{"op": "*", "args": [x, y]}, {"num": whole}]}
        if whole is not None and any(_fits(n, name, calls, values) for n in _rounded(node)):
            return next(n for n in _rounded(node) if _fits(n, name, calls, values))
    for x, y in combinations(nums, 2):  # a percent of a product (coverage of a price)
        a, b = _evaluated(x, calls, values)[0], _evaluated(y, calls, values)[0]
        if fg_number(a) and fg_number(b) and a * b:
            rate = round(first / (a * b), 4)
            node = {"round": {"op": "*", "args": [{"op": "*", "args": [x, y]}, {"num": rate}]}, "digits": 2}
            if _fits(node, name, calls, values):
                return node
    return None


def _divisor(base: Any, value: Any) -> int | None:
    """The whole number from 2 to 1000 that `base` over it gives `value`, or None."""
    if not (fg_number(base) and fg_number(value)) or not value or not base or isinstance(base, bool):
        return None
    ratio = base / value
    whole = round(ratio)
    return whole if 2 <= whole <= 1000 and abs(ratio - whole) < 1e-9 * max(1, abs(ratio)) else None


def _days(nodes: list[dict[str, Any]], name: str, calls: list[Call], values: list[dict[str, Any]]) -> dict | None:
    """Whole days from one date to another (the nights of a stay from its arrival and departure)."""
    dated = [n for n in nodes if all(isinstance(v, str) and ISO_DAY.match(v) for v in _evaluated(n, calls, values))]
    for x, y in permutations(dated, 2):
        node = {"days_between": [x, y]}
        if _fits(node, name, calls, values):
            return node
    return None


def _sums(name: str, calls: list[Call], values: list[dict[str, Any]]) -> dict[str, Any] | None:
    earlier = [k for k in values[0] if all(fg_number(v.get(k)) and not isinstance(v.get(k), bool) for v in values)]
    for size in range(2, min(MAX_SUM_TERMS, len(earlier)) + 1):
        for chosen in combinations(earlier, size):
            for signs in product((1, -1), repeat=size - 1):
                node: dict[str, Any] = {"val": chosen[0]}
                for term, sign in zip(chosen[1:], signs):
                    node = {"op": "+" if sign > 0 else "-", "args": [node, {"val": term}]}
                for rounded in _rounded(node):
                    if _fits(rounded, name, calls, values):
                        return rounded
    return None


def _table(
    nodes: list[dict[str, Any]],
    name: str,
    calls: list[Call],
    values: list[dict[str, Any]],
    keys: set[str],
    listed: set[str] = frozenset(),  # type: ignore[assignment]
) -> dict[str, Any] | None:
    """A table keyed by a text value, or by a number the parameter's schema lists (`listed`: 60, 90 or 120
    minutes): every call whose key is the same answers the same, and one key is seen in calls naming different
    records (a plan's name shared by two patients, not one prescription's own date)."""
    who = [json.dumps({k: a.get(k) for k in sorted(keys)}, sort_keys=True, default=str) for a, _, _ in calls]
    for node in nodes:
        held = _evaluated(node, calls, values)
        numbered = node.get("arg") in listed
        if any(isinstance(k, (dict, list)) or fg_number(k) and not isinstance(k, bool) and not numbered for k in held):
            continue
        table: dict[str, Any] = {}
        seen: dict[str, set[str]] = {}
        for key, (_, _, out), named in zip(held, calls, who):
            if str(key) in table and not _same(table[str(key)], out[name]):
                break
            table[str(key)] = out[name]
            seen.setdefault(str(key), set()).add(named)
        else:  # two keys at least, one shared by calls naming different records, and two answers
            varied = len({json.dumps(v, sort_keys=True) for v in table.values()}) >= 2
            if len(table) >= 2 and varied and any(len(w) > 1 for w in seen.values()):
                found = (
                    {"table_arg": node["arg"], "values": table}
                    if "arg" in node
                    else {"table": node["field"], "param": node["param"], "values": table}
                    if "field" in node
                    else None
                )
                if found is not None and _fits(found, name, calls, values):
                    return found
    return None


def _simple(name: str, calls: list[Call], values: list[dict[str, Any]], params: list[str]) -> dict | None:
    """A value read as it is: one constant for a yes/no every call answers alike, an argument, a field of a named
    record or an earlier figure (its own name first), an argument when given (else such a value), or a constant."""
    first = calls[0][2][name]
    same = not isinstance(first, (dict, list)) and all(_same(o[name], first) for _, _, o in calls)
    if same and isinstance(first, bool):  # a yes/no every call answers alike: no field that happens to agree
        return {"const": first}
    nodes = _operands(calls, values, params)
    own = sorted(nodes, key=lambda n: n.get("arg", n.get("field", n.get("val"))) != name)
    for node in own:
        if _fits(node, name, calls, values):
            return node
    for arg in params:  # an argument when given, else a value of the records
        if any(arg not in a for a, _, _ in calls) and all(_same(a[arg], o[name]) for a, _, o in calls if arg in a):
            for other in own:
                node = {"when": {"arg": arg, "default": None, "in": [None]}, "then": other, "else": {"arg": arg}}
                if _fits(node, name, calls, values):
                    return node
    return {"const": first} if same else None


def _computed(
    name: str,
    calls: list[Call],
    values: list[dict[str, Any]],
    params: list[str],
    keys: set[str],
    listed: set[str] = frozenset(),  # type: ignore[assignment]
) -> dict[str, Any] | None:
    """A value computed from the others: a comparison, arithmetic, a sum of earlier figures, or a table (never
    keyed by a parameter naming a record: that would only list the recorded answers; `listed`: the numeric
    parameters whose schema lists their values, which may key one)."""
    nodes = _operands(calls, values, params)
    nums = _numbers(nodes, calls, values)
    first = calls[0][2][name]
    if isinstance(first, bool):  # a comparison; one with a figure left empty (null) does not hold
        some = nums + [n for n in nodes if n not in nums and _number_or_none(_evaluated(n, calls, values))]
        found = list(values[0])
        some = sorted(some, key=lambda n: _compared_first(n, name, params, _evaluated(n, calls, values), found))
        for x, y in product(some, some):
            for op in (">=", "<=", ">", "<"):
                node = (
                    {"op": op, "args": [x, y]} if x in nums and y in nums else {"op": op, "args": [x, y], "none": False}
                )
                if x != y and _fits(node, name, calls, values):
                    return node
    elif fg_number(first):
        found = (
            _days(nodes, name, calls, values) or _arithmetic(nums, name, calls, values) or _sums(name, calls, values)
        )
        if found is not None:
            return found
    return _table([n for n in nodes if n.get("arg") not in keys], name, calls, values, keys, listed)


def _numbers_first(left: list[str], calls: list[Call]) -> list[str]:
    """The figures left, the yes/no ones last: a comparison is of figures, found first."""
    return sorted(left, key=lambda name: isinstance(calls[0][2][name], bool))


def _ordered(steps: list[list[Any]]) -> list[list[Any]]:
    """The steps with each one after the earlier figures it reads (stable otherwise)."""
    names = {name for name, _ in steps}
    out: list[list[Any]] = []
    left = list(steps)
    while left:
        done = {name for name, _ in out}
        ready = next(
            (s for s in left if {v for v in _reads(s[1]) if v in names and v != s[0]} <= done), left[0]
        )  # a cycle (never learned here) keeps the given order
        out.append(ready)
        left.remove(ready)
    return out


def _grounded(docs_steps: list[list[Any]], known: set[str]) -> set[str]:
    """The docs' figures whose every figure read is known or itself grounded."""
    out: set[str] = set()
    while True:
        more = {n for n, node in docs_steps if n not in out and _reads(node) - {n} <= known | out}
        if not more:
            return out
        out |= more


def _reads(node: Any) -> set[str]:
    if isinstance(node, dict):
        own = {node["val"]} if isinstance(node.get("val"), str) else set()
        return own.union(*(_reads(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_reads(v) for v in node))
    return set()


def learned_quote(
    spec: Any, plan: ToolPlan, recorded: list[TestCase], partial: ToolPlan | None = None
) -> ToolPlan | None:
    """A `quote` plan computing every figure the recorded answers hold, or None. `partial`: the docs' own quote
    with the figures they give (formula_rules.quote_plan with partial=True); only the others are learned, and
    the docs' figures are taken to give what the recorded answers show (the candidate is run on them later)."""
    ok = [c for c in recorded if not c.expect_error and isinstance(c.expect_result, dict)]
    if len(ok) < MIN_CALLS or any(sorted(c.expect_result) != sorted(ok[0].expect_result) for c in ok):
        return None
    given = dict(partial.quote) if partial is not None and partial.kind == "quote" else {}
    answered = list(ok[0].expect_result)
    docs_steps = [list(step) for step in given.get("steps") or []]
    properties = spec.parameters.get("properties") or {}
    params = list(properties)
    listed = {p for p, v in properties.items() if isinstance(v, dict) and isinstance(v.get("enum"), list)}
    named = {**_named(params, ok), **(given.get("named") or {})}
    links = _links(named, ok)
    calls = [(c.arguments, _records(c, named, links), c.expect_result) for c in ok]
    values: list[dict[str, Any]] = [{} for _ in calls]
    steps: list[list[Any]] = []
    left = [n for n in answered if n not in {n for n, _ in docs_steps}]
    while True:  # a docs figure is an operand once every figure it reads is known: never one reading a figure left
        for name in _grounded(docs_steps, {n for n, _ in steps}) & set(answered):
            for v, (_, _, out) in zip(values, calls):
                v[name] = out[name]
        if not left:
            break
        found = None
        for name in left:
            node = _simple(name, calls, values, params)
            found = (name, node) if node is not None else None
            if found:
                break
        for name in _numbers_first(left, calls) if found is None else []:  # a yes/no compares figures found
            node = _computed(name, calls, values, params, set(named), listed)
            found = (name, node) if node is not None else None
            if found:
                break
        if found is None:
            return None
        steps.append(list(found))
        left.remove(found[0])
        for v, (_, _, out) in zip(values, calls):
            v[found[0]] = out[found[0]]
    if partial is not None and not steps:
        return None  # the docs' quote as it is
    quote = {
        **given,
        "named": named,
        "linked": {**(given.get("linked") or {}), **{link: list(held) for link, held in links.items()}},
        "select": given.get("select") or {},
        "steps": _ordered(docs_steps + steps),
        "fields": answered,
    }
    added = added_with(spec.description, params, list(spec.parameters.get("required") or []))
    left_out = optional_figures(quote["steps"], added)  # "With a skipper_id, adds ...": not answered without it
    if left_out:
        quote["optional"] = left_out
    blank = {"output_key": None, "output_fields": [], "output_map": {}, "embeds": [], "output_format": []}
    evidence = plan.evidence + ["figures learned from recorded answers"]
    return ToolPlan.from_dict({**plan.to_dict(), **blank, "kind": "quote", "quote": quote, "evidence": evidence})


__all__ = ["learned_quote"]
