"""What a change allows for one value of a closed argument, from the bullet that value leads:

    payment_method:
    - "berth_credit": charged to the skipper's berth credit. Only for member-rate skippers whose status is
      "active", and only if owed + total stays within credit_cap; the total is added to the skipper's owed.

Each clause becomes a check that holds only when the call passes that value (`when`):
- "Only for <value> <noun>s": the record the change's record links as <noun> holds that value in the one closed
  field that knows it (`linked_state`);
- "whose <field> is "<value>"": that field of the same record holds the value (`linked_state`);
- "only if <a> + <b> stays within <c>" (or "does not exceed"): the sum of numbers of the linked record and of the
  change's own record (a nested one by its last name: `total` for `charges.total`) is at most the linked record's
  number (`sum_within`, expr_runtime.fg_check).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.clause_guards import BULLET, bullet_guards
from synth.envsynth.create_checks import noun_link
from synth.envsynth.create_rules import _known
from synth.envsynth.docs_appends import is_number
from synth.envsynth.figure_terms import param_default
from synth.spec import record_props as _props
from synth.words import singular

ONLY_FOR = re.compile(r"\bonly\s+for\s+['`\"]?([\w-]+)['`\"]?\s+(\w+?)s?\b(?P<rest>[^.;]*)", re.I)
WHOSE = re.compile(r"\bwhose\s+`?(\w+)`?\s+is\s+['`\"]([\w-]+)['`\"]", re.I)
WITHIN = re.compile(
    r"\bonly\s+if\s+`?(\w+)`?\s*\+\s*`?([\w.]+)`?\s+(?:stays\s+within|does\s+not\s+exceed|is\s+at\s+most)\s+`?(\w+)`?",
    re.I,
)


def _own_number(word: str, own: dict[str, Any]) -> list[str] | None:
    """The path of the record's number a word names: its own field, else the one nested number of that name."""
    if is_number(own.get(word)):
        return [word]
    nested = [
        [f, word]
        for f, s in sorted(own.items())
        if isinstance(s, dict) and is_number((s.get("properties") or {}).get(word))
    ]
    return nested[0] if len(nested) == 1 else None


def _bullet_checks(text: str, own: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """The checks one bullet's text says, without their `when`."""
    out: list[dict[str, Any]] = []
    link: tuple[str, str] | None = None
    for m in ONLY_FOR.finditer(text):
        link = noun_link(singular(m.group(2).lower()), own, cols)
        theirs = _props(cols, link[1]) if link else {}
        holders = [f for f, s in sorted(theirs.items()) if m.group(1) in [str(v) for v in _known(s or {})]]
        if link and len(holders) == 1:
            out.append(
                {
                    "op": "linked_state",
                    "collection": link[1],
                    "via": link[0],
                    "field": holders[0],
                    "allowed": [m.group(1)],
                }
            )
        for whose in WHOSE.finditer(m.group("rest")) if link else []:
            if whose.group(2) in [str(v) for v in _known(theirs.get(whose.group(1)) or {})]:
                out.append(
                    {
                        "op": "linked_state",
                        "collection": link[1],
                        "via": link[0],
                        "field": whose.group(1),
                        "allowed": [whose.group(2)],
                    }
                )
    for m in WITHIN.finditer(text):
        if link is None:
            continue
        theirs = _props(cols, link[1])
        terms = []
        for word in (m.group(1), m.group(2)):
            if is_number(theirs.get(word)):
                terms.append({"linked": word})
            elif _own_number(word.split(".")[-1], own):
                terms.append({"own": _own_number(word.split(".")[-1], own)})
        if len(terms) == 2 and is_number(theirs.get(m.group(3))):
            out.append({"op": "sum_within", "collection": link[1], "via": link[0], "add": terms, "limit": m.group(3)})
    return out


def value_bullet_checks(
    text: str, own: dict[str, Any], cols: dict[str, Any], params: dict[str, Any]
) -> list[dict[str, Any]]:
    """The checks of each bullet a closed argument's value leads, each held only for that value."""
    out: list[dict[str, Any]] = []
    for line, guard in bullet_guards(text, params):
        if guard is not None:
            when = {"arg": guard["arg"], "default": param_default(params[guard["arg"]]), "in": guard["in"]}
            out += [{**check, "when": when} for check in _bullet_checks(BULLET.sub("", line), own, cols)]
    return out


__all__ = ["value_bullet_checks"]
