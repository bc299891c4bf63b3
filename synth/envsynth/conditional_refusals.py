"""Refusals a create's list ties to some values of an argument (refused_lists.refused_bullets): "the berth type is
`houseboat` and the marina is in a conservation area", "the berth type is `fuel` and the marina's district is
residential (starts with `R-`)", "the berth type is `charter`, `club` or `race` and the skipper is not a `pro`
whose `licence` is `valid`".

The clause before "and" names a parameter by its words (`berth_type`, or a `type` parameter) and the values that
call for the rest; the rest is said of the record a link of the new record names (`marina_id` -> marinas):
- "is in a <words>" (or "is a <words>", "is <words>"; an aside after it set aside): its yes/no field whose name holds
  those words is true;
- "'s <field words> is <word> (starts with `X`)": that field's text starts with X;
- "is not a `<value>` whose `<field>` is `<value2>`": its field knowing the value does not hold it, or `<field>`
  does not hold the second.
Each becomes a `refused_if` check (expr_runtime.fg_check): the call is refused when the argument holds one of the
values and the condition holds. A change adding to a list of its record reads one more: "the type is `final` while
any other survey on the boat is still `booked`": an entry of that list holds the value (`while_entries`; the words
name a parameter, or the one whose name ends in them).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_checks import noun_link
from synth.envsynth.create_rules import _known, _props
from synth.envsynth.refused_lists import refused_bullets

WHEN_ARG = re.compile(
    r"^the\s+(?P<words>[a-z][\w ]{0,30}?)\s+is\s+(?P<values>`[\w-]+`(?:(?:\s*,\s*|\s+or\s+|,\s+or\s+)`[\w-]+`)*)"
    r"\s+and\s+the\s+(?P<noun>\w+)(?P<rest>.*)$",
    re.I,
)
FLAG = re.compile(r"^\s+is\s+(?:in\s+|on\s+)?(?:an?\s+)?(?P<words>[a-z][a-z ]{2,40})$", re.I)
PREFIX = re.compile(
    r"^['\u2019]s\s+`?(?P<field>\w+(?:\s\w+)?)`?\s+is\s+\w+\s*\(\s*starts\s+with\s+`(?P<prefix>[^`]+)`\s*\)$", re.I
)
NOT_WHOSE = re.compile(
    r"^\s+is\s+not\s+an?\s+`(?P<value>[\w-]+)`\s+whose\s+`(?P<field>\w+)`\s+is\s+`(?P<value2>[\w-]+)`$", re.I
)


WHILE_ENTRY = re.compile(
    r"^the\s+(?P<words>[a-z][\w ]{0,30}?)\s+is\s+(?P<values>`[\w-]+`(?:(?:\s*,\s*|\s+or\s+|,\s+or\s+)`[\w-]+`)*)"
    r"\s+while\s+(?:any|an?)\s+(?:other\s+)?(?P<item>[a-z]+)\s+(?:on|of|in)\s+the\s+(?P<noun>[a-z]+)\s+is\s+"
    r"(?:still\s+)?`(?P<held>[\w-]+)`$",
    re.I,
)


def while_entries(text: str, own: dict[str, Any], params: dict[str, Any]) -> list[dict[str, Any]]:
    """`refused_if` checks for listed refusals of an argument value while an entry of the record's list holds a
    state ("the type is `final` while any other survey on the boat is still `booked`")."""
    out: list[dict[str, Any]] = []
    for bullet in refused_bullets(text):
        m = WHILE_ENTRY.match(bullet.strip().rstrip(".;"))
        name = "_".join(m.group("words").lower().split()) if m else ""
        named = [p for p in params if p == name or p.endswith("_" + name)] if m else []
        lists = [
            (f, k)
            for f, sch in sorted(own.items())
            if m and isinstance(sch, dict) and sch.get("type") == "array"
            for k, sub in sorted(((sch.get("items") or {}).get("properties") or {}).items())
            if m.group("held") in map(str, _known(sub))
        ]
        if len(named) == 1 and len(lists) == 1:
            values = re.findall(r"`([\w-]+)`", m.group("values"))
            cond = {"list": lists[0][0], "field": lists[0][1], "held": [m.group("held")]}
            out.append({"op": "refused_if", "arg": named[0], "in": values, "if": cond})
    return out


def _param(words: str, params: dict[str, Any]) -> str | None:
    name = "_".join(words.lower().split())
    if name in params:
        return name
    last = name.split("_")[-1]
    return last if last in params else None


def _condition(noun: str, rest: str, own: dict[str, Any], cols: dict[str, Any]) -> dict[str, Any] | None:
    link = noun_link(noun, own, cols)
    if link is None:
        return None
    theirs = _props(cols, link[1])
    base = {"via": link[0], "collection": link[1]}
    if m := PREFIX.match(rest):
        field = "_".join(m.group("field").lower().split())
        if field in theirs:
            return {**base, "field": field, "prefix": m.group("prefix")}
    if m := NOT_WHOSE.match(rest):
        holders = [f for f, s in sorted(theirs.items()) if m.group("value") in map(str, _known(s))]
        if len(holders) == 1 and m.group("field") in theirs:
            pair = {holders[0]: m.group("value"), m.group("field"): m.group("value2")}
            return {**base, "not_all": pair}
    if m := FLAG.match(re.sub(r"\s*\([^()]*\)", "", rest)):  # "is in a conservation area (these go on paper)"
        words = set(m.group("words").lower().split())
        flags = [
            f
            for f, s in sorted(theirs.items())
            if isinstance(s, dict) and s.get("type") == "boolean" and words - {"the"} <= set(f.lower().split("_"))
        ]
        if len(flags) == 1:
            return {**base, "field": flags[0], "true": True}
    return None


def conditional_refusals(text: str, own: dict[str, Any], cols: dict[str, Any], params: dict[str, Any]) -> list[dict]:
    """The `refused_if` checks of a create's listed refusals tied to argument values."""
    out: list[dict[str, Any]] = []
    for bullet in refused_bullets(text):
        m = WHEN_ARG.match(bullet.strip())
        param = _param(m.group("words"), params) if m else None
        if m is None or param is None:
            continue
        condition = _condition(m.group("noun"), m.group("rest"), own, cols)
        if condition is not None:
            values = re.findall(r"`([\w-]+)`", m.group("values"))
            out.append({"op": "refused_if", "arg": param, "in": values, "if": condition})
    return out


__all__ = ["conditional_refusals", "while_entries"]
