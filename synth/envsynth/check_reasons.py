"""The words a refusal gives for a check, in place of the check's bare name: what the docs' rule said, so an agent
that hits it learns why ("code HX-PILOT needs a boat flagged needs_pilot", "leaving_at must be HH:MM, 24-hour
clock"). Checks with no such words keep the old form ("<op> check"), so environments built before read the same."""

from __future__ import annotations

from typing import Any

from synth.words import singular


def _number(value: Any) -> str:
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def check_reason(check: dict[str, Any]) -> str:
    """The reason a call this check refuses is given, as plain words safe inside a generated string literal that
    may be %-formatted (quotes, backslashes and `%` left out)."""
    return "".join(c for c in _reason(check) if c not in '"\\%\n')


def _reason(check: dict[str, Any]) -> str:
    op, cond = check.get("op"), check.get("if") or {}
    if op == "refused_if" and "unless" in cond:
        values = " or ".join(map(str, check["in"]))
        return f"{check['arg']} {values} needs a {singular(cond['collection'])} flagged {cond['field']}"
    if op == "refused_for":
        kind = f"{check['value']} {check['collection']}"
        said = check["cond"]
        if "below" in said:
            return f"not for {kind} with {said['field']} below {_number(said['below'])}"
        article = "an" if str(said["value"])[:1].lower() in "aeiou" else "a"
        return f"not for {kind} with {article} {said['value']} {singular(said['collection'])}"
    if op == "day_cap":
        return f"daily limit of {_number(check['most'])} reached"
    if op == "arg_clock":
        return f"{check['arg']} must be HH:MM, 24-hour clock"
    if op == "arg_limit" and "while_named" in check:
        return f"{check['arg']} exceeds the {check['expr']['plus'][0]['path'][0]}"
    if op == "bound" and check.get("from") == "self" and check.get("cmp") == "<=" and "when" in check:
        return f"{check['field']} above {_number(check['value'])} for {check['when']['arg']} {check['when']['in'][0]}"
    return f"{op} check"


__all__ = ["check_reason"]
