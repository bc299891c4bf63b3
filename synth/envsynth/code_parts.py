"""Checks on the leading part of a code the record holds, where the docs name that part by a field of other records:
"the pilot's `area` equals the mooring code's `area`" (a mooring code `HB2 07` lies in area `HB2`), "the mooring
code ... is in area HB1-HB4".

The code is the record's text field the words name ("mooring code" -> `mooring_code`); its part is what comes before
the first space (or hyphen, or slash): the separator for which every such code of the sample data starts with a
value the named field holds in the data (`area` of the pilots), or, for a range, a value of the range. Each becomes
a check of list_runtime.fg_code_part: `named_part` (the record the call names by `<noun>_id` holds that part) or
`part_in` (the part is one of the range's values, "HB1-HB4" being HB1, HB2, HB3 and HB4).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.data_copies import sample_records
from synth.spec import record_props as _props
from synth.words import plural

EQUALS = re.compile(
    r"^(?:and\s+)?the\s+(?P<noun>[a-z]+)['\u2019]s\s+`?(?P<field>\w+)`?\s+(?:equals|matches|is)\s+the\s+"
    r"(?P<words>[a-z][a-z ]{0,30}?)['\u2019]s\s+`?(?P=field)`?$",
    re.I,
)
IN_RANGE = re.compile(
    r"^(?:and\s+)?the\s+(?P<words>[a-z][a-z ]{0,30}?)\s+(?:has|is|must|matches)\b.*?\bis\s+in\s+[a-z]+\s+"
    r"(?P<head>[A-Z]+)(?P<a>\d+)\s*"
    r"(?:-|\u2013|to)\s*(?P=head)(?P<b>\d+)\b",
)
SEPARATORS = (" ", "-", "/")


def _text_field(words: str, own: dict[str, Any]) -> str | None:
    """The record's text field the words name: all of them, else the one field ending in the last word."""
    whole = "_".join(words.lower().split())
    if (own.get(whole) or {}).get("type") == "string":
        return whole
    last = words.lower().split()[-1]
    ends = [f for f, s in own.items() if (s or {}).get("type") == "string" and (f == last or f.endswith("_" + last))]
    return ends[0] if len(ends) == 1 else None


def _separator(codes: list[str], parts: set[str]) -> str | None:
    """The separator before which every code's part is one of `parts`."""
    for sep in SEPARATORS:
        if codes and parts and all(sep in c and c.split(sep)[0] in parts for c in codes):
            return sep
    return None


def part_checks(
    clause: str, collection: str, own: dict[str, Any], cols: dict[str, Any], sample: dict[str, Any]
) -> list[dict[str, Any]]:
    """The `named_part` or `part_in` check one clause of a conditions list gives, [] when it gives none."""
    clause = " ".join(clause.split()).rstrip(".")
    if m := EQUALS.match(clause):
        other, field = plural(m.group("noun").lower()), m.group("field")
        code = _text_field(m.group("words"), own)
        if other not in cols or field not in _props(cols, other) or code is None:
            return []
        codes = [r[code] for r in sample_records(sample, collection) if isinstance(r.get(code), str)]
        parts = {str(r.get(field)) for r in sample_records(sample, other) if r.get(field) is not None}
        sep = _separator(codes, parts)
        param = f"{m.group('noun').lower()}_id"
        return (
            [{"op": "named_part", "param": param, "collection": other, "field": field, "own": code, "sep": sep}]
            if sep
            else []
        )
    if m := IN_RANGE.match(clause):
        code = _text_field(m.group("words"), own)
        low, high = int(m.group("a")), int(m.group("b"))
        values = [f"{m.group('head')}{n}" for n in range(low, high + 1)] if 0 <= high - low <= 100 else []
        codes = [r[code] for r in sample_records(sample, collection) if code and isinstance(r.get(code), str)]
        sep = _separator(codes, set(values))
        return [{"op": "part_in", "own": code, "sep": sep, "in": values}] if sep and code else []
    return []


__all__ = ["part_checks"]
