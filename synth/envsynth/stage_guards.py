"""Guards on the moves a change makes at one stage only, as its docs say: "Completing an order also does the
closing work: ... a non-zero `fee` is charged to the skipper's tab and a `fee` entry is appended to the skipper's
log". On a change whose argument gives the new state (state_moves.arrow_moves), the moves said from such a
sentence on hold only when the argument is that state (`completed`, the state the gerund names); a move of "a
non-zero `x`" holds only when the record's `x` is not zero; "A haul cannot be completed if the skipper is no longer
`active`" checks the linked record when a record of that kind is moved to that state."""

from __future__ import annotations

import json
import re
from typing import Any

from synth.envsynth.docs_appends import number_fields
from synth.envsynth.prose import unwrap
from synth.spec import known_values, record_props
from synth.words import plural

STAGE = re.compile(r"(?:^|(?<=[.!?:]))\s*(?P<verb>[A-Z][a-z]+ing)\s+(?:an?|the|this|that)\s+\w+\s+also\b")
NON_ZERO = re.compile(r"\b(?:a|an|any)\s+non-?zero\s+`?(\w+)`?", re.I)
GUARDED = ("adjust", "ref_append")


def stage_split(text: str, moved: dict[str, Any] | None) -> tuple[str, dict[str, Any]] | None:
    """(the text before the stage's sentence, the guard on the argument) when a sentence opens on a gerund naming
    one state the argument may give ("Completing ... also ..." -> `completed`)."""
    if not moved:
        return None
    said = unwrap(text)
    values = sorted({v for targets in moved["map"].values() for v in targets})
    for m in STAGE.finditer(said):
        stem = m.group("verb").lower()[:-3]  # "complet", "clos", "cancell"
        hits = [v for v in values if v.lower().startswith(stem[: max(4, len(stem) - 1)])]
        if len(hits) == 1:
            return said[: m.start()], {"arg": moved["arg"], "in": hits}
    return None


def _key(effect: dict[str, Any]) -> str:
    return json.dumps([effect.get(k) for k in ("op", "collection", "field", "path")], sort_keys=True, default=str)


def _reads(node: Any, field: str) -> bool:
    """Whether a source or expression reads the record's `field`."""
    if isinstance(node, dict):
        if node.get("path") == [field] and node.get("from") in (None, "record"):
            return True
        return any(_reads(v, field) for v in node.values())
    return isinstance(node, list) and any(_reads(v, field) for v in node)


def _with(effect: dict[str, Any], guard: dict[str, Any]) -> dict[str, Any]:
    held = effect.get("when")
    return {**effect, "when": guard if held is None else {"all": [held, guard]}}


def stage_guards(
    text: str, effects: list[dict[str, Any]], before: list[dict[str, Any]], guard: dict[str, Any] | None, own: dict
) -> list[dict[str, Any]]:
    """The effects with the stage's `guard` on each move not read from the text before the stage (`before`: the
    moves read from that text alone), and "a non-zero `x`" guards on the moves that read `x`."""
    early = {_key(e) for e in before}
    out = []
    zero = [m.group(1) for m in NON_ZERO.finditer(unwrap(text)) if m.group(1) in number_fields(own)]
    for effect in effects:
        if effect.get("op") in GUARDED:
            if guard is not None and _key(effect) not in early:
                effect = _with(effect, guard)
            for field in zero:
                if _reads({k: v for k, v in effect.items() if k not in ("path", "when")}, field):
                    effect = _with(effect, {"field": field, "not_in": [0, 0.0]})
        out.append(effect)
    return out


KIND_REFUSED = re.compile(  # "A haul cannot be completed if the skipper is no longer `active`"
    r"\bAn?\s+`?(?P<kind>[\w-]+)`?\s+(?:\w+\s+)?cannot\s+be\s+`?(?P<state>[\w-]+)`?\s+if\s+the\s+(?P<noun>[a-z]\w*)\s+"
    r"is\s+no\s+longer\s+`(?P<value>[\w-]+)`",
    re.I,
)


def kind_refusals(text: str, own: dict, cols: dict[str, Any], moved: dict[str, Any] | None) -> list[dict[str, Any]]:
    """`linked_state` checks for "A haul cannot be completed if the skipper is no longer `active`": a record of that
    kind (a known value of one of its fields) moved to that state needs its linked record in that state."""
    if not moved:
        return []
    states = set(moved["map"]) | {v for targets in moved["map"].values() for v in targets}
    out = []
    for m in KIND_REFUSED.finditer(unwrap(text)):
        noun, kind = m.group("noun").lower(), m.group("kind")
        col, via = plural(noun), f"{noun}_id"
        kinds = [f for f, sub in sorted(own.items()) if kind in known_values(sub)]
        theirs = record_props(cols, col) if col in cols else {}
        fields = [f for f, sub in sorted(theirs.items()) if m.group("value") in known_values(sub)]
        if m.group("state") in states and via in own and len(kinds) == 1 and len(fields) == 1:
            check = {"op": "linked_state", "collection": col, "via": via, "field": fields[0]}
            guard = {"all": [{"field": kinds[0], "in": [kind]}, {"arg": moved["arg"], "in": [m.group("state")]}]}
            out.append({**check, "allowed": [m.group("value")], "when": guard})
    return out


KIND_ITEM = re.compile(  # "- `haul` / `relaunch`: the crane turns `busy` and the skipper becomes `afloat`"
    r"(?:^|\s)-\s+(?P<kinds>`[\w-]+`(?:\s*(?:/|,|or|and)\s*`[\w-]+`)*)\s*:\s*(?P<body>[^;]+?)(?=;|\.\s|\.$|$)"
)
TURNS = re.compile(r"^(?:and\s+)?the\s+(?P<noun>[a-z]\w*)\s+(?:turns|becomes|goes\s+to)\s+`(?P<value>[\w-]+)`$", re.I)


def kind_sets(text: str, own: dict, cols: dict[str, Any], stage: tuple[str, dict[str, Any]] | None) -> list[dict]:
    """`ref_set` effects for the stage's items by kind ("Completing ... also does the closing work: - `haul`: the
    crane turns `busy`; ..."): a record of those kinds moved to the stage's state sets the linked records so."""
    if stage is None:
        return []
    out = []
    for m in KIND_ITEM.finditer(unwrap(text)[len(stage[0]) :]):
        kinds = re.findall(r"`([\w-]+)`", m.group("kinds"))
        fields = [f for f, sub in sorted(own.items()) if set(kinds) & set(known_values(sub))]  # a kind no sample shows
        for clause in re.split(r",\s+|\s+and\s+(?=the\b)", m.group("body").strip()):
            said = TURNS.match(clause.strip())
            noun = said.group("noun").lower() if said else ""
            theirs = record_props(cols, plural(noun)) if plural(noun) in cols else {}
            states = [f for f, sub in sorted(theirs.items()) if said and said.group("value") in known_values(sub)]
            if len(fields) == 1 and f"{noun}_id" in own and len(states) == 1:
                when = {"all": [{"field": fields[0], "in": kinds}, stage[1]]}
                change = {"op": "ref_set", "collection": plural(noun), "via": f"{noun}_id", "field": states[0]}
                out.append({**change, "value": said.group("value"), "when": when})
    return out


__all__ = ["kind_refusals", "kind_sets", "stage_guards", "stage_split"]
