"""Errors listed with the condition that raises them after a dash: "`buoy <id> on <date> is not due yet` — the
buoy's check date is after today." Each condition read becomes a check the call must pass (expr_runtime.fg_check):

- "the <noun>'s <date words> is before / after / on or before / on or after today" (or the business date): that
  date of the changed record stands on the other side (`dated`);
- "an id in `<list argument>` is not on the <roster>": every id the argument lists is in the record's list of ids
  of the same kind (`arg_subset`: `absent_skipper_ids` against `skipper_ids`);
- "the <noun> lacks the <thing> named in the <record>'s `<field>` field": the record the call names by `<noun>_id`
  holds that value in its list of <things>, when the field holds one (`named_holds`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.spec import field_by_words
from synth.spec import record_props as _props
from synth.words import plural, singular

EXPLAINED = re.compile(
    r"`(?P<message>[^`]{3,200})`\s*(?:\u2014|--|\s-)\s*(?P<cond>(?:[^`]|`\w+`)+?)(?=\s*(?:-\s+`|\.\s|\.$|$))"
)
DATE_SIDE = re.compile(
    r"^the\s+(?:[a-z]+['\u2019]s\s+)?(?P<words>[a-z][a-z ]{0,30}?)\s+is\s+(?P<side>on\s+or\s+before|on\s+or\s+after|"
    r"before|after)\s+(?:today|the\s+business\s+date)$",
    re.I,
)
NOT_ON = re.compile(r"^an?\s+id\s+in\s+`(?P<arg>\w+)`\s+is\s+not\s+(?:on|in)\s+the\s+[a-z]+$", re.I)
LACKS = re.compile(
    r"^the\s+(?P<noun>[a-z]+)\s+lacks\s+the\s+(?P<thing>[a-z]+)\s+named\s+in\s+the\s+[a-z]+['\u2019]s\s+`(?P<field>\w+)`"
    r"(?:\s+field)?$",
    re.I,
)
REFUSED_SIDE = {"before": ">=", "after": "<=", "on or before": ">", "on or after": "<"}


def _condition(cond: str, own: dict[str, Any], cols: dict[str, Any], today: str | None) -> list[dict[str, Any]]:
    cond = " ".join(cond.split()).rstrip(".")
    if (m := DATE_SIDE.match(cond)) and today and (field := field_by_words(m.group("words"), own)):
        return [
            {
                "op": "dated",
                "field": field,
                "cmp": REFUSED_SIDE[" ".join(m.group("side").lower().split())],
                "value": today,
            }
        ]
    if (m := NOT_ON.match(cond)) and m.group("arg").endswith("_ids"):
        kind = m.group("arg")[:-4].split("_")[-1]  # `absent_skipper_ids` lists skippers
        lists = [f for f, s in own.items() if (s or {}).get("type") == "array" and f.endswith(f"{kind}_ids")]
        return [{"op": "arg_subset", "arg": m.group("arg"), "list": lists[0]}] if len(lists) == 1 else []
    if (m := LACKS.match(cond)) and m.group("field") in own:
        col = plural(singular(m.group("noun").lower()))
        wanted = {singular(m.group("thing").lower()), plural(singular(m.group("thing").lower()))}
        held = [f for f, s in _props(cols, col).items() if (s or {}).get("type") == "array" and f in wanted]
        if col in cols and len(held) == 1:
            param = f"{singular(m.group('noun').lower())}_id"
            return [
                {"op": "named_holds", "param": param, "collection": col, "list": held[0], "field": m.group("field")}
            ]
    return []


def error_conditions(text: str, collection: str, state_schema: dict[str, Any], today: str | None) -> list[dict]:
    """The checks the conditions of a change's explained errors give (module docstring)."""
    cols = state_schema.get("properties") or {}
    own = _props(cols, collection)
    out: list[dict[str, Any]] = []
    for m in EXPLAINED.finditer(text):
        out += [c for c in _condition(m.group("cond"), own, cols, today) if c not in out]
    return out


__all__ = ["error_conditions"]
