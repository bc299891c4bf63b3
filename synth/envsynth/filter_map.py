"""Filter parameters that are not a field of the records, mapped onto one: a field named by the same word
(`amenity` -> `amenities`, `plan` -> `allowed_plans`, `specialty` -> `specialties`), a bound on a number field
(`min_length` -> length >=, `max_fee` -> any rate's fee <=, `date_from` / `to_date` -> a date field on or
after / before, compared as ISO text), or a field of the record another one names
(`pier` of a mooring's berth through `berth_id`, `date` of a voyage's slot through `slot_id`,
`owner_name` -> the name of the record `owner_id` names, `state` -> its `address.state`), or a field of the
records of another collection that name the record (`buoy_serial` -> the `serial` of any buoy whose
`boat_id` is the boat: `reverse`).

Each mapping is {"path": [...], "via": reference field or None, "collection": the referenced collection or None,
"op": "eq" | "min" | "max"}; a path step "*" takes every element of a list. The environment reads the value
with the same steps (filter.py.j2).
"""

from __future__ import annotations

import re
from typing import Any

from synth.words import plural, singular, split_words

BOUNDS = {"min": "min", "max": "max", "from": "min", "to": "max", "since": "min", "until": "max"}
ORDERED_TYPES = ("number", "integer")
ORDERED_FORMATS = ("date", "date-time")


def _ordered(schema: dict[str, Any]) -> bool:
    """A field a bound compares: a number, or a date the data writes as ISO text (which orders as text)."""
    return schema.get("type") in ORDERED_TYPES or schema.get("format") in ORDERED_FORMATS


def _props(schema: dict[str, Any]) -> dict[str, Any]:
    return (schema.get("properties") or {}) if isinstance(schema, dict) else {}


STEM_ENDINGS = ("ing", "ure", "al", "ed")


def _stem(word: str) -> str:
    """The word without one derivational ending (`arriving`, `arrival` -> `arriv`), when four letters remain."""
    for end in STEM_ENDINGS:
        if word.endswith(end) and len(word) - len(end) >= 4:
            return word[: -len(end)]
    return word


def _rank(name: str, field: str) -> int | None:
    """How well the parameter names the field: 0 the same word in any number, 1 the field's last word (a list
    `allowed_plans` for `plan`, `clinic_city` for `city`), 2 another form of the same one-word stem (`arriving`
    for `arrival`); None not at all."""
    if singular(name.lower()) == singular(field.lower()):
        return 0
    words = split_words(field)
    if len(words) > 1 and singular(words[-1]) == singular(name.lower()):
        return 1
    if "_" not in name and "_" not in field and _stem(name.lower()) == _stem(field.lower()) != name.lower():
        return 2
    return None


def _find(name: str, props: dict[str, Any], ordered: bool = False) -> list[Any] | None:
    """The path of the field `name` names among these properties (one nested object or list of objects deep):
    the best-ranked match, when it is the only one of its rank. A bound (`ordered`) looks for a number or date
    field and prefers the record's own fields to nested ones (`from_date`: `sail_date`, not `log[].date`)."""
    candidates: list[tuple[int, int, list[Any]]] = []
    for field, schema in sorted(props.items()):
        schema = schema if isinstance(schema, dict) else {}
        rank = _rank(name, field)
        if rank is not None and (not ordered or _ordered(schema)):
            candidates.append((0, rank, [field]) if ordered else (rank, 0, [field]))
        inner = _props(schema) or _props(schema.get("items") or {})
        for sub, sub_schema in sorted(inner.items()):
            rank = _rank(name, sub)
            if rank is not None and (not ordered or _ordered(sub_schema or {})):
                path = [field, sub] if _props(schema) else [field, "*", sub]
                candidates.append((1, rank, path) if ordered else (rank, 1, path))
    if not candidates:
        return None
    best = min(c[:2] for c in candidates)
    top = [c[2] for c in candidates if c[:2] == best]
    return top[0] if len(top) == 1 else None


def _bound(name: str) -> tuple[str, str] | None:
    """("min" | "max", the field's word) of `min_capacity`, `max_price`, `price_max`, `date_from`, `from_date`."""
    words = name.lower().split("_")
    if len(words) >= 2 and words[0] in BOUNDS:
        return BOUNDS[words[0]], "_".join(words[1:])
    if len(words) >= 2 and words[-1] in BOUNDS:
        return BOUNDS[words[-1]], "_".join(words[:-1])
    return None


def referenced_collection(field: str, schema: Any, collection: str, cols: dict[str, Any]) -> str | None:
    """The collection a field names: the data's reference (`course_code` -> courses), else for a `<noun>_id`
    field `<noun>s`, else the one collection whose name ends so (`owner_id` -> boatowners)."""
    named = schema.get("x-references") if isinstance(schema, dict) else None
    if isinstance(named, str) and named in cols and named != collection:
        return named
    if not field.endswith("_id"):
        return None
    noun = plural(field[:-3])
    ending = [c for c in cols if c != collection and (c == noun or c.endswith(noun))]
    return ending[0] if len(ending) == 1 else None


def _props_at(props: dict[str, Any], path: list[str]) -> dict[str, Any]:
    """The schema a path of fields leads to ({} past a list step or an unknown field)."""
    node: Any = {"properties": props}
    for step in path:
        node = _props(node).get(step) if isinstance(node, dict) else None
    return node if isinstance(node, dict) else {}


def _own_noun_dropped(name: str, collection: str) -> str:
    """The parameter's name without leading words that end the records' own noun (`site_type` of campsites ->
    `type`, `order_status` of orders -> `status`); "" when it has none."""
    words = name.lower().split("_")
    noun = singular(collection.lower()).replace("_", "")
    for cut in range(len(words) - 1, 0, -1):
        if noun.endswith("".join(words[:cut])):
            return "_".join(words[cut:])
    return ""


def map_param(name: str, collection: str, cols: dict[str, Any]) -> dict[str, Any] | None:
    """How the records of `collection` are compared with the parameter `name`, or None."""
    record = _props((cols.get(collection) or {}).get("additionalProperties") or {})
    path = _find(name, record) or _find(_own_noun_dropped(name, collection), record)
    if path is not None:
        return {"path": path, "via": None, "collection": None, "op": "eq"}
    bound = _bound(name)
    if bound is not None:
        path = _find(bound[1], record, ordered=True)
        if path is not None:
            return {"path": path, "via": None, "collection": None, "op": bound[0]}
    refs = {f: t for f in sorted(record) if (t := referenced_collection(f, record[f], collection, cols))}
    for ref, other in refs.items():  # `owner_name` -> the `name` of the record `owner_id` names
        noun = ref[:-3]
        if name.startswith(noun + "_"):
            path = _find(name[len(noun) + 1 :], _props((cols[other] or {}).get("additionalProperties") or {}))
            if path is not None:
                return {"path": path, "via": ref, "collection": other, "op": "eq"}
    found = []
    for ref, other in refs.items():
        path = _find(name, _props((cols[other] or {}).get("additionalProperties") or {}))
        if path is not None:
            found.append({"path": path, "via": ref, "collection": other, "op": "eq"})
    if found:
        return found[0] if len(found) == 1 else None
    naming = []  # `buoy_serial` -> the `serial` of a buoy naming the record (`boat_id`): any one of them
    for other in sorted(c for c in cols if c != collection):
        theirs = _props((cols[other] or {}).get("additionalProperties") or {})
        refs = [f for f in sorted(theirs) if referenced_collection(f, theirs[f], other, cols) == collection]
        path = _find(_own_noun_dropped(name, other), theirs)  # the name leads with their noun, or names a text
        bare = _find(name, theirs)  # field of theirs (`branch`), not a date or number (`arrival` is no such filter)
        dated = bool(re.search(r"(?:^|_)(?:date|day|time|on|at)$", bare[-1])) if bare else False
        if path is None and bare is not None and not dated and not _ordered(_props_at(theirs, bare)):
            path = bare
        if len(refs) == 1 and path is not None and path[0] not in refs:
            naming.append({"path": path, "via": None, "collection": other, "reverse": refs[0], "op": "eq"})
    return naming[0] if len(naming) == 1 else None


__all__ = ["map_param", "referenced_collection"]
