"""An amount argument the docs bound by a record's numbers: "the amount must be positive and at most the balance
due (`dues_owed - dues_paid`)" refuses a call whose amount is 0 or less, or above that difference of the record
the call names (a create's `<noun>_id`, or a change's own record). Each becomes an `arg_limit` check {"arg",
"cmp", "value"} or {"arg", "cmp", "expr", "collection"?, "via_arg"?} that expr_runtime.fg_check evaluates."""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.docs_appends import is_number
from synth.envsynth.prose import unwrap
from synth.spec import known_values
from synth.spec import record_props as _props

LIMIT = re.compile(
    r"\bthe\s+`?(?P<arg>\w+)`?\s+(?:must|has\s+to)\s+be\s+(?:(?P<positive>positive|greater\s+than\s+(?:0|zero))"
    r"(?:\s*,)?\s+and\s+)?(?:at\s+most|no\s+more\s+than|not\s+more\s+than)\s+[^.;(]{0,60}?"
    r"\(\s*`(?P<expr>[a-z_]\w*(?:\s*[-+]\s*[a-z_]\w*)*)`\s*\)",
    re.I,
)


def _expr(text: str) -> dict[str, Any]:
    """{"plus": [...], "minus": [...]} of "a - b + c" over the holder's fields."""
    out: dict[str, list[Any]] = {"plus": [], "minus": []}
    for sign, name in re.findall(r"([-+]?)\s*([a-z_]\w*)", "+" + text.replace(" ", "")):
        out["minus" if sign == "-" else "plus"].append({"path": [name]})
    return out


CAPPED = re.compile(  # "Cash is accepted up to 500.00 per payment", "card payments are limited to 900"
    r"\b[`'\"]?(?P<value>[\w-]+)[`'\"]?\s+(?:\w+\s+)?(?:is|are)\s+(?:accepted|allowed|taken|limited|capped)\s+"
    r"(?:up\s+to|to|at)\s+(?P<n>\d[\d,]*(?:\.\d+)?)\b"
    r"|\bthe\s+[`'\"]?(?P<value2>[\w-]+)[`'\"]?\s+limit\s+of\s+"  # "the card limit of 900"
    r"(?:[£$€]\s*)?(?P<n2>\d[\d,]*(?:\.\d+)?)",
    re.I,
)
TAKEN = re.compile(  # "The full remaining_due is taken": what a call with no amount argument charges
    r"\b(?:the\s+)?(?:full|whole|entire)\s+`?(?P<field>[a-z]\w*)`?\s+is\s+(?:taken|charged|collected|paid)\b", re.I
)


def amount_param(params: dict[str, Any]) -> str | None:
    """The call's one number parameter, or the one called `amount`."""
    amounts = [p for p, s in params.items() if is_number(s)]
    return amounts[0] if len(amounts) == 1 else "amount" if "amount" in amounts else None


def valued_param(value: str, params: dict[str, Any]) -> str | None:
    """The one parameter that takes `value` (in its enum, or quoted in its description)."""
    takers = [
        p
        for p, s in params.items()
        if isinstance(s, dict)
        and (
            value in map(str, s.get("enum") or [])
            or re.search(rf"[`'\"]{re.escape(value)}[`'\"]", str(s.get("description") or ""))
        )
    ]
    return takers[0] if len(takers) == 1 else None


def capped_args(text: str, params: dict[str, Any], own: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """`arg_limit` checks of the call's one amount parameter that hold for one value of another parameter only:
    "Cash is accepted up to 500.00 per payment" caps the amount of calls whose method is `cash`. A call with no
    amount parameter that takes a number of its record ("The full `remaining_due` is taken") has that number
    capped (a `bound` check) by "the card limit of 900 per transaction applies"."""
    amount = amount_param(params)
    taken = sorted({m.group("field") for m in TAKEN.finditer(text) if is_number((own or {}).get(m.group("field")))})
    out: list[dict[str, Any]] = []
    for m in CAPPED.finditer(unwrap(text)):
        said = m.group("value") or m.group("value2")
        value = next((v for v in (said, said.lower()) if valued_param(v, params)), None)
        if value is None or (amount is None and len(taken) != 1):
            continue
        limit = float((m.group("n") or m.group("n2")).replace(",", ""))
        check = {"op": "arg_limit", "arg": amount, "cmp": "<=", "value": limit}
        if amount is None:  # the record's number the call takes
            check = {"op": "bound", "from": "self", "field": taken[0], "cmp": "<=", "value": limit}
        check["when"] = {"arg": valued_param(value, params), "in": [value]}
        if check not in out:
            out.append(check)
    return out


def arg_limits(
    text: str, params: dict[str, Any], own: dict[str, Any], refs: dict[str, str], cols: dict[str, Any]
) -> list[dict[str, Any]]:
    """The `arg_limit` checks of a call: `own` the fields of the record it changes ({} for a create), `refs` the
    parameters naming records of other collections."""
    out: list[dict[str, Any]] = []
    for m in LIMIT.finditer(unwrap(text)):
        arg, expr = m.group("arg"), _expr(m.group("expr"))
        if not is_number(params.get(arg)):
            continue
        fields = [o["path"][0] for o in expr["plus"] + expr["minus"]]
        holders = [(None, own)] if own and all(is_number(own.get(f)) for f in fields) else []
        holders += [
            (p, _props(cols, c))
            for p, c in sorted(refs.items())
            if all(is_number(_props(cols, c).get(f)) for f in fields)
        ]
        if len(holders) != 1:
            continue
        via = holders[0][0]
        where = {"collection": refs[via], "via_arg": via} if via else {}
        if m.group("positive"):
            out.append({"op": "arg_limit", "arg": arg, "cmp": ">", "value": 0})
        out.append({"op": "arg_limit", "arg": arg, "cmp": "<=", "expr": expr, **where})
    out += [c for c in outstanding_limits(text, params, own) if c not in out]
    return out + [c for c in capped_args(text, params, own) if c not in out]


OUTSTANDING = re.compile(  # "The amount ... may not exceed what is outstanding: the `balance` for a docked boat, ..."
    r"\bthe\s+`?(?P<arg>\w+)`?\s+(?P<positive>must\s+be\s+(?:positive|greater\s+than\s+(?:0|zero))\s+and\s+)?"
    r"(?:may|must|can)\s+not\s+exceed\s+what\s+is\s+(?:outstanding|owed|due)\s*:\s*(?P<cases>[^.]+)",
    re.I,
)
CASE = re.compile(
    r"^(?:or\s+)?the\s+`(?P<field>\w+)`(?:\s+minus\s+(?:the\s+)?`?(?P<list>\w+)`?\s+already\s+(?:taken|paid|made))?"
    r"\s+for\s+(?P<who>.+)$",
    re.I,
)


def _states(who: str, own: dict[str, Any]) -> tuple[str, list[str]] | None:
    """(field, values) for "a checked-in stay or a cancelled booking": the words before each noun, a known value of
    one field of the record (spelt with `-` or a space for `_`)."""
    said = [re.sub(r"[\s-]+", "_", " ".join(part.split()[1:-1]).lower()) for part in re.split(r"\s+or\s+", who)]
    for field, sub in sorted(own.items()):
        if said and all(s in known_values(sub) for s in said):
            return field, said
    return None


def outstanding_limits(text: str, params: dict[str, Any], own: dict[str, Any]) -> list[dict[str, Any]]:
    """`arg_limit` checks by the record's state: "may not exceed what is outstanding: the `balance` for a docked
    boat or a laid-up boat, or the `fee` minus payments already taken for a booked boat" caps the amount at the
    record's `balance` in the first two states, and at its `fee` less the sum of its `payments` entries' amounts in
    the third."""
    out: list[dict[str, Any]] = []
    for m in OUTSTANDING.finditer(unwrap(text)):
        arg = m.group("arg")
        if not is_number(params.get(arg)):
            continue
        if m.group("positive"):
            out.append({"op": "arg_limit", "arg": arg, "cmp": ">", "value": 0})
        for case in re.split(r",\s*(?=or\s+the\b)|;\s*", m.group("cases").strip()):
            said = CASE.match(case.strip())
            states = _states(said.group("who"), own) if said and is_number(own.get(said.group("field"))) else None
            if not said or states is None:
                continue
            expr: dict[str, Any] = {"plus": [{"path": [said.group("field")]}], "minus": []}
            listed = own.get(said.group("list") or "")
            if said.group("list"):
                items = ((listed or {}).get("items") or {}).get("properties") or {} if isinstance(listed, dict) else {}
                if not is_number(items.get(arg)):
                    continue
                expr["minus"].append({"sum": {"list": said.group("list"), "field": arg}})
            when = {"field": states[0], "in": states[1]}
            out.append({"op": "arg_limit", "arg": arg, "cmp": "<=", "expr": expr, "when": when})
    return out


__all__ = ["arg_limits", "outstanding_limits"]
