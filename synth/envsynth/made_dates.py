"""The day a new record was made, for its date fields nothing else sets: a non-nullable date field (format `date`,
or a pattern of one) that no parameter, inherited value or effect sets takes the business date, since its type's
blank, the empty text, would break the field's date form (create_rules.refine_create)."""

from __future__ import annotations

from typing import Any

from synth.envsynth.business_dates import moment, moment_field
from synth.envsynth.plan import ToolPlan


def date_field(schema: Any) -> bool:
    """A field of ISO dates: `format: date`, or a pattern of one."""
    return isinstance(schema, dict) and (
        schema.get("format") == "date" or str(schema.get("pattern") or "").startswith("^[0-9]{4}-[0-9]{2}-[0-9]{2}")
    )


def undated(
    field: str,
    schema: Any,
    params: dict[str, Any],
    plan: ToolPlan,
    inherits: dict[str, Any],
    effects: list[dict[str, Any]],
    timed: bool = False,
) -> bool:
    """A non-nullable date field of the new record that no parameter, inherited value or effect sets (`timed`: or
    a timestamp field)."""
    if not isinstance(schema, dict) or schema.get("type") != "string":
        return False
    dated = date_field(schema) or (timed and moment_field(schema))
    taken = field in params or field == plan.key_field or field in inherits
    return dated and not taken and all(e.get("field") != field for e in effects)


def made_on(
    own: dict[str, Any],
    initial: dict[str, Any],
    params: dict[str, Any],
    plan: ToolPlan,
    inherits: dict[str, Any],
    effects: list[dict[str, Any]],
    day: str | None,
    clock: str | None = None,
) -> dict[str, str]:
    """{field: day} for the record's date fields neither `initial` nor the rest sets (empty without a day), and
    {field: day at `clock`} for its timestamp fields named for its making (`opened_at`, not a `leave_by` the
    docs work out) when the docs' clock stands at a stated time."""
    out = {}
    for f, s in sorted(own.items()):
        if not day or f in initial or not undated(f, s, params, plan, inherits, effects, timed=clock is not None):
            continue
        if clock and moment_field(s):
            if stamp_named(f):
                out[f] = moment(day, clock, s)
        elif date_field(s):
            out[f] = day
    return out


STAMPS = ("created", "opened", "entered", "logged", "submitted", "registered", "made", "placed", "filed", "received")


def stamp_named(field: str) -> bool:
    """A date named for the record's own making (`created_on`, `opened_at`): the business date, never a copy."""
    return field.lower().split("_")[0] in STAMPS


__all__ = ["date_field", "made_on", "stamp_named", "undated"]
