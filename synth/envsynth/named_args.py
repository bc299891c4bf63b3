"""What the record an argument names must be, when a change's docs say it of that record ("The berth must be of the
stay's berth class and have status `free`"): each clause of the "must" list is a check on the record the call's
`<noun>_id` argument names (a collection other than the call's own):

- "be of the <record>'s <words>": the field the words name (`berth_class_id` for "berth class") holds what the
  call's record holds (`named_same`);
- "have <field> `a`" (or "`a` or `b`"), "be `a`", "be active": that field holds one of those known values
  (`named_state`);
- "have a free slot (`parked` below `slots`)": the first number is below the second (`named_less`).

A clause of neither form is not read. expr_runtime.fg_check evaluates both on the call's record.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.docs_appends import is_number
from synth.envsynth.refusals import _known
from synth.spec import record_props as _props
from synth.words import plural

MUST = re.compile(
    r"\bthe\s+([a-z]\w*)\s+must\s+(be\s+of\s+the\s+\w+['\u2019]s\s+[^.;]+|have\s+[^.;]+|be\s+[`'\w][^.;]+)", re.I
)
OF_THE = re.compile(r"^be\s+of\s+the\s+\w+['\u2019]s\s+([a-z][\w ]*?)\s*$", re.I)
HAVE = re.compile(r"^(?:have\s+(\w+)|be)\s+((?:[`'][\w-]+[`'](?:,\s*|\s+or\s+)?)+)\s*$", re.I)
BARE_STATE = re.compile(r"^be\s+([a-z][\w-]*)\s*$", re.I)  # "be active": a known value, unquoted
BELOW = re.compile(r"^have\s+[^()]*\(\s*`?(\w+)`?\s+(?:below|under|less\s+than)\s+`?(\w+)`?\s*\)\s*$", re.I)


def named_arg_checks(
    sentence: str, params: dict[str, Any], own: dict[str, Any], cols: dict[str, Any], collection: str
) -> list[dict[str, Any]]:
    """The `named_same` / `named_state` checks a "The <noun> must ..." sentence puts on the record an argument
    names (module docstring)."""
    out: list[dict[str, Any]] = []
    for m in MUST.finditer(sentence):
        arg = f"{m.group(1).lower()}_id"
        col = plural(m.group(1).lower())
        if arg not in params or col not in cols or col == collection:
            continue
        theirs = _props(cols, col)
        for clause in re.split(r"\s+and\s+(?=have\b|be\b)", m.group(2).strip()):
            of_the, have, bare, below = (
                OF_THE.match(clause),
                HAVE.match(clause),
                BARE_STATE.match(clause),
                BELOW.match(clause),
            )
            if bare and not have:  # "be active": the one field knowing the value
                held = [f for f, s in sorted(theirs.items()) if bare.group(1) in map(str, _known(s))]
                if len(held) == 1:
                    out.append(
                        {
                            "op": "named_state",
                            "arg": arg,
                            "collection": col,
                            "field": held[0],
                            "allowed": [bare.group(1)],
                        }
                    )
            if below and all(
                is_number(theirs.get(f)) for f in below.groups()
            ):  # "have a free slot (parked below slots)"
                out.append(
                    {"op": "named_less", "arg": arg, "collection": col, "a": below.group(1), "b": below.group(2)}
                )
            if of_the:
                words = "_".join(of_the.group(1).lower().split())
                field = next((f for f in (words, words + "_id") if f in theirs and f in own), None)
                if field:
                    out.append({"op": "named_same", "arg": arg, "collection": col, "field": field})
            elif have:
                values = re.findall(r"[`']([\w-]+)[`']", have.group(2))
                fields = [have.group(1)] if have.group(1) else list(theirs)
                fields = [
                    f for f in fields if f in theirs and values and set(values) <= {str(v) for v in _known(theirs[f])}
                ]
                if len(fields) == 1:
                    out.append(
                        {"op": "named_state", "arg": arg, "collection": col, "field": fields[0], "allowed": values}
                    )
    return out


POSSESSIVE_STATE = re.compile(  # "the bay's `status` is 'free'", "the bay's state is `open` or `held`"
    r"^the\s+([a-z]\w*)['\u2019]s\s+`?(\w+)`?\s+is\s+(?:still\s+)?((?:[`'][\w-]+[`'](?:,\s*|\s+or\s+)?)+)\s*$", re.I
)
COMPARED = re.compile(  # "the boat's `beam_m` is at most the bay's `max_beam_m`"
    r"^the\s+([a-z]\w*)['\u2019]s\s+`?(\w+)`?\s+is\s+(at\s+most|no\s+more\s+than|not\s+above|at\s+least|"
    r"no\s+less\s+than|below|under|less\s+than|above|over|more\s+than)\s+the\s+([a-z]\w*)['\u2019]s\s+`?(\w+)`?\s*$",
    re.I,
)
CMP = {
    "at most": "<=",
    "no more than": "<=",
    "not above": "<=",
    "at least": ">=",
    "no less than": ">=",
    "below": "<",
    "under": "<",
    "less than": "<",
    "above": ">",
    "over": ">",
    "more than": ">",
}


FLAGGED = re.compile(r"^the\s+([a-z]\w*)\s+is\s+(not\s+)?([a-z][a-z ]{1,30}?)\s*$", re.I)  # "the pilot is on duty"
THEIR_BELOW = re.compile(  # "the pilot's `trips` is below their `max_trips`"
    r"^the\s+([a-z]\w*)['\u2019]s\s+`?(\w+)`?\s+is\s+(?:below|under|less\s+than)\s+(?:their|its|his|her)\s+`?(\w+)`?\s*$",
    re.I,
)


KIND_CAP = re.compile(  # "a `kayak` trailer takes boats up to 4.5 m only"
    r"^an?\s+[`'\"]?(?P<value>[\w-]+)[`'\"]?\s+(?P<noun>[a-z]\w*)\s+(?:takes|carries|accepts|holds)\s+(?:\w+\s+)?"
    r"up\s+to\s+(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>[a-z]+)\s+only\s*$",
    re.I,
)


def _kind_caps(clause: str, params: dict[str, Any], own: dict[str, Any], cols: dict[str, Any]) -> list[dict]:
    """ "a `kayak` trailer takes boats up to 4.5 m only": when the record an argument names holds that kind, the
    call's record's one number in that unit (`length_m`) is at most the cap (`named_kind_cap`)."""
    cap = KIND_CAP.match(clause)
    noun = cap.group("noun").lower() if cap else ""
    if not cap or f"{noun}_id" not in params or plural(noun) not in cols:
        return []
    kinds = [f for f, s in sorted(_props(cols, plural(noun)).items()) if cap.group("value") in map(str, _known(s))]
    sized = [
        f for f, s in sorted(own.items()) if is_number(s) and f.lower().split("_")[-1] == cap.group("unit").lower()
    ]
    if len(kinds) != 1 or len(sized) != 1:
        return []
    check = {"op": "named_kind_cap", "arg": f"{noun}_id", "collection": plural(noun), "field": kinds[0]}
    return [{**check, "in": [cap.group("value")], "own": sized[0], "most": float(cap.group("n"))}]


def _flag_checks(clause: str, params: dict[str, Any], cols: dict[str, Any], resource: str) -> list[dict[str, Any]]:
    """ "the pilot is on duty": the one true-or-false field of the record an argument names whose words those are
    (`on_duty`, `is_on_duty`) is true (false after "not")."""
    flagged = FLAGGED.match(clause)
    noun = flagged.group(1).lower() if flagged else ""
    if not flagged or noun == resource or f"{noun}_id" not in params or plural(noun) not in cols:
        return []
    words = flagged.group(3).lower().split()
    fields = [
        f
        for f, sub in sorted(_props(cols, plural(noun)).items())
        if isinstance(sub, dict) and sub.get("type") == "boolean" and f.lower().split("_")[-len(words) :] == words
    ]
    if len(fields) != 1:
        return []
    check = {"op": "named_state", "arg": f"{noun}_id", "collection": plural(noun), "field": fields[0]}
    return [{**check, "allowed": [not flagged.group(2)]}]


def possessive_checks(
    clause: str, params: dict[str, Any], own: dict[str, Any], cols: dict[str, Any], resource: str
) -> list[dict[str, Any]]:
    """Checks of one clause of a "Checks:" list said of the record an argument names: "the bay's `status` is
    'free'", "the pilot is on duty" (`named_state`), "the pilot's `trips` is below their `max_trips`" (`named_less`),
    "the boat's `beam_m` is at most the bay's `max_beam_m`" (`named_cmp`: a number of the call's record against one
    of the named record), "a `kayak` trailer takes boats up to 4.5 m only" (`named_kind_cap`)."""
    state = POSSESSIVE_STATE.match(clause)
    if state:
        noun, field = state.group(1).lower(), state.group(2)
        values = re.findall(r"[`']([\w-]+)[`']", state.group(3))
        col, arg = plural(noun), f"{noun}_id"
        theirs = _props(cols, col) if col in cols else {}
        if noun != resource and arg in params and set(values) <= {str(v) for v in _known(theirs.get(field))}:
            return [{"op": "named_state", "arg": arg, "collection": col, "field": field, "allowed": values}]
    below = THEIR_BELOW.match(clause)
    if below and below.group(1).lower() != resource and f"{below.group(1).lower()}_id" in params:
        col = plural(below.group(1).lower())
        theirs = _props(cols, col) if col in cols else {}
        if is_number(theirs.get(below.group(2))) and is_number(theirs.get(below.group(3))):
            check = {"op": "named_less", "arg": f"{below.group(1).lower()}_id", "collection": col}
            return [{**check, "a": below.group(2), "b": below.group(3)}]
    compared = COMPARED.match(clause)
    if compared:
        mine, field, cmp, noun, other = (compared.group(i) for i in range(1, 6))
        col, arg = plural(noun.lower()), f"{noun.lower()}_id"
        theirs = _props(cols, col) if col in cols else {}
        if mine.lower() == resource and arg in params and is_number(own.get(field)) and is_number(theirs.get(other)):
            check = {"op": "named_cmp", "arg": arg, "collection": col, "own": field, "theirs": other}
            return [{**check, "cmp": CMP[" ".join(cmp.lower().split())]}]
    return _flag_checks(clause, params, cols, resource) + _kind_caps(clause, params, own, cols)


__all__ = ["named_arg_checks", "possessive_checks"]
