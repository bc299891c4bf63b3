"""A number argument held between a bound and a number of the record another argument names: "`crew` must be between
1 and the boat class's `max_crew`".

The noun after "the" names a collection by its words ("boat class" -> `boat_classes`), and the call names one of its
records by the parameter of that noun (`boat_class_id`). Two `arg_limit` checks (expr_runtime.fg_check) follow: the
argument at least the low bound, and at most that record's number (`via_arg`). `argument_checks` gathers these with
the other checks the docs put on arguments, for the creates and the changes that read them.

A number parameter whose description gives a range per value of a field of the call's record ("Number of monthly
payments: 2-6 for `private` moorings, 2-12 for `club`") holds the argument within the range of the value the record
holds (an `arg_by_field` check); a record holding another value is not held.
"""

from __future__ import annotations

import re
from typing import Any

from synth.words import plural

BETWEEN = re.compile(
    r"`(?P<arg>\w+)`\s+must\s+be\s+between\s+(?P<low>\d+(?:\.\d+)?)\s+and\s+the\s+(?P<noun>[a-z][a-z ]{0,30}?)"
    r"['\u2019]s\s+`(?P<field>\w+)`",
    re.I,
)


PER_VALUE = re.compile(
    r"(?P<low>\d+)\s*(?:\u2013|-|to)\s*(?P<high>\d+)\s+for\s+(?:an?\s+|the\s+)?`?(?P<value>[\w-]+)`?", re.I
)


def field_ranges(params: dict[str, Any], own: dict[str, Any]) -> list[dict[str, Any]]:
    """`arg_by_field` checks for each number parameter described with a range per value of one record field."""
    from synth.spec import known_values

    out: list[dict[str, Any]] = []
    for name, schema in params.items():
        said = list(PER_VALUE.finditer(str((schema or {}).get("description") or ""))) if _numbers(schema) else []
        values = {m.group("value") for m in said}
        fields = [f for f, s in own.items() if len(said) >= 2 and values <= set(known_values(s))]
        if len(fields) == 1 and len(values) == len(said):
            ranges = {m.group("value"): [int(m.group("low")), int(m.group("high"))] for m in said}
            out.append({"op": "arg_by_field", "arg": name, "field": fields[0], "ranges": ranges})
    return out


def _numbers(schema: Any) -> bool:
    kind = schema.get("type") if isinstance(schema, dict) else None
    return bool({"number", "integer"} & set(kind if isinstance(kind, list) else [kind]))


def range_checks(text: str, params: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """`arg_limit` checks for each "`x` must be between N and the <noun>'s `<field>`" the text says."""
    out: list[dict[str, Any]] = []
    for m in BETWEEN.finditer(text):
        arg, noun = m.group("arg"), "_".join(m.group("noun").lower().split())
        param, col = f"{noun}_id", plural(noun)
        record = ((cols.get(col) or {}).get("additionalProperties") or {}) if isinstance(cols.get(col), dict) else {}
        if (
            not _numbers(params.get(arg))
            or param not in params
            or not _numbers((record.get("properties") or {}).get(m.group("field")))
        ):
            continue
        low = float(m.group("low")) if "." in m.group("low") else int(m.group("low"))
        out.append({"op": "arg_limit", "arg": arg, "cmp": ">=", "value": low})
        limit = {"plus": [{"path": [m.group("field")]}]}
        out.append({"op": "arg_limit", "arg": arg, "cmp": "<=", "expr": limit, "via_arg": param, "collection": col})
    return out


def argument_checks(
    text: str, params: dict[str, Any], cols: dict[str, Any], today: str | None, own: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The checks the docs put on a call's arguments, for a create and a change alike: the days a date may take
    (its description, a weekend error, and with the call's record `own`, a value allowed only once a date of it has
    passed), records that must belong together (owned_args.py), and numbers within a named record's range."""
    from synth.envsynth.owned_args import owned_checks
    from synth.envsynth.param_dates import described_clocks, described_dates, error_weekdays, said_dates, value_dates

    out = described_dates(params, today) + described_clocks(params) + error_weekdays(text, params, today)
    out += [c for c in said_dates(text, params, today) if c not in out]  # "the new expiry date must be in the future"
    out += value_dates(text, params, own, today) if own is not None else []
    if own is not None:  # a range per value of the record's field; values only a kind's certified ones may take
        from synth.envsynth.certified_args import certified_checks
        from synth.envsynth.flag_required import flag_required_checks, only_for_flagged

        out += field_ranges(params, own) + certified_checks(text, params, own, cols)
        out += flag_required_checks(text, params, own, cols)  # "if the boat is flagged needs_pilot, pilot_name is"
        out += only_for_flagged(text, params, own, cols)  # "HX-PILOT only for boats flagged needs_pilot"
        from synth.envsynth.kind_caps import kind_caps

        out += kind_caps(text, params, own, cols)  # "per-day hires cannot exceed the days of the charter"
        from synth.envsynth.refused_for import refused_for

        out += refused_for(text, params, own, cols)  # "`tow` is refused for club boats with an unpaid levy"
    from synth.envsynth.id_rules import id_rules

    out += id_rules(text, params, cols, own)  # "the crew must be active sailors", "(`chartered_by`) cannot be removed"
    return out + owned_checks(text, params, cols) + range_checks(text, params, cols)


__all__ = ["argument_checks", "field_ranges", "range_checks"]
