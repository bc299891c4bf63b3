"""What a state change whose new state is the call's argument does for some targets only, read from the clauses a
target leads: "Docking sets `docked_on`; going back to `afloat` clears it. Hauling sets `hauled_on` and removes
the boat from the pier's `moored`."

A sentence is led by a target when it opens on a gerund whose participle (or stem) is that state's name ("Docking"
for `docked`, "Opening" for `open`) or on "going back to `x`" (moving, returning, a move to). Its clauses then:
- "sets `f`": `f` takes the argument of its name, else the business date for a date field;
- "clears `f`" or "clears it" (the field the sentence before named): `f` becomes null;
- "removes the <who> from the <owner>'s `list`": the record's `<who>_id` leaves that list (cancel_returns).
Each effect holds only when the call's argument is that target (`when`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.docs_appends import _dated
from synth.envsynth.prose import unwrap

LEAD = re.compile(
    r"^\W*(?:(?:going|moving|returning|switching)\s+(?:back\s+)?to\s+`(?P<value>[\w-]+)`"
    r"|an?\s+move\s+(?:back\s+)?to\s+`(?P<moved>[\w-]+)`|(?P<gerund>[A-Za-z]+ing)\b)",
    re.I,
)
SETS = re.compile(r"\bsets\s+`(?P<field>\w+)`", re.I)
CLEARS = re.compile(r"\bclears\s+(?:`(?P<field>\w+)`|it\b)", re.I)


def _target(sentence: str, targets: list[str]) -> str | None:
    """The one target a sentence opens on, or None."""
    m = LEAD.match(sentence)
    if m is None:
        return None
    named = m.group("value") or m.group("moved")
    if named:
        return named if named in targets else None
    stem = m.group("gerund").lower()[:-3]
    forms = {stem, stem + "ed", stem + "d", stem + stem[-1:] + "ed"}  # opening, docking, canceling -> cancelled
    forms |= {stem[:-1] + "ed"} if len(stem) > 2 and stem[-1] == stem[-2] else set()  # cancelling -> canceled
    hits = [t for t in targets if len(stem) >= 3 and t.lower() in forms]
    return hits[0] if len(hits) == 1 else None


def target_effects(
    text: str,
    own: dict[str, Any],
    cols: dict[str, Any],
    params: dict[str, Any],
    moved: dict[str, Any],
    today: str | None,
) -> list[dict[str, Any]]:
    """The effects the text ties to single targets of `moved` ({"field", "arg", "map"}), each with its `when`."""
    from synth.envsynth.cancel_returns import _pulled

    targets = sorted({t for ends in moved["map"].values() for t in ends} | set(moved["map"]))
    out: list[dict[str, Any]] = []
    last: str | None = None  # the field the sentence before named, for "clears it"
    for sentence in re.split(r"(?<=[.;])\s+", unwrap(text)):
        target = _target(sentence, targets)
        named = [m.group("field") for m in SETS.finditer(sentence)]
        if target is not None:
            when = {"arg": moved["arg"], "in": [target]}
            for m in SETS.finditer(sentence):
                field = m.group("field")
                if field in params and field in own:
                    source: dict[str, Any] = {"from": "arg", "name": field}
                elif field in own and today and ((own[field] or {}).get("format") == "date" or _dated(field)):
                    source = {"from": "const", "value": today}
                else:
                    continue
                out.append({"op": "set", "field": field, "source": source, "when": when})
            for m in CLEARS.finditer(sentence):
                field = m.group("field") or last
                if field in own:
                    out.append({"op": "set", "field": field, "source": {"from": "const", "value": None}, "when": when})
            out += [
                {**e, "when": {"all": [e["when"], when]} if "when" in e else when} for e in _pulled(sentence, own, cols)
            ]
        last = named[-1] if named else last
    return out


__all__ = ["target_effects"]
