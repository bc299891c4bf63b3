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


__all__ = ["named_arg_checks"]
