"""Id arguments of a write taken from the record it writes, and ids described by what a user sees.

A write's id parameter (`<thing>_id`, `<thing>_ids`) that the target record itself holds under that
name takes one of the record's own values (the parts on this ticket); a
list parameter whose name ends with another list parameter's name (`new_part_ids` after `part_ids`)
takes siblings of the ids chosen there: other entries of the map that holds each id as a key (other
parts of the same kit), preferring entries with no false flag (available ones). An id is
described by the name of the record holding it and its options ("Desk Lamp with color red").
"""

from __future__ import annotations

import random
from typing import Any

from synth.tasks.typed_values import singular_name
from synth.tasks.values import field_words

NAME_WORDS = {"name", "title", "label"}


def _values_named(x: Any, name: str, depth: int = 0) -> list[Any]:
    if depth > 6:
        return []
    if isinstance(x, dict):
        out = [v for k, v in x.items() if k == name and isinstance(v, (str, int)) and not isinstance(v, bool)]
        return out + [y for v in x.values() for y in _values_named(v, name, depth + 1)]
    if isinstance(x, list):
        return [y for v in x for y in _values_named(v, name, depth + 1)]
    return []


def is_id_param(pname: str) -> bool:
    """True for `x_id`, `x_ids`, `xId` parameters."""
    words = field_words(pname)
    return len(words) >= 2 and words[-1] in ("id", "ids")


def own_ids(record: Any, pname: str) -> list[Any]:
    """Distinct values the record holds under the parameter's singular name, in order."""
    out: list[Any] = []
    for v in _values_named(record, singular_name(pname)):
        if v not in out:
            out.append(v)
    return out


def _maps_holding(x: Any, key: str, depth: int = 0) -> list[dict[str, Any]]:
    if depth > 6 or not isinstance(x, (dict, list)):
        return []
    vals = x.values() if isinstance(x, dict) else x
    here = [x] if isinstance(x, dict) and key in x and isinstance(x[key], dict) else []
    return here + [m for v in vals for m in _maps_holding(v, key, depth + 1)]


def siblings(state: dict[str, Any], key: str) -> list[str]:
    """Other keys of the map that holds `key` as a key of a record (sorted), entries with no false flag first."""
    for m in _maps_holding(state, str(key)):
        others = sorted(k for k in m if k != str(key) and isinstance(m[k], dict))
        ok = [k for k in others if not any(v is False for v in m[k].values())]
        return ok or others
    return []


def sibling_source(pname: str, args: dict[str, Any]) -> str | None:
    """The earlier list argument whose siblings `pname` takes (`new_part_ids` -> `part_ids`)."""
    for p, v in args.items():
        if p != pname and isinstance(v, list) and pname.endswith(p) and is_id_param(p):
            return p
    return None


def choose_ids(pname: str, schema: dict[str, Any], record: Any, state: dict, args: dict, rng: random.Random) -> Any:
    """A value for an id parameter of a write from the target record (or siblings); None when it holds none."""
    is_list = (schema or {}).get("type") == "array"
    src = sibling_source(pname, args) if is_list else None
    if src is not None:
        out = []
        for k in args[src]:
            sib = siblings(state, str(k))
            if not sib:
                return None
            out.append(rng.choice(sib))
        return out
    own = [v for v in own_ids(record, pname) if isinstance(v, str)]
    if not own:
        return None
    if is_list:
        return rng.sample(own, k=1 if len(own) == 1 or rng.random() < 0.7 else 2)
    return rng.choice(own)


def describe_id(state: dict[str, Any], key: Any, name: str) -> str | None:
    """'Desk Lamp with color red, size small': the name of the record holding the id
    (its own, else its parent's) and the text values of its first object field; None when not found."""

    def visit(x: Any, parent: str | None, depth: int) -> str | None:
        if depth > 7:
            return None
        if isinstance(x, dict):
            nm = next((v for k, v in x.items() if isinstance(v, str) and set(field_words(k)) & NAME_WORDS), parent)
            for k, v in x.items():
                if isinstance(v, dict) and (k == str(key) or v.get(name) == key) and nm:
                    return _text(v, nm)
            if x.get(name) == key and nm:
                return _text(x, nm)
            for v in x.values():
                found = visit(v, nm, depth + 1)
                if found:
                    return found
        elif isinstance(x, list):
            for v in x:
                found = visit(v, parent, depth + 1)
                if found:
                    return found
        return None

    return visit(state, None, 0)


def _text(rec: dict[str, Any], nm: str | None) -> str | None:
    if not nm:
        return None
    opts = next((v for v in rec.values() if isinstance(v, dict)), {})
    parts = [f"{k} {v}" for k, v in sorted(opts.items()) if isinstance(v, str)]
    return nm + (" with " + ", ".join(parts) if parts else "")
