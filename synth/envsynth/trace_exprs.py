"""Values a call computes over the records it references, learned from recorded calls (--traces).

A *term* sums one number field over the records that a list (or string) argument's ids name, looked up in a
*scope*: a list or map field of the call's own record (the order's items) or a top-level collection of the state
(searched down to nested maps, such as a product's variants). An *expression* adds and subtracts up to two
operands (terms, or numbers of the record at a fixed path), optionally as an absolute value; a *choice* picks one
of two words by the sign of an expression (one word when a difference is positive, the other else); a *swap*
replaces the elements of a record's list that one argument's ids name by the records another argument's ids name
(each old id names the first element that matches it, skipping the ones already replaced unless the samples show
otherwise).
A rule is kept only when it gives the recorded value in every sample. The environment evaluates rules with the
same functions (synth/envsynth/expr_runtime.py, copied into env.py).
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from synth.envsynth.expr_runtime import fg_evaluate, fg_find_by_id, fg_ids, fg_number, fg_operand, fg_scope, fg_swap

# (value, arguments, record, state) of one successful recorded call
Sample = tuple[Any, dict[str, Any], dict[str, Any], dict[str, Any]]
MAX_DEPTH = 4
MAX_OPERANDS = 40


def _number_paths(value: Any, prefix: tuple[Any, ...] = (), depth: int = 0) -> list[tuple[Any, ...]]:
    if depth > MAX_DEPTH:
        return []
    if isinstance(value, dict):
        return [p for k in sorted(value) for p in _number_paths(value[k], prefix + (k,), depth + 1)]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _number_paths(v, prefix + (i,), depth + 1)]
    return [prefix] if fg_number(value) else []


def operands(samples: list[Sample], record_numbers: bool = True) -> list[dict[str, Any]]:
    """Terms (then record numbers) that have a value in every sample."""
    _, args0, record0, state0 = samples[0]
    scopes = [["record", k] for k in sorted(record0) if isinstance(record0[k], (list, dict))]
    scopes += [["state", k] for k in sorted(state0) if isinstance(state0[k], dict)]
    found: list[dict[str, Any]] = []
    for name in sorted(args0):
        ids = fg_ids(args0[name])
        if ids is None:
            continue
        for scope in scopes:
            hit = fg_find_by_id(fg_scope(scope, record0, state0), ids[0])
            if hit is None:
                continue
            for field in sorted(k for k, v in hit.items() if fg_number(v)):
                found.append({"term": {"ids": name, "scope": scope, "field": field}})
    if record_numbers:
        found += [{"path": list(p)} for p in _number_paths(record0)]
    kept = [op for op in found if all(fg_operand(op, a, r, s) is not None for _, a, r, s in samples)]
    return kept[:MAX_OPERANDS]


def expressions(operands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """a, -a, a - b, then |a - b| over the operands, terms first (the simplest that fits wins)."""
    out: list[dict[str, Any]] = []
    for a in operands:
        out += [{"plus": [a]}, {"minus": [a]}]
    pairs = list(permutations(operands, 2))
    out += [{"plus": [a], "minus": [b]} for a, b in pairs]
    return out + [{"plus": [a], "minus": [b], "abs": True} for a, b in pairs]


def expression_for(value: Any, sample: Sample) -> list[dict[str, Any]]:
    """Every expression that gives `value` in this one call (for rules checked on the other calls later)."""
    if not fg_number(value):
        return []
    _, args, record, state = sample
    out = []
    for expr in expressions(operands([sample])):
        got = fg_evaluate({**expr, "digits": 6}, args, record, state)
        if got is not None and round(got, 6) == round(value, 6):
            out.append({"from": "expr", "expr": {**expr, "digits": 2}})
    return out


def learn_number(samples: list[Sample]) -> dict[str, Any] | None:
    """An expression giving the recorded number in every sample, rounded to 2 digits when that fits."""
    if not samples or not all(fg_number(v) for v, *_ in samples):
        return None
    for expr in expressions(operands(samples)):
        for digits in (2, 6):
            cand = {**expr, "digits": digits}
            if all(
                (got := fg_evaluate(cand, a, r, s)) is not None and round(got, 6) == round(v, 6)
                for v, a, r, s in samples
            ):
                return {"from": "expr", "expr": cand}
    return None


def learn_choice(samples: list[Sample]) -> dict[str, Any] | None:
    """One of two recorded words picked by the sign of an expression (one word for every zero)."""
    words = sorted({v for v, *_ in samples if isinstance(v, str)})
    if len(words) != 2 or not all(isinstance(v, str) for v, *_ in samples):
        return None
    for expr in expressions(operands(samples, record_numbers=False)):
        if expr.get("abs") or "plus" not in expr:
            continue
        cand = {**expr, "digits": 6}
        values = [fg_evaluate(cand, a, r, s) for _, a, r, s in samples]
        if any(v is None for v in values):
            continue
        zeros = {w for (w, *_), v in zip(samples, values) if v == 0}
        if len(zeros) > 1:
            continue
        for pos, neg in (words, words[::-1]):
            zero = next(iter(zeros), neg)
            if all(w == (zero if v == 0 else pos if v > 0 else neg) for (w, *_), v in zip(samples, values)):
                return {"from": "choice", "rule": {"expr": cand, "positive": pos, "negative": neg, "zero": zero}}
    return None


def learn_swap(field: str, samples: list[Sample]) -> dict[str, Any] | None:
    """A swap of the record's list `field` that gives the recorded list in every sample."""
    _, args0, record0, state0 = samples[0]
    items0 = record0.get(field)
    if not isinstance(items0, list) or not items0 or not isinstance(items0[0], dict):
        return None
    lists = [n for n in sorted(args0) if isinstance(args0[n], list) and fg_ids(args0[n]) is not None]
    scopes = [["state", k] for k in sorted(state0) if isinstance(state0[k], dict)]
    for old, new in permutations(lists, 2):
        for match in sorted(k for k, v in items0[0].items() if isinstance(v, str)):
            for scope in scopes:
                for again in (False, True):
                    rule = {"old": old, "new": new, "match": match, "scope": scope, "again": again}
                    if all(fg_swap(rule, r.get(field), a, r, s) == v for v, a, r, s in samples):
                        return {"op": "swap", "field": field, "rule": rule}
    return None


def per_entry_move(rule: dict[str, Any]) -> dict[str, Any] | None:
    """An `adjust` learned on the first entry of one of the record's lists (the stock of `lines[0]`'s product moved
    by `lines[0]`'s quantity) as the same move for every entry of that list (`each_entry_adjust`), or None."""
    path, delta = rule.get("path") or [], rule.get("delta") or {}
    if len(path) != 2 or path[0].get("from") != "record" or path[1].get("from") != "const":
        return None
    held = path[0].get("path") or []
    expr = delta.get("expr") if delta.get("from") == "expr" else None
    if len(held) != 3 or held[1] != 0 or not isinstance(expr, dict) or set(expr) - {"plus", "minus", "digits"}:
        return None
    terms = [(1, t) for t in expr.get("plus") or []] + [(-1, t) for t in expr.get("minus") or []]
    if len(terms) != 1 or set(terms[0][1]) != {"path"}:
        return None
    sign, term = terms[0]
    amount = term["path"]
    if len(amount) != 3 or amount[0] != held[0] or amount[1] != 0:
        return None
    return {
        "op": "each_entry_adjust",
        "list": held[0],
        "via": held[2],
        "collection": rule["collection"],
        "field": path[1]["value"],
        "amount": amount[2],
        "sign": sign,
    }


__all__ = ["expression_for", "expressions", "learn_choice", "learn_number", "learn_swap", "operands", "per_entry_move"]
